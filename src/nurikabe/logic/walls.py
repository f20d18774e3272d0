"""Perimeter arguments: the walled-in island and the perimeter budget (both tier 3).

This module owns the techniques `walled_in_island` (id ``walled-in-island``) and
`perimeter_budget` (id ``perimeter-budget``, see its docstring: the sides a connected sea
can offer bound every island's perimeter), and the arithmetic they rest on.

The walled-in island: take a 2x2 block with black cells on one diagonal and white cells
on the other::

    # A
    B #

The sea is connected, so a path of black cells joins the two black cells; closed by the
block's diagonal it is a loop, and the loop has A on one side and B on the other. So the
whole island of A or the whole island of B lies inside it, walled in by sea.

A region of n cells has a perimeter of at least 2 * ceil(2 * sqrt(n)) sides (at least
2 * (h + w) when it spans h rows and w columns). A path of L cells has 2 * L + 2 sides
not shared along the path: those facing inside are the perimeter of the walled-in
region, those facing outside the perimeter of region and path together. So a sea of S
cells can wall in n cells only if ``P(n) + P(n + S) <= 2 * S + 2``, and then only in a
box of at most ``S + 1 - P(n + S) / 2`` rows plus columns, clear of the grid's edge.
When one of the two islands is too big to be walled in, the other one is, and when
every box it could span has just enough room, it fills the cells they share.

This is the argument that solves janko 29 (a 37 and a 36 on a diagonal, 27 sea cells:
the 36 is a 6x6 square). The exact engine's C core makes the same deduction (its
``crossings`` rule). Imports `grid`, `logic.state` and `logic.steps`.
"""

from __future__ import annotations

from math import isqrt

from ..grid import Grid, bits
from .state import State
from .steps import Step, name_cells

__all__ = ["bounding_box", "enclosable", "min_perimeter", "perimeter_budget", "walled_in_island"]

MAX_BOXES = 4000
"""Most boxes examined for one island (beyond that the step is not looked for)."""


def min_perimeter(n: int) -> int:
    """The least perimeter (in cell sides) of any set of `n` cells: 2 * ceil(2 * sqrt(n))."""
    k = isqrt(4 * n)
    if k * k < 4 * n:
        k += 1
    return 2 * k


def enclosable(area: int, sea: int) -> bool:
    """Whether a path of `sea` cells between two diagonal neighbours can wall in `area` cells."""
    return sea >= 3 and min_perimeter(area) + min_perimeter(area + sea) <= 2 * sea + 2


def _region_of(state: State, cell: int) -> tuple[int, int, str] | None:
    """The white region holding `cell`: (mask, size it will have, how to name it)."""
    a = state.analysis()
    for island in a.islands:
        if island.mask >> cell & 1:
            if island.unknown_size:
                return island.mask, island.size, f"the ? at {state.grid.name(island.clue)}"
            return (
                island.mask,
                island.value,
                f"the {island.value} at {state.grid.name(island.clue)}",
            )
    for orphan in a.orphans:
        if orphan >> cell & 1:
            return (
                orphan,
                orphan.bit_count(),
                f"the white cells at {name_cells(state.grid, orphan)}",
            )
    return None


def _crossings(state: State) -> list[tuple[int, int, int]]:
    """Each 2x2 block with black on one diagonal and white on the other: (block, w1, w2)."""
    grid = state.grid
    cols = grid.cols
    black, white = state.black, state.white
    # Top-left corners of blocks: every cell but those of the last row and column.
    corners = grid.not_last_col & (grid.full >> cols)
    down = black & (black >> (cols + 1)) & (white >> 1) & (white >> cols) & corners
    up = white & (white >> (cols + 1)) & (black >> 1) & (black >> cols) & corners
    out = []
    for a in bits(down | up):
        block = grid.block(a)
        if down >> a & 1:
            out.append((block, a + 1, a + cols))
        else:
            out.append((block, a, a + cols + 1))
    return out


def _box_mask(cols: int, r0: int, r1: int, c0: int, c1: int) -> int:
    row = ((1 << (c1 - c0 + 1)) - 1) << c0
    mask = 0
    for r in range(r0, r1 + 1):
        mask |= row << (r * cols)
    return mask


def _interior(rows: int, cols: int) -> int:
    """The cells off the edge of the grid."""
    return _box_mask(cols, 1, rows - 2, 1, cols - 2) if rows > 2 and cols > 2 else 0


def _box_name(grid: Grid, box: int) -> str:
    """``r3c3-r8c8``: a box by its corners."""
    return f"{grid.name((box & -box).bit_length() - 1)}-{grid.name(box.bit_length() - 1)}"


def _taken(state: State, island: int) -> int:
    """The cells `island` can never have: black ones and those of other islands."""
    taken = state.black
    for other in state.analysis().islands:
        if other.mask != island:
            taken |= other.mask
    return taken


def walled_in_island(state: State) -> Step | None:
    """Two islands touch diagonally between two black cells: the sea walls one of them in.

    Sound: the black path joining the two black cells, closed through the block, is a
    loop with one island inside. A region of n cells has a perimeter of at least
    2 * ceil(2 * sqrt(n)), and the path's cells offer 2 * L + 2 free sides to the
    region's perimeter and to the outer perimeter of region and path together. When the
    sea is too small to wall in one island, it walls in the other: clear of the edge,
    within a box of few enough rows plus columns; when each such box has just enough
    room, the island fills the cells they all share.
    ::

        . . . . . .
        . 7 # . . .      27 sea cells cannot wall in 37 cells, so they wall in
        . # 6 . . .      the 36: a 6x6 square, r3c3-r8c8 all white
        . . . . . .
    Source: the perimeter argument setters use for puzzles like janko 29; new here.
    """
    total_white = state.total_white
    if total_white is None:
        return None
    grid = state.grid
    sea = grid.size - total_white
    # A complete island walled in would gain nothing: crossings between two are skipped.
    complete = 0
    for island in state.analysis().islands:
        if island.most == 0:
            complete |= island.mask
    for block, w1, w2 in _crossings(state):
        if complete >> w1 & complete >> w2 & 1:
            continue
        one, two = _region_of(state, w1), _region_of(state, w2)
        if one is None or two is None or one[0] == two[0]:
            continue  # the same region on both sides is a contradiction, found elsewhere
        walls = []
        for (mask, n, name), (_, m, other) in ((one, two), (two, one)):
            length = min(sea, grid.size - m)
            if not enclosable(m, length):
                walls.append((mask, n, name, other, m, length))
        if len(walls) != 1:
            continue
        mask, n, name, other, m, length = walls[0]
        limit = length + 1 - min_perimeter(n + length) // 2 if length else 0
        if mask & ~_interior(grid.rows, grid.cols):
            continue  # a contradiction (walled in yet on the edge): left to the checks
        if not any(i.mask == mask and not i.unknown_size for i in state.analysis().islands):
            continue
        taken = _taken(state, mask)
        interior = (1, grid.rows - 2, 1, grid.cols - 2)
        boxes = _tight_boxes(grid, mask, n, limit, grid.full & ~taken, interior)
        if not boxes:
            continue
        shared = grid.full
        for box in boxes:
            shared &= box
        white = shared & ~state.white & ~state.black
        if not white:
            continue
        where = "the one box with room" if len(boxes) == 1 else "every box with room"
        return Step(
            "walled-in-island",
            grid,
            white_mask=white,
            premise_mask=block | mask,
            message=(
                f"The sea must join {name_cells(grid, block & state.black)} around "
                f"{other} or {name}; its {sea} cells cannot wall in {m} cells, so they "
                f"wall in {name}, clear of the edge and within {limit} rows plus columns; "
                f"{where} ({_box_name(grid, boxes[0])}{' and others' if len(boxes) > 1 else ''})"
                f" is just big enough, so "
                f"{name_cells(grid, white)} {'are' if white & (white - 1) else 'is'} white."
            ),
        )
    return None


def _edge_lines(grid: Grid) -> list[list[int]]:
    """The grid's four edges, each as its cells in order (a corner is on two)."""
    rows, cols = grid.rows, grid.cols
    return [
        list(range(cols)),
        list(range((rows - 1) * cols, rows * cols)),
        list(range(0, rows * cols, cols)),
        list(range(cols - 1, rows * cols, cols)),
    ]


def black_edge_sides(state: State) -> int:
    """At least how many of the grid's edge sides the sea will have: one per black cell on
    each edge, and one more wherever two islands' cells meet along an edge with no black
    cell between them yet (a black cell must part them there)."""
    black = state.black
    island_of: dict[int, int] = {}
    for island in state.analysis().islands:
        for cell in bits(island.mask):
            island_of[cell] = island.clue
    total = 0
    for line in _edge_lines(state.grid):
        last = -1
        for cell in line:
            if black >> cell & 1:
                total += 1
                last = -1
            else:
                owner = island_of.get(cell, -1)
                if owner >= 0:
                    if last >= 0 and last != owner:
                        total += 1
                    last = owner
    return total


def bounding_box(grid: Grid, mask: int) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) of the cells of `mask` (not empty)."""
    cols = grid.cols
    top = ((mask & -mask).bit_length() - 1) // cols
    bottom = (mask.bit_length() - 1) // cols
    row = (1 << cols) - 1
    columns = 0
    for r in range(top, bottom + 1):
        columns |= mask >> (r * cols) & row
    return top, bottom, (columns & -columns).bit_length() - 1, columns.bit_length() - 1


def _tight_boxes(
    grid: Grid, mask: int, n: int, half: int, free: int, bounds: tuple[int, int, int, int]
) -> list[int] | None:
    """The boxes of at most `half` rows plus columns that hold `mask` and lie within
    `bounds` (top, bottom, left, right), if each has room for exactly `n` cells of `free`
    (those the island may have, its own included); None when one has more room, or when
    there are too many boxes to look at. Boxes with less room are left out."""
    cols = grid.cols
    top, bottom, left, right = bounding_box(grid, mask)
    first, last, west, east = bounds
    out: list[int] = []
    seen = 0
    for h in range(bottom - top + 1, min(last - first + 1, half - 1) + 1):
        for w in range(right - left + 1, min(east - west + 1, half - h) + 1):
            if h * w < n:
                continue
            for r0 in range(max(first, bottom - h + 1), min(top, last - h + 1) + 1):
                for c0 in range(max(west, right - w + 1), min(left, east - w + 1) + 1):
                    seen += 1
                    if seen > MAX_BOXES:
                        return None
                    box = _box_mask(cols, r0, r0 + h - 1, c0, c0 + w - 1)
                    room = (box & free).bit_count()
                    if room > n:
                        return None
                    if room == n:
                        out.append(box)
    return out


def perimeter_budget(state: State) -> Step | None:
    """The sea has too few sides to spare: an island must be the box it just fills.

    Sound: count the sides of the islands' cells. Each faces a black cell or the grid's
    edge. A connected sea of S cells has at most 2S + 2 sides not against itself (S - 1
    shared pairs at least), and each black side on the grid's edge is one of them; so if
    at least E of the edge's sides are black, the islands have at most
    (2S + 2 - E) + (edge sides - E) sides in all. Each island needs at least the least
    perimeter of its size, and at least 2 * (rows + columns) of the box its cells span
    already. What the sum leaves over bounds every island's perimeter, hence the rows plus
    columns of the box it spans; when every such box (within the island's reach) has room
    for exactly its cells, it fills the cells they share.
    ::

        9 ? ? ? ? ? 9     13 sea cells, at least 4 black edge sides (one between the
        ? ? ? ? ? ? ?     two 9s on each edge): the islands get at most 28 - 4 = 24
        ? ? ? ? ? ? ?     sides from the sea and 28 - 4 = 24 from the edge, and four 9s
        ? ? ? ? ? ? ?     need 4 x 12 = 48: none to spare. A 9 with at most 12 sides
        ? ? ? ? ? ? ?     is a 3x3 square: r1c1-r3c3 are white.
        ? ? ? ? ? ? ?
        9 ? ? ? ? ? 9
    Source: the perimeter argument of the thesis's corner family (background.md B); the
    exact engine's C core reasons the same way (its ``sides`` rule).
    """
    total_white = state.total_white
    if total_white is None:
        return None
    a = state.analysis()
    if a.clashes or any(island.most < 0 for island in a.islands):
        return None  # a contradiction, found by the checks
    grid = state.grid
    sea = grid.size - total_white
    edge = 2 * (grid.rows + grid.cols)
    black_edge = black_edge_sides(state)
    least: list[int] = []
    for island in a.islands:
        top, bottom, left, right = bounding_box(grid, island.mask)
        least.append(max(min_perimeter(island.value), 2 * (bottom - top + right - left + 2)))
    sides = (2 * sea + 2 - black_edge) + (edge - black_edge)
    need = sum(least)
    spare = sides - need
    if spare < 0:
        return None  # a contradiction too: left to the trials and the checks
    a.reach()
    for island, low in zip(a.islands, least, strict=True):
        if island.most <= 0:
            continue
        state.check_time()
        most = low + spare
        # Every completion lies within the island's reach (`Analysis.reach`).
        free = (island.allowed & island.reach) | island.mask
        span = bounding_box(grid, free)
        first, last, west, east = span
        if most // 2 >= last - first + east - west + 2 and free.bit_count() > island.value:
            continue  # the box around all it may have is within bounds and has room to spare
        boxes = _tight_boxes(grid, island.mask, island.value, most // 2, free, span)
        if not boxes:
            continue
        shared = grid.full
        for box in boxes:
            shared &= box & free
        white = shared & state.unknown
        if not white:
            continue
        name = f"the {island.value} at {grid.name(island.clue)}"
        where = "the one box with room" if len(boxes) == 1 else "every box with room"
        return Step(
            "perimeter-budget",
            grid,
            white_mask=white,
            premise_mask=island.mask | state.clue_mask,
            message=(
                f"A connected sea of {sea} cells has at most {2 * sea + 2} sides not "
                f"against itself, at least {black_edge} of them on the grid's edge: the "
                f"islands get at most {2 * sea + 2 - black_edge} sides from the sea and "
                f"{edge - black_edge} from the edge, {sides} in all, and they need at least "
                f"{need}. So {name} has at most {most} sides: it fits in a box of at most "
                f"{most // 2} rows plus columns, and {where} ({_box_name(grid, boxes[0])}"
                f"{' and others' if len(boxes) > 1 else ''}) has room for just "
                f"{island.value} cells, so {name_cells(grid, white)} "
                f"{'are' if white & (white - 1) else 'is'} white."
            ),
        )
    return None
