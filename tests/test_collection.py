"""The collection store and the generate/collection commands: schema, reads, exit codes, shapes."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from nurikabe import Limit, Status, collection, database, grade, solve
from nurikabe.cli import generate as cli_generate
from nurikabe.cli import main
from nurikabe.errors import DatabaseError
from nurikabe.generator import GENERATOR_VERSION, generate
from nurikabe.generator.jobs import derive_seed, make_record


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small database with three generated puzzles and one imported one (made once; each
    test takes a copy, `db`)."""
    path = tmp_path_factory.mktemp("db") / "c.sqlite"
    conn = collection.create(path)
    with database.transaction(conn):
        for n in range(3):
            record = generate(6, 7, difficulty="easy", rng=derive_seed(5, n)).to_json()
            collection.store(conn, "10x10", n, record)
        imported = generate(5, 6, difficulty="easy", rng=1).to_json()
        collection.store(conn, "imported", 0, imported, source="https://example.org/p/1")
        collection.set_meta(conn, **collection.build_meta(5))
    collection.close_db(conn)  # back in rollback-journal mode: one file to copy
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    """A copy of `pristine` of the test's own, to change as it likes."""
    path = tmp_path / "c.sqlite"
    shutil.copyfile(pristine, path)
    return path


def test_schema_version_and_tables(db: Path) -> None:
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == collection.SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"puzzles", "meta", "former"}  # progress lives in the players' database


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


def test_a_build_onto_a_previous_file_records_what_it_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(collection, "KEPT", {})  # else 10x10/0 is kept as it is
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


# The collection shipped in the package: complete, built by the current generator, and

SAMPLE_EVERY = 25
"""Every 25th puzzle of each collection is solved and graded again (26 in all)."""


@pytest.fixture(scope="module")
def entries() -> list[collection.Entry]:
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        return list(collection.entries(conn))
    finally:
        conn.close()


BUNDLED_GENERATOR = "19"
"""The generator version of the last build of the bundled file (issue 36). The puzzles at
the `collection.KEPT` numbers are kept as they were so that no player's puzzle changes
under them; `MADE_BY` says which generator made each number."""

MADE_BY: dict[str, tuple[tuple[int, str], ...]] = {
    "10x10": ((0, "7"),),
    "15x15": ((0, "7"), (100, "8"), (160, "13"), (165, "14"), (170, "18"), (190, "19")),
    "20x20": ((0, "7"), (50, "8"), (90, "11"), (95, "14"), (105, "17"), (125, "18")),
    "30x30": ((0, "8"), (25, "10"), (35, "11"), (40, "15"), (45, "17")),
}
"""Per collection, (first number, generator) of each stretch of numbers: the classic
generator 7 sets (10x10, 15x15 #0-99, 20x20 #0-49), then generator 8's (the rebuild of
2026-11-27 and the extreme runs appended after it), then generator 10's 30x30 hard and
expert run (#25-34, 2026-11-28), generator 11's 20x20 and 30x30 extreme runs (#90-94 and
#35-39, 2026-11-28), generator 13's 15x15 extreme run (#160-164, 2026-11-29),
generator 14's easy and medium runs (15x15 #165-169, 20x20 #95-104, 2026-11-29) and
generator 15's 30x30 hard run (#40-44, 2026-11-29) and generator 17's 30x30 expert and
extreme runs (#45-54) and 20x20 hard and expert runs (#105-124), and generator 18's
20x20 expert and extreme runs (#125-134, 2026-11-29) and its easy and medium runs (15x15
#170-189, 20x20 #135-154, 2026-11-29), and generator 19's 15x15 extreme run (#190-194,
2026-11-29)."""


def _made_by(collection_name: str, number: int) -> str:
    return [made for first, made in MADE_BY[collection_name] if number >= first][-1]


def test_built_by_a_known_generator_to_the_plan() -> None:
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        meta = collection.meta(conn)
    finally:
        conn.close()
    assert meta.get("complete") is True
    expected = collection.build_meta(meta["seed"])
    assert meta["generator"] == BUNDLED_GENERATOR
    assert int(BUNDLED_GENERATOR) <= int(GENERATOR_VERSION) == int(expected["generator"])
    assert meta["plan"] == expected["plan"]


SHIPPED: tuple[tuple[str, dict[str, int], str], ...] = (
    (
        "generator 7's classic sets",
        {"10x10": 500, "15x15": 100, "20x20": 50},
        "b433fc5a97073089f59b28eb03c388c3128dc063e4a43a839f459a58ca24f54b",
    ),
    (
        "the rebuild with generator 8",
        {"10x10": 500, "15x15": 157, "20x20": 90, "30x30": 25},
        "5e4625299b92efd10e1dae95359345612ada0dca8bc38cb9989b0f4de8045a83",
    ),
    (
        "the 15x15 extreme run",
        {"10x10": 500, "15x15": 160, "20x20": 90, "30x30": 25},
        "2cd2457f14b8703f3141c43e7b364de27f5bd44ab0d81031b8d75d9c67c3e4f7",
    ),
    (
        "the 30x30 hard and expert run with generator 10",
        {"10x10": 500, "15x15": 160, "20x20": 90, "30x30": 35},
        "ca7bbdbe8728a25d99c3c8de255cb004f463a8c1a7a704bb0534d8da5d44f3b0",
    ),
    (
        "the 20x20 extreme run with generator 11",
        {"10x10": 500, "15x15": 160, "20x20": 95, "30x30": 35},
        "445a2aa6652bee0c9e2801a5951e2dff256ea3e45f7dea9552e9e1fcb00c88af",
    ),
    (
        "the 30x30 extreme run with generator 11",
        {"10x10": 500, "15x15": 160, "20x20": 95, "30x30": 40},
        "e242f388a4ebe8ab5cc24bbeb90bab0594bcaa354a855d12b8d54786e42d47f8",
    ),
    (
        "the 15x15 extreme run with generator 13",
        {"10x10": 500, "15x15": 165, "20x20": 95, "30x30": 40},
        "06f9be40fc9635178e875d44c991659278d0e2709c10c3fe1dabb164d41da945",
    ),
    (
        "the easy and medium runs with generator 14",
        {"10x10": 500, "15x15": 170, "20x20": 105, "30x30": 40},
        "5cf46867c6898dfaf92df1973362ed64cb0af99be8f7a9d42c20912595949745",
    ),
    (
        "the 30x30 hard run with generator 15",
        {"10x10": 500, "15x15": 170, "20x20": 105, "30x30": 45},
        "6241fcd0ee66769b2fbaa3fe690b94ec77db09a47513d919f4bff3970ec7214d",
    ),
    (
        "the 30x30 expert and extreme runs with generator 17",
        {"10x10": 500, "15x15": 170, "20x20": 105, "30x30": 55},
        "12b0587a08f92564be31a26bc6c849280f9686d11e9c2ef896b99f47aa48f344",
    ),
    (
        "the 20x20 hard and expert runs with generator 17",
        {"10x10": 500, "15x15": 170, "20x20": 125, "30x30": 55},
        "808652282fbed95befa0583ec11a83854313584efac622820453458a0097757c",
    ),
    (
        "the 20x20 expert and extreme runs with generator 18",
        {"10x10": 500, "15x15": 170, "20x20": 135, "30x30": 55},
        "7a0209b281f2caa64e910be812026a164c8a80b2772eaca2c0ca66c155e82c9b",
    ),
    (
        "the 15x15 and 20x20 easy and medium runs with generator 18",
        {"10x10": 500, "15x15": 190, "20x20": 155, "30x30": 55},
        "12e8c58e0330c84467ab334f46f46d2f42a769450a217e25ae87111faf8660aa",
    ),
    (
        "the 15x15 extreme run with generator 19",
        {"10x10": 500, "15x15": 195, "20x20": 155, "30x30": 55},
        "7d0deba4a949b918f41005ba39c84461364213f11efe0324731f875049508edb",
    ),
)
"""What each build shipped, oldest first: its name, how many puzzles each collection then
held, and the digest of the puzzles it added (the numbers from the previous build's counts
to its own; every column but the grade, by row id). The first digest is the one the
whole file had when it held generator 7's 650 puzzles only (seed 2026). The last counts
are `collection.KEPT`: every shipped puzzle is kept."""

BUNDLED_PUZZLES = {(2026, "19"): "165f11311cb3ba86f9eed58415deff45ed8b42c67823f0b65f6e705a76f23430"}
"""The digest of all the bundled file's puzzles (every column but the grade, by row id),
by the seed and generator version of its build. A rebuild makes a new file this pin does
not cover."""


def _digest_rows(conn: sqlite3.Connection, where: str = "") -> str:
    digest = hashlib.sha256()
    for row in conn.execute(
        "SELECT id, collection, number, rows, cols, clues, solution, url, seed, generator,"
        f" source FROM puzzles {where} ORDER BY id"
    ):
        digest.update((repr(row) + "\n").encode())
    return digest.hexdigest()


def test_bundled_file_holds_its_puzzles_and_no_progress() -> None:
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        meta = collection.meta(conn)
        digest = _digest_rows(conn)
    finally:
        conn.close()
    assert tables == {"puzzles", "meta", "former"}
    build = (meta["seed"], meta["generator"])
    if build not in BUNDLED_PUZZLES:
        pytest.skip(f"the bundled collection was rebuilt since (seed, generator {build})")
    assert digest == BUNDLED_PUZZLES[build]


def test_the_kept_puzzles_are_as_players_had_them() -> None:
    """Every puzzle at a kept number is the one shipped there, in every column but the
    grade (regrades may move a grade, never a puzzle), and no build gave a key another
    puzzle (``former`` holds only the 264 rows of the builds before generator 7, all
    dated before it)."""
    assert SHIPPED[-1][1] == collection.KEPT
    before: dict[str, int] = {}
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        for name, counts, digest in SHIPPED:
            where = " OR ".join(
                f"(collection = '{c}' AND number >= {before.get(c, 0)} AND number < {n})"
                for c, n in counts.items()
            )
            assert _digest_rows(conn, f"WHERE {where}") == digest, name
            before = counts
        former = collection.former(conn)
    finally:
        conn.close()
    assert len(former) == 264
    assert max(replaced_at for *_, replaced_at in former) < "2026-11-25"


REGRADED = {("10x10", 492): "expert"}
"""The puzzles whose level a regrade moved away from the level their run of `PLAN` asked
for (docs/grading.md, "Regrades": white-budget and sea-budget switched on)."""


def test_numbered_and_spread_as_planned(entries: list[collection.Entry]) -> None:
    """Each run of `PLAN` holds its numbers at its level, but for `REGRADED`."""
    level_of = {(e.collection, e.number): e.level for e in entries}
    for name, rows, cols, levels in collection.PLAN:
        mine = sorted((e for e in entries if e.collection == name), key=lambda e: e.number)
        assert [e.number for e in mine] == list(range(sum(n for _, n in levels)))
        assert {(e.puzzle.rows, e.puzzle.cols) for e in mine} == {(rows, cols)}
        number = 0
        for level, count in levels:
            for n in range(number, number + count):
                assert level_of[(name, n)] == REGRADED.get((name, n), level), (name, n)
            number += count
        for e in mine:
            assert e.generator == _made_by(name, e.number), (name, e.number)


def _sample(entries: list[collection.Entry]) -> list[collection.Entry]:
    return [e for e in entries if e.number % SAMPLE_EVERY == 0]


def test_sample_unique_with_the_stored_solution(entries: list[collection.Entry]) -> None:
    for e in _sample(entries):
        result = solve(e.puzzle, limit=Limit(solutions=2, seconds=30))
        assert result.status is Status.UNIQUE, e.number
        assert result.solutions[0] == e.solution, e.number


def test_sample_unique_for_the_cpsat_engine(entries: list[collection.Entry]) -> None:
    pytest.importorskip("ortools")
    for e in [x for x in entries if x.collection == "10x10"][:: SAMPLE_EVERY * 8]:
        result = solve(e.puzzle, limit=Limit(solutions=2, seconds=60), engine="cpsat")
        assert result.status is Status.UNIQUE, e.number
        assert result.solutions[0] == e.solution, e.number


def test_sample_keeps_its_grade(entries: list[collection.Entry]) -> None:
    """The sample's grades but the extreme ones: a 30x30 extreme walkthrough takes most
    of a minute, and the slow test below grades every extreme puzzle."""
    for e in _sample(entries):
        if e.level == "extreme":
            continue
        g = grade(e.puzzle)
        assert (g.level, g.score) == (e.level, e.score), (e.collection, e.number)


@pytest.mark.slow
def test_every_extreme_puzzle_keeps_its_grade(entries: list[collection.Entry]) -> None:
    """The extreme puzzles are the ones whose grade moves with the trial search. A
    walkthrough that runs out of the grade's 60 s (15x15 #158, stuck after about 95 s of
    CPU; 30x30 #36, finished after about 115 s) is made again without a time limit, as
    the build grades (the trial search is bounded by its count of scans), and compared."""
    extreme = [e for e in entries if e.level == "extreme"]
    assert extreme
    for e in extreme:
        g = grade(e.puzzle)
        if g.stopped:
            g = grade(e.puzzle, seconds=None)
        assert (g.level, g.score) == (e.level, e.score), (e.collection, e.number)


# A collection build loses nothing, and every fault of a database file is one line and
# exit code 2 (never a traceback).


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


_OLD_TABLES = """
CREATE TABLE IF NOT EXISTS progress (
    puzzle_id INTEGER PRIMARY KEY REFERENCES puzzles(id),
    board TEXT,
    seconds REAL NOT NULL DEFAULT 0,
    solved_at TEXT,
    best_seconds REAL,
    updated_at TEXT
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT);
"""
"""The tables a collection file had before progress and settings moved to `players`."""


def _with_old_tables(path: Path) -> Path:
    """The collection at `path` as an older file: with a progress row and a setting."""
    conn = sqlite3.connect(path)
    conn.executescript(_OLD_TABLES)
    first = conn.execute("SELECT id FROM puzzles ORDER BY id").fetchone()[0]
    conn.execute("INSERT INTO progress (puzzle_id, seconds) VALUES (?, 12.5)", (first,))
    conn.execute("INSERT INTO settings (key, value) VALUES ('theme', 'dark')")
    conn.commit()
    conn.close()
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
    """An older file's progress and settings tables (nothing reads them any more) are
    kept like the imported puzzle: a build drops nothing it did not make."""
    _with_old_tables(db)
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


def test_an_older_file_with_progress_and_settings_still_works(db: Path) -> None:
    _with_old_tables(db)
    conn = collection.open_db(db, readonly=True)
    assert len(list(collection.entries(conn))) == 4
    conn.close()
    conn = collection.open_db(db)
    collection.store(conn, "10x10", 5, _record())
    conn.commit()
    collection.close_db(conn)
    assert _counts(db) == {"puzzles": 5, "progress": 1, "settings": 1}


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


@pytest.mark.long
@pytest.mark.parametrize(
    ("kept", "why"),
    [
        (None, "(1 kept as players have them;"),  # 10x10's first numbers are KEPT
        ({}, "(1 made by this seed and generator version;"),
    ],
)
def test_a_build_run_again_resumes(
    kept: dict[str, int] | None,
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A build stopped by Ctrl-C, run again, makes only the puzzles still missing (those
    it holds from the same seeds and generator version would come out the same, and
    those at `KEPT` numbers stay whoever made them: the message says which); with
    ``--remake`` it makes them all again, and they are the same puzzles (checked with the
    real `KEPT`)."""
    if kept is not None:
        monkeypatch.setattr(collection, "KEPT", kept)
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
    assert f"resuming: 1 of 2 puzzles are there already {why}" in err
    assert "1 puzzles made, 1 kept" in err
    conn = collection.open_db(out, readonly=True)
    after = {e.number: e.puzzle.to_url() for e in collection.entries(conn)}
    assert len(after) == 2 and all(after[n] == url for n, url in before.items())
    assert collection.meta(conn)["complete"] is True
    conn.close()
    if kept is not None:
        return  # the remake is the same with either KEPT: checked once

    ran.clear()
    assert main([*args, "--remake"]) == 0
    assert sorted(ran) == sorted(both)
    conn = collection.open_db(out, readonly=True)
    assert {e.number: e.puzzle.to_url() for e in collection.entries(conn)} == after
    assert collection.former(conn) == []  # the same puzzles: nothing replaced
    conn.close()


def test_a_row_at_a_kept_number_is_kept_whoever_made_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A puzzle at a `KEPT` number counts as made whatever its seed and generator (a
    build keeps it); past the kept numbers, the same row is made again."""
    monkeypatch.setattr(collection, "KEPT", {"15x15": 1})
    jobs = [j for j in collection.build_jobs(4) if j["collection"] == "15x15"][:2]
    assert [j["number"] for j in jobs] == [0, 1]
    conn = collection.create(tmp_path / "k.sqlite")
    with database.transaction(conn):
        base = {"rows": 5, "cols": 5, "clues": [[0, 0, 1]], "solution": ["." + "#" * 4] * 5}
        for job in jobs:
            record = {**base, "url": f"u{job['number']}", "seed": 1, "generator": "7"}
            collection.store(conn, job["collection"], job["number"], record)
    assert collection.already_made(conn, jobs) == {jobs[0]["index"]}
    collection.close_db(conn)


def test_a_row_from_another_seed_or_generator_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a row made by this job's seed (or one of its retries') and by this generator
    version counts as made (at numbers that are not `KEPT`)."""
    monkeypatch.setattr(collection, "KEPT", {})
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
