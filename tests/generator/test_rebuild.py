"""The collection rebuild's path at a tiny scale: `nurikabe collection build` runs the
generator's jobs through the batch runner, each puzzle proved unique a second time by
CP-SAT (the jobs' ``verify``), and a plan extended at its end (a level appended to the
last collection, a new collection after it) keeps every earlier puzzle at its number.

The real plan (15x15 and 20x20 at every level, 30x30) is `collection.PLAN`; here it is
replaced by small grids so that the whole path runs in seconds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from nurikabe import Limit, Puzzle, Status, collection, solve
from nurikabe.cli import main

HAS_ORTOOLS = importlib.util.find_spec("ortools") is not None

SMALL = (
    ("6x7", 6, 7, (("easy", 2), ("medium", 1))),
    ("7x7", 7, 7, (("easy", 1),)),
)
"""A plan of two small collections."""

EXTENDED = (
    ("6x7", 6, 7, (("easy", 2), ("medium", 1))),
    ("7x7", 7, 7, (("easy", 1), ("medium", 1))),
    ("8x8", 8, 8, (("easy", 1),)),
)
"""The same plan with a level appended to the last collection and a new collection."""


def _rows(path: Path) -> dict[tuple[str, int], str]:
    conn = collection.open_db(path, readonly=True)
    try:
        return {(e.collection, e.number): e.puzzle.to_url() for e in collection.entries(conn)}
    finally:
        conn.close()


@pytest.mark.skipif(not HAS_ORTOOLS, reason="OR-Tools not installed")
def test_a_tiny_rebuild_verified_by_cpsat_keeps_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        collection, "BUILD_OPTIONS", {**collection.BUILD_OPTIONS, "verify": "cpsat"}
    )
    monkeypatch.setattr(collection, "PLAN", SMALL)
    assert all(job["verify"] == "cpsat" for job in collection.build_jobs(5))
    out = tmp_path / "new.sqlite"
    assert main(["collection", "build", "--seed", "5", "--jobs", "1", "-o", str(out)]) == 0
    first = _rows(out)
    assert sorted(first) == [("6x7", 0), ("6x7", 1), ("6x7", 2), ("7x7", 0)]
    for url in first.values():
        result = solve(Puzzle.from_url(url), limit=Limit(solutions=2, seconds=60), engine="cpsat")
        assert result.status is Status.UNIQUE

    monkeypatch.setattr(collection, "PLAN", EXTENDED)
    assert main(["collection", "build", "--seed", "5", "--jobs", "1", "-o", str(out)]) == 0
    second = _rows(out)
    assert {k: second[k] for k in first} == first  # every earlier puzzle at its number
    assert set(second) - set(first) == {("7x7", 1), ("8x8", 0)}
    conn = collection.open_db(out, readonly=True)
    try:
        assert collection.meta(conn)["complete"] is True
        former = conn.execute("SELECT COUNT(*) FROM former").fetchone()[0]
    finally:
        conn.close()
    assert former == 0  # nothing was replaced


@pytest.mark.skipif(not HAS_ORTOOLS, reason="OR-Tools not installed")
def test_a_build_by_a_new_generator_keeps_the_puzzles_at_kept_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rebuild's situation: the file was built by an earlier generator version, and
    the plan grows. The puzzles at the `KEPT` numbers stay as they are (rows, row ids and
    all); the others are made by the new version, at new numbers past the kept ones."""
    monkeypatch.setattr(
        collection, "BUILD_OPTIONS", {**collection.BUILD_OPTIONS, "verify": "cpsat"}
    )
    monkeypatch.setattr(collection, "PLAN", SMALL)
    out = tmp_path / "new.sqlite"
    assert main(["collection", "build", "--seed", "5", "--jobs", "1", "-o", str(out)]) == 0
    first = _rows(out)
    conn = collection.open_db(out, readonly=True)
    try:
        ids = dict(
            ((c, n), i) for i, c, n in conn.execute("SELECT id, collection, number FROM puzzles")
        )
    finally:
        conn.close()

    # A new generator version: nothing the file holds counts as made by it any more.
    monkeypatch.setattr(collection, "GENERATOR_VERSION", "999")
    monkeypatch.setattr(collection, "KEPT", {"6x7": 3})
    monkeypatch.setattr(collection, "PLAN", EXTENDED)
    capsys.readouterr()
    assert main(["collection", "build", "--seed", "5", "--jobs", "1", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "3 puzzles made, 3 kept" in err  # 7x7 #0 made again (not kept); 7x7 #1, 8x8 #0
    second = _rows(out)
    assert {k: second[k] for k in first} == first
    assert set(second) - set(first) == {("7x7", 1), ("8x8", 0)}
    conn = collection.open_db(out, readonly=True)
    try:
        again = dict(
            ((c, n), i) for i, c, n in conn.execute("SELECT id, collection, number FROM puzzles")
        )
        assert collection.former(conn) == []  # 7x7 #0 came out the same puzzle
    finally:
        conn.close()
    assert {k: again[k] for k in ids} == ids


def test_the_build_verifies_with_cpsat_and_keeps_the_classic_numbers() -> None:
    """The real plan: every job asks CP-SAT for a second proof, every run of a collection
    follows the kept ones, and the kept numbers are every puzzle shipped so far (500
    10x10, 170 15x15, 135 20x20, 55 30x30), so a run appended to a collection, which moves
    the seeds of the jobs after it, changes no puzzle a player has."""
    jobs = collection.build_jobs(2026)
    assert all(job["verify"] in ("cpsat", "cpsat-fast") for job in jobs)
    assert collection.KEPT == {"10x10": 500, "15x15": 195, "20x20": 155, "30x30": 55}
    for name, _, _, levels in collection.PLAN:
        assert sum(n for _, n in levels) >= collection.KEPT.get(name, 0)
    assert [name for name, *_ in collection.PLAN] == ["10x10", "15x15", "20x20", "30x30"]
    assert sum(1 for job in jobs if job["collection"] == "30x30") >= 35
