"""Why a batch cannot go on, in the batch's own words (the CLI adds its flags' advice)."""

from __future__ import annotations

from ..errors import InputError


class BatchError(InputError):
    """A batch cannot start or go on: one line a user can act on.

    ``problem`` names the kind, so that a front end can add advice in its own terms:
    ``exists`` (a file the run would replace), ``in-use`` (another run holds it),
    ``not-batch`` (not a batch CSV, or a row no run writes), ``mismatch`` (rows made
    with other settings; ``optimal`` then says how the file's rows were made),
    ``write`` (a write failed part way), ``file`` (a path that cannot be used),
    ``special`` (a device, pipe, socket or directory where a regular file is needed),
    ``engine`` (workers or a scheduler). ``role`` is ``csv``, ``plot`` or ``input``.
    """

    def __init__(self, message: str, problem: str, role: str = "",
                 optimal: bool | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.role = role
        self.optimal = optimal


__all__ = ["BatchError"]
