"""The collection store and the generate/collection commands: schema, reads, exit codes, shapes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from nurikabe import Limit, Status, collection, solve
from nurikabe.cli import main
from nurikabe.generator import generate
from nurikabe.generator.batch import derive_seed


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small database with three generated puzzles and one imported one."""
    path = tmp_path_factory.mktemp("db") / "c.sqlite"
    conn = collection.create(path)
    for n in range(3):
        record = generate(6, 7, difficulty="easy", rng=derive_seed(5, n)).to_json()
        collection.store(conn, "10x10", n, record)
    imported = generate(5, 6, difficulty="easy", rng=1).to_json()
    collection.store(conn, "imported", 0, imported, source="https://example.org/p/1")
    collection.set_meta(conn, **collection.build_meta(5))
    conn.commit()
    conn.close()
    return path


def test_schema_version_and_tables(db: Path) -> None:
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == collection.SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"puzzles", "progress", "settings", "meta"} <= tables


def test_reads(db: Path) -> None:
    conn = collection.open_db(db, readonly=True)
    assert collection.collections(conn) == [("10x10", 3), ("imported", 1)]
    entry = collection.get(conn, 1)
    assert entry is not None and entry.level == "easy" and entry.seed == derive_seed(5, 1)
    result = solve(entry.puzzle, limit=Limit(solutions=2, seconds=30))
    assert result.status is Status.UNIQUE
    assert result.solution is not None and result.solution.to_rows() == entry.solution.to_rows()
    imported = collection.get(conn, 0, "imported")
    assert imported is not None and imported.source == "https://example.org/p/1"
    assert collection.get(conn, 99) is None
    assert collection.meta(conn)["seed"] == 5


def test_migration_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.sqlite"
    collection.create(path).close()
    ran = []
    monkeypatch.setattr(collection, "SCHEMA_VERSION", collection.SCHEMA_VERSION + 1)
    monkeypatch.setitem(
        collection.MIGRATIONS, collection.SCHEMA_VERSION - 1, lambda conn: ran.append(True)
    )
    conn = collection.open_db(path)
    assert ran == [True]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == collection.SCHEMA_VERSION


def test_build_jobs_are_deterministic() -> None:
    a, b = collection.build_jobs(3), collection.build_jobs(3)
    assert a == b
    assert sum(1 for j in a if j["collection"] == "10x10") >= 500
    order = collection.execution_order(a)
    assert sorted(j["index"] for j in order) == [j["index"] for j in a]


def test_cli_list_show_export(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["collection", "list", "--db", str(db)]) == 0
    assert "10x10: 3 puzzles" in capsys.readouterr().out
    assert main(["collection", "list", "10x10", "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("https://puzz.link/") == 3
    assert main(["collection", "show", "2", "--solution", "--db", str(db)]) == 0
    assert "10x10 #2" in capsys.readouterr().out
    assert main(["collection", "export", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["grade"]["level"] == "easy"
    assert main(["collection", "export", "--format", "urls", "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("puzz.link") == 4


def test_cli_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["collection", "show", "77", "--db", str(db)]) == 2
    assert main(["collection", "list", "--db", str(tmp_path / "none.sqlite")]) == 2
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database")
    assert main(["collection", "list", "--db", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("nurikabe:") == 3 and "Traceback" not in err


def test_cli_build_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.sqlite"
    assert (
        main(["collection", "build", "--seed", "4", "--limit", "2", "--jobs", "1", "-o", str(out)])
        == 0
    )
    conn = collection.open_db(out, readonly=True)
    assert len(list(collection.entries(conn))) == 2


def test_cli_regrade(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stored grade the engine no longer gives is reported (``--check`` exits 1 and
    stores nothing), then stored; the other puzzles keep theirs."""
    path = tmp_path / "r.sqlite"
    path.write_bytes(db.read_bytes())
    conn = collection.open_db(path)
    collection.set_grade(conn, "10x10", 1, "hard", 999)
    conn.commit()
    conn.close()
    assert main(["collection", "regrade", "--check", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert "10x10 #1: hard 999 -> easy" in err and "1 of 4 grades differ" in err
    assert main(["collection", "regrade", "--collection", "10x10", "--db", str(path)]) == 0
    assert "1 of 3 grades changed" in capsys.readouterr().err
    conn = collection.open_db(path, readonly=True)
    fixed = collection.get(conn, 1)
    assert fixed is not None and fixed.level == "easy" and fixed.score != 999
    assert main(["collection", "regrade", "--check", "--db", str(path)]) == 0
    assert main(["collection", "regrade", "--db", str(tmp_path / "none.sqlite")]) == 2


def test_cli_generate_jsonl(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    args = [
        "generate",
        "--size",
        "6x7",
        "--difficulty",
        "easy",
        "--count",
        "3",
        "--seed",
        "7",
        "--format",
        "jsonl",
        "-o",
        str(out),
    ]
    assert main([*args, "--jobs", "1"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3
    for r in records:
        assert set(r) >= {"rows", "cols", "clues", "solution", "grade", "seed", "url"}
        assert r["rows"] == 6 and r["cols"] == 7 and r["grade"]["level"] == "easy"
    # The same seed gives the same puzzles whatever --jobs.
    out2 = tmp_path / "g2.jsonl"
    assert main([*args[:-1], str(out2), "--jobs", "2"]) == 0
    assert out2.read_text() == out.read_text()


def test_cli_stats_reads_generated_jsonl(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gen = tmp_path / "gen.jsonl"
    records = [generate(6, 7, difficulty="easy", rng=seed).to_json() for seed in (1, 2)]
    gen.write_text("".join(json.dumps(r) + "\n" for r in records))
    corpus = tmp_path / "corpus.jsonl"
    # Published side: one 6x7 puzzle whose islands are 3 and 1 (and a 5x5 that is ignored).
    corpus.write_text(
        json.dumps({"rows": 6, "cols": 7, "clues": [[0, 0, 3], [5, 6, 1]]})
        + "\n"
        + json.dumps({"rows": 5, "cols": 5, "clues": [[0, 0, 1]]})
        + "\n"
    )
    base = ["collection", "stats", "--corpus", str(corpus), "--size", "6x7", "--no-grade"]
    assert main([*base, "--generated", str(gen)]) == 0
    table = {line[:20].strip(): line[20:].split() for line in capsys.readouterr().out.splitlines()}
    assert table["puzzles"] == ["2", "1"]
    clues = sum(len(r["clues"]) for r in records)
    assert float(table["clues per 100 cells"][0]) == pytest.approx(100 * clues / 42 / 2, abs=0.05)
    assert table["clues per 100 cells"][1] == f"{200 / 42:.1f}"
    assert table["islands of size 1"][1] == "0.500" and table["islands of size 3"][1] == "0.500"
    assert table["islands of size 5+"][1] == "0.000"
    assert table["grade easy"] == ["2", "0"]
    # --level keeps the generated puzzles of that level only.
    assert main([*base, "--generated", str(gen), "--level", "hard"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[1:] == ["0", "1"]
    # Without --generated the database is read.
    assert main([*base, "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[1:] == ["3", "1"]
    assert main([*base, "--generated", str(tmp_path / "missing.jsonl")]) == 2


@pytest.mark.parametrize("fmt", ["puzzlink", "janko", "text"])
def test_cli_generate_formats(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "generate",
                "--size",
                "5x6",
                "--difficulty",
                "easy",
                "--seed",
                "2",
                "--format",
                fmt,
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--size", "ten"],
        ["generate", "--count", "0"],
        ["generate", "--difficulty", "legendary"],
        ["generate", "--format", "pdf"],
    ],
)
def test_cli_generate_bad_options(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(args)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    assert code == 2


def test_cli_generate_impossible(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["generate", "--size", "2x2", "--difficulty", "hard", "--seed", "1", "--jobs", "1"])
        == 1
    )
    assert "puzzle 0:" in capsys.readouterr().err


def test_cli_regrade_keeps_a_grade_whose_walkthrough_ran_out(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A walkthrough stopped by its time limit says nothing about the puzzle: the stored
    grade is kept, not compared, and the exit code says a limit was hit (4)."""
    path = tmp_path / "r.sqlite"
    path.write_bytes(db.read_bytes())
    conn = collection.open_db(path)
    collection.set_grade(conn, "10x10", 1, "hard", 999)
    conn.commit()
    conn.close()
    assert main(["collection", "regrade", "--seconds", "1e-9", "--db", str(path)]) == 4
    err = capsys.readouterr().err
    assert "10x10 #1: ran out of 1e-09 s; kept hard 999" in err
    assert "0 of 4 grades changed (4 ran out of time, not compared)" in err
    conn = collection.open_db(path, readonly=True)
    kept = collection.get(conn, 1)
    assert kept is not None and (kept.level, kept.score) == ("hard", 999)


def _small(seed: int) -> dict[str, object]:
    return generate(5, 5, difficulty="easy", rng=seed).to_json()


def test_store_records_a_replaced_puzzle_once(tmp_path: Path) -> None:
    conn = collection.create(tmp_path / "c.sqlite")
    a, b = _small(1), _small(2)
    collection.store(conn, "10x10", 0, a)
    collection.store(conn, "10x10", 0, a)  # the same puzzle again: nothing replaced
    assert collection.former(conn) == []
    collection.store(conn, "10x10", 0, b)
    collection.store(conn, "10x10", 0, b)
    (row,) = collection.former(conn)
    assert row[:4] == ("10x10", 0, a["url"], a["generator"])
    assert collection.former_keys(conn) == {("10x10", 0)}
    entry = collection.get(conn, 0)
    assert entry is not None and entry.puzzle.to_url() == b["url"]


def test_a_build_onto_a_previous_file_records_what_it_replaced(tmp_path: Path) -> None:
    out = tmp_path / "b.sqlite"
    conn = collection.create(out)
    old = _small(7)
    collection.store(conn, "10x10", 0, old)  # the first job of the plan remakes 10x10/0
    collection.store(conn, "10x10", 777, _small(8))  # a row the build does not remake
    collection.close_db(conn)
    args = ["collection", "build", "--seed", "4", "--limit", "1", "--jobs", "1", "-o", str(out)]
    assert main(args) == 0
    conn = collection.open_db(out, readonly=True)
    assert [r[:3] for r in collection.former(conn)] == [("10x10", 0, old["url"])]
    new = collection.get(conn, 0)
    assert new is not None and new.puzzle.to_url() != old["url"]
    conn.close()
    assert main(args) == 0  # the same build again replaces nothing more
    conn = collection.open_db(out, readonly=True)
    assert len(collection.former(conn)) == 1
    conn.close()


def test_record_former_between_two_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = tmp_path / "old.sqlite", tmp_path / "new.sqlite"
    a, b, c, d, e = (_small(s) for s in range(10, 15))
    conn = collection.create(old)
    collection.store(conn, "10x10", 0, a)
    collection.store(conn, "10x10", 1, b)
    collection.store(conn, "10x10", 2, c)
    collection.store(conn, "10x10", 0, e)  # old itself lists a as former under 10x10/0
    collection.close_db(conn)
    conn = collection.create(new)  # a fresh build: no history of its own
    collection.store(conn, "10x10", 0, e)
    collection.store(conn, "10x10", 1, b)
    collection.store(conn, "10x10", 2, d)
    assert collection.record_former(old, conn) == 2
    assert collection.record_former(old, conn) == 0
    got = sorted(r[:3] for r in collection.former(conn))
    assert got == [("10x10", 0, a["url"]), ("10x10", 2, c["url"])]
    assert collection.former_keys(conn) == {("10x10", 0), ("10x10", 2)}
    collection.close_db(conn)
    assert main(["collection", "former", str(old), "--db", str(new)]) == 0
    assert "0 former puzzles recorded (2 in all)" in capsys.readouterr().out
    assert main(["collection", "former", str(tmp_path / "none.sqlite"), "--db", str(new)]) == 2
    assert "none.sqlite" in capsys.readouterr().err


def test_a_file_of_schema_1_without_former_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite"
    conn = collection.create(path)
    collection.store(conn, "10x10", 0, _small(3))
    collection.close_db(conn)
    raw = sqlite3.connect(path)
    raw.execute("DROP TABLE former")
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    conn = collection.open_db(path, readonly=True)
    assert collection.former(conn) == [] and collection.former_keys(conn) == set()
    assert len(list(collection.entries(conn))) == 1
    conn.close()
    conn = collection.open_db(path)  # writing migrates it to the current schema
    assert conn.execute("PRAGMA user_version").fetchone()[0] == collection.SCHEMA_VERSION
    collection.store(conn, "10x10", 0, _small(4))
    assert len(collection.former(conn)) == 1
    collection.close_db(conn)
