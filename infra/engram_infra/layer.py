"""Build the shared Lambda layer without Docker: ``python infra/engram_infra/layer.py [--out DIR]``.

The layer is a folder ``<out>/python/`` holding the ``engram`` domain library, the ``engram_http``
glue every handler imports, and the runtime dependencies (``pyproject.toml``'s dependencies plus
its ``aws`` extra) as Linux arm64 wheels for the functions' Python version, fetched by pip with
``--platform manylinux2014_aarch64 --only-binary=:all:``, so it builds the same on any machine.

The dependencies are installed again only when the requirement list, the Python version or the
platform change (a stamp file records them); the two source packages are copied on every build.

The layer ships bytecode when this machine has the functions' Python (``python3.14`` on the PATH,
or the Python running the build): Lambda's ``/opt`` is read-only, so a layer without it compiles
every module it imports on every cold start. Measured on this machine's layer (Python 3.11):
importing what retain's handler and its first call import takes 0.50 s of CPU with the layer's
bytecode and 1.13 s without (the standard library compiled either way): 2.2 s more at 512 MB's
share of a vCPU, past the 3 s a cold start may take (``functions.COLD_START_S``). The files are
compiled with unchecked hashes: a zip's timestamps cannot invalidate them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO_ROOT / "build" / "layer"
# Lambda's Python 3.12+ runtimes run on Amazon Linux 2023 (glibc 2.34): wheels built for
# manylinux2014 (glibc 2.17) or manylinux_2_28 run there; nothing newer is accepted.
PLATFORMS = ("manylinux2014_aarch64", "manylinux_2_28_aarch64")


def machine_platforms(machine: str | None = None) -> tuple[str, ...]:
    """The same wheel tags for this machine's architecture (to run the layer here, in tests).

    >>> machine_platforms("x86_64")
    ('manylinux2014_x86_64', 'manylinux_2_28_x86_64')
    """
    import platform

    arch = machine or platform.machine()
    arch = {"arm64": "aarch64", "amd64": "x86_64", "AMD64": "x86_64"}.get(arch, arch)
    return tuple(p.replace("aarch64", arch) for p in PLATFORMS)


SOURCES = {"engram": REPO_ROOT / "shared" / "engram", "engram_http": REPO_ROOT / "functions" / "engram_http"}
LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024
STAMP = ".engram-layer.json"


@dataclass(frozen=True)
class LayerBuild:
    path: Path
    size_bytes: int
    requirements: tuple[str, ...]
    reused_dependencies: bool
    bytecode: str | None = None
    """The interpreter that compiled the layer's bytecode; None: none of the functions' Python here."""

    @property
    def size_mb(self) -> float:
        return self.size_bytes / 1024 / 1024


def runtime_requirements(pyproject: Path = REPO_ROOT / "pyproject.toml") -> tuple[str, ...]:
    """The project's dependencies plus its ``aws`` extra, as written in pyproject.toml."""
    project = tomllib.loads(pyproject.read_text())["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["aws"]]
    return tuple(dict.fromkeys(requirements))


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def _fingerprint(requirements: tuple[str, ...], python_version: str, platforms: tuple[str, ...]) -> str:
    text = json.dumps({"requirements": requirements, "python": python_version, "platforms": platforms})
    return hashlib.sha256(text.encode()).hexdigest()


def _install_dependencies(
    target: Path, requirements: tuple[str, ...], python_version: str, platforms: tuple[str, ...]
) -> None:
    platform_args = [arg for platform in platforms for arg in ("--platform", platform)]
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--target",
        str(target),
        *platform_args,
        "--implementation",
        "cp",
        "--python-version",
        python_version,
        "--only-binary=:all:",
        "--upgrade",
        *requirements,
    ]
    subprocess.run(command, check=True)


def interpreter_for(python_version: str) -> str | None:
    """A Python of ``python_version`` on this machine: the one running, or ``python<version>`` on
    the PATH if it runs and says it is that version (a version manager's shim may be on the PATH
    for a version it does not select)."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == python_version:
        return sys.executable
    found = shutil.which(f"python{python_version}")
    if found is None:
        return None
    asked = [found, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]
    try:
        done = subprocess.run(asked, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if done.returncode == 0 and done.stdout.strip() == python_version else None


def compile_bytecode(folder: Path, interpreter: str) -> None:
    """Every module under ``folder`` compiled by ``interpreter`` beside itself (``__pycache__``),
    used on its presence alone (``unchecked-hash``: the default checks the source's timestamp,
    which the layer's zip does not keep to the second)."""
    command = [interpreter, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash"]
    command.append(str(folder))
    # A file that does not compile (none known) stays without bytecode, as before: not a failure.
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL)


def build_layer(
    out: Path = DEFAULT_OUT,
    *,
    python_version: str = "3.14",
    requirements: tuple[str, ...] | None = None,
    platforms: tuple[str, ...] = PLATFORMS,
) -> LayerBuild:
    """Build (or refresh) the layer folder at ``out`` and return what it holds. ``platforms``:
    the wheel tags (Lambda's arm64 by default; ``machine_platforms()`` builds the very same
    layer for this machine, so the tests can run the functions as Lambda lays them out)."""
    if not re.fullmatch(r"3\.\d+", python_version):
        raise ValueError(f"python_version: '{python_version}' is not like 3.14")
    wanted = requirements if requirements is not None else runtime_requirements()
    fingerprint = _fingerprint(wanted, python_version, platforms)
    stamp = out / STAMP
    site = out / "python"
    interpreter = interpreter_for(python_version)
    previous = json.loads(stamp.read_text()) if stamp.is_file() else {}
    reused = previous.get("fingerprint") == fingerprint and previous.get("bytecode") == interpreter
    if not reused:
        shutil.rmtree(out, ignore_errors=True)
        site.mkdir(parents=True)
        _install_dependencies(site, wanted, python_version, platforms)
        # Bytecode pip wrote with this machine's Python and console scripts pointing at it are
        # useless there; the functions' own Python compiles it again below when it is here.
        for cache in list(site.rglob("__pycache__")):
            shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(site / "bin", ignore_errors=True)
        if interpreter is not None:
            compile_bytecode(site, interpreter)
        state = {"fingerprint": fingerprint, "requirements": wanted, "bytecode": interpreter}
        stamp.write_text(json.dumps(state, indent=2))
    for name, source in SOURCES.items():
        shutil.rmtree(site / name, ignore_errors=True)
        shutil.copytree(source, site / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        if interpreter is not None:
            compile_bytecode(site / name, interpreter)
    size = folder_size(out)
    if size > LAMBDA_UNZIPPED_LIMIT:
        raise RuntimeError(f"the layer is {size / 1024 / 1024:.1f} MB unzipped, over Lambda's 250 MB")
    return LayerBuild(
        path=out, size_bytes=size, requirements=wanted, reused_dependencies=reused, bytecode=interpreter
    )


def bytecode_note(built: LayerBuild, python_version: str) -> str:
    """What a deploy should know of the layer's bytecode (printed by ``app.py`` and ``main``)."""
    if built.bytecode is not None:
        return f"bytecode compiled by {built.bytecode}"
    return (
        f"no bytecode: this machine has no Python {python_version} (python{python_version} on the PATH), "
        "so every cold start compiles the modules it imports (retain's: ~0.6 s more CPU, ~2.2 s at 512 MB); "
        f"install Python {python_version}, or deploy with -c python_version=<a 3.12+ you have>"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="layer folder (default build/layer)")
    parser.add_argument("--python-version", default="3.14", help="Lambda Python runtime (default 3.14)")
    args = parser.parse_args(argv)
    built = build_layer(args.out, python_version=args.python_version)
    state = "dependencies reused" if built.reused_dependencies else "dependencies installed"
    print(f"layer {built.path}: {built.size_mb:.1f} MB unzipped ({state}; limit 250 MB)")
    print(f"layer: {bytecode_note(built, args.python_version)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
