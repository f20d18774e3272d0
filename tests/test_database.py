"""`nurikabe.database`: every way a SQLite file can fail gives one `DatabaseError` line."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from nurikabe import database
from nurikabe.errors import DatabaseError, NurikabeError


def _make(path: Path, rows: int = 2000) -> None:
    conn = database.connect(path, create=True)
    with database.transaction(conn):
        conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        conn.executemany("INSERT INTO t (v) VALUES (?)", [("x" * 200,)] * rows)
        conn.execute("CREATE INDEX t_v ON t (v)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()


def test_error_is_a_value_error() -> None:
    assert issubclass(DatabaseError, NurikabeError)
    assert issubclass(DatabaseError, ValueError)


def test_new_file_is_wal_with_foreign_keys(tmp_path: Path) -> None:
    conn = database.connect(tmp_path / "a.sqlite", create=True)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == int(database.BUSY_TIMEOUT * 1000)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="no such database file"):
        database.connect(tmp_path / "none.sqlite")
    with pytest.raises(DatabaseError, match="no such database file"):
        database.connect(tmp_path / "none.sqlite", readonly=True)
    assert not (tmp_path / "none.sqlite").exists()


def test_folder(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="is a folder"):
        database.connect(tmp_path, create=True)
    with pytest.raises(DatabaseError, match="no such folder"):
        database.connect(tmp_path / "no" / "x.sqlite", create=True)


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    path.write_bytes(b"hello, this is not a database" * 100)
    with pytest.raises(DatabaseError, match="not a SQLite database"):
        database.connect(path, readonly=True)


@pytest.mark.parametrize("cut", [1, 4096, 10000])
def test_truncated_file(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "x.sqlite"
    _make(path)
    data = path.read_bytes()
    path.write_bytes(data[:-cut])
    with pytest.raises(DatabaseError, match="damaged"):
        database.connect(path, readonly=True)


def test_overwritten_page(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    _make(path)
    data = bytearray(path.read_bytes())
    data[3 * 4096 : 3 * 4096 + 200] = b"\xff" * 200
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseError, match="damaged"):
        database.connect(path, readonly=True)


def test_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    _make(path, rows=3)
    path.chmod(0o444)
    try:
        with pytest.raises(DatabaseError, match="read-only"):
            database.connect(path)
        conn = database.connect(path, readonly=True)
        assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 3
        with pytest.raises(DatabaseError, match="read-only"), database.transaction(conn):
            conn.execute("DELETE FROM t")
    finally:
        path.chmod(0o644)


def test_read_only_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root ignores folder permissions, so the check is fed what a normal user would see.
    real = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if Path(p) == tmp_path else real(p, mode)
    )
    with pytest.raises(DatabaseError, match=r"folder .* is read-only"):
        database.connect(tmp_path / "x.sqlite", create=True)


def test_missing_tables(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    _make(path, rows=1)
    conn = database.connect(path, readonly=True)
    database.require_tables(conn, ["t"])
    with pytest.raises(DatabaseError, match="no table 'puzzles'"):
        database.require_tables(conn, ["t", "puzzles"])
    with pytest.raises(DatabaseError, match="no such table"), database.guard(conn):
        conn.execute("SELECT * FROM puzzles")


def test_transaction_is_whole(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    _make(path, rows=5)
    conn = database.connect(path)
    with pytest.raises(KeyboardInterrupt), database.transaction(conn):
        conn.execute("DELETE FROM t")
        raise KeyboardInterrupt
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 5
    with database.transaction(conn):
        conn.execute("DELETE FROM t WHERE k > 2")
    other = database.connect(path, readonly=True)
    assert other.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 2


def test_locked_past_timeout(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    _make(path, rows=1)
    holder = database.connect(path)
    holder.execute("BEGIN IMMEDIATE")
    try:
        conn = database.connect(path, timeout=0.2)
        with (
            pytest.raises(DatabaseError, match="in use by another program"),
            database.transaction(conn),
        ):
            conn.execute("DELETE FROM t")
    finally:
        holder.execute("ROLLBACK")
    # A lock released within the timeout is waited for.
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    threading.Timer(0.2, lambda: other.execute("ROLLBACK")).start()
    conn = database.connect(path, timeout=5)
    with database.transaction(conn):
        conn.execute("DELETE FROM t")
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0


def test_replace_atomically(tmp_path: Path) -> None:
    old, new = tmp_path / "db.sqlite", tmp_path / "db.sqlite.tmp"
    _make(old, rows=1)
    _make(new, rows=7)
    database.replace_atomically(new, old)
    assert not new.exists()
    conn = sqlite3.connect(old)
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 7


def test_check_writable(tmp_path: Path) -> None:
    assert database.check_writable(tmp_path / "x.sqlite") == (tmp_path / "x.sqlite").resolve()
    with pytest.raises(DatabaseError, match="is a folder"):
        database.check_writable(tmp_path)
    with pytest.raises(DatabaseError, match="no such folder"):
        database.check_writable(tmp_path / "a" / "b.sqlite")
