"""The benchmarks' orientations (bench/orientations.py) and the native engine on them.

`bench/tail.py --orientations` and `bench/logic.py --orientations` run every corpus
puzzle turned and mirrored in all 8 ways, as a stand-in for puzzles we do not have. The
turned solution must be a solution of the turned puzzle (else those benchmarks would
count right answers as wrong), the 8 orientations must be the 8 symmetries of the
rectangle, and the native engine, whose probe order depends on how the cells are
numbered, must prove every turned puzzle unique with the turned solution.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nurikabe import Limit, Status, check, solve
from tests.corpus import corpus, needs_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from orientations import TURNS, orient, orient_cell

SLOW = {"janko-0690", "janko-1055", "janko-1091", "janko-1108"}
"""The 2-3 s puzzles of the tail, left to `bench/tail.py --orientations`."""


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (3, 4), (5, 5), (7, 2)])
def test_orientations_are_the_rectangles_symmetries(rows: int, cols: int) -> None:
    cells = range(rows * cols)
    images = set()
    for turn in TURNS:
        moved = [orient_cell(rows, cols, cell, turn) for cell in cells]
        assert sorted(moved) == list(cells)  # a permutation of the cells
        images.add(tuple(moved))
        # the neighbours of a cell stay its neighbours
        out_cols = rows if turn & 4 else cols
        for cell in cells:
            r, c = divmod(cell, cols)
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < rows and c + dc < cols:
                    a = divmod(moved[cell], out_cols)
                    b = divmod(moved[(r + dr) * cols + c + dc], out_cols)
                    assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    assert len(images) == (8 if rows > 1 and cols > 1 else 2 if rows * cols > 1 else 1)


@needs_corpus
def test_turned_corpus_puzzles_are_proven_with_the_turned_solution() -> None:
    docs = [d for d in corpus() if d.meta.get("id") not in SLOW and d.puzzle.area <= 400]
    for doc in docs[::25]:
        for turn in TURNS:
            puzzle, solution = orient(doc.puzzle, doc.solution, turn)
            assert solution is not None
            assert check(puzzle, solution) == [], (doc.meta.get("id"), turn)
            result = solve(puzzle, limit=Limit(solutions=2, seconds=30))
            assert result.status is Status.UNIQUE, (doc.meta.get("id"), turn)
            assert result.solution == solution, (doc.meta.get("id"), turn)
