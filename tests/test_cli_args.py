"""The command line's arguments: mistyped commands, no arguments, shell completion,
``python -m``, capped ``--samples``, options that cannot combine, one spelling per
option, help texts, ``help COMMAND``, plurals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run

import tripeaks_solver
from tripeaks_solver import EASY, Deal, Game
from tripeaks_solver.cli import cli
from tripeaks_solver.cli.common import plural
from tripeaks_solver.solver.solve import solve

ROOT = Path(tripeaks_solver.__file__).resolve().parents[1]


def python_m(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m tripeaks_solver ARGS`` with this tree's package."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "tripeaks_solver", *args], env=env,
                          input=stdin, capture_output=True, text=True, timeout=300,
                          check=False)


# --- a mistyped command, no arguments -------------------------------------------------


@pytest.mark.parametrize(("word", "meant"), [("batc", "batch"), ("dael", "deal"),
                                             ("solv", "solve"), ("replya", "replay"),
                                             ("Deal", "deal"), ("BATCH", "batch")])
def test_a_mistyped_command_is_named(capsys, word, meant):
    code, out, err = run(capsys, word, "0", "10")
    assert_one_line_error(code, err)
    assert err == f"tripeaks-solve: error: no command {word!r} (did you mean {meant!r}?)\n"
    assert out == ""


@pytest.mark.parametrize("word", ["hello", "x", "", "AAAAAAB", "🃏"])
def test_a_word_like_no_command_lists_them(capsys, word):
    code, out, err = run(capsys, word)
    assert_one_line_error(code, err, f"no command {word!r}", "analyze, batch, coach, deal, hint, peek, play, replay, report, serve, solve",
                          "TP1-E-AAAAAAD")
    assert out == ""


@pytest.mark.parametrize("word", ["TP1-E-AAAAAA", "tp1", "TP2-E-AAAAAAB", "TP1E-AAAAAAB",
                                  "XX-E-AAAAAAB"])
def test_a_code_shaped_word_is_read_as_a_code(capsys, word):
    code, out, err = run(capsys, word)
    assert_one_line_error(code, err, "game code", repr(word))
    assert out == ""


def test_no_arguments_print_the_help_and_exit_2(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.startswith("Usage: tripeaks-solve [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in err and "Traceback" not in err
    code, help_out, _ = run(capsys, "--help")  # asked for: stdout, exit 0
    assert code == 0 and help_out == err


# --- shell completion -------------------------------------------------------------------


def complete(capsys, monkeypatch, line: str, shell: str = "bash") -> tuple[int, list[str], str]:
    words = line.split(" ")
    monkeypatch.setenv("_TRIPEAKS_SOLVE_COMPLETE", f"{shell}_complete")
    monkeypatch.setenv("COMP_WORDS", line)
    monkeypatch.setenv("COMP_CWORD", str(len(words) - 1))
    code, out, err = run(capsys)
    return code, out.splitlines(), err


@pytest.mark.parametrize(("line", "want"), [
    ("tripeaks-solve ba", ["plain,batch"]),
    ("tripeaks-solve ", ["plain,analyze", "plain,batch", "plain,coach", "plain,deal", "plain,hint",
                         "plain,peek", "plain,play", "plain,replay", "plain,report", "plain,serve",
                         "plain,solve"]),
    ("tripeaks-solve TP1-E-AAAAAAD --ru", ["plain,--rules"]),
    ("tripeaks-solve TP1-E-AAAAAAD --rules cl", ["plain,classic"]),
    ("tripeaks-solve --sco", ["plain,--scoring"]),
    ("tripeaks-solve solve --no-o", ["plain,--no-optimal"]),
    ("tripeaks-solve deal TP1-E-AAAAAAD --j", ["plain,--json", "plain,--joker"]),
    ("tripeaks-solve replay TP1-E-AAAAAAD Js --lan", ["plain,--lang"]),
    ("tripeaks-solve --v", ["plain,--version"]),
])
def test_bash_completion_completes_commands_and_options(capsys, monkeypatch, line, want):
    code, got, err = complete(capsys, monkeypatch, line)
    assert code == 0 and err == ""
    assert sorted(got) == sorted(want)


def test_completion_of_deal_offers_no_option_it_lacks(capsys, monkeypatch):
    code, got, err = complete(capsys, monkeypatch, "tripeaks-solve deal TP1-E-AAAAAAD --")
    assert code == 0 and err == ""
    assert "plain,--reveal" in got and "plain,--json" in got
    assert "plain,--rules" in got and "plain,--scoring" not in got


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(capsys, monkeypatch, shell):
    monkeypatch.setenv("_TRIPEAKS_SOLVE_COMPLETE", f"{shell}_source")
    code, out, err = run(capsys)
    assert code == 0 and err == "" and "_TRIPEAKS_SOLVE_COMPLETE" in out
    if shell == "bash":
        assert "complete -o nosort -F _tripeaks_solve_completion tripeaks-solve" in out


def test_completion_as_the_shell_runs_it():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMP_WORDS": "tripeaks-solve ba",
           "COMP_CWORD": "1", "_TRIPEAKS_SOLVE_COMPLETE": "bash_complete"}
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver"], env=env, capture_output=True,
                       text=True, timeout=300, check=False)
    assert (r.returncode, r.stdout, r.stderr) == (0, "plain,batch\n", "")


# The arguments, and the exit code each command ends with.
NO_KERNEL_COMMANDS = [(["--help"], 0), (["batch", "--help"], 0), (["batch", "5", "3"], 2),
                      (["TP1-E-AAA"], 2), (["deal", "TP1-E-AAAAAAD"], 0),
                      (["replay", "TP1-E-AAAAAAB", "Js", "2c"], 1),
                      (["hint", "TP1-E-AAAAAAD", "Zz"], 2)]
# Run in a fresh interpreter; on exit it prints the numba modules loaded.
NUMBA_LOADED = ("import atexit, sys\n"
                "atexit.register(lambda: print(sorted(m for m in sys.modules\n"
                "                                     if m.split('.')[0] == 'numba')))\n"
                "from tripeaks_solver.cli import main\n")


def test_help_completion_and_bad_input_load_no_kernels():
    # Loading numba and the kernels takes most of a second: the help, the shell's
    # completion (run at every Tab), a bad argument, and the commands that play the
    # game without a search answer without them.
    script = NUMBA_LOADED + (f"for args, want in {NO_KERNEL_COMMANDS!r}:\n"
                             "    try:\n"
                             "        main(args)\n"
                             "    except SystemExit as exc:\n"
                             "        assert (exc.code or 0) == want, (args, exc.code)\n")
    completion = {**os.environ, "COMP_WORDS": "tripeaks-solve --ru", "COMP_CWORD": "1",
                  "_TRIPEAKS_SOLVE_COMPLETE": "bash_complete"}
    search = NUMBA_LOADED + "main(['TP1-E-AAAAAAD', '--rules', 'easy', '--no-solution'])\n"
    for code, env, loaded in ((script, os.environ, False), (NUMBA_LOADED + "main([])\n",
                              completion, False), (search, os.environ, True)):
        r = subprocess.run([sys.executable, "-c", code], env={**env, "PYTHONPATH": str(ROOT)},
                           capture_output=True, text=True, timeout=300, check=False)
        assert r.returncode == 0, r.stderr
        assert (r.stdout.splitlines()[-1] != "[]") == loaded, r.stdout


# --- python -m tripeaks_solver -----------------------------------------------------------


def test_python_m_runs_the_command():
    r = python_m("deal", "TP1-E-AAAAAAB", "--format", "line")
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == Deal.from_number(1).line() + "\n"
    r = python_m("batc", "0", "10")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "tripeaks-solve: error: no command 'batc' (did you mean 'batch'?)\n"


@pytest.mark.slow  # more processes: the default run starts two above
def test_python_m_version_and_an_illegal_move():
    r = python_m("--version")
    assert r.returncode == 0 and tripeaks_solver.__version__ in r.stdout
    r = python_m("replay", "TP1-E-AAAAAAB", "Js", "2c", "--lang", "en")
    assert r.returncode == 1 and r.stderr == "move 2 (2c): Must be one rank higher or lower\n"


# --- --samples capped, --no-optimal without a scoring -------------------------------


@pytest.mark.parametrize("value", ["1208925819614629174706176", "1000001", "9" * 5000],
                         ids=["2**80", "cap+1", "5000-digits"])
def test_samples_are_capped(capsys, value):
    code, out, err = run(capsys, "TP1-E-AAAAAAB", "--samples", value)
    assert_one_line_error(code, err, "--samples")
    assert out == ""


def test_samples_up_to_the_cap_are_taken(capsys):
    masked = Deal.from_number(1).line().split()
    masked[5] = "??"  # one unseen card: its few fillings are all counted, whatever the cap
    code, out, err = run(capsys, "--layout", " ".join(masked), "--samples", "1000000",
                         "--rules", "easy", "--json", "--no-solution")
    assert code == 0, err
    assert [r["rules"] for r in json.loads(out)] == ["easy"]


@pytest.mark.parametrize("fast", ["--fast", "--no-optimal"])
@pytest.mark.parametrize("scoring", ["cards-left", "original"])
def test_winnability_only_refuses_a_scoring(capsys, fast, scoring):
    code, out, err = run(capsys, "TP1-E-AAAAAAB", fast, "--scoring", scoring)
    assert_one_line_error(code, err, "--no-optimal", f"--scoring {scoring}")
    assert out == ""


# --- one spelling each, help texts, plurals ----------------------------------------------


def test_no_optimal_is_the_name_fast_the_hidden_alias(capsys):
    answers = []
    for flag in ("--no-optimal", "--fast"):
        code, out, err = run(capsys, "TP1-E-AAAAAAI", flag, "--json")
        assert code == 0, err
        answers.append([{k: v for k, v in r.items() if k != "seconds"} for r in json.loads(out)])
    assert answers[0] == answers[1]
    easy, classic = answers[0]
    assert easy["winnable"] is True and easy["best_score"] is None
    assert classic["winnable"] is False
    code, out, err = run(capsys, "TP1-E-AAAAAAI", "--optimal", "--json", "--rules", "easy")
    assert code == 0 and json.loads(out)[0]["best_score"] is not None
    code, out, _ = run(capsys, "solve", "--help")
    assert "--optimal / --no-optimal" in out and "--fast" not in out


def test_deal_json_is_the_name_format_json_still_works(capsys):
    code, by_flag, err = run(capsys, "deal", "TP1-C-AAAAAAB", "--json")
    assert code == 0, err
    code, by_format, err = run(capsys, "deal", "TP1-C-AAAAAAB", "--format", "json")
    assert code == 0, err
    assert by_flag == by_format and json.loads(by_flag)["code"] == "TP1-C-AAAAAAB"
    code, same, _ = run(capsys, "deal", "TP1-C-AAAAAAB", "--json", "--format", "json")
    assert code == 0 and same == by_flag
    code, out, err = run(capsys, "deal", "TP1-C-AAAAAAB", "--json", "--format", "line")
    assert_one_line_error(code, err, "--json", "--format line")
    code, out, _ = run(capsys, "deal", "--help")
    assert "--json" in out


@pytest.mark.parametrize("command", ["solve", "deal", "replay", "hint", "analyze", "play",
                                     "batch"])
def test_help_names_rules_on_every_command_that_plays_a_deal(capsys, command):
    code, out, err = run(capsys, command, "--help")
    assert code == 0, err
    assert "--rules" in out
    assert "overriding --rules" in " ".join(out.split())  # --wrap says what it overrides


def test_plural():
    assert [plural(n, "move") for n in (0, 1, 2, 1000)] == \
        ["0 moves", "1 move", "2 moves", "1,000 moves"]
    assert plural(1, "card left", "cards left") == "1 card left"


def test_replay_counts_in_the_singular(capsys):
    code, out, err = run(capsys, "replay", "TP1-E-AAAAAAB", "Js")
    assert code == 0, err
    assert out.splitlines()[-1] == ("In play: score 499, 1 move, 27 cards left in the peaks, "
                                    "23 in the stock")
    line = solve(Deal.from_number(3), EASY).tokens
    game = Game(Deal.from_number(3), EASY)
    for tok in line[:-1]:
        game.play(tok)
    assert game.cards_left == 1
    code, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *line[:-1])
    assert code == 0, err
    assert ", 1 card left in the peaks, " in out.splitlines()[-1]


def test_layout_counts_in_the_singular(capsys):
    # Deal 0 with K♣ unknown: one unknown card, one completion, one deal solved.
    cards = Deal.from_number(0).line().split()
    place = cards.index("Kc")
    cards[place] = "??"
    code, out, err = run(capsys, "--layout", " ".join(cards), "--rules", "easy")
    assert code == 0, err
    assert "layout 1: 1 unknown card\n" in out
    assert "of 1 completion (" in out
    assert "Solved 1 completion in " in out


# Every --seed in one line: the players' take 0 … 2^62 − 1 (they add the deal number to
# it), the guessed games' (advice, judgement, a layout's completions) 0 … 2^63 − 1, the
# page's bound too.
SEED_COMMANDS = [
    (["hint", "TP1-E-AAAAAAD", "--fair", "--samples", "5", "--score-samples", "0"], 1 << 63),
    (["analyze", "TP1-E-AAAAAAD", "8h", "--fair", "--samples", "5"], 1 << 63),
    (["play", "TP1-E-AAAAAAD"], 1 << 62),
    (["batch", "0", "2", "--player", "greedy"], 1 << 62),
    (["solve", "TP1-E-AAAAAAD"], 1 << 63),
]


@pytest.mark.parametrize("command", SEED_COMMANDS, ids=lambda c: c[0][0])
@pytest.mark.parametrize("seed", ["-1", "past", "1e3"])
def test_a_seed_out_of_range_is_one_line(capsys, command, seed):
    args, past = command
    code, _, err = run(capsys, *args, "--seed", str(past) if seed == "past" else seed)
    assert_one_line_error(code, err, "--seed")


@pytest.mark.parametrize("args", [
    pytest.param(["solve", "TP1-E-AAAAAAD"], marks=pytest.mark.slow),
    ["deal", "TP1-E-AAAAAAD"],
    pytest.param(["batch", "0", "400", "--csv", "-", "--jobs", "1"], marks=pytest.mark.slow),
], ids=lambda a: a[0])
def test_a_reader_that_stops_early_ends_the_command_quietly(args):
    # The command writes into a pipe whose reader has already gone: no traceback, no
    # error line, exit 1 (click's code for it).
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "tripeaks_solver", *args], check=False,
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""


@pytest.mark.parametrize("args, flag", [
    (["hint", "TP1-E-AAAAAAD", "--samples", "5"], "--samples"),
    (["hint", "TP1-E-AAAAAAD", "--score-samples", "5"], "--score-samples"),
    (["hint", "TP1-E-AAAAAAD", "--seed", "3"], "--seed"),
    (["solve", "TP1-E-AAAAAAD", "--samples", "5"], "--samples"),
    (["solve", "TP1-E-AAAAAAD", "--seed", "3"], "--seed"),
    (["batch", "0", "3", "--seed", "4"], "--seed"),
], ids=lambda a: " ".join(a) if isinstance(a, list) else a)
def test_an_option_that_would_do_nothing_is_refused(capsys, args, flag):
    code, out, err = run(capsys, *args)
    assert_one_line_error(code, err, flag, "does nothing here")
    assert out == ""


def test_the_same_options_work_where_they_count(capsys):
    code, _, err = run(capsys, "hint", "TP1-E-AAAAAAD", "--fair", "--samples", "5",
                       "--score-samples", "0", "--seed", "3")
    assert code == 0, err
    masked = Deal.from_number(3).line().split()
    masked[20] = "??"
    code, _, err = run(capsys, "solve", "--layout", " ".join(masked), "--samples", "5",
                       "--seed", "3")
    assert code == 0, err


# --- help COMMAND: the command's own help -----------------------------------------------


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



def test_help_completes_the_command_names(capsys, monkeypatch):
    monkeypatch.setenv("_TRIPEAKS_SOLVE_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "tripeaks-solve help an")
    monkeypatch.setenv("COMP_CWORD", "2")
    code, out, _ = run(capsys)
    assert code == 0 and out.splitlines() == ["plain,analyze"]
    monkeypatch.setenv("COMP_WORDS", "tripeaks-solve help ")
    code, out, _ = run(capsys)
    assert {line.split(",")[1] for line in out.splitlines()} >= set(cli.commands)
