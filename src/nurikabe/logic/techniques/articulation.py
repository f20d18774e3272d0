"""Tier 2, articulation: cells whose color would split the sea or trap a 2x2 block.

Owns sea-articulation and pool-escape, and the cut-cell search they rest on (the
articulation points of the cells the sea may still use).

Imports `grid`, `logic.state`, `logic.steps`, `logic.techniques.common` and
`logic.techniques.bottlenecks` (the reach of islands).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from ...grid import Grid, bits
from ..state import State
from ..steps import Step, name_cells
from .bottlenecks import _island_reaches
from .common import _memo, _step


@lru_cache(maxsize=16)
def _adjacency(grid: Grid) -> tuple[tuple[int, ...], ...]:
    """Each cell's neighbours as a tuple of cells (for walks that visit cell by cell)."""
    return tuple(tuple(bits(m)) for m in grid.neighbors)


def _flags(mask: int, size: int) -> bytes:
    """One byte per cell, ``1`` (49) where `mask` has the cell: a cheap membership test
    for cell-by-cell walks (a shift of a big mask per cell would cost its length)."""
    return bin(mask)[:1:-1].ljust(size, "0").encode()


ARTICULATION_FLOODS = 8
"""`articulations` floods once per possible cut cell up to this many, else walks the graph."""


def local_cuts(grid: Grid, domain: int) -> int:
    """The cells whose neighbours in `domain` do not all meet around them (through the
    eight cells around): only those can cut `domain` in two, since a path through any
    other cell can go around it."""
    full = grid.full
    cols = grid.cols
    n = (domain << cols) & full
    s = domain >> cols
    w = (domain << 1) & grid.not_first_col & full
    e = (domain >> 1) & grid.not_last_col
    ne = n & e & ((e << cols) & full)
    se = s & e & (e >> cols)
    sw = s & w & (w >> cols)
    nw = n & w & ((w << cols) & full)
    apart = n & e & ~(ne | (se & sw & nw))
    apart |= e & s & ~(se | (sw & nw & ne))
    apart |= s & w & ~(sw | (nw & ne & se))
    apart |= w & n & ~(nw | (ne & se & sw))
    apart |= n & s & ~((ne & se) | (nw & sw))
    apart |= e & w & ~((ne & nw) | (se & sw))
    return apart & domain


def articulations(state: State) -> tuple[int, int]:
    """(cells whose whitening splits the black cells, premise cells) over black+unknown."""
    grid = state.grid
    black = state.black
    if not black or not black & (black - 1):
        return 0, 0
    unknown = state.unknown
    domain = black | unknown
    candidates = local_cuts(grid, domain) & unknown
    if not candidates:
        return 0, black
    if candidates.bit_count() <= ARTICULATION_FLOODS:
        seed = black & -black
        # The sea's room is the flood of `domain` from the first black region.
        if state.analysis().sea_room() & black == black:
            forced = 0
            for cell in bits(candidates):
                bit = 1 << cell
                if grid.flood(seed, domain & ~bit) & black != black:
                    forced |= bit
            return forced, black
    size = grid.size
    parts = state.analysis().sea_parts()
    top = black.bit_length() - 1
    if unknown.bit_count() + len(parts) >= black.bit_count():
        # Early on, walk the cells themselves.
        cuts = _cuts(_adjacency(grid), _flags(domain, size), _flags(black, size), top)
        return cuts & unknown, black
    # Late on, walk the black regions contracted to one node each (after the cells),
    # joined through the unknown cells: whitening an unknown cell never splits a black
    # region, so the cuts are the same, and the walk visits far fewer nodes.
    cells = _adjacency(grid)
    is_unknown = _flags(unknown, size)
    adjacency: list[Sequence[int]] = [()] * (size + len(parts))
    cell = is_unknown.find(49)
    while cell >= 0:
        adjacency[cell] = [u for u in cells[cell] if is_unknown[u] == 49]
        cell = is_unknown.find(49, cell + 1)
    root = -1
    for j, part in enumerate(parts, size):
        touching = list(bits(grid.border(part) & unknown))
        adjacency[j] = touching
        for cell in touching:
            cast("list[int]", adjacency[cell]).append(j)
        if part >> top & 1:
            root = j
    inside = b"1" * len(adjacency)
    is_black = b"0" * size + b"1" * len(parts)
    return _cuts(adjacency, inside, is_black, root) & unknown, black


def _cuts(adjacency: Sequence[Sequence[int]], inside: bytes, is_black: bytes, root: int) -> int:
    """The nodes (of those flagged `inside`, `root` one of them and black) whose removal
    cuts some black node off from `root`, as a mask: Tarjan's walk, iteratively."""
    nodes = len(adjacency)
    disc = [-1] * nodes
    low = [0] * nodes
    has_black = [False] * nodes
    parent = [-1] * nodes
    next_edge = [0] * nodes
    disc[root] = 0
    has_black[root] = True
    counter = 1
    forced = 0
    # `next_edge` is where each node's neighbour list resumes.
    stack = [root]
    while stack:
        v = stack[-1]
        edges = adjacency[v]
        k = next_edge[v]
        if k < len(edges):
            next_edge[v] = k + 1
            u = edges[k]
            if inside[u] != 49:
                continue
            du = disc[u]
            if du >= 0:
                if u != parent[v] and du < low[v]:
                    low[v] = du
                continue
            disc[u] = low[u] = counter
            counter += 1
            has_black[u] = is_black[u] == 49
            parent[u] = v
            stack.append(u)
            continue
        stack.pop()
        p = parent[v]
        if p < 0:
            continue
        if low[v] < low[p]:
            low[p] = low[v]
        if has_black[v]:
            has_black[p] = True
            # Only `p` joins this subtree's black nodes to the root (outside it).
            if low[v] >= disc[p] and p != root:
                forced |= 1 << p
    return forced


def sea_articulation(state: State) -> Step | None:
    """A cell whose whitening would cut the black cells apart is black.

    Sound: the sea is connected; with that cell white, black cells on either side could
    no longer meet through black or unknown cells.
    ::

        # . .
        # ? #      white there, the two black groups could never meet: black
        . . #
    Source: blog (a cell whose whitening would split the sea -> sea), game rules 1 and 5.
    """
    a = state.analysis()
    if len(a.sea_parts()) < 2:
        return None
    forced, black = articulations(state)
    if not forced:
        return None
    cell = forced & -forced
    grid = state.grid
    return _step(
        state,
        "sea-articulation",
        f"White at {grid.name(cell.bit_length() - 1)} would cut the sea in two, so it is black.",
        black=cell,
        premises=black,
    )


def pool_escape(state: State) -> Step | None:
    """If blackening a cell leaves no way to whiten any cell of a 2x2 block, it is white.

    With the cell black, the block's other unknown cells would be out of every island's
    reach, hence black, and the block would be a pool.
    ::

        ? a ? ?        b can be reached only through a:
        # b # ?        a black -> b unreachable -> pool. So a is white.
        # # # ?
    Source: game rules 16 and 17 (a potential pool reachable only through one cell ->
    white), blog
    (two unknowns next to two sea cells, one reachable only through the other).
    """
    a = state.analysis()
    covered = a.reach()
    grid = state.grid
    black = state.black
    unknown = a.unknown
    dilate = grid.dilate
    memo = _memo(state)
    blocks = []
    region = 0
    for corner in bits(grid.pool_corners(black | unknown)):
        block = grid.block(corner)
        open_cells = block & unknown
        if (block & black).bit_count() >= 2 and open_cells & covered:
            blocks.append((corner, block, open_cells))
            region |= open_cells
    # The islands that reach any of the blocks, found in one pass (there may be many).
    near = [i for i in a.islands if i.reach & region]
    for corner, block, open_cells in blocks:
        owners = [i for i in near if i.reach & open_cells]
        candidates = (dilate(open_cells) & unknown) & ~(block & ~open_cells)
        for c in bits(candidates):
            bit = 1 << c
            target = open_cells & ~bit
            if not target:
                continue
            # An island whose reach misses the cell reaches the block as before.
            if any(not o.reach & bit and o.reach & target for o in owners):
                continue
            if any(_island_reaches(o, dilate, bit, target, grid.size, memo) for o in owners):
                continue
            premises = block & black
            for o in owners:
                premises |= o.mask
            return _step(
                state,
                "pool-escape",
                f"Black at {grid.name(c)} would leave no island able to reach "
                f"{name_cells(grid, target)}, and the 2x2 block at "
                f"{grid.name(corner)} would become a pool, so {grid.name(c)} is white.",
                white=bit,
                premises=premises,
            )
    return None
