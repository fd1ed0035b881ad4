"""The naive twin (tests/naive.py) itself: its rules against the plain-Python game, its
answers from the opening against the answers of the three naive solvers it replaced,
and its answers from any position against each other (Bellman consistency) and
against hand-derived values.

The kernels are checked against the twin in test_solver.py and test_variants.py.
"""

from __future__ import annotations

import copy
import random

import pytest
from helpers import (
    BOTTOM_UP,
    MAX_ORIGINAL,
    RULE_IDS,
    RULE_SETS,
    SCHEMES,
    VARIANT_IDS,
    VARIANTS,
    chain_deal,
    deal_for,
    label,
    naive_answer,
)
from naive import (
    APP_WIN_BASE,
    DRAW,
    EMPTY,
    WILD,
    NaiveGame,
    Position,
    may_follow,
    naive_solve,
    position_of,
)

from tripeaks_solver.errors import IllegalMoveError
from tripeaks_solver.model.cards import WILD_RANK
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules

ALL_RULES = RULE_SETS + VARIANTS
ALL_IDS = RULE_IDS + VARIANT_IDS
# The default run's rule sets for the per-rule-set checks: both bases and each with every
# option; the others run in the slow set.
FAST_IDS = {"easy", "classic", "easy+empty-waste+joker+draw-when-stuck",
            "classic+empty-waste+joker+draw-when-stuck"}
RULE_PARAMS = [pytest.param(r, id=i, marks=() if i in FAST_IDS else pytest.mark.slow)
               for r, i in zip(ALL_RULES, ALL_IDS, strict=True)]


# --- the rules, restated, against the package's -----------------------------------------


@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_may_follow_is_the_rules_adjacency(wrap: bool) -> None:
    rules = Rules(wrap=wrap)
    assert WILD == WILD_RANK
    for a in range(WILD + 1):  # 13 is the joker's wild rank
        for b in range(WILD + 1):
            assert may_follow(a, b, wrap) == rules.adjacent(a, b), (a, b)
    assert all(may_follow(EMPTY, b, wrap) for b in range(WILD + 1))  # empty waste
    assert all(may_follow(WILD, b, wrap) and may_follow(b, WILD, wrap) for b in range(13))
    # docs/rules.md: Easy lets A and K follow each other, Classic does not.
    assert may_follow(0, 12, wrap) == may_follow(12, 0, wrap) == wrap
    assert not may_follow(0, 2, wrap)
    assert not any(may_follow(b, b, wrap) for b in range(13))  # same rank never follows


@pytest.mark.parametrize("rules", ALL_RULES, ids=ALL_IDS)
def test_opening_is_the_games_opening(rules: Rules) -> None:
    for n in range(3):
        d = deal_for(n, rules)
        waste, stock = d.opening(rules)
        for scheme in SCHEMES:
            naive = NaiveGame(d, rules, scheme)
            assert naive.stock == [int(c) for c in stock]
            assert len(naive.stock) == 23 + rules.empty_waste + rules.joker
            assert naive.opening() == position_of(Game(d, rules), scheme)
            assert naive.opening().waste == (None if waste is None else int(waste))


def copy_game(game: Game) -> Game:
    """An independent copy of a game in progress (the deal, immutable, is shared)."""
    return copy.deepcopy(game, {id(game.deal): game.deal})


def game_moves(game: Game) -> list[str]:
    """The legal moves of ``game``, found by trying every tableau card still there and
    the draw on a copy (the game's own refusals decide)."""
    legal = []
    present = [c.token for p, c in enumerate(game.deal.tableau) if not game.is_removed(p)]
    for token in present + ["draw"]:
        try:
            copy_game(game).play(token)
        except IllegalMoveError:
            continue
        legal.append(token)
    return legal


def naive_tokens(naive: NaiveGame, pos: Position, deal) -> list[str]:
    return ["draw" if m == DRAW else deal.tableau[m].token for m in naive.moves(pos)]


def random_game(deal, rules: Rules, rng: random.Random, moves: int) -> Game:
    """``deal`` after up to ``moves`` random legal moves, some of them taken back."""
    game = Game(deal, rules)
    for _ in range(moves):
        if game.status is not Status.IN_PLAY:
            break
        if game.history and rng.random() < 0.1:
            game.undo()
            continue
        options = [c.token for c in game.playable()]
        if game.stock_left and rules.may_draw(bool(options)):
            options.append("draw")
        game.play(rng.choice(options))
    return game


def check_moves_and_scores(rules: Rules, numbers) -> None:
    rng = random.Random(f"moves {label(rules)}")
    for n in numbers:
        d = deal_for(n, rules)
        naives = [NaiveGame(d, rules, scheme) for scheme in SCHEMES]
        game = random_game(d, rules, rng, rng.randrange(0, 10))
        while True:
            legal = game_moves(game)
            children = []
            for token in legal:
                child = copy_game(game)
                child.play(token)
                children.append(child)
            for naive in naives:
                pos = position_of(game, naive.scheme)
                assert naive_tokens(naive, pos, d) == legal, (n, naive.scheme, pos)
                for move, child in zip(naive.moves(pos), children, strict=True):
                    assert naive.play(pos, move) == position_of(child, naive.scheme), (n, move)
            if not legal:
                break
            game = rng.choice(children)


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_moves_and_scores_are_the_games(rules: Rules) -> None:
    """Along a random game, the twin's legal moves are the game's, and each move leads
    to the position (waste, run, score under every scheme) the game shows."""
    check_moves_and_scores(rules, [0])


@pytest.mark.slow
@pytest.mark.parametrize("rules", ALL_RULES, ids=ALL_IDS)
def test_moves_and_scores_are_the_games_many(rules: Rules) -> None:
    check_moves_and_scores(rules, range(1, 5))


# --- from the opening: the answers of the naive solvers it replaced ---------------------

# (rules, deal, app answers, cards-left answers, best original score): the answers()
# of naive_variant_solve and the best score of naive_original, the naive solvers of
# commit f3a62a2 (tests/naive.py), from the opening. Answers are (winnable, min_draws,
# best_score, best_moves, max_removed).
OLD_ANSWERS = [
    ('easy', 0, (True, 14, 758, None, 28),
     (True, 14, 0, 42, 28), 125),
    ('easy', 1, (True, 13, 759, None, 28),
     (True, 13, 0, 41, 28), 88),
    ('easy', 1132, (False, None, 655, None, 27),
     (False, None, 1, 50, 27), 8),
    ('classic', 0, (True, 18, 754, None, 28),
     (True, 18, 0, 46, 28), 69),
    ('classic', 1, (True, 22, 750, None, 28),
     (True, 22, 0, 50, 28), 17),
    ('classic', 8, (False, None, 658, None, 26),
     (False, None, 2, 49, 26), -21),
    ('easy+empty-waste', 0, (True, 10, 762, None, 28),
     (True, 10, 0, 38, 28), 120),
    ('easy+empty-waste', 1, (True, 14, 758, None, 28),
     (True, 14, 0, 42, 28), 85),
    ('easy+empty-waste', 28, (False, None, 656, None, 27),
     (False, None, 1, 51, 27), -24),
    ('classic+empty-waste', 0, (True, 19, 753, None, 28),
     (True, 19, 0, 47, 28), 74),
    ('classic+empty-waste', 1, (True, 20, 752, None, 28),
     (True, 20, 0, 48, 28), 34),
    ('classic+empty-waste', 8, (False, None, 657, None, 27),
     (False, None, 1, 51, 27), -10),
    ('easy+joker', 0, (True, 11, 761, None, 28),
     (True, 11, 0, 39, 28), 140),
    ('easy+joker', 1, (True, 12, 760, None, 28),
     (True, 12, 0, 40, 28), 201),
    ('easy+joker', 183, (False, None, 656, None, 27),
     (False, None, 1, 51, 27), 90),
    ('classic+joker', 0, (True, 14, 758, None, 28),
     (True, 14, 0, 42, 28), 78),
    ('classic+joker', 1, (True, 13, 759, None, 28),
     (True, 13, 0, 41, 28), 201),
    ('classic+joker', 25, (False, None, 655, None, 27),
     (False, None, 1, 51, 27), 15),
    ('easy+draw-when-stuck', 0, (True, 18, 754, None, 28),
     (True, 18, 0, 46, 28), 39),
    ('easy+draw-when-stuck', 1, (True, 20, 752, None, 28),
     (True, 20, 0, 48, 28), 22),
    ('easy+draw-when-stuck', 8, (False, None, 651, None, 27),
     (False, None, 1, 50, 27), -21),
    ('classic+draw-when-stuck', 0, (True, 18, 754, None, 28),
     (True, 18, 0, 46, 28), 28),
    ('classic+draw-when-stuck', 1, (False, None, 655, None, 27),
     (False, None, 1, 50, 27), -17),
    ('easy+empty-waste+joker', 0, (True, 9, 763, None, 28),
     (True, 9, 0, 37, 28), 135),
    ('easy+empty-waste+joker', 1, (True, 10, 762, None, 28),
     (True, 10, 0, 38, 28), 196),
    ('easy+empty-waste+joker', 586, (False, None, 656, None, 27),
     (False, None, 1, 52, 27), -3),
    ('classic+empty-waste+joker', 0, (True, 13, 759, None, 28),
     (True, 13, 0, 41, 28), 83),
    ('classic+empty-waste+joker', 1, (True, 11, 761, None, 28),
     (True, 11, 0, 39, 28), 196),
    ('classic+empty-waste+joker', 25, (False, None, 655, None, 27),
     (False, None, 1, 52, 27), 10),
    ('easy+empty-waste+draw-when-stuck', 0, (True, 10, 762, None, 28),
     (True, 10, 0, 38, 28), 90),
    ('easy+empty-waste+draw-when-stuck', 1, (True, 19, 753, None, 28),
     (True, 19, 0, 47, 28), 30),
    ('easy+empty-waste+draw-when-stuck', 28, (False, None, 653, None, 27),
     (False, None, 1, 51, 27), -28),
    ('easy+joker+draw-when-stuck', 0, (True, 11, 761, None, 28),
     (True, 11, 0, 39, 28), 116),
    ('easy+joker+draw-when-stuck', 1, (True, 16, 756, None, 28),
     (True, 16, 0, 44, 28), 164),
    ('easy+joker+draw-when-stuck', 56, (False, None, 651, None, 27),
     (False, None, 1, 51, 27), 70),
    ('easy+empty-waste+joker+draw-when-stuck', 0, (True, 9, 763, None, 28),
     (True, 9, 0, 37, 28), 114),
    ('easy+empty-waste+joker+draw-when-stuck', 1, (True, 14, 758, None, 28),
     (True, 14, 0, 42, 28), 159),
    ('easy+empty-waste+joker+draw-when-stuck', 365, (False, None, 651, None, 27),
     (False, None, 1, 52, 27), -8),
    ('classic+empty-waste+joker+draw-when-stuck', 0, (True, 15, 757, None, 28),
     (True, 15, 0, 43, 28), 65),
    ('classic+empty-waste+joker+draw-when-stuck', 1, (True, 17, 755, None, 28),
     (True, 17, 0, 45, 28), 159),
    ('classic+empty-waste+joker+draw-when-stuck', 25, (False, None, 650, None, 27),
     (False, None, 1, 52, 27), -27),
]


def rules_named(text: str) -> Rules:
    """The rule set of a label such as ``classic+empty-waste+joker``."""
    base, *options = text.split("+")
    return Rules(wrap=base == "easy", **{o.replace("-", "_"): True for o in options})


def old_answer_cases(slow: bool) -> list:
    """The draw-when-stuck rows (few positions: quick) by default, the others in the
    slow run, but for their deal 1 (a second won opening: their deal 0 and the lost deal
    are checked; the row stays as the record of the old answer)."""
    cases = []
    for row in OLD_ANSWERS:
        rules = rules_named(row[0])
        if rules.draw_when_stuck != slow and not (slow and row[1] == 1):
            cases.append(pytest.param(*row, id=f"{row[0]}-{row[1]}"))
    return cases


def check_old_answers(name: str, number: int, app: tuple, cards_left: tuple,
                      original: int) -> None:
    rules = rules_named(name)
    assert label(rules) == name
    assert naive_answer(number, rules, "app").answers() == app
    assert not app[0] or app[2] == APP_WIN_BASE - app[1] == 772 - app[1]
    assert naive_answer(number, rules, "cards-left").answers() == cards_left
    best = naive_answer(number, rules, "original")
    assert best.best_score == original
    # The original walk visits every reachable position: the same win, the same most.
    assert (best.winnable, best.min_draws, best.max_removed) == (app[0], app[1], app[4])


@pytest.mark.parametrize("name,number,app,cards_left,original", old_answer_cases(False))
def test_opening_answers_are_the_old_naive_answers(name, number, app, cards_left, original):
    check_old_answers(name, number, app, cards_left, original)


@pytest.mark.slow
@pytest.mark.parametrize("name,number,app,cards_left,original", old_answer_cases(True))
def test_opening_answers_are_the_old_naive_answers_many(name, number, app, cards_left,
                                                        original):
    check_old_answers(name, number, app, cards_left, original)


def test_old_answers_cover_every_rule_set_won_and_lost() -> None:
    assert {row[0] for row in OLD_ANSWERS} == set(ALL_IDS)
    for name in ALL_IDS:
        assert {row[2][0] for row in OLD_ANSWERS if row[0] == name} == {True, False}, name
    assert old_answer_cases(False) and old_answer_cases(True)


@pytest.mark.parametrize("rules,number,scheme", [
    (EASY.with_options(draw_when_stuck=True), 0, "app"),
    (VARIANTS[-1], 0, "cards-left"),
    pytest.param(EASY, 8, "app", marks=pytest.mark.slow),
    pytest.param(CLASSIC.with_options(empty_waste=True), 28, "cards-left",
                 marks=pytest.mark.slow),
    pytest.param(CLASSIC.with_options(joker=True), 25, "app", marks=pytest.mark.slow),
    pytest.param(EASY, 0, "cards-left", marks=pytest.mark.slow),
    pytest.param(CLASSIC, 1132, "app", marks=pytest.mark.slow),
], ids=lambda x: label(x) if isinstance(x, Rules) else str(x))
def test_first_win_shortcut_changes_nothing(rules: Rules, number: int, scheme: str) -> None:
    """The walk may stop after the first draw layer with a win; a full walk agrees."""
    d = deal_for(number, rules)
    quick = naive_solve(d, rules, scheme)
    full = naive_solve(d, rules, scheme, stop_at_first_win=False)
    assert quick.answers() == full.answers()
    assert quick.states <= full.states


# --- from any position: Bellman consistency -----------------------------------------------


def bellman_problems(deal, rules: Rules, scheme: str, game: Game) -> list[str]:
    """The answers from the position ``game`` shows must follow from the answers after
    each legal move (found by the game itself): winnable when some move keeps it
    winnable, the fewest draws and the best final score over the moves, the most cards
    removed over the moves; and at an end, the end itself."""
    naive = NaiveGame(deal, rules, scheme)
    pos = position_of(game, scheme)
    here = naive.solve(pos)
    where = f"deal {deal.number} {label(rules)} {scheme} at {pos}"
    legal = game_moves(game)
    if naive_tokens(naive, pos, deal) != legal:
        return [f"{where}: twin moves {naive_tokens(naive, pos, deal)}, game {legal}"]
    count = pos.removed.bit_count()
    if not legal:  # the game is over: nothing is left to choose
        won = count == 28
        best = (28 - count, pos.score) if scheme == "cards-left" else (pos.score, None)
        want = (won, pos.drawn if won else None, *best, count)
        return [] if here.answers() == want else [f"{where}: end {here.answers()} != {want}"]
    after = []
    for token in legal:
        child = copy_game(game)
        child.play(token)
        after.append(naive.solve(position_of(child, scheme)))
    wins = [a.min_draws for a in after if a.winnable]
    if scheme == "cards-left":
        best = min((a.best_score, a.best_moves) for a in after)
    else:
        best = (max(a.best_score for a in after), None)
    want = (bool(wins), min(wins) if wins else None, *best, max(a.max_removed for a in after))
    if here.answers() != want:
        return [f"{where}: {here.answers()}, but over the moves {legal}: {want}"]
    if scheme == "app" and here.winnable and here.best_score != APP_WIN_BASE - here.min_draws:
        return [f"{where}: a win with {here.min_draws} draws scores {here.best_score}"]
    return []


def random_positions(rules: Rules, numbers, fewest: int, seed: str) -> list[tuple]:
    """(deal, game) pairs: each deal after ``fewest`` to 45 random moves (the fewer
    moves made, the more positions the twin has to visit from there)."""
    rng = random.Random(seed)
    out = []
    for n in numbers:
        d = deal_for(n, rules)
        out.append((d, random_game(d, rules, rng, rng.randrange(fewest, 46))))
    return out


def check_bellman(rules: Rules, scheme: str, numbers, fewest: int, seed: str) -> None:
    problems = []
    ends = 0
    positions = random_positions(rules, numbers, fewest, seed)
    for d, game in positions:
        ends += game.status is not Status.IN_PLAY
        problems += bellman_problems(d, rules, scheme, game)
    assert problems == []
    assert ends < len(positions)  # most positions are mid-game


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_bellman_consistency(rules: Rules, scheme: str) -> None:
    check_bellman(rules, scheme, range(2), 20, f"bellman {label(rules)} {scheme}")


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", ALL_RULES, ids=ALL_IDS)
def test_bellman_consistency_many(rules: Rules, scheme: str) -> None:
    check_bellman(rules, scheme, range(2, 8), 12, f"bellman many {label(rules)} {scheme}")


# --- from positions with answers derived by hand ------------------------------------------


def check_run_in_progress(rules: Rules, first: int) -> None:
    """The chain deal clears in one run of 28 removals: 1 + 2 + … + 28 + 15 + 15 + 30 =
    466 original points. From any point of that run (k removals made, k(k+1)/2 points
    and the peak bonuses so far, a run of k), the best final score is still 466: the
    run goes on. Had the run been reset, the rest would score less."""
    d = chain_deal()
    game = Game(d, rules)
    for k, p in enumerate(BOTTOM_UP):
        if k >= first:
            pos = position_of(game, "original")
            assert (pos.run, pos.score) == (k, k * (k + 1) // 2 + (0, 15, 30)[game.peaks_cleared])
            answer = naive_solve(d, rules, "original", pos)
            assert answer.answers() == (True, 0, MAX_ORIGINAL, None, 28), k
        game.remove(d.tableau[p])
    assert game.status is Status.WON and game.original == MAX_ORIGINAL == 466


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_a_run_in_progress_keeps_counting(rules: Rules) -> None:
    check_run_in_progress(rules, 12)


@pytest.mark.slow
def test_a_run_in_progress_keeps_counting_from_the_start() -> None:
    check_run_in_progress(EASY, 0)


def test_draws_already_made_count() -> None:
    """The one-draw chain deal: the win needs its one draw, before it or after it."""
    d = chain_deal(start_in_stock=True)
    game = Game(d, EASY)
    before = naive_solve(d, EASY, "app", position_of(game, "app"))
    game.draw()
    after = naive_solve(d, EASY, "app", position_of(game, "app"))
    assert before.answers() == after.answers() == (True, 1, 771, None, 28)
    for p in BOTTOM_UP[:5]:
        game.remove(d.tableau[p])
    left = naive_solve(d, EASY, "cards-left", position_of(game, "cards-left"))
    assert left.answers() == (True, 1, 0, 29, 28)  # 28 removals and the draw


def test_won_and_stuck_positions_are_their_own_answer() -> None:
    d = chain_deal()
    game = Game(d, CLASSIC)
    for p in BOTTOM_UP:
        game.remove(d.tableau[p])
    for scheme, want in (("app", (True, 0, 772, None, 28)), ("cards-left", (True, 0, 0, 28, 28)),
                         ("original", (True, 0, 466, None, 28))):
        answer = naive_solve(d, CLASSIC, scheme, position_of(game, scheme))
        assert answer.answers() == want and answer.states == 1
    # Drawing the whole stock first under Classic: the waste ends on the stock's last
    # card (a K), under which nothing of the chain's bottom row (2 … J) plays: stuck,
    # 500 - 23 = 477 points, nothing removed.
    game = Game(d, CLASSIC)
    while game.stock_left:
        game.draw()
    assert game.status is Status.STUCK and game.waste.rank == 12
    answer = naive_solve(d, CLASSIC, "app", position_of(game, "app"))
    assert answer.answers() == (False, None, 477, None, 0) and answer.states == 1
