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
with the length of the current run), so the default run keeps a small representative
subset and the ``slow`` tests (``pytest -m slow``) widen each cross-check; CI runs
both. The ``nojit`` tests run again in CI with the kernels as plain Python.
"""

from __future__ import annotations

from functools import cache

import pytest
from helpers import (
    BOTTOM,
    BOTTOM_UP,
    MAX_ORIGINAL,
    SCHEMES,
    VARIANT_IDS,
    VARIANTS,
    chain_deal,
    deal,
    deal_for,
    label,
    layout,
    line_problems,
    naive_answer,
    replay,
)
from naive import naive_solve

from tripeaks_solver.errors import IllegalMoveError, InputError
from tripeaks_solver.model.cards import JOKER, WILD_RANK, Card
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules
from tripeaks_solver.solver.solve import Solution, solve

SINGLE_OPTIONS = VARIANTS[:6]  # one option, Easy and Classic: 20+ naive deals each

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


# Where drawing is free the twin is slow (a lost deal makes it walk every reachable
# position, the original scoring more so): the default run checks one quick won deal of
# those rule sets under the app and cards-left schemes (deal 2, or deal 6 with the joker:
# among the twin's quickest of deals 0-7), and the original scheme on one quick lost deal
# of one of them; the draw-when-stuck ones get dozens of deals, won and lost.
ORIGINAL_BY_DEFAULT = ("classic+joker", 40)
QUICK_WON, QUICK_WON_JOKER = 2, 6


def quick_won(rules: Rules) -> int:
    return QUICK_WON_JOKER if rules.joker else QUICK_WON


def app_deals(rules: Rules, slow: bool) -> list[int]:
    """Deals the app and cards-left answers are checked on against the naive twin: a
    run of deals from 0 and pinned lost ones; the slow set continues the default one."""
    lost = LOST[label(rules)]
    if cheap(rules):
        default, more = {*range(6), lost[0]}, range(6, 100)
    else:
        default, more = {quick_won(rules)}, range(20 if rules in SINGLE_OPTIONS else 10)
    return sorted({*more, *lost} - default) if slow else sorted(default)


def original_deals(rules: Rules, slow: bool) -> list[int]:
    """Deals the original scheme is checked on (the naive original walk is the slow one:
    a handful per rule set unless drawing is restricted)."""
    lost = LOST[label(rules)]
    if cheap(rules):
        default, more = {*range(6), lost[0]}, {*range(6, 65), *lost}
    else:
        name, number = ORIGINAL_BY_DEFAULT
        default = {number} if label(rules) == name else set()
        more = {*range(2), lost[0]}
    return sorted(more - default) if slow else sorted(default)


# Cases also run with the kernels as plain Python (NUMBA_DISABLE_JIT=1 in CI): a few
# deals of quick searches, under rule sets with every option.
NOJIT = {("easy+draw-when-stuck", 8), ("classic+draw-when-stuck", 1),
         ("easy+empty-waste+joker", QUICK_WON_JOKER), ("easy+empty-waste+joker+draw-when-stuck", 0),
         ("classic+empty-waste+joker+draw-when-stuck", 25)}


def cases(pick, slow: bool) -> list:
    out = []
    for rules in VARIANTS:
        for n in pick(rules, slow):
            marks = [pytest.mark.nojit] if (label(rules), n) in NOJIT else []
            out.append(pytest.param(rules, n, id=f"{label(rules)}-{n}", marks=marks))
    return out


# --- cached solving ----------------------------------------------------------------------


@cache
def solved(number: int, rules: Rules, scheme: str = "app", optimal: bool = True) -> Solution:
    return solve(deal_for(number, rules), rules, optimal=optimal, scheme=scheme)


def naive(number: int, rules: Rules, scheme: str = "app"):
    """The naive twin's answers for the deal from its opening (computed once)."""
    return naive_answer(number, rules, scheme)


# --- kernels == naive twin: app and cards-left ----------------------------------------------


def answers(sol: Solution) -> tuple:
    """As the naive twin's ``answers()``: (winnable, min_draws, best_score, best_moves,
    max_removed)."""
    return sol.winnable, sol.min_draws, sol.best_score, sol.best_moves, sol.max_removed


def check_app_and_cards_left(number: int, rules: Rules) -> None:
    for scheme in ("app", "cards-left"):
        sol = solved(number, rules, scheme)
        want = naive(number, rules, scheme).answers()
        assert answers(sol) == want, (
            f"deal {number} rules {label(rules)} scheme {scheme}: solver (winnable, "
            f"min_draws, best_score, best_moves, max_removed) = {answers(sol)}, "
            f"naive = {want}")
        assert line_problems(sol) == []


@pytest.mark.parametrize("rules,number", cases(app_deals, slow=False))
def test_app_and_cards_left_match_naive(rules: Rules, number: int) -> None:
    check_app_and_cards_left(number, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules,number", cases(app_deals, slow=True))
def test_app_and_cards_left_match_naive_many(rules: Rules, number: int) -> None:
    check_app_and_cards_left(number, rules)


@pytest.mark.slow  # solves every deal of the default run again with the naive twin
def test_what_the_naive_cross_checks_cover() -> None:
    """The default and slow runs together: 20+ deals for every single option (Easy and
    Classic), 10+ for every combination, the pinned lost deals, and no deal twice; the
    default run checks every rule set, and won and lost deals under each scheme."""
    for rules in VARIANTS:
        default, slow = app_deals(rules, False), app_deals(rules, True)
        assert default and not set(default) & set(slow), label(rules)
        numbers = set(default) | set(slow)
        assert len(numbers) >= (20 if rules in SINGLE_OPTIONS else 10), label(rules)
        assert set(LOST[label(rules)]) <= numbers
        default, slow = original_deals(rules, False), original_deals(rules, True)
        assert not set(default) & set(slow), label(rules)
        assert len(set(default) | set(slow)) >= (65 if cheap(rules) else 3), label(rules)
    for pick in (app_deals, original_deals):
        outcomes = {naive(n, r).winnable for r in VARIANTS for n in pick(r, False)}
        assert outcomes == {True, False}, pick.__name__
    nojit = {(c.values[0], c.values[1]) for c in cases(app_deals, False)
             if any(m.name == "nojit" for m in c.marks)}
    assert {(label(r), n) for r, n in nojit} == NOJIT


# --- kernels == naive twin: the original scheme ----------------------------------------------


def check_original(number: int, rules: Rules) -> None:
    ref = naive(number, rules, "original")
    sol = solved(number, rules, "original")
    where = f"deal {number} rules {label(rules)} scheme original"
    assert sol.best_score == ref.best_score, (
        f"{where}: solver best_score {sol.best_score}, naive {ref.best_score}; "
        f"solver line {sol.tokens}")
    assert sol.winnable == ref.winnable, f"{where}: winnable {sol.winnable}"
    assert sol.min_draws is None and sol.best_moves is None
    assert ref.best_score <= MAX_ORIGINAL
    assert line_problems(sol) == []


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
    assert sol.winnable and naive(185, rules).winnable
    assert game.status is Status.STUCK and game.cards_left == 1
    assert sol.best_score == game.original == naive(185, rules, "original").best_score == 40
    check_original(185, rules)


@pytest.mark.parametrize("rules,number", [
    pytest.param(CLASSIC, 8, marks=pytest.mark.nojit),
    pytest.param(EASY, 1132, marks=pytest.mark.slow),
    pytest.param(CLASSIC, 0, marks=pytest.mark.slow),
    pytest.param(EASY, 8, marks=pytest.mark.slow),
    pytest.param(CLASSIC, 1132, marks=pytest.mark.slow),
    pytest.param(EASY, 0, marks=pytest.mark.slow),
], ids=lambda x: x.name if isinstance(x, Rules) else str(x))
def test_original_matches_naive_on_the_app_rules(rules: Rules, number: int) -> None:
    check_original(number, rules)


# --- every line replays; depth-first agrees with the optimum ----------------------------------


REPLAY_DEFAULT = {"app": range(5), "cards-left": range(5), "original": range(1)}
REPLAY_SLOW = {"app": range(5, 150), "cards-left": range(5, 120), "original": range(1, 15)}


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


DFS_DEFAULT = range(40)
DFS_SLOW = range(40, 300)


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


RELATION_DEFAULT = {"app": range(20), "cards-left": range(20), "original": range(5)}
RELATION_SLOW = {"app": range(20, 200), "cards-left": range(20, 160), "original": range(5, 25)}


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
    assert naive(15, EASY).winnable and not naive(15, dws).winnable


OPEN_RULES = [EASY, CLASSIC, VARIANTS[6], VARIANTS[11]]
OPEN_IDS = [label(r) for r in OPEN_RULES]


def check_open_changes_nothing(rules: Rules, scheme: str, numbers) -> None:
    opened = rules.with_options(open=True)
    assert opened.variant.endswith("open")
    for n in numbers:
        a, b = solved(n, rules, scheme), solved(n, opened, scheme)
        assert (a.winnable, a.min_draws, a.best_score, a.best_moves, a.max_removed, a.moves) == (
            b.winnable, b.min_draws, b.best_score, b.best_moves, b.max_removed, b.moves), n
        assert line_problems(b) == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", OPEN_RULES, ids=OPEN_IDS)
def test_open_peaks_change_nothing(rules: Rules, scheme: str) -> None:
    check_open_changes_nothing(rules, scheme, range(3 if scheme == "original" else 8))


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("rules", OPEN_RULES, ids=OPEN_IDS)
def test_open_peaks_change_nothing_many(rules: Rules, scheme: str) -> None:
    check_open_changes_nothing(rules, scheme, range(3, 12) if scheme == "original"
                               else range(8, 40))


# --- the plain-Python game with the options, on hand-built layouts ------------------------


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
    d = deal(3, joker=True)
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
    assert naive_solve(d, rules, "app").answers() == (True, 0, 772, None, 28)
    assert naive_solve(d, rules, "cards-left").answers() == (True, 0, 0, 28, 28)
    for sol in (app, left, orig):
        assert "draw" not in sol.tokens and line_problems(sol) == []


@pytest.mark.parametrize("wrap", [True, False], ids=["easy", "classic"])
def test_the_joker_bridges_a_chain(wrap: bool) -> None:
    """Removal 12 of the chain is the joker, between two queens: a Q does not follow a
    Q, so the tableau clears in one run only because the joker goes on the first queen
    and takes the second. Answers as in the test above: 772, 0 draws, 466."""
    d = chain_deal(joker_at=11)
    order_ranks = [d.tableau[p].rank for p in BOTTOM_UP]
    assert order_ranks[10:13] == [11, WILD_RANK, 11] and d.has_joker
    rules = Rules(wrap=wrap, joker=True)
    app, left, orig = (solve(d, rules, scheme=s) for s in SCHEMES)
    assert (app.winnable, app.min_draws, app.best_score) == (True, 0, 772)
    assert (left.best_score, left.best_moves) == (0, 28)
    assert orig.best_score == 466
    assert naive_solve(d, rules, "app").answers() == (True, 0, 772, None, 28)
    for sol in (app, left, orig):
        assert "draw" not in sol.tokens and line_problems(sol) == []
