"""Exceptions. Every message is one line that a user can act on."""


class TriPeaksError(Exception):
    """Base class of the errors this package raises on purpose."""


class InputError(TriPeaksError, ValueError):
    """Something a user typed (a card, a code, a move, a layout) is malformed."""


class IllegalMoveError(TriPeaksError):
    """A legal-looking action that the rules forbid in the current position."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
