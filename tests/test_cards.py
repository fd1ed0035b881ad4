"""Cards: both notations parse and print, every card round trips, bad input says which token.

The expected indices are written out here (suit * 13 + rank, suits c d h s, A = 0 … K = 12)
rather than taken from the package's own tables.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import parse_or_error
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks_solver.errors import InputError
from tripeaks_solver.model.cards import Card, parse_card, parse_cards

# Written out by hand, independent of cards.RANKS / cards.SUITS.
MACHINE_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
PEOPLE_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
MACHINE_SUITS = ["c", "d", "h", "s"]
PEOPLE_SUITS = ["♣", "♦", "♥", "♠"]

ALL = [(s * 13 + r, r, s) for s in range(4) for r in range(13)]


def test_known_cards_people_and_machine_notation():
    assert parse_card("K♣") == 12
    assert parse_card("10♦") == 13 + 9
    assert parse_card("A♠") == 39
    assert parse_card("Kc") == 12
    assert parse_card("Td") == 22
    assert parse_card("As") == 39
    assert parse_card("2h") == 27
    assert parse_card("Q♥") == 26 + 11


def test_parse_cards_of_the_brief_examples():
    assert [int(c) for c in parse_cards("K♣ 10♦ A♠")] == [12, 22, 39]
    assert [int(c) for c in parse_cards("Kc Td As")] == [12, 22, 39]
    assert [int(c) for c in parse_cards("kc, td,as")] == [12, 22, 39]
    assert parse_cards("") == []
    assert all(isinstance(c, Card) for c in parse_cards("Kc Td"))


@pytest.mark.parametrize(
    "text, index",
    [
        ("kc", 12),
        ("KC", 12),
        ("kC", 12),
        ("td", 22),
        ("TD", 22),
        ("10d", 22),
        ("10D", 22),
        ("10♦", 22),
        ("t♦", 22),
        ("as", 39),
        ("a♠", 39),
        ("  Kc  ", 12),
        ("\tK♣\n", 12),
        ("K♣\ufe0f", 12),  # emoji variation selector pasted from phones
        ("K♧", 12),  # white suit symbols
        ("Q♢", 24),
        ("J♡", 36),
        ("9♤", 47),
    ],
)
def test_lower_case_ten_spaces_and_variant_symbols(text, index):
    card = Card.parse(text)
    assert card == index
    assert isinstance(card, Card)


@pytest.mark.parametrize("index, rank, suit", ALL)
def test_every_card_round_trips_in_both_notations(index, rank, suit):
    card = Card(index)
    machine = MACHINE_RANKS[rank] + MACHINE_SUITS[suit]
    people = PEOPLE_RANKS[rank] + PEOPLE_SUITS[suit]
    assert card.rank == rank and card.suit == suit
    assert Card.of(rank, suit) == index
    assert card.token == machine
    assert card.pretty == people
    assert str(card) == people
    assert repr(card) == f"Card({machine})"
    for text in (machine, people, machine.lower(), machine.upper(), people.lower()):
        assert Card.parse(text) == index, text
    if rank == 9:
        assert Card.parse("10" + MACHINE_SUITS[suit]) == index
        assert Card.parse("10" + MACHINE_SUITS[suit].upper()) == index
    assert Card.parse(Card.parse(people).token) == index


def test_all_52_cards_are_distinct_and_tokens_are_unique():
    tokens = {Card(i).token for i in range(52)}
    pretty = {Card(i).pretty for i in range(52)}
    assert len(tokens) == 52 and len(pretty) == 52
    assert parse_cards(" ".join(Card(i).pretty for i in range(52))) == list(range(52))
    assert parse_cards(",".join(Card(i).token for i in range(52))) == list(range(52))


@pytest.mark.parametrize(
    "token",
    [
        "K",
        "c",
        "1c",
        "11c",
        "0d",
        "Kx",
        "KK",
        "Zc",
        "10",
        "♣K",
        "cK",
        "K♣♣",
        "Kc2",
        "A-s",
        "1 0d",
        "K ♣",
        "Xz",
        "jokers",
    ],
)
def test_bad_tokens_raise_input_error_that_names_the_token(token):
    with pytest.raises(InputError) as info:
        Card.parse(token)
    message = str(info.value)
    assert token in message
    assert "\n" not in message


@pytest.mark.parametrize("token", ["", " ", "\t"])
def test_empty_token_raises_input_error(token):
    with pytest.raises(InputError, match="not a card"):
        parse_card(token)


@pytest.mark.parametrize("value", [None, 12, 1.5, b"Kc", ["Kc"]])
def test_non_strings_raise_input_error(value):
    with pytest.raises(InputError, match="not a card"):
        parse_card(value)


def test_parse_cards_names_the_one_bad_token():
    with pytest.raises(InputError) as info:
        parse_cards("9h Td Xq 7s")
    assert "Xq" in str(info.value)
    assert "9h" not in str(info.value) and "7s" not in str(info.value)


@pytest.mark.parametrize("value", [-1, 53, 100])
def test_card_index_out_of_range(value):
    with pytest.raises(InputError, match=str(value)):
        Card(value)


def test_card_is_a_plain_int():
    assert Card(5) + 1 == 6
    assert {Card(12): "x"}[12] == "x"
    assert sorted([Card(3), Card(1)]) == [1, 3]


def _parse_or_error(text: str):
    """Return a Card or the InputError; any other exception escapes and fails the test."""
    card = parse_or_error(Card.parse, text)
    if isinstance(card, InputError):
        return card
    assert isinstance(card, Card)
    assert 0 <= card <= 52  # 52 is the joker
    # Whatever was accepted must print back to something that reads as the same card.
    assert Card.parse(card.token) == card
    assert Card.parse(card.pretty) == card
    return card


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_fuzz_any_text_is_a_card_or_input_error(text):
    _parse_or_error(text)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("AKQJT1023456789cdhsCDHS♣♦♥♠♧♢♡♤ßſıK\ufe0f \t-,x")),
        max_size=5,
    )
)
def test_fuzz_card_like_text(text):
    result = _parse_or_error(text)
    if isinstance(result, Card):
        # An accepted token is exactly one rank (T or 10) and one suit, or the joker's
        # Jk (in any case), up to spaces/FE0F.
        core = text.strip().replace("\ufe0f", "")
        assert len(core) in (2, 3)
        if result == 52:
            assert core.lower() == "jk"
        else:
            assert core[-1].lower() in "cdhs♣♦♥♠♧♢♡♤"


def test_seeded_random_strings_are_cards_or_input_errors():
    rng = random.Random(20240611)
    alphabet = "AKQJT1023456789cdhsCDHS♣♦♥♠♧♢♡♤\ufe0f \t\n-"
    accepted = rejected = 0
    for _ in range(20000):
        n = rng.randint(0, 5)
        if rng.random() < 0.2:
            text = "".join(chr(rng.randint(0, 0x2FFFF)) for _ in range(n))
        else:
            text = "".join(rng.choice(alphabet) for _ in range(n))
        if isinstance(_parse_or_error(text), Card):
            accepted += 1
        else:
            rejected += 1
    # Both outcomes must actually occur, or the loop proves nothing.
    assert accepted > 100 and rejected > 100


def test_joker_parses_and_prints_in_both_notations():
    for text in ("Jk", "jk", "JOKER", "🃏"):
        assert Card.parse(text) == 52
    joker = Card(52)
    assert joker.is_joker and joker.rank == 13
    assert (joker.token, joker.pretty) == ("Jk", "🃏")
    assert not any(Card(i).is_joker for i in range(52))


def test_ranks_of_every_card_and_the_joker():
    from tripeaks_solver.model.cards import ranks

    cards = [s * 13 + r for s in range(4) for r in range(13)] + [52]
    expected = [r for s in range(4) for r in range(13)] + [13]  # the joker's rank is wild
    got = ranks(tuple(Card(c) for c in cards))
    assert got.dtype == np.int64 and got.tolist() == expected
    assert ranks(()).tolist() == []


@pytest.mark.parametrize("value", [-1, 53, 100])
def test_a_removal_of_no_card_is_refused(value):
    from tripeaks_solver.model.moves import Move

    with pytest.raises(InputError, match=str(value)):
        Move.remove(value)


def test_a_removal_names_its_card_whatever_int_type_gives_it():
    from tripeaks_solver.model.moves import Move

    for c in range(53):
        for value in (c, Card(c), np.int64(c)):
            move = Move.remove(value)
            assert move.is_removal and move.card == c and type(move.card) is Card
            assert move.token == Card(c).token and move == Move("remove", Card(c))
