"""The rough edges a new user hit, one group of tests each:

- one set of rule options (--rules and the variants) on every command that plays a deal;
- one message, the working one, when --plot lacks matplotlib;
- ``hint --reveal`` marks the face-down cards;
- every option with a closed set of values completes and names the closest value of a
  typo, --player (``name[:N]``) included;
- ``analyze --fair --plot``: the marks' labels above the share's line, a legend of only
  what is drawn;
- ``batch --plot`` draws --difficulty and --player;
- ``-`` among the moves of hint, analyze and replay reads them from standard input;
- ``replay`` shows the final board, a won one as the peaks cleared.
"""

from __future__ import annotations

import io
import json
import re
import sys

import click
import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver.cli import cli
from tripeaks_solver.cli.common import Choice, PlayerType
from tripeaks_solver.errors import IllegalMoveError
from tripeaks_solver.games.records import header, make_start
from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.geometry import ROWS
from tripeaks_solver.model.moves import parse_record
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.render import CLEARED, board_lines
from tripeaks_solver.model.rules import CLASSIC, EASY

CODE = "TP1-E-AAAAABQ"  # deal 42: waste 4♥, stock 3♦ 10♥ J♠ …, bottom row 6♦ A♦ 7♦ 2♣ …
# Legal under Easy; under Classic the fourth move, K♠ on A♦, is not (no K–A wrap).
WRAPPING = ("d", "2c", "Ad", "Ks")
PLAYS_ONE_DEAL = ("deal", "replay", "hint", "analyze", "play")
VARIANT_FLAGS = {"--empty-waste", "--joker", "--draw-when-stuck", "--open", "--wrap"}


def options(command: str) -> dict[str, click.Option]:
    return {o: p for p in cli.commands[command].params if isinstance(p, click.Option)
            for o in p.opts}


def feed(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()),
                                                       encoding="utf-8"))


# --- one set of rule options --------------------------------------------------------------
def test_every_command_that_plays_one_deal_takes_the_same_rule_options():
    for command in PLAYS_ONE_DEAL:
        opts = options(command)
        assert VARIANT_FLAGS | {"--rules"} <= set(opts), command
        rules = opts["--rules"]
        assert (rules.name, tuple(rules.type.choices), rules.default) == \
            ("rule_choice", ("code", "easy", "classic"), "code"), command


def test_replay_and_deal_take_rules(capsys):
    game = Game(Deal.from_number(42), CLASSIC)
    for token in WRAPPING[:3]:
        game.play(token)
    with pytest.raises(IllegalMoveError):
        game.play(WRAPPING[3])
    code, _, err = run(capsys, "replay", CODE, "--rules", "classic", *WRAPPING, "--lang", "en")
    assert_one_line_error(code, err, "move 4 (Ks)", exit_code=1)
    code, out, err = run(capsys, "replay", CODE, "--rules", "easy", *WRAPPING, "--json")
    assert code == 0, err
    assert json.loads(out)["rules"] == "easy"
    code, out, err = run(capsys, "replay", CODE, "--rules", "classic", *WRAPPING[:2], "--json")
    assert code == 0, err
    assert (json.loads(out)["rules"], json.loads(out)["code"]) == ("classic", "TP1-C-AAAAABQ")
    code, out, err = run(capsys, "deal", CODE, "--rules", "classic", "--json")
    assert code == 0, err
    assert (json.loads(out)["rules"], json.loads(out)["code"]) == ("classic", "TP1-C-AAAAABQ")


# --- --plot without matplotlib ------------------------------------------------------------
def test_plot_without_matplotlib_says_one_working_command(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # its import fails
    png = str(tmp_path / "p.png")
    errors = set()
    for args in (["analyze", CODE, "d", "--plot", png], ["batch", "0", "2", "--plot", png],
                 ["report", str(tmp_path / "x.csv"), "--plot", png]):
        code, _, err = run(capsys, *args)
        assert_one_line_error(code, err, "matplotlib", "pip install -e '.[plot]'")
        errors.add(err)
    assert len(errors) == 1, errors  # one message for the three commands
    assert "tripeaks-solver[" not in errors.pop()  # not published: that install fails


# --- hint --reveal --------------------------------------------------------------------------
def test_hint_reveal_marks_the_face_down_cards(capsys):
    record = ("d", "2c", "Ad", "Ks", "d", "d", "Ts")
    position = Position.after(Deal.from_number(42), EASY, record)
    code, out, err = run(capsys, "hint", CODE, *record, "--reveal")
    assert code == 0, err
    rows = out.splitlines()[1:1 + len(ROWS)]
    marked = {Card.parse(t) for row in rows for t in re.findall(r"\[([^\]]+)\]", row)}
    plain = {Card.parse(t) for row in rows for t in re.sub(r"\[[^\]]+\]", " ", row).split()}
    left = [p for p in range(28) if not position.removed >> p & 1]
    assert marked == {position.deal.cards[p] for p in left if not position.face_up(p)}
    assert plain == {position.deal.cards[p] for p in left if position.face_up(p)}
    assert "face down" in out.splitlines()[1 + len(ROWS)]  # the marks are explained
    code, out, err = run(capsys, "hint", CODE, *record)  # without --reveal: ## as before
    assert code == 0 and "[" not in "".join(out.splitlines()[1:5])


# --- hint's legend names what ? means under the scheme -------------------------------------
def test_hint_legend_of_a_question_mark_follows_the_scheme(capsys):
    # under cards-left 4c keeps 0 cards left but takes a move more (hint and analyze agree)
    record = ("8h", "d", "4s", "d", "8c", "d", "d", "6h", "d", "8d", "d")
    for scheme, meaning in (("cards-left", "leaves more cards, or as many in more moves"),
                            ("app", "loses points")):
        code, out, err = run(capsys, "hint", "TP1-E-AAAAAAD", *record, "--scoring", scheme)
        assert code == 0, err
        legend = next(line for line in out.splitlines() if line.startswith("Moves, best"))
        assert legend.endswith(f"? {meaning}):"), legend
        if scheme == "cards-left":  # the mark the legend explains is there
            assert any(line.split()[0] == "4♣" and line.endswith(" ?")
                       for line in out.splitlines() if line.startswith("  ")), out


# --- closed sets of values: completion and did-you-mean ----------------------------------
def complete(capsys, monkeypatch, line: str) -> list[str]:
    """What the shell's Tab offers at the end of ``line`` (bash)."""
    with monkeypatch.context() as m:
        m.setenv("_TRIPEAKS_SOLVE_COMPLETE", "bash_complete")
        m.setenv("COMP_WORDS", line)
        m.setenv("COMP_CWORD", str(len(line.split(" ")) - 1))
        code, out, err = run(capsys)
    assert code == 0 and err == "", err
    return [item.split(",", 1)[1] for item in out.splitlines() if item]


def test_every_option_with_a_closed_set_of_values_suggests_and_completes(capsys, monkeypatch):
    closed = 0
    for command, cmd in cli.commands.items():
        for param in cmd.params:
            if isinstance(param.type, click.Choice):
                closed += 1
                assert isinstance(param.type, Choice), (command, param.name)  # suggests
                choices = [str(c) for c in param.type.choices]
                got = complete(capsys, monkeypatch,
                               f"tripeaks-solve {command} X {param.opts[0]} ")
                assert got == choices, (command, param.opts)
                typo = choices[-1][:-1] + "x" if len(choices[-1]) > 3 else choices[-1] + "x"
                code, _, err = run(capsys, command, "X", param.opts[0], typo)
                assert_one_line_error(code, err, f"did you mean {choices[-1]!r}")
    assert closed >= 11  # --rules ×7, --scoring ×5, --format, --lang, --engine


def test_player_completes_and_suggests(capsys, monkeypatch):
    names = ["random", "greedy", "careful", "pimc", "rollout", "fair", "perfect"]
    for command in ("play", "batch"):
        assert isinstance(options(command)["--player"].type, PlayerType)
        words = "tripeaks-solve play X" if command == "play" else "tripeaks-solve batch 0 1"
        assert complete(capsys, monkeypatch, f"{words} --player ") == names
        assert complete(capsys, monkeypatch, f"{words} --player p") == ["pimc", "perfect"]
        assert complete(capsys, monkeypatch, f"{words} --player fair:") == ["fair:100"]
        assert complete(capsys, monkeypatch, f"{words} --player greedy:") == []
    code, _, err = run(capsys, "play", CODE, "--player", "gredy")
    assert_one_line_error(code, err, "--player", "did you mean 'greedy'")
    code, _, err = run(capsys, "batch", "0", "1", "--player", "perfekt")
    assert_one_line_error(code, err, "--player", "did you mean 'perfect'")
    code, _, err = run(capsys, "play", CODE, "--player", "nobody")
    assert_one_line_error(code, err, "expected one of random, greedy")


# --- analyze --fair --plot ----------------------------------------------------------------
def _share_line(fig):
    return next((ax, line) for ax in fig.axes for line in ax.get_lines()
                if line.get_label().startswith("chance of the move played"))


def test_review_plot_labels_above_the_share_and_a_legend_of_what_is_drawn():
    pytest.importorskip("matplotlib")
    from tripeaks_solver.analysis.hints import analyze
    from tripeaks_solver.analysis.review_plot import review_figure

    deal = Deal.from_number(42)
    # Greedy's game of deal 42: a ! at move 4, the win lost at move 21.
    greedy = ("d 2c Ad Ks d d Ts d 5s 6d 7d 8h 7h 8c d 5c 4d 5d 4s d 8s d 2h As 2d Ac Kd "
              "d d Jh Td d d d 6h")
    record = parse_record([greedy])
    kept = analyze(deal, EASY, record[:10], fair=True, samples=20, seed=1)
    lost = analyze(deal, EASY, record, fair=True, samples=20, seed=1)
    assert kept.lost_at is None and lost.lost_at is not None and kept.count_exact("!") >= 1
    for review, lost_drawn in ((kept, False), (lost, True)):
        fig = review_figure(review, "deal 42")
        share_ax, _ = _share_line(fig)
        labels = [t for ax in fig.axes for t in ax.texts if t.get_text().endswith("!")]
        assert labels
        for label in labels:  # drawn after (over) the share's axis and line
            assert label.axes.get_zorder() > share_ax.get_zorder()
        (legend,) = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
        names = [t.get_text() for t in legend.get_texts()]
        assert ("no win left" in names) == lost_drawn, names
        drawn = {a.get_label() for ax in fig.axes for a in (*ax.get_lines(), *ax.collections)}
        assert set(names) <= drawn


# --- batch --plot with --difficulty and --player ------------------------------------------
@pytest.mark.slow  # CI's slow step (the fast set keeps the review plot and tests/test_batch.py's plot)
def test_batch_plot_draws_difficulty_and_players(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from tripeaks_solver.batch.plots import figure
    from tripeaks_solver.batch.report import read_report

    csv_path = tmp_path / "b.csv"
    code, out, err = run(capsys, "batch", "0", "12", "--jobs", "1", "--difficulty", "10",
                         "--player", "greedy", "--player", "random", "--csv", str(csv_path),
                         "--plot", str(tmp_path / "b.png"), "--json")
    assert code == 0, err
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    summary = json.loads(out)
    fig = figure(read_report(csv_path).summary)
    titles = [ax.get_title() for ax in fig.axes]
    for name in ("easy", "classic"):
        t = summary["rules"][name]
        (diff,) = [ax for ax in fig.axes if ax.get_title().startswith(
            f"{name.capitalize()}: difficulty")]
        # Every deal in one bar; each rating's deals in its own colour, as counted.
        assert sum(p.get_height() for p in diff.patches) == t["deals"]
        legend = [x.get_text() for x in diff.get_legend().get_texts()]
        assert legend == [f"{r} ({n})" for r, n in t["ratings"].items() if n]
        (plays,) = [ax for ax in fig.axes if ax.get_title().startswith(
            f"{name.capitalize()}: players")]
        assert [x.get_text() for x in plays.get_yticklabels()] == ["greedy", "random"]
        widths = [p.get_width() for p in plays.patches]
        assert widths == [pytest.approx(t["players"][p]["win_rate"]) for p in
                          ("greedy", "random")]
        exact = [ln.get_xdata()[0] for ln in plays.get_lines() if "winnable" in ln.get_label()]
        assert exact == [pytest.approx(t["players"]["greedy"]["exact_win_rate"])]
    assert len(titles) == 8  # won, lost, difficulty, players; Easy and Classic


# --- moves from standard input -------------------------------------------------------------
@pytest.mark.parametrize("command", ["replay", "hint", "analyze"])
def test_a_dash_among_the_moves_reads_them_from_standard_input(capsys, monkeypatch, command):
    seeded = ["--seed", "1", "--samples", "30"] if command == "analyze" else []
    typed = [command, CODE, *WRAPPING, *seeded]
    code, want, err = run(capsys, *typed)
    assert code == 0, err
    feed(monkeypatch, "d 2c  # the first two\n\n# a comment line\nAd\n")
    code, got, err = run(capsys, command, CODE, "-", "Ks", *seeded)
    assert code == 0, err
    assert got == want
    feed(monkeypatch, "d 2c\n")
    code, _, err = run(capsys, command, CODE, "-", "-")
    assert_one_line_error(code, err, "standard input (-) can be read only once")
    if command != "replay":  # the layout and the moves cannot both come from there
        feed(monkeypatch, Deal.from_number(42).line() + "\n")
        code, _, err = run(capsys, command, "--layout-file", "-", "-")
        assert_one_line_error(code, err, "standard input (-) can be read only once")


# --- replay's final board ---------------------------------------------------------------------
def test_replay_shows_the_final_board(capsys):
    record = ("d", "2c", "Ad", "Ks", "d", "d", "Ts")
    position = Position.after(Deal.from_number(42), EASY, record)
    code, out, err = run(capsys, "replay", CODE, *record)
    assert code == 0, err
    lines = out.splitlines()
    board = lines[len(record) + 2:len(record) + 2 + len(ROWS)]  # after the title, the moves
    shown = [{Card.parse(t) for t in ln.split() if t != "##"} for ln in board]
    left = [p for p in range(28) if not position.removed >> p & 1]
    for (first, stop), cards in zip(ROWS, shown, strict=True):
        assert cards == {position.deal.cards[p] for p in left
                         if first <= p < stop and position.face_up(p)}
    assert sum(ln.split().count("##") for ln in board) == sum(not position.face_up(p)
                                                               for p in left)
    assert (f"Waste: {position.waste.pretty}    Stock: {position.stock_left} cards left"
            in lines)
    assert lines[-1].startswith("In play: ")  # the summary stays last
    code, out, err = run(capsys, "replay", CODE, *record, "--json")
    assert code == 0 and "##" not in out and json.loads(out)["moves"] == len(record)


# --- a won board: the peaks said cleared ------------------------------------------------
def _won_line(number: int = 1) -> list[str]:
    from tripeaks_solver.solver.solve import solve

    sol = solve(Deal.from_number(number), EASY)
    assert sol.winnable
    return list(sol.tokens)



def test_replay_of_a_won_game_says_the_peaks_are_cleared(capsys, tmp_path):
    line = _won_line()
    record = tmp_path / "won.txt"
    record.write_text(header(make_start("code", "TP1-E-AAAAAAB", EASY), "app")
                      + "".join(t + "\n" for t in line), encoding="utf-8")
    for args in (("replay", "TP1-E-AAAAAAB", *line), ("replay", "--record", str(record))):
        code, out, err = run(capsys, *args)
        assert code == 0, err
        lines = out.splitlines()
        at = lines.index(CLEARED)
        # the moves, a blank line, the cleared peaks, a blank line, the waste: no rows of
        # nothing where the peaks were
        assert lines[at - 1] == "" and lines[at + 1] == "" and lines[at + 2].startswith("Waste:")
        assert "\n\n\n" not in out
        assert lines[-1].startswith("Won: ")



def test_a_board_with_cards_left_is_drawn_as_peaks():
    position = Position.after(Deal.from_number(1), EASY, _won_line()[:-1])
    assert CLEARED not in board_lines(position)
    assert len(board_lines(position)) == len(ROWS) + 2
