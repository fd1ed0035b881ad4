"""Ctrl-C during long work in compiled code: the command stops within about a second,
says "interrupted" and exits 130.

Compiled code never checks for signals: a Ctrl-C is raised when a kernel call returns,
so the long loops (the fair completions, the rollouts) run in short calls. Each command
here would run for minutes; it is sent SIGINT after 3 s, while it works.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GAME = ["TP1-E-AAAAAAD", "8h", "draw", "2h", "Ac", "draw", "8c", "draw", "5c"]


def interrupted(*args: str) -> tuple[int, str, float]:
    """Run ``tripeaks-solve ARGS``, send SIGINT after 3 s: exit code, stderr, and the
    seconds from the signal to the exit."""
    proc = subprocess.Popen([sys.executable, "-m", "tripeaks_solver", *args],
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=30)
        return proc.returncode, err, time.monotonic() - sent
    except subprocess.TimeoutExpired:
        pytest.fail(f"tripeaks-solve {' '.join(args)} still ran 30 s after Ctrl-C")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


COMMANDS = [
    pytest.param(["hint", "TP1-E-AAAAAAD", "--fair", "--samples", "200000",
                  "--score-samples", "0", "--seed", "1"], id="hint-fair"),
    pytest.param(["analyze", *GAME, "--fair", "--samples", "100000", "--seed", "1"],
                 id="analyze-fair", marks=pytest.mark.slow),
    pytest.param(["play", "TP1-E-AAAAAAD", "--player", "pimc:100000", "--seed", "1"],
                 id="play-pimc", marks=pytest.mark.slow),
    pytest.param(["play", "TP1-E-AAAAAAD", "--player", "fair:100000", "--seed", "1"],
                 id="play-fair", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("args", COMMANDS)
def test_ctrl_c_stops_a_long_command_at_once(args):
    code, err, took = interrupted(*args)
    assert (code, err.strip()) == (130, "tripeaks-solve: interrupted")  # after click's newline
    assert took < 3, f"{took:.1f} s from Ctrl-C to the exit"
