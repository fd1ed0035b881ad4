"""The limits and defaults that more than one part of the package keeps, each written
once, with why it is that number. Any module may import it (as errors.py); it imports
nothing."""

MAX_SAMPLES = 1_000_000
"""The most completions a fair search takes from a command or the API (about an hour of
solving: beyond, a typo rather than a wish)."""

PLAYER_SAMPLES = 100_000
"""The most completions a player of a batch run or a ``play`` looks at a move
(``fair:N``, ``pimc:N``): each of its moves solves them all."""

PAGE_SAMPLES = 5000
"""The most completions the page may ask its advice to look at (the coach's default is
1,000): a request must not pin the server."""

REVIEW_SAMPLES = 1000
"""The guessed games a move when a game is judged (``analyze``'s default): the advice's
default (the coach's and the page's), so that the review of a game reuses the chances
its advice computed and gives the numbers it showed."""

LAYOUT_SAMPLES = 1000
"""The random completions solved for a layout with ``??`` cards (``solve --layout``'s
default, and the solve page's, so that both give the same share for the same seed)."""

MAX_ADVICE_SEED = 2**63 - 1
"""The largest seed of the guessed games (the advice, the judgement, a peek's samples, a
layout's completions): any int64, the page's and the terminal's alike, so that an advice
given on the page can be asked again with ``hint --fair --seed S``."""

__all__ = ["LAYOUT_SAMPLES", "MAX_ADVICE_SEED", "MAX_SAMPLES", "PAGE_SAMPLES", "PLAYER_SAMPLES", "REVIEW_SAMPLES"]
