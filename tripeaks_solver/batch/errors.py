"""Why a batch cannot go on, in the batch's own words (the CLI adds its flags' advice)."""

from __future__ import annotations

from ..games.files import FileError

BatchError = FileError
"""A batch cannot start or go on: one line a user can act on, with its ``problem`` and
``role`` (:class:`games.files.FileError`, which the files a batch locks raise)."""


__all__ = ["BatchError"]
