"""Tier 2, bottlenecks: cells an island (or a stray white cell) must pass through.

Owns two-choices-border, island-bottleneck and orphan-bottleneck, and the layered
reach counts they rest on.

Imports `grid` (and its compiled `_cgrid`, which walks the layers), `logic.state`,
`logic.steps` and `logic.techniques.common`.
"""

from __future__ import annotations

from typing import cast

from ..._cgrid import bottleneck, reaches
from ...grid import Grid, bits
from ..state import Island, State
from ..steps import Step, name_cells
from .common import _cap, _clue_text, _exits, _memo, _step


def two_choices_border(state: State) -> Step | None:
    """An island lacking one cell: a cell that touches every legal option is black.

    Sound: whichever option is taken, that cell borders the complete island.
    ::

        # 2 a         a and b are the 2's options; x touches both: black
        # b x
    Source: game rules 12 and 15 (both remaining choices of an island border a cell ->
    black), blog (cell bordered by every completion), J essay ("2-clue L", ``h2ell``).
    """
    a = state.analysis()
    grid = state.grid
    for island in a.islands:
        if not island.least == island.most == 1:
            continue
        exits = _exits(a, island)
        options = [e for e in bits(exits) if not grid.neighbors[e] & state.white & ~island.mask]
        if len(options) < 2:
            continue
        common = a.unknown & ~exits
        for e in options:
            common &= grid.neighbors[e]
        if common:
            opts = 0
            for e in options:
                opts |= 1 << e
            return _step(
                state,
                "two-choices-border",
                f"{_cap(_clue_text(state, island))} lacks one cell, and every option "
                f"({name_cells(grid, opts)}) touches {name_cells(grid, common)}, so "
                f"{'they are' if common & (common - 1) else 'it is'} black.",
                black=common,
                premises=island.mask | opts,
            )
    return None


def island_bottleneck(state: State) -> Step | None:
    """A cell that every way of completing an island must pass through is white.

    Found by removing one cell at a time: if the island can then no longer collect the
    cells it lacks within reach, the cell is needed.
    ::

        # # # #
        4 ? ? ?     the 4 must pass through the first ?: white
        # # # #
    Source: blog (cell every completion of an island must use), game rule 4.
    """
    a = state.analysis()
    a.reach()
    grid = state.grid
    memo = _memo(state)
    for island in a.islands:
        need = island.least
        if need <= 0:
            continue
        # The answer depends only on the island, its reach and which cells of the reach
        # are unknown (the search never leaves the reach), so suppositions that leave
        # the island's surroundings alone reuse it.
        key = ("island-bottleneck", island.mask, need, island.reach, a.unknown & island.reach)
        c = cast("int | None", memo.get(key))
        if c is None:
            c = memo[key] = _bottleneck(grid, island, a.unknown)
        if c >= 0:
            bit = 1 << c
            return _step(
                state,
                "island-bottleneck",
                f"{_cap(_clue_text(state, island))} needs {need} more "
                f"cell{'s' if need > 1 else ''} and cannot collect them without "
                f"{grid.name(c)}, so it is white.",
                white=bit,
                premises=island.mask | (grid.border(island.reach) & state.black),
            )
    return None


def _bottleneck(grid: Grid, island: Island, unknown: int) -> int:
    """The first unknown cell without which `island` cannot collect the cells it lacks
    within reach, or -1.

    Layers of the reach by distance: removing a cell at distance d can only cost the
    cells beyond d, so a cell is a candidate only when losing it and everything beyond
    would leave fewer cells than the island lacks; each candidate is then taken out and
    the layers counted again. Walked in `_cgrid.bottleneck`."""
    geometry = (grid.not_first_col, grid.not_last_col)
    return bottleneck(island.mask, island.allowed, unknown, *geometry, island.least, grid.cols)


def _island_reaches(
    island: Island,
    grid: Grid,
    blocked: int,
    target: int,
    memo: dict[object, object] | None = None,
) -> bool:
    """Whether `island` can reach a cell of `target` avoiding `blocked`, within the cells
    it lacks (a walk in `_cgrid.reaches`).

    The search never leaves the island's reach (`Analysis.reach` must have run), so the
    answer depends only on the island, its reach and the parts of `blocked` and `target`
    inside it; with `memo` it is remembered under those."""
    if memo is not None:
        reach = island.reach
        key = ("reaches", island.mask, reach, blocked & reach, target & reach)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _island_reaches(island, grid, blocked, target)
        return bool(found)
    steps = min(island.most, grid.size)
    geometry = (grid.not_first_col, grid.not_last_col)
    return reaches(island.mask, island.allowed, blocked, target, *geometry, steps, grid.cols)


def orphan_bottleneck(state: State) -> Step | None:
    """A cell through which every island must pass to reach a clueless white cell is white.

    Sound: the white cell must join some island, and every island that can reach it
    has to use that cell.
    ::

        2 ? ? #
        # # ? .    the dot can be reached only through the ? next to it: white
    Source: task list (a white cell that must join some island through one cell), game
    rules 0 and 4, blog (one way out).
    """
    a = state.analysis()
    a.reach()
    grid = state.grid
    memo = _memo(state)
    orphans = 0
    for orphan in a.orphans:
        orphans |= orphan
    near = [i for i in a.islands if i.reach & orphans] if orphans else []
    for orphan in a.orphans:
        owners = [i for i in near if i.reach & orphan]
        exits = grid.border(orphan) & a.unknown
        if not owners or exits.bit_count() < 2:
            continue
        candidates = exits
        for owner in owners:
            candidates &= owner.reach
        for c in bits(candidates):
            bit = 1 << c
            if not any(_island_reaches(o, grid, bit, orphan, memo) for o in owners):
                premises = orphan
                for o in owners:
                    premises |= o.mask
                return _step(
                    state,
                    "orphan-bottleneck",
                    f"The white cell{'s' if orphan & (orphan - 1) else ''} at "
                    f"{name_cells(grid, orphan, limit=3)} can join an island only "
                    f"through {grid.name(c)}, so it is white.",
                    white=bit,
                    premises=premises,
                )
    return None
