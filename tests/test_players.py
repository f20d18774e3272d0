"""The players' database: progress, best times, settings and imports, kept per player."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nurikabe.errors import DatabaseError
from nurikabe.players import SCHEMA_VERSION, default_path, open_players


def test_progress_is_per_player_and_keeps_the_best_time(tmp_path: Path) -> None:
    players = open_players(tmp_path / "p.sqlite")
    players.save_progress(
        "a" * 32, "10x10/1", board="#.?", moves=["r1c1=#"], seconds=5, solved=False
    )
    players.save_progress("a" * 32, "10x10/1", board="#..", moves=[], seconds=50, solved=True)
    first = players.progress("a" * 32, "10x10/1")
    players.save_progress("a" * 32, "10x10/1", board="#..", moves=[], seconds=30, solved=True)
    players.save_progress("a" * 32, "10x10/1", board="#..", moves=[], seconds=90, solved=True)
    last = players.progress("a" * 32, "10x10/1")
    assert first is not None and last is not None
    assert first.best_seconds == 50 and last.best_seconds == 30
    assert last.solved_at == first.solved_at and last.seconds == 90
    assert players.progress("b" * 32, "10x10/1") is None
    assert players.solved_keys("a" * 32) == {"10x10/1"} and players.solved_keys("b" * 32) == set()


def test_settings_and_imports_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    players = open_players(path)
    players.save_settings("a" * 32, {"mouse": "cycle", "autoDots": True})
    one = players.add_imported("https://puzz.link/p?nurikabe/2/1/1g", "..", format="url")
    again = players.add_imported("https://puzz.link/p?nurikabe/2/1/1g", "..", format="url")
    two = players.add_imported("https://puzz.link/p?nurikabe/1/1/1", ".")
    players.close()
    reopened = open_players(path)
    assert reopened.settings("a" * 32) == {"mouse": "cycle", "autoDots": True}
    assert reopened.settings("b" * 32) == {}
    assert one == again and two.number == one.number + 1
    assert reopened.imported_by_url(two.url) == two
    assert reopened.imported_numbers() == [one.number, two.number]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_newer_or_foreign_file_is_one_clear_error(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(DatabaseError, match="newer"):
        open_players(newer)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseError, match=r"junk\.sqlite"):
        open_players(junk)
    with pytest.raises(DatabaseError, match="no such folder"):
        open_players(tmp_path / "missing" / "p.sqlite")


def test_the_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "nurikabe" / "players.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == Path.home() / ".local" / "share" / "nurikabe" / "players.sqlite"
