"""The API's printing: PDF booklets of the game's puzzles (``/api/print``).

``GET /api/print`` prints a run of a bundled collection (``collection``, ``level``,
``start``, ``count``); ``POST /api/print`` prints a player's selection, given as puzzle
keys (the puzzles they solved or imported, say). Both take the booklet's options
(`models.PrintOptions`) and answer the PDF as an attachment. Every puzzle the game
serves carries its unique solution (`games.Game`), so nothing is solved here: the
booklet is `render.pdf.write_booklet`, drawn in a worker thread (one of the searches'
slots) and given up with 422 ``timeout`` when it takes longer than `PRINT_SECONDS`.

Imports `limits`, and `render.pdf` (reportlab) only when a booklet is drawn.
"""

from __future__ import annotations

import io
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ..limits import OutOfTime
from .errors import ApiError
from .games import Game, Games
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


def _booklet(games: Games, chosen: list[Game], options: PrintOptions) -> bytes:
    """The PDF of `chosen`, drawn under `PRINT_SECONDS` (in one of the searches' slots)."""
    from ..render.pdf import BookletPuzzle, write_booklet

    items = [
        BookletPuzzle(g.puzzle, g.solution, level=g.level, score=g.score, name=g.key)
        for g in chosen
    ]
    deadline = time.monotonic() + PRINT_SECONDS

    def on_grid() -> None:
        if time.monotonic() > deadline:
            raise OutOfTime

    def draw() -> bytes:
        out = io.BytesIO()
        write_booklet(
            items,
            out,
            per_page=options.per_page,
            paper=options.paper,
            title=options.title,
            author=options.author or None,
            solutions=options.solutions,
            on_grid=on_grid,
        )
        return out.getvalue()

    try:
        return games.searches.run(draw)
    except OutOfTime:
        raise ApiError(
            422, "timeout", f"the booklet was not drawn within {PRINT_SECONDS:g} s"
        ) from None


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
    def print_collection(query: Annotated[PrintQuery, Query()]) -> Response:
        """A PDF booklet of `count` puzzles of a bundled collection, solutions at the back."""
        chosen = _from_collection(games, query)
        level = f"-{query.level}" if query.level else ""
        name = f"nurikabe-{query.collection}{level}-{chosen[0].number}-{chosen[-1].number}"
        return _attachment(_booklet(games, chosen, query), name)

    @router.post("/api/print", response_class=Response, responses=_PDF)
    def print_selection(body: PrintRequest) -> Response:
        """A PDF booklet of the puzzles of `keys` (a player's selection), in that order."""
        chosen = [games.by_key(key) for key in body.keys]
        many = "puzzle" if len(chosen) == 1 else "puzzles"
        return _attachment(_booklet(games, chosen, body), f"nurikabe-{len(chosen)}-{many}")

    return router
