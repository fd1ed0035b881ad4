"""What the page knows of the game, sent by the server: the one source of it.

The page's scripts (web/static/*.js) hold no copy of a rule the Python side defines:
the board's geometry, how a card is written, how many cards a player sees at the
start, the languages, the advice's limits and the review's grades come from here (FACTS of docs/web.md),
put in the page at its first paint (``<script type="application/json"
id="page-facts">``, data the page reads, never runs) and served by ``GET /api/facts``.
tests/test_web_single_source.py fails when a static file writes one of them again.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import product

from ..analysis.judgement import BLUNDER, DEFAULT_POINT_GRADES, INACCURACY, MISTAKE
from ..limits import MAX_ADVICE_SEED, PAGE_SAMPLES, REVIEW_SAMPLES
from ..model.cards import DECK_SIZE, RANK_NAMES, RANKS, SUIT_SYMBOLS, SUITS, Card
from ..model.dealing import STOCK_SIZE, WASTE_INDEX
from ..model.geometry import COVERED_BY, ROWS, TABLEAU_SIZE, column_of
from ..model.i18n import LANGUAGE_NAMES
from ..model.observed import seen_places
from ..model.rules import EASY
from .payloads import PageFacts, StartCount


def starts() -> list[StartCount]:
    """The cards a player sees at the start (``--seen``'s count), for each choice of the
    variants that change it; ``waste``: the last of them is the waste card."""
    out: list[StartCount] = []
    for open_, empty in product((False, True), repeat=2):
        places = seen_places(EASY.with_options(open=open_, empty_waste=empty))
        out.append({"open": open_, "empty_waste": empty, "count": len(places),
                    "waste": places[-1] == WASTE_INDEX})
    return out


def page_facts() -> PageFacts:
    """FACTS (docs/web.md): what the page knows of the game, from the modules that
    define it."""
    joker = Card(DECK_SIZE)
    bottom = range(*ROWS[-1])
    return {
        "geometry": {
            "tableau_size": TABLEAU_SIZE, "rows": [list(row) for row in ROWS],
            "covered_by": [list(c) for c in COVERED_BY],
            "columns": [column_of(p) for p in range(TABLEAU_SIZE)],
            "width": 2 * len(bottom),  # half-card units: the bottom row, card by card
            "stock_size": STOCK_SIZE},
        "cards": {"ranks": RANKS, "suits": SUITS, "rank_names": list(RANK_NAMES),
                  "suit_symbols": dict(zip(SUITS, SUIT_SYMBOLS, strict=True)),
                  "joker": joker.token, "joker_symbol": joker.pretty, "deck_size": DECK_SIZE},
        "starts": starts(),
        "languages": [{"code": code, "name": name} for code, name in LANGUAGE_NAMES.items()],
        # the seed as digits: a JavaScript number is exact only up to 2**53
        "limits": {"default_samples": REVIEW_SAMPLES, "max_samples": PAGE_SAMPLES,
                   "max_seed": str(MAX_ADVICE_SEED)},
        # the review's grades, ?! ? ??: points of chance lost (of 100), expected points
        "marks": {"chance": [round(100 * g) for g in (INACCURACY, MISTAKE, BLUNDER)],
                  "points": [round(g) for g in DEFAULT_POINT_GRADES]},
    }


@cache
def facts_json() -> bytes:
    """:func:`page_facts` as JSON (the same for every request and language)."""
    return json.dumps(page_facts(), ensure_ascii=False, separators=(",", ":")).encode()


def with_facts(html: str) -> str:
    """The page's HTML with FACTS inside its head, read by the page's facts.js."""
    data = facts_json().decode().replace("<", "\\u003c")  # no "</script>" inside
    tag = f'<script type="application/json" id="page-facts">{data}</script>\n'
    return html.replace("</head>", tag + "</head>", 1)


__all__ = ["facts_json", "page_facts", "starts", "with_facts"]
