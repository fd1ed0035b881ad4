"""The JSON the server of ``serve`` sends, one TypedDict a payload (docs/web.md, The
HTTP API, names each and its keys; tests/test_web_payloads.py checks the answers
against them): mypy checks every key the functions that build them write. Plain
dicts at run time: the JSON is the same as before they were typed."""

from __future__ import annotations

from typing import Any, TypedDict

from ..games.turns import PeekData, PeekShow


class ErrorAnswer(TypedDict):
    """Every answer that is not 2xx."""
    error: str


class ShareInfo(TypedDict):
    """``GET /api/share``."""
    url: str | None
    svg: str | None


class GameEntry(TypedDict):
    """A record of ``GET /api/games`` (as ``coach --list`` lists it)."""
    file: str
    modified: str
    start: str | None
    rules: str | None
    scoring: str | None
    moves: int | None
    score: int | None
    result: str | None
    error: str | None
    open: bool
    held_elsewhere: bool


class GameList(TypedDict):
    """``GET /api/games``."""
    folder: str
    games: list[GameEntry]


class StartText(TypedDict):
    """STATE's ``start``."""
    kind: str
    text: str


class Cell(TypedDict):
    """A place of the board: STATE's and BOARD's ``board`` (``card`` null unless face up)."""
    place: int
    removed: bool
    face_up: bool
    card: str | None


class Need(TypedDict):
    """STATE's ``need``: the card asked for."""
    move: str
    place: int
    name: str
    of: int
    asked: int


class Peek(PeekData):
    """STATE's ``peek``: ``coach --json``'s, and what the page adds."""
    seen: int
    of: int
    done: bool
    following: bool
    seed: int | None
    text: str


class MoveRow(TypedDict):
    """A line of the record: STATE's ``moves``."""
    ply: int
    number: int
    move: str
    shown: list[str]
    taken_back: bool


class ToldCard(TypedDict):
    """A card the player told: STATE's ``told``."""
    card: str
    place: int
    name: str
    ply: int


class GameState(TypedDict):
    """STATE: a game as it stands (``GET /api/games/NAME`` and every change)."""
    name: str
    start: StartText
    rules: str
    variant: str
    scoring: str
    at: int
    status: str
    moves_played: int
    score: int
    stock_left: int
    cards_left: int
    waste: str | None
    board: list[Cell]
    legal: list[str]
    can_undo: bool
    exact: bool
    can_peek: bool
    empty_waste: bool
    moves: list[MoveRow]
    told: list[ToldCard]
    known: int
    places: int
    known_cards: list[str]
    need: Need | None
    peek: Peek | None
    record: list[str]
    seed: int


class AdviceMove(TypedDict):
    """A legal move in ADVICE's ``moves``."""
    move: str
    chance: float | None
    points: float | None
    share: float | None
    best_score: int | None
    mark: str


class Rather(TypedDict):
    """ADVICE's ``rather``: why the move recommended is not alone at the top."""
    why: str
    top: str
    more: int
    points: float


class AdviceAnswer(TypedDict):
    """ADVICE: ``GET /api/games/NAME/advice``."""
    at: int
    exact: bool
    recommended: str | None
    player: str | None
    seed: int | None
    chance: float | None
    moves: list[AdviceMove]
    line: list[str]
    best_score: int | None
    winnable: bool | None
    rather: Rather | None


class ReviewRow(TypedDict):
    """A line of the record judged: REVIEW's ``rows``."""
    ply: int
    number: int
    move: str
    taken_back: bool
    mark: Any
    grade: Any
    followed: Any
    better: Any
    loss: Any
    chance_played: Any
    chance_best: Any
    points_lost: Any
    luck: Any
    exact_mark: str
    choices: int | None
    by_points: bool
    best_before: int | None
    best_after: int | None
    lost: int | None
    verdict: str | None


class Costly(TypedDict):
    """REVIEW's ``costliest``."""
    ply: int
    number: int
    move: str
    better: Any
    mark: Any
    loss: Any
    points_lost: Any


class LuckMove(TypedDict):
    """The worst or best luck of REVIEW's ``luck``."""
    ply: int
    number: int
    move: str
    luck: Any


class Luck(TypedDict):
    """REVIEW's ``luck``."""
    total: float | None
    worst: LuckMove | None
    best: LuckMove | None


class LostAt(TypedDict):
    """REVIEW's ``lost``: the move after which no win was left."""
    ply: int
    number: int
    move: str
    keepers: list[str]


class Judgement(TypedDict):
    """The record judged (web.review.judge): REVIEW without its ``at``."""
    exact: bool
    samples: int
    seed: int
    status: str
    score: int
    moves_played: int
    best_start: int | None
    final_best: int | None
    lost_total: int | None
    unseen: int
    rows: list[ReviewRow]
    winnable_start: bool | None
    marks: dict[str, int]
    exact_marks: dict[str, int] | None
    followed: int
    decisions: int
    accuracy: float | None
    costliest: list[Costly]
    luck: Luck | None
    bad_luck: int
    mistakes: int
    lost: LostAt | None


class ReviewAnswer(Judgement):
    """REVIEW: ``GET /api/games/NAME/review``."""
    at: int


class BoardAfter(TypedDict):
    """The position after a line of the record (web.review.board_after)."""
    ply: int
    board: list[Cell]
    waste: str | None
    stock_left: int
    score: int
    status: str
    moves_played: int
    known: int
    line: list[str] | None
    best_score: int | None
    winnable: bool | None


class BoardAnswer(BoardAfter):
    """BOARD: ``GET /api/games/NAME/review/N``."""
    at: int


class EndAnalysis(TypedDict):
    """END's ``analysis``: the game judged (its ``moves`` the rows of ``analyze --json``)."""
    exact: bool
    best_start: int | None
    final_best: int | None
    lost_at: int | None
    lost_total: int | None
    marks: dict[str, int]
    accuracy: float | None
    bad_luck: int
    mistakes: int
    moves: list[dict[str, Any]]


class EndAnswer(TypedDict):
    """END: ``GET /api/games/NAME/analysis``."""
    result: str
    score: int
    moves: int
    record: list[str]
    samples: int | None
    samples_asked: int | None
    analysis: EndAnalysis | None


class Frame(TypedDict):
    """A board of SOLVED's ``frames``: every card named."""
    board: list[Cell]
    waste: str | None
    stock_left: int
    score: int
    status: str


class ShareWon(TypedDict):
    """SOLVED's ``share``: the completions of a layout won."""
    wins: int
    total: int
    exact: bool
    share: float
    low: float
    high: float


class RulesVerdict(TypedDict):
    """A rule set's verdict in SOLVED's ``rules``."""
    rules: str
    winnable: bool | None
    best_score: int | None
    moves: list[str]
    frames: list[Frame]
    share: ShareWon | None


class Solved(TypedDict):
    """SOLVED: ``POST /api/solve``."""
    title: str
    code_rules: str | None
    scoring: str
    line: str
    unknown: int
    rules: list[RulesVerdict]
    pysol: dict[str, object] | None


class Geometry(TypedDict):
    """FACTS' ``geometry``: the board as model/geometry.py writes it."""
    tableau_size: int
    rows: list[list[int]]
    covered_by: list[list[int]]
    columns: list[int]
    width: int
    stock_size: int


class CardSyntax(TypedDict):
    """FACTS' ``cards``: how a card is written (model/cards.py)."""
    ranks: str
    suits: str
    rank_names: list[str]
    suit_symbols: dict[str, str]
    joker: str
    joker_symbol: str
    deck_size: int


class StartCount(TypedDict):
    """A line of FACTS' ``starts``: the cards a player sees at the start under the
    variants that change them (model/observed.py's ``seen_places``)."""
    open: bool
    empty_waste: bool
    count: int
    waste: bool


class LanguageName(TypedDict):
    """A line of FACTS' ``languages``."""
    code: str
    name: str


class PageLimits(TypedDict):
    """FACTS' ``limits``: the advice's samples and seed (limits.py)."""
    default_samples: int
    max_samples: int
    max_seed: str


class MarkGrades(TypedDict):
    """FACTS' ``marks``: where the review's ``?!``, ``?`` and ``??`` begin
    (analysis/judgement.py): points of chance lost, expected points lost."""
    chance: list[int]
    points: list[int]


class PageFacts(TypedDict):
    """FACTS: ``GET /api/facts``, and in the page from its first paint."""
    geometry: Geometry
    cards: CardSyntax
    starts: list[StartCount]
    languages: list[LanguageName]
    limits: PageLimits
    marks: MarkGrades


PAYLOADS: tuple[type, ...] = (
    ErrorAnswer, ShareInfo, GameList, GameEntry, GameState, StartText, Cell, Need, Peek,
    PeekShow, MoveRow, ToldCard, AdviceAnswer, AdviceMove, Rather, ReviewAnswer, ReviewRow,
    Costly, Luck, LuckMove, LostAt, BoardAnswer, EndAnswer, EndAnalysis, Solved,
    RulesVerdict, Frame, ShareWon, PageFacts, Geometry, CardSyntax, StartCount, LanguageName,
    PageLimits, MarkGrades)
"""Every payload, for the test that checks the answers and docs/web.md against them."""

__all__ = ["PAYLOADS", "AdviceAnswer", "AdviceMove", "BoardAfter", "BoardAnswer", "CardSyntax",
           "Cell", "Costly", "EndAnalysis", "EndAnswer", "ErrorAnswer", "Frame", "GameEntry",
           "GameList", "GameState", "Geometry", "Judgement", "LanguageName", "LostAt", "Luck",
           "LuckMove", "MarkGrades", "MoveRow", "Need", "PageFacts", "PageLimits", "Peek", "PeekData",
           "PeekShow", "Rather", "ReviewAnswer", "ReviewRow", "RulesVerdict", "ShareInfo", "ShareWon", "Solved", "StartCount", "StartText", "ToldCard"]
