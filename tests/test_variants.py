"""The variants (empty waste, joker, draw only when stuck, open peaks) under every scoring.

- the kernels against the naive twin of tests/naive.py, option by option and in
  combinations, under the app, cards-left and original schemes;
- every line the solver returns is replayed on :class:`Game`: legal, ending as claimed
  (won or stuck) and scoring exactly ``best_score`` under its scheme;
- ``optimal=False`` agrees with the optimal search on winnability;
- relations between rule sets that follow from the rules (an empty waste can start
  with a draw, draw-when-stuck games are games of the app's rules, open changes nothing);
- the plain-Python game on hand-built layouts: the joker, the empty waste, the
  draw-when-stuck refusal, the variant names.

The naive twin is slow (the original scheme especially: it walks every reachable state
with the length of the current run), so the default subset (``pytest -m "not slow"``)
is small and the ``slow`` tests (``pytest -m slow``) widen each cross-check; a plain
``pytest`` runs both, as CI does.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from tripeaks_solver.cards import JOKER, WILD_RANK, Card
from tripeaks_solver.dealing import Deal
from tripeaks_solver.errors import IllegalMoveError, InputError
from tripeaks_solver.game import Game, Status
from tripeaks_solver.rules import CLASSIC, EASY, Rules
from tripeaks_solver.solver import Solution, solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from naive import (
    EMPTY,
    WILD,
    may_follow,
    naive_original,
    naive_solve,
    naive_variant_solve,
    opening,
)

SCHEMES = ("app", "cards-left", "original")
MAX_ORIGINAL = 28 * 29 // 2 + 60  # one run of all 28 removals and the three peak bonuses


def label(rules: Rules) -> str:
    return f"{rules.name}+{rules.variant}" if rules.variant else rules.name


# Every option on its own under Easy and Classic, then combinations.
VARIANTS = [
    Rules(wrap=True, empty_waste=True),
    Rules(wrap=False, empty_waste=True),
    Rules(wrap=True, joker=True),
    Rules(wrap=False, joker=True),
    Rules(wrap=True, draw_when_stuck=True),
    Rules(wrap=False, draw_when_stuck=True),
    Rules(wrap=True, empty_waste=True, joker=True),
    Rules(wrap=False, empty_waste=True, joker=True),
    Rules(wrap=True, empty_waste=True, draw_when_stuck=True),
    Rules(wrap=True, joker=True, draw_when_stuck=True),
    Rules(wrap=True, empty_waste=True, joker=True, draw_when_stuck=True),
    Rules(wrap=False, empty_waste=True, joker=True, draw_when_stuck=True),
]
VARIANT_IDS = [label(r) for r in VARIANTS]
SINGLE_OPTIONS = VARIANTS[:6]  # one option, Easy and Classic: 100+ naive deals each

# Deals lost under each rule set (the first ones from 0 up, found with the solver; the
# naive twin confirms them when it checks them). Lost deals are rare with an empty waste
# or the joker, and only on them is the app and cards-left optimum a stuck end.
LOST = {
    "easy+empty-waste": (28, 238, 356),
    "classic+empty-waste": (8, 28, 29),
    "easy+joker": (183, 276, 586),
    "classic+joker": (25, 40, 94),
    "easy+draw-when-stuck": (8, 15, 16),
    "classic+draw-when-stuck": (1, 3, 5),
    "easy+empty-waste+joker": (586,),
    "classic+empty-waste+joker": (25, 94, 134),
    "easy+empty-waste+draw-when-stuck": (28, 36, 48),
    "easy+joker+draw-when-stuck": (56, 105, 153),
    "easy+empty-waste+joker+draw-when-stuck": (365, 586),
    "classic+empty-waste+joker+draw-when-stuck": (25, 45, 56),
}


def cheap(rules: Rules) -> bool:
    """Draw-when-stuck games have few reachable positions: the naive twin is quick."""
    return rules.draw_when_stuck


def app_deals(rules: Rules, slow: bool) -> list[int]:
    """Deals the app and cards-left answers are checked on against the naive twin: a
    run of deals from 0 and pinned lost ones; the slow set continues the default one."""
    lost = LOST[label(rules)]
    if cheap(rules):
        default, more = range(60), range(60, 250)
    elif rules in SINGLE_OPTIONS:
        default, more = range(5), range(5, 100)
    else:
        default, more = range(4), range(4, 30)
    default = {*default, lost[0]}
    return sorted({*more, *lost} - default) if slow else sorted(default)


def original_deals(rules: Rules, slow: bool) -> list[int]:
    """Deals the original scheme is checked on (the naive original walk is the slow one:
    a handful per rule set unless drawing is restricted)."""
    lost = LOST[label(rules)]
    if cheap(rules):
        default, more = {*range(30), lost[0]}, {*range(30, 130), *lost}
    else:
        default, more = {0}, {*range(1, 4), lost[0]}
    return sorted(more - default) if slow else sorted(default)


def cases(pick, slow: bool) -> list:
    out = []
    for rules in VARIANTS:
        for n in pick(rules, slow):
            out.append(pytest.param(rules, n, id=f"{label(rules)}-{n}"))
    return out


# --- cached solving ----------------------------------------------------------------------


@cache
def deal(number: int, joker: bool = False) -> Deal:
    return Deal.from_number(number, joker=joker)


def deal_for(number: int, rules: Rules) -> Deal:
    return deal(number, rules.joker)


@cache
def solved(number: int, rules: Rules, scheme: str = "app", optimal: bool = True) -> Solution:
    return solve(deal_for(number, rules), rules, optimal=optimal, scheme=scheme)


@cache
def naive_answers(number: int, rules: Rules):
    return naive_variant_solve(deal_for(number, rules), rules)


@cache
def naive_best_original(number: int, rules: Rules):
    return naive_original(deal_for(number, rules), rules)


# --- replaying a line on the plain-Python game ------------------------------------------


def replay(sol: Solution) -> Game:
    """Play ``sol.moves`` on a fresh Game; an illegal move raises IllegalMoveError."""
    game = Game(sol.deal, sol.rules)
    for m in sol.moves:
        if m == -1:
            game.draw()
        else:
            assert 0 <= m < 28, f"not a move: {m}"
            game.remove(sol.deal.tableau[m])
    return game


def line_problems(sol: Solution) -> list[str]:
    """Everything wrong with the line of ``sol`` under its scheme (empty when right)."""
    optimal = sol.best_score is not None
    where = (f"deal {sol.deal.number} {label(sol.rules)} scheme={sol.scheme} "
             f"optimal={optimal}")
    try:
        game = replay(sol)
    except (IllegalMoveError, AssertionError) as exc:
        return [f"{where}: line {sol.tokens} is illegal: {exc!r}"]
    problems = []
    status = game.status
    draws = sum(1 for m in sol.moves if m == -1)
    if not optimal:  # a winning line, or none on a lost deal
        if sol.winnable and status is not Status.WON:
            problems.append(f"{where}: winnable but the line ends {status}")
        if not sol.winnable and sol.moves != ():
            problems.append(f"{where}: lost but a line of {len(sol.moves)} moves")
        return problems
    if sol.scheme == "original":
        # The best original game may end stuck even on a winnable deal; it must end.
        if status not in (Status.WON, Status.STUCK):
            problems.append(f"{where}: the line does not end the game ({status})")
        if game.original != sol.best_score:
            problems.append(f"{where}: line scores {game.original}, best {sol.best_score}")
        if sol.min_draws is not None:
            problems.append(f"{where}: min_draws {sol.min_draws} under the original scheme")
    else:
        expected = Status.WON if sol.winnable else Status.STUCK
        if status is not expected:
            problems.append(f"{where}: winnable={sol.winnable} but the line ends {status}")
        if sol.winnable and draws != sol.min_draws:
            problems.append(f"{where}: line draws {draws}, min_draws {sol.min_draws}")
        if sol.scheme == "app" and game.score != sol.best_score:
            problems.append(f"{where}: line scores {game.score}, best {sol.best_score}")
        if sol.scheme == "cards-left" and game.score_under("cards-left") != (
                sol.best_score, sol.best_moves):
            problems.append(f"{where}: line ends with (cards left, moves) "
                            f"{game.score_under('cards-left')}, best "
                            f"{(sol.best_score, sol.best_moves)}")
    if status is Status.STUCK and game.stock_left != 0:
        problems.append(f"{where}: stuck with {game.stock_left} cards in stock")
    steps = sol.steps()
    if len(steps) != len(sol.moves) or [s.is_draw for s in steps] != [m == -1 for m in sol.moves]:
        problems.append(f"{where}: steps() do not follow the line")
    elif steps:
        last = game.cards_left if sol.scheme == "cards-left" else game.score_under(sol.scheme)
        if steps[-1].score != last:
            problems.append(f"{where}: last step scores {steps[-1].score}, game {last}")
    return problems


# --- the naive twin itself ----------------------------------------------------------------


@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_naive_follows_is_the_rules_adjacency(wrap: bool) -> None:
    rules = Rules(wrap=wrap)
    for a in range(WILD + 1):  # 13 is the joker's wild rank
        for b in range(WILD + 1):
            assert may_follow(a, b, wrap) == rules.adjacent(a, b), (a, b)
    assert WILD == WILD_RANK
    assert all(may_follow(EMPTY, b, wrap) for b in range(WILD + 1))  # empty waste
    assert all(may_follow(WILD, b, wrap) and may_follow(b, WILD, wrap) for b in range(13))
    assert may_follow(0, 12, wrap) == wrap and not may_follow(0, 2, wrap)
    assert not any(may_follow(b, b, wrap) for b in range(13))  # same rank never follows


@pytest.mark.parametrize("rules", VARIANTS + [EASY, CLASSIC], ids=VARIANT_IDS + ["easy", "classic"])
def test_naive_opening_is_the_deal_opening(rules: Rules) -> None:
    for n in range(5):
        d = deal_for(n, rules)
        tab, waste, stock = opening(d, rules)
        game_waste, game_stock = d.opening(rules)
        assert tab == [c.rank for c in d.tableau]
        assert waste == (EMPTY if game_waste is None else game_waste.rank)
        assert stock == [c.rank for c in game_stock]
        assert len(stock) == 23 + rules.empty_waste + rules.joker
        assert (WILD in tab + stock + [waste]) == rules.joker


@pytest.mark.parametrize("n", [8, 1132])
@pytest.mark.parametrize("rules", [EASY, CLASSIC], ids=["easy", "classic"])
def test_naive_twin_matches_the_first_naive_on_the_app_rules(rules: Rules, n: int) -> None:
    """Without options the new naive search gives the old one's four answers."""
    new = naive_variant_solve(deal(n), rules)
    assert new.answers()[:4] == naive_solve(deal(n), rules.wrap).answers()


@pytest.mark.parametrize("rules,n", [
    (VARIANTS[0], 28), (VARIANTS[3], 25), (VARIANTS[5], 1), (VARIANTS[4], 2),
    pytest.param(VARIANTS[2], 0, marks=pytest.mark.slow),
    pytest.param(VARIANTS[7], 94, marks=pytest.mark.slow),
], ids=lambda x: label(x) if isinstance(x, Rules) else str(x))
def test_naive_first_win_shortcut_changes_nothing(rules: Rules, n: int) -> None:
    quick = naive_variant_solve(deal_for(n, rules), rules)
    full = naive_variant_solve(deal_for(n, rules), rules, stop_at_first_win=False)
    assert quick.answers() == full.answers()


# --- kernels == naive twin: app and cards-left ----------------------------------------------


def check_app_and_cards_left(number: int, rules: Rules) -> None:
    ref = naive_answers(number, rules)
    app = solved(number, rules, "app")
    left = solved(number, rules, "cards-left")
    where = f"deal {number} rules {label(rules)}"
    got = (app.winnable, app.min_draws, app.best_score, app.max_removed)
    want = (ref.winnable, ref.min_draws, ref.app_best, ref.max_removed)
    assert got == want, (f"{where} scheme app: solver (winnable, min_draws, best_score, "
                         f"max_removed) = {got}, naive = {want}")
    got = (left.winnable, left.min_draws, (left.best_score, left.best_moves), left.max_removed)
    want = (ref.winnable, ref.min_draws, ref.cards_left, ref.max_removed)
    assert got == want, (f"{where} scheme cards-left: solver (winnable, min_draws, "
                         f"(best_score, best_moves), max_removed) = {got}, naive = {want}")
    assert line_problems(app) == [] and line_problems(left) == []


@pytest.mark.parametrize("rules,number", cases(app_deals, slow=False))
def test_app_and_cards_left_match_naive(rules: Rules, number: int) -> None:
    check_app_and_cards_left(number, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules,number", cases(app_deals, slow=True))
def test_app_and_cards_left_match_naive_many(rules: Rules, number: int) -> None:
    check_app_and_cards_left(number, rules)


def test_what_the_naive_cross_checks_cover() -> None:
    """The default and slow runs together: 100+ deals for every single option (Easy and
    Classic), 30+ for every combination, the pinned lost deals, and no deal twice."""
    for rules in VARIANTS:
        default, slow = app_deals(rules, False), app_deals(rules, True)
        assert not set(default) & set(slow), label(rules)
        numbers = set(default) | set(slow)
        assert len(numbers) >= (100 if rules in SINGLE_OPTIONS else 30), label(rules)
        assert set(LOST[label(rules)]) <= numbers
        default, slow = original_deals(rules, False), original_deals(rules, True)
        assert default and not set(default) & set(slow), label(rules)
        assert len(set(default) | set(slow)) >= (130 if cheap(rules) else 5), label(rules)


# --- kernels == naive twin: the original scheme ----------------------------------------------


def check_original(number: int, rules: Rules) -> None:
    ref = naive_best_original(number, rules)
    sol = solved(number, rules, "original")
    where = f"deal {number} rules {label(rules)} scheme original"
    assert sol.best_score == ref.best_score, (
        f"{where}: solver best_score {sol.best_score}, naive {ref.best_score}; "
        f"solver line {sol.tokens}")
    assert sol.winnable == ref.variant.winnable, f"{where}: winnable {sol.winnable}"
    assert sol.min_draws is None and sol.best_moves is None
    assert ref.best_score <= MAX_ORIGINAL
    assert line_problems(sol) == []
    # The naive original walk meets every end, so it also answers the other schemes:
    # two different naive walks must agree.
    assert ref.variant.answers() == naive_answers(number, rules).answers(), where


@pytest.mark.parametrize("rules,number", cases(original_deals, slow=False))
def test_original_matches_naive(rules: Rules, number: int) -> None:
    check_original(number, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules,number", cases(original_deals, slow=True))
def test_original_matches_naive_many(rules: Rules, number: int) -> None:
    check_original(number, rules)


def test_best_original_game_of_a_winnable_deal_can_end_stuck() -> None:
    """Under the original scoring winning is not always best: deal 185 is won under
    Easy with draw-when-stuck, yet its best game (40 points, the naive twin agrees)
    leaves one card: no win scores as much."""
    rules = EASY.with_options(draw_when_stuck=True)
    sol = solved(185, rules, "original")
    game = replay(sol)
    assert sol.winnable and naive_answers(185, rules).winnable
    assert game.status is Status.STUCK and game.cards_left == 1
    assert sol.best_score == game.original == naive_best_original(185, rules).best_score == 40
    check_original(185, rules)


@pytest.mark.parametrize("rules", [EASY, CLASSIC], ids=["easy", "classic"])
def test_original_matches_naive_on_the_app_rules(rules: Rules) -> None:
    for number in (8,) if rules.wrap else (8, 1132):
        check_original(number, rules)


# --- every line replays; depth-first agrees with the optimum ----------------------------------


REPLAY_DEFAULT = {"app": range(60), "cards-left": range(60), "original": range(5)}
REPLAY_SLOW = {"app": range(60, 150), "cards-left": range(60, 120), "original": range(5, 15)}


def replay_problems(rules: Rules, scheme: str, numbers) -> list[str]:
    problems = []
    for n in numbers:
        problems += line_problems(solved(n, rules, scheme))
    return problems


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_lines_replay(rules: Rules, scheme: str) -> None:
    assert replay_problems(rules, scheme, REPLAY_DEFAULT[scheme]) == []


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_lines_replay_many(rules: Rules, scheme: str) -> None:
    assert replay_problems(rules, scheme, REPLAY_SLOW[scheme]) == []


DFS_DEFAULT = range(100)
DFS_SLOW = range(100, 300)


def depth_first_problems(rules: Rules, numbers) -> list[str]:
    problems = []
    for n in numbers:
        fast, best = solved(n, rules, "app", optimal=False), solved(n, rules, "app")
        if fast.winnable != best.winnable:
            problems.append(f"deal {n} {label(rules)}: optimal=False winnable={fast.winnable}, "
                            f"optimal winnable={best.winnable}")
        problems += line_problems(fast)
        if fast.winnable and (fast.max_removed != 28 or fast.min_draws is not None):
            problems.append(f"deal {n} {label(rules)}: fast win with max_removed "
                            f"{fast.max_removed}, min_draws {fast.min_draws}")
    return problems


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_depth_first_agrees_with_optimal(rules: Rules) -> None:
    assert depth_first_problems(rules, DFS_DEFAULT) == []


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_depth_first_agrees_with_optimal_many(rules: Rules) -> None:
    assert depth_first_problems(rules, DFS_SLOW) == []


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_depth_first_subset_has_both_outcomes(rules: Rules) -> None:
    """Each rule set's winnability check sees won and lost deals (the lost ones pinned)."""
    outcomes = {solved(n, rules, "app", optimal=False).winnable
                for n in [*DFS_DEFAULT, *LOST[label(rules)]]}
    assert outcomes == {True, False}
    for n in LOST[label(rules)]:
        assert not solved(n, rules, "app", optimal=False).winnable, n


# --- relations between rule sets -----------------------------------------------------------


def key(sol: Solution):
    """Bigger is better under every scheme."""
    if sol.scheme == "cards-left":
        return (-sol.best_score, -sol.best_moves)
    return sol.best_score


def relation_problems(base: Rules, numbers, scheme: str) -> list[str]:
    """An empty-waste game may start with a draw and then go on as the app's game, one
    move (one draw) later; a draw-when-stuck game is also a game of the app's rules."""
    problems = []
    empty = base.with_options(empty_waste=True)
    dws = base.with_options(draw_when_stuck=True)
    for n in numbers:
        b, e, d = (solved(n, r, scheme) for r in (base, empty, dws))
        where = f"deal {n} {label(base)} {scheme}"
        if scheme == "app":
            one_draw_later = b.best_score - 1
        elif scheme == "original":
            one_draw_later = b.best_score - 5
        else:
            one_draw_later = (-b.best_score, -(b.best_moves + 1))
        if key(e) < one_draw_later:
            problems.append(f"{where}: empty waste {key(e)} worse than drawing first "
                            f"{one_draw_later}")
        if b.winnable and not e.winnable:
            problems.append(f"{where}: won with a waste card, lost with an empty waste")
        if key(d) > key(b):
            problems.append(f"{where}: draw-when-stuck {key(d)} beats the app's rules {key(b)}")
        if d.winnable and not b.winnable:
            problems.append(f"{where}: won only when drawing is restricted")
        if scheme == "app" and b.winnable and e.winnable and e.min_draws > b.min_draws + 1:
            problems.append(f"{where}: empty waste needs {e.min_draws} draws, "
                            f"app rules {b.min_draws}")
    return problems


RELATION_DEFAULT = {"app": range(80), "cards-left": range(80), "original": range(10)}
RELATION_SLOW = {"app": range(80, 200), "cards-left": range(80, 160), "original": range(10, 25)}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("base", [EASY, CLASSIC], ids=["easy", "classic"])
def test_relations_between_rule_sets(base: Rules, scheme: str) -> None:
    assert relation_problems(base, RELATION_DEFAULT[scheme], scheme) == []


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("base", [EASY, CLASSIC], ids=["easy", "classic"])
def test_relations_between_rule_sets_many(base: Rules, scheme: str) -> None:
    assert relation_problems(base, RELATION_SLOW[scheme], scheme) == []


def test_draw_when_stuck_can_lose_a_deal_the_app_rules_win() -> None:
    """Deal 15 is won under Easy only by drawing while a card could be played."""
    dws = EASY.with_options(draw_when_stuck=True)
    assert solved(15, EASY).winnable and not solved(15, dws).winnable
    assert naive_answers(15, EASY).winnable and not naive_answers(15, dws).winnable


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", [EASY, CLASSIC, VARIANTS[6], VARIANTS[11]],
                         ids=["easy", "classic", label(VARIANTS[6]), label(VARIANTS[11])])
def test_open_peaks_change_nothing(rules: Rules, scheme: str) -> None:
    opened = rules.with_options(open=True)
    assert opened.variant.endswith("open")
    for n in range(6 if scheme == "original" else 12):
        a, b = solved(n, rules, scheme), solved(n, opened, scheme)
        assert (a.winnable, a.min_draws, a.best_score, a.best_moves, a.max_removed, a.moves) == (
            b.winnable, b.min_draws, b.best_score, b.best_moves, b.max_removed, b.moves), n
        assert line_problems(b) == []


# --- the plain-Python game with the options, on hand-built layouts ------------------------


ALL_TOKENS = [r + s for s in "cdhs" for r in "A23456789TJQK"]


def layout(tableau: dict[int, str], waste: str, joker: bool = False) -> Deal:
    """The given cards at the given positions; every other place gets an unused card in
    deck order (the joker, when asked for and not placed, ends the stock)."""
    fixed = {Card.parse(t).token for t in [*tableau.values(), waste]}
    tokens = ALL_TOKENS + (["Jk"] if joker else [])
    spare = iter(t for t in tokens if t not in fixed)
    cards = [tableau[p] if p in tableau else next(spare) for p in range(28)]
    return Deal.from_cards([*cards, waste, *spare])


BOTTOM = ["3♠", "5♠", "K♣", "4♠", "2♦", "A♠", "K♦", "8♥", "7♣", "9♠"]  # RULES.md's example


def test_empty_waste_takes_any_uncovered_card_first() -> None:
    d = layout({18 + i: c for i, c in enumerate(BOTTOM)}, "A♣")
    for rules in (EASY.with_options(empty_waste=True), CLASSIC.with_options(empty_waste=True)):
        g = Game(d, rules, lang="en")
        assert g.waste is None and g.stock_left == 24 and g.stock[0] == d.waste
        assert [str(c) for c in g.playable()] == BOTTOM  # all ten, whatever their rank
        for c in BOTTOM:
            fresh = Game(d, rules, lang="en")
            fresh.remove(c)
            assert str(fresh.waste) == c and fresh.moves == 1 and fresh.score == 499
            assert fresh.original == 1
        with pytest.raises(IllegalMoveError) as info:
            g.remove(d.tableau[9])  # covered, even on an empty waste
        assert info.value.key == "blocked"
        # Drawing first is allowed: the waste card of the app's rules comes up.
        g.draw()
        assert g.waste == d.waste and g.stock_left == 23
        standard = Game(d, rules.with_options(empty_waste=False), lang="en")
        assert g.playable() == standard.playable()
        assert [str(c) for c in g.playable()] == (
            ["K♣", "2♦", "K♦"] if rules.wrap else ["2♦"])


def test_empty_waste_joker_deal_has_25_stock_cards() -> None:
    rules = EASY.with_options(empty_waste=True, joker=True)
    d = Deal.from_number(3, joker=True)
    g = Game(d, rules)
    assert g.waste is None and g.stock_left == 25 and tuple(g.stock) == (d.waste, *d.stock)
    assert Game(d, EASY.with_options(joker=True)).stock_left == 24


@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_joker_goes_on_any_card(wrap: bool) -> None:
    rules = Rules(wrap=wrap, joker=True)
    for rank in range(13):
        waste = Card.of(rank, 0).token
        # The joker at bottom position 20; a 7 covers nothing it could follow.
        d = layout({20: "Jk"}, waste, joker=True)
        g = Game(d, rules, lang="en")
        assert Card(JOKER) in g.playable(), rank
        g.remove("Jk")
        assert g.waste == JOKER and g.original == 1


@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_joker_takes_any_card(wrap: bool) -> None:
    rules = Rules(wrap=wrap, joker=True)
    d = layout({18 + i: c for i, c in enumerate(BOTTOM)}, "Jk", joker=True)
    g = Game(d, rules, lang="en")
    assert g.waste == JOKER and g.stock_left == 24  # a joker deal: 53 - 28 - 1
    assert [str(c) for c in g.playable()] == BOTTOM
    for c in BOTTOM:
        fresh = Game(d, rules)
        fresh.remove(c)
        assert str(fresh.waste) == c
    # The joker drawn from the stock takes anything too.
    d2 = layout({18 + i: c for i, c in enumerate(BOTTOM)}, "J♥", joker=True)  # no 10, Q
    g2 = Game(d2, rules, lang="en")
    assert g2.stock[-1] == JOKER and [str(c) for c in g2.playable()] == []
    while g2.stock_left:
        g2.draw()
    assert g2.waste == JOKER and [str(c) for c in g2.playable()] == BOTTOM


def test_joker_rules_need_a_joker_deal() -> None:
    joker_rules = EASY.with_options(joker=True)
    for d, rules in ((deal(3), joker_rules), (deal(3, joker=True), EASY)):
        with pytest.raises(InputError):
            d.opening(rules)
        with pytest.raises(InputError):
            Game(d, rules)
        with pytest.raises(InputError):
            solve(d, rules)


def test_draw_when_stuck_refuses_a_draw_while_a_card_plays() -> None:
    d = layout({18 + i: c for i, c in enumerate(BOTTOM)}, "A♣")
    for rules in (EASY.with_options(draw_when_stuck=True),
                  CLASSIC.with_options(draw_when_stuck=True)):
        g = Game(d, rules, lang="en")
        assert g.playable()
        with pytest.raises(IllegalMoveError) as info:
            g.draw()
        assert info.value.key == "draw_not_allowed"
        assert str(info.value) == "Draw only when no card can be played"
        assert g.moves == 0 and g.stock_left == 23  # nothing happened
        # Without the option the same draw is fine.
        Game(d, rules.with_options(draw_when_stuck=False)).draw()
    # With nothing playable the draw is allowed.
    d2 = layout({18 + i: c for i, c in enumerate(BOTTOM)}, "J♥")  # no 10 or Q below
    g = Game(d2, CLASSIC.with_options(draw_when_stuck=True), lang="en")
    assert g.playable() == []
    g.draw()
    assert g.moves == 1


def test_draw_when_stuck_with_an_empty_waste_cannot_draw_first() -> None:
    g = Game(deal(0), EASY.with_options(empty_waste=True, draw_when_stuck=True))
    with pytest.raises(IllegalMoveError) as info:
        g.draw()
    assert info.value.key == "draw_not_allowed"


def test_variant_names() -> None:
    assert EASY.variant == "" and CLASSIC.variant == ""
    assert Rules(empty_waste=True, joker=True).variant == "empty-waste+joker"
    assert Rules(joker=True, empty_waste=True).variant == "empty-waste+joker"
    assert Rules(wrap=False, draw_when_stuck=True).variant == "draw-when-stuck"
    assert Rules(open=True).variant == "open"
    assert Rules(empty_waste=True, joker=True, draw_when_stuck=True, open=True).variant == (
        "empty-waste+joker+draw-when-stuck+open")
    assert EASY.with_options(joker=True, open=True).variant == "joker+open"
    assert str(CLASSIC.with_options(empty_waste=True, joker=True)) == (
        "Classic (empty-waste, joker)")
    assert str(EASY.with_options(draw_when_stuck=True)) == "Easy (draw-when-stuck)"
    assert Rules(wrap=False, empty_waste=True).name == "classic"
    with pytest.raises(TypeError):
        EASY.with_options(jokers=True)


def test_open_peaks_show_every_card() -> None:
    d = deal(0)
    closed, opened = Game(d, EASY), Game(d, EASY.with_options(open=True))
    assert [p for p in range(28) if closed.is_face_up(p)] == list(range(18, 28))
    assert all(opened.is_face_up(p) for p in range(28))
    assert opened.playable() == closed.playable()


# --- hand-built deals with answers derived by hand ----------------------------------------

# A removal order that respects covering, and 29 ranks one apart along it (no K-A):
# the first is the waste card, the other 28 go to the positions in that order.
BOTTOM_UP = list(range(18, 28)) + list(range(9, 18)) + list(range(3, 9)) + list(range(3))
CHAIN = list(range(13)) + list(range(11, -1, -1)) + [1, 2, 3, 4]


def chain_deal(joker_at: int | None = None) -> Deal:
    """The tableau clears in BOTTOM_UP order on CHAIN from the waste, no draw needed.

    With ``joker_at`` (an index into the 28 removals) that card is the joker, a 53-card
    deal; the card it replaces goes to the stock.
    """
    used: dict[int, int] = {}
    cards = []
    for r in CHAIN:
        cards.append(Card.of(r, used.get(r, 0)))
        used[r] = used.get(r, 0) + 1
    size = 52
    if joker_at is not None:
        cards[joker_at + 1] = Card(JOKER)
        size = 53
    rest = [c for c in range(size) if c not in cards]
    tableau = dict(zip(BOTTOM_UP, cards[1:], strict=True))
    return Deal.from_cards([*(tableau[p] for p in range(28)), cards[0], *rest])


@pytest.mark.parametrize("options", [{}, {"empty_waste": True}], ids=["waste", "empty-waste"])
@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_one_run_clears_the_tableau(wrap: bool, options: dict) -> None:
    """One run of 28 removals and no draw: app 772, 0 cards left in 28 moves, and the
    original scheme's maximum, 1 + 2 + … + 28 + 15 + 15 + 30 = 466. With an empty waste
    the first bottom card of the chain goes first, and the rest follows as before."""
    d = chain_deal()
    rules = Rules(wrap=wrap, **options)
    app, left, orig = (solve(d, rules, scheme=s) for s in SCHEMES)
    assert (app.winnable, app.min_draws, app.best_score) == (True, 0, 772)
    assert (left.best_score, left.best_moves) == (0, 28)
    assert orig.best_score == MAX_ORIGINAL == 466
    assert naive_variant_solve(d, rules).answers() == (True, 0, 772, 28, (0, 28))
    for sol in (app, left, orig):
        assert -1 not in sol.moves and line_problems(sol) == []


@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_the_joker_bridges_a_chain(wrap: bool) -> None:
    """Removal 12 of the chain is the joker, between two queens: a Q does not follow a
    Q, so the tableau clears in one run only because the joker goes on the first queen
    and takes the second. Answers as in the test above: 772, 0 draws, 466."""
    d = chain_deal(joker_at=11)
    order_ranks = [d.tableau[p].rank for p in BOTTOM_UP]
    assert order_ranks[10:13] == [11, WILD, 11] and d.has_joker
    rules = Rules(wrap=wrap, joker=True)
    app, left, orig = (solve(d, rules, scheme=s) for s in SCHEMES)
    assert (app.winnable, app.min_draws, app.best_score) == (True, 0, 772)
    assert (left.best_score, left.best_moves) == (0, 28)
    assert orig.best_score == 466
    assert naive_variant_solve(d, rules).answers() == (True, 0, 772, 28, (0, 28))
    for sol in (app, left, orig):
        assert -1 not in sol.moves and line_problems(sol) == []
