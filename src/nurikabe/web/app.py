"""The FastAPI application: `create_app` and the API's thin handlers (docs/web-api.md).

Each handler validates its input (`models`), looks the puzzle up (`games`) and calls the
library's public functions: `rules.check` and `rules.wrong_cells` for a check, the logic
engine's `find_step` for a hint (mistakes first, found against the unique solution),
`formats.load` and the solver for an import; progress and settings go to the players'
database (`players`), one committed transaction per request.

Work goes by lanes (`lanes`): a hint's search runs in the cheap lane's threads; an
import's solve, the studio's analyses and walkthroughs and printed booklets run in the
expensive lane's worker processes, so that no amount of expensive work makes a hint
wait. Checks, progress, settings and the solve of a stored puzzle take well under a
millisecond and run on the event loop itself. A player over its share of requests gets
429, a full server 503, both with ``Retry-After`` (`middleware.PlayerRateLimit`, the
lanes). Every answer carries the security headers (`middleware.SecurityHeaders`) and a
``Server-Timing`` header with the time the app spent on it. The page is served from
``static/``: ``/`` is ``static/index.html``. `create_app_from_env` is the factory
``nurikabe serve --workers N`` gives uvicorn.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ..logic import LEVELS, State, find_step, reveal_step
from ..logic.techniques import technique
from ..players import Players, open_players
from ..puzzle import UNKNOWN_CLUE, Board, Color
from ..rules import check, wrong_cells
from .errors import ApiError, install_handlers
from .fresh import fresh_router
from .games import HINT_SECONDS, Game, Games, board_text, parse_board
from .lanes import (
    EXPENSIVE_BURST,
    EXPENSIVE_RATE,
    EXPENSIVE_WORKERS,
    Lanes,
    RateLimits,
    fair_of,
)
from .middleware import (
    ADDRESS_PLAYERS,
    API_BURST,
    API_RATE,
    BodyLimit,
    PlayerCookie,
    PlayerRateLimit,
    SecurityHeaders,
    ServerTiming,
)
from .models import (
    COLLECTION_PATTERN,
    KEY_PATTERN,
    BoardRequest,
    CheckOut,
    CollectionOut,
    CollectionsOut,
    ErrorOut,
    HintMistakes,
    HintSolved,
    HintStep,
    ImportRequest,
    InProgressItem,
    ProgressList,
    ProgressOut,
    ProgressRequest,
    ProgressSaved,
    PuzzleOut,
    SettingsOut,
    SettingsRequest,
    SolvedItem,
    SolveOut,
    SolveRequest,
    ViolationOut,
)
from .printing import print_router
from .shared_rates import SharedRateLimits
from .studio import studio_router
from .warm import Memories

__all__ = ["ENV", "MAX_BODY", "MAX_SETTINGS", "STATIC", "create_app", "create_app_from_env"]

MAX_BODY = 64 * 1024
"""The largest request body, in bytes."""
MAX_SETTINGS = 4096
"""The largest settings object, in bytes of JSON."""
STATIC = Path(__file__).parent / "static"
"""The page's files."""

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text}
    for status, text in (
        (400, "bad input: bad-board, bad-puzzle, bad-request"),
        (404, "not-found"),
        (413, "too-large"),
        (409, "stale-puzzle, superseded"),
        (422, "bad-request (fields), timeout"),
        (429, "rate-limited (with Retry-After)"),
        (503, "busy (with Retry-After)"),
    )
}

Collection = Annotated[str, PathParam(pattern=COLLECTION_PATTERN)]
Number = Annotated[int, PathParam(ge=0, le=999_999_999)]
Level = Annotated[str | None, Query(pattern="^(" + "|".join(LEVELS) + ")$")]


def _player(request: Request) -> str:
    return str(request.state.player)


def _puzzle_out(game: Game, games: Games, players: Players, player: str) -> PuzzleOut:
    puzzle = game.puzzle
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
    return PuzzleOut(
        key=game.key,
        collection=game.collection,
        number=game.number,
        rows=puzzle.rows,
        cols=puzzle.cols,
        clues=[(i, None if v == UNKNOWN_CLUE else v) for i, v in puzzle.clues.items()],
        url=game.url,
        level=game.level,
        score=game.score,
        progress=progress,
    )


def _solved(board: Board, solution: Board) -> bool:
    return board.black_mask == solution.black_mask


def _hint(
    game: Game, board: Board, memories: Memories | None = None
) -> HintMistakes | HintStep | HintSolved:
    wrong = wrong_cells(board, game.solution)
    if wrong:
        return HintMistakes(wrong=list(wrong))
    if not board.unknown_mask:
        return HintSolved()
    began = time.thread_time()
    # The board agrees with the solution, so what earlier hints learnt applies (web.warm).
    state = State.from_board(board)
    if memories is not None:
        memories.lend(game.puzzle, state)
    try:
        step = find_step(state, seconds=HINT_SECONDS)
    finally:
        if memories is not None:
            memories.keep(game.puzzle, state)
    if step is None or step.kind not in ("deduction", "trial"):
        # find_step gives None when nothing applies, or once its CPU time has passed
        searched = time.thread_time() - began
        return _reveal(game, board, searched)
    row = technique(step.technique)
    return HintStep(
        technique=step.technique,
        name=row.name,
        message=step.message,
        cells=[(i, "black" if c is Color.BLACK else "white") for i, c in step.cells],
        premises=list(step.premises),
        level=LEVELS[row.tier - 1],
    )


def _reveal(game: Game, board: Board, searched: float) -> HintStep:
    """The hint when logic finds no step: it offers one unknown cell from the solution
    (marked, its color not said), which the player takes by pressing the wand again.
    When the search ran out of time, the game asks again while it shows the offer: the
    search carries on with what this one learnt (`web.warm`). `searched`: the CPU
    seconds the search took (all of `HINT_SECONDS`: it ran out of time)."""
    ran_out = searched >= HINT_SECONDS
    step = reveal_step(board, game.solution)
    assert step is not None  # the board has unknown cells
    [(cell, color)] = step.cells
    name = game.puzzle.grid.name(cell)
    why = (
        f"No rule found the next cell within {HINT_SECONDS:g} s (the search ran out of time)."
        if ran_out
        else "No rule finds the next cell from here: logic is stuck."
    )
    return HintStep(
        technique="from-solution",
        name="From the solution",
        message=f"{why} The solution can give you {name}, marked with a ?.",
        cells=[(cell, "black" if color is Color.BLACK else "white")],
        premises=[],
        level=None,
        reveal="time" if ran_out else "stuck",
        searched=round(searched, 3),
    )


ENV = {
    "db": "NURIKABE_SERVE_DB",
    "collection": "NURIKABE_SERVE_COLLECTION",
    "https_only": "NURIKABE_SERVE_HTTPS_ONLY",
    "jobs": "NURIKABE_SERVE_JOBS",
    "manager": "NURIKABE_SERVE_MANAGER",
    "rates": "NURIKABE_SERVE_RATES",
}
"""The environment variables `create_app_from_env` reads (set by ``nurikabe serve``)."""


def _end_with(manager: int) -> None:
    """In a server worker process of ``--workers N``: end when the process that started
    it (`manager`) is gone, SIGKILLed say; uvicorn's workers would otherwise serve on,
    orphans holding the port. SIGTERM first (a clean shutdown), then exit."""
    import signal
    import threading
    import time

    def watch() -> None:
        while os.getppid() == manager:
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)
        os._exit(1)

    threading.Thread(target=watch, name="nurikabe-manager-watch", daemon=True).start()


def create_app_from_env() -> FastAPI:
    """The app `nurikabe serve` describes in the environment (`ENV`): the factory each
    of uvicorn's worker processes calls (which then ends with the manager process)."""
    manager = os.environ.get(ENV["manager"])
    if manager and manager.isdigit() and int(manager) != os.getpid():
        _end_with(int(manager))
    jobs = os.environ.get(ENV["jobs"])
    rates = os.environ.get(ENV["rates"]) or None
    limits = (
        None
        if rates is None
        else SharedRateLimits(rates, "expensive", EXPENSIVE_RATE, EXPENSIVE_BURST)
    )
    return create_app(
        os.environ.get(ENV["db"]) or None,
        os.environ.get(ENV["collection"]) or None,
        https_only=os.environ.get(ENV["https_only"]) == "1",
        lanes=Lanes.make(workers=int(jobs or EXPENSIVE_WORKERS), limits=limits)
        if jobs or limits
        else None,
        rates_path=rates,
    )


def create_app(
    db_path: str | Path | None = None,
    collection_path: str | Path | None = None,
    *,
    https_only: bool = False,
    lanes: Lanes | None = None,
    rate: float = API_RATE,
    burst: float = API_BURST,
    address_players: float = ADDRESS_PLAYERS,
    rates_path: str | Path | None = None,
) -> FastAPI:
    """The game's app on the players' database `db_path` (default `players.default_path`)
    and the collection `collection_path` (default: the bundled one, read-only).

    `https_only` makes the player cookie Secure on every answer (it is anyway on an
    answer to https); `lanes` are the work lanes (default `Lanes.make()`); `rate` and
    `burst` each player's share of the API's requests (`middleware.PlayerRateLimit`),
    `address_players` times that each network address's share, both kept in the file
    `rates_path` when given, shared with the other server processes that open it
    (`web.shared_rates`; ``nurikabe serve --workers N`` sets it).
    """
    players = open_players(db_path)
    games = Games(players, collection_path, lanes)
    lanes = games.lanes
    memories = Memories()  # what the logic engine learnt per puzzle, for the hints

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        lanes.close()

    app = FastAPI(
        title="nurikabe",
        summary="Play Nurikabe: puzzles, checks, hints that teach, progress kept per player.",
        version=_version(),
        responses=_ERRORS,
        lifespan=lifespan,
    )
    app.state.players = players
    app.state.games = games
    app.state.lanes = lanes
    install_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY)

    def buckets(name: str, scale: float) -> RateLimits:
        if rates_path is None:
            return RateLimits(rate * scale, burst * scale)
        return SharedRateLimits(rates_path, name, rate * scale, burst * scale)

    app.add_middleware(
        PlayerRateLimit,
        limits=buckets("api", 1),
        address_limits=buckets("api-address", address_players),
    )
    app.add_middleware(PlayerCookie, secure=https_only)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ServerTiming)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        page = STATIC / "index.html"
        if not page.is_file():
            raise ApiError(404, "not-found", "the page is not installed")
        return FileResponse(page, headers={"cache-control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.get("/api/collections")
    async def list_collections() -> CollectionsOut:
        """The collections, with their sizes and how many puzzles of each level."""
        out = []
        for name, items in games.collections.items():
            levels: dict[str, int] = {}
            for game in items:
                if game.level is not None:
                    levels[game.level] = levels.get(game.level, 0) + 1
            first = items[0].puzzle
            out.append(
                CollectionOut(
                    name=name, count=len(items), levels=levels, rows=first.rows, cols=first.cols
                )
            )
        return CollectionsOut(collections=out)

    @app.get("/api/puzzles/next")
    async def next_puzzle(
        request: Request, key: Annotated[str, Query(pattern=KEY_PATTERN)], level: Level = None
    ) -> PuzzleOut:
        """The next puzzle after `key` in its collection (wrapping), of `level` if given."""
        return _puzzle_out(games.next(key, level), games, players, _player(request))

    @app.get("/api/puzzles/random")
    async def random_puzzle(
        request: Request,
        collection: Annotated[str | None, Query(pattern=COLLECTION_PATTERN)] = None,
        level: Level = None,
    ) -> PuzzleOut:
        """A random puzzle, one the player has not solved when there is one."""
        player = _player(request)
        solved = players.solved_keys(player, games.now)
        game = games.random(solved, collection=collection, level=level)
        return _puzzle_out(game, games, players, player)

    @app.get("/api/puzzles/{collection}/{number}")
    async def get_puzzle(request: Request, collection: Collection, number: Number) -> PuzzleOut:
        """Puzzle `number` of `collection`, with the player's progress on it."""
        return _puzzle_out(games.get(collection, number), games, players, _player(request))

    @app.post("/api/import")
    async def import_puzzle(request: Request, body: ImportRequest) -> PuzzleOut:
        """Store a puzzle given as a puzz.link URL, janko block, text, pzprv3 or game ID."""
        player = _player(request)
        game = await games.import_text(body.text, player, *fair_of(request.scope))
        return _puzzle_out(game, games, players, player)

    @app.post("/api/check")
    async def check_board(body: BoardRequest) -> CheckOut:
        """The rules the board already breaks, and its cells that differ from the solution."""
        game = games.by_key(body.key)
        board = parse_board(game.puzzle, body.board)
        solved = _solved(board, game.solution)
        return CheckOut(
            violations=[
                ViolationOut(code=v.code, cells=list(v.cells), message=v.message)
                for v in check(game.puzzle, board, mode="partial")
            ],
            wrong=list(wrong_cells(board, game.solution)),
            solved=solved,
            complete=solved and not board.unknown_mask,
        )

    @app.post("/api/hint")
    async def hint(request: Request, body: BoardRequest) -> HintMistakes | HintStep | HintSolved:
        """The mistakes while there are any, else the simplest next step, with its reason."""
        game = games.by_key(body.key)
        board = parse_board(game.puzzle, body.board)
        return await lanes.cheap.run(lambda: _hint(game, board, memories), *fair_of(request.scope))

    @app.post("/api/solve")
    async def solve_puzzle(body: SolveRequest) -> SolveOut:
        """The puzzle's unique solution."""
        game = games.by_key(body.key)
        return SolveOut(status="unique", solution=board_text(game.solution))

    @app.put("/api/progress/{collection}/{number}")
    async def save_progress(
        request: Request, collection: Collection, number: Number, body: ProgressRequest
    ) -> ProgressSaved:
        """Save the player's board; the server decides whether it is solved."""
        game = games.get(collection, number)
        if body.url is not None and body.url != game.url:
            raise ApiError(
                409,
                "stale-puzzle",
                f"{game.key} holds another puzzle now; load it again (the board was not saved)",
            )
        board = parse_board(game.puzzle, body.board)
        solved = _solved(board, game.solution)
        saved = players.save_progress(
            _player(request),
            game.key,
            games.now_of(game),
            board=board_text(board),
            moves=body.moves,
            seconds=body.seconds,
            solved=solved,
        )
        return ProgressSaved(best_seconds=saved.best_seconds, solved=solved)

    @app.get("/api/progress")
    async def list_progress(request: Request) -> ProgressList:
        """The puzzles the player has solved (with best times) and those begun, of the
        puzzles their keys hold now (progress saved on a former puzzle is left out)."""
        solved, begun = [], []
        for p in players.all_progress(_player(request), games.now):
            if p.solved_at is not None:
                solved.append(
                    SolvedItem(key=p.puzzle, best_seconds=p.best_seconds, solved_at=p.solved_at)
                )
            if not p.solved:
                begun.append(InProgressItem(key=p.puzzle, seconds=p.seconds))
        return ProgressList(solved=solved, in_progress=begun)

    @app.get("/api/settings")
    async def get_settings(request: Request) -> SettingsOut:
        """The player's settings."""
        return SettingsOut(settings=players.settings(_player(request)))

    @app.put("/api/settings")
    async def put_settings(request: Request, body: SettingsRequest) -> SettingsOut:
        """Replace the player's settings (a JSON object of at most 4 KiB)."""
        size = len(json.dumps(body.settings, separators=(",", ":")).encode())
        if size > MAX_SETTINGS:
            raise ApiError(413, "too-large", f"the settings take {size} bytes, over {MAX_SETTINGS}")
        players.save_settings(_player(request), body.settings)
        return SettingsOut(settings=body.settings)

    app.include_router(print_router(games))
    app.include_router(studio_router(players, games))
    app.include_router(fresh_router(players, games))
    return app


def _version() -> str:
    from .. import __version__

    return __version__
