"""What the page shows of a game beyond its board: the moves as a list, the cards the
player told (to correct one), the game judged move by move (in the background: a job
of web.jobs' background lane, which gives way to any advice), the board after a move
of the record, and why the advice is not the top bar. Data only: the page words it
(web/static/i18n.js).

The judgement is ``analyze``'s (:func:`analysis.hints.analyze_game`): each move as it
could be seen then, against the advice of its moment (the chances the advice computed
during play, kept by ``analysis.chances``), graded ``?!``, ``?``, ``??``; and the exact
values (hindsight) when the whole deal is known now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.hints import _taken_back
from ..analysis.stats import fraction
from ..errors import InputError
from ..games.turns import score_of
from ..model.game import Game, Status
from ..model.geometry import TABLEAU_SIZE
from ..model.i18n import _
from ..model.moves import move_numbers
from ..model.observed import ObservedGame, Start, name_place
from .payloads import (
    BoardAfter,
    Cell,
    Judgement,
    LostAt,
    Luck,
    LuckMove,
    MoveRow,
    Rather,
    ReviewRow,
    ToldCard,
)

if TYPE_CHECKING:
    from ..analysis.chances import Chances
    from ..analysis.fair import StopCheck
    from ..analysis.hints import Review
    from ..model.layout import Layout
    from ..model.observed import Observed
    from ..model.position import Position


# --- the board and the moves ---------------------------------------------------------------
def board_cells(position: Position, knowledge: Layout) -> list[Cell]:
    """The 28 places as the player sees them: face-up cards named (from ``knowledge``,
    what the player has told), the others as backs, removed ones marked."""
    cells: list[Cell] = []
    for place in range(TABLEAU_SIZE):
        removed = bool(position.removed >> place & 1)
        up = not removed and position.face_up(place)
        card = knowledge.places[place] if up else None
        cells.append({"place": place, "removed": removed, "face_up": up,
                      "card": None if card is None else card.token})
    return cells


def move_rows(record: list[Observed]) -> list[MoveRow]:
    """One row a line of the record (``ply``, 1-based): the move's number as the app's
    counter shows it, its token, the cards it turned up, and whether an undo took it
    back (an undo is taken back too: neither is part of the game as it stands)."""
    moves = [o.move for o in record]
    numbers, back = move_numbers(moves), _taken_back(moves)
    return [{"ply": i + 1, "number": numbers[i], "move": o.move.token,
             "shown": [c.token for c in o.shown], "taken_back": back[i]}
            for i, o in enumerate(record)]


def told_cards(game: ObservedGame) -> list[ToldCard]:
    """The cards the player told, where and when (``ply`` 0: at the start, else the line
    of the record that first showed it), those a correction may change: none when the
    deal is known from its start; not the one known by elimination."""
    if game.start.deal is not None:
        return []
    first: dict[int, int] = {}
    for ply, step in enumerate(game.record, 1):
        for shown in step.shown:
            first.setdefault(int(shown), ply)
    told: list[ToldCard] = []
    for place, card in enumerate(game.knowledge.places):
        if card is None:
            continue
        name = name_place(place, game.rules)  # as the server names a place it asks for
        if game.start.knowledge.places[place] is not None:
            told.append({"card": card.token, "place": place, "name": name, "ply": 0})
        elif int(card) in first:
            told.append({"card": card.token, "place": place, "name": name,
                         "ply": first[int(card)]})
    return sorted(told, key=lambda t: (t["ply"], t["place"]))


def board_after(start: Start, record: list[Observed], ply: int, scoring: str) -> BoardAfter:
    """The position after the first ``ply`` lines of the record, with the cards as the
    player knew them then; and, when the whole deal is known now, the best line from
    there (hindsight: ``analyze``'s exact values)."""
    if not 0 <= ply <= len(record):
        raise InputError(_("no move {number}: the record has {count}", number=ply,
                           count=len(record)))
    then = ObservedGame.replay(start, record[:ply])
    position = then.position()
    out: BoardAfter = {"ply": ply, "board": board_cells(position, then.knowledge),
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
        out.update({"line": best.tokens, "best_score": best.best_score,
                    "winnable": best.winnable})
    return out


# --- the judgement --------------------------------------------------------------------
def judge(start: Start, record: list[Observed], scoring: str, samples: int, seed: int,
          should_stop: StopCheck | None = None) -> Judgement:
    """The record judged as ``analyze --samples N --seed S`` judges it (each move as it
    could be seen then, against the advice of its moment, whose chances the advice kept;
    exactly too when the whole deal is known now), as the page shows it: a row a line
    of the record, the marks, and the end's data. ``should_stop`` is asked between
    short searches, as :func:`analysis.hints.analyze_game` asks it (Cancelled when it
    says stop)."""
    from ..analysis.hints import analyze_game

    review = analyze_game(start, record, scoring, samples=samples, seed=seed,
                          should_stop=should_stop)
    game = ObservedGame.replay(start, record)
    rows: list[ReviewRow] = []
    for ply, (r, j) in enumerate(zip(review.moves, review.rows(), strict=True), 1):
        rows.append({"ply": ply, "number": r.number, "move": r.move.token,
                     "taken_back": r.taken_back, "mark": j["mark"], "grade": j["grade"],
                     "followed": j["followed"], "better": j["better"],
                     "loss": j["chance_lost"], "chance_played": j["chance_played"],
                     "chance_best": j["chance_best"], "points_lost": j["points_lost"],
                     "luck": j["luck"], "exact_mark": r.exact_mark or "",
                     "choices": None if r.decision is None else r.decision.choices,
                     "by_points": r.decision is not None and r.decision.by_points,
                     "best_before": r.best_before, "best_after": r.best_after,
                     "lost": r.lost, "verdict": r.verdict})
    by_ply = {id(r): ply for ply, r in enumerate(review.moves, 1)}
    costliest = [rows[by_ply[id(r)] - 1] for r in review.costliest()]
    out: Judgement = {"exact": review.exact, "samples": samples, "seed": seed,
           "status": review.status.value, "score": review.final_score,
           "moves_played": review.moves_played, "best_start": review.best_start,
           "final_best": review.final_best, "lost_total": review.lost_total,
           "unseen": len(game.knowledge.unknown_places), "rows": rows,
           "winnable_start": review.moves[0].winnable_before if review.moves else None,
           "marks": {m: review.count(m) for m in ("??", "?", "?!")},
           "exact_marks": ({m: review.count_exact(m) for m in ("??", "?", "!")}
                           if review.exact else None),
           "followed": sum(d.followed and d.choices > 1 for d in review.decisions),
           "decisions": sum(d.choices > 1 for d in review.decisions),
           "accuracy": fraction(review.accuracy),
           "costliest": [{"ply": r["ply"], "number": r["number"], "move": r["move"],
                          "better": r["better"], "mark": r["mark"], "loss": r["loss"],
                          "points_lost": r["points_lost"]} for r in costliest],
           "luck": _luck(rows, review.luck_total),
           "bad_luck": sum(r.verdict == "bad luck" for r in review.moves),
           "mistakes": sum(r.verdict == "mistake" for r in review.moves),
           "lost": _lost(review, record, should_stop)}
    return out


def _luck(rows: list[ReviewRow], total: float | None) -> Luck | None:
    """The luck of the game: in all, and the cards that did the most harm and good."""
    lucky = [r for r in rows if r["luck"] is not None]
    if total is None or not lucky:
        return None
    worst = min(lucky, key=lambda r: r["luck"])
    best = max(lucky, key=lambda r: r["luck"])

    def said(r: ReviewRow) -> LuckMove:
        return {"ply": r["ply"], "number": r["number"], "move": r["move"], "luck": r["luck"]}

    return {"total": fraction(total), "worst": said(worst) if worst["luck"] < 0 else None,
            "best": said(best) if best["luck"] > 0 else None}


def _lost(review: Review, record: list[Observed], should_stop: StopCheck | None
          ) -> LostAt | None:
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


# --- the advice's note ---------------------------------------------------------------
def rather_than(chances: Chances) -> Rather | None:
    """Why the move recommended is not alone at the top of the bars: ``why`` ``tie``
    (``top``, the move with the higher chance, won ``more`` of the guessed games, within
    the noise of the samples: the careful move kept) or ``points`` (every move's chance
    the same: the move with the most expected ``points``); None otherwise (the terminal
    coach says the same in words, ``turns.choice_note``)."""
    top, rec = chances.top, chances.moves[0] if chances.moves else None
    if chances.why is None or top is None or rec is None:
        return None
    return {"why": chances.why, "top": top.move.token, "more": top.wins - rec.wins,
            "points": round(rec.points, 2)}


__all__ = ["board_after", "board_cells", "judge", "move_rows", "rather_than", "told_cards"]
