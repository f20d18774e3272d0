"""The puzzles the game serves, by key, each with its unique solution; and the imports.

`Games` reads the bundled collection once, read-only (`collection.open_db`), with the
keys that held other puzzles before (`collection.former_keys`), and the
imported puzzles from the players' database (`players.Players`); each puzzle comes with
its unique solution, known from the collection or found once at import, so checks and
hints never solve a puzzle again. `Games.now` says what a key holds now, for the
players' progress (`players.is_current`). It also parses a player's board string.

`Games.lanes` are the app's lanes (`lanes.Lanes`): an import reads its text in the
cheap lane and, for a puzzle not imported before, solves it in the expensive lane (a
worker process: `_solve_child`), under the library's time limits.

Raises `errors.ApiError` with the API's codes; imports the library, `players` and
`lanes`.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import collection as bundled
from ..errors import FormatError, InvalidPuzzleError
from ..formats import load
from ..players import Players
from ..puzzle import Board, Puzzle
from ..solver import Limit, Status, solve
from .errors import ApiError
from .lanes import Lanes, rate_limited
from .models import MAX_SIDE

__all__ = [
    "HINT_SECONDS",
    "IMPORTED",
    "SOLVE_SECONDS",
    "Game",
    "Games",
    "board_text",
    "parse_board",
]

IMPORTED = "imported"
"""The collection of the puzzles players import."""
HINT_SECONDS = 2.0
"""CPU time a hint's search may take."""
SOLVE_SECONDS = 5.0
"""Wall time the solver may take on an imported puzzle."""


@dataclass(frozen=True)
class Game:
    """One puzzle of the game, with its unique solution."""

    collection: str
    number: int
    puzzle: Puzzle
    solution: Board
    level: str | None = None
    score: int | None = None

    @property
    def key(self) -> str:
        """``"<collection>/<number>"``."""
        return f"{self.collection}/{self.number}"

    @functools.cached_property
    def url(self) -> str:
        """The puzzle's canonical puzz.link URL."""
        return self.puzzle.to_url()


def board_text(board: Board) -> str:
    """The board as one row-major string: ``#`` black, ``.`` white, ``?`` unknown."""
    return "".join(board.to_rows())


def parse_board(puzzle: Puzzle, text: str) -> Board:
    """A player's board string on `puzzle`; clue cells are white whatever they say.

    Raises:
        ApiError: ``bad-board`` for a wrong length or character.
    """
    cells = puzzle.rows * puzzle.cols
    if len(text) != cells:
        raise ApiError(400, "bad-board", f"the board has {len(text)} cells, the puzzle {cells}")
    black = white = 0
    for i, ch in enumerate(text):
        if ch == "#":
            black |= 1 << i
        elif ch == ".":
            white |= 1 << i
        elif ch != "?":
            raise ApiError(400, "bad-board", f"unknown cell {ch[:1]!r} at {i} (expected #, . or ?)")
    clues = puzzle.clue_mask
    return Board(puzzle, black & ~clues, (white | clues))


def _split_key(key: str) -> tuple[str, int]:
    collection, _, number = key.partition("/")
    if not number.isdigit() or not collection:
        raise ApiError(404, "not-found", f"no puzzle {key!r}")
    return collection, int(number)


def _solve_child(url: str, seconds: float) -> tuple[str, str | None]:
    """In the solver's process: the status and, when unique, the solution as a board string."""
    result = solve(Puzzle.from_url(url), limit=Limit(solutions=2, seconds=seconds))
    solution = result.solution
    if result.status is Status.UNIQUE and solution is not None:
        return result.status.value, board_text(solution)
    return result.status.value, None


@functools.lru_cache(maxsize=4)
def _read_collection(
    path: str, mtime_ns: int
) -> tuple[dict[str, list[Game]], frozenset[tuple[str, int]]]:
    """Every puzzle of a collection file, by collection and number, and the keys that
    held other puzzles before (read once per version)."""
    conn = bundled.open_db(path, readonly=True)
    try:
        out: dict[str, list[Game]] = {name: [] for name, _ in bundled.collections(conn)}
        for e in bundled.entries(conn):
            out[e.collection].append(
                Game(e.collection, e.number, e.puzzle, e.solution, e.level, e.score)
            )
        former = frozenset(bundled.former_keys(conn))
    finally:
        conn.close()
    for games in out.values():
        games.sort(key=lambda g: g.number)
    return out, former


class Games:
    """The bundled collection and the imported puzzles, by key."""

    def __init__(
        self,
        players: Players,
        collection_path: str | Path | None = None,
        lanes: Lanes | None = None,
    ) -> None:
        self.players = players
        self.lanes = lanes if lanes is not None else Lanes.make()
        """The app's lanes (cheap and expensive work)."""
        path = Path(collection_path) if collection_path is not None else bundled.bundled_path()
        self.collections, self._former = _read_collection(
            str(path.resolve()), path.stat().st_mtime_ns
        )
        self._games = {(g.collection, g.number): g for gs in self.collections.values() for g in gs}
        self._imported: dict[int, Game] = {}
        self._lock = threading.Lock()
        self.extra: dict[str, Callable[[int], Game]] = {}
        """Collections another module serves (``generated``, `web.fresh`): name -> lookup,
        which raises ``not-found`` for a number it does not hold."""

    # -- lookup ----------------------------------------------------------------------------

    def get(self, collection: str, number: int) -> Game:
        """The puzzle `number` of `collection`.

        Raises:
            ApiError: ``not-found``.
        """
        if collection == IMPORTED:
            return self._get_imported(number)
        if collection in self.extra:
            return self.extra[collection](number)
        game = self._games.get((collection, number))
        if game is None:
            raise ApiError(404, "not-found", f"no puzzle {collection}/{number}")
        return game

    def by_key(self, key: str) -> Game:
        """The puzzle of a key like ``"10x10/42"``."""
        return self.get(*_split_key(key))

    def now_of(self, game: Game) -> tuple[str, bool]:
        """What `game`'s key holds now: its URL, and whether the key held another puzzle
        before (see `players.is_current`)."""
        return game.url, (game.collection, game.number) in self._former

    def now(self, key: str) -> tuple[str, bool] | None:
        """What the key holds now (`now_of`), or None when it holds no puzzle."""
        try:
            return self.now_of(self.by_key(key))
        except ApiError:
            return None

    def _get_imported(self, number: int) -> Game:
        with self._lock:
            game = self._imported.get(number)
        if game is not None:
            return game
        row = self.players.imported(number)
        if row is None:
            raise ApiError(404, "not-found", f"no puzzle {IMPORTED}/{number}")
        puzzle = Puzzle.from_url(row.url)
        solution = Board.from_rows(
            puzzle,
            [row.solution[r * puzzle.cols : (r + 1) * puzzle.cols] for r in range(puzzle.rows)],
        )
        game = Game(IMPORTED, number, puzzle, solution)
        with self._lock:
            self._imported[number] = game
        return game

    def _candidates(self, collection: str) -> list[tuple[str, int, str | None]]:
        """(collection, number, level) of every puzzle of `collection`, in order."""
        if collection == IMPORTED:
            return [(IMPORTED, n, None) for n in self.players.imported_numbers()]
        games = self.collections.get(collection)
        if games is None:
            raise ApiError(404, "not-found", f"no collection {collection!r}")
        return [(g.collection, g.number, g.level) for g in games]

    def next(self, key: str, level: str | None = None) -> Game:
        """The puzzle after `key` in its collection (wrapping), of `level` if given."""
        collection, number = _split_key(key)
        pool = [c for c in self._candidates(collection) if level is None or c[2] == level]
        if not pool:
            raise ApiError(
                404, "not-found", f"no {level + ' ' if level else ''}puzzle in {collection!r}"
            )
        after = [c for c in pool if c[1] > number]
        name, n, _ = (after or pool)[0]
        return self.get(name, n)

    def random(
        self,
        solved: set[str],
        *,
        collection: str | None = None,
        level: str | None = None,
        rng: random.Random | None = None,
    ) -> Game:
        """A random puzzle of `collection` and `level` (either optional), unsolved if any is."""
        names = [collection] if collection is not None else list(self.collections)
        pool = [
            c for name in names for c in self._candidates(name) if level is None or c[2] == level
        ]
        if not pool:
            raise ApiError(404, "not-found", "no puzzle of that collection and level")
        unsolved = [c for c in pool if f"{c[0]}/{c[1]}" not in solved]
        name, n, _ = (rng or random).choice(unsolved or pool)
        return self.get(name, n)

    # -- import ----------------------------------------------------------------------------

    def read_import(self, text: str) -> tuple[str, str]:
        """The canonical URL and the format of the puzzle `text` holds.

        Raises:
            ApiError: ``bad-puzzle`` (does not parse), ``too-large`` (a side over 40).
        """
        try:
            document = load(text)
        except (FormatError, InvalidPuzzleError) as exc:
            message = str(exc).splitlines()[0] if str(exc) else "not a puzzle"
            raise ApiError(400, "bad-puzzle", message) from None
        puzzle = document.puzzle
        if puzzle.rows > MAX_SIDE or puzzle.cols > MAX_SIDE:
            raise ApiError(
                413,
                "too-large",
                f"the grid is {puzzle.rows}x{puzzle.cols}; the game takes up to"
                f" {MAX_SIDE}x{MAX_SIDE}",
            )
        return puzzle.to_url(), document.format

    async def import_text(
        self, text: str, player: str, fair: str | None = None, address: str = ""
    ) -> Game:
        """Store the puzzle `text` holds as ``imported/N`` (once per canonical URL), for
        `player` (`fair`: whom the reading and the solve count against in the lanes;
        default `player`; `address`: where the request came from).

        The text is read in the cheap lane; a puzzle not imported before is solved in
        the expensive lane and must have exactly one solution, found within
        `SOLVE_SECONDS`.

        Raises:
            ApiError: ``bad-puzzle`` (does not parse, no solution or several),
                ``too-large`` (a side over 40), ``timeout`` (the solve ran its whole
                time: the puzzle is too hard to take), and the lanes' 409, 429, 503.
        """
        fair = fair or player
        wait = self.lanes.expensive.limits.peek(fair)
        if wait > 0:  # over its share of solves: not even the text is read
            raise rate_limited(wait)
        url, format = await self.lanes.cheap.run(lambda: self.read_import(text), fair, address)
        known = self.players.imported_by_url(url)
        if known is None:
            code, solution = await self.lanes.expensive.run(
                fair, _solve_child, (url, SOLVE_SECONDS), seconds=SOLVE_SECONDS, address=address
            )
            status = Status(code)
            if status is Status.UNKNOWN:
                raise ApiError(
                    422, "timeout", f"the puzzle could not be solved within {SOLVE_SECONDS:g} s"
                )
            if status is Status.NONE:
                raise ApiError(400, "bad-puzzle", "the puzzle has no solution")
            if status is Status.MULTIPLE:
                raise ApiError(400, "bad-puzzle", "the puzzle has more than one solution")
            assert solution is not None
            known = self.players.add_imported(url, solution, format=format, player=player)
        return self._get_imported(known.number)
