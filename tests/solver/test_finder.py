"""Tests of the native engine's finder (`native.FINDER`): a second search of the same
puzzle, lean, learning from its first node, with restarts down paths drawn at random
(the core's ``diversify``), raced in turns against the depth-first search.

The race may change which solutions come first, never what is true of them: on random
small puzzles (`?` clues too) with the finder joining at the first node and turns of one
node, every solution handed back is a solution of the brute-force oracle, none twice,
as many as there are up to the limit, and the search calls itself complete only when no
other is left. A sparse grid the depth-first search alone leaves open for 10 s and more
is decided by the race within a few thousand nodes; searches with a node limit (the
generator's checks) never race, nor does a search that has a solution by then.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe import Puzzle
from nurikabe.rules import check
from nurikabe.solver import Limit, Status, _csolve, native, solve
from nurikabe.solver.native import NativeSearch
from tests.bruteforce import black_masks
from tests.solver.test_learning import assert_first_solutions, small_puzzles

SPARSE_15_SEED_9 = Puzzle.from_clues(
    15,
    15,
    [
        (0, 0, 1), (2, 7, 30), (3, 13, 7), (5, 3, 43), (5, 11, 2), (5, 13, 2), (6, 9, 1),
        (7, 8, 1), (7, 11, 1), (8, 10, 6), (8, 13, 1), (10, 13, 1), (11, 3, 6), (11, 6, 3),
        (13, 7, 15), (13, 13, 3),
    ],
)  # fmt: skip
"""`bench/solve.py`'s sparse 15x15, seed 9: several solutions; the depth-first search
finds none within 24,000 nodes (10 s), the race finds two in about 1,400."""


@pytest.fixture
def eager_finder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder joins at once and the turns are short, so that every small puzzle
    races."""
    monkeypatch.setattr(native, "FINDER_AFTER", 1)
    monkeypatch.setattr(native, "FINDER_SLICE", 1)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)  # the fixture only sets two constants, the same for every example
@given(small_puzzles(), st.integers(1, 3))
def test_the_race_counts_the_first_solutions_exactly(
    eager_finder: None, puzzle: Puzzle, most: int
) -> None:
    search = NativeSearch(puzzle, Limit(solutions=most, seconds=60))
    assert_first_solutions(search, black_masks(puzzle), most)


def test_a_race_on_many_solutions_hands_each_back_once(eager_finder: None) -> None:
    """A sparse 5x5 with 910 solutions, 40 asked for: both searches find some, and the
    race hands back 40 different ones, each a solution."""
    puzzle = Puzzle(5, 5, {0: 7, 24: -1})
    expected = black_masks(puzzle)
    assert len(expected) == 910
    search = NativeSearch(puzzle, Limit(solutions=40, seconds=60))
    found = [board.black_mask for board in search.solutions()]
    assert len(found) == len(set(found)) == 40 and set(found) <= expected
    assert search.limit_hit == "solutions" and len(search._running) == 2


def test_the_finder_decides_a_sparse_grid_the_depth_first_search_leaves_open() -> None:
    puzzle = SPARSE_15_SEED_9
    alone = NativeSearch(puzzle, Limit(solutions=2, nodes=4000), finder=False)
    assert list(alone.solutions()) == [] and alone.limit_hit == "nodes"
    result = solve(puzzle, limit=Limit(solutions=2, seconds=60))
    assert result.status is Status.MULTIPLE
    first, second = result.solutions
    assert first.black_mask != second.black_mask
    assert not check(puzzle, first, mode="all") and not check(puzzle, second, mode="all")


def test_a_search_with_a_node_limit_never_races() -> None:
    """The generator's checks keep the tree of the depth-first search alone."""
    limit = Limit(solutions=2, nodes=3000)
    plain = NativeSearch(SPARSE_15_SEED_9, limit, finder=False)
    raced = NativeSearch(SPARSE_15_SEED_9, limit)
    assert list(plain.solutions()) == list(raced.solutions()) == []
    assert plain.nodes == raced.nodes == 3000 and len(raced._running) == 1


def test_the_race_keeps_to_its_time_and_cancels_both_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A race stops at its time limit; cancel() from another thread stops both of its
    searches."""
    monkeypatch.setattr(native, "FINDER_AFTER", 100)
    timed = NativeSearch(WIDE_OPEN_20, Limit(solutions=2, seconds=1.0))
    assert len(list(timed.solutions())) < 2
    assert timed.limit_hit == "seconds" and timed.seconds < 2.5 and len(timed._running) == 2
    search = NativeSearch(WIDE_OPEN_20, Limit(solutions=2, seconds=60))
    timer = threading.Timer(1.5, search.cancel)
    timer.start()
    try:
        assert len(list(search.solutions())) < 2
    finally:
        timer.cancel()
    assert search.limit_hit == "cancelled" and search.seconds < 5
    assert all(isinstance(core, _csolve.Search) for core in search._running)


WIDE_OPEN_20 = Puzzle.from_clues(
    20,
    20,
    [
        (0, 19, 4), (1, 7, 4), (1, 9, 1), (1, 11, 3), (2, 3, 96), (6, 18, 7), (7, 15, 1),
        (8, 13, 1), (10, 16, 8), (11, 5, 21), (12, 12, 17), (13, 14, 5), (14, 0, 3),
        (14, 7, 2), (15, 9, 2), (16, 4, 5), (16, 6, 2), (16, 8, 1), (17, 2, 5), (17, 17, 20),
        (18, 4, 1), (18, 8, 1), (18, 10, 3), (18, 13, 6), (19, 6, 1),
    ],
)  # fmt: skip
"""`bench/solve.py`'s sparse 20x20, seed 2: neither search decides it within 30 s."""


def test_a_search_with_a_solution_by_then_goes_on_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `FINDER_AFTER` nodes, a search that has found a solution keeps searching alone,
    with no node limit, and lists what the depth-first search lists."""
    monkeypatch.setattr(native, "FINDER_AFTER", 20)
    puzzle = Puzzle(5, 5, {0: 7, 24: -1})
    plain = NativeSearch(puzzle, Limit(solutions=200, seconds=60), finder=False)
    alone = NativeSearch(puzzle, Limit(solutions=200, seconds=60))
    expected = [board.black_mask for board in plain.solutions()]
    assert [board.black_mask for board in alone.solutions()] == expected
    assert alone.nodes == plain.nodes > 20 and len(alone._running) == 1
