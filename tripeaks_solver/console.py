"""The ``tripeaks-solve`` console entry point.

It imports nothing before it can catch a Ctrl-C, so that one that comes while the
modules load (numpy, click, the commands: the first fraction of a second) ends as any
other does: ``interrupted`` on stderr and exit code 130, never a traceback. (numpy turns
a Ctrl-C inside its own import into an ImportError: a Ctrl-C seen is a Ctrl-C.) Only
the interpreter's own start and the few statements of the script that calls
:func:`main` are outside it.
"""

from __future__ import annotations

import signal
from types import FrameType

from .errors import interrupted

_caught: list[int] = []


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    _caught.append(signum)
    signal.default_int_handler(signum, frame)  # KeyboardInterrupt, as by default


def main() -> None:
    """Run the command line (``cli.main``), a Ctrl-C at any moment ending it cleanly."""
    loaded = False
    try:
        # Raises as by default, and notes it: numpy makes an ImportError of a Ctrl-C
        # inside its import. (Nothing at this module's import: a library user's Ctrl-C
        # is left as it was.)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_interrupt)
            # Windows' console has a second Ctrl key, Ctrl-Break (SIGBREAK), that would
            # kill the process mid-write: it stops the command as Ctrl-C does.
            if hasattr(signal, "SIGBREAK"):
                signal.signal(signal.SIGBREAK, _on_interrupt)
        from .cli import main as run

        loaded = True
        run()
    except KeyboardInterrupt:
        interrupted(starting=not loaded)
    except ImportError:
        if _caught:
            interrupted(starting=not loaded)
        raise
    finally:
        # The command is over, and Python shuts down (its threads, its exit handlers): a
        # Ctrl-C there would raise in them and print a traceback. It ends the process.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
