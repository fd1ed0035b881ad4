"""The smaller defects of issue 40 (items 5, 6 and 8), one reproduction each:

- ``help CMD`` is ``CMD --help``, ``help`` alone the top help (item 8);
"""

from __future__ import annotations

import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver.cli import cli


# --- item 8: help CMD -------------------------------------------------------------------
@pytest.mark.parametrize("command", sorted(cli.commands))
def test_help_command_is_the_command_help(capsys, command):
    asked = run(capsys, "help", command)
    direct = run(capsys, command, "--help")
    assert asked == direct
    assert asked[0] == 0 and asked[1].startswith(f"Usage: tripeaks-solve {command} ")


@pytest.mark.parametrize("words", [(), ("help",), ("--help",)])
def test_help_alone_is_the_top_help(capsys, words):
    code, out, err = run(capsys, "help", *words)
    assert (code, err) == (0, "")
    assert out == run(capsys, "--help")[1]
    assert out.startswith("Usage: tripeaks-solve [OPTIONS] COMMAND")
    assert "tripeaks-solve help COMMAND" in out


def test_help_of_an_unknown_command_names_the_closest(capsys):
    code, out, err = run(capsys, "help", "hnt")
    assert_one_line_error(code, err, "no command 'hnt'", "did you mean 'hint'")
    assert out == ""
    code, out, err = run(capsys, "help", "hint", "analyze")
    assert_one_line_error(code, err, "one command name")
