"""Opening SQLite files safely: the one place that knows how a database file can fail.

The collection (`nurikabe.collection`) and the game's player database both open their
files here, so every fault a user can meet (a missing file, a file that is not a
database, a corrupt or truncated one, a read-only file or folder when writing is needed,
a lock held past the busy timeout, a file without the expected tables) becomes one
`DatabaseError` with one clear line naming the file, never a bare `sqlite3` traceback.

- `connect(path, readonly=, create=)`: checks the path first, opens the file, sets a
  busy timeout, turns foreign keys on, puts writable files in WAL mode and runs
  ``PRAGMA quick_check`` (linear in the file's size: about a millisecond per 100 KB).
- `require_tables(conn, names)`: the file holds the tables a caller needs.
- `transaction(conn)`: one unit of work, committed whole or not at all; the write lock is
  taken at the start (``BEGIN IMMEDIATE``), so a busy database fails before work is done.
- `guard(conn)`: turns any `sqlite3.Error` raised inside it into a `DatabaseError`.
- `check_writable(path)` and `replace_atomically(tmp, dest)`: for builds that write a
  new file beside the old one and swap it into place (fsync, then ``os.replace``).

Connections are in autocommit mode (``isolation_level=None``): nothing is held open
between statements unless a `transaction` says so.

Imports only `errors`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import DatabaseError

__all__ = [
    "BUSY_TIMEOUT",
    "DatabaseError",
    "check_writable",
    "connect",
    "guard",
    "replace_atomically",
    "require_tables",
    "run_script",
    "transaction",
]

BUSY_TIMEOUT = 5.0
"""Seconds a connection waits for another process's lock before giving up."""


def _path_of(conn: sqlite3.Connection) -> str:
    try:
        row = conn.execute("PRAGMA database_list").fetchone()
    except sqlite3.Error:
        return "database"
    return row[2] if row and row[2] else "database"


def explain(exc: sqlite3.Error, where: str | os.PathLike[str]) -> DatabaseError:
    """The one-line `DatabaseError` for a `sqlite3` error met on the file `where`."""
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        why = "in use by another program (still locked after the busy timeout); try again"
    elif "not a database" in low:
        why = "not a SQLite database"
    elif "malformed" in low or "corrupt" in low:
        why = "the file is damaged (database disk image is malformed)"
    elif "readonly" in low or "read-only" in low:
        why = "read-only (the file or its folder cannot be written)"
    elif "unable to open" in low:
        why = "cannot open the file"
    elif "no such table" in low or "no such column" in low:
        why = f"not the expected database ({text})"
    elif "disk" in low and "full" in low:
        why = "the disk is full"
    else:
        why = text
    return DatabaseError(f"{os.fspath(where)}: {why}")


@contextlib.contextmanager
def guard(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Turn a `sqlite3.Error` raised inside the block into a `DatabaseError`."""
    try:
        yield conn
    except sqlite3.Error as exc:
        raise explain(exc, _path_of(conn)) from exc


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check, before any work, that a database file can be written at `path`.

    Returns the path resolved. Raises `DatabaseError` when `path` is a folder, its
    folder is missing or not writable, or the file exists and is read-only.
    """
    target = Path(path).expanduser()
    if target.is_dir():
        raise DatabaseError(f"{target}: is a folder, not a database file")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise DatabaseError(f"{target}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseError(f"{target}: the folder {folder} is read-only")
    # The mode bits count too, so a file made read-only stays so even for root.
    if target.exists() and (not os.access(target, os.W_OK) or not target.stat().st_mode & 0o222):
        raise DatabaseError(f"{target}: the file is read-only")
    return target.resolve()


def _check_size(target: Path) -> None:
    """Catch a truncated file, which ``quick_check`` lets pass when only the tail is lost."""
    size = target.stat().st_size
    with open(target, "rb") as fh:
        header = fh.read(100)
    if size == 0 or not header.startswith(b"SQLite format 3\x00") or len(header) < 100:
        return  # empty (a new database) or not SQLite at all: sqlite3 says which
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or size % page:
        raise DatabaseError(f"{target}: the file is damaged (cut short: {size} bytes)")
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]
    wal = target.with_name(target.name + "-wal")
    if valid and pages and size < pages * page and not wal.exists():
        raise DatabaseError(
            f"{target}: the file is damaged (cut short: {size} of {pages * page} bytes)"
        )


def connect(
    path: str | os.PathLike[str],
    *,
    readonly: bool = False,
    create: bool = False,
    timeout: float | None = None,
) -> sqlite3.Connection:
    """Open the SQLite file at `path`, checked.

    `readonly` opens it for reading only (the file must exist; its journal mode is left
    alone). Otherwise the file must be writable, and is switched to WAL mode; `create`
    allows making a new, empty file. Every connection gets a busy timeout of `timeout`
    seconds (default `BUSY_TIMEOUT`) and foreign keys, and the file is checked with
    ``PRAGMA quick_check``.

    Raises:
        DatabaseError: one line naming the file and the fault.
    """
    if readonly and create:
        raise ValueError("connect: a database opened read-only cannot be created")
    target = Path(path).expanduser()
    if target.is_dir():
        raise DatabaseError(f"{target}: is a folder, not a database file")
    exists = target.exists()
    if not exists and not create:
        raise DatabaseError(f"{target}: no such database file")
    if not readonly:
        check_writable(target)
    if exists and not os.access(target, os.R_OK):
        raise DatabaseError(f"{target}: permission denied")
    if exists:
        _check_size(target)
    mode = "ro" if readonly else ("rwc" if create else "rw")
    uri = f"{target.resolve().as_uri()}?mode={mode}"
    try:
        conn = sqlite3.connect(
            uri,
            uri=True,
            timeout=BUSY_TIMEOUT if timeout is None else timeout,
            isolation_level=None,
        )
    except sqlite3.Error as exc:
        raise explain(exc, target) from exc
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        if not readonly:
            conn.execute("PRAGMA journal_mode = WAL")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise DatabaseError(f"{target}: the file is damaged ({problems[0]})")
    except sqlite3.Error as exc:
        conn.close()
        raise explain(exc, target) from exc
    except DatabaseError:
        conn.close()
        raise
    return conn


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run the `;`-separated statements of `script` one at a time, inside the caller's
    transaction (``executescript`` would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def require_tables(conn: sqlite3.Connection, names: Iterable[str]) -> None:
    """Check that the database holds every table in `names`.

    Raises:
        DatabaseError: a table is missing (names the first one missing).
    """
    with guard(conn):
        have = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for name in names:
        if name not in have:
            raise DatabaseError(f"{_path_of(conn)}: no table {name!r} (not the expected database)")


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One unit of work: committed whole when the block ends, rolled back if it raises.

    The write lock is taken at the start, waiting up to the busy timeout. SQLite errors
    inside the block come out as `DatabaseError`; other exceptions (KeyboardInterrupt
    included) roll back and pass through.
    """
    with guard(conn):
        conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException as exc:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise explain(exc, _path_of(conn)) from exc
        raise
    with guard(conn):
        conn.execute("COMMIT")


def replace_atomically(tmp: str | os.PathLike[str], dest: str | os.PathLike[str]) -> None:
    """Move the finished file `tmp` over `dest` in one step, durably.

    `tmp` must be closed, on the same file system as `dest` (build it beside `dest`),
    and hold no WAL (switch it to ``journal_mode = DELETE`` before closing). Its data
    are flushed to disk, then it replaces `dest` with ``os.replace`` (a reader sees the
    old file or the new one, never a mix), then the folder entry is flushed.
    """
    tmp, dest = Path(tmp), Path(dest)
    try:
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
        if hasattr(os, "O_DIRECTORY"):
            fd = os.open(dest.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        raise DatabaseError(f"{dest}: cannot write: {exc.strerror or exc}") from exc
