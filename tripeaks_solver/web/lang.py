"""The page's language: chosen for each request, and the catalog the page reads.

A request speaks, in this order: the address's ``?lang=``, the ``lang`` cookie (the
page's switch writes it), the server's ``--lang`` when it was given, the browser's
``Accept-Language`` (a language the page lacks read as its closest one: Czech as
Slovak), the server's environment (LC_ALL, LC_MESSAGES, LANG), English.
The guards (web.guard) make :func:`request_language` the language of everything the
request's handlers write (errors, place names, the peek's steps); :func:`catalog` is
what the page's i18n.js loads, from the same compiled catalogs as the terminal's texts.
"""

from __future__ import annotations

import gettext
import json
from functools import cache

from starlette.requests import Request

from ..model.i18n import LANGUAGES, LOCALE_DIR, translations
from .page_texts import page_keys

COOKIE = "lang"
# A browser's language the page lacks, and the page's language its readers read most
# easily: a Czech reader reads Slovak (close enough to be understood at once), not English.
CLOSEST = {"cs": "sk"}


def accepted(header: str) -> str | None:
    """The language of LANGUAGES an ``Accept-Language`` header prefers most (``vi-VN,
    vi;q=0.9, en;q=0.8`` -> ``vi``), or None when it names none of them. A language of
    CLOSEST counts as its closest one, at its own place (``cs-CZ, en;q=0.5`` -> ``sk``)."""
    best: tuple[float, int, str] | None = None
    for order, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        code = CLOSEST.get(code, code)
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if code in LANGUAGES and weight > 0 and (best is None or (-weight, order) < best[:2]):
            best = (-weight, order, code)
    return None if best is None else best[2]


def request_language(request: Request, forced: str | None = None, fallback: str = "en") -> str:
    """The language of ``request`` (see the module's docstring): ``forced`` is the
    server's ``--lang``, ``fallback`` its environment's language."""
    for chosen in (request.query_params.get("lang"), request.cookies.get(COOKIE), forced):
        if chosen in LANGUAGES:
            return chosen
    return accepted(request.headers.get("accept-language", "")) or fallback


@cache
def catalog(lang: str) -> bytes:
    """The page's share of the catalog of ``lang`` (the texts its files look up:
    page_texts.page_keys) as the page reads it (JSON): ``messages`` maps an English text
    to its translation, a text with a plural to the list of its forms, and
    ``context\\u0004text`` a text with a context; ``plural`` is the catalog's rule (a C
    expression in ``n``, read by i18n.js without eval) and ``nplurals`` its forms. The
    server's own words (its errors) it sends worded in the request's language."""
    wanted = page_keys()
    messages: dict[str, str | list[str]] = {}
    plural, nplurals = "n != 1", 2
    found = translations(lang)
    if isinstance(found, gettext.GNUTranslations):
        from babel.messages.mofile import read_mo

        with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.mo", "rb") as mo:
            read = read_mo(mo)
        plural, nplurals = read.plural_expr, read.num_plurals
        for message in read:
            if not message.id or not message.string:
                continue
            text: str | list[str]
            if isinstance(message.id, (tuple, list)):  # a text with a plural: its forms
                key, text = message.id[0], [str(s) for s in message.string]
            else:
                key, text = message.id, str(message.string)
            if (message.context or None, key) not in wanted:
                continue  # the terminal's, or the server's own
            if message.context:
                key = f"{message.context}\u0004{key}"
            messages[key] = text
    return json.dumps({"lang": lang, "plural": plural, "nplurals": nplurals,
                       "messages": messages}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def page_html(html: str, lang: str) -> str:
    """The page's HTML for a reader of ``lang``: its ``<html lang>`` said, and the catalog
    inside it (``<script type="application/json" id="i18n-catalog">``, data the page
    reads at once, never runs), so that the page shows its words from the first paint."""
    data = catalog(lang).decode().replace("<", "\\u003c")  # no "</script>" inside
    html = html.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    tag = f'<script type="application/json" id="i18n-catalog">{data}</script>\n'
    return html.replace("</head>", tag + "</head>", 1)


__all__ = ["CLOSEST", "COOKIE", "accepted", "catalog", "page_html", "request_language"]
