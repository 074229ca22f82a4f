"""Pure scoring functions: fusion, lifecycle, length normalisation, MMR. No I/O."""
