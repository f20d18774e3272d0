"""Island shapes against the thesis's figure 8, an independent set-growing count, and OEIS facts."""

from __future__ import annotations

import pytest

from nurikabe.cli import main
from nurikabe.research.shapes import (
    THESIS_TABLE,
    ShapeError,
    shape_counts,
    shape_counts_python,
)
from tests.processes import assert_ctrl_c_stops

# Fixed polyominoes of k cells, k = 1..14 (a published fact: OEIS A001168).
FIXED = [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446, 135268, 505861, 1903890, 7204874]


def test_thesis_table() -> None:
    table = shape_counts(9)
    assert tuple(t.free for t in table) == THESIS_TABLE["free"]
    assert tuple(t.corner for t in table) == THESIS_TABLE["corner"]
    walls = [t.wall for t in table]
    published = list(THESIS_TABLE["wall"])
    # Every wall entry agrees but k = 8, where the thesis prints 5,094.
    assert walls[:7] == published[:7] and walls[8] == published[8]
    assert (walls[7], published[7]) == (5046, 5094)


def test_compiled_equals_set_growing() -> None:
    assert shape_counts(9) == shape_counts_python(9)


def test_fixed_polyominoes_to_14() -> None:
    table = shape_counts(14)
    assert [t.fixed for t in table] == FIXED
    assert all(t.corner <= t.wall <= t.free for t in table)


def test_wall_by_placing_on_a_grid() -> None:
    """The wall and corner counts by a direct search of islands through a cell on a grid."""
    for k in range(1, 7):
        rows, cols = k, 2 * k + 1
        wall = _islands_through(rows, cols, (0, k), k)
        corner = _islands_through(rows, cols, (0, 0), k)
        t = shape_counts(k)[-1]
        assert (wall, corner) == (t.wall, t.corner)


def _islands_through(rows: int, cols: int, start: tuple[int, int], k: int) -> int:
    found: set[frozenset[tuple[int, int]]] = set()

    def grow(cells: frozenset[tuple[int, int]]) -> None:
        if cells in found:
            return
        found.add(cells)
        if len(cells) == k:
            return
        for r, c in cells:
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb not in cells:
                    grow(cells | {nb})

    grow(frozenset({start}))
    return sum(1 for cells in found if len(cells) == k)


def test_bad_sizes_and_cli(capsys) -> None:
    for bad in (0, 21):
        with pytest.raises(ShapeError):
            shape_counts(bad)
    assert main(["research", "shapes", "--max", "4", "--json"]) == 0
    assert '"wall": [1, 3, 10, 33]' in capsys.readouterr().out
    assert main(["research", "shapes", "--max", "30"]) == 2


def test_shapes_stop_at_ctrl_c() -> None:
    """The compiled shape count runs Python's signal handlers as it goes: the count to
    20 cells (minutes) ends within a second of Ctrl-C."""
    assert_ctrl_c_stops("from nurikabe.research import _cenum\n_cenum.shapes(20)\n")
