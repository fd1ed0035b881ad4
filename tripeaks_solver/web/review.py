"""What the page shows of a game beyond its board: the moves as a list, the cards the
player told (to correct one), the game judged move by move (in the background: a job
of web.jobs' background lane, which gives way to any advice), the board after a move
of the record, and why the advice is not the top bar. Data only: the page words it
(web/static/i18n.js).

The judgement is ``analyze``'s (:func:`analysis.hints.analyze_game`): exact values when
the whole deal is known, and fair shares (from what the player knew before each move)
whenever the game began with cards unseen. Marks are analyze's when exact; while cards
are unknown they are fair marks (:func:`fair_mark`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.hints import _taken_back
from ..analysis.stats import fraction
from ..errors import InputError
from ..games.turns import score_of
from ..limits import REVIEW_SAMPLES
from ..model.game import Game, Status
from ..model.geometry import TABLEAU_SIZE
from ..model.i18n import _
from ..model.moves import move_numbers
from ..model.observed import ObservedGame, Start

if TYPE_CHECKING:
    from ..analysis.fair import StopCheck
    from ..analysis.hints import MoveReview, Review
    from ..games.turns import Advice
    from ..model.layout import Layout
    from ..model.observed import Observed
    from ..model.position import Position

FAIR_MARGIN = 0.05  # a fair "?": the move kept this much less of the guesses winnable


# --- the board and the moves ---------------------------------------------------------------
def board_cells(position: Position, knowledge: Layout) -> list[dict]:
    """The 28 places as the player sees them: face-up cards named (from ``knowledge``,
    what the player has told), the others as backs, removed ones marked."""
    cells = []
    for place in range(TABLEAU_SIZE):
        removed = bool(position.removed >> place & 1)
        up = not removed and position.face_up(place)
        card = knowledge.places[place] if up else None
        cells.append({"place": place, "removed": removed, "face_up": up,
                      "card": None if card is None else card.token})
    return cells


def move_rows(record: list[Observed]) -> list[dict]:
    """One row a line of the record (``ply``, 1-based): the move's number as the app's
    counter shows it, its token, the cards it turned up, and whether an undo took it
    back (an undo is taken back too: neither is part of the game as it stands)."""
    moves = [o.move for o in record]
    numbers, back = move_numbers(moves), _taken_back(moves)
    return [{"ply": i + 1, "number": numbers[i], "move": o.move.token,
             "shown": [c.token for c in o.shown], "taken_back": back[i]}
            for i, o in enumerate(record)]


def told_cards(game: ObservedGame) -> list[dict]:
    """The cards the player told, where and when (``ply`` 0: at the start, else the line
    of the record that first showed it), those a correction may change: none when the
    deal is known from its start; not the one known by elimination."""
    if game.start.deal is not None:
        return []
    first: dict[int, int] = {}
    for ply, step in enumerate(game.record, 1):
        for shown in step.shown:
            first.setdefault(int(shown), ply)
    told = []
    for place, card in enumerate(game.knowledge.places):
        if card is None:
            continue
        if game.start.knowledge.places[place] is not None:
            told.append({"card": card.token, "place": place, "ply": 0})
        elif int(card) in first:
            told.append({"card": card.token, "place": place, "ply": first[int(card)]})
    return sorted(told, key=lambda t: (t["ply"], t["place"]))


def board_after(start: Start, record: list[Observed], ply: int, scoring: str) -> dict:
    """The position after the first ``ply`` lines of the record, with the cards as the
    player knew them then; and, when the whole deal is known now, the best line from
    there (hindsight: ``analyze``'s exact values)."""
    if not 0 <= ply <= len(record):
        raise InputError(_("no move {number}: the record has {count}", number=ply,
                           count=len(record)))
    then = ObservedGame.replay(start, record[:ply])
    position = then.position()
    out = {"ply": ply, "board": board_cells(position, then.knowledge),
           "waste": None if position.waste is None else position.waste.token,
           "stock_left": position.stock_left, "score": score_of(position, scoring),
           "status": position.status.value, "moves_played": position.moves_played,
           "known": len(then.known_places), "line": None, "best_score": None,
           "winnable": None}
    deal = ObservedGame.replay(start, record).deal  # known now, from the start or seen
    if deal is not None and position.status is Status.IN_PLAY:
        from ..solver.solve import solve

        game = Game(deal, start.rules)
        for step in record[:ply]:
            game.play(step.move)
        best = solve(game, scheme=scoring)
        out.update(line=best.tokens, best_score=best.best_score, winnable=best.winnable)
    return out


# --- the judgement --------------------------------------------------------------------
def fair_mark(row: MoveReview) -> str:
    """A move's mark from the fair shares (what the player could know): ``??`` it left
    none of the guesses at the unseen cards winnable while another move kept some,
    ``?`` it kept at least FAIR_MARGIN less of them than the best move, else empty."""
    if row.taken_back or row.share_after is None or row.share_best is None:
        return ""
    if row.share_after == 0 < row.share_best:
        return "??"
    return "?" if row.share_best - row.share_after >= FAIR_MARGIN else ""


def judge(start: Start, record: list[Observed], scoring: str, samples: int, seed: int,
          should_stop: StopCheck | None = None) -> dict:
    """The record judged as ``analyze`` judges it (fairly too when the game began with
    cards unseen), as the page shows it: a row a line of the record, the marks, and
    the summary's data. ``should_stop`` is asked between short searches, as
    :func:`analysis.hints.analyze_game` asks it (Cancelled when it says stop)."""
    from ..analysis.hints import analyze_game

    samples = min(samples, REVIEW_SAMPLES)
    review = analyze_game(start, record, scoring, fair=start.deal is None, samples=samples,
                          seed=seed, should_stop=should_stop)
    game = ObservedGame.replay(start, record)
    rows = []
    for ply, r in enumerate(review.moves, 1):
        mark = r.mark if review.exact else fair_mark(r)
        rows.append({"ply": ply, "number": r.number, "move": r.move.token,
                     "taken_back": r.taken_back, "mark": mark or "",
                     "best_before": r.best_before, "best_after": r.best_after, "lost": r.lost,
                     "share_before": fraction(r.share_before),
                     "share_after": fraction(r.share_after),
                     "share_best": fraction(r.share_best), "verdict": r.verdict})
    out = {"exact": review.exact, "fair": review.fair, "samples": samples, "seed": seed,
           "status": review.status.value, "score": review.final_score,
           "moves_played": review.moves_played, "best_start": review.best_start,
           "final_best": review.final_best, "lost_total": review.lost_total,
           "unseen": len(game.knowledge.unknown_places), "rows": rows,
           "winnable_start": review.moves[0].winnable_before if review.moves else None,
           "marks": {m: sum(r["mark"] == m for r in rows) for m in ("??", "?", "!")},
           "bad_luck": sum(r.verdict == "bad luck" for r in review.moves),
           "mistakes": sum(r.verdict == "mistake" for r in review.moves),
           "lost": _lost(review, record, should_stop), "fell": _fell(rows)}
    return out


def _lost(review: Review, record: list[Observed], should_stop: StopCheck | None
          ) -> dict | None:
    """The move after which no win was left (exact): its line, number and token, and
    the moves that would have kept a win there."""
    if review.lost_at is None:
        return None
    ply = next(i for i, r in enumerate(review.moves, 1)
               if r.number == review.lost_at and not r.taken_back and not r.move.is_undo)
    from ..analysis.hints import hint

    game = Game(review.start.deal, review.start.rules)
    for step in record[:ply - 1]:
        game.play(step.move)
    keepers = [m.move.token for m in hint(game, review.scheme, should_stop=should_stop).moves
               if m.winnable]
    return {"ply": ply, "number": review.lost_at, "move": record[ply - 1].move.token,
            "keepers": keepers}


def _fell(rows: list[dict]) -> dict | None:
    """The move after which the share still winnable (over guesses at the unseen
    cards) fell the most, when one fell."""
    falls = [(r["share_before"] - r["share_after"], r) for r in rows
             if not r["taken_back"] and r["share_before"] is not None
             and r["share_after"] is not None]
    if not falls:
        return None
    fall, row = max(falls, key=lambda f: f[0])
    if fall <= 0:
        return None
    return {"ply": row["ply"], "number": row["number"], "move": row["move"],
            "before": row["share_before"], "after": row["share_after"]}


# --- the advice's note ---------------------------------------------------------------
def rather_than(advice: Advice) -> dict | None:
    """When the fair advice recommends a move below the top bar (a higher share still
    winnable): that move, and the share of the guessed games each won by careful play
    (the terminal coach says the same in words)."""
    fa = advice.fair
    if fa is None or fa.recommended is None or not fa.rating.moves:
        return None
    top = fa.rating.moves[0]
    mine = next(m for m in fa.rating.moves if m.move == fa.recommended)
    if top.share <= mine.share:
        return None
    return {"top": top.move.token, "won": fraction(fa.won(fa.recommended)),
            "won_top": fraction(fa.won(top.move))}


__all__ = ["board_after", "board_cells", "fair_mark",
           "judge", "move_rows", "rather_than", "told_cards"]
