"""The thesis's scalable families: puzzles of any size whose unique solution is known.

Owns the generators of background.md B (section 7 of the thesis), each returning a
`Family` member: the puzzle and its solution board, so that an engine can be checked
and timed on grids of any size without a search to find the answer.

- `corner_puzzle(n)`: odd n x n, a clue floor(n/2)^2 in each corner; the sea is a plus
  through the centre (middle row and middle column), the islands the four quadrants.
- `two_clue_puzzle(n)`: n x n, two clues adding up to n^2 - n in the first and last row
  of one column; the sea is the one straight row between them.
- `one_clue_lattice(rows, cols, shifted=...)`: regular patterns of 1-clues (as the
  thesis's figures 18 and 19 show such patterns; these are our own two): a 1 on every
  other cell of every other row, either in the same columns on each such row (a square
  lattice) or shifted by one column from one such row to the next (a brick pattern).
  Every other cell is sea.
- `diamond_lattice(rows, cols, radius=...)` and `merged_diamonds(rows, cols, radius=...,
  length=...)`: our own families in the spirit of the thesis's figures 18 (regular
  patterns with rotated squares) and 19 (merged clues), which we do not have: the square
  lattice of 1s with, on a regular grid, rotated squares (diamonds: the cells within
  |dr| + |dc| <= radius of a centre) in place of the 1s they cover, each one island with
  one clue; merged, each island is `length` such diamonds one diagonal step apart (a
  rotated rectangle), the neighbouring diamonds and the 1s they cover merged into one
  island whose clue is their number of cells.

Why each solution is the only one is argued in each generator's docstring; the tests
(tests/research/test_families.py) prove it with the exact solver for small sizes, and with the
brute-force oracle where tiny.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InvalidPuzzleError
from ..puzzle import Board, Puzzle

__all__ = [
    "FAMILIES",
    "Family",
    "corner_puzzle",
    "diamond_lattice",
    "merged_diamonds",
    "one_clue_lattice",
    "two_clue_puzzle",
]


@dataclass(frozen=True)
class Family:
    """One member of a family: the puzzle and its (unique) solution."""

    puzzle: Puzzle
    solution: Board


def _member(rows: int, cols: int, clues: dict[int, int], black: set[int]) -> Family:
    puzzle = Puzzle(rows, cols, clues)
    full = (1 << rows * cols) - 1
    mask = sum(1 << i for i in black)
    return Family(puzzle, Board(puzzle, mask, full & ~mask))


def corner_puzzle(n: int) -> Family:
    """The n x n puzzle (n odd, at least 3) with a clue floor(n/2)^2 in each corner.

    With m = floor(n/2), the islands need 4m^2 of the (2m + 1)^2 cells, leaving a sea of
    4m + 1. The plus through the centre (row m and column m) is a solution; the thesis
    gives it as the only one.

    Raises:
        InvalidPuzzleError: n even or below 3.
    """
    if n < 3 or n % 2 == 0:
        raise InvalidPuzzleError(f"the corner family needs an odd n of at least 3, got {n}")
    m = n // 2
    corners = (0, n - 1, (n - 1) * n, n * n - 1)
    clues = dict.fromkeys(corners, m * m)
    black = {m * n + c for c in range(n)} | {r * n + m for r in range(n)}
    return _member(n, n, clues, black)


def two_clue_puzzle(n: int, column: int = 0) -> Family:
    """The n x n puzzle (n at least 3) with two clues adding up to n^2 - n.

    With r = (n - 1) // 2, the clue r * n is in the first row and (n - 1 - r) * n in the
    last, both in `column`; the sea is row r. Why nothing else works: the n sea cells
    must be connected and split the rest into the two islands. A connected set of n
    cells that separates the first row from the last spans every column, so it is a
    straight row, and the clue sizes say which. Any other split cuts off a region
    against the border between two ends of the sea (a corner, or a bay of one side),
    which holds at most about (n - 1)^2 / 4 cells: too few for either island, each of
    which has at least r * n > (n - 1)^2 / 4 cells.

    Raises:
        InvalidPuzzleError: n below 3 or `column` off the grid.
    """
    if n < 3:
        raise InvalidPuzzleError(f"the two-clue family needs n of at least 3, got {n}")
    if not 0 <= column < n:
        raise InvalidPuzzleError(f"column {column} lies off the {n}x{n} grid")
    r = (n - 1) // 2
    clues = {column: r * n, (n - 1) * n + column: (n - 1 - r) * n}
    black = {r * n + c for c in range(n)}
    return _member(n, n, clues, black)


def one_clue_lattice(rows: int, cols: int, *, shifted: bool = False) -> Family:
    """A rows x cols grid with a 1 on every other cell of every other row (rows 0, 2, ...).

    Unshifted, the 1s sit on the even columns of every such row (a square lattice);
    shifted, on the even columns of rows 0, 4, 8, ... and the odd columns of rows 2, 6,
    ... (a brick pattern). Each island is its clue alone (1s never touch), so every other
    cell is sea; that sea is connected (the odd rows are whole lines of sea and every
    other sea cell touches one) and every 2x2 block holds a 1, so the solution is valid,
    and, the clues being all 1, it is the only one.

    Raises:
        InvalidPuzzleError: a side below 2, or (shifted) fewer than 2 columns.
    """
    if rows < 2 or cols < 2:
        raise InvalidPuzzleError(f"a 1-clue lattice needs at least 2x2, got {rows}x{cols}")
    clues = {}
    for r in range(0, rows, 2):
        offset = 1 if shifted and r % 4 == 2 else 0
        for c in range(offset, cols, 2):
            clues[r * cols + c] = 1
    black = set(range(rows * cols)) - set(clues)
    return _member(rows, cols, clues, black)


def merged_diamonds(rows: int, cols: int, *, radius: int = 1, length: int = 2) -> Family:
    """The 1-clue square lattice with merged rotated squares in place of some of its 1s.

    Our own family in the spirit of the thesis's figure 19 (merged clues; we do not have
    the figure). Each island is the union of `length` diamonds of `radius` (the cells
    within |dr| + |dc| <= radius of a centre) whose centres follow one another down a
    diagonal, (r, c), (r + 1, c + 1), ...: neighbouring rotated squares, and the 1s of
    the lattice they cover, merged into one island, a rotated rectangle, whose one clue
    (at its first centre) is its number of cells. `length` 1 is `diamond_lattice`. The
    centres have r + c of the parity of `radius`; the islands repeat every
    2 * radius + 4 + 2 * (length // 2) rows and columns, radius + 2 cells in from the top
    and left and keeping radius + 2 cells from the bottom and right (a grid too small
    for one is the plain lattice). Every even-row, even-column cell outside the islands
    holds a 1.

    The solution: the islands and the 1s white, every other cell sea. No 2x2 pool
    (every 2x2 block holds an even-even cell, white here) and no 1 next to an island (the
    islands keep radius + 2 cells from each other and from the border); the sea's
    connection is checked by the tests for every member they make.

    Why it is the only one. A cell next to a 1 is sea. A cell next to an island from
    outside is at distance radius + 1 from the island's nearest centre, so its r + c is
    odd and two of its neighbours, opposite each other, are even-even cells; at least one
    of them lies a step further out, at distance radius + 2, outside every island, so
    it holds a 1, and the cell is sea. The island is thus walled in by sea exactly
    around its shape, which holds as many cells as its clue: the island is the whole
    shape. The 1s are islands already, so every other cell belongs to no island and is
    sea. Each deduction sees only a cell's neighbours, so the argument holds at any size
    (the exact engine proves every member at its root, without branching).

    Raises:
        InvalidPuzzleError: a side below 2, a length below 1, a negative radius, or a
            radius of 0 with a length above 1 (the diamonds would not touch).
    """
    if rows < 2 or cols < 2:
        raise InvalidPuzzleError(f"a diamond lattice needs at least 2x2, got {rows}x{cols}")
    if length < 1 or radius < 0 or (radius < 1 and length > 1):
        raise InvalidPuzzleError(
            f"merged diamonds need a length of at least 1 and a radius of at least 0 (1 to merge), "
            f"got length {length} and radius {radius}"
        )
    margin = radius + 2
    island: dict[int, int] = {}
    clues: dict[int, int] = {}
    step = 2 * radius + 4 + length - length % 2
    for cy in range(margin, rows - margin - (length - 1), step):
        for cx in range(margin + radius % 2, cols - margin - (length - 1), step):
            first = cy * cols + cx
            for t in range(length):
                for r in range(cy + t - radius, cy + t + radius + 1):
                    spread = radius - abs(r - cy - t)
                    for c in range(cx + t - spread, cx + t + spread + 1):
                        island[r * cols + c] = first
            clues[first] = sum(1 for owner in island.values() if owner == first)
    for r in range(0, rows, 2):
        clues.update((r * cols + c, 1) for c in range(0, cols, 2) if r * cols + c not in island)
    return _member(rows, cols, clues, set(range(rows * cols)) - set(island) - set(clues))


def diamond_lattice(rows: int, cols: int, *, radius: int = 2) -> Family:
    """The 1-clue square lattice with rotated squares of `radius` on a regular grid.

    Our own family in the spirit of the thesis's figure 18 (regular patterns with
    rotated squares; we do not have the figure): `merged_diamonds` with `length` 1. Each
    island is one diamond, the cells within |dr| + |dc| <= radius of its clue, of
    2 * radius^2 + 2 * radius + 1 cells, one every 2 * radius + 4 rows and columns; every
    even-even cell outside them is a 1. Unique for the reason given there: every cell
    around a diamond touches a 1, so the diamond is walled in by sea and its clue fills it.

    Raises:
        InvalidPuzzleError: a side below 2 or a negative radius.
    """
    return merged_diamonds(rows, cols, radius=radius, length=1)


FAMILIES: dict[str, Callable[[int], Family]] = {
    "corner": corner_puzzle,
    "two-clue": two_clue_puzzle,
    "lattice": lambda n: one_clue_lattice(n, n),
    "brick": lambda n: one_clue_lattice(n, n, shifted=True),
    "diamond": lambda n: diamond_lattice(n, n, radius=2),
    "merged": lambda n: merged_diamonds(n, n, radius=1, length=3),
}
"""Family name -> generator of its n x n member (the corner family: odd n only)."""
