"""Generated command lines: for every command and option, whatever the arguments,
standard input and files, the command ends with exit code 0, 1 or 2, never a traceback,
at most one line on stderr when it fails (nothing when it succeeds), and under
``--json`` stdout is JSON (or empty on exit code 2).

``COMMANDS`` lists each command with the words and options it takes; a command added
later (batch, report, hint, analyze) adds an entry. The commands run in this process
through ``tests/cli_run.py`` (a solve takes milliseconds there); the default run
tries a few hundred command lines, the ``slow`` one thousands.
"""

from __future__ import annotations

import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from cli_run import run
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tripeaks_solver import Deal
from tripeaks_solver.cli import cli
from tripeaks_solver.model.messages import LANGUAGES
from tripeaks_solver.model.rules import RULE_CHOICES
from tripeaks_solver.model.scoring import SCHEMES

HELP = ("-h", "--help", "--version")


def _no_dash(s: str) -> bool:
    # A generated word starting with "-" could be read as an option that the checks
    # below do not know about; options come from the lists of each command.
    return not s.startswith("-")


def texts(max_size: int) -> st.SearchStrategy[str]:
    return st.text(max_size=max_size).filter(_no_dash)


VALID_CODES = st.sampled_from(["TP1-E-AAAAAAB", "TP1-C-AAAAAAD", "tp1-n-aaaaaai",
                               "TP1-EJ-AAAAAAC", "TP1-CJ-BCDEFGH", "TP1-E-ZZZZZZZ"])
CODES = st.one_of(
    VALID_CODES, VALID_CODES, VALID_CODES,
    st.sampled_from(["TP1-E-", "TP1-Q-AAAAAAB", "TP1-E-AAAAAAß", "ТР1-Е-ААААААА", "X", "",
                     "TP1-E-AAAAAAB\n", "TP1-E-AAAAAAAB", "TP1-E-AAAAAA" + "A" * 5000]),
    texts(16),
)
VALID_MOVES = st.sampled_from(["Js", "Th", "d", "draw", "u", "undo", "Kc", "10♥", "K♣", "Jk",
                               "🃏", "7d 9c", "2c,Ad", "A♦", "UNDO", "Qc", "4s", "9c", "8s",
                               "5h", "d d", "draw", "d:4s", "Kh:2d", "d:6c", "8h:Ks,Qd"])
MOVES = st.one_of(
    VALID_MOVES, VALID_MOVES, VALID_MOVES, VALID_MOVES,
    st.sampled_from(["Zz", "", ",", "D", "♣", "10", "1c", "Kc:", "d:Zz", "u:4s", ":", "Kc:7s:8s",
                     "-"]),  # -: the moves from standard input
    texts(8),
)
# The cards seen at the start of deal 1 (TP1-E-AAAAAAB): its bottom row and waste card.
SEEN_1 = "2c Ad 6s Kc Kh Th Ts Js Td 8s Qc"
SEEN = st.one_of(
    st.sampled_from([SEEN_1, SEEN_1.rsplit(" ", 1)[0], SEEN_1 + " 9h", "2c 2c" + SEEN_1[5:],
                     "Jk" + SEEN_1[2:], ""]),
    texts(20),
)


def _hide(n: int, count: int) -> str:
    tokens = Deal.from_number(n).line().split()
    return " ".join("??" if i < count else t for i, t in enumerate(tokens))


LINE = Deal.from_number(5).line()
LAYOUTS = st.one_of(
    st.sampled_from([LINE, _hide(2, 2), _hide(7, 3), " ".join(LINE.split()[:51]),
                     LINE.replace("Qh", "Jk"), LINE.replace("Qh", "Kc"), "Kc", ""]),
    texts(30),
)
# Files: named here, made once per session (the "files" fixture), swapped in by the test.
FILES = {
    "<good>": f"# two deals\n{Deal.from_number(1).line()}\n\n{_hide(4, 2)}\n",
    "<bad>": f"{Deal.from_number(1).line()}\n{LINE.replace('Qh', 'Zz')}\n",
    "<empty>": "",
    "<long>": "Kc " * 3000 + "\n",
    "<latin1>": None,  # bytes, written by the fixture
    "<csv>": "".join((Path(__file__).parent.parent / "data" / "deals-0-9999.csv")
                     .read_text(encoding="utf-8").splitlines(keepends=True)[:9]),
    "<record>": ("# tripeaks-solver game record\n"
                 f"start: seen {SEEN_1}\nrules: easy\nvariant:\nscoring: app\n"
                 "moves:\nJs\nTh\nd:4s\n"),
}
RECORD_FILES = st.sampled_from(["<record>", "<record>", "<good>", "<empty>", "-", "/dev/null",
                                "/nonexistent/x.txt", "<dir>", "<fifo>", ""])
LAYOUT_FILES = st.sampled_from([*FILES, "-", "/dev/null", "/dev/zero", "/nonexistent/x.txt",
                                "<dir>", "<fifo>", ""])
STDIN = st.one_of(
    st.sampled_from([b"", b"TP1-E-AAAAAAB\nTP1-C-AAAAAAD\n", b"# nothing\n\n",
                     b"TP1-E-AAAAAAB batc\n", b"\xff\xfe", b"TP1-E-AAAAAAB " * 400,
                     (Deal.from_number(2).line() + "\n").encode(), _hide(3, 2).encode()]),
    st.binary(max_size=40),
)
SAMPLES = st.one_of(st.integers(1, 12).map(str), st.integers(1, 12).map(str),
                    st.sampled_from(["0", "-1", "1000001", "1208925819614629174706176", "x",
                                     ""]))
SEEDS = st.one_of(st.integers(-10**6, 10**6).map(str), st.sampled_from(["s", "9" * 30]))

VARIANTS = {"--empty-waste": None, "--joker": None, "--draw-when-stuck": None, "--open": None,
            "--wrap": None, "--no-wrap": None}
RARE = ["-h", "--help", "--bogus", "--json=1", "--"]  # one command line in ten has one
SCORING = {"--scoring": st.sampled_from([*SCHEMES, "best", ""])}
RULES = {"--rules": st.sampled_from(["code", "easy", "classic", "both", "clasic", ""])}
# A few deals at most: a range that is not tiny is refused or ends in a moment (the
# last deal, ZZZZZZZ, is a valid bound but would start billions of solves).
BOUNDS = st.sampled_from(["0", "1", "3", "AAAAAAC", "TP1-E-AAAAAAD", "x", "", "-5",
                          "9" * 5000, "04"])
OUTPUTS = st.sampled_from(["<new>", "<newpng>", "-", "<dir>", "/nonexistent/x.csv",
                           "/dev/full", "<fifo>", "x.txt"])
REPORTED = st.sampled_from(["<csv>", "<good>", "<empty>", "<dir>", "<fifo>", "/dev/zero",
                            "-", "<new>", "/nonexistent.csv"])
JOBS = st.sampled_from(["1", "0", "257", "3000000000", "x"])  # no worker pool: forks in-process
SOLVE_OPTIONS = {
    "--rules": st.sampled_from([*RULE_CHOICES, "hard", ""]),
    "--layout": LAYOUTS, "--layout-file": LAYOUT_FILES, "--samples": SAMPLES, "--seed": SEEDS,
    "--json": None, "--no-solution": None, "--optimal": None, "--no-optimal": None,
    "--fast": None, "--must-clear": None, **SCORING, **VARIANTS,
}


@dataclass(frozen=True)
class Command:
    """A command as the generator sees it: the words that name it, its positional
    words and its options (None: a flag)."""

    words: tuple[str, ...]
    positional: st.SearchStrategy[list[str]]
    options: dict[str, st.SearchStrategy[str] | None]
    quiet: bool = True  # nothing on stderr on success (batch may show progress there)

    def wants_json(self, units: list[list[str]]) -> bool:
        """--json, or (deal) a last --format json."""
        formats = [u[1] for u in units if u[0] == "--format" and len(u) == 2]
        return ["--json"] in units or ("--format" in self.options and formats[-1:] == ["json"])


COMMANDS = {
    "solve": Command(("solve",), st.lists(st.one_of(CODES, st.just("-")), max_size=3),
                     SOLVE_OPTIONS),
    "deal": Command(("deal",), st.lists(CODES, min_size=1, max_size=2),
                    {"--format": st.sampled_from(["text", "line", "json", "xml"]),
                     "--json": None, "--reveal": None, **RULES, **VARIANTS}),
    "replay": Command(("replay",),
                      st.builds(lambda c, m: [*c, *m], st.lists(CODES, min_size=1, max_size=1),
                                st.lists(MOVES, max_size=8)),
                      {"--lang": st.sampled_from([*LANGUAGES, "fr"]), "--json": None,
                       "--layout": LAYOUTS, "--layout-file": LAYOUT_FILES, "--seen": SEEN,
                       "--record": RECORD_FILES, **RULES, **SCORING, **VARIANTS}),
    "batch": Command(("batch",), st.lists(BOUNDS, max_size=2), {
        "--layout-file": LAYOUT_FILES, "--rules": st.sampled_from(["both", "easy", "x"]),
        "--optimal": None, "--no-optimal": None, "--csv": OUTPUTS, "--resume": None,
        "--force": None, "--json": None, "--jobs": JOBS,
        "--engine": st.sampled_from(["local", "ray", ""]), "--scheduler": st.just("x"),
        "--plot": OUTPUTS, "--difficulty": st.sampled_from(["1", "3", "0", "10001", "x"]),
        "--player": st.sampled_from(["greedy", "random", "perfect", "rollout:2", "bogus"]),
        "--seed": SEEDS, "--progress": None, "--no-progress": None, "--must-clear": None,
        **SCORING, **VARIANTS}, quiet=False),
    "report": Command(("report",), st.lists(REPORTED, min_size=1, max_size=2),
                      {"--plot": OUTPUTS, "--force": None, "--json": None}),
    "play": Command(("play",), st.lists(CODES, min_size=1, max_size=2), {
        "--player": st.sampled_from(["random", "greedy", "rollout:3", "fair:2", "pimc:2",
                                     "perfect", "bogus", "fair:0", "rollout:x", ""]),
        "--seed": SEEDS, "--rules": st.sampled_from(["code", "easy", "classic", "both"]),
        "--json": None, **VARIANTS}),
    # The group itself: a first word (a command, a code, a typo, anything), then what
    # solve takes (the default command).
    "group": Command((), st.builds(
        lambda first, rest: [first, *rest],
        st.one_of(st.sampled_from(["batc", "dael", "solv", "hello", "", "-", "--version",
                                   "-h", "TP1-E-AAAAAAD", "tp1-c-aaaaaab"]), CODES),
        st.lists(CODES, max_size=2)), SOLVE_OPTIONS),
}


@st.composite
def command_lines(draw, command: Command) -> tuple[list[str], bool]:
    """(arguments, whether they ask for JSON): the positional words in their order (the
    group's first word first), the options anywhere between them."""
    positional = draw(command.positional)
    options = []
    for name in draw(st.lists(st.sampled_from(sorted(command.options)), max_size=5)):
        values = command.options[name]
        options.append([name] if values is None else [name, draw(values)])
    if "--json" in command.options and draw(st.booleans()):  # half the lines ask for JSON
        options.append(["--json"])
    if draw(st.integers(0, 9)) == 0:
        options.append([draw(st.sampled_from(RARE))])
    fixed = 0 if command.words else min(1, len(positional))
    slots = draw(st.permutations([None] * (len(positional) - fixed) + list(range(len(options)))))
    words = iter(positional[fixed:])
    args = [*command.words, *positional[:fixed]]
    read = []  # the options click reads: those before a "--" (after it, words)
    for slot in slots:
        args += [next(words)] if slot is None else options[slot]
        if slot is not None and ["--"] not in read:
            read.append(options[slot])
    cut = args.index("--") if "--" in args else len(args)
    asks_help = any(a in HELP for a in args[:cut])
    return args, command.wants_json(read) and not asks_help


@pytest.fixture(scope="session")
def files(tmp_path_factory) -> dict[str, str]:
    where = tmp_path_factory.mktemp("generated-input")
    out = {}
    for name, text in FILES.items():
        path = where / (name.strip("<>") + ".txt")
        if text is None:
            path.write_bytes(LINE.encode() + b" \xe9\n")
        else:
            path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    out["<dir>"] = str(where)
    out["<new>"] = str(where / "written.csv")  # made (then resumed, refused …) by batch
    out["<newpng>"] = str(where / "written.png")
    fifo = where / "deals.fifo"
    # Windows has no named pipes; its stand-in here (TRIPEAKS_NO_FCNTL=1) has no
    # O_NONBLOCK either, so a pipe with no writer would be waited for: a missing path.
    if os.environ.get("TRIPEAKS_NO_FCNTL") != "1":
        os.mkfifo(fifo)
    out["<fifo>"] = str(fifo)
    return out


def check(capsys, monkeypatch, files: dict[str, str], args: list[str], json_mode: bool,
          stdin: bytes, quiet: bool = True) -> None:
    args = [files.get(a, a) for a in args]
    # batch without --jobs would fork a worker pool from this (threaded) test process,
    # and a fork there can hang for ever; subprocess tests cover the pool.
    monkeypatch.setattr("tripeaks_solver.batch.engines.default_jobs", lambda: 1)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code, out, err = run(capsys, *args)
    event(f"exit {code}{' (json)' if json_mode else ''}")
    assert code in (0, 1, 2), (args, code, err)
    assert "Traceback" not in out and "Traceback" not in err, (args, err)
    if code == 0:
        assert err == "" or not quiet, (args, err)
    else:
        assert err.endswith("\n") and err.count("\n") == 1, (args, err)
    if json_mode:
        if code == 2:
            assert out == "", (args, out)
        else:
            json.loads(out)  # raises on anything but one JSON document


def _test(capsys, monkeypatch, files, data) -> None:
    command = data.draw(st.sampled_from(sorted(COMMANDS)), label="command")
    args, json_mode = data.draw(command_lines(COMMANDS[command]), label="args")
    stdin = data.draw(STDIN, label="stdin")
    check(capsys, monkeypatch, files, args, json_mode, stdin, COMMANDS[command].quiet)


SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": [HealthCheck.function_scoped_fixture,
                                      HealthCheck.too_slow, HealthCheck.filter_too_much]}


@settings(max_examples=300, **SETTINGS)
@given(data=st.data())
def test_generated_command_lines(capsys, monkeypatch, files, data):
    _test(capsys, monkeypatch, files, data)


@pytest.mark.slow
@settings(max_examples=3000, **{**SETTINGS, "derandomize": False})
@given(data=st.data())
def test_generated_command_lines_many(capsys, monkeypatch, files, data):
    _test(capsys, monkeypatch, files, data)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_of_the_command_is_generated(command):
    """The generator knows every option of each command (so a new option is generated
    too once it is added to COMMANDS), and none the command lacks."""
    target = cli.commands["solve" if command == "group" else command]
    names = {o for p in target.params if isinstance(p, click.Option)
             for o in (*p.opts, *p.secondary_opts)}
    assert names == set(COMMANDS[command].options), names ^ set(COMMANDS[command].options)
    assert {"-h", "--help"} <= set(RARE)  # the help option, which params do not list
