"""PySolFC's Three Peaks scoring (``--scoring pysol``): the plain-Python game's count, the
compiled optimum against its slow twin (tests/naive_pysol.py), PySolFC's own deals, and
the commands."""

from __future__ import annotations

import csv
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from cli_run import run
from naive_pysol import naive_pysol_best, replay_score, start_of

from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.geometry import TABLEAU_SIZE
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules
from tripeaks_solver.model.scoring import PYSOL_MAX, PYSOL_START
from tripeaks_solver.solver.solve import solve

# Reference deals made by PySolFC's own code (commit 7a3d146a), each row:
# the game number as typed, winnable, the best PySolFC hand, the cards (tableau 0–27 top
# row first, left to right; waste; stock, next draw first).
KNOWN = [
    ("2", 1, 169, "Qd Qc Kc 3c 4c 2c Kd 5c 4d Jd Js 6h Qs 6d 2d 9c Td Jc 8c 6c 8s 4s 5d Qh 7s 9d Ks 7c 6s 4h Ac 8h Ah 9s Tc 2s 3s Ts 9h 2h 3h Ad 7h 3d 5h 8d Kh 7d As 5s Th Jh"),
    ("617", 1, 91, "7d Ad 5c 3s 5s 8c 2d Ah Td 7s Qd Ac 6d 8h As Kh Th Qc 3h 9d 6s 8d 3d Tc Kd 5h 9s 3c 8s 7h 4d Js 4c Qs 9c 9h 7c 6h 2c 2s 4s Ts 2h 5d Jc 6c Jh Qh Jd Ks Kc 4h"),
    ("11982", 1, 148, "Ah As 4h Ac 2d 6s Ts Js 3d 3h Qs Qc 8s 7h Ad Ks Kd 6h 5s 4d 9h Jh 9s 3c Jc 5d 5c 8c 9d Td Kh 7c 6c 2c Th Qh 6d Tc 4s 7s Jd 7d 8h 9c 2h Qd 4c 5h Kc 8d 2s 3s"),
    ("31998", 1, 135, "Th 2c Tc 8d Qs Qc Kd Jh 6c Td 7d 7s 6s As Kc Ac Kh 3s Qh Js Ks 3c 4d 9s Ah 3h 7h 8c 6h Jd 6d 2d 4s Qd 7c 4h 5d 8h 9h Ts 9d 8s Jc 4c 5s 2s Ad 5h 2h 9c 3d 5c"),
    ("54321", 1, 156, "Ks Qd Kc 9c Kd Td 2s Jh 5h 2c Jd Ac Ah 8s 8c Ad 3c 3s 6d 4s Jc 6c 7d 2d Qc 2h Ts Kh 4d 5s 4c Qs 3h 3d 5d 6s 9s 8d Th 5c Js 6h As Tc 9d 4h Qh 7h 8h 7c 7s 9h"),
    ("8675309", 1, 146, "8s Ah 8h 4d As 5h 4h Jc 6h 4c Ac Jh Ks Kc 2c 9c Ts 5d Qc 2h 2d 7h 8c 9s 3h 4s 7c 8d 7s 6d Jd 7d Th 3d 5c Js Kd Kh 3c 6s Tc 6c Td 9d 5s 9h Qs Qh Ad Qd 3s 2s"),
    ("123456789012", 1, 164, "7s 2c 8c Tc Ad 9s 5d 4h Th 2d 9c 2s Jc Kc 5c Qh Ac 9d 5s 7h Ks 6s 3c 4d Kh 6d 2h Kd 3s 4c Ah Td 7d Qc 6c 9h Ts 6h 5h Jh Qs 3d Js Qd 3h 8d Jd As 8s 7c 8h 4s"),
    ("ms7", 1, 177, "3d 8s 4s 9d 5d 8h 6h 2c 2s 2d Qh Td Ah Qs 9h Tc 7s Qc Ts Kc 6c Ks Kd 5h 9c Qd Jh 5c Jc Ad 7h As 4h 8c Jd 8d 9s 7c Th 3h Kh 4c 3s 2h 4d 3c 6d 7d Js Ac 6s 5s"),
    ("ms123456", 1, 216, "Qd 6d Ac Js 7h 5d 6c Jd Tc Td Ad 8s 7s 3s Qs Qh As 8d 5c 4d 9s 3d 4s 6s Kc Th 5h 4c 2c 3h 2d 4h Ah 7c 8c 2s Jc Kd Ks Qc Kh 2h 9h 7d 5s Jh Ts 8h 6h 9c 9d 3c"),
    ("ms5000000000", 1, 216, "9d 8c 4h Kd Js 7h 9h 2h Ks Tc 6h 8s As Ah 5c 4s 4c 9s 9c 2c 4d Ad 7c Jh 2d 8h 3c 3h Th Kc 3s 5d Ac 6s 5h Jd Qh Jc 5s 8d Kh 2s Td Qd 6c Qc 7d Qs Ts 6d 7s 3d"),
    ("00042", 1, 79, "5s Js Ks Kd As Ad 4c Ts 4d 2h 7s 6c 8s Qh 5h 7h Jc Jd Qs 3c 3s 9c 5c Ac Jh 9s Td 8d Kh Qd Tc 9h 8h 9d 2c 7d Th 2s 2d 7c 4s 6h 3h 6d 5d 6s Kc 4h 3d 8c Ah Qc"),
    ("00000000000000100000", 1, 148, "5c 2d 9h 6d Th 4s Td 4h 5s 2h 6s 4d Js 9s Qd Ts Jd 8h 5h Qs 2c 5d 4c 8c 7h 8s 7c Jh 6h 2s Ad Kc Qc Ah 9c 7s Kh Jc Tc 8d 3s 9d 7d Ks As 6c Qh Kd 3h 3c 3d Ac"),
    ("3128", 0, 44, "3d Qd 7h 7d Qc 8c 3h Jd 4c Jh 6s 8d Ad 6c Kc As 2s 5h Ks 5c 2c Th 8h 4h Jc Kd 2d Kh 3c Js 6d Ts Ac 9s 6h Td Qs 9d 5d 9h Ah 7s 8s 3s 7c Qh Tc 5s 4d 4s 9c 2h"),
    ("3198", 0, 37, "8d Qd 5c 3h Kd 5h 2d 6c 4c 2h 3d Th 7s 9h Kh 9c 6s Ks 3s Ts 5d Qs 4h Jd 8c 6d Td Kc 9d 7c 4s 7h Js 2c Tc 3c Jh 5s As 7d 8s 9s Jc 4d Ah Ad 8h 2s Ac 6h Qc Qh"),
]

# The one-run order that empties the peaks at the 10th, 19th and 28th removal: each
# peak's bottom cards, then its rows upwards (the bottom card shared with the next peak
# goes with the first).
ONE_RUN = [18, 19, 20, 21, 9, 10, 11, 3, 4, 0,
           22, 23, 24, 12, 13, 14, 5, 6, 1,
           25, 26, 27, 15, 16, 17, 7, 8, 2]


def one_run_deal() -> Deal:
    """A deal whose tableau clears in ONE_RUN order without a draw: the k-th removal has
    rank k mod 13 and the waste is an ace (Easy: K then A)."""
    used: Counter[int] = Counter()
    tableau: dict[int, Card] = {}
    waste = Card.of(0, 0)
    used[0] = 1
    for k, p in enumerate(ONE_RUN, 1):
        rank = k % 13
        tableau[p] = Card.of(rank, used[rank])
        used[rank] += 1
    placed = {waste, *tableau.values()}
    rest = [Card(c) for c in range(52) if c not in placed]
    return Deal.from_cards([*(tableau[p] for p in range(TABLEAU_SIZE)), waste, *rest])


def test_the_highest_hand_is_2336_as_pysolfc_says() -> None:
    deal = one_run_deal()
    game = Game(deal, EASY)
    for p in ONE_RUN:
        game.remove(deal.tableau[p])
    assert game.status is Status.WON
    # By the page: 4·(1+2+4+8) = 60 for the first 16 cards … worked out by the twin's count.
    tokens = [deal.tableau[p].token for p in ONE_RUN]
    assert game.score_under("pysol") == replay_score(deal, EASY, tokens) == 2336 == PYSOL_MAX
    best = solve(deal, EASY, scheme="pysol")
    assert best.best_score == 2336
    assert best.steps()[-1].score == 2336


def test_a_hand_starts_at_minus_52_and_a_draw_scores_nothing() -> None:
    deal = Deal.from_cards(KNOWN[0][3])
    game = Game(deal, EASY)
    assert game.score_under("pysol") == PYSOL_START == -52
    game.draw()
    assert game.score_under("pysol") == -52
    # Undo gives every point back (the game keeps undo; PySolFC's scored games have none).
    assert [c.token for c in game.playable()] == ["5d"]  # on the 4h drawn
    game.remove("5d")
    assert game.score_under("pysol") == -51  # the first of a run, no peak empty
    game.undo()
    assert game.score_under("pysol") == -52


@pytest.mark.parametrize("seed", range(40))
def test_the_game_counts_as_the_twin_along_random_lines(seed: int) -> None:
    rng = random.Random(seed)
    rules = EASY if seed % 2 else CLASSIC
    deal = Deal.from_number(rng.randrange(10**6))
    game = Game(deal, rules)
    tokens: list[str] = []
    while game.status is Status.IN_PLAY:
        moves = Position.of(game).legal_moves()
        move = rng.choice(moves)
        game.play(move)
        tokens.append(move.token)
        assert game.score_under("pysol") == replay_score(deal, rules, tokens)


@pytest.mark.parametrize("form,winnable,best,cards", KNOWN, ids=[k[0] for k in KNOWN])
def test_pysolfc_games_best_hand(form: str, winnable: int, best: int, cards: str) -> None:
    deal = Deal.from_cards(cards)
    assert Deal.from_pysol(form).cards == deal.cards  # the card order agrees
    sol = solve(deal, EASY, scheme="pysol")
    assert (sol.winnable, sol.best_score) == (bool(winnable), best)
    assert sol.steps()[-1].score == best  # the line, replayed, reaches it


def test_a_work_space_too_small_grows_and_gives_the_same_hand(monkeypatch) -> None:
    from tripeaks_solver.solver import solve as solver

    _, winnable, best, cards = KNOWN[1]
    monkeypatch.setattr(solver, "_pysol_capacity", [1 << 12])  # far fewer than it needs
    solver._pysol_work.cache_clear()
    try:
        sol = solve(Deal.from_cards(cards), EASY, scheme="pysol")
        grown = solver._pysol_capacity[0]
    finally:
        solver._pysol_work.cache_clear()
    assert (sol.winnable, sol.best_score) == (bool(winnable), best)
    assert sol.steps()[-1].score == best
    assert grown > 1 << 12 and sol.states > 1 << 12


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 12])
def test_opening_against_the_twin(index: int) -> None:
    deal = Deal.from_cards(KNOWN[index][3])
    assert naive_pysol_best(deal, EASY) == KNOWN[index][2]


def _positions(count: int, seed: int) -> list[tuple[Deal, Rules, Game]]:
    """Positions mid-game: random deals and rules, 8–20 random moves in."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = rng.choice([EASY, CLASSIC, EASY.with_options(draw_when_stuck=True)])
        deal = Deal.from_number(rng.randrange(10**6))
        game = Game(deal, rules)
        for _ in range(rng.randrange(8, 21)):
            moves = Position.of(game).legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        if game.status is Status.IN_PLAY:
            out.append((deal, rules, game))
    return out


@pytest.mark.parametrize("deal,rules,game", _positions(8, 51))  # 60 more in the slow set
def test_positions_against_the_twin(deal: Deal, rules: Rules, game: Game) -> None:
    start = start_of(game, game.score_under("pysol"))
    for must_clear in (False, True):
        want = naive_pysol_best(deal, rules, start, must_clear)
        if must_clear and want is None:
            assert not solve(Position.of(game), scheme="pysol").winnable
            continue
        sol = solve(Position.of(game), scheme="pysol", must_clear=must_clear)
        assert sol.best_score == want, (deal.code, rules, game.history, must_clear)
        end = sol.steps()[-1].score if sol.moves else game.score_under("pysol")
        assert end == want
        if must_clear:
            assert sol.steps()[-1].score == want and len(sol.moves) > 0


def _late_positions(count: int, seed: int) -> list[tuple[Deal, Rules, Game]]:
    """Positions late in the stock (2–8 cards left), where the search's last layers,
    its entries that can only draw again and its stuck ends decide."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = rng.choice([EASY, CLASSIC, EASY.with_options(draw_when_stuck=True)])
        game = Game(Deal.from_number(rng.randrange(10**6)), rules)
        left = rng.randrange(2, 9)
        while game.status is Status.IN_PLAY and game.stock_left > left:
            game.play(rng.choice(Position.of(game).legal_moves()))
        if game.status is Status.IN_PLAY:
            out.append((game.deal, rules, game))
    return out


@pytest.mark.parametrize("deal,rules,game", _late_positions(24, 54))
def test_late_positions_against_the_twin(deal: Deal, rules: Rules, game: Game) -> None:
    start = start_of(game, game.score_under("pysol"))
    for must_clear in (False, True):
        want = naive_pysol_best(deal, rules, start, must_clear)
        sol = solve(Position.of(game), scheme="pysol", must_clear=must_clear)
        if want is None:
            assert not sol.winnable
            continue
        assert sol.best_score == want, (deal.code, rules, game.history, must_clear)
        assert (sol.steps()[-1].score if sol.moves else game.score_under("pysol")) == want


@pytest.mark.slow
@pytest.mark.parametrize("deal,rules,game", _positions(60, 52))
def test_more_positions_against_the_twin(deal: Deal, rules: Rules, game: Game) -> None:
    start = start_of(game, game.score_under("pysol"))
    sol = solve(Position.of(game), scheme="pysol")
    assert sol.best_score == naive_pysol_best(deal, rules, start)


def test_solve_cli_pysol(capsys) -> None:
    _, _, best, cards = KNOWN[0]
    code, out, err = run(capsys, "solve", "--layout", cards, "--scoring", "pysol", "--json")
    assert code == 0, err
    objs = json.loads(out)
    obj = objs[0] if isinstance(objs, list) else objs
    assert obj["scoring"] == "pysol" and obj["best_score"] == best
    assert obj["min_draws"] is None  # a run scoring: the best line may end stuck
    game = Game(Deal.from_cards(cards), EASY)
    for token in obj["solution"]:
        game.play(token)
    assert game.score_under("pysol") == best
    code, out, err = run(capsys, "solve", "--layout", cards, "--scoring", "pysol")
    assert code == 0, err
    assert f"best PySolFC score {best}" in out


def test_hint_and_analyze_value_moves_by_pysol(capsys) -> None:
    _, _, best, cards = KNOWN[1]
    code, out, err = run(capsys, "hint", "--layout", cards, "--scoring", "pysol", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["scoring"] == "pysol"
    bests = [m["best_score"] for m in obj["moves"]]
    assert max(bests) == best == bests[0]  # best first
    deal = Deal.from_cards(cards)
    for m in obj["moves"]:  # each move's value, solved again from after it
        after = Position(deal, EASY).play(m["move"] if m["move"] != "draw" else "d")
        assert solve(after, scheme="pysol").best_score == m["best_score"]
    line = solve(deal, EASY, scheme="pysol").tokens
    code, out, err = run(capsys, "analyze", "--layout", cards, *line[:6], "--scoring", "pysol",
                         "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["scoring"] == "pysol"


def test_peek_under_pysol_says_there_is_no_undo(capsys) -> None:
    _, _, _, cards = KNOWN[2]
    code, out, err = run(capsys, "peek", "--layout", cards, "--scoring", "pysol")
    assert code == 0, err
    assert "PySolFC's scored games have no undo" in out
    assert "undo 1" not in out
    code, out, err = run(capsys, "peek", "--layout", cards, "--scoring", "pysol", "--json")
    assert code == 0, err
    assert json.loads(out)["undo_limit"] == 0


def test_batch_pysol_column(capsys, tmp_path) -> None:
    csv_path = tmp_path / "out.csv"
    code, _, err = run(capsys, "batch", "0", "3", "--rules", "easy", "--scoring", "pysol",
                         "--csv", str(csv_path))
    assert code == 0, err
    lines = csv_path.read_text().splitlines()
    header = lines[0].split(",")
    for n, line in enumerate(lines[1:]):
        row = dict(zip(header, line.split(","), strict=False))
        assert row["scoring"] == "pysol"
        assert int(row["best_score"]) == solve(Deal.from_number(n), EASY,
                                               scheme="pysol").best_score


@pytest.mark.nojit
def test_a_late_position_against_the_twin() -> None:
    """Also run with NUMBA_DISABLE_JIT=1 (CI's nojit set): the kernel as plain Python."""
    deal, rules, game = _positions(1, 53)[0]
    rng = random.Random(53)
    for _ in range(12):  # further in: a small search
        moves = Position.of(game).legal_moves()
        if not moves or game.stock_left < 6:
            break
        game.play(rng.choice(moves))
    start = start_of(game, game.score_under("pysol"))
    sol = solve(Position.of(game), scheme="pysol")
    assert sol.best_score == naive_pysol_best(deal, rules, start)
    assert (sol.steps()[-1].score if sol.moves else game.score_under("pysol")) == sol.best_score


def test_api_under_pysol() -> None:
    import tripeaks_solver as tp

    _, _, best, cards = KNOWN[3]
    deal = Deal.from_cards(cards)
    assert tp.solve(deal, scoring="pysol").best_score == best
    assert tp.peek(deal, scoring="pysol").to_dict()["undo_limit"] == 0


@pytest.mark.parametrize("form,winnable,best", [(k[0], k[1], k[2]) for k in KNOWN[1:3] + KNOWN[-1:]])
def test_solve_by_game_number(capsys, form: str, winnable: int, best: int) -> None:
    code, out, err = run(capsys, "solve", f"pysol:{form}", "--scoring", "pysol", "--json")
    assert code == 0, err
    objs = json.loads(out)
    obj = objs[0] if isinstance(objs, list) else objs
    assert (obj["winnable"], obj["best_score"], obj["scoring"]) == (bool(winnable), best, "pysol")
    game = Game(Deal.from_pysol(form), EASY)
    for token in obj["solution"]:
        game.play(token)
    assert game.score_under("pysol") == best


DATA = Path(__file__).resolve().parent.parent / "data"


def _sample(name: str, count: int) -> list[dict[str, str]]:
    with (DATA / name).open(newline="") as f:
        rows = list(csv.DictReader(f))
    return random.Random(51).sample(rows, min(count, len(rows)))


@pytest.mark.parametrize("row", _sample("pysol-1-32000.csv", 30), ids=lambda r: r["game"])
def test_the_data_of_pysolfc_games(row: dict[str, str]) -> None:
    sol = solve(Deal.from_pysol(row["game"]), EASY)
    assert (int(sol.winnable), "" if sol.min_draws is None else str(sol.min_draws),
            sol.best_score) == (int(row["winnable"]), row["min_draws"], int(row["best_score"]))


def _check_best_hand(row: dict[str, str]) -> list[str]:
    """The best PySolFC hand of a game against data/ (made by the search before the one
    that beats states across layers), its line replayed; returns the line."""
    sol = solve(Deal.from_pysol(row["game"]), EASY, scheme="pysol")
    assert (int(sol.winnable), sol.best_score) == (int(row["winnable"]), int(row["best_pysol"]))
    assert sol.steps()[-1].score == sol.best_score  # the line, replayed, reaches it
    return sol.tokens


@pytest.mark.parametrize("row", _sample("pysol-1-32000.csv", 24), ids=lambda r: r["game"])
def test_the_best_hands_of_pysolfc_games(row: dict[str, str]) -> None:
    _check_best_hand(row)


@pytest.mark.slow
def test_a_thousand_best_hands_of_pysolfc_games() -> None:
    # Also the lines that draw again and again, right after a removal or not: the
    # search makes such draws in one step (the layers they skip), the line spells them.
    after_a_removal = in_a_row = 0
    for row in _sample("pysol-1-32000.csv", 1000):
        line = _check_best_hand(row)
        for i in range(1, len(line) - 1):
            if line[i] == line[i + 1] == "draw":
                in_a_row += 1
                after_a_removal += line[i - 1] != "draw"
    assert after_a_removal > 0 and in_a_row > after_a_removal
