"""What several test files need: rule sets and labels, cached deals and naive answers,
replaying a solver's line on the plain-Python game, hand-built deals, and parsing that
may fail.

Test files import it as ``helpers`` (pyproject's ``pythonpath`` puts tests/ on the path).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

from naive import Answer, naive_solve

from tripeaks_solver.errors import IllegalMoveError, InputError
from tripeaks_solver.model.cards import JOKER, Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules

RULE_SETS = [EASY, CLASSIC]
RULE_IDS = ["easy", "classic"]
TABLEAU = 28


def label(rules: Rules) -> str:
    """``easy``, ``classic+joker``, …: the rule set and its options, for test ids."""
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
SCHEMES = ("app", "cards-left", "original")
MAX_ORIGINAL = 28 * 29 // 2 + 60  # one run of all 28 removals and the three peak bonuses


@cache
def deal(number: int, joker: bool = False) -> Deal:
    return Deal.from_number(number, joker=joker)


def deal_for(number: int, rules: Rules) -> Deal:
    """The deal of ``number`` with the cards ``rules`` need (53 with the joker)."""
    return deal(number, rules.joker)


@cache
def naive_answer(number: int, rules: Rules, scheme: str) -> Answer:
    """The naive twin's answers for deal ``number`` from its opening, computed once per
    test run (several test files check the same deals)."""
    return naive_solve(deal_for(number, rules), rules, scheme)


# --- replaying a solver's line on the plain-Python game ---------------------------------


def start_game(sol) -> Game:
    """A fresh game at the solution's start: its ``start`` position when it has one
    (a solve from a position), else the opening of its deal."""
    start = getattr(sol, "start", None)
    return start.game() if start is not None else Game(sol.deal, sol.rules)


def replay(sol) -> Game:
    """Play the line of ``sol`` (its tokens) on the plain-Python game from its start;
    an illegal move raises IllegalMoveError."""
    game = start_game(sol)
    for token in sol.tokens:
        game.play(token)
    return game


def line_problems(sol) -> list[str]:
    """Everything wrong with the line of a :class:`~tripeaks_solver.solver.solve.Solution`
    (empty when it is right): it must be legal on the plain-Python game, end as claimed
    (a win when winnable; with the optimum asked for, a finished game scoring exactly
    ``best_score`` under its scheme, with ``min_draws`` draws on a win under the app and
    cards-left schemes), and ``steps()`` must follow it."""
    optimal = sol.best_score is not None
    where = (f"deal {sol.deal.number} {label(sol.rules)} scheme={sol.scheme} "
             f"optimal={optimal}")
    try:
        game = replay(sol)
    except IllegalMoveError as exc:
        return [f"{where}: line {sol.tokens} is illegal: {exc!r}"]
    problems = []
    status = game.status
    draws = sol.tokens.count("draw")
    if not optimal:  # a winning line, or none on a lost deal
        if sol.winnable and status is not Status.WON:
            problems.append(f"{where}: winnable but the line ends {status}")
        if not sol.winnable and sol.tokens:
            problems.append(f"{where}: lost but a line of {len(sol.tokens)} moves")
    elif sol.scheme == "original":
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
        if sol.winnable and game.stock_index != sol.min_draws:
            problems.append(f"{where}: line draws {game.stock_index} in all, "
                            f"min_draws {sol.min_draws}")
        if not sol.winnable and TABLEAU - game.cards_left > sol.max_removed:
            problems.append(f"{where}: line removes more than max_removed {sol.max_removed}")
        if sol.scheme == "app" and game.score != sol.best_score:
            problems.append(f"{where}: line scores {game.score}, best {sol.best_score}")
        if sol.scheme == "cards-left" and game.score_under("cards-left") != (
                sol.best_score, sol.best_moves):
            problems.append(f"{where}: line ends with (cards left, moves) "
                            f"{game.score_under('cards-left')}, best "
                            f"{(sol.best_score, sol.best_moves)}")
    if status is Status.STUCK and game.stock_left != 0:
        problems.append(f"{where}: stuck with {game.stock_left} cards in stock")
    # steps(): one per move, numbered from 1, drawing where the line draws, with the
    # tokens of the line, and the scores and cleared peaks the game saw.
    steps = sol.steps()
    if [s.number for s in steps] != list(range(1, len(sol.tokens) + 1)):
        problems.append(f"{where}: steps are numbered {[s.number for s in steps]}")
    elif [s.token for s in steps] != sol.tokens or [s.is_draw for s in steps] != [
            t == "draw" for t in sol.tokens]:
        problems.append(f"{where}: steps() do not follow the line")
    elif steps:
        last = game.cards_left if sol.scheme == "cards-left" else game.score_under(sol.scheme)
        if steps[-1].score != last:
            problems.append(f"{where}: last step scores {steps[-1].score}, game {last}")
        cleared = game.peaks_cleared - start_game(sol).peaks_cleared
        if sum(s.peaks_cleared for s in steps) != cleared:
            problems.append(f"{where}: steps clear {sum(s.peaks_cleared for s in steps)} "
                            f"peaks, the game {cleared}")
    if draws != sum(s.is_draw for s in steps):
        problems.append(f"{where}: {draws} draws in the tokens, steps disagree")
    return problems


# --- hand-built deals ------------------------------------------------------------------

# A removal order that respects covering: bottom row, then row 3, row 2, the tops
# (each left to right).
BOTTOM_UP = list(range(18, 28)) + list(range(9, 18)) + list(range(3, 9)) + list(range(3))
# 29 ranks, each one from the last, none used more than 4 times, no K–A step:
# A 2 … K, Q … A, 2 3 4 5. The first is the waste, the others go to BOTTOM_UP in order.
CHAIN = list(range(13)) + list(range(11, -1, -1)) + [1, 2, 3, 4]


def chain_deal(start_in_stock: bool = False, joker_at: int | None = None) -> Deal:
    """The tableau clears in BOTTOM_UP order along CHAIN from the waste, with no draw.

    ``start_in_stock``: the chain's first card is the first stock card instead, under a
    waste K that no bottom card (ranks 2 … J) follows, so the win needs one draw.
    ``joker_at`` (an index into the 28 removals): that card is the joker, in a 53-card
    deal; the card it replaces goes to the stock.
    """
    used: Counter[int] = Counter()
    cards = []
    for rank in CHAIN:
        cards.append(Card.of(rank, used[rank]))
        used[rank] += 1
    if joker_at is not None:
        cards[joker_at + 1] = Card(JOKER)
    tableau = dict(zip(BOTTOM_UP, cards[1:], strict=True))
    waste, first_stock = cards[0], []
    if start_in_stock:
        waste, first_stock = Card.of(12, used[12]), [cards[0]]
    size = 52 if joker_at is None else 53
    placed = {*cards, waste}
    rest = [Card(c) for c in range(size) if c not in placed]
    return Deal.from_cards([*(tableau[p] for p in range(TABLEAU)), waste, *first_stock, *rest])


ALL_TOKENS = [r + s for s in "cdhs" for r in "A23456789TJQK"]
# The bottom row of the example in docs/rules.md (the start of TP1-E-AAAAAAB).
BOTTOM = ["3♠", "5♠", "K♣", "4♠", "2♦", "A♠", "K♦", "8♥", "7♣", "9♠"]


def layout(tableau: dict[int, str], waste: str, stock_last: list[str] = (),
           joker: bool = False) -> Deal:
    """The given cards at the given positions and on the waste; every other place gets
    an unused card in deck order (the joker last, when ``joker``), and ``stock_last``
    ends the stock in that order."""
    fixed = {Card.parse(t).token for t in [*tableau.values(), waste, *stock_last]}
    spare = [t for t in ALL_TOKENS + (["Jk"] if joker else []) if t not in fixed]
    cards = [tableau[p] if p in tableau else spare.pop(0) for p in range(TABLEAU)]
    return Deal.from_cards([*cards, waste, *spare, *stock_last])


# --- parsing that may fail --------------------------------------------------------------


def parse_or_error(parse: Callable[[str], object], text: str):
    """``parse(text)``, or the InputError it raised, whose message must be one line; any
    other exception escapes and fails the test."""
    try:
        return parse(text)
    except InputError as exc:
        assert "\n" not in str(exc)
        return exc
