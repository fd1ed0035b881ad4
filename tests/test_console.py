"""The console around the commands: output in an encoding without the suit symbols, and
Ctrl-C while the modules load.

These run ``tripeaks-solve`` as a process, the way a user's shell does.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tripeaks_solver.model.i18n import speaking
from tripeaks_solver.model.messages import message
from tripeaks_solver.model.observed import move_error

REPO = Path(__file__).resolve().parent.parent


def tool(*args: str, encoding: str = "utf-8", prelude: str = "") -> tuple[int, str, str]:
    """``tripeaks-solve ARGS`` through the installed console entry point, its output in
    ``encoding`` (decoded as such: any byte the encoding cannot hold would fail here)."""
    script = entry_points(group="console_scripts")["tripeaks-solve"]
    code = (prelude + f"import sys\nfrom {script.module} import {script.attr} as main\n"
            "sys.argv[0] = 'tripeaks-solve'\nsys.exit(main())\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": encoding}
    proc = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          check=False,
                          timeout=120)
    return proc.returncode, proc.stdout.decode(encoding), proc.stderr.decode(encoding)


PLAIN_SUITS = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s"})
COMMANDS = [
    ("hint", "TP1-E-AAAAAAD", "8h"),
    ("analyze", "TP1-E-AAAAAAD", "8h", "d", "4s", "--seed", "1"),  # its guessed games' seed
    ("deal", "TP1-E-AAAAAAD"),
    ("replay", "TP1-E-AAAAAAD", "8h", "d", "--lang", "vi"),
    ("solve", "TP1-C-AAAAAAB"),
]


def fast_few(cases: list[tuple], fast: set[int]) -> list:
    """The cases as parameters, all but those at the indexes ``fast`` in the slow set:
    each starts the tool as a process, and the fast set keeps a representative few."""
    return [pytest.param(*c, marks=() if i in fast else pytest.mark.slow)
            for i, c in enumerate(cases)]


@pytest.mark.parametrize(("args", "encoding"), fast_few(
    [(a, e) for a in COMMANDS for e in ("latin-1", "ascii")], {4, 5}))
def test_output_without_suit_symbols_uses_the_suit_letters(args, encoding):
    code, out, err = tool(*args)
    assert code == 0 and err == "" and any(s in out for s in "♣♦♥♠"), err
    plain_code, plain, plain_err = tool(*args, encoding=encoding)
    assert (plain_code, plain_err) == (0, ""), plain_err
    expected = _untimed(out.translate(PLAIN_SUITS))
    # a letter the encoding lacks (Vietnamese's ồ in latin-1) is written as a plain one
    assert len(_untimed(plain)) == len(expected)
    for mine, theirs in zip(_untimed(plain), expected, strict=True):
        assert mine == theirs if theirs.encode(encoding, "ignore") else mine.isalpha()


def _untimed(text: str) -> str:
    return re.sub(r"[0-9.,]+ (ms|s)\b", "TIME", text)  # solve says how long it took


@pytest.mark.parametrize(("encoding", "lang"), fast_few(
    [(e, lang) for e in ("latin-1", "ascii") for lang in ("vi", "sk")], {0, 3}))
def test_messages_the_encoding_lacks_are_written_plainly(encoding, lang):
    code, _, err = tool("replay", "TP1-E-AAAAAAD", "8h", "9h", "--lang", lang,
                        encoding=encoding)
    assert code == 1 and "Traceback" not in err
    with speaking(lang):  # the whole line is in the language
        text = move_error(2, "9h", message("not_in_tableau"))
    said = err.rstrip("\n")
    assert err.count("\n") == 1 and len(said) == len(text)  # a character for each
    # every character the encoding holds is kept; the others are a plain letter
    for mine, theirs in zip(said, text, strict=True):
        assert mine == theirs if theirs.encode(encoding, "ignore") else mine.isalpha()


# --- Ctrl-C while the modules load ------------------------------------------------------
# Deterministic: the import of a module the commands need raises KeyboardInterrupt, as a
# Ctrl-C then would (or the ImportError numpy makes of one inside its C import).
INTERRUPT_AT_IMPORT = """
import importlib.abc, os, signal, sys
class Stop(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            {action}
sys.meta_path.insert(0, Stop())
"""
ACTIONS = {
    "keyboard": "raise KeyboardInterrupt",
    "signal": "os.kill(os.getpid(), signal.SIGINT)",
    "import-error": ("os.kill(os.getpid(), signal.SIGINT)\n"
                     "            raise ImportError('Original error was: interrupted')"),
}


@pytest.mark.parametrize(("module", "action"), fast_few(
    [(m, a) for m in ("click", "numpy", "tripeaks_solver.cli.hint") for a in sorted(ACTIONS)],
    {0, 4, 8}))
def test_ctrl_c_while_modules_load_is_interrupted(module, action):
    prelude = INTERRUPT_AT_IMPORT.format(module=module, action=ACTIONS[action])
    code, _out, err = tool("hint", "TP1-E-AAAAAAD", "8h", prelude=prelude)
    assert "Traceback" not in err, err
    # all three load before any command runs
    assert (code, err) == (130, ("tripeaks-solve: interrupted before the command started: "
                                "nothing was written\n"))


@pytest.mark.parametrize("after", fast_few(
    [(m,) for m in ("click", "numba", "numpy", "tripeaks_solver.cli.group",
                    "tripeaks_solver.cli", "tripeaks_solver.solver.solve")], {2}))
def test_a_real_ctrl_c_while_modules_load(after):
    """A real SIGINT, sent as soon as ``-X importtime`` reports the import of ``after``
    (the loads after it are under way when it lands)."""
    script = entry_points(group="console_scripts")["tripeaks-solve"]
    code = (f"import sys\nfrom {script.module} import {script.attr} as main\n"
            "sys.exit(main())\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-c", code, "hint",
                             "TP1-E-AAAAAAD", "8h"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    said = []
    for line in proc.stderr:
        if not line.startswith("import time:"):
            said.append(line)
        elif line.split("|")[-1].strip() == after:
            proc.send_signal(signal.SIGINT)
            break
    else:
        pytest.fail(f"{after} was never imported")
    said += [line for line in proc.stderr if not line.startswith("import time:")]
    assert proc.wait(timeout=60) == 130, said
    # (click ends the line of the terminal's ^C first, once a command runs)
    said = [line for line in said if line != "\n"]
    assert len(said) == 1 and said[0].startswith("tripeaks-solve: interrupted"), said
