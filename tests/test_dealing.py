"""Golden tests of the frozen dealing algorithm.

The expected deals are derived here with an independent SplitMix64 written in numpy
uint64 arithmetic (the package uses Python ints masked to 64 bits), and five deals are
pinned as literal lines so that a change of the package's dealing is caught even if
both implementations were to change together.

Spec (README / dealing.py): SplitMix64 seeded with the deal number; bounded(m) draws
until x < 2^64 - (2^64 mod m) and returns x mod m; Fisher–Yates for i = 51 … 1 with
j = bounded(i + 1); deck index suit*13 + rank (suits c d h s, A = 0 … K = 12);
deck[0..27] tableau positions, deck[28] waste, deck[29..51] stock in draw order.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks_solver.errors import InputError
from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.codes import GameCode
from tripeaks_solver.model.dealing import Deal, SplitMix64, shuffled_deck
from tripeaks_solver.model.game import Game

TWO64 = 1 << 64
LAST = 26**7 - 1


class NpSplitMix64:
    """SplitMix64 on a one-element numpy uint64 array (wrapping arithmetic)."""

    def __init__(self, seed: int) -> None:
        self.state = np.array([seed % TWO64], dtype=np.uint64)

    def next(self) -> int:
        with np.errstate(over="ignore"):
            self.state += np.uint64(0x9E3779B97F4A7C15)
            z = self.state.copy()
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z = z ^ (z >> np.uint64(31))
        return int(z[0])

    def bounded(self, m: int) -> int:
        limit = TWO64 - (TWO64 % m)
        while True:
            x = self.next()
            if x < limit:
                return x % m


MY_RANKS = "A23456789TJQK"
MY_SUITS = "cdhs"


def my_deck(number: int, size: int = 52) -> list[int]:
    rng = NpSplitMix64(number)
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def my_line(number: int) -> str:
    return " ".join(MY_RANKS[c % 13] + MY_SUITS[c // 13] for c in my_deck(number))


# Generated once with NpSplitMix64 above and pasted: never edit these to make a test pass.
GOLDEN = {
    0: "8s Jh 9c 2s 2d Qd 6s Tc 3d Ac Jc 7c 9h 8c Qs Kh 5h 2c 3h 5c Ah 6c 4s Td 5d 8h 8d Ad "
    "Qh Ts Qc Jd 3s 4d 2h 9d 3c Kd As 7s 9s 7d Js 6h Ks 4c 7h 5s 6d 4h Kc Th",
    1: "7d 9c 4d 8h 8d 5s Jd 6d 9s Jc 5d Kd 3c 2d Jh 5h 7h 4h 2c Ad 6s Kc Kh Th Ts Js Td 8s "
    "Qc 4s 6c 7c As 5c Ah Ks 6h Qs Qh Qd 9d 3d 3s Ac 4c 2h 8c Tc 3h 2s 9h 7s",
    3: "Ad 3d 7s Qs 9s 2c 5s Ah 3h Jc Ks Qh 6c 6s 5c Qc Kh Kd Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s "
    "9c 3s 9d 6d 7d 7h 5d 9h Js Td 4d Kc As 5h Th 3c 2s Ts Qd 7c 2d 4h Jh Tc",
    12345: "6h 9h 6s 9s As Tc Kd 8s 7d Td 2d 5c 8d 3d Qd 7s 8c 3c 9c 9d 4c 4d Jc Qs Ts 3s Ad Jd "
    "8h 5d Js 4s Th Ks Ac 3h 7c 6d Ah Kc Qh 4h 2c 5s Kh 5h Qc 2h 7h 6c Jh 2s",
    LAST: "6s 5s Jh 4d 4s 2s Ac 7d 9c Tc Ah Ks 3c 6h 8h Th Js 6d 2h Qc 2d 8s 8d 8c 9d 6c Jc 9s "
    "Kh 4c 5h 9h 3s Kd 2c Kc Qh 7s 5c 4h Jd 3d As Qs Ad 7c Ts Td 7h 5d Qd 3h",
}


# --- SplitMix64 -------------------------------------------------------------------

REFERENCE_SEED0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_independent_splitmix64_matches_published_reference():
    rng = NpSplitMix64(0)
    assert [rng.next() for _ in range(3)] == REFERENCE_SEED0


def test_package_splitmix64_matches_published_reference():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == REFERENCE_SEED0


@pytest.mark.parametrize("seed", [1, 3, 12345, LAST, 2**63, TWO64 - 1])
def test_splitmix64_streams_agree(seed):
    mine, theirs = NpSplitMix64(seed), SplitMix64(seed)
    a = [mine.next() for _ in range(200)]
    b = [theirs.next() for _ in range(200)]
    assert a == b
    assert all(0 <= x < TWO64 for x in b)


@pytest.mark.parametrize("m", [2**63 + 1, 3 * 2**62, 2**64 // 3 * 2 + 1, 10**19])
def test_bounded_rejection_agrees_where_it_actually_rejects(m):
    # For m <= 52 rejection essentially never happens; for these m it rejects often
    # (2^64 mod m is large), so this pins the rejection rule itself.
    limit = TWO64 - (TWO64 % m)
    assert limit < TWO64 - 2**60
    mine, theirs = NpSplitMix64(42), SplitMix64(42)
    draws = [theirs.bounded(m) for _ in range(300)]
    assert draws == [mine.bounded(m) for _ in range(300)]
    assert all(0 <= x < m for x in draws)
    # The streams consumed more than 300 raw outputs: some values were rejected.
    raw = NpSplitMix64(42)
    rejected = sum(raw.next() >= limit for _ in range(300))
    assert rejected > 0


def test_bounded_is_plain_modulo_without_rejection():
    mine, theirs = NpSplitMix64(7), SplitMix64(7)
    for m in range(1, 53):
        assert theirs.bounded(m) == mine.next() % m


# --- the deals --------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_independent_implementation_reproduces_the_pinned_lines(number):
    assert my_line(number) == GOLDEN[number]


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_package_deals_match_golden_lines(number):
    deal = Deal.from_number(number)
    assert deal.line() == GOLDEN[number]
    assert Deal.from_code(f"TP1-E-{deal.deal_id}").line() == GOLDEN[number]
    assert shuffled_deck(number) == my_deck(number)


def test_golden_deal_layout_parts():
    deal = Deal.from_number(1)
    tokens = GOLDEN[1].split()
    assert [c.token for c in deal.tableau] == tokens[:28]
    assert deal.waste.token == tokens[28]
    assert [c.token for c in deal.stock] == tokens[29:]
    assert len(deal.stock) == 23
    assert deal.number == 1 and deal.deal_id == "AAAAAAB"
    assert str(GameCode(1)) == "TP1-E-AAAAAAB"


def test_sample_of_deals_matches_independent_implementation():
    rng = random.Random(5)
    numbers = [2, 25, 26, 675, 676, 99999, LAST - 1] + rng.sample(range(LAST + 1), 150)
    for n in numbers:
        assert Deal.from_number(n).cards == tuple(my_deck(n)), n


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=LAST))
def test_any_deal_matches_independent_implementation(number):
    deal = Deal.from_number(number)
    assert deal.line() == my_line(number)
    assert sorted(deal.cards) == list(range(52))


def test_deals_differ():
    lines = {Deal.from_number(n).line() for n in range(200)}
    assert len(lines) == 200


@pytest.mark.parametrize("number", [-1, LAST + 1])
def test_deal_number_out_of_range(number):
    with pytest.raises(InputError, match="outside"):
        Deal.from_number(number)


def test_face_up_at_start_is_the_bottom_row_only():
    game = Game(Deal.from_number(0))
    assert [p for p in range(28) if game.is_face_up(p)] == list(range(18, 28))


# --- Deal.from_cards ----------------------------------------------------------------


def test_from_cards_ints_tokens_and_pretty_agree():
    ints = list(range(51, -1, -1))
    tokens = [MY_RANKS[c % 13] + MY_SUITS[c // 13] for c in ints]
    pretty = [Card(c).pretty for c in ints]
    mixed = [
        t if i % 3 == 0 else (p if i % 3 == 1 else c)
        for i, (c, t, p) in enumerate(zip(ints, tokens, pretty))
    ]
    a = Deal.from_cards(ints)
    assert a == Deal.from_cards(tokens) == Deal.from_cards(pretty) == Deal.from_cards(mixed)
    assert a.cards == tuple(ints)
    assert all(isinstance(c, Card) for c in a.cards)
    assert a.number is None and a.deal_id is None
    assert a.tableau == tuple(ints[:28])
    assert a.waste == ints[28]
    assert a.stock == tuple(ints[29:])
    assert a.line() == " ".join(tokens)
    assert a.position_of(Card.parse("As")) == ints.index(39)


def test_from_cards_round_trips_a_line():
    deal = Deal.from_number(12345)
    again = Deal.from_cards(deal.line().split())
    assert again == deal
    assert again.line() == GOLDEN[12345]


def test_deal_is_immutable():
    deal = Deal.from_number(3)
    with pytest.raises(AttributeError):
        deal.cards = ()  # type: ignore[misc]


def test_duplicate_card_raises_input_error_naming_it():
    cards = list(range(52))
    cards[40] = 5  # 6c twice, 2s missing
    with pytest.raises(InputError) as info:
        Deal.from_cards(cards)
    assert "6c" in str(info.value) and "twice" in str(info.value)
    assert "\n" not in str(info.value)
    tokens = [Card(c).token for c in range(52)]
    tokens[51] = "ac"
    with pytest.raises(InputError, match="Ac"):
        Deal.from_cards(tokens)


@pytest.mark.parametrize("count", [0, 28, 51, 53])
def test_wrong_count_raises_input_error(count):
    cards = [c % 52 for c in range(count)]
    with pytest.raises(InputError) as info:
        Deal.from_cards(cards)
    message = str(info.value)
    if count == 53:  # 53 cards are a joker deal: here the 53rd repeats a card
        assert "appears twice" in message
    else:
        assert message.startswith("a deal has 52 cards") and f"got {count}" in message


def test_bad_token_and_bad_int_raise_input_error():
    tokens = [Card(c).token for c in range(52)]
    tokens[10] = "Zz"
    with pytest.raises(InputError, match="Zz"):
        Deal.from_cards(tokens)
    with pytest.raises(InputError, match="joker has 53 cards"):
        Deal.from_cards(list(range(51)) + [52])
    with pytest.raises(InputError, match="53"):
        Deal.from_cards(list(range(51)) + [53])
    with pytest.raises(InputError):
        Deal.from_cards([-1] + list(range(1, 52)))


def test_joker_deal_is_the_same_shuffle_on_53_cards():
    """Joker deals extend the frozen algorithm to a 53-card deck (card 52 = joker)."""
    for number in (0, 1, 3, 12345):
        deal = Deal.from_number(number, joker=True)
        assert len(deal.cards) == 53 and deal.has_joker
        assert sorted(deal.cards) == list(range(53))
        assert [int(c) for c in deal.cards] == my_deck(number, 53)
        assert len(deal.stock) == 24
