"""The walled-in island (`logic.walls`): the perimeter bounds it rests on, the crossings
it starts from, and the step on the published puzzle it was made for (janko 29)."""

from __future__ import annotations

import random

import pytest

from nurikabe import Puzzle
from nurikabe.logic import State, explain
from nurikabe.logic.walls import enclosable, min_perimeter, walled_in_island

try:
    from corpus import CORPUS_PATH, corpus
except ImportError:  # pragma: no cover
    CORPUS_PATH = None

HAVE_CORPUS = CORPUS_PATH is not None and CORPUS_PATH.exists()
needs_corpus = pytest.mark.skipif(not HAVE_CORPUS, reason="corpus not present")


def _box_bound(n: int) -> int:
    """The least perimeter of a box (h rows, w columns) of at least `n` cells: a region
    of n cells has the perimeter of the box it spans at least, and the best region is
    a box with a partial row (Harary and Harborth, 1976)."""
    return min(2 * (h + -(-n // h)) for h in range(1, n + 1))


@pytest.mark.parametrize("n", range(1, 400))
def test_min_perimeter_is_the_best_box(n: int) -> None:
    assert min_perimeter(n) == _box_bound(n)


def test_min_perimeter_of_squares_and_strips() -> None:
    assert [min_perimeter(n) for n in (1, 2, 3, 4, 9, 36, 37)] == [4, 6, 8, 8, 12, 24, 26]


def test_enclosable_janko_29() -> None:
    """27 sea cells can wall in 36 cells (a 6x6 square) but not 37."""
    assert enclosable(36, 27)
    assert not enclosable(37, 27)
    # A bigger sea never walls in less, a bigger area never needs less sea.
    for area in range(1, 60):
        seas = [enclosable(area, sea) for sea in range(1, 80)]
        assert seas == sorted(seas)
    for sea in range(1, 60):
        areas = [enclosable(area, sea) for area in range(1, 80)]
        assert areas == sorted(areas, reverse=True)


def test_no_step_without_a_crossing() -> None:
    """Without a 2x2 block of black on one diagonal and white on the other, nothing to say."""
    puzzle = Puzzle.from_grid([[3, 0, 0], [0, 0, 0], [0, 0, 2]])
    assert walled_in_island(State(puzzle)) is None


def test_crossings_are_the_blocks_with_opposite_diagonals() -> None:
    """`_crossings` (mask arithmetic) lists the blocks a cell-by-cell look finds."""
    from nurikabe.logic.walls import _crossings

    rng = random.Random(4)
    puzzle = Puzzle.from_clues(5, 7, [(0, 0, 2)])
    grid = puzzle.grid
    for _ in range(300):
        black = rng.getrandbits(grid.size) & ~puzzle.clue_mask
        white = rng.getrandbits(grid.size) & ~black
        state = State(puzzle, black, white)
        expected = []
        for r in range(grid.rows - 1):
            for c in range(grid.cols - 1):
                a = r * grid.cols + c
                b, d, e = a + 1, a + grid.cols, a + grid.cols + 1
                color = [state.black >> i & 1 for i in (a, b, d, e)]
                lit = [state.white >> i & 1 for i in (a, b, d, e)]
                block = 1 << a | 1 << b | 1 << d | 1 << e
                if color[0] and color[3] and lit[1] and lit[2]:
                    expected.append((block, b, d))
                elif lit[0] and lit[3] and color[1] and color[2]:
                    expected.append((block, a, e))
        assert _crossings(state) == expected


@needs_corpus
def test_janko_29_is_solved_with_the_walled_in_island() -> None:
    """janko 29 (a 37 and a 36 on a diagonal, 27 sea cells): the walkthrough uses the
    walled-in island, and every step agrees with the published solution."""
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0029")
    walk = explain(doc.puzzle, seconds=120)
    assert walk.status == "solved" and walk.board == doc.solution
    used = [s for s in walk.steps if s.technique == "walled-in-island"]
    assert used
    for step in walk.steps:
        assert not (step.black_mask & ~doc.solution.black_mask), step.message
        assert not (step.white_mask & doc.solution.black_mask), step.message
