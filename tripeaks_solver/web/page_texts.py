"""The texts of the page's HTML (static/index.html) that the page translates, read as
i18n.js reads them: an element marked ``data-i18n`` is keyed by its whole text, and
``data-i18n-attrs="title aria-label"`` names attributes whose values are keys; white
space runs count as one space; ``data-i18n-context="button"`` gives the element's keys
a context (pgettext's: the same English meaning another thing, "Start" the field's
label and "Start" the button). ``pybabel extract`` calls :func:`extract_html` (babel.cfg
maps index.html to it), and the tests read the same texts.

:func:`page_keys` is the page's share of the catalogs: every key its files look up,
read from them as pybabel reads them. The server puts only those in the page (the
terminal's texts, and the server's own, which it words itself, stay out).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import IO

STATIC = Path(__file__).parent / "static"


def squeeze(text: str) -> str:
    """``text`` with its runs of white space one space, and none at the ends (as i18n.js
    keys a text)."""
    return re.sub(r"\s+", " ", text).strip()


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str | None, str]] = []
        # the data-i18n element read: its tag, line, context and text so far
        self.open: tuple[str, int, str | None, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if self.open is not None:
            raise ValueError(f"line {line}: <{tag}> inside <{self.open[0]} data-i18n> "
                             f"(line {self.open[1]}): a translated element holds only text")
        values = dict(attrs)
        context = values.get("data-i18n-context") or None
        for name in (values.get("data-i18n-attrs") or "").split():
            text = squeeze(values.get(name) or "")
            if text:
                self.found.append((line, context, text))
        if "data-i18n" in values:
            self.open = (tag, line, context, [])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.open is not None and self.open[0] == tag:
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open[3].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.open is not None and tag == self.open[0]:
            text = squeeze("".join(self.open[3]))
            if text:
                self.found.append((self.open[1], self.open[2], text))
            self.open = None


def html_texts(html: str) -> list[tuple[int, str | None, str]]:
    """(line, context, key) of every text of ``html`` the page translates, in order
    (context None: a plain ``_()`` key)."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser.found


def extract_html(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: dict) -> Iterator[tuple[int, str | None, str | list[str], list[str]]]:
    """Babel's extractor for the page's HTML (``pybabel extract``, babel.cfg)."""
    html = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, context, text in html_texts(html):
        if context is None:
            yield line, None, text, []
        else:  # as pgettext("context", "text") is read: babel's keyword spec
            yield line, "pgettext", [context, text], []


@cache
def page_keys() -> frozenset[tuple[str | None, str]]:
    """(context, key) of every text the page's files look up: the ``_()``,
    ``ngettext()`` and ``pgettext()`` calls of its scripts (read by Babel's JavaScript
    extractor with its default keywords, as babel.cfg has ``pybabel extract`` read them)
    and the marked texts of its HTML (:func:`html_texts`); a plural by its singular."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract

    keys: set[tuple[str | None, str]] = set()
    for path in sorted(STATIC.glob("*.js")):
        with open(path, "rb") as f:
            for _line, message, _notes, context in extract("javascript", f, DEFAULT_KEYWORDS):
                keys.add((context, message if isinstance(message, str) else message[0]))
    for path in sorted(STATIC.glob("*.html")):
        keys.update((context, text) for _line, context, text
                    in html_texts(path.read_text(encoding="utf-8")))
    return frozenset(keys)


__all__ = ["STATIC", "extract_html", "html_texts", "page_keys", "squeeze"]
