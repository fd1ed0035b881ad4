"""The solve page's data: a whole deal (a code or a full layout) under both rule sets,
with each rule set's best line as boards to step through; a layout with cards not known
(``??``) gets the share of its completions that can be won, as ``solve --layout`` gives
it (LAYOUT_SAMPLES random completions, seed SHARE_SEED: the same text, the same figure)."""

from __future__ import annotations

from ..analysis.fair import Cancelled, StopCheck
from ..errors import InputError
from ..games.turns import score_of
from ..limits import LAYOUT_SAMPLES
from ..model.codes import GameCode
from ..model.dealing import Deal
from ..model.game import Game
from ..model.geometry import TABLEAU_SIZE
from ..model.i18n import _
from ..model.layout import Layout
from ..model.pysol import is_pysol, pysol_info
from ..model.rules import RULE_ORDER, Rules
from ..model.scoring import SCHEMES, Scheme
from .payloads import Frame, RulesVerdict, Solved

MAX_TEXT = 1000
SHARE_SEED = 0


def read_deal(text: str) -> tuple[Deal | Layout, str, str | None]:
    """The deal a code, a PySolFC game number (``pysol:123456``, under PySolFC's rules,
    Easy) or a full layout names (a layout with ``??`` cards as itself), the title to
    show, and the rule set a code names (None for a layout, which names none)."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise InputError(_("give a game code (TP1-E-AAAAAAB) or a layout of 52 cards"))
    if is_pysol(text):
        deal = Deal.from_pysol(text)
        return deal, deal.title, "easy"
    words = text.replace(",", " ").split()
    if len(words) == 1:
        code = GameCode.parse(words[0])
        return Deal.from_number(code.number, code.joker), str(code), code.rules
    layout = Layout.parse(" ".join(words))
    if not layout.complete:
        return layout, "layout", None
    return layout.deal(), "layout", None


def frame(game: Game, scoring: Scheme) -> Frame:
    """The board as the game shows it, with every card named (face-down ones too)."""
    from ..model.position import Position

    position = Position.of(game)
    return {"board": [{"place": p, "card": game.deal.cards[p].token,
                       "removed": bool(position.removed >> p & 1),
                       "face_up": position.face_up(p)} for p in range(TABLEAU_SIZE)],
            "waste": None if position.waste is None else position.waste.token,
            "stock_left": position.stock_left, "score": score_of(position, scoring),
            "status": position.status.value}


def solve_page(text: str, scoring: Scheme | str = Scheme.APP,
               should_stop: StopCheck | None = None) -> Solved:
    """Both rule sets' verdicts, best scores and best lines, step by step; for a layout
    with ``??`` cards, the share of its completions won (``unknown`` how many cards are
    not known, each rule set's ``share``; no line). ``should_stop`` is asked before each
    rule set's search (Cancelled: its client left)."""
    from ..solver.solve import solve

    if scoring not in SCHEMES:
        raise InputError(f"scoring: one of {', '.join(SCHEMES)}")
    scheme = Scheme(scoring)
    deal, title, code_rules = read_deal(text)
    by_rules: list[RulesVerdict] = []
    out: Solved = {"title": title, "code_rules": code_rules, "scoring": str(scheme),
                   "line": deal.line(), "rules": by_rules, "unknown": 0,
                   "pysol": None}  # a deal's: set below
    if isinstance(deal, Layout):
        return {**out, "pysol": None, "unknown": len(deal.unknown_places),
                "rules": _shares(deal, should_stop)}
    out["pysol"] = pysol_info(deal, Rules.named("easy"), scheme)
    for name in RULE_ORDER:
        if should_stop is not None and should_stop():
            raise Cancelled
        rules = Rules.named(name).with_options(joker=deal.has_joker)
        solution = solve(deal, rules, scheme=scheme)
        game = Game(deal, rules)
        frames = [frame(game, scheme)]
        for move in solution.moves:
            game.play(move)
            frames.append(frame(game, scheme))
        by_rules.append({"rules": name, "winnable": solution.winnable,
                         "best_score": solution.best_score,
                         "moves": solution.tokens, "frames": frames, "share": None})
    return out


def _shares(layout: Layout, should_stop: StopCheck | None) -> list[RulesVerdict]:
    """Each rule set's share of the completions of ``layout`` won (win_probability)."""
    from ..analysis.probability import win_probability

    out: list[RulesVerdict] = []
    for name in RULE_ORDER:
        if should_stop is not None and should_stop():
            raise Cancelled
        rules = Rules.named(name)  # a layout has no joker
        share = win_probability(layout, rules, LAYOUT_SAMPLES, SHARE_SEED)
        low, high = share.interval
        out.append({"rules": name, "winnable": None, "best_score": None, "moves": [],
                    "frames": [], "share": {"wins": share.wins, "total": share.total,
                                            "exact": share.exact, "share": share.share,
                                            "low": low, "high": high}})
    return out


__all__ = ["SHARE_SEED", "read_deal", "solve_page"]
