"""The bundled puzzle collection: a versioned SQLite store of puzzles and their grades.

This module owns the database schema, its migrations, the build plan of the bundled
collection (`PLAN`: which sizes and levels, how many of each; `KEPT`: the puzzles a
build never remakes, since players have them), and the functions that write and read
it. The database ships as ``nurikabe/data/collection.sqlite``.

Schema (``PRAGMA user_version`` = `SCHEMA_VERSION`):

- ``puzzles``: one row per puzzle, numbered 0.. within its ``collection`` (``10x10``,
  ``15x15``, ``20x20``, ``30x30``, or ``imported`` for puzzles a player added, whose
  ``source`` says where from); clues and solution as JSON, grade level and score, and for
  generated puzzles the seed and generator version that remake them.
- ``meta``: how the collection was built (seed, generator version, plan).
- ``former`` (schema 2): the puzzles a key used to hold: one row per (collection, number,
  url) that was replaced by a different puzzle (compared by url), with the generator
  version that made it and when it was replaced. `store` records a row whenever it
  replaces a puzzle with another (so a ``collection build`` onto a copy of the previous
  file records every key it changes); `record_former` records the differences between
  an old file and a new one. The game uses it so that a player's progress saved on a
  former puzzle is never shown on the new one (`former_keys`, `players`). A version-1
  file (without the table) still opens read-only and reads as having no former puzzles.

Players' progress and settings live in the players' database (`nurikabe.players`), not
here. Files made before that held empty ``progress`` and ``settings`` tables; they still
open, read and build as they are (nothing reads those tables, and a build keeps them
like any row it does not make).

`open_db` applies the migrations in `MIGRATIONS` to an older file; a migration is a
function taking the connection, registered under the version it upgrades from.

Safety (files are opened through `nurikabe.database`): every fault of a file (missing,
not a database, damaged, read-only, locked, without the tables, a row that does not
decode) is one `DatabaseError` line. No function here writes the bundled file: opening
it for writing raises, so that a command can only ever write a path it was given.
`build_into` makes a build safe: the new file is made beside the target, starting as a
copy of the target when there is one (a build never drops rows it did not make, such as
other collections), and swapped into place atomically at the end.

Imports `puzzle`, `database`, `errors` and `generator.jobs` (for the build plan's seeds).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from . import database
from .errors import DatabaseError
from .generator import GENERATOR_VERSION
from .generator.jobs import derive_seed, job_seeds
from .puzzle import Board, Puzzle

__all__ = [
    "MIGRATIONS",
    "PLAN",
    "SCHEMA_VERSION",
    "Entry",
    "build_into",
    "build_jobs",
    "bundled_path",
    "close_db",
    "create",
    "entries",
    "execution_order",
    "former",
    "former_keys",
    "get",
    "open_db",
    "record_former",
    "set_grade",
    "store",
]

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    number INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    clues TEXT NOT NULL,
    solution TEXT NOT NULL,
    url TEXT NOT NULL,
    level TEXT,
    score INTEGER,
    seed INTEGER,
    generator TEXT,
    source TEXT,
    UNIQUE (collection, number)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""

_FORMER = """
CREATE TABLE IF NOT EXISTS former (
    collection TEXT NOT NULL,
    number INTEGER NOT NULL,
    url TEXT NOT NULL,
    generator TEXT,
    replaced_at TEXT NOT NULL,
    UNIQUE (collection, number, url)
)
"""


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: lambda conn: database.run_script(conn, _FORMER),
}
"""Upgrade steps: ``MIGRATIONS[v](conn)`` turns a version-*v* database into *v + 1*."""

PLAN: tuple[tuple[str, int, int, tuple[tuple[str, int], ...]], ...] = (
    (
        "10x10",
        10,
        10,
        (("easy", 150), ("medium", 140), ("hard", 125), ("expert", 75), ("extreme", 10)),
    ),
    (
        "15x15",
        15,
        15,
        (
            *(("easy", 40), ("medium", 30), ("hard", 20), ("expert", 10)),
            *(("easy", 15), ("medium", 15), ("hard", 15), ("expert", 10), ("extreme", 2)),
            ("extreme", 3),
            ("extreme", 5),
            ("easy", 5),
            *(("easy", 10), ("medium", 10)),
            ("extreme", 5),
        ),
    ),
    (
        "20x20",
        20,
        20,
        (
            *(("easy", 30), ("medium", 20)),
            *(("easy", 10), ("medium", 10), ("hard", 10), ("expert", 10)),
            ("extreme", 5),
            *(("easy", 5), ("medium", 5)),
            *(("hard", 10), ("expert", 10)),
            *(("expert", 5), ("extreme", 5)),
            *(("easy", 10), ("medium", 10)),
        ),
    ),
    (
        "30x30",
        30,
        30,
        (
            *(("medium", 10), ("hard", 10), ("expert", 5)),
            *(("hard", 5), ("expert", 5), ("extreme", 5)),
            ("hard", 5),
            *(("expert", 5), ("extreme", 5)),
        ),
    ),
)
"""The bundled collection: (name, rows, cols, ((level, how many), ...)), numbered in order.

Each collection lists its levels in runs; a run is numbered after the ones before it, so
runs appended at the end of a collection leave every earlier number as it was. 10x10
holds every level, the extreme ones last and few. The first puzzles of 10x10, 15x15
(#0-99) and 20x20 (#0-49) are the "classic" ones made by generator 7 (15x15 easy to
expert, 20x20 easy and medium); after them come generator 8's: 15x15 at all five levels
(two extreme, then three more in a run of their own: each takes minutes of CPU), 20x20
easy to expert (no extreme: the first seed's 12 attempts failed in the build, about
40 min of CPU), and the 30x30 collection (medium to expert). Generator 10's 30x30 hard
and expert runs (#25-34) follow them, and generator 11's extreme runs, made from expert
puzzles by taking clues away: 20x20 #90-94 and 30x30 #35-39; then generator 13's 15x15
extreme run (#160-164), made the same way; then generator 14's easy run of 15x15
(#165-169) and easy and medium runs of 20x20 (#95-104), with fewer, larger islands;
then generator 15's 30x30 hard run (#40-44), walked longer and its largest islands
grown; then generator 17's 30x30 expert and extreme runs (#45-54), whose largest islands
were grown the same way, and its 20x20 hard and expert runs (#105-124); then generator
18's 20x20 expert and extreme runs (#125-134), walked to fewer clues by exact joins; then
generator 18's easy and medium runs of 15x15 (#170-189) and 20x20 (#135-154), the
levels where the older runs sat furthest from published puzzles; then generator 19's
15x15 extreme run (#190-194)."""

KEPT: dict[str, int] = {"10x10": 500, "15x15": 195, "20x20": 155, "30x30": 55}
"""Per collection, how many puzzles at its first numbers are kept as they are, whichever
generator made them (players' progress is keyed on them): a build onto a file that holds
a puzzle at a kept number keeps it (`already_made`), and only a build into a new file,
or ``--remake``, makes one there. Every puzzle shipped so far is kept (generator 7's
classic sets, the rebuild with generator 8 and the runs appended since), so runs
appended to `PLAN`, which move the job seeds of the collections after them, remake
nothing a player has."""

BUILD_OPTIONS: dict[str, Any] = {
    "seconds": None,
    "attempts": 12,
    "retries": 6,
    "verify": "cpsat-fast",
}
"""Budget of each puzzle of a build: attempts only (no time limit, so builds reproduce),
and each puzzle proved unique a second time by CP-SAT, in its faster model (else the
job's next seed is tried; `generator.jobs.make_record`, `generator.jobs.VERIFIERS`)."""


def bundled_path() -> Path:
    """Where the bundled database lives inside the package."""
    return Path(str(resources.files("nurikabe") / "data" / "collection.sqlite"))


@dataclass(frozen=True)
class Entry:
    """One puzzle of a collection."""

    collection: str
    number: int
    puzzle: Puzzle
    solution: Board
    level: str | None
    score: int | None
    seed: int | None
    generator: str | None
    source: str | None

    def to_json(self) -> dict[str, Any]:
        """The JSON-lines record (the same shape ``nurikabe generate --format jsonl`` writes)."""
        p = self.puzzle
        return {
            "id": f"{self.collection}-{self.number:03d}",
            "rows": p.rows,
            "cols": p.cols,
            "clues": [[i // p.cols, i % p.cols, v] for i, v in p.clues.items()],
            "solution": self.solution.to_rows(),
            "grade": {"level": self.level, "score": self.score},
            "seed": self.seed,
            "url": p.to_url(),
            "generator": self.generator,
            "source": self.source,
        }


TABLES = ("puzzles", "meta")
"""The tables a collection file must hold (``former`` too from schema version 2)."""


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise DatabaseError(
            f"{path}: collection schema version {version} is newer than this nurikabe "
            f"({SCHEMA_VERSION})"
        )
    if version == SCHEMA_VERSION:
        return
    with database.transaction(conn):
        if version == 0:
            have = conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
            if have:
                raise DatabaseError(f"{path}: not a collection database (other tables)")
            database.run_script(conn, _SCHEMA + ";" + _FORMER)
            version = SCHEMA_VERSION
        while version < SCHEMA_VERSION:
            MIGRATIONS[version](conn)
            version += 1
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _is_bundled(path: Path) -> bool:
    bundled = bundled_path()
    try:
        return path.exists() and bundled.exists() and path.samefile(bundled)
    except OSError:
        return False


def open_db(path: str | Path | None = None, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (creating and migrating as needed) a collection database; default: the bundled one.

    The bundled database opens read-only only. Read-only, a file of an older schema
    version opens as it is (the migrations only add tables; see `former_keys`).

    Raises:
        DatabaseError: the file is missing (read-only), not a collection database, one
            from a newer version, damaged, locked or read-only when writing is asked,
            or the bundled file opened for writing.
    """
    path = Path(path) if path is not None else bundled_path()
    if readonly:
        conn = database.connect(path, readonly=True)
        with database.guard(conn):
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        if not 1 <= version <= SCHEMA_VERSION:
            conn.close()
            raise DatabaseError(
                f"{path}: collection schema version {version}, expected 1 to {SCHEMA_VERSION}"
                + (" (not a collection database?)" if version == 0 else "")
            )
        try:
            database.require_tables(conn, TABLES)
        except DatabaseError:
            conn.close()
            raise
        return conn
    if _is_bundled(path):
        raise DatabaseError(
            f"{path}: the bundled collection is never written; work on a copy (--db PATH)"
        )
    conn = database.connect(path, create=True)
    try:
        _migrate(conn, path)
        database.require_tables(conn, TABLES)
    except (DatabaseError, sqlite3.Error) as exc:
        conn.close()
        if isinstance(exc, sqlite3.Error):
            raise database.explain(exc, path) from exc
        raise
    return conn


def close_db(conn: sqlite3.Connection) -> None:
    """Close a collection opened for writing, leaving one self-contained file (no WAL).

    A collection is a file to copy and ship; the WAL serves only while it is written.
    """
    with contextlib.suppress(sqlite3.Error):  # another reader: it stays WAL, still whole
        conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()


def create(path: str | Path) -> sqlite3.Connection:
    """A new, empty collection database at `path`.

    Raises:
        DatabaseError: `path` exists already (nothing is replaced), or cannot be written.
    """
    path = Path(path)
    if path.exists():
        raise DatabaseError(f"{path}: exists already; give a new path")
    return open_db(path)


@contextlib.contextmanager
def build_into(path: str | Path) -> Iterator[sqlite3.Connection]:
    """A connection to write a build of the collection at `path` into, swapped in at the end.

    Checked before anything is made: `path` must be writable, not a folder, not the
    bundled file, and if it exists, a readable collection. The build writes into a new
    file beside `path`, which starts as a copy of `path` when it exists, so rows the
    build does not replace are kept. When the block ends, even by Ctrl-C, the new file
    replaces `path` atomically (what was stored is kept); if it raises anything else,
    `path` is left as it was and the new file is removed.

    Raises:
        DatabaseError: the checks above, or a write that fails (a full disk).
    """
    target = database.check_writable(path)
    if _is_bundled(target):
        raise DatabaseError(f"{target}: the bundled collection is never written; give -o PATH")
    old = open_db(target, readonly=True) if target.exists() else None
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".building", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    os.unlink(tmp)
    conn: sqlite3.Connection | None = None
    try:
        conn = database.connect(tmp, create=True)
        if old is not None:
            with database.guard(conn):
                old.backup(conn)
            old.close()
            old = None
            conn.execute("PRAGMA journal_mode = WAL")
        _migrate(conn, tmp)
        try:
            yield conn
        except KeyboardInterrupt:
            _finish_build(conn, tmp, target)
            conn = None
            raise
        _finish_build(conn, tmp, target)
        conn = None
    finally:
        if old is not None:
            old.close()
        if conn is not None:
            conn.close()
        for leftover in (tmp, *(tmp.with_name(tmp.name + x) for x in ("-wal", "-shm"))):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _finish_build(conn: sqlite3.Connection, tmp: Path, target: Path) -> None:
    with database.guard(conn):
        conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    database.replace_atomically(tmp, target)


def build_jobs(seed: int) -> list[dict[str, Any]]:
    """The generator jobs of the bundled collection for `seed`, one per puzzle, in order.

    Each job is seeded by its index, its place in `PLAN`, so runs appended to a
    collection or new collections leave every earlier job as it was."""
    jobs = []
    index = 0
    for name, rows, cols, levels in PLAN:
        number = 0
        for level, count in levels:
            for _ in range(count):
                jobs.append(
                    {
                        "index": index,
                        "rows": rows,
                        "cols": cols,
                        "seed": derive_seed(seed, index),
                        "difficulty": level,
                        "collection": name,
                        "number": number,
                        **BUILD_OPTIONS,
                    }
                )
                index += 1
                number += 1
    return jobs


def already_made(conn: sqlite3.Connection, jobs: list[dict[str, Any]]) -> set[int]:
    """The indexes of the build `jobs` whose puzzle `conn` already holds: a row at the
    job's collection and number made by this generator version from one of the job's
    seeds (making it again would give the same puzzle: the generator is deterministic
    per seed and version), or any row at a `KEPT` number (it stays as it is). A build
    resumes, and keeps the kept puzzles, by skipping these jobs."""
    with database.guard(conn):
        found = conn.execute("SELECT collection, number, seed, generator FROM puzzles").fetchall()
    rows = {(collection, number): (seed, made_by) for collection, number, seed, made_by in found}
    done: set[int] = set()
    for job in jobs:
        key = (job["collection"], job["number"])
        row = rows.get(key)
        if row is None:
            continue
        if job["number"] < KEPT.get(job["collection"], 0) or (
            row[1] == GENERATOR_VERSION and row[0] in job_seeds(job)
        ):
            done.add(job["index"])
    return done


def execution_order(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The jobs in the order a build runs them: collection by collection, levels mixed.

    Within a collection the levels are interleaved in proportion to their counts, so an
    interrupted build still holds every level. The order does not change the puzzles.
    """
    rank = {name: k for k, (name, _, _, _) in enumerate(PLAN)}
    counts: dict[tuple[str, str], int] = {}
    for job in jobs:
        key = (job["collection"], job["difficulty"])
        counts[key] = counts.get(key, 0) + 1
    seen: dict[tuple[str, str], int] = {}
    keyed = []
    for job in jobs:
        key = (job["collection"], job["difficulty"])
        position = seen.get(key, 0)
        seen[key] = position + 1
        keyed.append(
            ((rank.get(job["collection"], len(rank)), position / counts[key], job["index"]), job)
        )
    return [job for _, job in sorted(keyed, key=lambda kv: kv[0])]


def store(
    conn: sqlite3.Connection,
    collection: str,
    number: int,
    record: dict[str, Any],
    *,
    source: str | None = None,
) -> None:
    """Insert one puzzle from its JSON record (the generator's shape), or replace the
    puzzle stored under the same collection and number (keeping its row id). A replaced
    puzzle with another url is recorded in ``former``."""
    grade = record.get("grade") or {}
    _record_replaced(conn, collection, number, record["url"])
    conn.execute(
        "INSERT INTO puzzles (collection, number, rows, cols, clues, solution, url,"
        " level, score, seed, generator, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (collection, number) DO UPDATE SET rows = excluded.rows,"
        " cols = excluded.cols, clues = excluded.clues, solution = excluded.solution,"
        " url = excluded.url, level = excluded.level, score = excluded.score,"
        " seed = excluded.seed, generator = excluded.generator, source = excluded.source",
        (
            collection,
            number,
            record["rows"],
            record["cols"],
            json.dumps(record["clues"]),
            json.dumps(record["solution"]),
            record["url"],
            grade.get("level"),
            grade.get("score"),
            record.get("seed"),
            record.get("generator"),
            source,
        ),
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _record_replaced(conn: sqlite3.Connection, collection: str, number: int, url: str) -> None:
    """Record in ``former`` the puzzle under (collection, number) if `url` replaces it."""
    conn.execute(
        "INSERT OR IGNORE INTO former (collection, number, url, generator, replaced_at)"
        " SELECT collection, number, url, generator, ? FROM puzzles"
        " WHERE collection = ? AND number = ? AND url != ?",
        (_now(), collection, number, url),
    )


def _has_former(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'former'")
    return row.fetchone() is not None


def former(conn: sqlite3.Connection) -> list[tuple[str, int, str, str | None, str]]:
    """The former puzzles: (collection, number, url, generator, replaced_at), by key and
    time; none for a file of schema version 1."""
    with database.guard(conn):
        if not _has_former(conn):
            return []
        return list(
            conn.execute(
                "SELECT collection, number, url, generator, replaced_at FROM former"
                " ORDER BY collection, number, replaced_at, url"
            )
        )


def former_keys(conn: sqlite3.Connection) -> set[tuple[str, int]]:
    """The (collection, number) keys that held another puzzle before the one they hold."""
    return {(c, n) for c, n, _, _, _ in former(conn)}


def record_former(old: str | Path, conn: sqlite3.Connection) -> int:
    """Record in the collection `conn` (open for writing) what the collection file `old`
    held that it no longer does: every puzzle of `old` whose key now holds another
    puzzle or none (compared by url), and the former puzzles `old` lists itself.
    Returns how many rows were added; recording twice adds nothing. Commits.

    Raises:
        DatabaseError: `old` cannot be read as a collection.
    """
    source = open_db(old, readonly=True)
    try:
        with database.guard(source):
            rows = source.execute(
                "SELECT collection, number, url, generator FROM puzzles ORDER BY id"
            ).fetchall()
        carried = former(source)
    finally:
        source.close()
    now = _now()
    with database.transaction(conn):
        before = conn.execute("SELECT COUNT(*) FROM former").fetchone()[0]
        conn.executemany(
            "INSERT OR IGNORE INTO former (collection, number, url, generator, replaced_at)"
            " VALUES (?, ?, ?, ?, ?)",
            carried,
        )
        current = dict(
            ((c, n), u) for c, n, u in conn.execute("SELECT collection, number, url FROM puzzles")
        )
        conn.executemany(
            "INSERT OR IGNORE INTO former (collection, number, url, generator, replaced_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(c, n, u, g, now) for c, n, u, g in rows if current.get((c, n)) != u],
        )
        after = conn.execute("SELECT COUNT(*) FROM former").fetchone()[0]
    return int(after - before)


def set_grade(
    conn: sqlite3.Connection, collection: str, number: int, level: str | None, score: int | None
) -> None:
    """Store a new grade for one puzzle (see ``nurikabe collection regrade``)."""
    conn.execute(
        "UPDATE puzzles SET level = ?, score = ? WHERE collection = ? AND number = ?",
        (level, score, collection, number),
    )


def _entry(row: tuple[Any, ...]) -> Entry:
    collection, number, rows, cols, clues, solution, level, score, seed, generator, source = row
    try:
        puzzle = Puzzle.from_clues(rows, cols, [tuple(c) for c in json.loads(clues)])
        board = Board.from_rows(puzzle, json.loads(solution))
    except (ValueError, TypeError) as exc:  # json's errors and NurikabeError are ValueErrors
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise DatabaseError(f"{collection} #{number}: a damaged row ({why})") from None
    return Entry(collection, number, puzzle, board, level, score, seed, generator, source)


_COLUMNS = "collection, number, rows, cols, clues, solution, level, score, seed, generator, source"


def entries(
    conn: sqlite3.Connection, *, collection: str | None = None, level: str | None = None
) -> Iterator[Entry]:
    """The puzzles, by collection and number, optionally of one collection or level."""
    query = f"SELECT {_COLUMNS} FROM puzzles"
    where, args = [], []
    if collection is not None:
        where.append("collection = ?")
        args.append(collection)
    if level is not None:
        where.append("level = ?")
        args.append(level)
    if where:
        query += " WHERE " + " AND ".join(where)
    query += " ORDER BY id"
    with database.guard(conn):
        rows = conn.execute(query, args).fetchall()
    for row in rows:
        yield _entry(row)


def get(conn: sqlite3.Connection, number: int, collection: str = "10x10") -> Entry | None:
    """Puzzle `number` of `collection`, or None."""
    if not -(2**63) <= number < 2**63:
        return None  # no SQLite integer is that large
    with database.guard(conn):
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM puzzles WHERE collection = ? AND number = ?",
            (collection, number),
        ).fetchone()
    return None if row is None else _entry(row)


def collections(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """The collections and their puzzle counts."""
    with database.guard(conn):
        return list(
            conn.execute(
                "SELECT collection, COUNT(*) FROM puzzles GROUP BY collection ORDER BY MIN(id)"
            )
        )


def set_meta(conn: sqlite3.Connection, **values: Any) -> None:
    """Record how the collection was built."""
    for key, value in values.items():
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value))
        )


def meta(conn: sqlite3.Connection) -> dict[str, Any]:
    """What `set_meta` recorded."""
    with database.guard(conn):
        rows = conn.execute("SELECT key, value FROM meta").fetchall()
    try:
        return {k: json.loads(v) for k, v in rows}
    except (ValueError, TypeError) as exc:
        raise DatabaseError(f"meta: a damaged row ({exc})") from None


def build_meta(seed: int) -> dict[str, Any]:
    """The meta values of a build with `seed`."""
    return {
        "seed": seed,
        "generator": GENERATOR_VERSION,
        "schema": SCHEMA_VERSION,
        "plan": [[n, r, c, [list(x) for x in lv]] for n, r, c, lv in PLAN],
        "kept": dict(KEPT),
    }
