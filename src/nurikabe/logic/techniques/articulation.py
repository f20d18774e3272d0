"""Tier 2, articulation: cells whose color would split the sea or trap a 2x2 block.

Owns sea-articulation and pool-escape, and the cut-cell search they rest on (the
articulation points of the cells the sea may still use).

Imports `grid` (and its compiled `_cgrid`, which walks the cut cells), `logic.state`,
`logic.steps`, `logic.techniques.common` and `logic.techniques.bottlenecks` (the reach of
islands).
"""

from __future__ import annotations

from ..._cgrid import cuts
from ...grid import Grid, bits
from ..state import State
from ..steps import Step, name_cells
from .bottlenecks import _island_reaches
from .common import _memo, _step


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
    """(cells whose whitening splits the black cells, premise cells) over black+unknown.

    The cut cells of the black and unknown cells that separate a black cell from the
    highest one (Tarjan's walk, in `_cgrid.cuts`), of the unknown cells that could cut
    at all (`local_cuts`)."""
    grid = state.grid
    black = state.black
    if not black or not black & (black - 1):
        return 0, 0
    unknown = state.unknown
    domain = black | unknown
    if not local_cuts(grid, domain) & unknown:
        return 0, black
    top = black.bit_length() - 1
    return cuts(grid.rows, grid.cols, domain, black, top) & unknown, black


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


def _candidate_blocks(grid: Grid, black: int, unknown: int, covered: int) -> int:
    """The top-left corners of the 2x2 blocks pool-escape looks at, all at once (bit by
    bit in parallel): no white cell, at least two black cells, and an unknown cell some
    island reaches (`covered`). Each block's four cells are read at its corner by
    shifting the masks up and left."""
    cols = grid.cols
    corners = grid.pool_corners(black | unknown)
    a, b, c, d = black, black >> 1, black >> cols, black >> (cols + 1)
    two_black = (a & (b | c | d)) | (b & (c | d)) | (c & d)
    open_cells = unknown & covered
    reached = open_cells | open_cells >> 1 | open_cells >> cols | open_cells >> (cols + 1)
    return corners & two_black & reached


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
    for corner in bits(_candidate_blocks(grid, black, unknown, covered)):
        block = grid.block(corner)
        open_cells = block & unknown
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
            if any(_island_reaches(o, grid, bit, target, memo) for o in owners):
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
