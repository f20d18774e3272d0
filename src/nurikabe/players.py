"""The players' database: anonymous players, their progress and settings, imported puzzles.

This module owns the game's SQLite file (not the bundled collection, which the game only
reads): its schema, its migrations and every read and write of it. The web server is its
only user; it stays free of web code so that it can be tested and reused on its own.

Schema (``PRAGMA user_version`` = `SCHEMA_VERSION`):

- ``players``: one row per anonymous player id (the id the browser keeps in a cookie).
- ``progress``: per player, puzzle key (``"10x10/42"``, ``"imported/3"``) and the
  puzzle's canonical puzz.link ``url``: the board string, the move list (JSON), seconds
  played, whether the board is solved, when the puzzle was first solved, the best time,
  when it was last saved. ``url`` (migration 2 -> 3) is NULL for a row saved before;
  the migration fills it in for imported puzzles, whose keys never change.
- ``settings``: per player, one JSON object.
- ``imported``: puzzles players imported, shared by all players and deduplicated by their
  canonical puzz.link URL; ``number`` is N of the key ``imported/N``. The unique solution
  found at import is kept with it, so no puzzle is solved twice.
- ``drafts``: per player, the setter's studio drafts: a name and the puzzle as its
  canonical puzz.link URL (added by migration 1 -> 2).
- ``generated``: puzzles the generator made for the game (migration 3 -> 4), shared by
  all players: ``number`` is N of the key ``generated/N``; the size, level, seed and
  generator version that remake it (its ID, `web.stock`), its canonical URL, unique
  solution and score; ``day``, the UTC date of a puzzle of the day; ``served_at``, NULL
  while the puzzle waits in the stock of its (size, level), set when a player takes it.
  A player's progress on one is a ``progress`` row under its key, like any other.

Progress belongs to a puzzle, not to a key. A rebuilt collection may put a different
puzzle under a key (``collection.former`` lists what a key held before), so a row is
unique per (player, key, url), not per (player, key): saving on the new puzzle under a
key adds its own row and never overwrites the row of the former puzzle, which stays in
the file as it was. A row is the player's progress on the puzzle now under its key
(`is_current`) when its url is that puzzle's, or when its url is NULL and the key held
no other puzzle before (a NULL row on a key that did was saved against the older build,
so it is kept but not shown, not counted as solved, and never filled in). The reads
(`progress`, `all_progress`, `solved_keys`) take what each key holds now (`Current`)
from the caller and return only the current rows; saving fills in the url of a NULL row
that is current.

Why (key, url) and not a retired key or a table of old rows: no row is ever moved or
rewritten but to fill in a NULL url, so nothing can be lost half-way; the key stays what
the page and the API speak; and should an older collection come back (a downgrade, or
the server started on another file), its puzzles' progress is there again. The url is
NULL only in rows from schema 2, at most one per (player, key), which the old primary
key guaranteed (SQLite's UNIQUE lets NULLs repeat; no new row is saved without a url).

Every write is one short transaction, committed before the function returns; the file
is in WAL mode, so a killed server loses at most the write in flight, and several server
processes can share it (readers never wait; a writer waits up to the busy timeout,
`database.BUSY_TIMEOUT`, for another's transaction, which takes a millisecond or so).
`open_players` applies the migrations in `MIGRATIONS` to an older file and checks the
file (``PRAGMA quick_check``). `backup` copies the file while servers use it (SQLite's
online backup API: a consistent snapshot, never a half-written page); `restore` puts a
backup back. One `Players` object may be shared by threads. Faults of the file are
`DatabaseError` lines (`database.connect`).

Imports `database` (how the file is opened) and nothing else of the package.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .database import (
    DatabaseError,
    connect,
    explain,
    guard,
    replace_atomically,
    require_tables,
    run_script,
    transaction,
)

__all__ = [
    "BACKUP_PAGES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Current",
    "Draft",
    "Generated",
    "Imported",
    "Players",
    "Progress",
    "backup",
    "default_path",
    "is_current",
    "open_players",
    "restore",
]

SCHEMA_VERSION = 4

_TABLES = ("players", "progress", "settings", "imported", "drafts", "generated")
BACKUP_PAGES = 256
"""Pages a backup copies per step; between steps the servers may write (1 MiB of the
default 4 KiB pages: a step takes about a millisecond)."""

_SCHEMA = """
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);
CREATE TABLE settings (
    player TEXT PRIMARY KEY REFERENCES players(id),
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE imported (
    number INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    solution TEXT NOT NULL,
    format TEXT,
    player TEXT,
    created_at TEXT NOT NULL
);
"""

_PROGRESS_TABLE = """
CREATE TABLE progress (
    player TEXT NOT NULL REFERENCES players(id),
    puzzle TEXT NOT NULL,
    url TEXT,
    board TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]',
    seconds REAL NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    solved_at TEXT,
    best_seconds REAL,
    updated_at TEXT NOT NULL,
    UNIQUE (player, puzzle, url)
)
"""

_COLUMNS_2 = "player, puzzle, board, moves, seconds, solved, solved_at, best_seconds, updated_at"

_PROGRESS_URLS = f"""
{_PROGRESS_TABLE.replace("CREATE TABLE progress", "CREATE TABLE progress_3")};
INSERT INTO progress_3 ({_COLUMNS_2}) SELECT {_COLUMNS_2} FROM progress;
DROP TABLE progress;
ALTER TABLE progress_3 RENAME TO progress;
UPDATE progress SET url = (SELECT url FROM imported WHERE 'imported/' || number = puzzle)
WHERE puzzle LIKE 'imported/%'
"""
"""Migration 2 -> 3: progress gets its puzzle's url (NULL for the rows saved before, but
those of imported puzzles) and is unique per (player, puzzle, url)."""

_DRAFTS = """
CREATE TABLE drafts (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id),
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX drafts_by_player ON drafts (player, updated_at)
"""


_GENERATED = """
CREATE TABLE IF NOT EXISTS generated (
    number INTEGER PRIMARY KEY,
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    level TEXT NOT NULL,
    seed INTEGER NOT NULL,
    generator TEXT NOT NULL,
    url TEXT NOT NULL,
    solution TEXT NOT NULL,
    score INTEGER,
    seconds REAL,
    day TEXT UNIQUE,
    made_at TEXT NOT NULL,
    served_at TEXT,
    UNIQUE (rows, cols, level, seed, generator)
);
CREATE INDEX IF NOT EXISTS generated_stock ON generated (rows, cols, level, served_at)
"""
"""Migration 3 -> 4: the generated puzzles, the stock among them (IF NOT EXISTS: a file
made by this version and set back to an older one by hand keeps its table)."""


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: lambda conn: run_script(conn, _DRAFTS),
    2: lambda conn: run_script(conn, _PROGRESS_URLS),
    3: lambda conn: run_script(conn, _GENERATED),
}
"""Upgrade steps: ``MIGRATIONS[v](conn)`` turns a version-*v* database into *v + 1*."""


def default_path() -> Path:
    """``$XDG_DATA_HOME/nurikabe/players.sqlite``, else ``~/.local/share/nurikabe/...``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nurikabe" / "players.sqlite"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _connect(path: Path) -> sqlite3.Connection:
    """Open the file (checked, WAL, busy timeout; see `database.connect`)."""
    conn = connect(path, create=True)
    conn.execute("PRAGMA synchronous = NORMAL")  # a commit survives the process being killed
    return conn


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    with transaction(conn):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DatabaseError(
                f"{path}: players database version {version} is newer than this nurikabe"
                f" ({SCHEMA_VERSION})"
            )
        if version == 0:
            run_script(conn, ";".join((_SCHEMA, _PROGRESS_TABLE, _DRAFTS, _GENERATED)))
            version = SCHEMA_VERSION
        while version < SCHEMA_VERSION:
            MIGRATIONS[version](conn)
            version += 1
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    require_tables(conn, _TABLES)


@dataclass(frozen=True)
class Progress:
    """One player's state on one puzzle."""

    puzzle: str
    """The puzzle key, ``"<collection>/<number>"``."""
    url: str | None
    """The canonical URL of the puzzle it was saved on (None: saved before schema 3)."""
    board: str
    """The board string (``#`` black, ``.`` dot, ``?`` unknown), row-major."""
    moves: list[str]
    """The move history (``r1c2=#``), for the page's undo stack."""
    seconds: float
    """Time played so far."""
    solved: bool
    """Whether the saved board is solved."""
    solved_at: str | None
    """When the puzzle was first solved (ISO 8601, UTC), or None."""
    best_seconds: float | None
    """The best time of a solve, or None."""
    updated_at: str
    """When it was last saved (ISO 8601, UTC)."""


@dataclass(frozen=True)
class Imported:
    """A puzzle a player imported: its number, canonical URL and unique solution."""

    number: int
    url: str
    solution: str
    """The solution as a board string (``#`` and ``.``)."""
    format: str | None


@dataclass(frozen=True)
class Draft:
    """A setter's draft in the studio."""

    id: int
    name: str
    url: str
    """The puzzle as its canonical puzz.link URL (``?`` clues included)."""
    updated_at: str


@dataclass(frozen=True)
class Generated:
    """A puzzle the generator made for the game (see ``generated`` above)."""

    number: int
    """N of its key ``generated/N``."""
    rows: int
    cols: int
    level: str
    seed: int
    generator: str
    """The generator version (`generator.GENERATOR_VERSION`) that made it."""
    url: str
    solution: str
    """The solution as a board string (``#`` and ``.``)."""
    score: int | None
    seconds: float | None
    """Wall time it took to make, or None."""
    day: str | None
    """The UTC date (``2026-11-27``) it is the puzzle of, or None."""


_GENERATED_COLUMNS = (
    "number, rows, cols, level, seed, generator, url, solution, score, seconds, day"
)


Current = Callable[[str], "tuple[str, bool] | None"]
"""What a puzzle key holds now: the canonical URL of its puzzle and whether the key held
another puzzle before (``collection.former_keys``); None when the key holds no puzzle."""


def is_current(saved: Progress, now: tuple[str, bool] | None) -> bool:
    """Whether `saved` is the player's progress on the puzzle its key holds `now`."""
    if now is None:
        return False
    url, replaced = now
    return saved.url == url if saved.url is not None else not replaced


_PROGRESS = "puzzle, url, board, moves, seconds, solved, solved_at, best_seconds, updated_at"


def _progress(row: tuple[Any, ...]) -> Progress:
    puzzle, url, board, moves, seconds, solved, solved_at, best, updated = row
    return Progress(
        puzzle, url, board, json.loads(moves), seconds, bool(solved), solved_at, best, updated
    )


class Players:
    """The players' database; use `open_players` to get one.

    Each thread that uses it gets its own connection (SQLite connections stay in the
    thread that made them); WAL lets them read at once while one writes.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        """Where the file is."""
        self._local = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = _connect(self.path)
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close this thread's connection (the others close with their threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        with guard(conn):
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed before the block's caller goes on."""
        with transaction(self._conn()) as conn:
            yield conn

    @staticmethod
    def _ensure_player(conn: sqlite3.Connection, player: str) -> None:
        conn.execute(
            "INSERT OR IGNORE INTO players (id, created_at) VALUES (?, ?)", (player, _now())
        )

    # -- progress --------------------------------------------------------------------------

    def progress(self, player: str, puzzle: str, now: tuple[str, bool]) -> Progress | None:
        """The player's progress on the puzzle under key `puzzle`, which holds `now`
        (its URL, whether the key held another puzzle before; see `is_current`), or None."""
        url, replaced = now
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {_PROGRESS} FROM progress WHERE player = ? AND puzzle = ?"
                " AND (url = ? OR (url IS NULL AND NOT ?)) ORDER BY url IS NULL LIMIT 1",
                (player, puzzle, url, replaced),
            ).fetchone()
        return None if row is None else _progress(row)

    def all_progress(self, player: str, current: Current | None = None) -> list[Progress]:
        """The player's progress on the puzzles their keys hold now (`current`; every row
        kept, those of former puzzles too, when None), most recently saved first."""
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT {_PROGRESS} FROM progress WHERE player = ?"
                " ORDER BY updated_at DESC, puzzle, url IS NULL",
                (player,),
            ).fetchall()
        saved = [_progress(row) for row in rows]
        if current is None:
            return saved
        mine: dict[str, Progress] = {}  # one per key (the latest, should two match)
        for p in saved:
            if p.puzzle not in mine and is_current(p, current(p.puzzle)):
                mine[p.puzzle] = p
        return list(mine.values())

    def solved_keys(self, player: str, current: Current) -> set[str]:
        """The keys of the puzzles (now under them, `current`) the player has solved."""
        return {p.puzzle for p in self.all_progress(player, current) if p.solved_at is not None}

    def save_progress(
        self,
        player: str,
        puzzle: str,
        now: tuple[str, bool],
        *,
        board: str,
        moves: list[str],
        seconds: float,
        solved: bool,
    ) -> Progress:
        """Store the player's board on the puzzle under key `puzzle`, which holds `now`
        (its URL, whether the key held another puzzle before); a solved board may set
        the best time. Rows of other puzzles under the key are left as they are.

        `solved` must be the server's own verdict. The first solve sets ``solved_at``;
        the best time is the least `seconds` of any solved save.
        """
        url, replaced = now
        stamp = _now()
        with self._write() as conn:
            self._ensure_player(conn, player)
            if not replaced:  # a row saved before urls were kept is this puzzle's
                conn.execute(
                    "UPDATE OR IGNORE progress SET url = ?"
                    " WHERE player = ? AND puzzle = ? AND url IS NULL",
                    (url, player, puzzle),
                )
            row = conn.execute(
                "SELECT solved_at, best_seconds FROM progress"
                " WHERE player = ? AND puzzle = ? AND url = ?",
                (player, puzzle, url),
            ).fetchone()
            solved_at, best = (None, None) if row is None else row
            if solved:
                solved_at = solved_at or stamp
                best = seconds if best is None else min(best, seconds)
            conn.execute(
                "INSERT OR REPLACE INTO progress (player, puzzle, url, board, moves, seconds,"
                " solved, solved_at, best_seconds, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    player,
                    puzzle,
                    url,
                    board,
                    json.dumps(moves),
                    seconds,
                    int(solved),
                    solved_at,
                    best,
                    stamp,
                ),
            )
        return Progress(puzzle, url, board, list(moves), seconds, solved, solved_at, best, stamp)

    # -- settings --------------------------------------------------------------------------

    def settings(self, player: str) -> dict[str, Any]:
        """The player's settings ({} when none are saved)."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM settings WHERE player = ?", (player,)).fetchone()
        return {} if row is None else dict(json.loads(row[0]))

    def save_settings(self, player: str, settings: dict[str, Any]) -> None:
        """Replace the player's settings."""
        with self._write() as conn:
            self._ensure_player(conn, player)
            conn.execute(
                "INSERT OR REPLACE INTO settings (player, value, updated_at) VALUES (?, ?, ?)",
                (player, json.dumps(settings, separators=(",", ":")), _now()),
            )

    # -- imported puzzles ------------------------------------------------------------------

    def imported(self, number: int) -> Imported | None:
        """Imported puzzle `number`, or None."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT number, url, solution, format FROM imported WHERE number = ?", (number,)
            ).fetchone()
        return None if row is None else Imported(*row)

    def imported_by_url(self, url: str) -> Imported | None:
        """The imported puzzle with this canonical URL, or None."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT number, url, solution, format FROM imported WHERE url = ?", (url,)
            ).fetchone()
        return None if row is None else Imported(*row)

    def imported_numbers(self) -> list[int]:
        """The numbers of every imported puzzle, in order."""
        with self._read() as conn:
            return [row[0] for row in conn.execute("SELECT number FROM imported ORDER BY number")]

    def add_imported(
        self, url: str, solution: str, *, format: str | None = None, player: str | None = None
    ) -> Imported:
        """Store an imported puzzle (by its canonical URL) unless it is there already."""
        with self._write() as conn:
            row = conn.execute(
                "SELECT number, url, solution, format FROM imported WHERE url = ?", (url,)
            ).fetchone()
            if row is not None:
                return Imported(*row)
            cursor = conn.execute(
                "INSERT INTO imported (url, solution, format, player, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (url, solution, format, player, _now()),
            )
            number = cursor.lastrowid
        assert number is not None
        return Imported(number, url, solution, format)

    # -- drafts ----------------------------------------------------------------------------

    def drafts(self, player: str) -> list[Draft]:
        """The player's drafts, most recently saved first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT id, name, url, updated_at FROM drafts WHERE player = ?"
                " ORDER BY updated_at DESC, id DESC",
                (player,),
            ).fetchall()
        return [Draft(*row) for row in rows]

    def draft(self, player: str, draft: int) -> Draft | None:
        """The player's draft `draft`, or None (also for another player's draft)."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT id, name, url, updated_at FROM drafts WHERE player = ? AND id = ?",
                (player, draft),
            ).fetchone()
        return None if row is None else Draft(*row)

    def save_draft(
        self, player: str, name: str, url: str, draft: int | None = None
    ) -> Draft | None:
        """Store a new draft, or replace the player's draft `draft`; None when the player
        has no draft `draft`."""
        now = _now()
        with self._write() as conn:
            self._ensure_player(conn, player)
            if draft is None:
                cursor = conn.execute(
                    "INSERT INTO drafts (player, name, url, updated_at) VALUES (?, ?, ?, ?)",
                    (player, name, url, now),
                )
                draft = cursor.lastrowid
            elif not conn.execute(
                "UPDATE drafts SET name = ?, url = ?, updated_at = ? WHERE player = ? AND id = ?",
                (name, url, now, player, draft),
            ).rowcount:
                return None
        assert draft is not None
        return Draft(draft, name, url, now)

    def delete_draft(self, player: str, draft: int) -> bool:
        """Delete the player's draft `draft`; False when there is none."""
        with self._write() as conn:
            cursor = conn.execute("DELETE FROM drafts WHERE player = ? AND id = ?", (player, draft))
        return cursor.rowcount > 0

    # -- generated puzzles and their stock -------------------------------------------------

    def add_generated(
        self,
        *,
        rows: int,
        cols: int,
        level: str,
        seed: int,
        generator: str,
        url: str,
        solution: str,
        score: int | None,
        seconds: float | None,
        day: str | None = None,
        stock: bool = True,
    ) -> Generated:
        """Store a generated puzzle, in the stock of its (size, level) when `stock` (else
        served at once); the row already stored for the same (size, level, seed,
        generator), or for the same `day`, is returned as it is."""
        with self._write() as conn:
            row = conn.execute(
                f"SELECT {_GENERATED_COLUMNS} FROM generated WHERE (rows = ? AND cols = ?"
                " AND level = ? AND seed = ? AND generator = ?) OR day = ?",
                (rows, cols, level, seed, generator, day),
            ).fetchone()
            if row is not None:
                return Generated(*row)
            now = _now()
            cursor = conn.execute(
                "INSERT INTO generated (rows, cols, level, seed, generator, url, solution,"
                " score, seconds, day, made_at, served_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rows,
                    cols,
                    level,
                    seed,
                    generator,
                    url,
                    solution,
                    score,
                    seconds,
                    day,
                    now,
                    None if stock else now,
                ),
            )
            number = cursor.lastrowid
        assert number is not None
        return Generated(
            number, rows, cols, level, seed, generator, url, solution, score, seconds, day
        )

    def generated(self, number: int) -> Generated | None:
        """Generated puzzle `number`, or None."""
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {_GENERATED_COLUMNS} FROM generated WHERE number = ?", (number,)
            ).fetchone()
        return None if row is None else Generated(*row)

    def generated_by_seed(
        self, rows: int, cols: int, level: str, seed: int, generator: str
    ) -> Generated | None:
        """The generated puzzle of this size, level, seed and generator version, or None."""
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {_GENERATED_COLUMNS} FROM generated WHERE rows = ? AND cols = ?"
                " AND level = ? AND seed = ? AND generator = ?",
                (rows, cols, level, seed, generator),
            ).fetchone()
        return None if row is None else Generated(*row)

    def daily(self, day: str) -> Generated | None:
        """The puzzle of the day `day` (``2026-11-27``), or None when it is not made yet."""
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {_GENERATED_COLUMNS} FROM generated WHERE day = ?", (day,)
            ).fetchone()
        return None if row is None else Generated(*row)

    def take_stock(self, rows: int, cols: int, level: str, generator: str) -> Generated | None:
        """Take the oldest puzzle of the stock of (size, level) made by `generator` out of
        it (served from now on), or None when that stock is empty. Two players taking at
        once never get the same one (one transaction each)."""
        with self._write() as conn:
            row = conn.execute(
                f"SELECT {_GENERATED_COLUMNS} FROM generated WHERE rows = ? AND cols = ?"
                " AND level = ? AND generator = ? AND served_at IS NULL AND day IS NULL"
                " ORDER BY number LIMIT 1",
                (rows, cols, level, generator),
            ).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE generated SET served_at = ? WHERE number = ?", (_now(), row[0]))
        return Generated(*row)

    def stock(self, generator: str) -> dict[tuple[int, int, str], int]:
        """How many puzzles wait in each stock of `generator`, by (rows, cols, level),
        with 0 for every (size, level) ever generated whose stock is empty."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT rows, cols, level, SUM(served_at IS NULL) FROM generated"
                " WHERE generator = ? AND day IS NULL GROUP BY rows, cols, level",
                (generator,),
            ).fetchall()
        return {(r, c, level): int(n) for r, c, level, n in rows}

    def generation_seconds(self, rows: int, cols: int, level: str) -> list[float]:
        """How long the last (up to 20) puzzles of this size and level took to make."""
        with self._read() as conn:
            found = conn.execute(
                "SELECT seconds FROM generated WHERE rows = ? AND cols = ? AND level = ?"
                " AND seconds IS NOT NULL ORDER BY number DESC LIMIT 20",
                (rows, cols, level),
            ).fetchall()
        return [row[0] for row in found]


def open_players(path: str | Path | None = None) -> Players:
    """Open (creating and migrating as needed) the players' database; default `default_path`
    (its folder is made when missing; that of a given `path` must exist).

    Raises:
        DatabaseError: the file cannot be used (one line naming it and the fault), is not
            a players' database, or is one from a newer version.
    """
    if path is None:
        path = default_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"{path}: cannot make its folder ({exc.strerror})") from None
    path = Path(path).expanduser()
    players = Players(path)
    conn = players._conn()
    try:
        _migrate(conn, path)
    except BaseException:
        players.close()
        raise
    return players


def _copy(source: sqlite3.Connection, target: sqlite3.Connection, where: Path) -> None:
    """Copy `source` into `target` with the online backup API, in steps."""
    try:
        source.backup(target, pages=BACKUP_PAGES, sleep=0.005)
    except sqlite3.Error as exc:
        raise explain(exc, where) from exc


def backup(path: str | Path | None, dest: str | Path) -> Path:
    """Copy the players' database at `path` (default `default_path`) to the new file
    `dest`, while servers may be using it; returns `dest` resolved.

    SQLite's online backup API copies a consistent snapshot (a write that lands during
    the copy makes it start that step again, never a torn copy). The copy is made beside
    `dest`, checked (``PRAGMA quick_check``), left in rollback-journal mode (one file,
    no ``-wal``) and moved into place in one step: an interrupted backup leaves no file
    at `dest`.

    Raises:
        DatabaseError: the source is missing or not a players' database, or `dest`
            exists or cannot be written (one line naming the file).
    """
    source_path = Path(path).expanduser() if path is not None else default_path()
    target = Path(dest).expanduser()
    if target.exists():
        raise DatabaseError(f"{target}: exists already (a backup never overwrites a file)")
    source = connect(source_path)
    try:
        require_tables(source, _TABLES)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        copy = connect(tmp, create=True)
        try:
            _copy(source, copy, target)
            with guard(copy):
                copy.execute("PRAGMA journal_mode = DELETE")
                problems = [row[0] for row in copy.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise DatabaseError(f"{target}: the copy is damaged ({problems[0]})")
        except BaseException:
            copy.close()
            tmp.unlink(missing_ok=True)
            raise
        copy.close()
        replace_atomically(tmp, target)
    finally:
        source.close()
    return target.resolve()


def restore(backup_path: str | Path, path: str | Path | None = None) -> Players:
    """Put the backup at `backup_path` back as the players' database at `path` (default
    `default_path`), replacing what it holds, and migrate it to `SCHEMA_VERSION`.

    The backup is checked first (a players' database, not from a newer version, passes
    ``PRAGMA quick_check``); then copied into the file with the online backup API, so
    that a server using the file sees the restored data from its next request (stop the
    servers first all the same: a save made during the restore is lost with it).

    Raises:
        DatabaseError: the backup is missing, damaged, not a players' database or from
            a newer version; or the file cannot be written.
    """
    source = connect(Path(backup_path).expanduser(), readonly=True)
    try:
        require_tables(source, ("players", "progress", "settings", "imported"))
        with guard(source):
            version = source.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DatabaseError(
                f"{backup_path}: players database version {version} is newer than this"
                f" nurikabe ({SCHEMA_VERSION})"
            )
        target_path = Path(path).expanduser() if path is not None else default_path()
        target = connect(target_path, create=True)
        try:
            _copy(source, target, target_path)
        finally:
            target.close()
    finally:
        source.close()
    return open_players(target_path)
