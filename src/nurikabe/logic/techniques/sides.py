"""The sea's free sides: a global count of perimeter against the grid's edge (tier 4).

This module owns the technique `sea_sides` (id ``sea-sides``) and the counting it rests
on. It is the argument of the exact engine's ``sides`` rule (src/nurikabe/solver/
_csolve.c), written again here so that each step can be worded for a person.

The count. Every side of a black cell faces another black cell, an island or the
grid's edge. A connected sea of S cells shares at least S - 1 sides within itself, so
its cells show at most 2S + 2 sides to the islands and to the edge. Call an island's
perimeter p and the sides of it that lie on the grid's edge b: the sea shows p - b
sides to it, and the edge sides no island covers, 2(R + C) - (the islands' b), are the
sea's. Adding up::

    sum over the islands of (p - 2b)  <=  2S + 2 - 2(R + C)

On a sparse grid (few, big islands, a small sea) the right-hand side is small or
negative: the islands must hug the edge. An island spanning h rows and w columns has
p >= 2(h + w), and b is at most the edge cells it may have in reach of its box (its
cells on the edge form one unbroken arc: two arcs would cut the sea in two). Each
island's least p - 2b, added up, leaves a *slack*; an island may not spend more than
the slack beyond its own least. That decides three kinds of cell:

- a cell whose joining would widen the island's box past the slack is black;
- an edge cell the island must keep, or its arc along the edge would be too short,
  is white;
- an island that cannot widen its box at all, with just room in it, fills it.

The exact engine also keeps the weaker count with p - b (the sea's edge sides bounded
from below); a person gets the same deductions on the thesis's families from the first
one, so the technique uses only that one.

Imports `grid`, `logic.state`, `logic.steps` and `logic.walls`.
"""

from __future__ import annotations

from functools import cache

from ...grid import Grid, bits
from ..state import Island, State
from ..steps import Step, name_cells
from ..walls import bounding_box, min_perimeter
from .common import _is, _step

__all__ = ["SIDES_AREA", "SIDES_SPARSE", "sea_sides"]

SIDES_AREA = 8
"""Islands of fewer cells count with the bound that holds anywhere on the grid and are
not grown by the technique (as in the C core)."""

SIDES_SPARSE = 12
"""The technique looks only at grids whose islands have at least this many cells on
average: on denser grids the slack is far too big to decide anything (the C core's
gate, measured there)."""

_Box = tuple[int, int, int, int]
"""(top, bottom, left, right), 0-based and inclusive."""


@cache
def _ring(grid: Grid) -> tuple[int, ...]:
    """The cells of the grid's edge in order round it (clockwise from r1c1)."""
    rows, cols = grid.rows, grid.cols
    ring = list(range(cols))
    ring += [r * cols + cols - 1 for r in range(1, rows)]
    ring += [(rows - 1) * cols + c for c in range(cols - 2, -1, -1)]
    ring += [r * cols for r in range(rows - 2, 0, -1)]
    return tuple(ring)


def _edge_sides(grid: Grid, cell: int) -> int:
    r, c = grid.coords(cell)
    return (r == 0) + (r == grid.rows - 1) + (c == 0) + (c == grid.cols - 1)


@cache
def _free_excess(rows: int, cols: int, area: int) -> int:
    """The least p - 2b of an island of `area` cells anywhere on a rows x cols grid."""
    best = 1 << 30
    for h in range(1, min(rows, area) + 1):
        for w in range((area + h - 1) // h, min(area - h + 1, cols) + 1):
            p = max(2 * (h + w), min_perimeter(area))
            b = (2 if h == rows else 1) * w + (2 if w == cols else 1) * h
            best = min(best, p - 2 * b)
    return best


def _box_mask(cols: int, box: _Box) -> int:
    top, bottom, left, right = box
    row = ((1 << (right - left + 1)) - 1) << left
    mask = 0
    for r in range(top, bottom + 1):
        mask |= row << (r * cols)
    return mask


def _box_name(grid: Grid, box: _Box) -> str:
    return f"{grid.name(grid.cell(box[0], box[2]))}-{grid.name(grid.cell(box[1], box[3]))}"


class _Edges:
    """For one island: the edge cells it may have (`open`), and the most sides on the
    edge it may have (`cap`). Its cells on the edge form one arc, so they lie in one run
    of cells it may have: the run holding its edge cells, or the longest."""

    def __init__(self, grid: Grid, ring: tuple[int, ...], barred: int, own: int) -> None:
        self.grid = grid
        self.ring = ring
        self.open = 0
        self.cap = 2 * (grid.rows + grid.cols)
        self.run: list[int] = []
        """The positions of the island's run in `ring` (empty: no cell barred)."""
        self.broken = False
        """Its edge cells lie in two runs (a contradiction, left to the checks)."""
        n = len(ring)
        start = next((j for j in range(n) if barred >> ring[j] & 1), -1)
        if start < 0:
            self.open = sum(1 << v for v in ring)
            return
        runs: list[list[int]] = []
        current: list[int] = []
        for t in range(1, n + 1):
            pos = (start + t) % n
            if t == n or barred >> ring[pos] & 1:
                if current:
                    runs.append(current)
                current = []
            else:
                current.append(start + t)
        mine = [run for run in runs if any(own >> ring[p % n] & 1 for p in run)]
        if len(mine) > 1:
            self.broken = True
            return
        if mine:
            self.run = mine[0]
            chosen = [self.run]
        else:
            chosen = runs
        self.cap = max((self._sides(run) for run in chosen), default=0)
        for run in chosen:
            for p in run:
                self.open |= 1 << ring[p % n]

    def _sides(self, run: list[int]) -> int:
        n = len(self.ring)
        return sum(_edge_sides(self.grid, self.ring[p % n]) for p in run)

    def truncated(self, keep: list[int]) -> _Edges:
        """These edges with the island's run cut down to the positions `keep`."""
        other = _Edges.__new__(_Edges)
        other.grid, other.ring, other.run, other.broken = self.grid, self.ring, keep, False
        n = len(self.ring)
        other.open = sum(1 << self.ring[p % n] for p in keep)
        other.cap = self._sides(keep)
        return other


def _room(grid: Grid, open_: int, side: int, lo: int, hi: int) -> int:
    """Edge cells open to the island along one edge (0 top, 1 bottom, 2 left, 3 right)
    between positions lo and hi (clipped)."""
    length = grid.cols if side < 2 else grid.rows
    lo, hi = max(lo, 0), min(hi, length - 1)
    count = 0
    for j in range(lo, hi + 1):
        cell = (
            j
            if side == 0
            else (grid.rows - 1) * grid.cols + j
            if side == 1
            else j * grid.cols
            if side == 2
            else j * grid.cols + grid.cols - 1
        )
        count += open_ >> cell & 1
    return count


@cache
def _lines(grid: Grid) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The masks of the grid's columns and rows."""
    cols = tuple(sum(1 << (r * grid.cols + c) for r in range(grid.rows)) for c in range(grid.cols))
    rows = tuple(((1 << grid.cols) - 1) << (r * grid.cols) for r in range(grid.rows))
    return cols, rows


def _prefix(flags: list[bool]) -> list[int]:
    out = [0]
    for flag in flags:
        out.append(out[-1] + flag)
    return out


class _Lines:
    """Per column and per row of the grid, for one island: whether its end cells on the
    edge are open to it, and whether it may have the whole line (prefix sums)."""

    def __init__(self, grid: Grid, open_: int, may: int) -> None:
        rows, cols = grid.rows, grid.cols
        col_masks, row_masks = _lines(grid)
        last = (rows - 1) * cols
        top = [bool(open_ >> c & 1) for c in range(cols)]
        bottom = [bool(open_ >> (last + c) & 1) for c in range(cols)]
        left = [bool(open_ >> (r * cols) & 1) for r in range(rows)]
        right = [bool(open_ >> (r * cols + cols - 1) & 1) for r in range(rows)]
        self.top, self.bottom = _prefix(top), _prefix(bottom)
        self.either_col = _prefix([a or b for a, b in zip(top, bottom, strict=True)])
        self.left, self.right = _prefix(left), _prefix(right)
        self.either_row = _prefix([a or b for a, b in zip(left, right, strict=True)])
        self.full_col = _prefix(
            [top[c] and bottom[c] and col_masks[c] & may == col_masks[c] for c in range(cols)]
        )
        self.full_row = _prefix(
            [left[r] and right[r] and row_masks[r] & may == row_masks[r] for r in range(rows)]
        )


def _count(prefix: list[int], lo: int, hi: int) -> int:
    lo, hi = max(lo, 0), min(hi, len(prefix) - 2)
    return prefix[hi + 1] - prefix[lo] if lo <= hi else 0


def _line_excess(grid: Grid, box: _Box, h: int, w: int, area: int, lines: _Lines | None) -> int:
    """A lower bound of p - 2b, line by line, for an island of `area` cells spanning h rows
    and w columns round `box`: in each of its columns the top and bottom ends of its
    cells there (two sides at least) each lie on the edge (-1) or face a cell not its
    own (+1). Both ends lie on the edge only for a whole column (as many cells as the
    grid has rows); a column with one end on the edge counts 0, one with none counts 2
    or more. The same holds row by row."""
    rows, cols = grid.rows, grid.cols
    top, bottom, left, right = box
    if lines is None:
        return 2 * (h + w)
    clo, chi = right - w + 1, left + w - 1
    rlo, rhi = bottom - h + 1, top + h - 1
    up, down = bottom <= h - 1, top >= rows - h
    west, east = right <= w - 1, left >= cols - w
    if up and down:
        touch_cols = _count(lines.either_col, clo, chi)
    elif up:
        touch_cols = _count(lines.top, clo, chi)
    elif down:
        touch_cols = _count(lines.bottom, clo, chi)
    else:
        touch_cols = 0
    if west and east:
        touch_rows = _count(lines.either_row, rlo, rhi)
    elif west:
        touch_rows = _count(lines.left, rlo, rhi)
    elif east:
        touch_rows = _count(lines.right, rlo, rhi)
    else:
        touch_rows = 0
    full_cols = min(w, _count(lines.full_col, clo, chi)) if h == rows else 0
    full_rows = min(h, _count(lines.full_row, rlo, rhi)) if w == cols else 0
    best = 1 << 30
    for fc in range(full_cols + 1):
        for fr in range(full_rows + 1):
            if fc * rows + fr * cols - fc * fr > area:
                break
            tc = min(w - fc, touch_cols - fc)
            tr = min(h - fr, touch_rows - fr)
            value = -2 * fc + 2 * (w - fc - tc) - 2 * fr + 2 * (h - fr - tr)
            best = min(best, value)
    return best


def _excess(grid: Grid, box: _Box, area: int, edges: _Edges | None, black: int, may: int) -> int:
    """The least p - 2b over the islands of `area` cells whose box holds `box` (of cells
    of `may`): the larger of two bounds, the box's (p >= 2(h + w), b at most the open
    edge cells in reach) and the lines' (`_line_excess`)."""
    rows, cols = grid.rows, grid.cols
    top, bottom, left, right = box
    best = 1 << 30
    bh, bw = bottom - top + 1, right - left + 1
    lines = None if edges is None else _Lines(grid, edges.open, may)
    for h in range(bh, min(rows, area) + 1):
        for w in range(max((area + h - 1) // h, bw), min(area - h + 1, cols) + 1):
            if h == bh and w == bw:
                room = h * w - (_box_mask(cols, box) & black).bit_count()
                if room < area:
                    continue
            p = max(2 * (h + w), min_perimeter(area))
            b = 0
            if edges is not None:
                lo, hi = right - w + 1, left + w - 1
                up = min(w, _room(grid, edges.open, 0, lo, hi)) if bottom <= h - 1 else 0
                down = min(w, _room(grid, edges.open, 1, lo, hi)) if top >= rows - h else 0
                vert = up + down if h == rows else max(up, down)
                lo, hi = bottom - h + 1, top + h - 1
                west = min(h, _room(grid, edges.open, 2, lo, hi)) if right <= w - 1 else 0
                east = min(h, _room(grid, edges.open, 3, lo, hi)) if left >= cols - w else 0
                horiz = west + east if w == cols else max(west, east)
                b = min(vert + horiz, edges.cap)
            bound = max(p - 2 * b, _line_excess(grid, box, h, w, area, lines))
            best = min(best, bound)
    return best


def _near_edge(grid: Grid, box: _Box, area: int) -> bool:
    top, bottom, left, right = box
    return (
        top < area or left < area or grid.rows - 1 - bottom < area or grid.cols - 1 - right < area
    )


def _barred(state: State, island: Island) -> int:
    """Cells the island may never have: black, another island's or next to one."""
    return state.black | (state.grid.full & ~island.allowed & ~island.mask)


def sea_sides(state: State) -> Step | None:
    """Count the sides the sea can show: an island that would need more is held in check.

    Sound: every side of a black cell faces the sea, an island or the grid's edge, and a
    connected sea of S cells shares at least S - 1 sides within itself, so it shows at
    most 2S + 2 sides to the islands and the edge. With p an island's perimeter and b
    its sides on the edge, the islands' p - 2b add up to at most 2S + 2 - 2(R + C). An
    island spanning h rows and w columns has p >= 2(h + w), and its cells on the edge
    form one arc (two arcs would cut the sea in two), so b is at most the edge cells it
    may have in reach of its box. Each island's least p - 2b, added up, leaves a slack
    no island can exceed: a cell that would widen an island's box too much is black, an
    edge cell without which its arc is too short is white, and an island that cannot
    widen its box, with just room in it, fills it.
    ::

        21 . . . . . .     a sea of 7 cells shows at most 16 sides; the edge has 28,
        .  . . . . . .     so the two 21s' p - 2b add up to at most -12. A 21 in a
        .  . . . . . .     3x7 box along three edges has p - 2b = 20 - 26 = -6, and
        .  . . . . . .     no other shape does as well: each 21 needs its whole
        .  . . . . . .     edge row and three cells down each side, so r1c2-r1c7,
        .  . . . . . .     r2c1, r3c1, r2c7 and r3c7 are white (then the box fills).
        21 . . . . . .
    Source: the thesis's two-clue and corner families (background.md B), whose unique
    solutions rest on it; the exact engine's C core proves them with its ``sides`` rule.
    """
    total_white = state.total_white
    if total_white is None:
        return None
    grid = state.grid
    rows, cols = grid.rows, grid.cols
    if rows < 2 or cols < 2:
        return None
    a = state.analysis()
    if a.clashes or not a.islands:
        return None
    if total_white < SIDES_SPARSE * len(state.values):
        return None
    sea = grid.size - total_white
    budget = 2 * sea + 2 - 2 * (rows + cols)
    ring = _ring(grid)
    black = state.black
    infos: list[tuple[Island, _Box, _Edges | None, int, int]] = []
    total = 0
    for island in a.islands:
        if island.most < 0:
            return None  # too big: a contradiction, found by the checks
        state.check_time()
        box = bounding_box(grid, island.mask)
        may = island.allowed | island.mask
        edges = None
        if island.value < SIDES_AREA:
            ex = _free_excess(rows, cols, island.value)
        else:
            if _near_edge(grid, box, island.value):
                edges = _Edges(grid, ring, _barred(state, island), island.mask)
                if edges.broken:
                    return None
            ex = _excess(grid, box, island.value, edges, black, may)
            if ex >= 1 << 30:
                return None  # no box holds the island: a contradiction
        infos.append((island, box, edges, ex, may))
        total += ex
    slack = budget - total
    if slack < 0:
        return None  # a contradiction: left to the checks and the trials

    def lead(island: Island, ex: int) -> str:
        return (
            f"A connected sea of {sea} cells shows at most {2 * sea + 2} sides to the "
            f"islands and the grid's edge, which has {2 * (rows + cols)}: so the islands' "
            f"perimeters less twice their sides on the edge add up to at most {budget}. "
            "Counting each column's two ends and each row's two ends of an island (-1 on "
            "the edge, +1 facing the sea; both on the edge only for a whole line), the other "
            f"islands count at least {total - ex}, so the {island.value} at "
            f"{grid.name(island.clue)} may count at most {ex + slack}"
        )

    premises = state.clue_mask
    for island, box, edges, ex, may in infos:
        if island.most == 0 or island.value < SIDES_AREA:
            continue
        state.check_time()
        # An edge cell the island's arc must keep (the arc of its edge cells may not be
        # cut short), then a box it cannot leave, then cells that would widen it.
        if edges is not None and edges.run:
            white = _arc_cells(state, island, box, edges, ex, slack, may)
            if white:
                return _step(
                    state,
                    "sea-sides",
                    f"{lead(island, ex)}; its cells on the edge form one unbroken arc, and "
                    f"without {name_cells(grid, white)} that arc is too short for a count "
                    f"so low, so {name_cells(grid, white)} {_is(white)} white.",
                    white=white,
                    premises=premises | island.mask,
                )
        over = []
        top, bottom, left, right = box
        for wider in (
            (top - 1, bottom, left, right),
            (top, bottom + 1, left, right),
            (top, bottom, left - 1, right),
            (top, bottom, left, right + 1),
        ):
            t, b, lt, rt = wider
            fits = (
                t >= 0
                and b < rows
                and lt >= 0
                and rt < cols
                and (b - t) + (rt - lt) + 1 <= island.value
            )
            over.append(
                not fits or _excess(grid, wider, island.value, edges, black, may) - ex > slack
            )
        inside = _box_mask(cols, box)
        if all(over):
            room = inside & (island.allowed | island.mask)
            if room.bit_count() == island.value:
                white = room & state.unknown
                if white:
                    return _step(
                        state,
                        "sea-sides",
                        f"{lead(island, ex)}: it cannot grow out of its box "
                        f"{_box_name(grid, box)} without counting more, and the box has room "
                        f"for just {island.value} cells, so {name_cells(grid, white)} "
                        f"{_is(white)} white.",
                        white=white,
                        premises=premises | island.mask,
                    )
        if not any(over):
            continue
        black_cells = 0
        for cell in bits(island.border):
            r, c = grid.coords(cell)
            d = 0 if r < top else 1 if r > bottom else 2 if c < left else 3 if c > right else -1
            if d >= 0 and over[d]:
                black_cells |= 1 << cell
        if black_cells:
            return _step(
                state,
                "sea-sides",
                f"{lead(island, ex)}: taking {name_cells(grid, black_cells)} would widen its "
                f"box {_box_name(grid, box)} so that it counts more, so "
                f"{name_cells(grid, black_cells)} {_is(black_cells)} black.",
                black=black_cells,
                premises=premises | island.mask,
            )
    return None


def _arc_cells(
    state: State, island: Island, box: _Box, edges: _Edges, ex: int, slack: int, may: int
) -> int:
    """Unknown edge cells of the island's run that it must have: those between two of
    its edge cells, and those whose blackening cuts its arc so short that it needs more
    than the slack allows (a shorter arc only needs more, so a binary search finds the
    first cut the slack allows on each side)."""
    grid = state.grid
    ring = edges.ring
    n = len(ring)
    run = edges.run
    own = [k for k, p in enumerate(run) if island.mask >> ring[p % n] & 1]
    if not own:
        return 0
    first, last = own[0], own[-1]
    black = state.black

    def fits(lo: int, hi: int) -> bool:
        cut = edges.truncated(run[lo:hi])
        return _excess(grid, box, island.value, cut, black, may) - ex <= slack

    need = 0
    for k in range(first + 1, last):
        need |= 1 << ring[run[k] % n]
    # the first end after `last` at which a cut is allowed
    lo, hi = last + 1, len(run)
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(0, mid):
            hi = mid
        else:
            lo = mid + 1
    for k in range(last + 1, lo):
        need |= 1 << ring[run[k] % n]
    # the last start before `first` at which a cut is allowed
    lo, hi = -1, first - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid + 1, len(run)):
            lo = mid
        else:
            hi = mid - 1
    for k in range(lo + 1, first):
        need |= 1 << ring[run[k] % n]
    return need & state.unknown
