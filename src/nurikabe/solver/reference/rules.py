"""The reference engine's rules that read a state and nothing else, one function per rule.

Each takes masks (see `grid`) and returns the cells it decides, or raises
`Contradiction` when the state has no solution (and `sea_cut_cells`, the costliest,
raises `limits.OutOfTime` past its deadline). The rules that keep caches on the
search (islands, reach, completions) stay in `solver.reference.search`; this module owns:

- `pool_fourth_cells`: three black cells of a 2x2 block make the fourth white;
- `white_count`: with no ``?`` clue, the white cells number exactly the clue total;
- `sea_unreachable`: the sea must stay connectable, and a cell it cannot reach (within
  the cells it has left) is white;
- `orphan_exits`: a white cell without a clue must join one: one exit means grow there;
- `black_exits`: a black component with a single exit grows through it;
- `sea_cut_cells`: unknown cells whose whitening would split the sea are black (Tarjan);
- `island_cut_cells`: unknown cells an island's reach hangs on are white (Tarjan).

Imports only `grid` and `limits`.
"""

from __future__ import annotations

import time

from ...grid import Grid
from ...limits import OutOfTime

__all__ = [
    "Contradiction",
    "black_exits",
    "island_cut_cells",
    "orphan_exits",
    "pool_fourth_cells",
    "sea_cut_cells",
    "sea_unreachable",
    "white_count",
    "wide_flood",
]


class Contradiction(Exception):
    """The state has no solution."""


def wide_flood(grid: Grid, seed: int, within: int) -> int:
    """`grid.flood`, but each step also runs rightwards to the end of every row segment
    at once (an addition carries through a run of ones): far fewer steps on big regions.
    `seed` must lie in `within`."""
    nfc = grid.not_first_col
    cols = grid.cols
    full = grid.full
    first_col = grid.first_col
    runs = within & nfc
    region = seed
    front = seed
    while front:
        r = (region | ((region & first_col) << 1)) & runs
        front = (
            (
                (((runs + r) ^ runs) & runs)
                | ((front & nfc) >> 1)
                | (front >> cols)
                | ((front << cols) & full)
            )
            & within
            & ~region
        )
        region |= front
    return region


def pool_fourth_cells(black: int, unknown: int, corners: int, cols: int) -> int:
    """The unknown cells of 2x2 blocks whose other three cells are black (they are white).

    `corners` is the mask of the top-left cells of every 2x2 block.
    """
    b0 = black & corners
    b1 = (black >> 1) & corners
    b2 = (black >> cols) & corners
    b3 = (black >> (cols + 1)) & corners
    u0 = unknown & corners
    u1 = (unknown >> 1) & corners
    u2 = (unknown >> cols) & corners
    u3 = (unknown >> (cols + 1)) & corners
    return (
        (u0 & b1 & b2 & b3)
        | ((b0 & u1 & b2 & b3) << 1)
        | ((b0 & b1 & u2 & b3) << cols)
        | ((b0 & b1 & b2 & u3) << (cols + 1))
    )


def white_count(white: int, unknown: int, total: int) -> tuple[int, int]:
    """The (black, white) cells the white-cell count decides: with `total` white cells in
    every solution, the unknown cells are all black once it is reached and all white when
    they are just enough. Raises `Contradiction` past or short of it."""
    nw = white.bit_count()
    if nw >= total:
        if nw > total:
            raise Contradiction
        return unknown, 0
    nu = unknown.bit_count()
    if nw + nu <= total:
        if nw + nu < total:
            raise Contradiction
        return 0, unknown
    return 0, 0


def sea_unreachable(grid: Grid, black: int, unknown: int, spare: int | None) -> int:
    """The unknown cells the sea cannot reach from its first black cell (they are white).

    With `spare` (the sea cells left to place) a cell the sea could only join through
    more unknown cells than that cannot be black either. Raises `Contradiction` when a
    black cell is out of reach. `black` must not be empty.
    """
    zone = wide_flood(grid, black & -black, black | unknown)
    if spare is not None:
        if spare < 0:
            raise Contradiction
        # A level-by-level search is only worth it when the zone has more unknown cells.
        if (zone & unknown).bit_count() > spare:
            zone = black & -black
            for _ in range(spare + 1):
                zone = wide_flood(grid, zone, zone | black)
                front = grid.dilate(zone) & unknown & ~zone
                if not front:
                    break
                zone |= front
            else:
                zone &= ~front
    if zone & black != black:
        raise Contradiction
    return unknown & ~zone


def orphan_exits(grid: Grid, orphan: int, unknown: int) -> tuple[list[int], int]:
    """The components of the white cells without a clue (`orphan`), and the cells they must
    grow through (their single exit). Raises `Contradiction` for one with no exit."""
    orphans: list[int] = []
    grow = 0
    rest = orphan
    while rest:
        part = grid.flood(rest & -rest, orphan)
        rest &= ~part
        orphans.append(part)
        out = grid.dilate(part) & unknown
        if not out:
            raise Contradiction
        if not out & (out - 1):
            grow |= out
    return orphans, grow


def black_exits(
    grid: Grid,
    black: int,
    unknown: int,
    previous: int,
    parts: list[int],
    around: dict[int, int],
) -> tuple[int, list[int], int]:
    """The black cells of single exits of black components, with the components kept.

    `parts` are the black components of the ancestor state whose black mask was
    `previous` (-1: none): black cells only get added, so only components touching new
    black cells are flooded again, and each replaces the old ones it swallowed.
    `around` caches each component's dilation. Returns the black mask the components
    are of, the components, and the exits (the cut cells of the sea find these too, but
    only at search nodes).
    """
    if previous < 0:
        rest = black
        parts = []
    else:
        rest = black & ~previous
    grown = 0
    fresh = []
    while rest:
        part = wide_flood(grid, rest & -rest, black)
        rest &= ~part
        grown |= part
        fresh.append(part)
    if fresh:
        parts = [part for part in parts if not part & grown]
        parts.extend(fresh)
    exits = 0
    if len(parts) > 1:
        for part in parts:
            ring = around.get(part)
            if ring is None:
                ring = around[part] = grid.dilate(part)
            out = ring & unknown
            if not out & (out - 1):
                exits |= out
    return black, parts, exits


def sea_cut_cells(grid: Grid, black: int, unknown: int, deadline: float | None) -> int:
    """The unknown cells whose removal would cut black cells apart (Tarjan's method).

    Depth-first search over the black and unknown cells from a black cell; an unknown
    cell is a cut cell when some child subtree that only reaches back through it holds
    some but not all of the black cells. Raises `OutOfTime` past `deadline`.
    """
    nbrs = grid.neighbors
    area = black | unknown
    root = (black & -black).bit_length() - 1
    total = black.bit_count()
    disc = [0] * grid.size
    low = [0] * grid.size
    below = [0] * grid.size  # black cells in the subtree
    disc[root] = low[root] = 1
    below[root] = 1
    counter = 1
    cut = 0
    stack = [(root, nbrs[root] & area)]
    while stack:
        v, rest = stack[-1]
        if rest:
            w_bit = rest & -rest
            stack[-1] = (v, rest ^ w_bit)
            w = w_bit.bit_length() - 1
            if disc[w]:
                if disc[w] < low[v]:
                    low[v] = disc[w]
                continue
            counter += 1
            disc[w] = low[w] = counter
            below[w] = black >> w & 1
            stack.append((w, nbrs[w] & area))
            continue
        stack.pop()
        if not stack:
            break
        u = stack[-1][0]
        if low[v] < low[u]:
            low[u] = low[v]
        below[u] += below[v]
        if low[v] >= disc[u] and 0 < below[v] < total and unknown >> u & 1:
            cut |= 1 << u
        if deadline is not None and counter & 1023 == 0 and time.perf_counter() > deadline:
            raise OutOfTime
    return cut


def island_cut_cells(grid: Grid, reach: int, comp: int, unknown: int, size: int) -> int:
    """The unknown cells of `reach` without which fewer than `size` cells of it stay
    connected to island `comp` (Tarjan's method, counting the cells each cut-off
    subtree holds); the island must take each of them.
    """
    nbrs = grid.neighbors
    root = (comp & -comp).bit_length() - 1
    total = reach.bit_count()
    disc = [0] * grid.size
    low = [0] * grid.size
    below = [0] * grid.size  # cells in the subtree
    lost = [0] * grid.size  # cells cut off from the root by this cell
    disc[root] = low[root] = 1
    below[root] = 1
    counter = 1
    must = 0
    stack = [(root, nbrs[root] & reach)]
    while stack:
        v, rest = stack[-1]
        if rest:
            w_bit = rest & -rest
            stack[-1] = (v, rest ^ w_bit)
            w = w_bit.bit_length() - 1
            if disc[w]:
                if disc[w] < low[v]:
                    low[v] = disc[w]
                continue
            counter += 1
            disc[w] = low[w] = counter
            below[w] = 1
            lost[w] = 0
            stack.append((w, nbrs[w] & reach))
            continue
        stack.pop()
        if lost[v] and total - 1 - lost[v] < size and unknown >> v & 1:
            must |= 1 << v
        if not stack:
            break
        u = stack[-1][0]
        if low[v] < low[u]:
            low[u] = low[v]
        below[u] += below[v]
        if low[v] >= disc[u]:
            lost[u] += below[v]
    return must
