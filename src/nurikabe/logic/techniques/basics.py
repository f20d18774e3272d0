"""Tier 1: the easy techniques, each a look at one clue, island, 2x2 block or sea region.

Owns one-clue, between-clues, l-corner, island-complete, bordering-two-islands,
pool-prevention, island-single-exit, last-cell, sea-single-exit, orphan-single-exit,
unreachable, enclosed-pocket and counting.

Imports `grid`, `puzzle`, `logic.state`, `logic.steps` and `logic.techniques.common`.
"""

from __future__ import annotations

from functools import lru_cache

from ...grid import bits
from ...puzzle import Puzzle
from ..state import State
from ..steps import Step, name_cells
from .common import _cap, _clue_text, _exits, _is, _step, _subject, _total_black, _touching


def one_clue(state: State) -> Step | None:
    """A 1 is a whole island by itself, so every unknown neighbour is black.

    Sound: any white neighbour would join the 1's island and make it bigger than 1.
    ::

        . # .        # black, 1 the clue
        # 1 #
        . # .

    Source: J essay (complete island), game rule 2 (complete island -> surround).
    """
    a = state.analysis()
    for island in a.islands:
        if island.value == 1 and island.border:
            return _step(
                state,
                "one-clue",
                f"The 1 at {state.grid.name(island.clue)} is a whole island, so "
                f"{name_cells(state.grid, island.border)} {_is(island.border)} black.",
                black=island.border,
                premises=island.mask,
            )
    return None


def _clue_pairs(puzzle: Puzzle) -> tuple[tuple[int, int, int], ...]:
    """(cell, clue a, clue b) for the cells touching two clue cells (read once per puzzle,
    by `_clue_pair_cells`, which keeps what it makes of them)."""
    grid = puzzle.grid
    clue_mask = puzzle.clue_mask
    out = []
    seen = clue_mask
    for c in bits(clue_mask):
        for n in bits(grid.neighbors[c] & ~seen):
            clues = grid.neighbors[n] & clue_mask & ~(1 << c)
            if clues:
                out.append((n, c, clues.bit_length() - 1))
                seen |= 1 << n
    return tuple(out)


@lru_cache(maxsize=64)
def _clue_pair_cells(
    puzzle: Puzzle,
) -> tuple[tuple[int, dict[int, int]], tuple[int, dict[int, int]]]:
    """The cells touching two clue cells (`_clue_pairs`), split by how the two clues lie:
    in a line, one cell apart (between-clues), or diagonally (l-corner). Each as the mask
    of those cells and, per cell, the two clue cells (fixed per puzzle)."""
    cols = puzzle.grid.cols
    line: dict[int, int] = {}
    corner: dict[int, int] = {}
    for n, c1, c2 in _clue_pairs(puzzle):
        kind = line if abs(c1 - c2) in (2, 2 * cols) else corner
        kind[n] = 1 << c1 | 1 << c2
    return (
        (sum(1 << n for n in line), line),
        (sum(1 << n for n in corner), corner),
    )


def _shared_clue_cells(state: State, diagonal: bool) -> tuple[int, int]:
    """The unknown cells touching two clue cells that lie in a line (or, with `diagonal`,
    diagonally), and those clue cells."""
    mask, clues = _clue_pair_cells(state.puzzle)[diagonal]
    found = mask & state.unknown
    premises = 0
    for n in bits(found):
        premises |= clues[n]
    return found, premises


def between_clues(state: State) -> Step | None:
    """A cell between two clues in a line (one cell apart) is black.

    Sound: white, it would join both clues into one island.
    ::

        2 # 3
    Source: game rule 11 (two clues that would touch -> black between), blog (cell
    bordering two islands), J essay (free cell next to two numbered islands).
    """
    black, premises = _shared_clue_cells(state, diagonal=False)
    if not black:
        return None
    return _step(
        state,
        "between-clues",
        f"{_subject(state.grid, black)} {_is(black)} between two clues, "
        f"so {'they are' if black & (black - 1) else 'it is'} black.",
        black=black,
        premises=premises,
    )


def l_corner(state: State) -> Step | None:
    """Two clues touching diagonally: both cells that touch them both are black.

    Sound: either cell, white, would join the two clues into one island.
    ::

        3 #
        # 2
    Source: J essay (free cell next to two numbered islands), blog (L-corner, cell
    bordering two islands), game rules 10 and 18.
    """
    black, premises = _shared_clue_cells(state, diagonal=True)
    if not black:
        return None
    return _step(
        state,
        "l-corner",
        f"{_subject(state.grid, black)} {_is(black)} wedged between two "
        f"diagonal clues, so {'they are' if black & (black - 1) else 'it is'} black.",
        black=black,
        premises=premises,
    )


def island_complete(state: State) -> Step | None:
    """An island with all its cells is complete: every unknown neighbour is black.

    Sound: a white neighbour would make the island one cell too big.
    ::

        # # #
        # 3 . #      the 3 has its three cells
        # # #
    Source: blog (complete island -> surround with sea), J essay, game rule 2.
    """
    a = state.analysis()
    for island in a.islands:
        if island.most == 0 and island.border:
            return _step(
                state,
                "island-complete",
                f"{_cap(_clue_text(state, island))} is complete, so "
                f"{name_cells(state.grid, island.border)} {_is(island.border)} black.",
                black=island.border,
                premises=island.mask,
            )
    return None


def bordering_two_islands(state: State) -> Step | None:
    """A cell touching two different islands is black.

    Sound: white, it would join two clues into one island.
    ::

        3 . # 2      the # touches the 3's island and the 2
    Source: blog (cell bordering two islands -> sea), J essay, game rule 10.
    """
    grid = state.grid
    a = state.analysis()
    black = a.touching_two & a.unknown
    if not black:
        return None
    premises = 0
    for island in a.islands:
        if island.around & black:
            premises |= island.mask
    return _step(
        state,
        "bordering-two-islands",
        f"{_subject(grid, black)} {'touch' if black & (black - 1) else 'touches'}"
        f" two islands, so {'they are' if black & (black - 1) else 'it is'} black.",
        black=black,
        premises=premises,
    )


def _pool_candidates(state: State, black: int, candidates: int) -> tuple[int, int]:
    """(cells of `candidates` whose 2x2 block is otherwise black, those blocks' black cells)."""
    grid = state.grid
    cols = grid.cols
    valid = grid.not_last_col & (grid.full >> cols)
    b0, b1, b2, b3 = black, black >> 1, black >> cols, black >> (cols + 1)
    u0, u1, u2, u3 = candidates, candidates >> 1, candidates >> cols, candidates >> (cols + 1)
    k0 = u0 & b1 & b2 & b3 & valid
    k1 = b0 & u1 & b2 & b3 & valid
    k2 = b0 & b1 & u2 & b3 & valid
    k3 = b0 & b1 & b2 & u3 & valid
    cells = k0 | k1 << 1 | k2 << cols | k3 << (cols + 1)
    corners = k0 | k1 | k2 | k3
    blocks = corners | corners << 1 | corners << cols | corners << (cols + 1)
    return cells, blocks & black


def pool_prevention(state: State) -> Step | None:
    """A 2x2 block with three black cells: the fourth is white.

    Sound: black, it would complete a pool.
    ::

        # #
        # .
    Source: J essay (2x2 with 3 black), game rule 14, blog (L-corner: the corner of an
    L of three sea cells is land).
    """
    white, premises = _pool_candidates(state, state.black, state.unknown)
    if not white:
        return None
    grid = state.grid
    return _step(
        state,
        "pool-prevention",
        f"{_subject(grid, white)} would complete a 2x2 pool of black cells, "
        f"so {'they are' if white & (white - 1) else 'it is'} white.",
        white=white,
        premises=premises,
    )


def island_single_exit(state: State) -> Step | None:
    """An island that still lacks cells and has a single way out grows through it.

    Sound: the missing cells must connect to the island, and every path leaves through
    that cell (cells touching other islands are no way out).
    ::

        # # #
        # 3 ?  <- the only exit: white
        # # #
    Source: blog (only one way out for an incomplete island), J essay, game rule 0.
    """
    a = state.analysis()
    for island in a.islands:
        if island.least > 0:
            exits = _exits(a, island)
            if exits and not exits & (exits - 1):
                grid = state.grid
                return _step(
                    state,
                    "island-single-exit",
                    f"{_cap(_clue_text(state, island))} can only grow through "
                    f"{grid.name(exits.bit_length() - 1)}, so it is white.",
                    white=exits,
                    premises=island.mask
                    | (island.border & ~exits)
                    | (grid.border(island.mask) & state.black),
                )
    return None


def last_cell(state: State) -> Step | None:
    """An island lacking one cell with one legal option takes it.

    Options that touch another white cell are not legal (the island would grow too
    big or meet another clue).
    ::

        # 2 ? .     the right ? would also join the dot: only the lower option is legal
          ?
    Source: game rule 8 (last cell of an island with one option -> white).
    """
    a = state.analysis()
    grid = state.grid
    for island in a.islands:
        if island.least == island.most == 1:
            exits = _exits(a, island)
            legal = 0
            for e in bits(exits):
                if not grid.neighbors[e] & state.white & ~island.mask:
                    legal |= 1 << e
            if legal and not legal & (legal - 1) and exits != legal:
                return _step(
                    state,
                    "last-cell",
                    f"{_cap(_clue_text(state, island))} lacks one cell and "
                    f"{grid.name(legal.bit_length() - 1)} is its only legal option, "
                    "so it is white.",
                    white=legal,
                    premises=island.mask | (grid.dilate(exits) & state.white),
                )
    return None


def sea_single_exit(state: State) -> Step | None:
    """A black region with a single way out, while more sea lies elsewhere, extends through it.

    Sound: the sea is connected, so the region must reach the rest of it.
    ::

        . . .
        . # ?    <- the only exit of the black cell: black
        . . .
    Source: blog (only one way out for a sea region), J essay, game rules 1 and 5.
    """
    a = state.analysis()
    parts = a.sea_parts()
    total = _total_black(state)
    black_count = state.black.bit_count()
    grid = state.grid
    for part in parts:
        if len(parts) > 1 or (total is not None and total > black_count):
            exits = grid.border(part) & a.unknown
            if exits and not exits & (exits - 1):
                return _step(
                    state,
                    "sea-single-exit",
                    f"The black region at {grid.name(_touching(grid, part, exits))} can only "
                    f"connect to the rest of the sea through "
                    f"{grid.name(exits.bit_length() - 1)}, so it is black.",
                    black=exits,
                    premises=part | (grid.border(part) & state.white),
                )
    return None


def orphan_single_exit(state: State) -> Step | None:
    """A white region without a clue and a single way out grows through it.

    Sound: every white cell belongs to an island with a clue, which it must reach.
    ::

        # # #
        # . ?    <- the dot's only exit: white
        # # #
    Source: game rule 0 (only exit -> white), blog (a cell surrounded by land).
    """
    a = state.analysis()
    grid = state.grid
    for orphan in a.orphans:
        exits = grid.border(orphan) & a.unknown
        if exits and not exits & (exits - 1):
            return _step(
                state,
                "orphan-single-exit",
                f"The white cell{'s' if orphan & (orphan - 1) else ''} at "
                f"{name_cells(grid, orphan, limit=3)} can only reach a clue through "
                f"{grid.name(exits.bit_length() - 1)}, so it is white.",
                white=exits,
                premises=orphan | (grid.border(orphan) & state.black),
            )
    return None


def unreachable(state: State) -> Step | None:
    """A cell that no island can reach is black.

    An island lacking k cells reaches only cells it can take in with k more, walking
    through unknown or clueless white cells and never touching another island; a
    clueless white region it walks into joins it whole, so it costs all its cells.
    ::

        1 # ? ? ?    the far cells are out of every island's reach: black

        4 ? . ?      the 4 lacks 3: r1c2 and the two clueless white cells use them
        # # . #      all, so r1c4 is out of its reach
    Source: blog (cell reachable by no island -> sea), J essay (too far from any clue),
    game rules 3 and 7.
    """
    a = state.analysis()
    covered = a.reach()
    black = a.unknown & ~covered
    if not black:
        return None
    grid = state.grid
    near = grid.dilate(grid.dilate(black))
    premises = 0
    for island in a.islands:
        if island.reach & near or island.around & near:
            premises |= island.mask
    return _step(
        state,
        "unreachable",
        f"No island can reach {name_cells(grid, black)}, so "
        f"{'they are' if black & (black - 1) else 'it is'} black{_whole_orphans(state, black)}.",
        black=black,
        premises=premises,
    )


def _whole_orphans(state: State, black: int) -> str:
    """The clause saying which clueless white region an island would have to take in
    whole, when counting steps alone would let an island reach some of `black`."""
    a = state.analysis()
    grid = state.grid
    walked = 0
    for island in a.islands:
        region = grid.spread(island.mask, island.allowed, min(island.most, grid.size))
        if region & black:
            walked |= region
    # a single clueless white cell costs one step either way
    entered = [part for part in a.orphans if part & walked and part & (part - 1)]
    if not entered:
        return ""
    part = max(entered, key=int.bit_count)
    return (
        f" (an island that walks into the clueless white cells at "
        f"{name_cells(state.grid, part, limit=3)} takes in all {part.bit_count()} of them)"
    )


def enclosed_pocket(state: State) -> Step | None:
    """Unknown cells walled in by white are white; walled in by black, black.

    Sound: black cells inside a white wall could never join the rest of the sea (when
    there is more sea than the pocket); white cells inside a black wall could never
    reach a clue.
    ::

        # # # #        . . . .
        # ? ? #   ->   . ? ? .   ->  white (when sea lies elsewhere)
        # # # #        . . . .
    Source: J essay (pocket enclosed by one color), game rule 13 (enclosed non-clue
    cell -> black), blog (a cell surrounded by land -> land).
    """
    a = state.analysis()
    grid = state.grid
    unknown = a.unknown
    total = _total_black(state)
    if not unknown:
        return None
    for part in grid.components(unknown):
        wall = grid.border(part)
        if not wall & state.white:
            return _step(
                state,
                "enclosed-pocket",
                f"{_subject(grid, part)} {_is(part)} walled in by black cells "
                "and can reach no clue, so "
                f"{'they are' if part & (part - 1) else 'it is'} black.",
                black=part,
                premises=wall,
            )
        if not wall & state.black and (
            state.black or (total is not None and total > part.bit_count())
        ):
            return _step(
                state,
                "enclosed-pocket",
                f"{_subject(grid, part)} {_is(part)} walled in by white cells; "
                "black there could never join the rest of the sea, so "
                f"{'they are' if part & (part - 1) else 'it is'} white.",
                white=part,
                premises=wall,
            )
    return None


def counting(state: State) -> Step | None:
    """Count the white cells: all placed -> the rest is black; as many missing as unknown -> white.

    Sound: the solution has exactly as many white cells as the clues add up to.
    Does not apply with ``?`` clues.
    ::

        clues 2+3 = 5 white cells, 5 white already: every ? is black
    Source: J essay (endgame: no white left / as many whites missing as free cells).
    """
    if state.total_white is None:
        return None
    unknown = state.unknown
    if not unknown:
        return None
    have = state.white.bit_count()
    grid = state.grid
    if have == state.total_white:
        return _step(
            state,
            "counting",
            f"All {have} white cells are placed, so the remaining "
            f"{unknown.bit_count()} unknown cell{'s' if unknown & (unknown - 1) else ''} "
            f"({name_cells(grid, unknown, limit=3)}) {_is(unknown)} black.",
            black=unknown,
            premises=state.white & ~state.clue_mask | state.clue_mask,
        )
    if have + unknown.bit_count() == state.total_white:
        return _step(
            state,
            "counting",
            f"Exactly {unknown.bit_count()} white cells are still missing and that many "
            f"cells are unknown, so {name_cells(grid, unknown, limit=3)} "
            f"{_is(unknown)} white.",
            white=unknown,
            premises=state.clue_mask,
        )
    return None
