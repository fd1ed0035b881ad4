"""Observed records: games played elsewhere, told move by move with what each move showed.

The record a player would type is derived here from a game on a known deal, with the
cards each move turns up worked out from the covering relation written out below (not
the package's code); replayed from the cards seen at the start, it must reach the same
position, know exactly the cards shown so far (undone moves included), and every way of
contradicting it must be one clear error.
"""

from __future__ import annotations

import json
import random

import pytest
from cli_run import assert_one_line_error, run
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks_solver.errors import IllegalMoveError, InputError
from tripeaks_solver.games.records import header, parse_record_file
from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.observed import (
    NeedsObservation,
    Observed,
    ObservedGame,
    Start,
    parse_observed,
)
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules

# Who covers whom, as docs/rules.md states it (row 3 card j under bottom cards j, j+1;
# row 2 card k of peak p = k // 2 under row-3 cards 3p + k % 2 and the next; row 1 card p
# under row-2 cards 2p, 2p + 1).
COVERS = {9 + j: (18 + j, 19 + j) for j in range(9)}
COVERS |= {3 + k: (9 + 3 * (k // 2) + k % 2, 10 + 3 * (k // 2) + k % 2) for k in range(6)}
COVERS |= {p: (3 + 2 * p, 4 + 2 * p) for p in range(3)}
RULES = [EASY, CLASSIC, EASY.with_options(empty_waste=True), CLASSIC.with_options(open=True),
         EASY.with_options(draw_when_stuck=True), EASY.with_options(open=True, empty_waste=True)]


def shown_places(game: Game) -> set[int]:
    """The places of the line the game shows: removed or uncovered tableau cards (all of
    them under open rules), the waste card, the stock cards drawn."""
    rules = game.rules
    out = set()
    for p in range(28):
        gone = game.removed >> p & 1
        free = all(game.removed >> q & 1 for q in COVERS.get(p, ()))
        if gone or free or rules.open:
            out.add(p)
    first = 28 if rules.empty_waste else 29
    out |= set(range(first, first + game.stock_index))
    if not rules.empty_waste:
        out.add(28)
    return out


def seen_text(deal: Deal, rules: Rules) -> str:
    """What ``--seen`` lists for ``deal`` under ``rules``."""
    tableau = deal.tableau if rules.open else deal.tableau[18:]
    waste = () if rules.empty_waste else (deal.cards[28],)
    return " ".join(c.token for c in (*tableau, *waste))


def random_record(deal: Deal, rules: Rules, rng: random.Random, length: int
                  ) -> tuple[list[str], list[set[int]], Game]:
    """A random record with undos on ``deal``: the observed tokens a player would type
    (every card a move turned up, even one seen before), what they knew after each move
    (every place shown so far), and the game at the end."""
    game = Game(deal, rules)
    knew = shown_places(game)
    tokens, known = [], []
    for _ in range(length):
        legal = []
        if game.status is Status.IN_PLAY:
            legal = [Move.remove(c) for c in game.playable()]
            if game.stock_left and rules.may_draw(bool(legal)):
                legal.append(Move.DRAW)
        if game.history and (rng.random() < 0.25 or not legal):
            legal.append(Move.UNDO)
        if not legal:
            break
        move = rng.choice(legal)
        before = shown_places(game)
        game.play(move)
        new = sorted(shown_places(game) - before)
        knew |= set(new)
        shown = ",".join(deal.cards[p].token for p in new)
        tokens.append(f"{move.token}:{shown}" if shown else move.token)
        known.append(set(knew))
    return tokens, known, game


# --- tokens -------------------------------------------------------------------------------
CARDS = st.integers(0, 51).map(Card)
MOVES = st.one_of(st.just(Move.DRAW), st.just(Move.UNDO), CARDS.map(Move.remove))


@given(MOVES, st.lists(CARDS, max_size=2))
def test_tokens_round_trip(move: Move, cards: list[Card]) -> None:
    shown = () if move.is_undo else tuple(cards)
    step = Observed(move, shown)
    assert Observed.parse(step.token) == step
    assert Observed.parse(step.pretty) == step
    assert parse_observed([f"{step.token} u {step.pretty}"]) == [step, Observed(Move.UNDO), step]


@pytest.mark.parametrize("bad", ["Kc:", "u:4s", "d:Zz", "Kc:7s:8s", ":", "Zz:7s"])
def test_malformed_tokens(bad: str) -> None:
    with pytest.raises(InputError):
        Observed.parse(bad)


# --- the game as seen follows the game on the deal ------------------------------------------
def check_follows(number: int, rules: Rules, seed: int, length: int = 60) -> None:
    deal = Deal.from_number(number)
    rng = random.Random(seed)
    tokens, known, game = random_record(deal, rules, rng, length)
    start = Start.of_seen(seen_text(deal, rules), rules)
    observed = ObservedGame(start)
    for token, knew in zip(tokens, known, strict=True):
        observed.play(token)
        # the last card not seen follows by elimination
        total = len(deal.cards)
        assert observed.known_places == (knew if len(knew) < total - 1
                                         else frozenset(range(total))), token
        # Every card known is the deal's card there.
        assert all(observed.knowledge.places[p] == deal.cards[p] for p in knew)
    played = observed.game
    assert (played.removed, played.stock_index, played.waste, played.score, played.original,
            played.moves, played.status) == (game.removed, game.stock_index, game.waste,
                                              game.score, game.original, game.moves, game.status)
    assert observed.tokens == tokens  # the record it keeps is the one typed
    # The same record on the code agrees, knows the same and writes the same tokens.
    on_code = ObservedGame.replay(Start.of_deal("code", "x", deal, rules), parse_observed(tokens))
    assert on_code.known_places == observed.known_places and on_code.tokens == tokens
    # And without the observations (the deal tells them) it writes them back.
    plain = [t.split(":")[0] for t in tokens]
    assert ObservedGame.replay(Start.of_deal("code", "x", deal, rules),
                               parse_observed(plain)).tokens == tokens


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}+{r.variant}")
def test_seen_start_follows_the_deal(rules: Rules) -> None:
    for number in range(4):
        check_follows(number, rules, number)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}+{r.variant}")
def test_seen_start_follows_the_deal_many(rules: Rules) -> None:
    for number in range(30):
        check_follows(100 + number, rules, number, length=120)


def test_knowledge_survives_undo() -> None:
    # Deal 1: J♠ and 10♥ go, the draws show 4♠ 6♣ 7♣ A♠, K♥ turns up 2♦ (row 3, 5th).
    deal = Deal.from_number(1)
    game = ObservedGame(Start.of_seen(seen_text(deal, EASY), EASY))
    for token in ["Js", "Th", "d:4s", "d:6c", "d:7c", "d:As", "Kh:2d"]:
        game.play(token)
    knew = game.known_places
    for _ in range(7):
        game.play("u")
    assert game.known_places == knew and game.game.removed == 0
    # Played again, nothing needs saying: the cards are known.
    for token in ["Js", "Th", "d", "d", "d", "d", "Kh"]:
        game.play(token)
    assert game.tokens[-7:] == ["Js", "Th", "draw:4s", "draw:6c", "draw:7c", "draw:As", "Kh:2d"]


# --- contradictions: one line each -----------------------------------------------------------
SEEN_1 = seen_text(Deal.from_number(1), EASY)
CODE_1 = "TP1-E-AAAAAAB"


@pytest.mark.parametrize(("args", "needles"), [
    # a card seen twice: 2♣ is on the board
    (["--seen", SEEN_1, "d:2c"], ["move 1 (d:2c)", "2♣", "known already"]),
    # a card that contradicts the code
    ([CODE_1, "Js", "Th", "d", "d", "d", "d", "Kh:8s"], ["move 7 (Kh:8s)", "2♦", "8♠",
                                                         "right deal"]),
    # a card that contradicts the layout
    (["--layout", Deal.from_number(1).line(), "d:5h"], ["move 1 (d:5h)", "4♠", "5♥"]),
    # the wrong number of cards
    (["--seen", SEEN_1, "Js:4h"], ["move 1 (Js:4h)", "turns up no card"]),
    (["--seen", SEEN_1, "d:4s,6c"], ["move 1 (d:4s,6c)", "turns up 1 card", "stock card 1"]),
    # a move that needs an observation the record lacks
    (["--seen", SEEN_1, "Js", "d"], ["move 2 (d)", "stock card 1", "d:"]),
    (["--seen", SEEN_1, "Js", "Th", "d:4s", "d:6c", "d:7c", "d:As", "Kh"],
     ["move 7 (Kh)", "row 3 from the top, 5th card from the left", "Kh:"]),
    # an undo shows nothing
    (["--seen", SEEN_1, "Js", "u:Js"], ["move 2", "undo shows no card"]),
    # a start that is not what a player sees
    (["--seen", SEEN_1.rsplit(" ", 1)[0]], ["--seen lists 11 cards", "got 10"]),
    (["--seen", "2c 2c" + SEEN_1[5:]], ["--seen card 2", "2♣"]),
])
@pytest.mark.parametrize("command", ["hint", "analyze", "replay"])
def test_contradictions_are_one_line(capsys, command: str, args: list[str],
                                     needles: list[str]) -> None:
    assert_one_line_error(*run(capsys, command, *args)[::2], *needles)


@pytest.mark.parametrize(("card", "message"), [
    ("As", "No such card is face up in the peaks"),  # not seen anywhere yet
    ("9h", "No such card is face up in the peaks"),
    ("Ad", "Must be one rank higher or lower"),  # on the board, does not follow Q♣
    ("Qc", "This card is not in the peaks"),  # the waste card
])
def test_illegal_moves_on_a_game_seen(capsys, card: str, message: str) -> None:
    code, _, err = run(capsys, "replay", "--seen", SEEN_1, card, "--lang", "en")
    assert code == 1 and err == f"move 1 ({card}): {message}\n"


def test_unseen_card_message_is_the_same_for_every_filling(capsys) -> None:
    # A layout whose places 1–18 and 30–52 are ?? (deal 3).
    tokens = Deal.from_number(3).line().split()
    masked = " ".join("??" if i < 18 or i >= 29 else t for i, t in enumerate(tokens))
    errors = {run(capsys, "hint", "--layout", masked, card, "--lang", "en")[2]
              for card in ("Ad", "As", "Kh", "2s")}
    assert {e.split(": ", 1)[1] for e in errors} == {"No such card is face up in the peaks\n"}


# --- exact when every card is known -----------------------------------------------------------
def full_reveal(deal: Deal, rules: Rules) -> list[str]:
    """Draw the whole stock and undo it, then play the exact line's first moves: the
    tokens a player would type, every card seen once the line has uncovered it."""
    game = Game(deal, rules)
    tokens = []
    while game.stock_left and rules.may_draw(bool(game.playable())):
        tokens.append(f"d:{game.draw().card.token}")
    tokens += ["u"] * len(tokens)
    return tokens


@pytest.mark.parametrize("number", [1, 3])
def test_hint_on_an_observed_record_equals_hint_on_the_deal(capsys, number: int) -> None:
    from tripeaks_solver.solver.solve import solve

    deal = Deal.from_number(number)
    # Draw the whole stock and take it back, then play the exact line, saying each card
    # a move turns up, until every card of the deal has been seen.
    observed = ObservedGame(Start.of_seen(seen_text(deal, EASY), EASY))
    for token in full_reveal(deal, EASY):
        observed.play(token)
    for move in solve(deal, EASY).moves:
        if observed.exact:
            break
        said = ",".join(deal.cards[p].token for p in observed.shows(move))
        observed.play(f"{move.token}:{said}" if said else move.token)
    assert observed.exact and observed.deal == deal
    record = observed.tokens
    seen = run(capsys, "hint", "--seen", seen_text(deal, EASY), *record, "--json")
    coded = run(capsys, "hint", f"TP1-E-AAAAAA{'ABCD'[number]}",
                *[t.split(":")[0] for t in record], "--json")
    assert seen[0] == coded[0] == 0, (seen[2], coded[2])
    a, b = json.loads(seen[1]), json.loads(coded[1])
    for key in ("winnable", "best_score", "best_moves", "line", "moves", "status", "score"):
        assert a[key] == b[key], key
    assert a["fair"] is False and a["unknown"] == 0 and a["known"] == 52


# --- record files ----------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}+{r.variant}")
def test_record_file_round_trip(rules: Rules) -> None:
    deal = Deal.from_number(7)
    tokens, _, _ = random_record(deal, rules, random.Random(7), 40)
    start = Start.of_seen(seen_text(deal, rules), rules)
    text = header(start, "cards-left") + "".join(t + "\n" for t in tokens)
    record = parse_record_file(text, "f")
    assert record.start == start and record.scoring == "cards-left"
    assert [o.token for o in record.moves] == tokens
    assert f"variant: {rules.variant or 'none'}\n" in text  # never an empty value
    assert parse_record_file(text.replace("variant: none", "variant:"), "f") == record
    # A last line without its line end is a move cut short as it was written: left out
    # (and said), even when what was written reads as a move (d of d:9h).
    assert parse_record_file(text + "Kc:", "f").moves == record.moves
    assert parse_record_file(text + "Kc:", "f").torn == "Kc:" and record.torn is None
    assert parse_record_file(text + "d", "f").moves == record.moves
    assert parse_record_file(text + "d", "f").torn == "d"
    assert len(parse_record_file(text + "d\n", "f").moves) == len(tokens) + 1
    for bad in ("hello\n", text.replace("rules: ", "rules: hard"),
                text.replace("scoring: cards-left", "scoring: best"),
                text.replace("start: seen", "start: seen Kc"),
                text.replace("scoring:", "rules: easy\nscoring:")):
        with pytest.raises(InputError):
            parse_record_file(bad, "f")


def test_errors_leave_the_game_as_it_was() -> None:
    deal = Deal.from_number(1)
    game = ObservedGame(Start.of_seen(seen_text(deal, EASY), EASY))
    game.play("Js")
    state = (game.game.removed, game.game.moves, game.known_places, list(game.tokens))
    for bad in ("d", "d:2c", "d:4s,6c", "7d", "u:Js", "Qh"):
        with pytest.raises((InputError, IllegalMoveError)):
            game.play(bad)
        assert (game.game.removed, game.game.moves, game.known_places, list(game.tokens)) \
            == state, bad
    with pytest.raises(NeedsObservation) as info:
        game.play("d")
    assert info.value.places == (29,)
    assert game.game.status is Status.IN_PLAY


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 300), st.sampled_from(RULES), st.integers(0, 10**6))
def test_generated_records_follow_the_deal(number: int, rules: Rules, seed: int) -> None:
    check_follows(number, rules, seed, 40)


@pytest.mark.parametrize("number", [3, 11, 40])
def test_every_first_move_on_a_layout_with_unseen_cards(capsys, number):
    """On three deals with the places not seen at the start ??, every card tried: a card not seen gets one answer, whatever the deal holds there; a card seen
    gets the answer the whole deal gives (it depends only on the cards seen)."""
    tokens = Deal.from_number(number).line().split()
    hidden = {t for i, t in enumerate(tokens) if i < 18 or i >= 29}
    masked = " ".join("??" if t in hidden else t for t in tokens)
    whole = " ".join(tokens)
    for card in tokens:
        code, _, err = run(capsys, "replay", "--layout", masked, card, "--lang", "en")
        if card in hidden:
            assert (code, err) == (1, (f"move 1 ({card}): No such card is face up in the "
                                      "peaks\n"))
        else:
            assert (code, err) == run(capsys, "replay", "--layout", whole, card, "--lang",
                                      "en")[::2]
