"""The ``tripeaks-solve`` console entry point.

It imports nothing before it can catch a Ctrl-C, so that one that comes while the
modules load (numpy, click, the commands: the first fraction of a second) ends as any
other does: ``interrupted`` on stderr and exit code 130, never a traceback. (numpy turns
a Ctrl-C inside its own import into an ImportError: a Ctrl-C seen is a Ctrl-C.)
"""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

EXIT_INTERRUPTED = 130
_caught: list[int] = []


def _note(signum: int, frame: object) -> None:
    _caught.append(signum)


def _on_interrupt(signum: int, frame: object) -> None:
    _caught.append(signum)
    signal.default_int_handler(signum, frame)  # KeyboardInterrupt, as by default


# From here to main's ``try`` a Ctrl-C is only noted (main raises it once inside).
if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _note)


def interrupted(starting: bool = False) -> NoReturn:
    """Say so (``starting``: before any command ran, so nothing was written), and exit
    with code 130."""
    said = " before the command started: nothing was written" if starting else ""
    sys.stderr.write(f"tripeaks-solve: interrupted{said}\n")
    sys.stderr.flush()
    sys.exit(EXIT_INTERRUPTED)


def main() -> None:
    """Run the command line (``cli.main``), a Ctrl-C at any moment ending it cleanly."""
    run = None
    try:
        if signal.getsignal(signal.SIGINT) in (_note, signal.default_int_handler):
            signal.signal(signal.SIGINT, _on_interrupt)
        if _caught:
            raise KeyboardInterrupt
        from .cli import main as run

        run()
    except KeyboardInterrupt:
        interrupted(starting=run is None)
    except Exception:
        if _caught:
            interrupted(starting=run is None)
        raise
