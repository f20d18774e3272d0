"""The checks that end a supposition: `find_contradiction`.

Owns `find_contradiction`: a pool, two clues in one island, an island too big, an
island that cannot reach its size, a white region no island can reach, a sea that
can no longer connect, too many or too few white cells.

Imports `logic.state`, `logic.steps` and `logic.techniques.common`.
"""

from __future__ import annotations

from ..state import State
from ..steps import Step, name_cells
from .common import _cap, _clue_text, contradiction


def find_contradiction(state: State) -> Step | None:
    """A step of kind ``contradiction`` if the position breaks a rule or can no longer be
    completed, else None.

    Checks, cheapest first: two clues in one island, an island too big, a pool, too many
    or too few white cells, an island that cannot reach its size, a clueless white region
    no island can reach, black cells that can no longer connect.
    """
    a = state.analysis()
    grid = state.grid
    name = "contradiction"
    for part in a.clashes:
        return contradiction(
            state,
            name,
            part & state.clue_mask | part,
            f"Two clues are joined in one island at {name_cells(grid, part)}.",
        )
    for island in a.islands:
        if island.most < 0:
            return contradiction(
                state,
                name,
                island.mask,
                f"{_cap(_clue_text(state, island))} has grown to {island.size} cells, too many.",
            )
    corners = grid.pool_corners(state.black)
    if corners:
        block = grid.block(corners.bit_length() - 1)
        return contradiction(
            state, name, block, f"A 2x2 pool appears at {name_cells(grid, block)}."
        )
    if state.total_white is not None:
        have = state.white.bit_count()
        if have > state.total_white:
            return contradiction(
                state,
                name,
                state.white,
                f"There are {have} white cells, more than the {state.total_white} the clues allow.",
            )
        if have + a.unknown.bit_count() < state.total_white:
            return contradiction(
                state,
                name,
                state.black,
                f"Too few cells are left for the {state.total_white} white cells the clues need.",
            )
    covered = a.reach()
    for island in a.islands:
        # The reach grows by at least one cell per step until it runs out of room, so a
        # reach smaller than the island needs means it ran out of room.
        if island.least > 0 and island.reach.bit_count() - island.size < island.least:
            room = island.reach.bit_count()
            if room - island.size < island.least:
                return contradiction(
                    state,
                    name,
                    island.mask | grid.border(island.mask),
                    f"{_cap(_clue_text(state, island))} is walled in with "
                    f"room for {room} cells, fewer than it needs.",
                )
    for orphan in a.orphans:
        if not orphan & covered:
            return contradiction(
                state,
                name,
                orphan,
                f"No island can reach the white "
                f"cell{'s' if orphan & (orphan - 1) else ''} at "
                f"{name_cells(grid, orphan, limit=3)}"
                + (
                    f" and take in all {orphan.bit_count()} of them."
                    if orphan & (orphan - 1)
                    else "."
                ),
            )
    parts = a.sea_parts()
    if len(parts) > 1:
        black = state.black
        reach = a.sea_room()
        if reach & black != black:
            cut = black & ~reach
            return contradiction(
                state,
                name,
                parts[0] | cut,
                f"The black cell{'s' if cut & (cut - 1) else ''} at "
                f"{name_cells(grid, cut, limit=3)} can no longer connect to the rest of the sea.",
            )
    return None
