"""Before any test runs, the kernels are compiled (or loaded from numba's cache) in two
processes at once, each compiling its half.

Without this, on a fresh checkout every pytest-xdist worker compiled every kernel its
tests call, all at the same time, and so did the commands the tests start: twice the
compile work or more, on a machine with two cores. The workers now find the cache
written. When it is already there, this costs the start-up of two processes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

# Tests interrupt the commands they start with Ctrl-C (SIGINT). A shell without job
# control starts a background job with SIGINT ignored, and an ignored signal stays
# ignored in every process started after it: those commands would run to the end.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The tests read the texts in English whatever the locale they run in: the variables
# that choose the language (model/i18n.py) say English; a test that needs another sets it.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

# The tests start the tool some hundreds of times: with PYTHONDONTWRITEBYTECODE set (some
# shells and containers set it), each start compiled the package's sources again (about
# 0.1 s of CPU). The test run writes its bytecode (__pycache__, ignored by git).
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False

_SETUP = ("from tripeaks_solver.model.dealing import Deal\n"
          "from tripeaks_solver.model.rules import EASY\n"
          "deal = Deal.from_number(0)\n")

# The two halves take about as long: the optimum's search and sweep (app and PySolFC
# scoring), and the rest (the peek's last). The pimc player comes after the optimum's
# kernels are in use: by then the other process has usually cached them, and they are
# loaded rather than compiled again. A kernel missing here is compiled by every worker
# and command that needs it at once, on a fresh checkout.
_HALVES = (
    ("from tripeaks_solver.solver.solve import warm_up\n"
     "warm_up()\n"
     "warm_up('pysol')\n"),
    ("from tripeaks_solver.analysis import difficulty, players\n"
     "from tripeaks_solver.solver.solve import solve\n"
     "solve(deal, EASY, scheme='original')\n"
     "solve(deal, EASY, optimal=False)\n"
     "difficulty.difficulty(deal, EASY, games=10)\n"
     "for who in ('greedy', 'rollout:2', 'fair:2', 'pimc:2'):\n"
     "    players.play(deal, who, EASY)\n"
     # the peek's: its plan (kernels/reveal.py) and its cheapest step (kernels/peek.py)
     "from tripeaks_solver.analysis.peek import cheapest_step, plan_peek\n"
     "from tripeaks_solver.model.game import Game\n"
     "from tripeaks_solver.model.layout import Layout\n"
     "known = Layout.of_deal(deal, Game(deal, EASY).visible_places())\n"
     "plan_peek(deal, EASY, known)\n"
     "cheapest_step(known, EASY, (), ())\n"),
)


def _check_no_fcntl() -> None:
    """With TRIPEAKS_NO_FCNTL=1 (the CI step that runs tests as without ``fcntl``), stop
    unless ``fcntl`` is really hidden, here and in the commands the tests start: else the
    step would pass without proving anything (.ci/run installs the hook, tests/no_fcntl.py)."""
    probe = subprocess.run([sys.executable, "-c", "import fcntl"], capture_output=True,
                           check=False)
    if sys.modules.get("fcntl", 0) is not None or probe.returncode == 0:
        raise pytest.UsageError("TRIPEAKS_NO_FCNTL=1, but fcntl can be imported: install "
                                "the hook as .ci/run does (tests/no_fcntl.py)")
    # The os calls Windows lacks (tests/no_fcntl.py) are gone as well, there too.
    code = "import os; raise SystemExit(hasattr(os, 'fchmod') or hasattr(os, 'O_CLOEXEC'))"
    probe = subprocess.run([sys.executable, "-c", code], check=False)
    if hasattr(os, "fchmod") or hasattr(os, "O_CLOEXEC") or probe.returncode != 0:
        raise pytest.UsageError("TRIPEAKS_NO_FCNTL=1, but os.fchmod or os.O_CLOEXEC is "
                                "there: install the hook as tests/no_fcntl.py now has it")


def pytest_configure(config) -> None:
    if os.environ.get("TRIPEAKS_NO_FCNTL") == "1":
        _check_no_fcntl()
    if hasattr(config, "workerinput") or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return  # an xdist worker (the main process did this), or nothing to compile
    if config.option.collectonly:
        return
    # Quiet and unchecked: a kernel that fails here fails again, with its message,
    # in the tests that call it.
    procs = [subprocess.Popen([sys.executable, "-c", _SETUP + half],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for half in _HALVES]
    for proc in procs:
        proc.wait()
