"""Make tests/data/pysol-deals.tsv: Three Peaks deals made by PySolFC's own code.

Not a test and not part of the package: it runs PySolFC itself (GPL, not in this
repository), with its GUI stubbed, on many game numbers as a player types them:

    git -C PySolFC archive 7a3d146a pysollib | tar x -C /tmp/pysolfc
    python tests/data/make_pysol_golden.py /tmp/pysolfc KNOWN.tsv > tests/data/pysol-deals.tsv

KNOWN.tsv is the team's reference file of 14 games (form, winnable, best_pysol, cards);
its rows are checked against PySolFC's output here and copied with their winnability.

For each number: ``construct_random`` (pysollib/pysolrandom.py) reads the text as PySolFC's
"Select game by number" dialog does; ``Game.createCards`` and ``Game.shuffle``
(pysollib/game/__init__.py) make and shuffle the cards; ``ThreePeaks.startGame``
(pysollib/games/threepeaks.py) deals them onto PySolFC's real stacks (its rows, waste and
talon); the cards are read off those stacks and the number off ``Game.getGameNumber``.
Only the canvas, card pictures, fonts and mouse bindings are stubbed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

SUITS = "cshd"  # PySolFC's suit order: clubs, spades, hearts, diamonds
RANKS = "A23456789TJQK"
THREE_PEAKS = 22231  # "Three Peaks"; 22216 Scored, 22217 Open, 22218 Scored/Open


class _Anything:
    """A canvas item, image or widget: every method does nothing."""

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


def _load(pysolfc: str) -> dict[str, Any]:
    sys.path.insert(0, pysolfc)
    import pysollib.stack
    from pysollib.acard import AbstractCard
    from pysollib.gamedb import GAME_DB
    from pysollib.games import threepeaks  # registers the four games
    from pysollib.pysolrandom import construct_random

    pysollib.stack.MfxCanvasGroup = lambda *a, **k: _Anything()
    pysollib.stack.bind = lambda *a, **k: None

    class Card(AbstractCard):
        """A card without pictures: face up or down, as PySolFC's cards keep it."""

        def showFace(self, unhide: int = 1) -> None:
            self.face_up = 1

        def showBack(self, unhide: int = 1) -> None:
            self.face_up = 0

    return {"db": GAME_DB, "construct_random": construct_random, "Card": Card,
            "threepeaks": threepeaks}


class _Images(_Anything):
    CARDW = CARDH = CARD_XOFFSET = CARD_YOFFSET = 50
    SHADOW_XOFFSET = SHADOW_YOFFSET = 0


class _Opt(_Anything):
    randomize_place = False
    animations = 0

    def calcCustomMouseButtonsBinding(self, binding_format: str) -> str:
        return binding_format


class _App(_Anything):
    images = _Images()
    opt = _Opt()

    def getFont(self, name: str) -> tuple[str, int]:
        return ("helvetica", 12)


class _Canvas(_Anything):
    xmargin = ymargin = 50
    preview = 2


def _game(pysol: dict[str, Any], game_id: int) -> Any:
    """A game of ``game_id`` with its real stacks, as Game.create makes it."""
    info = pysol["db"].get(game_id)
    game = info.gameclass(info)
    game.app, game.canvas, game.preview, game.top = _App(), _Canvas(), 2, None
    game.createGame()
    game.allstacks = tuple(game.allstacks)
    game.sg.to_tuples()
    game.s.to_tuples()
    for stack in game.allstacks:
        stack.prepareStack()  # the talon finds its waste here

    def create_card(id: int, deck: int, suit: int, rank: int, x: int, y: int) -> Any:
        card = pysol["Card"](id, deck, suit, rank, game=game, x=x, y=y)
        card.item = _Anything()
        return card

    game._createCard = create_card
    game.cards = game.createCards()
    return game


def _token(card: Any) -> str:
    return RANKS[card.rank] + SUITS[card.suit]


def deal(pysol: dict[str, Any], text: str, game_id: int = THREE_PEAKS) -> tuple[str, str, str]:
    """(cards, number shown, which rows face up) of the game PySolFC starts for ``text``."""
    game = _game(pysol, game_id)
    game.random = pysol["construct_random"](text)
    game.random.reset()  # Game.createRandom, given a random
    game.shuffle()
    game.moves.state = game.S_INIT
    game.startGame()
    assert all(len(r.cards) == 1 for r in game.s.rows) and len(game.s.waste.cards) == 1
    tableau = [r.cards[0] for r in game.s.rows]
    stock = list(reversed(game.s.talon.cards))  # the talon's last card is drawn next
    line = " ".join(_token(c) for c in [*tableau, game.s.waste.cards[0], *stock])
    face_up = "".join(str(int(bool(c.face_up))) for c in tableau)
    return line, game.getGameNumber(format=0), face_up


def refused(pysol: dict[str, Any], text: str) -> bool:
    try:
        return pysol["construct_random"](text) is None
    except ValueError:
        return True


FORMS = [
    *map(str, range(1, 41)), "99", "100", "1000", "9999", "10000", "12345", "31998", "31999",
    "32000", "32001", "32002", "50000", "65535", "65536", "99999", "100000", "123456",
    "999999", "1000000", "2147483647", "2147483648", "4294967295", "4294967296",
    "8589934591", "8589934592", "9999999999999999", "10000000000000000", "12345678901234567",
    "99999999999999999999", "100000000000000000000", "18446744073709551615",
    "18446744073709551616",
    # forms as shown or typed: 5 and 20 digits, a #, PySolFC's ignored characters
    "00001", "00042", "#00042", "#42", "31999", "00000000000000000042", "00000000000000032000",
    "00000000000000123456", "#00000000000000123456", "12345678901234567890",
    "1 234 567", "1,234,567", "1.234.567", "1_234_567", "1-234-567", "123456L", "+123456",
    "-123456",
    # the Microsoft-compatible generator by name, across its three ranges
    "ms1", "ms2", "ms7", "ms42", "ms0042", "ms617", "ms11982", "ms31999", "ms32000",
    "ms123456", "ms1000000", "ms2147483647", "ms2147483648", "ms4294967295",
    "ms4294967296", "ms4294967297", "ms5000000000", "ms8589934590", "ms8589934591",
    # past 10^20, PySolFC's own largest number (MTRandom.MAX_SEED): its dialog takes them
    "100000000000000000001", "123456789012345678901234",
]
REFUSED = ["0", "00000", "00000000000000000000", "ms0", "ms8589934592", "ms99999999999",
           "abc", "12a", "1e5", "0x10", "MS42", "ms 42", "ms-5", "ms42L", "#ms42"]


def main(pysolfc: str, known: str) -> None:
    pysol = _load(pysolfc)
    out = sys.stdout
    out.write(HEADER)
    for line in Path(known).read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith(("#", "form")) or not line.strip():
            continue
        form, winnable, _best, cards = line.rstrip("\n").split("\t")
        line_, shown, _up = deal(pysol, form)
        assert line_ == cards, (form, line_, cards)
        out.write(f"known\t{form}\t{shown}\t{winnable}\t{cards}\n")
    rng = random.Random(51)
    samples = [str(rng.randrange(32000, 10**20)) for _ in range(120)]
    samples += [str(rng.randrange(32000, 10**7)) for _ in range(40)]
    samples += [f"ms{rng.randrange(1, 2**33)}" for _ in range(40)]
    for form in dict.fromkeys(FORMS + samples):
        if refused(pysol, form):
            out.write(f"pysolfc\t{form}\trefused\t-\t-\n")
            continue
        line_, shown, _up = deal(pysol, form)
        out.write(f"pysolfc\t{form}\t{shown}\t-\t{line_}\n")
    for form in REFUSED:
        assert refused(pysol, form), form
        out.write(f"pysolfc\t{form}\trefused\t-\t-\n")
    # The four games deal alike; the Open ones deal the peaks face up.
    for game_id in (22231, 22216, 22217, 22218):
        line_, shown, face_up = deal(pysol, "123456", game_id)
        name = pysol["db"].get(game_id).name
        out.write(f"#game\t{game_id}\t{name}\t{face_up}\t{line_}\n")
    game = _game(pysol, THREE_PEAKS)
    steps = type(game.s.rows[0]).STEP
    covers = " ".join(f"{i}:{i + steps[i]},{i + steps[i] + 1}" for i in range(len(steps)))
    out.write(f"#covered-by\t{covers}\n")
    talon, waste = game.s.talon, game.s.waste
    out.write(f"#rules\tnum_deal={talon.num_deal} max_rounds={talon.max_rounds} "
              f"waste_mod={waste.cap.mod} strictness={game.getStrictness()}\n")


HEADER = """\
# Three Peaks deals as PySolFC deals them, for the game number as a player types it (form; a # in it is
# typed, the lines of data start with their source).
# Made by tests/data/make_pysol_golden.py, which runs PySolFC's own code (pysollib at commit 7a3d146a,
# exported from its git repository; pysol-cards 0.24.0): construct_random on the typed text,
# Game.createCards and Game.shuffle, ThreePeaks.startGame on PySolFC's real stacks (canvas stubbed); the
# cards are read off its rows, waste and talon, the number off Game.getGameNumber.
# cards: tableau positions 0-27 (PySolFC's rows 0-27: row 1 = the peak tops 0-2, row 2 3-8, row 3 9-17,
# bottom row 18-27, each left to right), then the waste card, then the stock, next draw first.
# shown: the number as PySolFC shows it (its status bar adds a #); refused: PySolFC refuses the text.
# source known: the 14 games of the team's reference file (dealt by PySolFC, checked again here), with
# winnable under PySolFC's rules (K and A adjacent, one pass through the stock); pysolfc: made here.
# Lines #game: the four Three Peaks games (id, name, rows face up at the start, cards of 123456);
# #covered-by: the rows covering each row (ThreePeaks_RowStack.STEP); #rules: the talon and waste.
source\tform\tshown\twinnable\tcards
"""

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
