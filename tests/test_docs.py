"""The examples of the documentation are what the tool prints.

Every fenced block of README.md and docs/*.md whose first line starts with ``$ `` is an
example: each ``$ `` line (continued by a trailing backslash) is a command, typed into
bash as a user would, with ``tripeaks-solve`` running this checkout; the lines after it,
up to the next ``$ `` line, are what it prints (stdout and stderr, as a terminal shows
them). The commands of one block run in turn in one fresh directory, so a later one can
read the file an earlier one wrote. Output is compared line by line, exactly, except
that trailing spaces are ignored and ``[…]`` in an expected line matches any text (for
the few lines that legitimately vary: seconds). A block whose fence says ``slow``
(```` ```text slow ````) belongs to the slow set.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md",
         *sorted((ROOT / "docs").glob("*.md"))]
VARIES = "[…]"


@dataclass
class Example:
    where: str  # file:line of the block's first command
    slow: bool
    steps: list[tuple[str, list[str]]]  # (command, expected output lines)


def examples_in(path: Path, root: Path = ROOT) -> list[Example]:
    """The example blocks of one Markdown file."""
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(`{3,})(.*)$", lines[i])
        if not fence:
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and not lines[end].startswith(fence[1]):
            end += 1
        body = lines[start:end]
        if body and body[0].startswith("$ "):
            found.append(Example(f"{path.relative_to(root)}:{start + 1}",
                                 "slow" in fence[2].split(), parse_steps(body)))
        i = end + 1
    return found


def parse_steps(body: list[str]) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(body):
        assert body[i].startswith("$ "), body[i]
        command = body[i][2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + "\n" + body[i]
        i += 1
        out = []
        while i < len(body) and not body[i].startswith("$ "):
            out.append(body[i])
            i += 1
        steps.append((command, out))
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, trailing spaces and trailing blank lines aside; ``[…]`` matches any
    text within its line."""
    def norm(lines: list[str]) -> list[str]:
        lines = [line.rstrip() for line in lines]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    expected, actual = norm(expected), norm(actual)
    if len(expected) != len(actual):
        return False
    for want, got in zip(expected, actual):
        pattern = ".*".join(re.escape(part) for part in want.split(VARIES))
        if not re.fullmatch(pattern, got):
            return False
    return True


ALL = [e for f in FILES for e in examples_in(f)]


def run_block(example: Example, tmp: Path) -> None:
    # `tripeaks-solve` is this checkout's, whatever else is installed.
    bin_dir = tmp / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "tripeaks-solve"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tripeaks_solver "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "LANG", "TRIPEAKS", "_TRIPEAKS"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8",
               LANG="C.UTF-8", COLUMNS="80", XDG_DATA_HOME=str(tmp / ".data"))
    work = tmp / "work"
    work.mkdir()
    for command, expected in example.steps:
        proc = subprocess.run(["bash", "-c", command], check=False, cwd=work, env=env, text=True,
                              encoding="utf-8", stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        actual = proc.stdout.splitlines()
        assert matches(expected, actual), (
            f"{example.where}: `{command}` printed\n" + "\n".join(actual)
            + "\n--- the documentation says\n" + "\n".join(expected))


@pytest.mark.parametrize(
    "example", [pytest.param(e, id=e.where, marks=[pytest.mark.slow] if e.slow else [])
                for e in ALL])
def test_example_prints_what_the_documentation_shows(example, tmp_path):
    for command, _ in example.steps:
        assert "tripeaks-solve" in command, (example.where, command)
        # A fair answer draws random completions: the same seed, the same output.
        if "--fair" in command or "coach" in command.split():
            assert "--seed" in command, (example.where, "needs --seed", command)
    run_block(example, tmp_path)


def test_the_examples_are_found():
    where = {e.where.split(":")[0] for e in ALL}
    assert "README.md" in where and "docs/cli.md" in where
    commands = " ".join(c for e in ALL for c, _ in e.steps)
    for name in ("coach", "deal", "hint", "analyze", "batch", "report"):
        assert f"tripeaks-solve {name}" in commands, name


def test_a_changed_card_is_drift():
    # The README once showed move 24 as 3♦ where the tool printed A♦.
    printed = ["   24. A♦         score 756  peak cleared"]
    assert matches(printed, printed)
    assert not matches(["   24. 3♦         score 756  peak cleared"], printed)
    assert not matches(printed, printed + ["one more line"])
    timing = ["Searched 36,464 states (easy) in 6.2 ms"]
    assert matches(["Searched 36,464 states (easy) in […]"], timing)
    assert not matches(["Searched 36,465 states (easy) in […]"], timing)


def test_a_block_is_read_as_commands_and_outputs(tmp_path):
    md = tmp_path / "x.md"
    md.write_text("text\n```text slow\n$ tripeaks-solve a \\\n  b\none\n\n$ tripeaks-solve c\n"
                  "two\n```\n```sh\ntripeaks-solve not-an-example\n```\n", encoding="utf-8")
    (example,) = examples_in(md, tmp_path)
    assert example.slow and example.where == "x.md:3"
    assert example.steps == [("tripeaks-solve a \n  b", ["one", ""]),
                             ("tripeaks-solve c", ["two"])]


def test_cli_md_names_every_command_and_option():
    """docs/cli.md has a section per command naming each of its options (from the
    commands themselves), and lists the command in its contents."""
    from tripeaks_solver.cli import cli

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    sections = {s.split("\n", 1)[0].strip(): s for s in parts}
    missing = []
    for name, command in cli.commands.items():
        if name not in sections:
            missing.append(f"## {name}")
            continue
        for param in command.params:
            for opt in (*param.opts, *param.secondary_opts):
                named = re.search(rf"`{re.escape(opt)}(?![\w-])", sections[name])
                if opt.startswith("--") and opt != "--help" and not named:
                    missing.append(f"{name} {opt}")
        if f"[{name}](#{name})" not in text:
            missing.append(f"contents: {name}")
    assert not missing, missing


# --- links ------------------------------------------------------------------------------
def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _outside_fences(text: str) -> str:
    return re.sub(r"^(`{3,}).*?^\1", "", text, flags=re.MULTILINE | re.DOTALL)


def test_every_relative_link_names_a_file_and_heading_that_exist():
    checked = 0
    for path in FILES:
        text = _outside_fences(path.read_text(encoding="utf-8"))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue  # a web address
            name, _, anchor = target.partition("#")
            linked = (path.parent / name).resolve() if name else path
            assert linked.exists(), f"{path.name}: link to {target}: no such file"
            if anchor:
                headings = re.findall(r"^#+ (.+)$", _outside_fences(
                    linked.read_text(encoding="utf-8")), flags=re.MULTILINE)
                assert anchor in {_slug(h) for h in headings}, \
                    f"{path.name}: link to {target}: no such heading"
            checked += 1
    assert checked > 20


def test_headings_get_the_anchors_github_gives_them():
    assert _slug("Scores of wins only: `--must-clear`") == "scores-of-wins-only---must-clear"
    assert _slug("Speed of the two commands and the tests") == \
        "speed-of-the-two-commands-and-the-tests"


def test_the_design_names_every_module():
    # docs/design.md is the map of the package: a module it does not name is a module a
    # newcomer cannot find (CONTRIBUTING.md sends them there).
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    modules = [p for p in (ROOT / "tripeaks_solver").rglob("*.py")
               if p.name not in ("__init__.py", "__main__.py")]
    assert len(modules) > 80
    assert [str(p.relative_to(ROOT)) for p in modules
            if not re.search(rf"\b{re.escape(p.name)}\b", design)] == []
