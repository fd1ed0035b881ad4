"""The pure-Python game on explicit layouts: docs/rules.md examples, messages, score, undo, end states.

Every layout is built card by card with Deal.from_cards; expected scores come from the
docs/rules.md formula (start 500, -1 a move, +100 a cleared peak), not from the code.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from helpers import BOTTOM, BOTTOM_UP, layout

from tripeaks_solver.errors import IllegalMoveError, InputError
from tripeaks_solver.model import game as game_module
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules

# --- docs/rules.md: the start of TP1-E-AAAAAAB, as an explicit layout ---------------------

RULES_EXAMPLE = layout({18 + i: c for i, c in enumerate(BOTTOM)} | {13: "7♠"}, "A♣")


def test_rules_example_layout_is_what_we_asked_for():
    d = RULES_EXAMPLE
    assert str(d.waste) == "A♣"
    assert [str(c) for c in d.tableau[18:]] == BOTTOM
    assert str(d.tableau[13]) == "7♠"
    assert len(set(d.cards)) == 52


def test_rules_example_easy_plays_kc_2d_kd():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    assert [str(c) for c in g.playable()] == ["K♣", "2♦", "K♦"]
    assert g.status is Status.IN_PLAY
    assert [p for p in range(28) if g.is_face_up(p)] == list(range(18, 28))


def test_rules_example_classic_plays_only_2d():
    g = Game(RULES_EXAMPLE, CLASSIC, lang="en")
    assert [str(c) for c in g.playable()] == ["2♦"]
    for card in ("K♣", "K♦"):
        with pytest.raises(IllegalMoveError) as info:
            g.remove(card)
        assert info.value.key == "not_adjacent"
    assert g.moves == 0 and g.score == 500


def test_rules_example_position_13_turns_up():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    assert not g.is_uncovered(13)
    g.remove("K♣")  # K on A (Easy wraps)
    assert not g.is_uncovered(13)
    g.remove("A♠")  # A on K
    assert not g.is_uncovered(13)  # still covered by 2♦ at position 22
    g.remove("2♦")  # 2 on A
    assert g.is_uncovered(13) and g.is_face_up(13)
    assert g.removed == (1 << 20) | (1 << 23) | (1 << 22)
    assert str(g.waste) == "2♦"
    assert g.score == 497 and g.moves == 3
    assert not g.is_uncovered(12) and not g.is_uncovered(14)  # 21 and 24 still there


def test_error_texts_english():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    with pytest.raises(IllegalMoveError) as info:
        g.remove("3♠")
    assert str(info.value) == "Must be one rank higher or lower"
    assert info.value.key == "not_adjacent"
    with pytest.raises(IllegalMoveError) as info:
        g.remove("7♠")  # position 13, covered and face down
    assert str(info.value) == "This card is blocked"
    assert info.value.key == "blocked"
    # Refused moves change nothing.
    assert g.moves == 0 and g.score == 500 and g.removed == 0 and str(g.waste) == "A♣"


def test_blocked_wins_over_not_adjacent():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    g.remove("K♣")
    g.remove("A♠")
    g.remove("2♦")
    # Row-3 position 11 is covered by 20 (gone) and 21 (5♠ still there).
    with pytest.raises(IllegalMoveError, match="This card is blocked"):
        g.remove(g.deal.tableau[11])


@pytest.mark.parametrize(
    "lang, not_adjacent, blocked",
    [
        ("vi", "Phải cao hơn hoặc thấp hơn một bậc", "Lá bài này bị chặn"),
        ("sk", "Musí mať hodnotu o jeden stupeň vyššiu alebo nižšiu", "Táto karta je zablokovaná"),
        ("en", "Must be one rank higher or lower", "This card is blocked"),
    ],
)
def test_error_texts_localized(lang, not_adjacent, blocked, monkeypatch):
    for g in (Game(RULES_EXAMPLE, EASY, lang=lang), None):
        if g is None:  # the same texts chosen by the LANG environment variable
            monkeypatch.setenv("LANG", {"vi": "vi_VN.UTF-8", "sk": "sk_SK.UTF-8", "en": "C"}[lang])
            g = Game(RULES_EXAMPLE, EASY)
        with pytest.raises(IllegalMoveError) as info:
            g.remove("3♠")
        assert str(info.value) == not_adjacent
        with pytest.raises(IllegalMoveError) as info:
            g.remove("7♠")
        assert str(info.value) == blocked


def test_explicit_lang_beats_environment(monkeypatch):
    monkeypatch.setenv("LANG", "sk_SK.UTF-8")
    g = Game(RULES_EXAMPLE, EASY, lang="vi")
    with pytest.raises(IllegalMoveError, match="Lá bài này bị chặn"):
        g.remove("7♠")


def test_unset_or_unknown_lang_environment_is_english(monkeypatch):
    monkeypatch.delenv("LANG", raising=False)
    with pytest.raises(IllegalMoveError, match="This card is blocked"):
        Game(RULES_EXAMPLE).remove("7♠")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with pytest.raises(IllegalMoveError, match="This card is blocked"):
        Game(RULES_EXAMPLE).remove("7♠")


def test_unknown_lang_argument_is_input_error():
    with pytest.raises(InputError, match="'xx'"):
        Game(RULES_EXAMPLE, lang="xx")


def test_card_not_in_the_peaks():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    stock_card = g.deal.stock[0]
    for card in (stock_card, g.deal.waste):
        with pytest.raises(IllegalMoveError, match="This card is not in the peaks"):
            g.remove(card)
    g.remove("K♣")
    with pytest.raises(IllegalMoveError, match="This card is not in the peaks"):
        g.remove("K♣")  # already removed


# --- rules ---------------------------------------------------------------------------


def test_adjacency_tables():
    for a in range(13):
        for b in range(13):
            assert EASY.adjacent(a, b) == ((a - b) % 13 in (1, 12)), (a, b)
            assert CLASSIC.adjacent(a, b) == (abs(a - b) == 1), (a, b)
    assert EASY.adjacent(12, 0) and EASY.adjacent(0, 12)  # K-A
    assert not CLASSIC.adjacent(12, 0) and not CLASSIC.adjacent(0, 12)
    assert Rules.named(" Easy ") is EASY and Rules.named("CLASSIC") is CLASSIC
    assert (str(EASY), str(CLASSIC)) == ("Easy", "Classic")
    with pytest.raises(InputError, match="'hard'"):
        Rules.named("hard")


# --- winning lines built by hand ---------------------------------------------------------
# Removal order: bottom row left to right, then row 3, row 2, row 1 (each card is
# uncovered when its turn comes). Ranks along that order run from the waste A:
# up 2 … K, down Q … 2, up 3 … 7 — 28 cards, every step one rank, no K–A wrap needed,
# no rank used more than 4 times (A once for the waste).
ORDER = BOTTOM_UP
RANKS = "23456789TJ" + "QKQJT9876" + "543234" + "567"  # bottom row, row 3, row 2, row 1
SUIT_ORDER = "cdhs"


def chain_cards() -> dict[int, str]:
    used: dict[str, int] = {"A": 1}  # the waste is an ace
    cards = {}
    for p, r in zip(ORDER, RANKS, strict=True):
        cards[p] = r + SUIT_ORDER[used.get(r, 0)]
        used[r] = used.get(r, 0) + 1
    return cards


CHAIN = chain_cards()


def test_chain_is_a_valid_hand_derivation():
    assert len(RANKS) == 28 and sorted(ORDER) == list(range(28))
    ranks = "A" + RANKS
    values = ["A23456789TJQK".index(r) for r in ranks]
    assert all(abs(a - b) == 1 for a, b in pairwise(values))  # no wrap needed
    assert max(ranks.count(r) for r in set(ranks)) <= 4
    assert len(set(CHAIN.values())) == 28


def expected_scores(draws: int) -> list[int]:
    """docs/rules.md: -1 per move; the removals of 0, 1, 2 (the last three) each clear a peak."""
    score, out = 500, []
    for _ in range(draws):
        score -= 1
        out.append(score)
    for p in ORDER:
        score += -1 + (100 if p in (0, 1, 2) else 0)
        out.append(score)
    return out


@pytest.mark.parametrize("rules", [EASY, CLASSIC])
def test_no_draw_win_scores_772(rules):
    deal = layout(CHAIN, "Ac")
    g = Game(deal, rules, lang="en")
    scores = []
    for p in ORDER:
        assert g.status is Status.IN_PLAY
        action = g.remove(CHAIN[p])
        assert action.position == p
        assert action.peaks_cleared == (1 if p in (0, 1, 2) else 0)
        scores.append(g.score)
    assert scores == expected_scores(0)
    assert g.score == 500 - 28 + 300 == 772
    assert g.moves == 28 and g.cards_left == 0 and g.peaks_cleared == 3
    assert g.status is Status.WON
    assert g.stock_left == 23  # won with the whole stock left
    with pytest.raises(IllegalMoveError, match="The game is won"):
        g.draw()


def test_all_23_draws_then_win_scores_749():
    # Same tableau; the stock ends with an ace so that after 23 draws the chain starts.
    deal = layout(CHAIN, "Ks", stock_last=["Ah"])
    g = Game(deal, EASY, lang="en")
    for i in range(23):
        action = g.draw()
        assert action.is_draw and action.card == deal.stock[i]
    assert g.stock_left == 0 and str(g.waste) == "A♥"
    assert g.score == 477 and g.status is Status.IN_PLAY
    with pytest.raises(IllegalMoveError, match="The stock is empty"):
        g.draw()  # stock empty but a card plays: not stuck, just no draw
    for p in ORDER:
        g.remove(CHAIN[p])
    assert g.score == 500 - (23 + 28) + 300 == 749
    assert g.moves == 51 and g.status is Status.WON


def test_all_draws_score_trace_classic():
    # The whole score trace of the 749 line, move by move, under Classic rules.
    deal = layout(CHAIN, "Ks", stock_last=["Ah"])
    g = Game(deal, CLASSIC, lang="en")
    trace = []
    for _ in range(23):
        g.draw()
        trace.append(g.score)
    for p in ORDER:
        g.remove(CHAIN[p])
        trace.append(g.score)
    assert trace == expected_scores(23)


def test_peak_bonus_comes_with_the_last_card_of_that_peak():
    # Clear the left peak first: it needs 18, 19, 20 and also 21 (under position 11).
    order = [18, 19, 20, 21, 9, 10, 11, 3, 4, 0]
    ranks = "23456789TJ"  # from the waste A, one step up each move
    tableau = {p: r + "c" for p, r in zip(order, ranks)}
    g = Game(layout(tableau, "Ad"), EASY, lang="en")
    for k, p in enumerate(order, start=1):
        action = g.remove(tableau[p])
        if p == 0:
            assert action.peaks_cleared == 1
            assert g.score == 500 - k + 100 == 590
            assert g.peaks_cleared == 1
        else:
            assert action.peaks_cleared == 0
            assert g.score == 500 - k
            assert g.peaks_cleared == 0
    # Middle peak: card 21 is gone but that clears nothing by itself.
    assert g.is_removed(21) and g.status is Status.IN_PLAY


# --- undo ----------------------------------------------------------------------------


def test_undo_restores_card_face_down_waste_and_score_but_not_the_counter():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    g.remove("K♣")
    g.remove("A♠")
    g.remove("2♦")
    assert g.is_face_up(13) and g.score == 497 and g.moves == 3
    action = g.undo()
    assert str(action.card) == "2♦" and action.position == 22
    assert not g.is_face_up(13)  # turned face down again
    assert not g.is_removed(22) and g.is_uncovered(22)  # 2♦ back in its place
    assert str(g.waste) == "A♠"
    assert g.score == 498
    assert g.moves == 3  # the move counter never goes down
    g.remove("2♦")
    assert g.moves == 4 and g.score == 497 and g.is_face_up(13)
    g.undo()
    g.undo()
    g.undo()
    assert g.removed == 0 and str(g.waste) == "A♣" and g.score == 500 and g.moves == 4
    assert [str(c) for c in g.playable()] == ["K♣", "2♦", "K♦"]


def test_undo_a_draw():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    top = g.deal.stock[0]
    g.draw()
    assert g.waste == top and g.stock_left == 22 and g.score == 499
    action = g.undo()
    assert action.is_draw and action.card == top
    assert str(g.waste) == "A♣" and g.stock_left == 23 and g.score == 500 and g.moves == 1
    g.draw()
    assert g.waste == top  # the same card comes again


def test_undo_gives_back_a_peak_bonus():
    g = Game(layout(CHAIN, "Ac"), EASY, lang="en")
    for p in ORDER[:25]:
        g.remove(CHAIN[p])
    assert g.score == 475
    g.remove(CHAIN[0])
    assert g.score == 574 and g.peaks_cleared == 1
    g.undo()
    assert g.score == 475 and g.peaks_cleared == 0 and not g.is_removed(0)
    assert g.moves == 26
    g.remove(CHAIN[0])
    assert g.score == 574 and g.moves == 27


def test_undo_after_win():
    g = Game(layout(CHAIN, "Ac"), EASY, lang="en")
    for p in ORDER:
        g.remove(CHAIN[p])
    assert g.status is Status.WON
    g.undo()
    assert g.status is Status.IN_PLAY and g.score == 673 and g.cards_left == 1


def test_nothing_to_undo():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    with pytest.raises(IllegalMoveError) as info:
        g.undo()
    assert str(info.value) == "Nothing to undo" and info.value.key == "nothing_to_undo"
    g.draw()
    g.undo()
    with pytest.raises(IllegalMoveError, match="Nothing to undo"):
        g.undo()
    with pytest.raises(IllegalMoveError, match="Không có gì để hoàn tác"):
        Game(RULES_EXAMPLE, lang="vi").undo()


def test_undo_keeps_the_last_100_actions():
    g = Game(RULES_EXAMPLE)
    assert g.history.maxlen == 100 == game_module.UNDO_LIMIT
    # A game holds at most 28 + 23 = 51 actions on its undo stack, so the limit of 100
    # cannot bind in real play; check the mechanism with a smaller limit.


def test_only_the_last_n_actions_can_be_undone(monkeypatch):
    monkeypatch.setattr(game_module, "UNDO_LIMIT", 5)
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    for _ in range(8):
        g.draw()
    assert g.score == 492
    for k in range(5):
        g.undo()
    # Draws 4 … 8 were undone; draws 1 … 3 fell off the 5-deep undo stack.
    assert g.stock_left == 23 - 3 and g.score == 497 and g.waste == g.deal.stock[2]
    with pytest.raises(IllegalMoveError, match="Nothing to undo"):
        g.undo()
    assert g.moves == 8


# --- end states ------------------------------------------------------------------------


def test_stuck_when_stock_is_empty_and_nothing_follows():
    # Bottom row ranks 2 … J; the last stock card is a K: under both rule sets nothing
    # in 2 … J follows a K (Q and, with wrap, A are not in the bottom row).
    for rules in (EASY, CLASSIC):
        g = Game(layout(CHAIN, "Ac", stock_last=["Ks"]), rules, lang="en")
        for _ in range(23):
            assert g.status is Status.IN_PLAY
            g.draw()
        assert g.status is Status.STUCK
        assert g.playable() == []
        assert g.score == 477  # no penalty, no bonus
        with pytest.raises(IllegalMoveError) as info:
            g.draw()
        assert str(info.value) == "No more valid moves" and info.value.key == "stuck"
        with pytest.raises(IllegalMoveError, match="No more valid moves"):
            g.remove(CHAIN[18])
        g.undo()  # the player may undo
        assert g.status is Status.IN_PLAY and g.stock_left == 1


@pytest.mark.parametrize(
    "lang, text", [("vi", "Không còn nước đi hợp lệ"), ("sk", "Žiadny ďalší ťah nie je možný")]
)
def test_stuck_localized(lang, text, monkeypatch):
    deal = layout(CHAIN, "Ac", stock_last=["Ks"])
    monkeypatch.setenv("LANG", f"{lang}_XX.UTF-8")
    for g in (Game(deal, EASY, lang=lang), Game(deal, EASY)):
        for _ in range(23):
            g.draw()
        with pytest.raises(IllegalMoveError) as info:
            g.draw()
        assert str(info.value) == text


def test_not_stuck_while_stock_remains_even_with_nothing_playable():
    deal = layout(CHAIN, "Ks")  # K on top: nothing in the bottom row (2 … J) follows
    g = Game(deal, EASY, lang="en")
    assert g.playable() == [] and g.status is Status.IN_PLAY
    g.draw()
    assert g.moves == 1


def test_score_never_below_zero():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    g.score = 0  # unreachable in play (at most 51 moves), so set it: the clamp itself
    g.draw()
    assert g.score == 0
    g.undo()
    assert g.score == 0


# --- play(): record tokens ---------------------------------------------------------------


def test_play_tokens():
    g = Game(RULES_EXAMPLE, EASY, lang="en")
    g.play("Kc")
    g.play("A♠")
    g.play(" 2d ")
    assert g.moves == 3 and str(g.waste) == "2♦"
    g.play("u")
    g.play("UNDO")
    assert str(g.waste) == "K♣"
    g.play("d")
    g.play("Draw")
    assert g.stock_left == 21 and g.moves == 5
    with pytest.raises(InputError) as info:
        g.play("Xq")
    assert "'Xq'" in str(info.value)
    with pytest.raises(IllegalMoveError, match="Must be one rank higher or lower"):
        g.play("3s")
