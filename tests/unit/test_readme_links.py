"""Every relative link of the README resolves: the file exists, and an anchor (``docs/x.md#part``
or ``#part``) is a heading id of that page under the slug rules of ``mkdocs.yml``, so a link
that works on the site also works where the README is read (GitHub, PyPI's page, an editor)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import markdown
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "href" and value is not None:
                self.hrefs.append(value)
            elif name == "id" and value is not None:
                self.ids.add(value)


def _render(path: Path) -> _Collector:
    """The page through the Markdown extensions (and slugify) the docs site uses."""
    config: dict[str, Any] = yaml.load(  # mkdocs.yml names its slugify as a Python object
        (ROOT / "mkdocs.yml").read_text(), Loader=yaml.UnsafeLoader
    )
    names: list[str] = []
    options: dict[str, dict[str, Any]] = {}
    for entry in config["markdown_extensions"]:
        name, settings = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        names.append(name)
        options[name] = settings or {}
    collector = _Collector()
    collector.feed(markdown.Markdown(extensions=names, extension_configs=options).convert(path.read_text()))
    return collector


def _relative_links() -> list[str]:
    return [h for h in _render(README).hrefs if not urlsplit(h).scheme and not h.startswith("//")]


def test_the_readme_has_relative_links_to_check() -> None:
    # Given the README's links, When the relative ones are picked, Then there are many (the docs pages)
    assert len(_relative_links()) >= 10


@pytest.mark.parametrize("href", sorted(set(_relative_links())))
def test_a_relative_readme_link_names_a_file_that_exists_and_an_anchor_it_has(href: str) -> None:
    # Given a relative link of the README
    parts = urlsplit(href)
    target = (README.parent / unquote(parts.path)) if parts.path else README
    # Then its file (or folder) exists in the checkout
    assert target.exists(), f"{href}: no {target.relative_to(ROOT)}"
    # And its anchor, if any, is an id of that page as the docs site renders it
    if parts.fragment:
        assert target.suffix == ".md", f"{href}: an anchor into a file that is not a page"
        ids = _render(target).ids
        assert unquote(parts.fragment) in ids, f"{href}: {target.name} has no #{parts.fragment}"


def test_the_readme_is_a_first_hour_read() -> None:
    # Given the README, Then it stays short enough to read to the end (the rest is in docs/)
    assert len(README.read_text().splitlines()) <= 500
