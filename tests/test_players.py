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


# -- every earlier schema, migrated -----------------------------------------------------------

_V1 = """
CREATE TABLE players (id TEXT PRIMARY KEY, created_at TEXT NOT NULL);
CREATE TABLE progress (
    player TEXT NOT NULL REFERENCES players(id), puzzle TEXT NOT NULL, board TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]', seconds REAL NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0, solved_at TEXT, best_seconds REAL,
    updated_at TEXT NOT NULL, PRIMARY KEY (player, puzzle)
);
CREATE TABLE settings (
    player TEXT PRIMARY KEY REFERENCES players(id), value TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE imported (
    number INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, solution TEXT NOT NULL,
    format TEXT, player TEXT, created_at TEXT NOT NULL
)
"""
_DRAFTS = """
CREATE TABLE drafts (
    id INTEGER PRIMARY KEY, player TEXT NOT NULL REFERENCES players(id),
    name TEXT NOT NULL, url TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX drafts_by_player ON drafts (player, updated_at)
"""
_V3_PROGRESS = """
CREATE TABLE progress (
    player TEXT NOT NULL REFERENCES players(id), puzzle TEXT NOT NULL, url TEXT,
    board TEXT NOT NULL, moves TEXT NOT NULL DEFAULT '[]', seconds REAL NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0, solved_at TEXT, best_seconds REAL,
    updated_at TEXT NOT NULL, UNIQUE (player, puzzle, url)
)
"""
FROZEN = {
    1: _V1,
    2: _V1 + ";" + _DRAFTS,
    3: _V1.replace(_V1[_V1.index("CREATE TABLE progress") : _V1.index("CREATE TABLE settings")], "")
    + ";"
    + _V3_PROGRESS
    + ";"
    + _DRAFTS,
}
"""The schema of each released version of the players' database, as it was (frozen
here: the code only knows the newest). A new schema version adds its own."""


def _old_file(path: Path, version: int) -> None:
    """A players' file of schema `version`, a row in every table it has."""
    conn = sqlite3.connect(path)
    for statement in FROZEN[version].split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO players VALUES (?, 'then')", (A,))
    conn.execute("INSERT INTO settings VALUES (?, '{\"theme\": \"dark\"}', 'then')", (A,))
    conn.execute("INSERT INTO imported VALUES (1, ?, '#..', 'url', ?, 'then')", (URL_1, A))
    columns = "player, puzzle, board, moves, seconds, solved, solved_at, best_seconds, updated_at"
    conn.execute(
        f"INSERT INTO progress ({columns}) VALUES (?, 'imported/1', '#.?', '[\"r1c1=#\"]',"
        " 7, 0, NULL, NULL, 'then')",
        (A,),
    )
    conn.execute(
        f"INSERT INTO progress ({columns}) VALUES (?, '10x10/4', '..#', '[]', 9, 1, 'then',"
        " 9, 'then')",
        (A,),
    )
    if version >= 3:  # schema 3 saves each row with its puzzle's url
        conn.execute("UPDATE progress SET url = ? WHERE puzzle = 'imported/1'", (URL_1,))
    if version >= 2:
        conn.execute("INSERT INTO drafts VALUES (1, ?, 'mine', ?, 'then')", (A, URL_1))
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def test_every_earlier_schema_is_frozen_for_the_migration_tests() -> None:
    assert set(range(1, SCHEMA_VERSION)) <= set(FROZEN), "freeze the schema you replaced"


@pytest.mark.parametrize("version", sorted(FROZEN))
def test_a_file_of_every_earlier_schema_migrates_with_every_row(
    tmp_path: Path, version: int
) -> None:
    if version > SCHEMA_VERSION:
        pytest.fail(f"a frozen schema {version} newer than the code's {SCHEMA_VERSION}")
    path = tmp_path / "p.sqlite"
    _old_file(path, version)
    players = open_players(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert players.settings(A) == {"theme": "dark"}
    imported = players.imported(1)
    assert imported is not None and imported.url == URL_1 and imported.solution == "#.."
    every = {p.puzzle: p for p in players.all_progress(A)}
    assert every["imported/1"].board == "#.?" and every["imported/1"].moves == ["r1c1=#"]
    assert every["imported/1"].url == URL_1  # an imported key's url is filled in
    assert every["10x10/4"].best_seconds == 9 and every["10x10/4"].solved
    assert [d.name for d in players.drafts(A)] == (["mine"] if version >= 2 else [])
    # and the migrated file takes new writes of every kind
    players.save_progress(A, "10x10/5", ("u", False), board="#", moves=[], seconds=1, solved=True)
    assert players.save_draft(A, "new", URL_1) is not None
    players.close()


# -- backup and restore --------------------------------------------------------------------------


def test_a_backup_taken_while_another_process_writes_is_whole(tmp_path: Path) -> None:
    """A writer in another process saves all along; the backup is a consistent file,
    holding a prefix of the saves (none torn), and restores into a working database."""
    import subprocess
    import sys
    import time

    from nurikabe.players import backup, restore

    path = tmp_path / "p.sqlite"
    players = open_players(path)
    for n in range(300):  # some pages to copy
        players.save_progress(
            A,
            f"10x10/{n}",
            (f"u{n}", False),
            board="#" * 400,
            moves=["r1c1=#"] * 50,
            seconds=n,
            solved=False,
        )
    players.close()
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from nurikabe.players import open_players\n"
            f"p = open_players({str(path)!r})\n"
            "for n in range(100000):\n"
            f"    p.save_progress({B!r}, 'w/0', ('w', False), board=str(n), moves=[],"
            " seconds=n, solved=False)\n",
        ]
    )
    try:
        time.sleep(1.0)
        copies = [backup(path, tmp_path / f"copy{i}.sqlite") for i in range(3)]
    finally:
        writer.kill()
        writer.wait()
    seen = []
    for copy in copies:
        conn = sqlite3.connect(copy)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert (
            conn.execute("SELECT count(*) FROM progress WHERE player = ?", (A,)).fetchone()[0]
            == 300
        )
        row = conn.execute("SELECT board, seconds FROM progress WHERE player = ?", (B,)).fetchone()
        conn.close()
        if row is not None:
            assert row[0] == str(int(row[1]))  # board and seconds from the same save
            seen.append(int(row[1]))
    assert seen == sorted(seen)
    assert not list(tmp_path.glob(".*.tmp"))

    with pytest.raises(DatabaseError, match="exists already"):
        backup(path, copies[0])
    target = tmp_path / "restored.sqlite"
    restored = restore(copies[-1], target)
    assert len(restored.all_progress(A)) == 300
    restored.save_settings(A, {"after": 1})
    restored.close()


def test_restore_refuses_a_damaged_foreign_or_newer_backup(tmp_path: Path) -> None:
    from nurikabe.players import restore

    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database " * 500)
    with pytest.raises(DatabaseError, match=r"junk\.sqlite"):
        restore(junk, tmp_path / "p.sqlite")
    newer = tmp_path / "newer.sqlite"
    open_players(newer).close()
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseError, match="newer"):
        restore(newer, tmp_path / "p.sqlite")
    foreign = tmp_path / "foreign.sqlite"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseError, match="no table"):
        restore(foreign, tmp_path / "p.sqlite")


def test_an_old_backup_is_migrated_on_restore(tmp_path: Path) -> None:
    from nurikabe.players import restore

    old = tmp_path / "old.sqlite"
    _old_file(old, 1)
    players = restore(old, tmp_path / "p.sqlite")
    assert players.settings(A) == {"theme": "dark"}
    assert players.save_draft(A, "d", URL_1) is not None
    players.close()


def test_the_players_command_backs_up_restores_and_checks(tmp_path: Path) -> None:
    from nurikabe.cli import main

    db = tmp_path / "p.sqlite"
    players = open_players(db)
    players.save_settings(A, {"x": 1})
    players.close()
    copy = tmp_path / "backup.sqlite"
    assert main(["players", "backup", str(copy), "--db", str(db)]) == 0
    assert main(["players", "backup", str(copy), "--db", str(db)]) == 2  # never overwrites
    assert main(["players", "check", "--db", str(copy)]) == 0
    target = tmp_path / "new.sqlite"
    assert main(["players", "restore", str(copy), "--db", str(target)]) == 0
    assert main(["players", "restore", str(copy), "--db", str(target)]) == 2  # needs --force
    assert main(["players", "restore", str(copy), "--db", str(target), "--force"]) == 0
    assert open_players(target).settings(A) == {"x": 1}
    data = bytearray(copy.read_bytes())
    data[2 * 4096 : 2 * 4096 + 300] = b"\xff" * 300
    copy.write_bytes(bytes(data))
    assert main(["players", "check", "--db", str(copy)]) == 2
