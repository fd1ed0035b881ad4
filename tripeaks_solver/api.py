"""The Python API: ``import tripeaks_solver as tp``, then ``tp.solve``, ``tp.hint``,
``tp.analyze``, ``tp.play``, ``tp.peek``, ``tp.win_probability``, ``tp.difficulty`` and
``tp.batch`` (docs/api.md shows each).

Each function answers what the command of the same name answers, with the same
defaults. A deal is what the commands take (:func:`deal_of` reads it for all): a
:class:`Deal`, a game code (``"TP1-E-AAAAAAD"``), a deal number (``12345``, as
``tripeaks-solve 12345``) or its cards in line order (52 tokens, 53 with the joker, in
one string or a list, as ``Deal.from_cards`` takes them); ``rules`` a :class:`Rules`,
``"easy"`` or ``"classic"``, or None for the rules of the deal's code (Easy for a deal
without one); a 53-card deal is played with the joker. Moves are ``replay``'s tokens,
in one string (``"8h d 4s"``) or a list. ``hint``, ``analyze`` and ``peek`` also take a
layout with ``??`` cards (a line, as ``--layout``) or a game seen in an app, as a
:class:`~tripeaks_solver.model.observed.Start` (``games.records.make_start("seen",
cards, rules)``), whose moves carry the cards they showed (``Kc:7s``, ``d:9h``). The
results are frozen dataclasses that print in a line and whose ``to_dict()`` is the
command's ``--json`` object (docs/json.md). Errors are those of the library:
``InputError`` for bad input, ``IllegalMoveError`` for an illegal move (its message
says which, as the commands do).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from numbers import Integral
from typing import Any

from .analysis import chances as _chances
from .analysis import difficulty as _difficulty
from .analysis import hints as _hints
from .analysis import peek as _peek
from .analysis import players as _players
from .analysis import probability as _probability
from .analysis.difficulty import DEFAULT_GAMES, Difficulty
from .analysis.fair import View
from .analysis.player_spec import parse_player
from .analysis.players import PlayResult
from .analysis.probability import WinShare
from .analysis.reports import AnalysisReport, HintReport, PeekReport, new_seed
from .batch.run import solve_range
from .errors import InputError
from .limits import REVIEW_SAMPLES
from .model.codes import DEAL_COUNT, GameCode, is_deal_number, tp_code
from .model.dealing import Deal
from .model.game import UNDO_LIMIT, Status
from .model.layout import UNKNOWN, Layout
from .model.moves import Move
from .model.observed import Observed, ObservedGame, Start, parse_observed
from .model.pysol import PysolGame, is_pysol
from .model.rules import EASY, Rules
from .model.scoring import Scheme, check_scheme
from .solver import solve as _solver
from .solver.solve import Solution

# A Deal, a game code, a deal number, or the cards in line order (a string or a list).
DealLike = Deal | GameCode | PysolGame | str | int | Iterable[str | int]
RulesLike = Rules | str | None
MovesLike = str | Iterable[str | Move | Observed]
# A scoring scheme: ``Scheme.PYSOL`` or the name the commands take, ``"pysol"``.
SchemeLike = Scheme | str


# Once per scheme: the kernels load (or compile) before the first deal's clock starts.
_warm_up = cache(_solver.warm_up)


def deal_of(deal: DealLike, rules: RulesLike = None) -> tuple[Deal, Rules]:
    """The deal a ``tp`` function plays, and the rules it plays it under.

    ``deal``: a :class:`Deal`; a game code (``"TP1-E-AAAAAAD"``, or a :class:`GameCode`);
    a PySolFC game number (``"pysol:123456"``, dealt as PySolFC deals it, docs/pysol.md);
    a deal number (``12345`` or ``"12345"``; a Deal of a number too), named by its code
    under the rules played, as ``tripeaks-solve 12345`` names it; or the cards in line order (52 tokens, 53 with
    the joker: one string, spaces or commas between, or a list of tokens or card
    numbers, as :meth:`Deal.from_cards` takes them). ``rules``: a :class:`Rules`,
    ``"easy"`` or ``"classic"``, or None for the rules of the deal's code (Easy for a
    deal without one); a 53-card deal is played with the joker."""
    if isinstance(deal, Integral) and not isinstance(deal, bool):
        return _numbered(int(deal), rules)
    if isinstance(deal, str) and is_pysol(deal) or isinstance(deal, PysolGame):
        deal = Deal.from_pysol(deal)
    if isinstance(deal, str):
        words = deal.replace(",", " ").split()
        if len(words) == 1 and is_deal_number(words[0]):
            return _numbered(tp_code(words[0]).number, rules)
        if len(words) == 1:
            deal = Deal.from_code(words[0])
        elif UNKNOWN in words:
            raise InputError("a layout with ?? cards is not a deal: tp.hint, tp.analyze "
                             "and tp.peek take it, tp.win_probability gives its share")
        else:
            deal = Deal.from_cards(words)
    elif isinstance(deal, GameCode):
        deal = Deal.from_code(deal)
    elif isinstance(deal, Iterable) and not isinstance(deal, Deal | bytes):
        deal = Deal.from_cards(deal)
    if not isinstance(deal, Deal):
        raise TypeError("a deal is a Deal, a game code, a deal number or its cards, not "
                        f"{type(deal).__name__}")
    played = _rules(deal, rules)
    if deal.number is not None and deal.code is None:  # named as the commands name it
        deal = Deal(deal.cards, deal.number, str(GameCode(deal.number, played.name,
                                                          played.joker)))
    return deal, played


def _numbered(number: int, rules: RulesLike) -> tuple[Deal, Rules]:
    """The deal of a deal number, with the code of the rules it is played under."""
    if not 0 <= number < DEAL_COUNT:
        shown = number if abs(number) < 10**30 else f"of {len(hex(number)) - 2} hex digits"
        raise InputError(f"deal number {shown} is outside 0 … {DEAL_COUNT - 1}")
    return deal_of(Deal.from_number(number, _rules(None, rules).joker), rules)


def _rules(deal: Deal | None, rules: RulesLike) -> Rules:
    if isinstance(rules, Rules):
        chosen = rules
    elif isinstance(rules, str):
        chosen = Rules.named(rules)
    elif rules is None:
        chosen = Rules.named(GameCode.parse(deal.code).rules) if deal and deal.code else EASY
    else:
        raise TypeError(f"rules are Rules, 'easy' or 'classic', not {type(rules).__name__}")
    return chosen.with_options(joker=True) if deal and deal.has_joker else chosen


def _start(deal: DealLike | Layout | Start, rules: RulesLike) -> Start:
    """The start of a game on ``deal``, as the commands name it: its code under the
    rules played (``TP1-C-…`` under Classic), or its cards (a ``layout``, ``??`` for a
    card not known); a :class:`Start` as it is (played under its own rules)."""
    if isinstance(deal, Start):
        if rules is not None and (Rules.named(rules) if isinstance(rules, str)
                                  else rules) != deal.rules:
            raise InputError(f"the game is played under {deal.rules} rules, not {rules}")
        return deal
    if isinstance(deal, str) and UNKNOWN in deal.replace(",", " ").split():
        deal = Layout.parse(deal)
    if isinstance(deal, Layout):
        return Start.of_layout(deal, _rules(None, rules))
    d, r = deal_of(deal, rules)
    if d.pysol is not None:
        if r.joker:
            raise InputError(f"pysol:{d.pysol} is a PySolFC deal of 52 cards: the joker "
                             "variant needs a game code (TP1-EJ-…)")
        return Start.of_deal("code", d.title, d, r)
    if d.number is not None:
        return Start.of_deal("code", str(GameCode(d.number, r.name, r.joker)), d, r)
    return Start.of_deal("layout", d.line(), d, r)


def _record(moves: MovesLike) -> list[Observed]:
    items = [moves] if isinstance(moves, str) else list(moves)
    words = [m for m in items if isinstance(m, str)]
    if len(words) == len(items):
        return parse_observed(words)  # "8h d 4s" and ["8h", "d"] alike
    return [m if isinstance(m, Observed) else Observed(m) if isinstance(m, Move)
            else Observed.parse(m) for m in items]


def solve(deal: DealLike, rules: RulesLike = None, *, scoring: SchemeLike = Scheme.APP,
          optimal: bool = True, must_clear: bool = False) -> Solution:
    """Solve ``deal`` from its opening: winnable, the best score of ``scoring``
    (``app``, ``original``, ``cards-left``, ``pysol``: a :class:`Scheme` or its name,
    as every function here takes it), the fewest draws and a best line
    (``optimal=False``: winnability only, faster). ``must_clear``: the best of the
    lines that clear the board. ``.to_dict()`` is the object of ``solve --json``."""
    d, r = deal_of(deal, rules)
    scheme = check_scheme(scoring)
    _warm_up(scheme)
    return _solver.solve(d, r, optimal=optimal, scheme=scheme, must_clear=must_clear)


def hint(deal: DealLike | Layout | Start, moves: MovesLike = (), rules: RulesLike = None, *,
         scoring: SchemeLike = Scheme.APP, fair: bool = False, must_clear: bool = False,
         samples: int = 1000, score_samples: int = 100, seed: int | None = None
         ) -> HintReport:
    """What every legal move is worth after ``moves``: exactly (``report.exact``:
    winnable and best score after each move, a best line) or, with ``fair``, from only
    the cards the player has seen (``report.advice``: the share of ``samples``
    completions still winnable after each move, mean best scores over
    ``score_samples`` of them, and the fair player's move; ``seed`` None draws one,
    kept in the report). ``.to_dict()`` is the object of ``hint --json``."""
    scheme = check_scheme(scoring)
    start = _start(deal, rules)
    game = ObservedGame.replay(start, _record(moves))
    fair = fair or not game.exact
    if fair and must_clear:
        raise InputError("must_clear is for the exact hint, not a fair one")
    position = game.position()
    if not fair:
        exact = _hints.hint(position, scheme, must_clear)
        return HintReport.of(game, scheme, False, exact=exact, must_clear=must_clear)
    seed = new_seed() if seed is None else seed
    advice = _chances.fair_advice(View.of(position, game.known_places), samples, seed,
                                  score_samples, scheme)
    return HintReport.of(game, scheme, True, advice=advice)


def analyze(deal: DealLike | Layout | Start, moves: MovesLike, rules: RulesLike = None, *,
            scoring: SchemeLike = Scheme.APP, fair: bool = False,
            samples: int = REVIEW_SAMPLES,
            seed: int | None = None) -> AnalysisReport:
    """Judge every move of the record ``moves`` (undos included): as it could be seen
    then (its chance, over ``samples`` guessed games drawn with ``seed``, None draws
    one, against the advice's move: ``?!``, ``?``, ``??``, the better move, the luck),
    and exactly when the deal is known (the best final score before and after it, the
    points lost, the marks of hindsight: ``??`` threw the win away, ``?`` lost points,
    ``!`` the only move that kept the win, and where the game was lost);
    ``fair`` adds the ceilings (the share of completions still winnable before and after
    each move). ``.to_dict()`` is the object of ``analyze --json``."""
    scheme = check_scheme(scoring)
    start = _start(deal, rules)
    record = _record(moves)
    ObservedGame.replay(start, record)  # an illegal move, named, before any search
    seed = new_seed() if seed is None else seed
    review = _hints.analyze_game(start, record, scheme, fair=fair, samples=samples,
                                 seed=seed)
    return AnalysisReport(start, scheme, fair, samples, seed, review)


def play(deal: DealLike, player: str = "greedy", rules: RulesLike = None, *, seed: int = 0,
         max_moves: int | None = None) -> PlayResult:
    """Let ``player`` (``random``, ``greedy``, ``careful``, ``pimc[:N]``,
    ``rollout[:N]``, ``fair[:N]``, ``perfect``) play ``deal`` to the end (or for
    ``max_moves`` moves), ``seed`` fixing its choices. Every player but ``perfect`` sees
    only what a person sees. ``.to_dict()`` is the object of ``play --json``."""
    d, r = deal_of(deal, rules)
    return _players.play(d, parse_player(player).label, r, seed=seed, max_moves=max_moves)


def peek(deal: DealLike | Layout | Start, moves: MovesLike = (), rules: RulesLike = None, *,
         scoring: SchemeLike = Scheme.APP, undo_limit: int = UNDO_LIMIT, **options: Any
         ) -> PeekReport:
    """The plan of taps (moves and undos, never more than ``undo_limit`` moves deep)
    that shows every card, from where the game stands after ``moves``, simulated on
    ``deal``; then, when every card became known, the best line from there
    (``report.best``). ``options`` go to the planner
    (:func:`tripeaks_solver.analysis.peek.plan_peek`). ``.to_dict()`` is the object of
    ``peek --json``. Under ``scoring="pysol"`` there is no undo (PySolFC's scored games
    have none): ``undo_limit`` is 0 and the plan has no taps to take back."""
    scheme = check_scheme(scoring)
    if scheme == Scheme.PYSOL:
        undo_limit = 0
    start = _start(deal, rules)
    game = ObservedGame.replay(start, _record(moves))
    d = game.deal
    if d is None:
        raise InputError("peek simulates the plan on a deal whose cards are all known (a "
                         "code, a full layout, or a record that has shown every card)")
    status = game.position().status
    if status is not Status.IN_PLAY:
        raise InputError(f"the game is over ({status.value}) after move {len(game.record)}: "
                         "nothing to peek")
    knowledge = Layout.of_deal(d, game.known_places)
    plan = _peek.plan_peek(d, start.rules, knowledge, base=game.moves, undo_limit=undo_limit,
                           **options)
    best = _solver.solve(game.position(), scheme=scheme) if plan.complete else None
    return PeekReport(start, scheme, undo_limit, plan, best)


def win_probability(layout: Layout | str, rules: Rules | str = EASY, *, samples: int = 1000,
                    seed: int | None = None) -> WinShare:
    """The share of the completions of ``layout`` (52 tokens, ``??`` for a card not
    known) that can be won: exact when there are at most ``samples`` distinct ones,
    else over ``samples`` random completions seeded with ``seed``. ``.to_dict()`` is
    the object of ``solve --layout … --json``."""
    chosen = Rules.named(rules) if isinstance(rules, str) else rules
    return _probability.win_probability(layout, chosen, samples, seed)


def difficulty(deal: DealLike, rules: RulesLike = None, *, games: int = DEFAULT_GAMES,
               seed: int = 0) -> Difficulty:
    """The share of ``games`` seeded games the greedy player (random tie-breaks) loses on
    ``deal`` (1 for a deal the solver calls lost), and its rating word, as ``batch
    --difficulty`` computes them. ``.to_dict()`` has the batch CSV's columns."""
    d, r = deal_of(deal, rules)
    return _difficulty.difficulty(d, r, games, seed)


# ``tp.batch`` is the package ``tripeaks_solver.batch`` made callable: calling it calls this.
batch = solve_range

__all__ = ["analyze", "batch", "deal_of", "difficulty", "hint", "peek", "play", "solve",
           "win_probability"]
