"""tripeaks_solver: exact TriPeaks solitaire analysis.

``import tripeaks_solver as tp``: ``tp.solve``, ``tp.hint``, ``tp.analyze``, ``tp.play``,
``tp.peek``, ``tp.win_probability``, ``tp.difficulty`` and ``tp.batch`` answer what the
commands answer (docs/api.md); ``tp.Deal.from_code`` names a deal. The model (cards,
codes, dealing, geometry, rules, game) is plain Python; the solver runs numba kernels.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker reads for the names loaded on first use below
    from .analysis.difficulty import Difficulty
    from .analysis.players import PlayResult
    from .analysis.probability import WinShare
    from .analysis.reports import AnalysisReport, HintReport, PeekReport
    from .api import analyze, difficulty, hint, peek, play, solve, win_probability
    from .batch.run import solve_range as batch
    from .errors import IllegalMoveError, InputError, TriPeaksError
    from .model.cards import Card, parse_card, parse_cards
    from .model.codes import GameCode, deal_id, parse_deal_id
    from .model.dealing import Deal
    from .model.game import Game, Status
    from .model.layout import Layout
    from .model.moves import Move
    from .model.rules import CLASSIC, EASY, Rules
    from .model.scoring import Scheme
    from .solver.solve import Solution

# Loaded on first use (PEP 562): the console entry point (console.py) must start
# before numpy, so that a Ctrl-C while the modules load is caught there, and
# `import tripeaks_solver` loads neither numpy nor numba nor click.
_HOMES = {"Card": "model.cards", "parse_card": "model.cards", "parse_cards": "model.cards",
          "GameCode": "model.codes", "deal_id": "model.codes", "parse_deal_id": "model.codes",
          "Deal": "model.dealing", "IllegalMoveError": "errors", "InputError": "errors",
          "TriPeaksError": "errors", "Game": "model.game", "Status": "model.game", "CLASSIC": "model.rules",
          "EASY": "model.rules", "Rules": "model.rules", "Layout": "model.layout",
          "Move": "model.moves", "Scheme": "model.scoring",
          # the API (api.py) and its results
          "solve": "api", "hint": "api", "analyze": "api", "play": "api", "peek": "api",
          "win_probability": "api", "difficulty": "api",
          "batch": "batch",  # the package, callable (batch/__init__.py): api.batch
          "Solution": "solver.solve", "HintReport": "analysis.reports",
          "AnalysisReport": "analysis.reports", "PeekReport": "analysis.reports",
          "PlayResult": "analysis.players", "WinShare": "analysis.probability",
          "Difficulty": "analysis.difficulty"}

__all__ = [
    "CLASSIC",
    "EASY",
    "AnalysisReport",
    "Card",
    "Deal",
    "Difficulty",
    "Game",
    "GameCode",
    "HintReport",
    "IllegalMoveError",
    "InputError",
    "Layout",
    "Move",
    "PeekReport",
    "PlayResult",
    "Rules",
    "Scheme",
    "Solution",
    "Status",
    "TriPeaksError",
    "WinShare",
    "analyze",
    "batch",
    "deal_id",
    "difficulty",
    "hint",
    "parse_card",
    "parse_cards",
    "parse_deal_id",
    "peek",
    "play",
    "solve",
    "win_probability",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = import_module(f".{home}", __name__)
    value = module if home == name else getattr(module, name)
    globals()[name] = value
    return value
