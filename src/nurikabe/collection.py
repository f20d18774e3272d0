"""The bundled puzzle collection: a versioned SQLite store of puzzles, grades and progress.

This module owns the database schema, its migrations, the build plan of the bundled
collection (`PLAN`: which sizes and levels, how many of each), and the functions that
write and read it. The database ships as ``nurikabe/data/collection.sqlite``.

Schema (``PRAGMA user_version`` = `SCHEMA_VERSION`):

- ``puzzles``: one row per puzzle, numbered 0.. within its ``collection`` (``10x10``,
  ``15x15``, ``20x20``, or ``imported`` for puzzles a player added, whose ``source``
  says where from); clues and solution as JSON, grade level and score, and for
  generated puzzles the seed and generator version that remake them.
- ``progress``: a player's state per puzzle (board, time spent, solved time, best time).
- ``settings``: key/value pairs for the game.
- ``meta``: how the collection was built (seed, generator version, plan).

`open_db` applies the migrations in `MIGRATIONS` to an older file; a migration is a
function taking the connection, registered under the version it upgrades from.

Imports `puzzle`, `formats` and `generate.batch` (for the build plan's seeds).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .generate import GENERATOR_VERSION
from .generate.batch import derive_seed
from .puzzle import Board, Puzzle

__all__ = [
    "MIGRATIONS",
    "PLAN",
    "SCHEMA_VERSION",
    "Entry",
    "build_jobs",
    "bundled_path",
    "create",
    "entries",
    "execution_order",
    "get",
    "open_db",
    "set_grade",
    "store",
]

SCHEMA_VERSION = 1

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
CREATE TABLE IF NOT EXISTS progress (
    puzzle_id INTEGER PRIMARY KEY REFERENCES puzzles(id),
    board TEXT,
    seconds REAL NOT NULL DEFAULT 0,
    solved_at TEXT,
    best_seconds REAL,
    updated_at TEXT
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""

MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}
"""Upgrade steps: ``MIGRATIONS[v](conn)`` turns a version-*v* database into *v + 1*."""

PLAN: tuple[tuple[str, int, int, tuple[tuple[str, int], ...]], ...] = (
    (
        "10x10",
        10,
        10,
        (("easy", 150), ("medium", 140), ("hard", 125), ("expert", 75), ("extreme", 10)),
    ),
    ("15x15", 15, 15, (("easy", 40), ("medium", 30), ("hard", 20), ("expert", 10))),
    ("20x20", 20, 20, (("easy", 30), ("medium", 20))),
)
"""The bundled collection: (name, rows, cols, ((level, how many), ...)), numbered in order.

Every level at 10x10, the extreme ones (a trial step needed) last and few, as a
challenge beyond the 490 that yield to logic; every level but extreme at 15x15 (extreme
15x15 puzzles are not made reliably yet); easy and medium at 20x20."""

BUILD_OPTIONS: dict[str, Any] = {"seconds": None, "attempts": 12, "retries": 6}
"""Budget of each puzzle of a build: attempts only (no time limit, so builds reproduce)."""


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


def _migrate(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == 0:
        conn.executescript(_SCHEMA)
        version = SCHEMA_VERSION
    while version < SCHEMA_VERSION:
        MIGRATIONS[version](conn)
        version += 1
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(
            f"collection schema version {version} is newer than this nurikabe ({SCHEMA_VERSION})"
        )
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.commit()


def open_db(path: str | Path | None = None, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (creating and migrating as needed) a collection database; default: the bundled one.

    Raises:
        sqlite3.DatabaseError: not a collection database, or one from a newer version.
    """
    path = Path(path) if path is not None else bundled_path()
    if readonly:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            conn.close()
            raise sqlite3.DatabaseError(
                f"{path}: collection schema version {version}, expected {SCHEMA_VERSION}"
            )
        return conn
    conn = sqlite3.connect(path)
    _migrate(conn)
    return conn


def create(path: str | Path) -> sqlite3.Connection:
    """A new, empty collection database at `path` (an existing file is replaced)."""
    path = Path(path)
    if path.exists():
        path.unlink()
    return open_db(path)


def build_jobs(seed: int) -> list[dict[str, Any]]:
    """The generator jobs of the bundled collection for `seed`, one per puzzle, in order."""
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
    """Insert or replace one puzzle from its JSON record (the generator's shape)."""
    grade = record.get("grade") or {}
    conn.execute(
        "INSERT OR REPLACE INTO puzzles (collection, number, rows, cols, clues, solution, url,"
        " level, score, seed, generator, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    puzzle = Puzzle.from_clues(rows, cols, [tuple(c) for c in json.loads(clues)])
    return Entry(
        collection,
        number,
        puzzle,
        Board.from_rows(puzzle, json.loads(solution)),
        level,
        score,
        seed,
        generator,
        source,
    )


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
    for row in conn.execute(query, args):
        yield _entry(row)


def get(conn: sqlite3.Connection, number: int, collection: str = "10x10") -> Entry | None:
    """Puzzle `number` of `collection`, or None."""
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM puzzles WHERE collection = ? AND number = ?",
        (collection, number),
    ).fetchone()
    return None if row is None else _entry(row)


def collections(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """The collections and their puzzle counts."""
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
    return {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}


def build_meta(seed: int) -> dict[str, Any]:
    """The meta values of a build with `seed`."""
    return {
        "seed": seed,
        "generator": GENERATOR_VERSION,
        "schema": SCHEMA_VERSION,
        "plan": [[n, r, c, [list(x) for x in lv]] for n, r, c, lv in PLAN],
    }
