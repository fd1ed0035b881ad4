"""The language people read: English, Vietnamese or Slovak, from gettext catalogs.

The texts are written in English in the code, as the catalogs' keys (msgid)::

    _("Known: {known} of {total} cards", known=12, total=52)
    ngettext("{n} move", "{n} moves", n)          # {n}: the number, written for the language
    pgettext("rank name", "K")                     # the same English, another meaning

and the catalogs ``locale/<lang>/LC_MESSAGES/messages.po`` next to this module hold
the translations, compiled to ``.mo`` (docs/design.md, Languages, says how to update
them). ``{name}`` placeholders are filled after the translation, so a translation may
move them. What a script reads (JSON, CSV, tokens such as ``8h``, command and option
names) never goes through here.

The language is the context's (:func:`speaking`: a web request's), else the one set for
the process (:func:`set_language`: a command's ``--lang``), else the environment's
(:func:`language_from_env`), as gettext's own functions choose.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import os
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path

from ..errors import InputError

LANGUAGE_NAMES = {"en": "English", "vi": "Tiếng Việt", "sk": "Slovenčina"}
"""Each language, named in its own words (as the page's switch names it); the first is
the language of the texts in the code (the catalogs' keys)."""
LANGUAGES = tuple(LANGUAGE_NAMES)
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).parent / "locale"
# The order POSIX gives the variables naming the language of messages.
ENV_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_context: contextvars.ContextVar[str | None] = contextvars.ContextVar("tripeaks_language",
                                                                     default=None)
_process: str | None = None
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment names: the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set and not empty decides (``vi_VN.UTF-8`` -> ``vi``); English when
    it names another language (``C``, ``fr_FR``) or none is set."""
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = env.get(name, "")
        if value:
            code = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def check_language(lang: str) -> str:
    """``lang`` when it is one of LANGUAGES; an InputError otherwise."""
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")
    return lang


def set_language(lang: str | None) -> str:
    """Make ``lang`` the language of this process where no context chose one (None: the
    environment's again); returns the language now current."""
    global _process
    _process = None if lang is None else check_language(lang)
    return current()


def current() -> str:
    """The language texts are written in here and now."""
    return _context.get() or _process or language_from_env()


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Write texts in ``lang`` within the block (in this thread or task, and in the
    worker threads it starts through anyio, which copy the context)."""
    token = _context.set(check_language(lang))
    try:
        yield lang
    finally:
        _context.reset(token)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the keys themselves)."""
    if check_language(lang) == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def fill(text: str, values: Mapping[str, object]) -> str:
    """``text`` with its ``{name}`` placeholders replaced by ``values`` (the others
    left as they are)."""
    if not values:
        return text
    return _PLACEHOLDER.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def _(msgid: str, /, **values: object) -> str:
    """``msgid`` in the current language, its placeholders filled from ``values``."""
    return fill(translations(current()).gettext(msgid), values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form for ``n`` in the current language (Slovak has three); ``{n}`` is ``n``
    written for the language (``1,000``, ``1.000``, ``1 000``) unless given."""
    text = translations(current()).ngettext(singular, plural, n)
    return fill(text, {"n": number(n), **values})


def pgettext(context: str, msgid: str, /, **values: object) -> str:
    """``msgid`` meant as ``context`` says, in the current language."""
    return fill(translations(current()).pgettext(context, msgid), values)


def N_(msgid: str) -> str:
    """A text marked for the catalogs, translated later where it is shown."""
    return msgid


def number(value: float | Decimal, decimals: int | None = None) -> str:
    """``1,234`` / ``1.234`` / ``1 234``: a number as the current language writes it,
    with ``decimals`` decimals when given (rounded as ``f"{value:.1f}"`` rounds)."""
    from babel.numbers import format_decimal

    if decimals is None:
        return format_decimal(value, locale=current())
    fixed = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(Decimal(f"{value:.{decimals}f}"), format=fixed, locale=current())


def percent(share: float | Decimal, decimals: int = 0) -> str:
    """A share as a percentage with ``decimals`` decimals, as the current language
    writes it (``31%``, ``99.6%``; ``99,6 %`` in Slovak). The value is rounded once,
    here, as Python rounds (``f"{100 * share:.1f}"``), whatever the language."""
    from babel import Locale
    from babel.numbers import format_percent

    value = Decimal(f"{100 * share:.{decimals}f}") / 100
    pattern = Locale.parse(current()).percent_formats[None].pattern
    if decimals:  # the locale's pattern, with the decimals asked for after its last 0
        at = pattern.rindex("0") + 1
        pattern = pattern[:at] + "." + "0" * decimals + pattern[at:]
    return format_percent(value, format=pattern, locale=current())


__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "N_", "_", "check_language", "current", "fill", "language_from_env",
           "ngettext", "number", "percent", "pgettext", "set_language", "speaking",
           "translations"]
