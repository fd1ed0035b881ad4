"""Game codes TP1-<rules>-<7 letters>: parsing, printing, the base-26 deal number, errors."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from helpers import parse_or_error
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks_solver.errors import InputError
from tripeaks_solver.model.codes import GameCode, deal_id, parse_deal_id
from tripeaks_solver.model.dealing import Deal

LAST = 26**7 - 1


def letters_of(number: int) -> str:
    """Independent base 26: numpy's base_repr digits 0-9A-P mapped to A-Z, padded to 7."""
    digits = np.base_repr(number, base=26).rjust(7, "0")
    return "".join(chr(ord("A") + int(d, 26)) for d in digits)


def test_independent_base26_helper_on_hand_values():
    assert letters_of(0) == "AAAAAAA"
    assert letters_of(1) == "AAAAAAB"
    assert letters_of(25) == "AAAAAAZ"
    assert letters_of(26) == "AAAAABA"
    assert letters_of(LAST) == "ZZZZZZZ"


def test_rules_md_examples():
    code = GameCode.parse("TP1-E-AAAAAAB")
    assert code == GameCode(1, "easy")
    assert code.number == 1 and code.rules == "easy"
    assert code.deal_id == "AAAAAAB"
    assert str(code) == "TP1-E-AAAAAAB"
    code = GameCode.parse("TP1-E-AAAAAAD")
    assert code.number == 3
    assert str(code) == "TP1-E-AAAAAAD"


def test_classic_letter():
    code = GameCode.parse("TP1-C-AAAAAAD")
    assert code == GameCode(3, "classic")
    assert str(code) == "TP1-C-AAAAAAD"


def test_legacy_n_reads_as_easy_and_prints_back_as_e():
    code = GameCode.parse("TP1-N-AAAAAAB")
    assert code.rules == "easy"
    assert code == GameCode.parse("TP1-E-AAAAAAB")
    assert str(code) == "TP1-E-AAAAAAB"


@pytest.mark.parametrize(
    "text, number, rules",
    [
        ("tp1-e-aaaaaab", 1, "easy"),
        ("Tp1-c-AaAaAaD", 3, "classic"),
        ("tp1-n-aaaaaad", 3, "easy"),
        ("  TP1-E-AAAAAAB  ", 1, "easy"),
        ("\tTP1-C-ZZZZZZZ\n", LAST, "classic"),
        ("tp1-e-baaaaaa", 26**6, "easy"),
    ],
)
def test_lower_case_and_surrounding_spaces(text, number, rules):
    code = GameCode.parse(text)
    assert (code.number, code.rules) == (number, rules)
    assert str(code) == f"TP1-{'E' if rules == 'easy' else 'C'}-{letters_of(number)}"


@pytest.mark.parametrize(
    "number",
    [0, 1, 25, 26, 27, 675, 676, 26**3, 26**4 - 1, 26**5, 26**6 - 1, 26**6, LAST - 1, LAST],
)
def test_deal_id_edges(number):
    assert deal_id(number) == letters_of(number)
    assert parse_deal_id(letters_of(number)) == number
    assert parse_deal_id(letters_of(number).lower()) == number
    assert GameCode.parse(f"TP1-E-{letters_of(number)}").number == number


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=LAST))
def test_deal_id_round_trip_whole_range(number):
    letters = deal_id(number)
    assert letters == letters_of(number)
    assert len(letters) == 7 and letters.isalpha() and letters.isupper()
    assert parse_deal_id(letters) == number
    code = GameCode(number, "classic")
    assert GameCode.parse(str(code)) == code


def test_deal_id_is_increasing_in_number():
    rng = random.Random(7)
    numbers = sorted(rng.sample(range(LAST + 1), 500))
    ids = [deal_id(n) for n in numbers]
    assert ids == sorted(ids)  # base 26 with fixed width sorts like the numbers


@pytest.mark.parametrize("number", [-1, LAST + 1, 10**12])
def test_deal_id_out_of_range(number):
    with pytest.raises(InputError, match="outside"):
        deal_id(number)


def test_rules_letter_does_not_change_the_cards():
    easy = Deal.from_code("TP1-E-AAAAAAD")
    classic = Deal.from_code("TP1-C-AAAAAAD")
    legacy = Deal.from_code(GameCode.parse("tp1-n-aaaaaad"))
    assert easy.cards == classic.cards == legacy.cards == Deal.from_number(3).cards
    assert easy.number == 3 and easy.deal_id == "AAAAAAD"


# --- errors -------------------------------------------------------------------------

ERRORS = [
    # (text, what the message must say)
    ("TP2-E-AAAAAAB", ["unknown version", "'TP2'", "TP1"]),
    ("XX-E-AAAAAAB", ["unknown version", "'XX'"]),
    ("-E-AAAAAAB", ["unknown version"]),
    ("TP1-X-AAAAAAB", ["unknown rules letter", "'X'"]),
    ("TP1-EE-AAAAAAB", ["unknown rules letter", "'EE'"]),
    ("TP1--AAAAAAB", ["unknown rules letter"]),
    ("TP1-E-AAAAAB", ["7 letters", "not 6"]),
    ("TP1-E-AAAAAAAB", ["7 letters", "not 8"]),
    ("TP1-E-", ["7 letters", "not 0"]),
    ("TP1-E-AAAAAA1", ["only letters A–Z", "'1'"]),
    ("TP1-E-AAA AAA", ["only letters A–Z", "' '"]),
    ("TP1-E-AAAAAAÉ", ["only letters A–Z", "'É'"]),
    ("TP1-E-AAAAAAſ", ["only letters A–Z", "'ſ'"]),  # "ſ".upper() == "S"
    ("TP1-E-AAAAAAı", ["only letters A–Z", "'ı'"]),  # "ı".upper() == "I"
    ("TP1-E-AAAAAß", ["7 letters", "not 6"]),  # "ß".upper() == "SS": 6 characters, not 7
    ("TP1-E-AAAAAﬀ", ["7 letters", "not 6"]),
    ("TP1-E-AAAAAAß", ["only letters A–Z", "'ß'"]),
    ("TP1E-AAAAAAB", ["must look like TP1-E-AAAAAAB"]),
    ("TP1-E-AAAA-AAB", ["must look like TP1-E-AAAAAAB"]),
    ("TP1EAAAAAAB", ["must look like TP1-E-AAAAAAB"]),
    ("", ["must look like TP1-E-AAAAAAB"]),
    ("TP1-E-AAA\nAAA", ["only letters A–Z", "'\\n'"]),
]


@pytest.mark.parametrize("text, needles", ERRORS)
def test_every_error_kind_is_one_line_input_error(text, needles):
    with pytest.raises(InputError) as info:
        GameCode.parse(text)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    for needle in needles:
        assert needle in message, (needle, message)


@pytest.mark.parametrize("value", [None, 1, b"TP1-E-AAAAAAB"])
def test_non_string_code(value):
    with pytest.raises(InputError, match="not a game code"):
        GameCode.parse(value)


@pytest.mark.parametrize("text", ["AAAAAA", "AAAAAAAA", "AAAAAA0", "AAAAAAß", "ÀAAAAAA"])
def test_parse_deal_id_errors(text):
    with pytest.raises(InputError) as info:
        parse_deal_id(text)
    assert "\n" not in str(info.value)
    assert text in str(info.value)


# --- fuzzing: any string gives a GameCode or an InputError, never anything else -------

VALID = re.compile(r"[Tt][Pp]1-[EeNnCc]-\s*[A-Za-z]{7}")


def _parse_or_error(text: str):
    """Return a GameCode or the InputError; any other exception escapes and fails the test."""
    code = parse_or_error(GameCode.parse, text)
    if isinstance(code, InputError):
        return code
    assert isinstance(code, GameCode)
    assert 0 <= code.number <= LAST
    assert code.rules in ("easy", "classic")
    # Only ASCII codes of the documented shape are accepted …
    assert VALID.fullmatch(text.strip()), repr(text)
    # … and they print back to a canonical code that reads the same.
    assert GameCode.parse(str(code)) == code
    letters = text.strip()[6:].strip().upper()
    assert code.number == parse_deal_id(letters) and str(code).endswith(letters)
    return code


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_fuzz_any_text(text):
    _parse_or_error(text)


PIECES = [
    "TP1",
    "tp1",
    "TP2",
    "E",
    "e",
    "N",
    "C",
    "X",
    "-",
    "--",
    "A",
    "Z",
    "q",
    "AAAAAA",
    "ß",
    "ſ",
    "ı",
    "ﬀ",
    "1",
    " ",
    "\n",
    "É",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_fuzz_code_shaped_text(text):
    _parse_or_error(text)


def test_seeded_random_codes():
    rng = random.Random(1989)
    accepted = rejected = 0
    for _ in range(20000):
        letters = [
            rng.choice("AZazQq") if rng.random() < 0.95 else rng.choice("09ßſı -") for _ in range(7)
        ]
        parts = [rng.choice(["TP1", "tp1", "TP0"]), rng.choice("ENCencX"), "".join(letters)]
        if rng.random() < 0.3:
            i = rng.randrange(3)
            parts[i] = "".join(chr(rng.randint(0, 0x2FFFF)) for _ in range(rng.randint(0, 8)))
        sep = "-" if rng.random() < 0.9 else rng.choice(["", "--", "_", " "])
        text = sep.join(parts)
        if isinstance(_parse_or_error(text), GameCode):
            accepted += 1
        else:
            rejected += 1
    assert accepted > 100 and rejected > 100
