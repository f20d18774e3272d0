"""The collection shipped in the package: complete, built by the current generator, and
every puzzle of a sample unique, with its stored solution, at its stored grade.

When the generator or the grader changes what it makes, these tests fail until the
collection is rebuilt (`nurikabe collection build --seed 2026`, docs/generator.md); a
grader change that keeps the puzzles needs only `nurikabe collection regrade`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from nurikabe import Limit, Status, collection, grade, solve
from nurikabe.generator import GENERATOR_VERSION

SAMPLE_EVERY = 25
"""Every 25th puzzle of each collection is solved and graded again (26 in all)."""


@pytest.fixture(scope="module")
def entries() -> list[collection.Entry]:
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        return list(collection.entries(conn))
    finally:
        conn.close()


def test_built_by_this_generator_to_the_plan() -> None:
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        meta = collection.meta(conn)
    finally:
        conn.close()
    assert meta.get("complete") is True
    expected = collection.build_meta(meta["seed"])
    assert meta["generator"] == GENERATOR_VERSION == expected["generator"]
    assert meta["plan"] == expected["plan"]


def test_numbered_and_spread_as_planned(entries: list[collection.Entry]) -> None:
    for name, rows, cols, levels in collection.PLAN:
        mine = sorted((e for e in entries if e.collection == name), key=lambda e: e.number)
        assert [e.number for e in mine] == list(range(sum(n for _, n in levels)))
        assert {(e.puzzle.rows, e.puzzle.cols) for e in mine} == {(rows, cols)}
        assert Counter(e.level for e in mine) == dict(levels)
        assert all(e.generator == GENERATOR_VERSION for e in mine)


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
    for e in _sample(entries):
        g = grade(e.puzzle)
        assert (g.level, g.score) == (e.level, e.score), (e.collection, e.number)


@pytest.mark.slow
def test_every_extreme_puzzle_keeps_its_grade(entries: list[collection.Entry]) -> None:
    """The extreme puzzles are the ones whose grade moves with the trial search (and
    with its speed: a walkthrough that runs out of time is scored where it stopped)."""
    extreme = [e for e in entries if e.level == "extreme"]
    assert extreme
    for e in extreme:
        g = grade(e.puzzle)
        assert (g.level, g.score) == (e.level, e.score), (e.collection, e.number)
