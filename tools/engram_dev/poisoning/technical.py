"""Technical text for the n-gram head's everyday side: the docstrings and one-line strings
under ``shared/``.

The corpus's everyday half is what people say; memories also hold technical notes, and text
unlike any training row is where character n-grams guess worst. Fitted on the corpus alone, the
n-gram head quarantined 235 of 539 paragraphs of documentation it never read (``docs/`` and the
docstrings of ``functions/``, ``tools/``, ``infra/``; the vector head: 127): "Result shaping
after fusion: length normalisation and MMR diversity" scored p 0.995. Fitted with our
docstrings too, it flagged none of them, but 65 of 5,750 one-line strings of the tests,
``functions/`` and ``infra/`` beyond the 78 the other screens flag ("examples",
"chat.completion", "000000000000" at p ≥ 0.998); with the one-line strings of ``shared/`` as
well, and digits read as one ``0`` (``ngrams``), 10. So these rows teach it what such text looks
like. They are a snapshot (``technical.json``, rewritten by ``write()``), so a refit repeats byte
for byte while the code changes; the modules that speak of instructions (screening, extraction,
the poisoning tools) are left out. Only ``train_ngrams`` reads them, with a small weight; the
corpus, its splits and the other heads do not.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

__all__ = ["SKIP", "SNAPSHOT", "docstrings_of", "rows", "write"]

SNAPSHOT = Path(__file__).with_name("technical.json")
SOURCE = Path("shared")
SKIP = ("screening", "extraction", "poisoning", "guard")
MIN_CHARS = 40  # a docstring
MIN_STRING, MAX_STRING = 3, 120  # a one-line string


def docstrings_of(tree: ast.Module, *, clean: bool = True) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = ast.get_docstring(node, clean=clean)
            if text:
                found.append(text)
    return found


def _strings(tree: ast.Module) -> list[str]:
    """The one-line string constants of a module (names, keys, messages, formats), docstrings aside."""
    docstrings = set(docstrings_of(tree, clean=False))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and MIN_STRING <= len(node.value) <= MAX_STRING
        and "\n" not in node.value
        and node.value not in docstrings
    ]


def write(source: Path = SOURCE, path: Path = SNAPSHOT) -> list[str]:
    """Snapshot the docstrings under ``source``, then its one-line strings (by file, each once)."""
    files = [f for f in sorted(source.rglob("*.py")) if not any(part in str(f) for part in SKIP)]
    trees = [ast.parse(f.read_text(encoding="utf-8")) for f in files]
    docstrings = list(dict.fromkeys(t for tree in trees for t in docstrings_of(tree) if len(t) >= MIN_CHARS))
    known = set(docstrings)
    strings = [t for t in dict.fromkeys(t for tree in trees for t in _strings(tree)) if t not in known]
    texts = docstrings + strings
    path.write_text(json.dumps(texts, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return texts


def rows(path: Path = SNAPSHOT) -> list[str]:
    """The snapshot's texts."""
    texts: list[str] = json.loads(path.read_text(encoding="utf-8"))
    return texts
