"""The island-expansion engine (`expand`) against the default engine and the brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe import Limit, Puzzle, count_solutions, solve
from nurikabe.solver.expand import ExpandError
from tests.bruteforce import black_masks


@st.composite
def small_puzzles(draw) -> Puzzle:
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 5))
    cells = draw(
        st.lists(
            st.integers(0, rows * cols - 1), min_size=1, max_size=min(5, rows * cols), unique=True
        )
    )
    values = draw(
        st.lists(st.integers(1, min(6, rows * cols)), min_size=len(cells), max_size=len(cells))
    )
    return Puzzle.from_clues(
        rows, cols, [(c // cols, c % cols, v) for c, v in zip(cells, values, strict=True)]
    )


@settings(max_examples=150, deadline=None)
@given(small_puzzles())
def test_counts_equal_default_engine(puzzle: Puzzle) -> None:
    everything = Limit(solutions=None, seconds=30)
    mine = count_solutions(puzzle, engine="expand", limit=everything, keep=None)
    theirs = count_solutions(puzzle, limit=everything, keep=None)
    assert mine.complete and theirs.complete
    assert mine.count == theirs.count
    black = {b.black_mask for b in mine.solutions}
    assert black == {b.black_mask for b in theirs.solutions}
    if puzzle.rows * puzzle.cols <= 12:
        assert black == black_masks(puzzle)


def test_corpus_like_puzzle_and_solve_api() -> None:
    p = Puzzle.from_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    r = solve(p, engine="expand")
    assert r.status.name == "UNIQUE" and r.stats.engine == "expand"
    assert r.solution == solve(p).solution


def test_start_board_and_limits() -> None:
    p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    assert count_solutions(p, engine="expand").count == 2
    one = count_solutions(p).solutions[0]
    assert one is not None
    start = p.empty_board()
    start.black_mask |= one.black_mask & -one.black_mask  # one black cell given
    counted = count_solutions(p, engine="expand", start=start)
    assert counted.count == count_solutions(p, start=start).count
    r = count_solutions(p, engine="expand", limit=Limit(solutions=1))
    assert (r.count, r.complete, r.limit_hit) == (1, False, "solutions")
    big = Puzzle.from_grid(
        [[9, 0, 0, 0, 0, 0], [0] * 6, [0] * 6, [0] * 6, [0] * 6, [0, 0, 0, 0, 0, 9]]
    )
    r = count_solutions(big, engine="expand", limit=Limit(solutions=None, nodes=500))
    assert not r.complete and r.limit_hit == "nodes"
    r = count_solutions(big, engine="expand", limit=Limit(solutions=None, seconds=0))
    assert not r.complete and r.limit_hit == "seconds"


def test_unknown_clues_refused() -> None:
    p = Puzzle.from_clues(2, 2, [(0, 0, -1)])
    with pytest.raises(ExpandError):
        solve(p, engine="expand")
