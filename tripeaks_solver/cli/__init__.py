"""The ``tripeaks-solve`` command: parse arguments, print, exit codes. No game logic here.

Run as ``tripeaks-solve`` or ``python -m tripeaks_solver``. Exit codes: 0 done (whatever
the verdict), 1 an illegal move in a replayed record, 2 malformed input or output that
cannot be written (one line on stderr, never a traceback), 130 interrupted. When the
reader of the output goes away (a pipe into ``head``) the command stops quietly with
code 1, as click's own handling of a closed pipe does.

The command modules import the solver, the players and the batch run inside the
commands, once the arguments are checked: ``--help``, the shell's completion, a bad
argument, ``deal`` and ``replay`` answer without loading numba and the kernels.
"""

from __future__ import annotations

import os
import sys

import click

from ..errors import InputError, interrupted
from ..model.i18n import set_language
from . import analyze, batch, coach, hint, peek, play, record, report, serve, solve  # noqa: F401  (each registers commands)
from .common import EXIT_INPUT
from .group import cli
from .output import fit_streams

__all__ = ["cli", "main"]
EXIT_PIPE = 1  # what click exits with when the output's pipe closes under it


def _drop_output() -> None:
    # Standard output to /dev/null, so that Python's final flush at exit has nothing
    # to fail on (a closed pipe, a full disk).
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command, turning input errors into one line and exit code 2."""
    def fail(message: str) -> None:
        # One line, whatever the user typed: newlines in echoed arguments are shown escaped.
        one_line = message.replace("\r", "\\r").replace("\n", "\\n")
        click.echo(f"tripeaks-solve: error: {one_line}", err=True)
        sys.exit(EXIT_INPUT)

    fit_streams()
    # English until a command's --lang (or the environment) chooses; the caller's
    # language again afterwards (a command run in a Python process, as the tests do).
    set_language("en")
    try:
        try:
            code = cli.main(args=argv, prog_name="tripeaks-solve", standalone_mode=False)
            sys.stdout.flush()  # here, not at exit, where a closed pipe could not be caught
        except BrokenPipeError:
            # The reader went away (`| head`) after click's handling of it (the final
            # flush): stop as quietly, leaving Python nothing to flush into the closed pipe.
            _drop_output()
            sys.exit(EXIT_PIPE)
        except OSError as exc:
            # The output could not be written (a full disk behind `> file`): one line.
            _drop_output()
            where = f"{exc.filename}: " if exc.filename else "the output: "
            fail(f"cannot write {where}{exc.strerror or exc}")
        except click.exceptions.Abort:
            interrupted()
        except click.exceptions.NoArgsIsHelpError as exc:  # no arguments: the help, as click does
            exc.show()
            sys.exit(EXIT_INPUT)
        except click.ClickException as exc:
            fail(exc.format_message())
        except InputError as exc:
            fail(str(exc))
        sys.exit(code if isinstance(code, int) else 0)
    finally:
        set_language(None)
