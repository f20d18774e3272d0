"""New puzzles on demand, the puzzle of the day, and the page at a puzz.link-shaped path
(docs/web-api.md, "New puzzles").

- ``GET /api/fresh``: the sizes and levels offered, the stocks ready, today's puzzle.
- ``POST /api/fresh``: a new puzzle of a size and level, from the stock when it has one;
  else 202 with how long it has been making one and about how long that takes: the page
  asks again until the puzzle is there.
- ``GET /api/fresh/daily``: the puzzle of the day (UTC), the same for every player.
- ``GET /api/fresh/id/{id}``: the puzzle of an ID (``10x10-hard-804211793-g7``), from the
  players' database, or made again from its seed (202 meanwhile).
- ``GET /api/fresh/key/{number}``: the ID and link of the puzzle under ``generated/N``.
- ``GET /p``: the page, for addresses of puzz.link's shape (``/p?nurikabe/5/5/...``).

Generated puzzles are the collection ``generated`` of `games.Games` (registered in
``games.extra``), so check, hint, solve and progress take their keys like any other, and
they join the player's solved list and best times. The handlers only read and write the
players' database; every puzzle is made by `stock.Maker` in its helper process.

`fresh_router` builds the router on the app's `Players` and `Games`.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse

from ..generator import GENERATOR_VERSION
from ..players import Generated, Players
from ..puzzle import UNKNOWN_CLUE, Board, Puzzle
from .errors import ApiError
from .games import Game, Games
from .models import (
    DailyOut,
    FreshOffer,
    FreshOut,
    FreshRequest,
    MakingOut,
    ProgressOut,
    PuzzleOut,
    StockItem,
)
from .stock import (
    DEFAULT_WARM,
    EXTREME_CELLS,
    LEVELS,
    MAX_SIDE,
    MIN_SIDE,
    OFF,
    Job,
    Maker,
    Spec,
    daily_spec,
    parse_id,
    parse_warm,
    puzzle_id,
    today,
)

__all__ = ["GENERATED", "SIZES", "fresh_router"]

GENERATED = "generated"
"""The collection of the generated puzzles (keys ``generated/N``)."""
SIZES = (5, 7, 10, 12, 15, 20, 25)
"""The square sizes the page offers first (any rows x cols within the limits is taken)."""
STATIC = Path(__file__).parent / "static"

PuzzleId = Annotated[str, PathParam(pattern=r"^[0-9A-Za-z.x-]{1,64}$")]
Number = Annotated[int, PathParam(ge=1, le=999_999_999)]
_MAKING: dict[int | str, dict[str, Any]] = {
    202: {"model": MakingOut, "description": "the puzzle is being made; ask again"}
}


def _game(g: Generated) -> Game:
    puzzle = Puzzle.from_url(g.url)
    cols = puzzle.cols
    solution = Board.from_rows(
        puzzle, [g.solution[r * cols : (r + 1) * cols] for r in range(puzzle.rows)]
    )
    return Game(GENERATED, g.number, puzzle, solution, g.level, g.score)


def fresh_router(players: Players, games: Games, warm: list[Spec] | None = None) -> APIRouter:
    """The routes of new puzzles; `warm` (default: the environment's ``NURIKABE_STOCK``,
    else `stock.DEFAULT_WARM`) are the stocks kept full before anyone asks, and
    ``NURIKABE_STOCK=off`` makes none at all (a request waits for ever)."""
    setting = os.environ.get("NURIKABE_STOCK", DEFAULT_WARM).strip()
    on = setting != OFF
    if warm is None:
        warm = parse_warm(setting) if on else []
    maker = Maker(players, warm, on=on)
    router = APIRouter(on_shutdown=[maker.close])
    cache: dict[int, Game] = {}
    lock = threading.Lock()

    def lookup(number: int) -> Game:
        with lock:
            game = cache.get(number)
        if game is None:
            row = players.generated(number)
            if row is None:
                raise ApiError(404, "not-found", f"no puzzle {GENERATED}/{number}")
            game = _game(row)
            with lock:
                cache[number] = game
        return game

    games.extra[GENERATED] = lookup

    def answer(g: Generated, player: str) -> FreshOut:
        game = lookup(g.number)
        saved = players.progress(player, game.key, games.now_of(game))
        progress = None
        if saved is not None:
            progress = ProgressOut(
                board=saved.board,
                seconds=saved.seconds,
                solved=saved.solved,
                best_seconds=saved.best_seconds,
                moves=saved.moves,
            )
        puzzle = game.puzzle
        ident = puzzle_id(g)
        return FreshOut(
            id=ident,
            link=f"/?id={ident}",
            day=g.day,
            seconds=g.seconds,
            puzzle=PuzzleOut(
                key=game.key,
                collection=GENERATED,
                number=g.number,
                rows=puzzle.rows,
                cols=puzzle.cols,
                clues=[(i, None if v == UNKNOWN_CLUE else v) for i, v in puzzle.clues.items()],
                url=game.url,
                level=g.level,
                score=g.score,
                progress=progress,
            ),
        )

    def making(job: Job, what: str) -> JSONResponse:
        maker.want(job)
        spec = job.spec
        body = MakingOut(
            rows=spec.rows,
            cols=spec.cols,
            level=spec.level,
            waited=round(maker.waited(job), 1),
            expected=round(maker.expected(spec), 1),
            message=f"Making {what}…" if maker.on else "This server makes no new puzzles.",
        )
        return JSONResponse(body.model_dump(), status_code=202)

    def player_of(request: Request) -> str:
        return str(request.state.player)

    @router.get("/api/fresh")
    async def offer() -> FreshOffer:
        """The sizes and levels of new puzzles, the stocks ready, today's puzzle."""
        maker.start()
        stock = players.stock(GENERATOR_VERSION)
        for spec in maker.warm:
            stock.setdefault((spec.rows, spec.cols, spec.level), 0)
        day = today()
        spec = daily_spec(day)
        return FreshOffer(
            min_side=MIN_SIDE,
            max_side=MAX_SIDE,
            sizes=list(SIZES),
            levels=list(LEVELS),
            extreme_cells=EXTREME_CELLS,
            stock=[
                StockItem(rows=r, cols=c, level=lv, ready=n)
                for (r, c, lv), n in sorted(stock.items())
            ],
            daily=DailyOut(day=day, rows=spec.rows, cols=spec.cols, level=spec.level),
        )

    @router.post("/api/fresh", response_model=FreshOut, responses=_MAKING)
    async def new_puzzle(request: Request, body: FreshRequest) -> FreshOut | JSONResponse:
        """A new puzzle of the size and level, from the stock; 202 while one is made."""
        spec = Spec(body.rows, body.cols, body.level)
        try:
            spec.check()
        except ValueError as exc:
            raise ApiError(400, "bad-request", str(exc)) from None
        got = players.take_stock(spec.rows, spec.cols, spec.level, GENERATOR_VERSION)
        if got is None:
            failed = maker.failure(Job(spec), forget=True)
            if failed is not None:
                raise ApiError(422, "timeout", f"no {spec} puzzle could be made: {failed}")
            return making(Job(spec), f"a new {spec} puzzle")
        maker.start()  # the stock just lost one
        return answer(got, player_of(request))

    @router.get("/api/fresh/daily", response_model=FreshOut, responses=_MAKING)
    async def daily(request: Request) -> FreshOut | JSONResponse:
        """The puzzle of the day (UTC): the same for every player; its level follows the
        day of the week."""
        day = today()
        got = players.daily(day)
        if got is None:
            job = Job(daily_spec(day), day=day)
            failed = maker.failure(job, forget=True)
            if failed is not None:
                raise ApiError(422, "timeout", f"the puzzle of {day} could not be made: {failed}")
            return making(job, f"the puzzle of {day}")
        return answer(got, player_of(request))

    @router.get("/api/fresh/id/{ident}", response_model=FreshOut, responses=_MAKING)
    async def by_id(request: Request, ident: PuzzleId) -> FreshOut | JSONResponse:
        """The puzzle of an ID; made again from its seed when this server has not made it."""
        try:
            spec, seed, version = parse_id(ident)
        except ValueError as exc:
            raise ApiError(400, "bad-request", str(exc)) from None
        got = players.generated_by_seed(spec.rows, spec.cols, spec.level, seed, version)
        if got is not None:
            return answer(got, player_of(request))
        if version != GENERATOR_VERSION:
            raise ApiError(
                404,
                "not-found",
                f"{ident} was made by generator version {version}; this server has"
                f" {GENERATOR_VERSION} and has not kept it",
            )
        job = Job(spec, seed=seed)
        failed = maker.failure(job)
        if failed is not None:
            raise ApiError(404, "not-found", f"{ident} cannot be made again: {failed}")
        return making(job, f"the puzzle {ident}")

    @router.get("/api/fresh/key/{number}")
    async def by_key(request: Request, number: Number) -> FreshOut:
        """The ID and link of the generated puzzle ``generated/N``."""
        got = players.generated(number)
        if got is None:
            raise ApiError(404, "not-found", f"no puzzle {GENERATED}/{number}")
        return answer(got, player_of(request))

    @router.get("/p", include_in_schema=False)
    def puzzlink_path() -> FileResponse:
        page = STATIC / "index.html"
        if not page.is_file():
            raise ApiError(404, "not-found", "the page is not installed")
        return FileResponse(page, headers={"cache-control": "no-cache"})

    return router
