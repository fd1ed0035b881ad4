"""PySolFC's Three Peaks deals by game number (model/pysol.py), against deals made by
PySolFC's own code (tests/data/pysol-deals.tsv says how)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tripeaks_solver.errors import InputError
from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.geometry import BOTTOM_MASK, COVERED_BY
from tripeaks_solver.model.pysol import (
    MAX_NUMBER,
    MS_MAX,
    PysolGame,
    is_pysol,
    parse_pysol,
)

GOLDEN = Path(__file__).parent / "data" / "pysol-deals.tsv"


def _golden() -> tuple[list[dict[str, str]], dict[str, list[list[str]]]]:
    """The data rows, and the lines of facts (``#game``, ``#covered-by``, ``#rules``)."""
    lines = [line.split("\t") for line in GOLDEN.read_text().splitlines() if line]
    facts: dict[str, list[list[str]]] = {}
    for fields in lines:
        if fields[0] in ("#game", "#covered-by", "#rules"):
            facts.setdefault(fields[0], []).append(fields[1:])
    rows = [f for f in lines if not f[0].startswith("#")]
    header, body = rows[0], rows[1:]
    return [dict(zip(header, row, strict=True)) for row in body], facts


GOLDEN_ROWS, FACTS = _golden()
DEALT = [row for row in GOLDEN_ROWS if row["shown"] != "refused"]
REFUSED = [row["form"] for row in GOLDEN_ROWS if row["shown"] == "refused"]
# Where this tool differs from PySolFC's dialog, on purpose (docs/pysol.md): the status
# bar's "#ms42" is read; numbers past 10^20, which PySolFC never shows, are refused.
READ_THOUGH_PYSOLFC_REFUSES = {"#ms42"}


def test_the_golden_file_holds_both_sources() -> None:
    assert sum(row["source"] == "known" for row in GOLDEN_ROWS) == 14
    assert len(DEALT) > 250 and len(REFUSED) >= 10


@pytest.mark.parametrize("row", DEALT, ids=lambda r: f"{r['source']}:{r['form']}")
def test_deals_are_pysolfcs(row: dict[str, str]) -> None:
    if int(row["shown"].removeprefix("ms")) > MAX_NUMBER:
        with pytest.raises(InputError):
            Deal.from_pysol(row["form"])
        return
    deal = Deal.from_pysol(row["form"])
    assert deal.line() == row["cards"]
    assert Deal.from_pysol("pysol:" + row["form"]).line() == row["cards"]
    assert deal.pysol == row["shown"]
    # What PySolFC shows deals the same game when typed back.
    assert Deal.from_pysol(row["shown"]).line() == row["cards"]


@pytest.mark.parametrize("form", REFUSED)
def test_what_pysolfc_refuses_is_refused(form: str) -> None:
    if form in READ_THOUGH_PYSOLFC_REFUSES:
        assert parse_pysol(form).shown == form.lstrip("#")
        return
    with pytest.raises(InputError):
        parse_pysol(form)


def test_the_four_games_deal_alike() -> None:
    games = FACTS["#game"]
    assert [name for _id, name, _up, _cards in games] == [
        "Three Peaks", "Three Peaks (Scored)", "Three Peaks (Open)", "Three Peaks (Scored/Open)"]
    deal = Deal.from_pysol("123456")
    for _id, name, face_up, cards in games:
        assert cards == deal.line()
        shown = [bool(BOTTOM_MASK >> p & 1) for p in range(28)]  # the bottom row
        if "Open" in name:
            assert face_up == "1" * 28
        else:
            assert face_up == "".join(str(int(up)) for up in shown)


def test_pysolfcs_rows_are_our_positions() -> None:
    (covers,), = FACTS["#covered-by"]
    theirs = {}
    for item in covers.split():
        row, pair = item.split(":")
        theirs[int(row)] = tuple(int(p) for p in pair.split(","))
    assert theirs == {p: COVERED_BY[p] for p in range(18)}
    assert all(not COVERED_BY[p] for p in range(18, 28))


def test_the_tableau_is_pysolfcs_rows_in_our_numbering() -> None:
    # Game 2: PySolFC's first peak top (its row 0) is the Q♦, its bottom row starts 8♣,
    # its waste is the 6♠ and its talon's top card the 4♥.
    deal = Deal.from_pysol("2")
    assert deal.tableau[0].token == "Qd"
    assert deal.tableau[18].token == "8c"
    assert deal.waste.token == "6s"
    assert deal.stock[0].token == "4h"
    assert len(deal.stock) == 23


@pytest.mark.parametrize("text, ms, seed, shown", [
    ("123456", False, 123456, "00000000000000123456"),
    ("pysol:123456", False, 123456, "00000000000000123456"),
    ("PySol:#123456", False, 123456, "00000000000000123456"),
    (" pysol: 00042 ", True, 42, "ms42"),
    ("#00042", True, 42, "ms42"),
    ("42", True, 42, "ms42"),
    ("ms42", True, 42, "ms42"),
    ("#ms42", True, 42, "ms42"),
    ("ms0042", True, 42, "ms42"),
    ("31999", True, 31999, "ms31999"),
    ("32000", False, 32000, "00000000000000032000"),
    ("ms32000", True, 32000, "ms32000"),
    ("00000000000123456789", False, 123456789, "00000000000123456789"),
    ("99999999999999999999", False, 99999999999999999999, "99999999999999999999"),
    ("100000000000000000000", False, 10**20, "100000000000000000000"),
    ("ms8589934591", True, 8589934591, "ms8589934591"),
    # PySolFC drops spaces, # - _ . , and a final L before reading the digits.
    ("1 234-567_8.9,0", False, 1234567890, "00000000001234567890"),
    ("123456L", False, 123456, "00000000000000123456"),
    ("+7", True, 7, "ms7"),
])
def test_game_numbers_read_as_pysolfc_reads_them(text: str, ms: bool, seed: int,
                                                  shown: str) -> None:
    game = parse_pysol(text)
    assert (game.ms, game.seed) == (ms, seed)
    assert game.shown == shown
    assert str(game) == "pysol:" + shown


def test_one_game_by_its_forms_two_by_their_generators() -> None:
    assert Deal.from_pysol("42") == Deal.from_pysol("ms42") == Deal.from_pysol("#00042")
    assert Deal.from_pysol("32000") != Deal.from_pysol("ms32000")


@pytest.mark.parametrize("text", [
    "0", "00000", "ms0", f"ms{MS_MAX + 1}", "ms99999999999", str(MAX_NUMBER + 1),
    "1" * 21, "9" * 30, "abc", "12a", "", "#", "pysol:", "MS42", "ms 42", "ms-5",
    "ms42L", "1e5", "0x10", "١٢٣", "12" * 40, "-", "ms", None, 42,
])
def test_numbers_pysolfc_refuses(text: object) -> None:
    with pytest.raises(InputError) as err:
        PysolGame.parse(text)  # type: ignore[arg-type]
    message = str(err.value)
    assert "\n" not in message
    if isinstance(text, str):
        assert "1 … 100000000000000000000" in message and "ms8589934591" in message


def test_is_pysol() -> None:
    assert is_pysol("pysol:1") and is_pysol(" PYSOL:ms2") and is_pysol("pysol:")
    assert not is_pysol("1") and not is_pysol("TP1-E-AAAAAAB") and not is_pysol(None)


def test_the_deal_remembers_its_game() -> None:
    deal = Deal.from_pysol("pysol:123456")
    assert deal.pysol == "00000000000000123456"
    assert deal.number is None and deal.code is None
    assert deal.title == "pysol:00000000000000123456"
    assert eval(repr(deal), {"Deal": Deal}).line() == deal.line()
    assert all(type(c) is Card for c in deal.cards)
    assert sorted(deal.cards) == list(range(52))


def test_every_deal_is_a_permutation() -> None:
    for seed in [*range(1, 40), *range(31990, 32010), 10**20, 10**19 + 7]:
        for ms in (False, True):
            if seed > MS_MAX and ms:
                continue
            line = PysolGame(ms or seed < 32000, seed).line()
            assert sorted(line) == list(range(52))


def test_named_deals_deal_and_name_themselves() -> None:
    from tripeaks_solver.model.codes import GameCode, game_code

    code = game_code("TP1-C-AAAAAAD")
    assert isinstance(code, GameCode)
    assert Deal.of(code) == Deal.from_number(3) and Deal.of(code, True) == Deal.from_number(3, True)
    assert Deal.of(code).code is None  # as from_number: the command names the code played
    assert str(code.played("easy", True)) == "TP1-EJ-AAAAAAD"
    game = game_code(" pysol:617 ")
    assert isinstance(game, PysolGame) and game.number is None and game.rules == "easy"
    assert Deal.of(game) == Deal.from_pysol("617") and game.played("classic") is game
    assert Deal.of(game).pysol == "ms617"
    for refused in (lambda: Deal.of(game, True), lambda: game.played("easy", True)):
        with pytest.raises(InputError, match="52 cards"):
            refused()


def test_ranges_of_game_numbers() -> None:
    from tripeaks_solver.model.pysol import PysolRange, parse_pysol_range

    plain = parse_pysol_range("pysol:31999", "pysol:32002")
    assert plain == PysolRange(False, 31999, 32002) and len(plain) == 3
    assert [plain.game(i).shown for i in range(3)] == [
        "ms31999", "00000000000000032000", "00000000000000032001"]
    assert plain[1] == Deal.from_pysol("32000").cards
    assert plain[0] == PysolGame(True, 31999).line()
    ms = parse_pysol_range("pysol:ms32000", "pysol:ms32002")
    assert [ms.game(i).shown for i in range(2)] == ["ms32000", "ms32001"]
    assert ms[0] == Deal.from_pysol("ms32000").cards
    assert len(parse_pysol_range("pysol:ms1", f"pysol:ms{MS_MAX + 1}")) == MS_MAX
    last = parse_pysol_range(f"pysol:{MAX_NUMBER - 2}", f"pysol:{MAX_NUMBER + 1}")
    assert last.game(2).shown == "100000000000000000000"
    with pytest.raises(InputError, match="at most 10,000,000,000 games"):
        parse_pysol_range("pysol:1", f"pysol:{MAX_NUMBER + 1}")
    with pytest.raises(IndexError):
        plain.game(3)
    for start, stop in [("pysol:5", "pysol:5"), ("pysol:5", "pysol:ms9"), ("pysol:ms5", "pysol:9"),
                        ("pysol:0", "pysol:9"), ("pysol:1", f"pysol:{MAX_NUMBER + 2}"),
                        ("pysol:1", "pysol:x")]:
        with pytest.raises(InputError):
            parse_pysol_range(start, stop)


def test_the_lean_twister_is_pysol_cards_own() -> None:
    # model/pysol.py seeds pysol-cards' MTRandom without the copy of its state that a
    # reset needs: the same cards as the class itself, and as pysol-cards' own shuffle
    # of a game number (for the Microsoft numbers too), over many numbers.
    import random

    from pysol_cards.cards import ms_rearrange
    from pysol_cards.random import MTRandom
    from pysol_cards.random import shuffle as pysol_cards_shuffle
    from pysol_cards.random_base import RandomBase

    ours = {0: 0, 1: 3, 2: 2, 3: 1}  # PySolFC's suits c s h d to ours c d h s

    def line(pile: list[int]) -> tuple[int, ...]:
        return tuple(ours[c // 13] * 13 + c % 13 for c in reversed(pile))

    rng = random.Random(7)
    for seed in [32000, 10**20, *(rng.randrange(32000, 10**20) for _ in range(200))]:
        assert PysolGame(False, seed).line() == line(MTRandom(seed).shuffle(list(range(52))))
        if seed > 32000:  # pysol-cards' helper takes 32,000 as Microsoft's; PySolFC does not
            assert PysolGame(False, seed).line() == line(
                pysol_cards_shuffle(list(range(52)), seed, RandomBase.DEALS_PYSOLFC))
    for seed in [1, 31999, 2**31 - 1, 2**31, 2**32, MS_MAX,
                 *(rng.randrange(1, MS_MAX + 1) for _ in range(200))]:
        assert PysolGame(True, seed).line() == line(
            pysol_cards_shuffle(list(range(52)), seed, RandomBase.DEALS_MS))
    assert ms_rearrange(list(range(52)))[:4] == [0, 39, 26, 13]  # the Microsoft order
