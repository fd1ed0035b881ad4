"""Running ``tripeaks-solve`` in the test process or in one of its own, and checking its
one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tripeaks_solver.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *args: str) -> tuple[int, str, str]:
    """``tripeaks-solve ARGS`` through the real entry point: (exit code, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *needles: str, exit_code: int = 2) -> None:
    """Exit ``exit_code`` with exactly one line on stderr, no traceback, naming ``needles``;
    malformed input (exit 2) is reported as ``tripeaks-solve: error: …``."""
    assert code == exit_code, err
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    if exit_code == 2:
        assert err.startswith("tripeaks-solve: error: "), err
    for needle in needles:
        assert needle in err, (needle, err)


def tripeaks(tmp: Path, *args: str, stdin: str = "", limit: str = "") -> subprocess.CompletedProcess:
    """``tripeaks-solve ARGS`` in a process of its own, in ``tmp`` with its data there
    (under ``ulimit LIMIT`` when given)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tripeaks_solver", *args]
    if limit:
        command = ["bash", "-c", f'ulimit {limit}; exec "$@"', "bash", *command]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env,
                          cwd=tmp, timeout=300, check=False)
