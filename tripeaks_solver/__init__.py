"""tripeaks_solver: exact TriPeaks solitaire analysis.

The model (cards, codes, dealing, geometry, rules, game) is plain Python; the solver
runs numba kernels over integer tables and returns :class:`Solution` objects.
"""

from importlib import import_module

# Loaded on first use (PEP 562): the console entry point (console.py) must start
# before numpy, so that a Ctrl-C while the modules load is caught there.
_HOMES = {"Card": "model.cards", "parse_card": "model.cards", "parse_cards": "model.cards",
          "GameCode": "model.codes", "deal_id": "model.codes", "parse_deal_id": "model.codes",
          "Deal": "model.dealing", "IllegalMoveError": "errors", "InputError": "errors",
          "TriPeaksError": "errors", "Game": "model.game", "Status": "model.game", "CLASSIC": "model.rules",
          "EASY": "model.rules", "Rules": "model.rules"}

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


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
