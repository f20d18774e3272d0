"""Issue 19, items 1 and 2: a collection build loses nothing, and every fault of a
database file is one line and exit code 2 (never a traceback)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from nurikabe import collection, database
from nurikabe.cli import generate as cli_generate
from nurikabe.cli import main
from nurikabe.errors import DatabaseError
from nurikabe.generator import GENERATOR_VERSION, generate
from nurikabe.generator.batch import derive_seed, make_record


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Three generated 6x7 puzzles, one imported puzzle, a progress row and a setting."""
    path = tmp_path / "c.sqlite"
    conn = collection.create(path)
    with database.transaction(conn):
        for n in range(3):
            record = generate(6, 7, difficulty="easy", rng=derive_seed(5, n)).to_json()
            collection.store(conn, "10x10", n, record)
        imported = generate(5, 6, difficulty="easy", rng=1).to_json()
        collection.store(conn, "imported", 0, imported, source="https://example.org/p/1")
        collection.set_meta(conn, **collection.build_meta(5))
        first = conn.execute("SELECT id FROM puzzles ORDER BY id").fetchone()[0]
        conn.execute("INSERT INTO progress (puzzle_id, seconds) VALUES (?, 12.5)", (first,))
        conn.execute("INSERT INTO settings (key, value) VALUES ('theme', 'dark')")
    collection.close_db(conn)
    return path


def _counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    return {
        table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("puzzles", "progress", "settings")
    }


def _no_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("generation started before the output was checked")

    monkeypatch.setattr("nurikabe.cli.collection.run_jobs", refuse)


# -- item 1: collection build -------------------------------------------------------------------


def test_build_never_writes_the_bundled_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bundled = collection.bundled_path()
    before = _digest(bundled)
    _no_generation(monkeypatch)
    assert main(["collection", "build", "--jobs", "1"]) == 2
    assert main(["collection", "build", "--jobs", "1", "-o", str(bundled)]) == 2
    err = capsys.readouterr().err
    assert "give -o PATH" in err and "bundled collection is never written" in err
    assert "Traceback" not in err
    assert _digest(bundled) == before
    with pytest.raises(DatabaseError, match="never written"):
        collection.open_db(bundled)


def test_build_into_existing_file_keeps_rows_it_did_not_make(db: Path) -> None:
    assert _counts(db) == {"puzzles": 4, "progress": 1, "settings": 1}
    code = main(
        ["collection", "build", "--seed", "4", "--limit", "2", "--jobs", "1", "-o", str(db)]
    )
    assert code == 0
    counts = _counts(db)
    assert counts["progress"] == 1 and counts["settings"] == 1
    conn = collection.open_db(db, readonly=True)
    imported = collection.get(conn, 0, "imported")
    assert imported is not None and imported.source == "https://example.org/p/1"
    names = dict(collection.collections(conn))
    assert names["imported"] == 1 and names["10x10"] >= 3  # 2 made, the others kept
    # The progress row still points at a puzzle.
    joined = conn.execute("SELECT COUNT(*) FROM progress JOIN puzzles ON puzzles.id = puzzle_id")
    assert joined.fetchone()[0] == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not [p for p in db.parent.iterdir() if p.name.endswith((".building", "-wal", ".tmp"))]


@pytest.mark.parametrize("where", ["missing-folder", "folder", "read-only", "not-a-db"])
def test_build_output_checked_before_work(
    where: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = {
        "missing-folder": tmp_path / "none" / "x.sqlite",
        "folder": tmp_path,
        "read-only": tmp_path / "ro.sqlite",
        "not-a-db": tmp_path / "text.sqlite",
    }[where]
    if where == "read-only":
        collection.create(out).close()
        out.chmod(0o444)
    if where == "not-a-db":
        out.write_text("hello")
    before = sorted(p.name for p in tmp_path.iterdir())
    _no_generation(monkeypatch)
    assert main(["collection", "build", "--limit", "1", "--jobs", "1", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nurikabe: ") and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no stray file


def test_build_swaps_atomically_and_cleans_up_on_failure(tmp_path: Path, db: Path) -> None:
    before = _digest(db)
    with pytest.raises(RuntimeError), collection.build_into(db) as conn:
        collection.store(conn, "10x10", 0, json.loads(json.dumps(_record())))
        raise RuntimeError("a failure mid-build")
    assert _digest(db) == before  # untouched
    assert sorted(p.name for p in db.parent.iterdir()) == [db.name]
    with collection.build_into(db) as conn:
        collection.store(conn, "10x10", 9, _record())
        assert _digest(db) == before  # nothing visible until the end
    conn = collection.open_db(db, readonly=True)
    assert collection.get(conn, 9) is not None


def _record() -> dict[str, Any]:
    return generate(5, 5, difficulty="easy", rng=3).to_json()


def test_interrupted_build_keeps_what_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "i.sqlite"
    calls = []

    def work(job: dict[str, Any]) -> dict[str, Any]:
        if calls:
            raise KeyboardInterrupt
        calls.append(job)
        return {**_record(), "index": job["index"]}

    real = cli_generate.run_jobs
    monkeypatch.setattr(
        "nurikabe.cli.collection.run_jobs", lambda *a, **k: real(*a, **k, work=work)
    )
    assert main(["collection", "build", "--limit", "3", "--jobs", "1", "-o", str(out)]) == 130
    conn = collection.open_db(out, readonly=True)
    assert len(list(collection.entries(conn))) == 1
    assert collection.meta(conn)["complete"] is False


# -- item 2: SQLite robustness -------------------------------------------------------------------


def test_writable_collection_uses_wal(db: Path) -> None:
    conn = collection.open_db(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "short-by-1":
        path.write_bytes(bytes(data[:-1]))
    elif how == "half":
        path.write_bytes(bytes(data[: len(data) // 2]))
    elif how == "page":
        data[2 * 4096 : 2 * 4096 + 64] = b"\x07" * 64
        path.write_bytes(bytes(data))
    elif how == "text":
        path.write_text("not a database at all\n" * 300)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "no-tables":
        path.unlink()
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE other (x)")
        conn.execute("PRAGMA user_version = 1")
        conn.commit()
        conn.close()
    elif how == "bad-json":
        conn = sqlite3.connect(path)
        conn.execute("UPDATE puzzles SET clues = '[[0, 0,' WHERE number = 1")
        conn.commit()
        conn.close()
    elif how == "bad-clue":
        conn = sqlite3.connect(path)
        conn.execute("UPDATE puzzles SET clues = '[[0, 0, -4]]' WHERE number = 1")
        conn.commit()
        conn.close()


DAMAGES = ["short-by-1", "half", "page", "text", "empty", "no-tables", "bad-json", "bad-clue"]


@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize(
    "command",
    [
        ["collection", "list"],
        ["collection", "list", "10x10"],
        ["collection", "show", "1"],
        ["collection", "export"],
        ["collection", "regrade", "--check"],
        ["collection", "regrade"],
    ],
)
def test_damaged_file_is_one_line(
    how: str, command: list[str], db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _damage(db, how)
    code = main([*command, "--db", str(db)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("nurikabe:")]
    assert len(lines) == 1, err


def test_read_only_regrade(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db.chmod(0o444)
    try:
        assert main(["collection", "regrade", "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert "read-only" in err and "Traceback" not in err
        assert main(["collection", "regrade", "--check", "--db", str(db)]) == 0
    finally:
        db.chmod(0o644)


def test_regrade_without_db_never_writes_the_bundled_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["collection", "regrade"]) == 2
    assert "--db PATH" in capsys.readouterr().err


def test_lock_held_during_regrade(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = collection.open_db(db)
    collection.set_grade(conn, "10x10", 1, "hard", 999)  # so that regrade has to write
    collection.close_db(conn)
    monkeypatch.setattr(database, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        assert main(["collection", "regrade", "--db", str(db)]) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert "in use by another program" in err and "Traceback" not in err


@pytest.mark.parametrize("number", ["99999999999999999999", "-1", "x", "1e3"])
def test_show_number_out_of_range(
    number: str, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["collection", "show", number, "--db", str(db)])
    assert stop.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
    conn = collection.open_db(db, readonly=True)
    assert collection.get(conn, 10**20) is None


def test_a_build_run_again_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build stopped by Ctrl-C, run again, makes only the puzzles still missing (those
    it holds from the same seeds and generator version would come out the same); with
    ``--remake`` it makes them all again, and they are the same puzzles."""
    out = tmp_path / "r.sqlite"
    args = ["collection", "build", "--seed", "4", "--limit", "2", "--jobs", "1", "-o", str(out)]
    ran: list[int] = []

    def stopped_after_one(job: dict[str, Any]) -> dict[str, Any]:
        if ran:
            raise KeyboardInterrupt
        ran.append(job["index"])
        return make_record(job)

    def recorded(job: dict[str, Any]) -> dict[str, Any]:
        ran.append(job["index"])
        return make_record(job)

    real = cli_generate.run_jobs
    work = [stopped_after_one]
    monkeypatch.setattr(
        "nurikabe.cli.collection.run_jobs", lambda *a, **k: real(*a, **k, work=work[0])
    )
    assert main(args) == 130
    first = ran[0]
    conn = collection.open_db(out, readonly=True)
    before = {e.number: e.puzzle.to_url() for e in collection.entries(conn)}
    conn.close()
    assert len(before) == 1
    capsys.readouterr()

    ran.clear()
    work[0] = recorded
    assert main(args) == 0
    assert len(ran) == 1 and ran[0] != first  # only the missing puzzle was made
    both = {first, ran[0]}
    err = capsys.readouterr().err
    assert "resuming: 1 of 2 puzzles" in err and "1 puzzles made, 1 kept" in err
    conn = collection.open_db(out, readonly=True)
    after = {e.number: e.puzzle.to_url() for e in collection.entries(conn)}
    assert len(after) == 2 and all(after[n] == url for n, url in before.items())
    assert collection.meta(conn)["complete"] is True
    conn.close()

    ran.clear()
    assert main([*args, "--remake"]) == 0
    assert sorted(ran) == sorted(both)
    conn = collection.open_db(out, readonly=True)
    assert {e.number: e.puzzle.to_url() for e in collection.entries(conn)} == after
    assert collection.former(conn) == []  # the same puzzles: nothing replaced
    conn.close()


def test_a_row_from_another_seed_or_generator_is_made_again(tmp_path: Path) -> None:
    """Only a row made by this job's seed (or one of its retries') and by this generator
    version counts as made."""
    jobs = collection.build_jobs(4)[:3]
    out = tmp_path / "m.sqlite"
    conn = collection.create(out)
    with database.transaction(conn):
        base = {"rows": 5, "cols": 5, "clues": [[0, 0, 1]], "solution": ["." + "#" * 4] * 5}
        collection.store(
            conn,
            jobs[0]["collection"],
            jobs[0]["number"],
            {**base, "url": "u0", "seed": jobs[0]["seed"], "generator": GENERATOR_VERSION},
        )
        retry = derive_seed(jobs[1]["seed"], 3)
        collection.store(
            conn,
            jobs[1]["collection"],
            jobs[1]["number"],
            {**base, "url": "u1", "seed": retry, "generator": GENERATOR_VERSION},
        )
        collection.store(
            conn,
            jobs[2]["collection"],
            jobs[2]["number"],
            {**base, "url": "u2", "seed": jobs[2]["seed"], "generator": "0"},
        )
    assert collection.already_made(conn, jobs) == {jobs[0]["index"], jobs[1]["index"]}
    other = [{**job, "seed": job["seed"] + 1} for job in jobs]
    assert collection.already_made(conn, other) == set()
    collection.close_db(conn)
