"""Global budgets: the white and the sea cells still to come, against what needs them.

This module owns two techniques that count one color over the whole grid, tier 4 rows
of `TECHNIQUES` (a global count); switching them on changed 4 of the 650 grades of the
bundled collection (docs/grading.md, "Regrades"; docs/techniques.md, "Global budgets").

- `white_budget` (id ``white-budget``): the clues add up to W white cells, so W less
  the white cells placed are still missing. Groups of unknown cells, no two sharing a
  cell, each need one of them: the open cells of a 2x2 block with no white cell yet
  (else a pool), the open neighbours of an island that still lacks cells, those of a
  stray white region (it must join an island). When there are as many such groups as
  missing white cells, every other unknown cell is black.
- `sea_budget` (id ``sea-budget``): the sea has S = cells - W cells, so S less the black
  cells placed are still to come. Groups that each need one of them: a cell touching
  two islands, two neighbouring cells touching two different islands (both white would
  join the islands), the open neighbours of a black region smaller than the sea (the sea
  is connected). When there are as many groups as black cells to come, every other
  unknown cell is white. This is the thesis's count of the sea cells needed to keep
  islands apart (background.md B), in a form a person can check group by group.

Both need the exact total of the clues, so neither applies with ``?`` clues. The
groups are packed greedily, smallest first: any packing is a lower bound, so the
counts are sound whatever packing is found; a better one only fires more often.

Imports `grid`, `logic.state` and `logic.steps`.
"""

from __future__ import annotations

from ...grid import Grid, bits, lowest
from ..state import State
from ..steps import Step, name_cells
from .common import _is, _step

__all__ = ["sea_budget", "white_budget"]

_Group = tuple[int, str]
"""A group of unknown cells that needs a cell of one color, and why, in words."""


def _pack(groups: list[_Group]) -> list[_Group]:
    """Groups no two of which share a cell, chosen greedily (smallest first)."""
    chosen: list[_Group] = []
    used = 0
    for mask, why in sorted(groups, key=lambda g: (g[0].bit_count(), g[0] & -g[0])):
        if not mask & used:
            chosen.append((mask, why))
            used |= mask
    return chosen


def _block_name(grid: Grid, corner: int) -> str:
    return f"{grid.name(corner)}-{grid.name(corner + grid.cols + 1)}"


def _listing(chosen: list[_Group], limit: int = 4) -> str:
    items = [why for _, why in chosen]
    if len(items) > limit:
        items = [*items[: limit - 1], f"and {len(items) - limit + 1} more"]
        return "; ".join(items)
    if len(items) == 1:
        return items[0]
    return "; ".join(items[:-1]) + "; and " + items[-1]


def _n_are(n: int) -> str:
    return f"{n} {'is' if n == 1 else 'are'}"


def _count_of(n: int, color: str) -> str:
    verb = "missing" if color == "white" else "still to come"
    return f"{n} {'are' if n > 1 else 'is'} {verb}."


def _groups(chosen: list[_Group], needs: str) -> str:
    if len(chosen) == 1:
        return f"One group of unknown cells needs {needs} one: {chosen[0][1]}"
    return (
        f"These {len(chosen)} groups of unknown cells share no cell and each needs {needs} "
        f"one: {_listing(chosen)}"
    )


def white_budget(state: State) -> Step | None:
    """Count the missing white cells against the groups that each need one: the rest is black.

    Sound: the solution has exactly W white cells, W the sum of the clues, so W less the
    white cells placed, m, are still to come, each an unknown cell turning white. These
    groups of unknown cells each get at least one: a 2x2 block with no white cell (no
    pool), the unknown neighbours of an island that still lacks cells (it can grow only
    through them), and those of a stray white region (it must join an island, so one
    of them is white unless it touches no unknown cell, which is a contradiction). If k
    groups share no cell, at least k of the m cells lie in them; when k = m, all m do,
    so no unknown cell outside them is white. Does not apply with ``?`` clues.
    ::

        ? 1 ? # ?      W = 1 + 1 + 4 = 6, four white placed: 2 missing. The stray
        ? ? # . ?      white r2c4 needs a white neighbour (r1c4 is black: r2c5 or
        1 ? ? ? ?      r3c4), and the 2x2 block r3c2-r4c3 needs a white cell
        ? # # 4 ?      (r3c2 or r3c3). Two groups, no shared cell, for two cells:
                       r1c1, r1c3, r1c5, r2c1, r2c2, r3c5, r4c1 and r4c5 are black.
    Source: the global count of white cells (J essay's endgame) with the 2x2 rule.
    """
    total = state.total_white
    if total is None:
        return None
    unknown = state.unknown
    if not unknown:
        return None
    grid = state.grid
    missing = total - state.white.bit_count()
    if missing <= 0:
        return None  # all placed: `counting`; too many: a contradiction
    a = state.analysis()
    if a.clashes:
        return None
    groups: list[_Group] = []
    corners = grid.pool_corners(grid.full & ~state.white)
    for corner in bits(corners):
        block = grid.block(corner) & unknown
        if not block:
            return None  # a pool: a contradiction, left to the checks
        groups.append((block, f"the 2x2 block {_block_name(grid, corner)} (no white cell yet)"))
    for island in a.islands:
        if island.least > 0:
            if not island.border:
                return None
            groups.append(
                (
                    island.border,
                    f"the cells next to the {island.value} at {grid.name(island.clue)} "
                    f"(it lacks {island.least})",
                )
            )
    for part in a.orphans:
        around = grid.border(part) & unknown
        if not around:
            return None
        groups.append(
            (around, f"the cells next to the stray white cell {grid.name(part.bit_length() - 1)}")
        )
    if len(groups) < missing:
        return None
    chosen = _pack(groups)
    if len(chosen) != missing:
        return None
    inside = 0
    for mask, _ in chosen:
        inside |= mask
    black = unknown & ~inside
    if not black:
        return None
    return _step(
        state,
        "white-budget",
        f"The clues add up to {total} white cells and {_n_are(total - missing)} placed, so "
        f"{_count_of(missing, 'white')} {_groups(chosen, 'a white')}. So every missing white "
        f"cell lies in {'them' if missing > 1 else 'it'}, and {name_cells(grid, black)} "
        f"{_is(black)} black.",
        black=black,
        premises=state.clue_mask | inside,
    )


def sea_budget(state: State) -> Step | None:
    """Count the sea cells still to come against the groups that each need one: the rest is white.

    Sound: the sea has exactly S = cells - W cells, W the sum of the clues, so S less the
    black cells placed, m, are still to come. These groups of unknown cells each get at
    least one: a cell touching two islands (white would join them); two neighbouring
    cells, one touching an island and the other a different island (both white would
    join them); the unknown neighbours of a black region of fewer than S cells (the sea
    is connected, so it goes on through one of them). If k groups share no cell, at
    least k of the m cells lie in them; when k = m, all m do, so every unknown cell
    outside them is white. Does not apply with ``?`` clues.
    ::

        ? 3 .      W = 6 on a 3x3 grid: S = 3, two black placed, one to come.
        ? # #      r1c1 touches the 3 and r2c1 touches the lower 3: both white
        3 ? ?      would join them, so one of the two is black. That is the last
                   black cell, so r3c2 and r3c3 are white.
    Source: the thesis's minimum number of black cells needed to separate the islands
    (background.md B), counted with disjoint groups a person can check.
    """
    total = state.total_white
    if total is None:
        return None
    unknown = state.unknown
    if not unknown:
        return None
    grid = state.grid
    sea = grid.size - total
    placed = state.black.bit_count()
    left = sea - placed
    if left <= 0:
        return None  # all placed: `counting`; too many: a contradiction
    a = state.analysis()
    if a.clashes:
        return None
    groups: list[_Group] = []
    near: list[tuple[int, int]] = []
    for island in a.islands:
        near.append((island.border, island.clue))
    owner: dict[int, int] = {}
    for border, clue in near:
        for cell in bits(border):
            if cell in owner and owner[cell] != clue:
                owner[cell] = -1
            else:
                owner[cell] = clue
    for cell, clue in owner.items():
        if clue < 0:
            groups.append((1 << cell, f"{grid.name(cell)} (it touches two islands)"))
    neighbors = grid.neighbors
    for cell, clue in owner.items():
        if clue < 0:
            continue
        for other in bits(neighbors[cell] & unknown):
            if other > cell:
                theirs = owner.get(other)
                if theirs is not None and theirs >= 0 and theirs != clue:
                    groups.append(
                        (
                            1 << cell | 1 << other,
                            f"{grid.name(cell)} or {grid.name(other)} (between the clues at "
                            f"{grid.name(clue)} and {grid.name(theirs)})",
                        )
                    )
    for part in a.sea_parts():
        if part.bit_count() < sea:
            around = grid.border(part) & unknown
            if not around:
                return None  # a walled-in sea region: a contradiction
            groups.append(
                (
                    around,
                    f"the cells next to the black region at {grid.name(lowest(part))} "
                    "(the sea goes on)",
                )
            )
    if len(groups) < left:
        return None
    chosen = _pack(groups)
    if len(chosen) != left:
        return None
    inside = 0
    for mask, _ in chosen:
        inside |= mask
    white = unknown & ~inside
    if not white:
        return None
    return _step(
        state,
        "sea-budget",
        f"The sea has {grid.size} - {total} = {sea} cells and {_n_are(placed)} black, so "
        f"{_count_of(left, 'black')} {_groups(chosen, 'a black')}. So every black cell to "
        f"come lies in {'them' if left > 1 else 'it'}, and {name_cells(grid, white)} "
        f"{_is(white)} white.",
        white=white,
        premises=state.clue_mask | inside,
    )
