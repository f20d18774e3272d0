"""The players' database: progress, best times, settings and imports, kept per player."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nurikabe import collection
from nurikabe.errors import DatabaseError
from nurikabe.generator import generate
from nurikabe.players import SCHEMA_VERSION, default_path, open_players

A = "a" * 32
B = "b" * 32
URL_1 = "https://puzz.link/p?nurikabe/3/1/1g"
NOW_1 = (URL_1, False)


def test_progress_is_per_player_and_keeps_the_best_time(tmp_path: Path) -> None:
    players = open_players(tmp_path / "p.sqlite")
    players.save_progress(
        A, "10x10/1", NOW_1, board="#.?", moves=["r1c1=#"], seconds=5, solved=False
    )
    players.save_progress(A, "10x10/1", NOW_1, board="#..", moves=[], seconds=50, solved=True)
    first = players.progress(A, "10x10/1", NOW_1)
    players.save_progress(A, "10x10/1", NOW_1, board="#..", moves=[], seconds=30, solved=True)
    players.save_progress(A, "10x10/1", NOW_1, board="#..", moves=[], seconds=90, solved=True)
    last = players.progress(A, "10x10/1", NOW_1)
    assert first is not None and last is not None
    assert first.best_seconds == 50 and last.best_seconds == 30
    assert last.solved_at == first.solved_at and last.seconds == 90 and last.url == URL_1
    assert players.progress(B, "10x10/1", NOW_1) is None
    current = {"10x10/1": NOW_1}.get
    assert (
        players.solved_keys(A, current) == {"10x10/1"} and players.solved_keys(B, current) == set()
    )


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


_SCHEMA_2_PROGRESS = """CREATE TABLE progress (
    player TEXT NOT NULL REFERENCES players(id),
    puzzle TEXT NOT NULL,
    board TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]',
    seconds REAL NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    solved_at TEXT,
    best_seconds REAL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (player, puzzle)
)"""


def _schema_2_file(path: Path) -> None:
    """A players' file as version 2 left it, with progress on a key a rebuild changed
    (10x10/0), one it kept (10x10/1) and an imported puzzle."""
    players = open_players(path)
    imported = players.add_imported(URL_1, "#..", format="url")
    players.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE progress")
    conn.execute(_SCHEMA_2_PROGRESS)
    conn.execute("INSERT INTO players (id, created_at) VALUES (?, 'then')", (A,))
    for key, board, solved in (
        ("10x10/0", "#..", 1),
        ("10x10/1", "..#", 1),
        (f"imported/{imported.number}", "#.?", 0),
    ):
        conn.execute(
            "INSERT INTO progress (player, puzzle, board, moves, seconds, solved, solved_at,"
            " best_seconds, updated_at) VALUES (?, ?, ?, '[]', 12, ?, ?, ?, 'then')",
            (A, key, board, solved, "then" if solved else None, 12 if solved else None),
        )
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def test_migration_2_to_3_keeps_every_row_and_a_changed_key_starts_fresh(tmp_path: Path) -> None:
    """Against a collection whose 10x10/0 held another puzzle before (a ``former`` row of
    a real collection file) and whose 10x10/1 did not."""
    records = [generate(5, 5, difficulty="easy", rng=seed).to_json() for seed in (1, 2, 3)]
    store = collection.create(tmp_path / "c.sqlite")
    collection.store(store, "10x10", 0, records[0])
    collection.store(store, "10x10", 1, records[1])
    collection.store(store, "10x10", 0, records[2])
    urls = {"10x10/0": records[2]["url"], "10x10/1": records[1]["url"]}
    former = collection.former_keys(store)
    collection.close_db(store)
    assert former == {("10x10", 0)}

    def current(key: str) -> tuple[str, bool] | None:
        if key.startswith("imported/"):
            return URL_1, False
        name, _, number = key.partition("/")
        return (urls[key], (name, int(number)) in former) if key in urls else None

    path = tmp_path / "p.sqlite"
    _schema_2_file(path)
    players = open_players(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    every = {p.puzzle: p for p in players.all_progress(A)}
    assert len(every) == 3
    assert every["10x10/0"].url is None and every["10x10/1"].url is None
    assert every["imported/1"].url == URL_1  # an imported key never changes: filled in
    assert every["10x10/0"].board == "#.." and every["10x10/0"].best_seconds == 12

    changed, kept = current("10x10/0"), current("10x10/1")
    assert changed is not None and kept is not None
    assert players.progress(A, "10x10/0", changed) is None
    assert players.progress(A, "10x10/1", kept) == every["10x10/1"]
    assert [p.puzzle for p in players.all_progress(A, current)] == ["10x10/1", "imported/1"]
    assert players.solved_keys(A, current) == {"10x10/1"}

    # Saving on the new puzzle adds its row; the former puzzle's row stays as it was.
    players.save_progress(A, "10x10/0", changed, board="?#?", moves=[], seconds=2, solved=False)
    players.save_progress(A, "10x10/1", kept, board="..#", moves=[], seconds=5, solved=True)
    mine = players.progress(A, "10x10/0", changed)
    assert mine is not None and mine.url == changed[0] and mine.solved_at is None
    again = players.progress(A, "10x10/1", kept)
    assert again is not None and again.url == kept[0]  # the NULL row filled in
    assert again.best_seconds == 5 and again.solved_at == "then"
    rows = sorted((p.puzzle, p.url or "", p.board) for p in players.all_progress(A))
    assert rows == [
        ("10x10/0", "", "#.."),
        ("10x10/0", changed[0], "?#?"),
        ("10x10/1", kept[0], "..#"),
        ("imported/1", URL_1, "#.?"),
    ]
    assert players.solved_keys(A, current) == {"10x10/1"}
    players.close()
