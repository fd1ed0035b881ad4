"""tripeaks_solver: exact TriPeaks solitaire analysis.

The model (cards, codes, dealing, geometry, rules, game) is plain Python; the solver
runs numba kernels over integer tables and returns :class:`Solution` objects.
"""

from .cards import Card, parse_card, parse_cards
from .codes import GameCode, deal_id, parse_deal_id
from .dealing import Deal
from .errors import IllegalMoveError, InputError, TriPeaksError
from .game import Game, Status
from .rules import CLASSIC, EASY, Rules

__all__ = [
    "CLASSIC",
    "EASY",
    "Card",
    "Deal",
    "Game",
    "GameCode",
    "IllegalMoveError",
    "InputError",
    "Rules",
    "Status",
    "TriPeaksError",
    "deal_id",
    "parse_card",
    "parse_cards",
    "parse_deal_id",
]
__version__ = "0.1.0"
