"""A brute-force oracle for tiny puzzles, written independently of every engine and of `rules`.

It tries every black/white coloring of the grid, in row-major order, and keeps those
that obey the four rules, checked directly on (row, col) coordinates with plain
breadth-first search. Two cheap prunings keep grids of up to about 20 cells fast:
a 2x2 block is never completed black, and the number of white cells never leaves
the range the clues allow. At the end of each row, regions that can no longer grow
are checked too; a grid wider than it is tall is walked transposed, so that rows end
often (a 2x10 grid in 1/40 of the time). Nothing here uses the package's bit masks,
geometry or checker.
"""

from __future__ import annotations

import functools
from collections import deque

from nurikabe import Puzzle

Cell = tuple[int, int]


def _neighbors(rows: int, cols: int, r: int, c: int) -> list[Cell]:
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            out.append((rr, cc))
    return out


def _regions(rows: int, cols: int, cells: set[Cell]) -> list[set[Cell]]:
    seen: set[Cell] = set()
    regions = []
    for start in sorted(cells):
        if start in seen:
            continue
        region = {start}
        queue = deque([start])
        while queue:
            r, c = queue.popleft()
            for nb in _neighbors(rows, cols, r, c):
                if nb in cells and nb not in region:
                    region.add(nb)
                    queue.append(nb)
        seen |= region
        regions.append(region)
    return regions


def is_solution(puzzle: Puzzle, black: set[Cell]) -> bool:
    """Whether coloring exactly `black` black (every other cell white) solves `puzzle`."""
    rows, cols = puzzle.rows, puzzle.cols
    clues = {divmod(i, cols): v for i, v in puzzle.clues.items()}
    every = {(r, c) for r in range(rows) for c in range(cols)}
    white = every - black
    if any(cell in black for cell in clues):
        return False
    for r in range(rows - 1):
        for c in range(cols - 1):
            if {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= black:
                return False
    if len(_regions(rows, cols, black)) > 1:
        return False
    for island in _regions(rows, cols, white):
        inside = [clues[cell] for cell in island if cell in clues]
        if len(inside) != 1:
            return False
        if inside[0] != -1 and inside[0] != len(island):
            return False
    return True


def _partial_ok(
    puzzle: Puzzle, colors: dict[Cell, bool], clues: dict[Cell, int], decided: int
) -> bool:
    """Check the regions that can no longer change, after the first `decided` cells."""
    rows, cols = puzzle.rows, puzzle.cols

    def is_open(cell: Cell) -> bool:
        r, c = cell
        return r * cols + c >= decided

    for want_black in (True, False):
        cells = {cell for cell, black in colors.items() if black == want_black}
        regions = _regions(rows, cols, cells)
        for region in regions:
            touches_open = any(
                is_open(nb) for r, c in region for nb in _neighbors(rows, cols, r, c)
            )
            if want_black:
                # A black region that can no longer grow must be the whole sea.
                if not touches_open and len(regions) > 1:
                    return False
                continue
            inside = [clues[cell] for cell in region if cell in clues]
            if len(inside) > 1:
                return False
            if inside and inside[0] != -1 and len(region) > inside[0]:
                return False
            if not touches_open:
                if not inside:
                    return False
                if inside[0] != -1 and len(region) != inside[0]:
                    return False
    return True


def black_sets(puzzle: Puzzle, *, cap: int | None = None) -> list[frozenset[Cell]]:
    """The black cells of every solution (at most `cap` of them), in a fixed order."""
    if puzzle.cols > puzzle.rows:
        turned = Puzzle(
            puzzle.cols,
            puzzle.rows,
            {c * puzzle.rows + r: v for (r, c), v in _clue_cells(puzzle).items()},
        )
        return [frozenset((c, r) for r, c in black) for black in _walk(turned, cap)]
    return _walk(puzzle, cap)


def _clue_cells(puzzle: Puzzle) -> dict[Cell, int]:
    return {divmod(i, puzzle.cols): v for i, v in puzzle.clues.items()}


def _walk(puzzle: Puzzle, cap: int | None) -> list[frozenset[Cell]]:
    """`black_sets` in row-major order."""
    rows, cols = puzzle.rows, puzzle.cols
    n = rows * cols
    clues = {divmod(i, cols): v for i, v in puzzle.clues.items()}
    if any(v == -1 for v in clues.values()):
        low, high = len(clues), n
    else:
        low = high = sum(clues.values())
    order = [(r, c) for r in range(rows) for c in range(cols)]
    colors: dict[Cell, bool] = {}  # True = black
    found: list[frozenset[Cell]] = []

    def walk(k: int, whites: int) -> bool:
        """Returns False to stop early (the cap is reached)."""
        if whites > high or whites + (n - k) < low:
            return True
        if k > 0 and order[k - 1][1] == cols - 1 and not _partial_ok(puzzle, colors, clues, k):
            return True
        if k == n:
            black = frozenset(cell for cell, b in colors.items() if b)
            if is_solution(puzzle, set(black)):
                found.append(black)
                if cap is not None and len(found) >= cap:
                    return False
            return True
        r, c = order[k]
        options = [False] if (r, c) in clues else [True, False]
        for black in options:
            if (
                black
                and r > 0
                and c > 0
                and colors[(r - 1, c - 1)]
                and colors[(r - 1, c)]
                and colors[(r, c - 1)]
            ):
                continue
            colors[(r, c)] = black
            keep_going = walk(k + 1, whites + (0 if black else 1))
            del colors[(r, c)]
            if not keep_going:
                return False
        return True

    walk(0, 0)
    return found


@functools.lru_cache(maxsize=4096)
def black_masks(puzzle: Puzzle, *, cap: int | None = None) -> frozenset[int]:
    """The solutions as masks of black cells (bit ``r * cols + c``), for comparing with
    engines. Remembered per puzzle (and cap): several tests ask about the same puzzle, and
    hypothesis draws the same small ones again."""
    cols = puzzle.cols
    return frozenset(
        sum(1 << (r * cols + c) for r, c in black) for black in black_sets(puzzle, cap=cap)
    )
