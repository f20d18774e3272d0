"""The API's request and response bodies, as pydantic models (docs/web-api.md).

Requests are validated here (lengths, ranges, patterns), so a handler only meets
well-formed input; the board's content is checked against its puzzle in `games`.
Responses are declared so that ``/openapi.json`` describes every endpoint.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "KEY_PATTERN",
    "MAX_BOARD",
    "BoardRequest",
    "CheckOut",
    "CollectionOut",
    "CollectionsOut",
    "DailyOut",
    "ErrorOut",
    "FreshOffer",
    "FreshOut",
    "FreshRequest",
    "HintMistakes",
    "HintSolved",
    "HintStep",
    "ImportRequest",
    "MakingOut",
    "PrintOptions",
    "PrintQuery",
    "PrintRequest",
    "ProgressList",
    "ProgressOut",
    "ProgressRequest",
    "ProgressSaved",
    "PuzzleOut",
    "SettingsOut",
    "SettingsRequest",
    "SolveOut",
    "SolveRequest",
    "StockItem",
    "ViolationOut",
]

COLLECTION_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
"""A collection name: ``10x10``, ``15x15``, ``imported``."""
KEY_PATTERN = r"^[A-Za-z0-9_-]{1,32}/[0-9]{1,9}$"
"""A puzzle key: ``<collection>/<number>``."""
MAX_SIDE = 40
"""The largest grid side the game takes (imports larger are refused)."""
MAX_BOARD = MAX_SIDE * MAX_SIDE
"""The longest board string."""

Key = Annotated[str, Field(pattern=KEY_PATTERN, examples=["10x10/42"])]
BoardText = Annotated[
    str,
    Field(
        max_length=MAX_BOARD,
        description="rows*cols characters, row-major: # black, . dot, ? unknown",
    ),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore")


# -- requests -------------------------------------------------------------------------------


class BoardRequest(_Strict):
    """A player's board on a puzzle (check, hint)."""

    key: Key
    board: BoardText


class SolveRequest(_Strict):
    """The puzzle to solve."""

    key: Key


class ImportRequest(_Strict):
    """A puzzle in any format the library reads (puzz.link URL, janko, text, pzprv3, ...)."""

    text: Annotated[str, Field(min_length=1, max_length=60_000)]


class ProgressRequest(_Strict):
    """A player's state on a puzzle, saved after every move."""

    board: BoardText
    seconds: Annotated[float, Field(ge=0, le=1e8, allow_inf_nan=False)] = 0.0
    moves: Annotated[list[Annotated[str, Field(max_length=16)]], Field(max_length=5000)] = []
    solved: bool = False
    url: Annotated[str | None, Field(max_length=60_000)] = None
    """The URL of the puzzle object the board was played on; when given, a save onto a key
    that holds another puzzle now (a page loaded before a rebuild) is refused."""


class SettingsRequest(_Strict):
    """A player's settings: a free-form JSON object (at most 4 KiB)."""

    settings: dict[str, Any]


MAX_PRINT = 200
"""The most puzzles one booklet holds."""
MAX_PRINT_TEXT = 200
"""The longest booklet title or author line."""
PER_PAGE = (1, 2, 4, 6)
"""Puzzles per page a booklet may have (as `render.pdf.PER_PAGE`, which needs reportlab)."""
LevelName = Literal["easy", "medium", "hard", "expert", "extreme"]
"""A grade level (as `logic.LEVELS`; this module imports no library code)."""
LEVEL_NAMES: tuple[str, ...] = get_args(LevelName)
"""The grade levels, easiest first."""


class PrintOptions(_Strict):
    """How a booklet looks: puzzles per page, paper, solutions at the back, title, author."""

    per_page: Annotated[int, Field(json_schema_extra={"enum": list(PER_PAGE)})] = 4
    paper: Literal["a4", "letter"] = "a4"
    solutions: bool = True
    title: Annotated[str, Field(max_length=MAX_PRINT_TEXT)] = "Nurikabe"
    author: Annotated[str | None, Field(max_length=MAX_PRINT_TEXT)] = None

    @field_validator("per_page")
    @classmethod
    def _offered(cls, value: int) -> int:
        if value not in PER_PAGE:
            raise ValueError(f"must be one of {', '.join(map(str, PER_PAGE))}")
        return value


class PrintQuery(PrintOptions):
    """A booklet of `count` puzzles of a collection, from number `start`, of `level` if given."""

    collection: Annotated[str, Field(pattern=COLLECTION_PATTERN, examples=["10x10"])]
    level: LevelName | None = None
    start: Annotated[int, Field(ge=0, le=999_999_999)] = 0
    count: Annotated[int, Field(ge=1, le=MAX_PRINT)] = 20


class PrintRequest(PrintOptions):
    """A booklet of the puzzles of `keys`, in that order (a player's selection)."""

    keys: Annotated[list[Key], Field(min_length=1, max_length=MAX_PRINT)]


# -- responses ------------------------------------------------------------------------------


class _Ok(BaseModel):
    ok: Literal[True] = True


class ErrorDetail(BaseModel):
    code: str = Field(examples=["not-found"])
    message: str


class ErrorOut(BaseModel):
    """Every 4xx and 5xx body."""

    ok: Literal[False] = False
    error: ErrorDetail


class CollectionOut(BaseModel):
    name: str
    count: int
    levels: dict[str, int]
    rows: int
    cols: int


class CollectionsOut(_Ok):
    collections: list[CollectionOut]


class ProgressOut(BaseModel):
    board: str
    seconds: float
    solved: bool
    best_seconds: float | None
    moves: list[str]


class PuzzleOut(_Ok):
    key: str
    collection: str
    number: int
    rows: int
    cols: int
    clues: list[tuple[int, int | None]] = Field(
        description="[cell, value] pairs; a null value is a ? clue"
    )
    url: str
    level: str | None
    score: int | None
    progress: ProgressOut | None


class ViolationOut(BaseModel):
    code: str
    cells: list[int]
    message: str


class CheckOut(_Ok):
    violations: list[ViolationOut]
    wrong: list[int]
    solved: bool
    complete: bool


class HintMistakes(_Ok):
    kind: Literal["mistakes"] = "mistakes"
    wrong: list[int]


class HintStep(_Ok):
    kind: Literal["step"] = "step"
    technique: str
    name: str
    message: str
    cells: list[tuple[int, Literal["black", "white"]]]
    premises: list[int]
    level: str | None
    reveal: Literal["stuck", "time"] | None = None
    """Set when logic found no step and the cell is offered from the solution: ``stuck``
    (no rule applies) or ``time`` (the search ran out of time; asking again for the same
    board carries the search on from where it stopped, see `web.warm`)."""
    searched: float | None = None
    """With a reveal, the CPU seconds the logic engine searched before it gave up."""


class HintSolved(_Ok):
    kind: Literal["solved"] = "solved"


class SolveOut(_Ok):
    status: Literal["unique", "multiple", "none", "unknown"]
    solution: str | None


class ProgressSaved(_Ok):
    best_seconds: float | None
    solved: bool


class SolvedItem(BaseModel):
    key: str
    best_seconds: float | None
    solved_at: str


class InProgressItem(BaseModel):
    key: str
    seconds: float


class ProgressList(_Ok):
    solved: list[SolvedItem]
    in_progress: list[InProgressItem]


class SettingsOut(_Ok):
    settings: dict[str, Any]


# -- new puzzles (web/fresh.py) -------------------------------------------------------------

FRESH_MIN_SIDE = 5
"""The smallest side of a new puzzle."""
FRESH_MAX_SIDE = 25
"""The largest side of a new puzzle."""
FreshSide = Annotated[int, Field(ge=FRESH_MIN_SIDE, le=FRESH_MAX_SIDE)]


class FreshRequest(_Strict):
    """A new puzzle of this size and level."""

    rows: FreshSide
    cols: FreshSide
    level: LevelName


class FreshOut(_Ok):
    """A generated puzzle: its ID (seed and parameters), the link that shares it, and the
    puzzle as the other puzzle endpoints give it (key ``generated/N``)."""

    kind: Literal["puzzle"] = "puzzle"
    id: str = Field(examples=["10x10-hard-804211793-g7"])
    link: str = Field(description="the page's address that opens this puzzle, from /")
    day: str | None = Field(description="the UTC date it is the puzzle of, or null")
    seconds: float | None = Field(description="how long the generator took to make it")
    puzzle: PuzzleOut


class MakingOut(_Ok):
    """The puzzle is being made (answered with 202): ask again in a moment."""

    kind: Literal["making"] = "making"
    rows: int
    cols: int
    level: str
    waited: float = Field(description="seconds since a player first asked for it")
    expected: float = Field(description="about how many seconds one takes to make")
    message: str


class StockItem(BaseModel):
    rows: int
    cols: int
    level: str
    ready: int


class DailyOut(BaseModel):
    day: str
    rows: int
    cols: int
    level: str


class FreshOffer(_Ok):
    """What new puzzles the game makes, the stocks ready and today's puzzle."""

    min_side: int
    max_side: int
    sizes: list[int] = Field(description="the square sizes the page offers first")
    levels: list[str]
    extreme_cells: int = Field(description="extreme puzzles up to this many cells")
    stock: list[StockItem]
    daily: DailyOut
