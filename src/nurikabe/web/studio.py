"""The setter's studio API under ``/api/studio/`` (docs/web-api.md): analysis, drafts, export.

- ``POST /api/studio/analyze``: a draft's status, forced and open cells, the two-solution
  witness and, when unique, its grade and techniques (`analysis.analyze`), run in the
  expensive lane (`lanes`, `analysts.analysis_job`). A newer analysis (or any other
  expensive job) from the same player makes the older one stale: its worker process is
  killed and it answers 409 ``superseded``.
- ``POST /api/studio/export``: the draft as a puzz.link URL, janko, text or SVG.
- ``POST /api/studio/read``: a puzzle in any format the library reads, as a draft.
- ``POST /api/studio/play``: the draft imported into the game (``imported/N``).
- ``GET|POST /api/studio/drafts``, ``GET|PUT|DELETE /api/studio/drafts/{id}``: the
  player's drafts, kept in the players' database.
- ``GET /studio`` is the page; ``GET /studio/walkthrough?url=...`` a unique draft's
  walkthrough as an HTML page (drawn in the expensive lane too).

`studio_router` builds the router on the app's `Players` and `Games`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, Field

from ..errors import FormatError, InvalidPuzzleError
from ..formats import load, write
from ..players import Draft, Players
from ..puzzle import UNKNOWN_CLUE, Puzzle
from ..render import render_svg
from .analysts import ANALYSIS_SECONDS, WALKTHROUGH_SECONDS, analysis_job, walkthrough_job
from .errors import ApiError
from .games import Games
from .lanes import fair_of
from .middleware import CSP_INLINE_STYLE
from .models import MAX_SIDE

__all__ = ["studio_router"]

STATIC = Path(__file__).parent / "static"

DraftId = Annotated[int, PathParam(ge=1, le=999_999_999)]
Side = Annotated[int, Field(ge=1, le=MAX_SIDE)]
Clue = tuple[
    Annotated[int, Field(ge=0, lt=MAX_SIDE * MAX_SIDE)],
    Annotated[int, Field(le=MAX_SIDE * MAX_SIDE)] | None,
]


class DraftPuzzle(BaseModel):
    """A draft: its size and clues, ``[cell, value]`` with ``null`` for a ``?`` clue."""

    rows: Side
    cols: Side
    clues: Annotated[list[Clue], Field(max_length=MAX_SIDE * MAX_SIDE)] = []

    def puzzle(self) -> Puzzle:
        seen: set[int] = set()
        clues: dict[int, int] = {}
        area = self.rows * self.cols
        for cell, value in self.clues:
            if cell >= area:
                raise ApiError(
                    400, "bad-puzzle", f"cell {cell} lies off the {self.rows}x{self.cols} grid"
                )
            if cell in seen:
                raise ApiError(400, "bad-puzzle", f"cell {cell} has two clues")
            seen.add(cell)
            clues[cell] = UNKNOWN_CLUE if value is None else value
        try:
            return Puzzle(self.rows, self.cols, clues)
        except InvalidPuzzleError as exc:
            raise ApiError(400, "bad-puzzle", str(exc).splitlines()[0]) from None


class AnalyzeRequest(DraftPuzzle):
    grade: bool = True
    """Whether to grade a unique draft (which can take seconds); the page asks without it
    first, then again with it once the draft is unique."""


class ExportRequest(DraftPuzzle):
    format: Literal["url", "janko", "text", "svg"]


class DraftRequest(DraftPuzzle):
    name: Annotated[str, Field(min_length=1, max_length=100)]


class AnalysisOut(BaseModel):
    status: Literal["unique", "multiple", "none", "unknown"]
    forced: dict[str, list[int]]
    """``{"black": [...], "white": [...]}``: the cells with one color in every solution."""
    open: list[int]
    """Cells that differ between solutions."""
    unresolved: list[int]
    """Cells the time limit left unsettled."""
    witness: list[str]
    """For several solutions: two solutions as board strings that differ."""
    level: str | None = None
    score: int | None = None
    techniques: list[dict[str, str | int]] = []
    solved_by_logic: bool | None = None
    url: str
    walkthrough: str | None = None
    """For a unique puzzle: the address of its walkthrough page."""


class ReadRequest(BaseModel):
    text: Annotated[str, Field(min_length=1, max_length=60_000)]


class DraftPuzzleOut(BaseModel):
    rows: int
    cols: int
    clues: list[tuple[int, int | None]]


class ExportOut(BaseModel):
    format: str
    text: str


class PlayOut(BaseModel):
    key: str
    url: str


class DraftOut(BaseModel):
    id: int
    name: str
    rows: int
    cols: int
    clues: list[tuple[int, int | None]]
    url: str
    updated_at: str


class DraftsOut(BaseModel):
    drafts: list[DraftOut]


class DeletedOut(BaseModel):
    ok: Literal[True] = True


def _clues(puzzle: Puzzle) -> list[tuple[int, int | None]]:
    return [(i, None if v == UNKNOWN_CLUE else v) for i, v in puzzle.clues.items()]


def _draft_out(draft: Draft) -> DraftOut:
    puzzle = Puzzle.from_url(draft.url)
    return DraftOut(
        id=draft.id,
        name=draft.name,
        rows=puzzle.rows,
        cols=puzzle.cols,
        clues=_clues(puzzle),
        url=draft.url,
        updated_at=draft.updated_at,
    )


def _walkthrough_link(url: str) -> str:
    from urllib.parse import urlencode

    return "/studio/walkthrough?" + urlencode({"url": url})


def studio_router(players: Players, games: Games) -> APIRouter:
    """The studio's routes on the players' database and the game's puzzles."""
    router = APIRouter()
    expensive = games.lanes.expensive

    def player_of(request: Request) -> str:
        return str(request.state.player)

    @router.get("/studio", include_in_schema=False)
    def page() -> FileResponse:
        path = STATIC / "studio.html"
        if not path.is_file():
            raise ApiError(404, "not-found", "the studio page is not installed")
        expensive.pool.warm()
        return FileResponse(path, headers={"cache-control": "no-cache"})

    @router.post("/api/studio/analyze")
    async def analyze_draft(request: Request, body: AnalyzeRequest) -> AnalysisOut:
        """The draft's status, forced and open cells, witness and (when unique) grade."""
        url = body.puzzle().to_url()
        fair, address = fair_of(request.scope)
        found = await expensive.run(
            fair, analysis_job, (url, body.grade), seconds=ANALYSIS_SECONDS, address=address
        )
        if found is None:  # cannot be: nothing in the worker cancels it
            raise ApiError(409, "superseded", "a newer edit of this draft replaced this analysis")
        return AnalysisOut(
            status=found.status.value,
            forced={"black": found.black, "white": found.white},
            open=found.open,
            unresolved=found.unresolved,
            witness=found.witness,
            level=found.level,
            score=found.score,
            techniques=[{"id": t, "name": n, "steps": c} for t, n, c in found.techniques],
            solved_by_logic=found.solved_by_logic,
            url=url,
            walkthrough=_walkthrough_link(url) if found.level is not None else None,
        )

    @router.post("/api/studio/export")
    def export_draft(body: ExportRequest) -> ExportOut:
        """The draft as a puzz.link URL, janko block, text grid or SVG picture."""
        puzzle = body.puzzle()
        if body.format == "svg":
            text = render_svg(puzzle)
        else:
            try:
                text = write(puzzle, body.format)
            except FormatError as exc:
                raise ApiError(400, "bad-puzzle", str(exc).splitlines()[0]) from None
        return ExportOut(format=body.format, text=text)

    @router.post("/api/studio/read")
    def read_draft(body: ReadRequest) -> DraftPuzzleOut:
        """A draft from a puzzle in any format the library reads (the reverse of export)."""
        try:
            puzzle = load(body.text).puzzle
        except (FormatError, InvalidPuzzleError) as exc:
            raise ApiError(400, "bad-puzzle", str(exc).splitlines()[0] or "not a puzzle") from None
        if puzzle.rows > MAX_SIDE or puzzle.cols > MAX_SIDE:
            raise ApiError(413, "too-large", f"the grid is {puzzle.rows}x{puzzle.cols}")
        return DraftPuzzleOut(rows=puzzle.rows, cols=puzzle.cols, clues=_clues(puzzle))

    @router.post("/api/studio/play")
    async def play_draft(request: Request, body: DraftPuzzle) -> PlayOut:
        """Import the draft into the game; it must have exactly one solution."""
        puzzle = body.puzzle()
        game = await games.import_text(puzzle.to_url(), player_of(request), *fair_of(request.scope))
        return PlayOut(key=game.key, url=f"/#{game.key}")

    @router.get("/studio/walkthrough", include_in_schema=False)
    async def walkthrough(
        request: Request, url: Annotated[str, Query(max_length=4000)]
    ) -> HTMLResponse:
        try:
            puzzle = Puzzle.from_url(url)
        except (FormatError, InvalidPuzzleError) as exc:
            raise ApiError(400, "bad-puzzle", str(exc).splitlines()[0] or "not a puzzle") from None
        if puzzle.rows > MAX_SIDE or puzzle.cols > MAX_SIDE:
            raise ApiError(413, "too-large", f"the grid is {puzzle.rows}x{puzzle.cols}")
        fair, address = fair_of(request.scope)
        page = await expensive.run(
            fair,
            walkthrough_job,
            (puzzle.to_url(), "Walkthrough of a studio draft"),
            seconds=WALKTHROUGH_SECONDS,
            address=address,
        )
        # The page carries its own <style> (it is made to be saved as one file).
        return HTMLResponse(page, headers={"content-security-policy": CSP_INLINE_STYLE})

    @router.get("/api/studio/drafts")
    async def list_drafts(request: Request) -> DraftsOut:
        """The player's drafts, most recently saved first."""
        return DraftsOut(drafts=[_draft_out(d) for d in players.drafts(player_of(request))])

    @router.post("/api/studio/drafts")
    async def new_draft(request: Request, body: DraftRequest) -> DraftOut:
        """Save a new draft."""
        saved = players.save_draft(player_of(request), body.name, body.puzzle().to_url())
        assert saved is not None
        return _draft_out(saved)

    def _found(draft: Draft | None, number: int) -> Draft:
        if draft is None:
            raise ApiError(404, "not-found", f"no draft {number}")
        return draft

    @router.get("/api/studio/drafts/{number}")
    async def get_draft(request: Request, number: DraftId) -> DraftOut:
        """One of the player's drafts."""
        return _draft_out(_found(players.draft(player_of(request), number), number))

    @router.put("/api/studio/drafts/{number}")
    async def put_draft(request: Request, number: DraftId, body: DraftRequest) -> DraftOut:
        """Replace one of the player's drafts."""
        url = body.puzzle().to_url()
        return _draft_out(
            _found(players.save_draft(player_of(request), body.name, url, number), number)
        )

    @router.delete("/api/studio/drafts/{number}")
    async def delete_draft(request: Request, number: DraftId) -> DeletedOut:
        """Delete one of the player's drafts."""
        if not players.delete_draft(player_of(request), number):
            raise ApiError(404, "not-found", f"no draft {number}")
        return DeletedOut()

    return router
