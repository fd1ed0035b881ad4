"""Exceptions, and how a command ends on a Ctrl-C. Every message is one line that a user
can act on."""

from __future__ import annotations

import sys
from typing import NoReturn

EXIT_INTERRUPTED = 130


class TriPeaksError(Exception):
    """Base class of the errors this package raises on purpose."""


class InputError(TriPeaksError, ValueError):
    """Something a user typed (a card, a code, a move, a layout) is malformed."""


class IllegalMoveError(TriPeaksError):
    """A legal-looking action that the rules forbid in the current position."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def quoted(text: object, most: int = 40) -> str:
    """``text`` in quotes for a message, cut to ``most`` characters: a pasted page
    does not fill the screen."""
    if not isinstance(text, str) or len(text) <= most:
        return repr(text)
    return repr(text[:most] + "…")


def did_you_mean(word: str, names: tuple[str, ...] | list[str]) -> str:
    """`` (did you mean 'x'?)`` naming the one of ``names`` closest to a mistyped
    ``word``, or an empty string when none is close."""
    import difflib

    close = difflib.get_close_matches(word.strip().lower(), list(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def interrupted(starting: bool = False) -> NoReturn:
    """Say so (``starting``: before any command ran, so nothing was written), and exit
    with code 130."""
    said = " before the command started: nothing was written" if starting else ""
    sys.stderr.write(f"tripeaks-solve: interrupted{said}\n")
    sys.stderr.flush()
    sys.exit(EXIT_INTERRUPTED)
