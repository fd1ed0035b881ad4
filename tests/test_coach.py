"""``coach`` driven on standard input, as a script would drive it: one line a move, one
JSON object a turn. The test plays the coach's recommendations on a deal it knows,
telling the coach only what a player would see, and checks the moves, the record file,
the blindness of the advice and that a killed session loses nothing; the shares it shows
never say 100% unless sure, and its chance never exceeds the recommended move's share."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import tripeaks
from test_observed import seen_text, shown_places

from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.games.turns import percents
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules

ROOT = Path(__file__).resolve().parent.parent
TURN_KEYS = ["moves_played", "status", "score", "stock_left", "cards_left", "waste", "known",
             "unknown", "exact", "recommended", "chance", "player", "seed", "moves", "need",
             "peek", "error", "record_file", "final"]


class Dialog:
    """A coach session in a subprocess: a line in, a JSON turn out."""

    def __init__(self, tmp: Path, *args: str) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tripeaks_solver", "coach", "--json", *args], cwd=ROOT,
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1)
        self.turns: list[dict] = []

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        turn = json.loads(line)
        assert list(turn) == TURN_KEYS
        self.turns.append(turn)
        return turn

    def send(self, line: str) -> dict:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(timeout=120)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


def said(game: Game, move: Move) -> str:
    """The line a player types for ``move``: the move and every card it turned up."""
    before = shown_places(game)
    game.play(move)
    new = sorted(shown_places(game) - before)
    cards = ",".join(game.deal.cards[p].token for p in new)
    return f"{move.token}:{cards}" if cards else move.token


def drive(tmp: Path, deal: Deal, rules: Rules, start: list[str], ask_every: int = 3,
          max_turns: int = 200) -> tuple[Dialog, Game, dict]:
    """Play the coach's recommendations to the end (or ``max_turns`` moves, then q).
    Every ``ask_every``-th move is sent without the cards it showed (0: none), so that
    the coach asks for them."""
    dialog = Dialog(tmp, *start, "--samples", "30", "--seed", "4", "--no-analysis")
    game = Game(deal, rules)
    turn = dialog.read()
    for number in range(max_turns):
        if turn["final"] is not None:
            break
        legal = [Move.remove(c).token for c in game.playable()]
        if game.stock_left and rules.may_draw(bool(legal)):
            legal.append("draw")
        assert turn["error"] is None and turn["need"] is None
        assert sorted(m["move"] for m in turn["moves"]) == sorted(legal)
        move = Move.parse(turn["recommended"])
        line = said(game, move)
        if ask_every and number % ask_every == 0 and ":" in line:
            head, cards = line.split(":")
            turn = dialog.send(head)
            assert [n["place"] for n in turn["need"]] and turn["recommended"] is None
            turn = dialog.send(cards.replace(",", " "))
        else:
            turn = dialog.send(line)
        assert turn["score"] == game.score
    if turn["final"] is None:
        turn = dialog.send("q")
    assert dialog.close() == 0
    return dialog, game, turn["final"]


def twin_deal(deal: Deal, known: set[int], seed: int) -> Deal:
    """The deal with the cards at the places not in ``known`` shuffled among them."""
    cards = list(deal.cards)
    hidden = [p for p in range(len(cards)) if p not in known]
    moved = [cards[p] for p in hidden]
    random.Random(seed).shuffle(moved)
    for p, c in zip(hidden, moved, strict=True):
        cards[p] = c
    return Deal(tuple(cards))


def known_after(deal: Deal, rules: Rules, record: list[str]) -> set[int]:
    game = Game(deal, rules)
    known = shown_places(game)
    for token in record:
        game.play(Move.parse(token.split(":")[0]))
        known |= shown_places(game)
    return known


@pytest.mark.parametrize(("number", "rules"), [(2, EASY),
                                               pytest.param(4, CLASSIC, marks=pytest.mark.slow)])
def test_whole_games_through_coach(tmp_path: Path, number: int, rules: Rules) -> None:
    assert check_game(tmp_path, number, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [EASY, CLASSIC, EASY.with_options(empty_waste=True),
                                   CLASSIC.with_options(draw_when_stuck=True),
                                   EASY.with_options(open=True)],
                         ids=lambda r: f"{r.name}+{r.variant}")
def test_whole_games_through_coach_many(tmp_path: Path, rules: Rules) -> None:
    twins = sum(check_game(tmp_path / str(number), number, rules) for number in range(20, 26))
    assert twins >= 2


def check_game(tmp: Path, number: int, rules: Rules) -> bool:
    """Play deal ``number`` through the coach; True when some cards were never seen, and
    the game played again with them moved around was the same."""
    deal = Deal.from_number(number)
    flags = [f"--{k}" for k, f in (("empty-waste", "empty_waste"),
                                   ("draw-when-stuck", "draw_when_stuck"), ("open", "open"))
             if getattr(rules, f)]
    start = ["--seen", seen_text(deal, rules), "--rules", rules.name, *flags]
    dialog, game, final = drive(tmp, deal, rules, start)
    assert final["score"] == game.score and final["result"] == (
        "won" if game.status is Status.WON else "stuck")
    # The record file holds the game: it replays on the plain game to the same score.
    path = Path(dialog.turns[0]["record_file"])
    record = parse_record_file(path.read_text(encoding="utf-8"), str(path))
    replayed = Game(deal, rules)
    for step in record.moves:
        replayed.play(step.move)
    assert replayed.score == final["score"] and replayed.status is game.status
    assert [o.token for o in record.moves] == final["record"]
    # Blind by construction: the cards never seen moved elsewhere, the session is the same.
    twin = twin_deal(deal, known_after(deal, rules, final["record"]), number)
    if twin == deal:  # every card was seen (or the unseen ones are alike)
        return False
    other, _, _ = drive(tmp / "twin", twin, rules, start)
    strip = [{k: v for k, v in t.items() if k != "record_file"} for t in dialog.turns]
    assert strip == [{k: v for k, v in t.items() if k != "record_file"} for t in other.turns]
    return True


def walk_peek(tmp: Path, deal: Deal, rules: Rules, start: list[str]) -> tuple:
    """Follow the coach's peek to its end, then its exact moves to the end of the game,
    saying every card a move shows (as a player reading the app would)."""
    dialog = Dialog(tmp, *start, "--peek", "--samples", "30", "--seed", "4", "--no-analysis")
    game = Game(deal, rules)
    turn = dialog.read()
    taps = 0
    while turn["peek"] is not None:
        peek = turn["peek"]
        assert turn["recommended"] is None and turn["error"] is None
        if peek["undos"]:
            game.play(Move.UNDO)
            turn = dialog.send("u")
        else:
            assert peek["moves"], peek  # a step always has moves after its undos
            turn = dialog.send(said(game, Move.parse(peek["moves"][0])))
        taps += 1
        assert turn["score"] == game.score
    assert game.stock_index == 0 and game.removed == 0  # back where it began
    assert turn["exact"] is True and turn["unknown"] == 0
    while turn["final"] is None:
        turn = dialog.send(said(game, Move.parse(turn["recommended"])))
    assert dialog.close() == 0
    return taps, game, turn["final"]


@pytest.mark.parametrize(("number", "rules", "fair_code"), [
    (3, EASY, False), pytest.param(5, CLASSIC, True, marks=pytest.mark.slow)])
def test_peek_then_the_best_line(tmp_path: Path, number: int, rules: Rules,
                                 fair_code: bool) -> None:
    """The coach walks the peek command's plan tap for tap, then plays the exact best
    line: the final score is the deal's best score, and the record replays to it."""
    from tripeaks_solver.analysis.peek import plan_peek
    from tripeaks_solver.model.layout import Layout
    from tripeaks_solver.solver.solve import solve

    deal = Deal.from_number(number)
    start = (["--layout", deal.line(), "--fair", "--rules", rules.name] if fair_code
             else ["--seen", seen_text(deal, rules), "--rules", rules.name])
    taps, game, final = walk_peek(tmp_path, deal, rules, start)
    plan = plan_peek(deal, rules, Layout.of_deal(deal, Game(deal, rules).visible_places()),
                     seed=4)  # the coach's --seed
    assert plan.complete and taps == plan.actions
    best = solve(deal, rules).best_score
    assert final["score"] == game.score == best
    replayed = Game(deal, rules)
    for token in final["record"]:
        replayed.play(token.split(":")[0])
    assert replayed.score == best


@pytest.mark.slow  # CI's slow step; the fast set's whole game checks the blindness
def test_code_with_fair_is_blind(tmp_path: Path) -> None:
    deal = Deal.from_number(2)
    a, _, final = drive(tmp_path / "a", deal, EASY, ["--layout", deal.line(), "--fair"], 0)
    twin = twin_deal(deal, known_after(deal, EASY, final["record"]), 2)
    assert twin != deal
    b, _, _ = drive(tmp_path / "b", twin, EASY, ["--layout", twin.line(), "--fair"], 0)
    assert a.turns[0]["exact"] is False
    strip = [{k: v for k, v in t.items() if k != "record_file"} for t in a.turns]
    assert strip == [{k: v for k, v in t.items() if k != "record_file"} for t in b.turns]


@pytest.mark.slow  # CI's slow step (the fast set's whole game and peek walk play the advice)
def test_recommendations_are_hint_fair_s(tmp_path: Path, capsys) -> None:
    """``hint --fair --seed S --samples N`` on the record so far recommends what the coach
    did at that turn."""
    from cli_run import run

    deal = Deal.from_number(1)
    dialog, _, final = drive(tmp_path, deal, EASY, ["--seen", seen_text(deal, EASY)],
                             max_turns=8)
    record = []
    for turn, token in zip(dialog.turns, final["record"][:5], strict=False):
        code, out, err = run(capsys, "hint", "--seen", seen_text(deal, EASY), *record, "--fair",
                             "--samples", "30", "--seed", "4", "--score-samples", "0", "--json")
        assert code == 0, err
        assert json.loads(out)["recommended"] == turn["recommended"]
        record.append(token)


def test_kill_loses_nothing(tmp_path: Path) -> None:
    deal = Deal.from_number(1)
    path = tmp_path / "game.txt"
    start = ["--seen", seen_text(deal, EASY)]
    game = Game(deal, EASY)
    lines = [said(game, Move.parse(t)) for t in ["Js", "Th", "d", "d", "d", "d", "Kh", "Ad"]]
    first = Dialog(tmp_path, *start, "--record", str(path), "--samples", "10", "--seed", "1")
    first.read()
    for line in lines[:5]:
        assert first.send(line)["error"] is None
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=30)
    second = Dialog(tmp_path, "--record", str(path), "--samples", "10", "--seed", "1",
                    "--no-analysis")
    assert second.read()["moves_played"] == 5
    for line in lines[5:]:
        assert second.send(line)["error"] is None
    final = second.send("q")["final"]
    assert second.close() == 0
    assert final["record"] == lines and final["result"] == "stopped"
    record = parse_record_file(path.read_text(encoding="utf-8"), str(path))
    assert [o.token for o in record.moves] == lines


def test_bad_input_never_ends_the_session(tmp_path: Path) -> None:
    deal = Deal.from_number(1)
    dialog = Dialog(tmp_path, "--seen", seen_text(deal, EASY), "--samples", "10",
                    "--no-analysis")
    dialog.read()
    for bad, needle in [("zz", "not a move"), ("Ad", "Must be one rank"), ("d:2c", "known"),
                        ("As", "No such card"), ("Js:4h", "turns up no card"),
                        ("u", "Nothing to undo")]:
        turn = dialog.send(bad)
        assert needle in turn["error"] and turn["moves_played"] == 0 and turn["final"] is None
    turn = dialog.send("d")  # the draw needs its card: asked for
    assert turn["need"] == [{"place": 29, "name": "stock card 1"}]
    turn = dialog.send("Zz")
    assert "not a card" in turn["error"] and turn["need"] is not None
    turn = dialog.send("4s")
    assert turn["moves_played"] == 1 and turn["waste"] == "4s" and turn["need"] is None
    turn = dialog.send("q")
    assert turn["final"]["record"] == ["draw:4s"]
    assert dialog.close() == 0


def test_start_asked_on_standard_input(tmp_path: Path) -> None:
    deal = Deal.from_number(1)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    text = "\n".join([seen_text(deal, EASY), "Js", "q"]) + "\n"
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver", "coach", "--samples", "10",
                        "--no-analysis"], check=False, input=text, capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Recording to" in r.stdout and "Record: Js" in r.stdout
    saved = list((tmp_path / "tripeaks-solver" / "games").glob("seen-*.txt"))
    assert len(saved) == 1 and saved[0].read_text().endswith("moves:\nJs\n")


@pytest.mark.parametrize(("args", "needle"), [
    (["--seen", "2c Ad"], "--seen lists 11 cards"),
    (["--record", "/nonexistent/dir/x.txt", "--seen", "2c Ad 6s Kc Kh Th Ts Js Td 8s Qc"],
     "does not exist"),
])
def test_bad_starts_are_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver", "coach", *args],
                       check=False, input="", capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def test_existing_file_is_not_touched(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver", "coach", "--record",
                        str(other)], check=False, input="q\n", capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=60)
    assert r.returncode == 2 and "not a game record" in r.stderr
    assert other.read_text() == "my notes\n"


@pytest.mark.slow  # CI's slow step; the fast set asks for a drawn card in
# test_bad_input_never_ends_the_session
def test_a_question_answered_with_the_whole_move(tmp_path: Path) -> None:
    """Asked which card a draw showed, ``d:3s`` answers as well as ``3s``; another move
    is not an answer."""
    deal = Deal.from_number(3)
    first = deal.cards[29].token  # the first stock card
    dialog = Dialog(tmp_path, "--seen", seen_text(deal, EASY), "--no-analysis")
    turn = dialog.read()
    assert turn["known"] == 11
    turn = dialog.send("d")
    assert turn["need"] is not None
    turn = dialog.send("8h")  # 8♥ is face up in the peaks: not the card drawn
    assert turn["need"] is not None and "8♥ is known already" in turn["error"]
    assert turn["moves_played"] == 0
    turn = dialog.send(f"d:{first}")
    assert turn["need"] is None and turn["known"] == 12 and turn["moves_played"] == 1
    assert dialog.send("q")["final"]["record"] == [f"draw:{first}"]
    assert dialog.close() == 0


# --- the shares shown and the chance ----------------------------------------------------
def test_percents_never_round_to_100_or_0() -> None:
    assert percents([1.0, 0.996, 0.995, 0.5, 0.004, 0.0]) == [
        "100.0%", "99.6%", "99.5%", "50.0%", "0.4%", "0.0%"]
    assert percents([0.9999, 0.0001]) == ["99.99%", "0.01%"]
    assert percents([0.88, 0.86]) == ["88%", "86%"]
    assert percents([0.731, 0.7314], distinct=True) == ["73.10%", "73.14%"]



@pytest.mark.slow
def test_the_shares_shown_and_the_chance_on_a_game_with_unseen_cards(tmp_path: Path) -> None:
    args = ["coach", "--seen", "4c Jd Ad Qs Js 8h 9c 7c 2s Tc Qc", "--seed", "708042468",
            "--no-analysis", "--record"]
    text = tripeaks(tmp_path, *args, "a.txt", stdin="jd\nq\n")
    data = tripeaks(tmp_path, *args, "b.txt", "--json", stdin="jd\nq\n")
    assert text.returncode == 0 == data.returncode, text.stderr + data.stderr
    turns = [json.loads(line) for line in data.stdout.splitlines()]
    shown = re.findall(r"  chance: (.*?)  \(of", text.stdout)
    recommended = re.findall(r"Recommended: (\S+), about", text.stdout)
    assert len(shown) == len(recommended) == 2
    for turn, line, rec in zip(turns, shown, recommended, strict=False):
        pairs = re.findall(r"(\S+) ([\d.]+)%", line)
        assert pairs[0][0] == rec  # the recommended move first: the top bar
        chances = {Move.parse(m["move"]).pretty: m["chance"] for m in turn["moves"]}
        assert sorted(chances) == sorted(p[0] for p in pairs)
        for move, percent in pairs:
            assert (float(percent) == 100) == (chances[move] == 1)
        # one measure: the chance said is the recommended move's, its bar's
        assert turn["chance"] == chances[rec]
        if max(chances.values()) > chances[rec]:  # a tie within the noise: said in words
            assert f"{rec} rather than " in text.stdout
    assert turns[-1]["chance"] is None and turns[-1]["final"] is not None
    assert "chance: " in text.stdout and "ceiling, still winnable" in text.stdout



@pytest.mark.slow
def test_the_chance_when_exact_is_one_or_zero(tmp_path: Path) -> None:
    r = tripeaks(tmp_path, "coach", "TP1-E-AAAAAAD", "--json", "--no-analysis", stdin="q\n")
    turns = [json.loads(line) for line in r.stdout.splitlines()]
    # exact: the chance is 1 or 0 (a win left or not), the one measure still
    assert r.returncode == 0 and turns[0]["player"] == "exact" and turns[0]["chance"] == 1.0
