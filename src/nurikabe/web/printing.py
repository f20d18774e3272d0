"""The API's printing: PDF booklets of the game's puzzles (``/api/print``).

``GET /api/print`` prints a run of a bundled collection (``collection``, ``level``,
``start``, ``count``); ``POST /api/print`` prints a player's selection, given as puzzle
keys (the puzzles they solved or imported, say). Both take the booklet's options
(`models.PrintOptions`) and answer the PDF as an attachment. Every puzzle the game
serves carries its unique solution (`games.Game`), so nothing is solved here: the
booklet is `render.pdf.write_booklet`, drawn in the expensive lane (`booklet_job`, in
a worker process: `lanes`) and given up with 422 ``timeout`` when it takes longer than
`PRINT_SECONDS`.

Imports `limits`, and `render.pdf` (reportlab) only when a booklet is drawn.
"""

from __future__ import annotations

import io
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ..limits import OutOfTime
from .errors import ApiError
from .games import Game, Games, board_text
from .lanes import fair_of
from .models import PrintOptions, PrintQuery, PrintRequest

__all__ = ["PRINT_SECONDS", "print_router"]

PRINT_SECONDS = 20.0
"""Wall time the drawing of one booklet may take."""

_PDF: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
        "description": "the booklet, as an attachment",
        "headers": {
            "Content-Disposition": {
                "description": 'attachment; filename="nurikabe-....pdf"',
                "schema": {"type": "string"},
            }
        },
    }
}


def booklet_job(
    items: list[tuple[str, str, str | None, int | None, str]], options: dict[str, Any]
) -> bytes | None:
    """In a worker: the PDF of `items` (``(url, solution, level, score, key)`` each),
    drawn under `PRINT_SECONDS`; None when it took longer."""
    from ..puzzle import Board, Puzzle
    from ..render.pdf import BookletPuzzle, write_booklet

    puzzles = []
    for url, solution, level, score, key in items:
        puzzle = Puzzle.from_url(url)
        rows = [solution[r * puzzle.cols : (r + 1) * puzzle.cols] for r in range(puzzle.rows)]
        board = Board.from_rows(puzzle, rows)
        puzzles.append(BookletPuzzle(puzzle, board, level=level, score=score, name=key))
    deadline = time.monotonic() + PRINT_SECONDS

    def on_grid() -> None:
        if time.monotonic() > deadline:
            raise OutOfTime

    out = io.BytesIO()
    try:
        write_booklet(puzzles, out, on_grid=on_grid, **options)
    except OutOfTime:
        return None
    return out.getvalue()


async def _booklet(
    games: Games, request: Request, chosen: list[Game], options: PrintOptions
) -> bytes:
    """The PDF of `chosen`, drawn in the expensive lane under `PRINT_SECONDS` for the
    player of `request`."""
    items = [(g.url, board_text(g.solution), g.level, g.score, g.key) for g in chosen]
    settings = {
        "per_page": options.per_page,
        "paper": options.paper,
        "title": options.title,
        "author": options.author or None,
        "solutions": options.solutions,
    }
    fair, address = fair_of(request.scope)
    pdf = await games.lanes.expensive.run(
        fair, booklet_job, (items, settings), seconds=PRINT_SECONDS, address=address
    )
    if pdf is None:
        raise ApiError(422, "timeout", f"the booklet was not drawn within {PRINT_SECONDS:g} s")
    return pdf


def _attachment(pdf: bytes, name: str) -> Response:
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"content-disposition": f'attachment; filename="{name}.pdf"'},
    )


def _from_collection(games: Games, query: PrintQuery) -> list[Game]:
    """Up to `count` puzzles of the collection from number `start`, of `level` if given."""
    items = games.collections.get(query.collection)
    if items is None:
        raise ApiError(404, "not-found", f"no collection {query.collection!r}")
    chosen = [
        g
        for g in items
        if g.number >= query.start and (query.level is None or g.level == query.level)
    ][: query.count]
    if not chosen:
        level = f" {query.level}" if query.level else ""
        raise ApiError(
            404, "not-found", f"no{level} puzzle in {query.collection!r} from number {query.start}"
        )
    return chosen


def print_router(games: Games) -> APIRouter:
    """The routes of ``/api/print``."""
    router = APIRouter()

    @router.get("/api/print", response_class=Response, responses=_PDF)
    async def print_collection(request: Request, query: Annotated[PrintQuery, Query()]) -> Response:
        """A PDF booklet of `count` puzzles of a bundled collection, solutions at the back."""
        chosen = _from_collection(games, query)
        level = f"-{query.level}" if query.level else ""
        name = f"nurikabe-{query.collection}{level}-{chosen[0].number}-{chosen[-1].number}"
        pdf = await _booklet(games, request, chosen, query)
        return _attachment(pdf, name)

    @router.post("/api/print", response_class=Response, responses=_PDF)
    async def print_selection(request: Request, body: PrintRequest) -> Response:
        """A PDF booklet of the puzzles of `keys` (a player's selection), in that order."""
        chosen = [games.by_key(key) for key in body.keys]
        many = "puzzle" if len(chosen) == 1 else "puzzles"
        pdf = await _booklet(games, request, chosen, body)
        return _attachment(pdf, f"nurikabe-{len(chosen)}-{many}")

    return router
