"""The technique catalogue: every deduction the logic engine knows, in one ordered table.

This module owns the techniques and `TECHNIQUES`, the table the engine walks from
the top after every step (cheapest first). Each technique is a function
``(puzzle, state) -> Step | None`` with a stable kebab-case id, a name and a
difficulty tier; it returns one step (or None) and never changes the state. The costly
ones (island shapes, case splits) check the state's deadline as they go and raise
`OutOfTime` once it has passed. It also owns `find_contradiction`, the checks that end
a supposition.

Tiers: 1 easy, 2 medium, 3 hard (listing island shapes), 4 expert (case splits: two to
four exhaustive cases followed a few rounds each); 5 extreme is trial steps (a
supposition refuted at any nesting depth), made by `logic.trial`.

The catalogue (the seed rules each covers are in docs/techniques.md)::

    tier id                          rule
    1    one-clue                    a 1 is a whole island: its neighbours are black
    1    between-clues               a cell between two clues in a line is black
    1    l-corner                    the two cells touching two diagonal clues are black
    1    island-complete             a complete island is surrounded by black
    1    bordering-two-islands       a cell touching two islands is black
    1    pool-prevention             a 2x2 block with three black cells: the fourth is white
    1    island-single-exit          an island lacking cells with one way out: it is white
    1    last-cell                   an island lacking one cell with one legal option: white
    1    sea-single-exit             a black region with one way out (more sea elsewhere): black
    1    orphan-single-exit          a white cell without a clue, one way out: it is white
    1    unreachable                 a cell no island can reach is black
    1    enclosed-pocket             unknown cells walled in by one colour take that colour
    1    counting                    all whites placed: rest black; whites missing = unknowns: white
    2    two-choices-border          island lacking one cell: a cell touching all options is black
    2    island-bottleneck           a cell every completion of an island passes through is white
    2    orphan-bottleneck           a cell every island must use to reach a stray white is white
    2    sea-articulation            a cell whose whitening would split the sea is black
    2    pool-escape                 a cell whose blackening leaves a 2x2 block unreachable is white
    3    completion-common-cell      a cell used by every possible completion of an island is white
    3    completion-common-border    a cell bordered by every possible completion is black
    3    completion-unreachable      a cell no possible completion of any island uses is black
    3    walled-in-island            the sea walls in one of two diagonal islands: perimeter bounds
    4    sea-exit-cases              a black region with 2-4 exits: what every exit leads to holds
    4    pool-cases                  an open 2x2 block: what whitening each open cell leads to holds
    4    orphan-exit-cases           a stray white cell with two exits: what both lead to holds
    4    island-exit-cases           an island with 2-4 exits: what every exit leads to holds
    4    island-options              an island with few shapes: what every shape leads to holds
    4    deep-cases                  the same splits, each case followed with island shapes too
    5    trial                       suppose a colour; plain logic meets a contradiction (any depth)

Contradictions (`find_contradiction`): a pool, two clues in one island, an island too
big, an island that cannot reach its size, a white region no island can reach, a sea
that can no longer connect, too many or too few white cells.

Imports `grid`, `puzzle`, `logic.steps`, `logic.state` and `logic.walls`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from ..grid import Grid, bits
from ..puzzle import Puzzle
from .state import Analysis, Island, State
from .steps import Step, name_cells
from .walls import walled_in_island

__all__ = [
    "MAX_COMPLETIONS",
    "TECHNIQUES",
    "Technique",
    "find_contradiction",
    "technique",
]

MAX_COMPLETIONS = 6000
"""Largest number of completions enumerated for one island; above it the island is skipped."""

MAX_SHAPE_NEED = 12
"""Islands lacking more cells than this are not listed (their shapes are too many)."""
LIGHT_MAX = 150
"""Inside suppositions, islands with more shapes than this are treated by reach only."""
LIGHT_COMPLETIONS = 1500
"""Inside suppositions, islands are listed only up to this many shapes (before filtering):
a list that long seldom filters down to `LIGHT_MAX`, and listing costs."""
SEA_CHECK_MAX = 120
"""Islands with at most this many shapes also get each shape's sea connectivity checked."""
SEA_CHECK_LIGHT = 30
"""The same bound inside suppositions."""
PAIRWISE_MAX = 400
"""Islands with more shapes than this are left out of the pairwise check."""
WINDOW_FROM = 4000
"""Grids up to this many cells check sea connectivity around a shape exactly."""
WINDOW_RADIUS = 8
"""On larger grids, the radius of the window checked around a shape."""
CASE_ROUNDS = 4
"""Rounds of simple steps each case of a case split is followed for."""
DEEP_ROUNDS = 12
"""Rounds each case of `deep-cases` is followed for."""
CASE_TIER = 2
"""The simple steps that follow a case: techniques up to this tier."""
CASE_SHAPES = 200
"""Islands with at most this many possible shapes get `island-options`."""
CASE_WORK = 40_000
"""On large grids fewer shapes are split: at most this many (shapes x cells)."""
DEEP_SHAPES = 1500
"""`deep-cases` also splits islands with up to this many shapes (followed by simple steps)."""
DEEP_WORK = 500_000
"""The same bound as `CASE_WORK`, for `deep-cases`."""
CASE_WINDOW = 4
"""A split that found nothing is retried only once the shading this close to it changes."""
CASE_OPTIONS = 4
"""Most exits (of a black region or an island) or open cells (of a 2x2 block) split into cases."""

_T = TypeVar("_T")

TechniqueFunc = Callable[[Puzzle, State], "Step | None"]


@dataclass(frozen=True)
class Technique:
    """One row of the catalogue."""

    id: str
    """Stable kebab-case id (saved traces and tests depend on it)."""
    name: str
    """Name for people."""
    tier: int
    """Difficulty tier, 1 (easy) to 5 (extreme)."""
    func: TechniqueFunc
    """The technique itself."""

    @property
    def doc(self) -> str:
        """The technique's docstring: rule, soundness, picture, source."""
        return self.func.__doc__ or ""


# -- helpers ---------------------------------------------------------------------------------


def _step(
    state: State,
    technique: str,
    message: str,
    *,
    black: int = 0,
    white: int = 0,
    premises: int = 0,
    cases: int = 0,
) -> Step:
    return Step(
        technique,
        state.grid,
        black_mask=black,
        white_mask=white,
        premise_mask=premises,
        message=message,
        cases=cases,
    )


def contradiction(state: State, technique: str, involved: int, message: str) -> Step:
    """A step saying the position is impossible, naming the cells involved."""
    return Step(
        technique,
        state.grid,
        premise_mask=involved,
        wrong_mask=involved,
        message=message,
        kind="contradiction",
    )


def _clue_text(state: State, island: Island) -> str:
    value = "?" if island.unknown_size else str(island.value)
    return f"the {value} at {state.grid.name(island.clue)}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _subject(grid: object, mask: int) -> str:
    """``Cell r1c2`` or ``Cells r1c2 and r3c4``, to open a sentence."""
    many = mask & (mask - 1)
    return f"{'Cells' if many else 'Cell'} {name_cells(grid, mask)}"  # type: ignore[arg-type]


def _is(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


def _exits(a: Analysis, island: Island) -> int:
    return island.border & island.allowed


# -- tier 1 ----------------------------------------------------------------------------------


def one_clue(puzzle: Puzzle, state: State) -> Step | None:
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


@lru_cache(maxsize=64)
def _clue_pairs(puzzle: Puzzle) -> tuple[tuple[int, int, int], ...]:
    """(cell, clue a, clue b) for the cells touching two clue cells (fixed per puzzle)."""
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


def _shared_clue_cells(state: State) -> list[tuple[int, int, int]]:
    """(cell, clue a, clue b) for unknown cells touching two clue cells."""
    unknown = state.unknown
    return [t for t in _clue_pairs(state.puzzle) if unknown >> t[0] & 1]


def between_clues(puzzle: Puzzle, state: State) -> Step | None:
    """A cell between two clues in a line (one cell apart) is black.

    Sound: white, it would join both clues into one island.
    ::

        2 # 3
    Source: game rule 11 (two clues that would touch -> black between), blog (cell
    bordering two islands), J essay (free cell next to two numbered islands).
    """
    cols = state.grid.cols
    black = premises = 0
    for n, c1, c2 in _shared_clue_cells(state):
        if abs(c1 - c2) in (2, 2 * cols):
            black |= 1 << n
            premises |= 1 << c1 | 1 << c2
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


def l_corner(puzzle: Puzzle, state: State) -> Step | None:
    """Two clues touching diagonally: both cells that touch them both are black.

    Sound: either cell, white, would join the two clues into one island.
    ::

        3 #
        # 2
    Source: J essay (free cell next to two numbered islands), blog (L-corner, cell
    bordering two islands), game rules 10 and 18.
    """
    cols = state.grid.cols
    black = premises = 0
    for n, c1, c2 in _shared_clue_cells(state):
        if abs(c1 - c2) not in (2, 2 * cols):
            black |= 1 << n
            premises |= 1 << c1 | 1 << c2
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


def island_complete(puzzle: Puzzle, state: State) -> Step | None:
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


def bordering_two_islands(puzzle: Puzzle, state: State) -> Step | None:
    """A cell touching two different islands is black.

    Sound: white, it would join two clues into one island.
    ::

        3 . # 2      the # touches the 3's island and the 2
    Source: blog (cell bordering two islands -> sea), J essay, game rule 10.
    """
    grid = state.grid
    a = state.analysis()
    in_any = in_two = 0
    for island in a.islands:
        d = grid.dilate(island.mask)
        in_two |= in_any & d
        in_any |= d
    black = in_two & a.unknown
    if not black:
        return None
    premises = 0
    for island in a.islands:
        if grid.dilate(island.mask) & black:
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


def pool_prevention(puzzle: Puzzle, state: State) -> Step | None:
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


def island_single_exit(puzzle: Puzzle, state: State) -> Step | None:
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


def last_cell(puzzle: Puzzle, state: State) -> Step | None:
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


def _touching(grid: Grid, part: int, exits: int) -> int:
    """A cell of `part` next to the (single) exit, to name the region by."""
    near = part & grid.neighbors[exits.bit_length() - 1]
    return (near or part).bit_length() - 1


def _ways(kept: list[int], what: str) -> str:
    """``The only way left to complete X`` or ``Every way to complete X (n left)``."""
    if len(kept) == 1:
        return f"The only way left to complete {what}"
    return f"Every way to complete {what} ({len(kept)} left)"


def _total_black(state: State) -> int | None:
    if state.total_white is None:
        return None
    return state.grid.size - state.total_white


def sea_single_exit(puzzle: Puzzle, state: State) -> Step | None:
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


def orphan_single_exit(puzzle: Puzzle, state: State) -> Step | None:
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


def unreachable(puzzle: Puzzle, state: State) -> Step | None:
    """A cell that no island can reach is black.

    An island lacking k cells reaches only cells within k steps of it, walking through
    unknown or clueless white cells and never touching another island.
    ::

        1 # ? ? ?    the far cells are out of every island's reach: black
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
        if island.reach & near or grid.dilate(island.mask) & near:
            premises |= island.mask
    return _step(
        state,
        "unreachable",
        f"No island can reach {name_cells(grid, black)}, so "
        f"{'they are' if black & (black - 1) else 'it is'} black.",
        black=black,
        premises=premises,
    )


def enclosed_pocket(puzzle: Puzzle, state: State) -> Step | None:
    """Unknown cells walled in by white are white; walled in by black, black.

    Sound: black cells inside a white wall could never join the rest of the sea (when
    there is more sea than the pocket); white cells inside a black wall could never
    reach a clue.
    ::

        # # # #        . . . .
        # ? ? #   ->   . ? ? .   ->  white (when sea lies elsewhere)
        # # # #        . . . .
    Source: J essay (pocket enclosed by one colour), game rule 13 (enclosed non-clue
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


def counting(puzzle: Puzzle, state: State) -> Step | None:
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


# -- tier 2 ----------------------------------------------------------------------------------


def two_choices_border(puzzle: Puzzle, state: State) -> Step | None:
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


def _layer_count(grid_dilate: Callable[[int], int], start: int, allowed: int, need: int) -> int:
    """How many cells of `allowed` lie within `need` steps of `start` (stops counting at need)."""
    region = start
    frontier = start
    count = 0
    for _ in range(need):
        grown = grid_dilate(frontier) & allowed & ~region
        if not grown:
            break
        count += grown.bit_count()
        if count >= need:
            return count
        region |= grown
        frontier = grown
    return count


def island_bottleneck(puzzle: Puzzle, state: State) -> Step | None:
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
        c = memo.get(key)
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
    within reach, or -1."""
    dilate = grid.dilate
    need = island.least
    # Layers of the reach by distance. Removing a cell at distance d can only cost
    # the cells beyond d, so a cell is a candidate only when losing it and everything
    # beyond would leave fewer cells than the island lacks.
    layers = []
    region = frontier = island.mask
    for _ in range(need):
        frontier = dilate(frontier) & island.allowed & ~region
        if not frontier:
            break
        layers.append(frontier)
        region |= frontier
    total = sum(layer.bit_count() for layer in layers)
    candidates = 0
    beyond = total
    for layer in layers:
        beyond -= layer.bit_count()
        if total - 1 - beyond < need:
            candidates |= layer
    candidates &= unknown
    for c in bits(candidates):
        if _layer_count(dilate, island.mask, island.allowed & ~(1 << c), need) < need:
            return c
    return -1


MEMO_MAX = 200_000
"""Most entries `_memo` keeps before starting afresh (bounds memory on long trials)."""


def _memo(state: State) -> dict[object, object]:
    memo = state.memo
    if len(memo) > MEMO_MAX:
        memo.clear()
    return memo


def _island_reaches(
    island: Island,
    dilate: Callable[[int], int],
    blocked: int,
    target: int,
    size: int,
    memo: dict[object, object] | None = None,
) -> bool:
    """Whether `island` can reach a cell of `target` avoiding `blocked`.

    The search never leaves the island's reach (`Analysis.reach` must have run), so the
    answer depends only on the island, its reach and the parts of `blocked` and `target`
    inside it; with `memo` it is remembered under those."""
    if memo is not None:
        reach = island.reach
        key = ("reaches", island.mask, reach, blocked & reach, target & reach)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _island_reaches(island, dilate, blocked, target, size)
        return bool(found)
    region = island.mask
    frontier = region
    allowed = island.allowed & ~blocked
    for _ in range(min(island.most, size)):
        grown = dilate(frontier) & allowed & ~region
        if not grown:
            return False
        if grown & target:
            return True
        region |= grown
        frontier = grown
    return False


def orphan_bottleneck(puzzle: Puzzle, state: State) -> Step | None:
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
    dilate = grid.dilate
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
            if not any(_island_reaches(o, dilate, bit, orphan, grid.size, memo) for o in owners):
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


@lru_cache(maxsize=16)
def _adjacency(grid: Grid) -> tuple[tuple[int, ...], ...]:
    """Each cell's neighbours as a tuple of cells (for walks that visit cell by cell)."""
    return tuple(tuple(bits(m)) for m in grid.neighbors)


def _flags(mask: int, size: int) -> bytes:
    """One byte per cell, ``1`` (49) where `mask` has the cell: a cheap membership test
    for cell-by-cell walks (a shift of a big mask per cell would cost its length)."""
    return bin(mask)[:1:-1].ljust(size, "0").encode()


ARTICULATION_FLOODS = 8
"""`_articulations` floods once per possible cut cell up to this many, else walks the graph."""


def _local_cuts(grid: Grid, domain: int) -> int:
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


def _articulations(state: State) -> tuple[int, int]:
    """(cells whose whitening splits the black cells, premise cells) over black+unknown."""
    grid = state.grid
    black = state.black
    if not black or not black & (black - 1):
        return 0, 0
    unknown = state.unknown
    domain = black | unknown
    candidates = _local_cuts(grid, domain) & unknown
    if not candidates:
        return 0, black
    if candidates.bit_count() <= ARTICULATION_FLOODS:
        seed = black & -black
        if grid.flood(seed, domain) & black == black:
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
            adjacency[cell].append(j)  # type: ignore[attr-defined]
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


def sea_articulation(puzzle: Puzzle, state: State) -> Step | None:
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
    forced, black = _articulations(state)
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


def pool_escape(puzzle: Puzzle, state: State) -> Step | None:
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


# -- tier 3: island completions ---------------------------------------------------------------


def _enumerate(
    grid_neighbors: tuple[int, ...],
    start: int,
    allowed: int,
    need: int,
    cap: int,
    check: Callable[[], None] | None = None,
) -> list[int] | None:
    """Every connected superset of `start` with `need` more cells from `allowed`, or None
    when there are more than `cap` (Redelmeier's method: each set is made once).

    `check` is called every few thousand search nodes (it may raise to stop the search)."""
    out: list[int] = []
    init = 0
    for c in bits(start):
        init |= grid_neighbors[c]
    init &= allowed & ~start

    nodes = [cap * 20]

    def grow(cur: int, untried: int, seen: int, left: int) -> bool:
        nodes[0] -= 1
        if nodes[0] < 0:
            return False
        if check is not None and not nodes[0] & 4095:
            check()
        while untried:
            b = untried & -untried
            untried ^= b
            nxt = cur | b
            if left == 1:
                out.append(nxt)
                if len(out) > cap:
                    return False
                continue
            nb = grid_neighbors[b.bit_length() - 1] & allowed & ~seen
            if not grow(nxt, untried | nb, seen | nb, left - 1):
                return False
        return True

    if need <= 0:
        return [start]
    if not grow(start, init, start | init, need):
        return None
    return out


def _completions(state: State, a: Analysis) -> dict[int, list[int]]:
    """Per clue cell, the completions of its island still possible (islands with too many
    completions, ``?`` clues and complete islands are left out)."""
    grid = state.grid
    dilate = grid.dilate
    a.reach()
    black = state.black
    white = state.white
    unknown = a.unknown
    cache = state.completions
    # A clueless white region reachable by a single island must join that island.
    must_join: dict[int, int] = {}
    for orphan in a.orphans:
        owners = [i for i in a.islands if i.reach & orphan]
        if len(owners) == 1:
            must_join[owners[0].clue] = must_join.get(owners[0].clue, 0) | orphan
    # Each shape's border, worked out once (shapes stay the same from state to state).
    rings = state.memo.get("rings")
    if not isinstance(rings, dict) or len(rings) > MEMO_MAX:
        rings = state.memo["rings"] = {}
    cover_any = cover_two = 0
    for island in a.islands:
        cover_two |= cover_any & island.reach
        cover_any |= island.reach
    out: dict[int, list[int]] = {}
    for island in a.islands:
        need = island.most
        if island.least != need or need <= 0 or need > MAX_SHAPE_NEED:
            continue
        state.check_time()
        entry = cache.get(island.clue)
        # Nothing changed near the island since its list was last filtered: keep it. (A
        # change further away could only remove more shapes; keeping a few too many is
        # safe, the list only has to hold every shape still possible.)
        window = dilate(dilate(dilate(island.reach)))
        local = (black & window, white & window)
        if entry is not None and entry[1] is not None and entry[2] == local:
            out[island.clue] = entry[1]
            continue
        room = (island.allowed & island.reach).bit_count()
        key = (island.mask, room)
        # Enumerate again only when the island grew since, or its room shrank a lot since
        # the last attempt overflowed; a kept list is filtered instead (states only narrow).
        if (
            entry is None
            or (entry[1] is None and (entry[0][0] != island.mask or 5 * room <= 4 * entry[0][1]))
            or (entry[1] is not None and entry[0][0] & island.mask != entry[0][0])
        ):
            cap = LIGHT_COMPLETIONS if state.light else MAX_COMPLETIONS
            allowed = island.allowed & island.reach
            # The listing is a pure function of its inputs: one that overflowed is
            # remembered, since suppositions often grow an island the same way again.
            too_many = ("too-many", island.mask, allowed, cap)
            if too_many in state.memo:
                found = None
            else:
                found = _enumerate(
                    grid.neighbors, island.mask, allowed, need, cap, state.check_time
                )
                if found is None:
                    _memo(state)[too_many] = True
            if found is None:
                cache[island.clue] = (key, None, local)
                continue
            candidates = found
        elif entry[1] is None:
            continue
        else:
            candidates = entry[1]
        mask = island.mask
        forbidden = island.forbidden | black
        joined = must_join.get(island.clue, 0)
        # Cells no other island can reach turn black once this island is complete.
        others = (cover_any & ~island.reach) | cover_two
        dead_base = unknown & ~others
        kept = []
        for comp in candidates:
            if comp & forbidden or comp & mask != mask or comp & joined != joined:
                continue
            ring = rings.get(comp)
            if ring is None:
                ring = rings[comp] = dilate(comp) & ~comp
            if ring & white:
                continue
            if grid.pool_corners(black | ring | (dead_base & ~comp)):
                continue
            kept.append(comp)
        if len(kept) <= (SEA_CHECK_LIGHT if state.light else SEA_CHECK_MAX):
            # Few enough to also check that the sea can still connect around each.
            domain = black | unknown
            base = 0
            if grid.size <= WINDOW_FROM:
                # The sea cells no shape touches, flooded once: each shape's check then
                # only floods from there into what the shapes leave (a few layers).
                used = 0
                for c in kept:
                    used |= c
                seed = black & ~used
                base = grid.flood(seed & -seed, domain & ~used)
            kept = [
                c
                for c in kept
                if _sea_survives(grid, black | rings[c] | (dead_base & ~c), domain, c, mask, base)
            ]
        cache[island.clue] = (entry[0] if entry and entry[1] is not None else key, kept, local)
        if state.light and len(kept) > LIGHT_MAX:
            continue
        out[island.clue] = kept
    if not state.light:
        _pairwise(state, a, out)
    return out


def _pairwise(state: State, a: Analysis, out: dict[int, list[int]]) -> None:
    """Drop each shape that leaves some neighbouring island no shape of its own.

    Two shapes clash when they overlap or touch. A shape of one island that clashes
    with every remaining shape of a nearby island cannot be part of the solution.
    """
    dilate = state.grid.dilate
    cache = state.completions
    near = {clue: dilate(a.island_at[clue].reach) for clue in out}
    for clue, kept in list(out.items()):
        if not kept or len(kept) > PAIRWISE_MAX:
            continue
        state.check_time()
        others = [
            other
            for o, other in out.items()
            if o != clue
            and other
            and len(other) <= PAIRWISE_MAX
            and a.island_at[o].reach & near[clue]
        ]
        if not others:
            continue
        fresh = []
        for comp in kept:
            halo = dilate(comp)
            if all(any(not c & halo for c in other) for other in others):
                fresh.append(comp)
        if len(fresh) != len(kept):
            out[clue] = fresh
            entry = cache[clue]
            cache[clue] = (entry[0], fresh, entry[2])


def _sea_connects(grid: Grid, sea: int, domain: int, around: int) -> bool:
    """False when some cells of `sea` are sure to be cut off from the others in `domain`.

    Only a window around `around` (the cells that changed) is flooded: a piece of the
    window that reaches the window's edge is taken to connect outside, so the answer
    errs only towards True (it never rejects a shape that could be right).
    """
    if not sea:
        return True
    dilate = grid.dilate
    window = around
    if grid.size <= WINDOW_FROM:
        window = grid.full
    else:
        for _ in range(WINDOW_RADIUS):
            window = dilate(window)
    edge = window & dilate(grid.full & ~window)
    inside = domain & window
    rest = sea & window
    while rest:
        part = grid.flood(rest & -rest, inside)
        if not part & edge and sea & ~part:
            return False
        rest &= ~part
    return True


def _sea_survives(grid: Grid, sea: int, domain: int, shape: int, mask: int, base: int) -> bool:
    """`_sea_connects` for the cells `sea` once an island `mask` takes `shape`: False
    when they are sure to be cut off from each other in `domain` (black or unknown)
    without the shape's cells.

    `base` (0: none, as on large grids) is a connected piece of `domain` holding a
    black cell and no cell of any shape of the island. The sea is connected exactly
    when it lies in the piece of `domain` without the shape that holds `base`, and
    flooding from all of `base` at once reaches its cells in a few layers.
    """
    inside = domain & ~shape
    if not base:
        return _sea_connects(grid, sea, inside, shape & ~mask)
    # Flood from `base` only until every sea cell is reached (often a layer or two).
    dilate = grid.dilate
    region = frontier = base
    while sea & ~region:
        frontier = dilate(frontier) & inside & ~region
        if not frontier:
            return False
        region |= frontier
    return True


def _completion_cache(state: State) -> dict[int, list[int]]:
    a = state.analysis()
    if a.completions is None:
        a.completions = _completions(state, a)
    return a.completions


def completion_common_cell(puzzle: Puzzle, state: State) -> Step | None:
    """A cell that every possible completion of an island uses is white.

    The completions are listed outright (every connected shape of the right size that
    touches no other white cell, leaves no pool and lets the sea connect).
    ::

        # ? ? #
        3 ? # .     every shape the 3 can take uses the first ?: white
    Source: blog (cell every completion of an island must use -> that island), game
    rules 4 and 9; an island with no completion is a contradiction.
    """
    a = state.analysis()
    comps = _completion_cache(state)
    grid = state.grid
    for clue, kept in comps.items():
        island = a.island_at[clue]
        if not kept:
            return contradiction(
                state,
                "completion-common-cell",
                island.mask,
                f"{_cap(_clue_text(state, island))} has no way left to reach its size.",
            )
        common = a.unknown
        for comp in kept:
            common &= comp
        if common:
            return _step(
                state,
                "completion-common-cell",
                f"{_ways(kept, _clue_text(state, island))} uses {name_cells(grid, common)}, so "
                f"{'they are' if common & (common - 1) else 'it is'} white.",
                white=common,
                premises=island.mask | (grid.border(island.reach) & ~a.unknown),
            )
    return None


def completion_common_border(puzzle: Puzzle, state: State) -> Step | None:
    """A cell that borders every possible completion of an island is black.

    ::

        . 2 ?       both shapes of the 2 touch x: x is black
        # ? x
    Source: blog (cell bordered by every completion -> sea), game rules 9 and 12.
    """
    a = state.analysis()
    comps = _completion_cache(state)
    grid = state.grid
    dilate = grid.dilate
    rings = state.memo.get("rings")
    if not isinstance(rings, dict):
        rings = {}
    for clue, kept in comps.items():
        if not kept:
            continue
        island = a.island_at[clue]
        common = a.unknown
        for comp in kept:
            ring = rings.get(comp)
            common &= (dilate(comp) & ~comp) if ring is None else ring
            if not common:
                break
        if common:
            return _step(
                state,
                "completion-common-border",
                f"{_ways(kept, _clue_text(state, island))} borders {name_cells(grid, common)}, "
                "so "
                f"{'they are' if common & (common - 1) else 'it is'} black.",
                black=common,
                premises=island.mask,
            )
    return None


def completion_unreachable(puzzle: Puzzle, state: State) -> Step | None:
    """A cell that no possible completion of any island uses is black.

    Sharper than `unreachable`: it counts cells that a route would drag in (clueless
    white cells), forbids shapes that leave a pool, and uses each island's real shapes.
    ::

        2 ? ? .    the 2 can't take the second ?, it would also take the dot: black
    Source: game rules 6 and 7 (unreachable once an island completes / would overgrow),
    blog (cell reachable by no island).
    """
    a = state.analysis()
    comps = _completion_cache(state)
    used = 0
    premises = 0
    for island in a.islands:
        kept = comps.get(island.clue)
        if kept is None:
            used |= island.reach
            continue
        premises |= island.mask
        for comp in kept:
            used |= comp
    black = a.unknown & ~used
    if not black:
        return None
    grid = state.grid
    return _step(
        state,
        "completion-unreachable",
        f"No possible shape of any island uses {name_cells(grid, black)}, so "
        f"{'they are' if black & (black - 1) else 'it is'} black.",
        black=black,
        premises=premises,
    )


# -- tier 4: reasoning by cases ---------------------------------------------------------------


def _after_rounds(
    state: State, black: int, white: int, rows: tuple[Technique, ...]
) -> tuple[int, int] | None:
    """The shading `CASE_ROUNDS` rounds of simple steps (`DEEP_ROUNDS` for the rows of
    `deep-cases`) lead to from `state` with `black` and `white` added, or None when a
    rule breaks on the way.

    A round applies each technique of `rows` once, in table order, so the cells found
    are at most `CASE_ROUNDS` deductions away from the supposition.

    What the same case led to from an earlier position of the walkthrough still follows
    from this one (the position only gained sound decisions), so the rounds start from
    there (kept in `State.case_memo`): a case followed at every step costs a round or
    two, not all of them again; and if that earlier result clashes with the position,
    the case breaks at once.
    """
    earlier = _case_store(state, "after", rows)
    key = (black, white)
    s = state.copy()
    s.light = True
    s.decide(black & ~state.black, white & ~state.white)
    known = earlier.get(key)
    if known is not None:
        at_black, at_white, then_black, then_white, stalled = known  # type: ignore[misc]
        if state.black & at_black == at_black and state.white & at_white == at_white:
            if then_black & state.white or then_white & state.black:
                return None
            if stalled and not (state.black & ~then_black or state.white & ~then_white):
                # The position adds nothing to where the rounds stalled last time.
                return then_black, then_white
            s.decide(then_black & ~s.black, then_white & ~s.white)
            if find_contradiction(s) is not None:
                return None
    found = _follow(s, rows)
    if found is None:
        return None
    earlier[key] = (state.black, state.white, *found)
    return found[0], found[1]


def _follow(s: State, rows: tuple[Technique, ...]) -> tuple[int, int, bool] | None:
    """The rounds of `_after_rounds`, on `s` (changed in place): the shading they reach
    and whether they stalled (a whole round made no step), or None when a rule broke."""
    puzzle = s.puzzle
    for _ in range(DEEP_ROUNDS if rows is _DEEP_ROWS else CASE_ROUNDS):
        moved = False
        for row in rows:
            s.check_time()
            step = row.func(puzzle, s)
            if step is None:
                continue
            if step.kind == "contradiction":
                return None
            s.decide(step.black_mask, step.white_mask)
            moved = True
        if find_contradiction(s) is not None:
            return None
        if not moved:
            return s.black, s.white, True
    return s.black, s.white, False


def _by_cases(
    state: State, cases: list[tuple[int, int]], rows: tuple[Technique, ...]
) -> tuple[int, int, list[int]]:
    """(cells black in every case that survives, cells white in all of them, the indices
    of the cases that survive).

    `cases` lists (black, white) suppositions at least one of which holds in the solution.
    A split that found nothing is not followed again while the shading within
    `CASE_WINDOW` cells of its cases stays the same (it would almost surely find nothing
    again; skipping it can only miss a step, never make a wrong one).
    """
    grid = state.grid
    touched = 0
    for b, w in cases:
        touched |= b | w
    window = touched
    for _ in range(CASE_WINDOW):
        window = grid.dilate(window)
    key = (len(rows), touched, tuple(cases))
    local = (state.black & window, state.white & window)
    if state.case_memo.get(key) == local:
        return 0, 0, [0]
    found = _by_cases_now(state, cases, rows)
    if found[2] and not found[0] | found[1]:
        state.case_memo[key] = local
    return found


def _by_cases_now(
    state: State, cases: list[tuple[int, int]], rows: tuple[Technique, ...]
) -> tuple[int, int, list[int]]:
    """`_by_cases` without the skip. Two memories (in `State.case_memo`) make it cheaper
    without changing what it may conclude:

    - a case that broke a rule from an earlier position stays broken from any later one
      of the same walkthrough (the later position only adds sound decisions), so it is
      not followed again; the position it broke from is kept, and the memory is used
      only from positions that extend it;
    - the cases that were followed last time a split found nothing come first, since
      they are likely to disagree again and end the split after a few cases.
    """
    black = white = state.grid.full
    unknown = state.unknown
    broken = _case_store(state, "broken", rows)
    lower = _case_store(state, "broken", _CASE_ROWS) if rows is not _CASE_ROWS else broken
    witnesses = _case_store(state, "witness", rows)
    order = sorted(range(len(cases)), key=lambda n: cases[n] not in witnesses)
    alive = []
    followed: list[tuple[tuple[int, int], int]] = []
    for n in order:
        case = cases[n]
        if _broken_before(state, broken.get(case)) or _broken_before(state, lower.get(case)):
            continue
        found = _after_rounds(state, *case, rows)
        if found is None:
            broken[case] = (state.black, state.white)
            continue
        alive.append(n)
        followed.append((case, (found[0] & unknown) | (found[1] & unknown) << state.grid.size))
        black &= found[0]
        white &= found[1]
        if not (black | white) & unknown:
            # Nothing left in common, and cases still to come can only keep it so.
            for case in _few_that_disagree(followed):
                witnesses[case] = True
            return 0, 0, sorted(alive)
    if not alive:
        return 0, 0, alive
    return black & unknown, white & unknown, sorted(alive)


def _few_that_disagree(followed: list[tuple[_T, int]]) -> list[_T]:
    """A few of the `followed` (case, what it decides) pairs whose decisions have nothing
    in common, chosen greedily (each next case shrinks the common part most)."""
    common = -1
    chosen = []
    rest = list(followed)
    while common and rest:
        best = min(range(len(rest)), key=lambda n: (common & rest[n][1]).bit_count())
        case, decided = rest.pop(best)
        chosen.append(case)
        common &= decided
    return chosen


def _case_store(state: State, kind: str, rows: tuple[Technique, ...]) -> dict[object, object]:
    store = state.case_memo.get((kind, len(rows)))
    if not isinstance(store, dict) or len(store) > MEMO_MAX:
        store = state.case_memo[kind, len(rows)] = {}
    return store


def _broken_before(state: State, where: object) -> bool:
    """Whether `where`, the (black, white) of the position a case broke from, is
    extended by `state` (so the case breaks from `state` too)."""
    if where is None:
        return False
    black, white = where  # type: ignore[misc]
    return state.black & black == black and state.white & white == white


def _outcome(grid: Grid, black: int, white: int) -> str:
    """``r1c2 is black and r3c4 and r3c5 are white``."""
    parts = []
    if black:
        parts.append(f"{name_cells(grid, black)} {_is(black)} black")
    if white:
        parts.append(f"{name_cells(grid, white)} {_is(white)} white")
    return " and ".join(parts)


def _painted(grid: Grid, black: int, white: int) -> str:
    """``r1c2 black and r3c4 white``."""
    parts = []
    if black:
        parts.append(f"{name_cells(grid, black)} black")
    if white:
        parts.append(f"{name_cells(grid, white)} white")
    return " and ".join(parts)


def _split(
    state: State,
    rows: tuple[Technique, ...],
    name: str,
    what: str,
    options: int,
    cases: list[tuple[int, int]],
    premises: int,
) -> Step | None:
    """The step of a case split on the cells of `options`, one case each (`what` names
    the need, ending in "through" or "at"), or None. The cases come from `_first_of`."""
    grid = state.grid
    black, white, alive = _by_cases(state, cases, rows)
    names = [grid.name(i) for i in bits(options)]
    listed = f"{', '.join(names[:-1])} or {names[-1]}"
    if not alive:
        return contradiction(
            state, name, premises, f"{_cap(what)} {listed}, and every way breaks a rule."
        )
    if not black | white:
        return None
    if len(alive) == len(cases):
        every = "both ways make" if len(cases) == 2 else "every way makes"
        how = f"and {every} {_painted(grid, black, white)}"
    else:
        color, other = ("black", "white") if cases[0][0] else ("white", "black")
        bad = [
            f"{names[n]} {color}"
            if n == 0
            else f"{' and '.join(names[:n])} {other} and {names[n]} {color}"
            for n in range(len(cases))
            if n not in alive
        ]
        how = (
            f"but with {' or with '.join(bad)} a rule soon breaks, "
            f"so {_outcome(grid, black, white)}"
        )
    return _step(
        state,
        name,
        f"{_cap(what)} {listed}, {how}.",
        black=black,
        white=white,
        premises=premises | options,
        cases=len(cases),
    )


def _first_of(options: int, *, black: bool) -> list[tuple[int, int]]:
    """The cases of "one cell of `options` is black" (or white): the first option has that
    colour; or the first has the other colour and the second has it; and so on.

    They cover every possibility (take the first option in cell order that has the colour)
    and each carries more than the bare "this option has the colour", so more cases break.
    """
    cases = []
    before = 0
    for e in bits(options):
        bit = 1 << e
        cases.append((bit, before) if black else (before, bit))
        before |= bit
    return cases


def _fewest_first(items: list[tuple[_T, int]], most: int) -> list[tuple[_T, int]]:
    """The (thing, options) pairs with 2 to `most` options, those with fewest first."""
    kept = [(n, thing, opts) for thing, opts in items if 2 <= (n := opts.bit_count()) <= most]
    kept.sort(key=lambda t: t[0])
    return [(thing, opts) for _, thing, opts in kept]


def sea_exit_cases(puzzle: Puzzle, state: State) -> Step | None:
    """A black region with two to four ways out: what every way leads to holds.

    The region must reach the rest of the sea, so one of its exits is black. Each is
    followed for four rounds of simple steps; a cell all lead to the same colour has that
    colour, and an exit that leads to a broken rule is not the way out. Regions with
    fewer exits are split first.
    ::

        . a .          the black cell leaves through a or b. With a black, the 2
        4 # b 2        must take x, which walls the black cells in: b is black
        . . x .        (and a cell both ways make the same colour takes it)
    Source: game rules 1 and 5 (a black string's connection points) taken one step
    further; blog (only one way out for a sea region, and guessing made local).
    """
    return _sea_exit_split(state, "sea-exit-cases", _CASE_ROWS)


def _sea_exit_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    parts = a.sea_parts()
    total = _total_black(state)
    if len(parts) < 2 and (total is None or total <= state.black.bit_count()):
        return None
    grid = state.grid
    for part, exits in _fewest_first(
        [(part, grid.border(part) & a.unknown) for part in parts], CASE_OPTIONS
    ):
        step = _split(
            state,
            rows,
            name,
            f"the black region at {grid.name(_touching(grid, part, exits))} must leave through",
            exits,
            _first_of(exits, black=True),
            part,
        )
        if step is not None:
            return step
    return None


def orphan_exit_cases(puzzle: Puzzle, state: State) -> Step | None:
    """A white cell without a clue and two ways out: what both ways lead to holds.

    The cell must reach a clue, so one of its two exits is white; each is followed for
    four rounds of simple steps, as in `sea-exit-cases`.
    ::

        # . a ?        the dot joins a clue through a or b; if both ways
        # b x ?        make x black, x is black
    Source: game rules 0 and 16 (a clueless white's only exit) taken one step further.
    """
    return _orphan_exit_split(state, "orphan-exit-cases", _CASE_ROWS)


def _orphan_exit_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    grid = state.grid
    for orphan in a.orphans:
        exits = grid.border(orphan) & a.unknown
        if exits.bit_count() != 2:
            continue
        step = _split(
            state,
            rows,
            name,
            f"the white cell{'s' if orphan & (orphan - 1) else ''} at "
            f"{name_cells(grid, orphan, limit=3)} must reach a clue through",
            exits,
            _first_of(exits, black=False),
            orphan,
        )
        if step is not None:
            return step
    return None


def island_exit_cases(puzzle: Puzzle, state: State) -> Step | None:
    """An island lacking cells with two to four ways out: what every way leads to holds.

    The island must grow through one of its exits, so one of them is white: the first;
    or, the first black, the second; and so on. Each case is followed for four rounds
    of simple steps, as in `sea-exit-cases`; this reaches islands with too many shapes
    for `island-options`, such as big clues.
    ::

        # # # #        the 9 grows through a or b. With a black and b white, the
        # 9 a ?        black cell x can no longer reach the sea: a is white
        # b # x
    Source: game rule 0 (an island's only exit) taken one step further; blog (only one
    way out for an incomplete island, and guessing made local).
    """
    return _island_exit_split(state, "island-exit-cases", _CASE_ROWS)


def _island_exit_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    growing = [(island, _exits(a, island)) for island in a.islands if island.least > 0]
    for island, exits in _fewest_first(growing, CASE_OPTIONS):
        step = _split(
            state,
            rows,
            name,
            f"{_clue_text(state, island)} must grow through",
            exits,
            _first_of(exits, black=False),
            island.mask,
        )
        if step is not None:
            return step
    return None


def pool_cases(puzzle: Puzzle, state: State) -> Step | None:
    """A 2x2 block with no white cell and two to four unknown ones: what whitening each
    unknown one leads to holds.

    One of the open cells is white. Each is supposed white and followed for four rounds
    of simple steps; blocks with fewer open cells are split first.
    ::

        # #          a or b is white. Each is followed for four rounds of simple
        a b          steps: a cell both make black is black; if a breaks a rule,
                     b is white
    Source: game rules 14 and 15 (2x2 would be completed, potential pool) taken one step
    further; blog (guessing made local).
    """
    return _pool_split(state, "pool-cases", _CASE_ROWS)


def _pool_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    grid = state.grid
    black = state.black
    unknown = a.unknown
    blocks = [(c, grid.block(c)) for c in bits(grid.pool_corners(black | unknown))]
    for corner, open_cells in _fewest_first(
        [(corner, block & unknown) for corner, block in blocks], CASE_OPTIONS
    ):
        block = grid.block(corner)
        step = _split(
            state,
            rows,
            name,
            f"the 2x2 block at {grid.name(corner)} needs a white cell at",
            open_cells,
            _first_of(open_cells, black=False),
            block & black,
        )
        if step is not None:
            return step
    return None


def _diverse(cases: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`cases` reordered so that the first few already disagree on every cell (greedily),
    which lets a split that finds nothing stop after a few cases."""
    if len(cases) <= 2:
        return cases
    rest = list(cases)
    out = [rest.pop(0)]
    black, white = out[0]
    while rest and black | white:
        best = min(
            range(len(rest)),
            key=lambda n: (black & rest[n][0]).bit_count() + (white & rest[n][1]).bit_count(),
        )
        case = rest.pop(best)
        out.append(case)
        black &= case[0]
        white &= case[1]
    return out + rest


def island_options(puzzle: Puzzle, state: State) -> Step | None:
    """An island with few possible shapes: what every shape leads to holds.

    Each possible completion (see `completion-common-cell`) is supposed, with its border
    black, and followed for four rounds of simple steps. Shapes that break a rule are out;
    a cell that all the others make the same colour has that colour.
    ::

        # 2 a .        the 2 takes a or b. With b, y borders it; with a, the black
        # b y #        cell x can only leave through y: y is black either way
        # # # x
    Source: blog (cell bordered by every completion, guessing made local), game rule 9
    (all routes of an island border a cell); "if this island goes left it blocks ...".
    """
    return _island_split(state, "island-options", _CASE_ROWS)


def _island_split(
    state: State,
    name: str,
    rows: tuple[Technique, ...],
    *,
    shapes: int = CASE_SHAPES,
    work: int = CASE_WORK,
) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    comps = _completion_cache(state)
    grid = state.grid
    dilate = grid.dilate
    for clue, kept in sorted(comps.items(), key=lambda kv: len(kv[1])):
        n = len(kept)
        if n < 2:
            continue
        if n > shapes or n * grid.size > work:
            break
        black, white, alive = _by_cases(state, _diverse([(dilate(c) & ~c, c) for c in kept]), rows)
        island = a.island_at[clue]
        if not alive:
            return contradiction(
                state,
                name,
                island.mask,
                f"Every possible shape of {_clue_text(state, island)} soon breaks a rule.",
            )
        if not black | white:
            continue
        painted = _painted(grid, black, white)
        if len(alive) == n:
            how = f", and all of them make {painted}"
        elif len(alive) == 1:
            how = f"; all but one soon break a rule, and that one makes {painted}"
        else:
            out = n - len(alive)
            how = (
                f"; {out} soon break{'s' if out == 1 else ''} a rule, and the other "
                f"{len(alive)} all make {painted}"
            )
        return _step(
            state,
            name,
            f"{_cap(_clue_text(state, island))} has {n} possible shapes{how}.",
            black=black,
            white=white,
            premises=island.mask,
            cases=n,
        )
    return None


def deep_cases(puzzle: Puzzle, state: State) -> Step | None:
    """The case splits again, each case now followed with the tier 3 techniques too.

    Tried only when no other technique applies: the same splits as `sea-exit-cases`,
    `pool-cases`, `orphan-exit-cases`, `island-exit-cases` and `island-options`, but each
    case is followed for `DEEP_ROUNDS` rounds (not four), which also list island shapes
    (as `completion-common-cell` does), so a case can end on "this island has no shape
    left" or on a longer chain. Last, the islands with
    too many shapes for `island-options` (up to `DEEP_SHAPES`) are split, each shape
    followed by simple steps only.
    ::

        # 3 a ?        a or b is white; with a, the 3 has no shape left that
        # b ? ?        keeps the sea connected: b is white
    Source: the case splits above; blog (cell every completion must use), guessing
    made local.
    """
    for split in (
        _sea_exit_split,
        _pool_split,
        _orphan_exit_split,
        _island_exit_split,
        _island_split,
    ):
        step = split(state, "deep-cases", _DEEP_ROWS)
        if step is not None:
            return step
    # Last, the islands with too many shapes for `island-options` (simple steps only).
    return _island_split(state, "deep-cases", _CASE_ROWS, shapes=DEEP_SHAPES, work=DEEP_WORK)


# -- contradictions --------------------------------------------------------------------------


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
                f"{name_cells(grid, orphan, limit=3)}.",
            )
    parts = a.sea_parts()
    if len(parts) > 1:
        black = state.black
        reach = grid.flood(parts[0], black | a.unknown)
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


# -- the table -------------------------------------------------------------------------------

TECHNIQUES: tuple[Technique, ...] = (
    Technique("one-clue", "A 1 is a whole island", 1, one_clue),
    Technique("between-clues", "Cell between two clues", 1, between_clues),
    Technique("l-corner", "Cells between diagonal clues", 1, l_corner),
    Technique("island-complete", "Complete island", 1, island_complete),
    Technique("bordering-two-islands", "Cell touching two islands", 1, bordering_two_islands),
    Technique("pool-prevention", "Pool prevention", 1, pool_prevention),
    Technique("island-single-exit", "Island with a single exit", 1, island_single_exit),
    Technique("last-cell", "Last cell with one option", 1, last_cell),
    Technique("sea-single-exit", "Sea with a single exit", 1, sea_single_exit),
    Technique("orphan-single-exit", "Stray white cell with a single exit", 1, orphan_single_exit),
    Technique("unreachable", "Unreachable cell", 1, unreachable),
    Technique("enclosed-pocket", "Enclosed pocket", 1, enclosed_pocket),
    Technique("counting", "Counting white cells", 1, counting),
    Technique("two-choices-border", "Both choices border a cell", 2, two_choices_border),
    Technique("island-bottleneck", "Island bottleneck", 2, island_bottleneck),
    Technique("orphan-bottleneck", "Stray white cell bottleneck", 2, orphan_bottleneck),
    Technique("sea-articulation", "Sea articulation", 2, sea_articulation),
    Technique("pool-escape", "Pool escape", 2, pool_escape),
    Technique("completion-common-cell", "Cell in every completion", 3, completion_common_cell),
    Technique(
        "completion-common-border", "Cell bordering every completion", 3, completion_common_border
    ),
    Technique("completion-unreachable", "Cell in no completion", 3, completion_unreachable),
    Technique("walled-in-island", "Island walled in by the sea", 3, walled_in_island),
    Technique("sea-exit-cases", "Both ways out of a black region", 4, sea_exit_cases),
    Technique("pool-cases", "Both ways to break a pool", 4, pool_cases),
    Technique("orphan-exit-cases", "Both ways out of a stray white cell", 4, orphan_exit_cases),
    Technique("island-exit-cases", "Every way out of an island", 4, island_exit_cases),
    Technique("island-options", "Every shape of an island agrees", 4, island_options),
    Technique("deep-cases", "Case split followed with island shapes", 4, deep_cases),
)
"""The catalogue, cheapest first (tiers never decrease down the table). Trial steps (tier 5)
come from `logic.trial`."""

TRIAL = Technique("trial", "Trial and error", 5, lambda puzzle, state: None)
"""The row that stands for trial steps (made by `logic.trial`, not by this function)."""

_BY_ID = {t.id: t for t in (*TECHNIQUES, TRIAL)}
_CASE_ROWS = tuple(t for t in TECHNIQUES if t.tier <= CASE_TIER)
_DEEP_ROWS = tuple(t for t in TECHNIQUES if t.tier <= 3)  # every row but the case splits


def technique(id: str) -> Technique:
    """The catalogue row with this id.

    Raises:
        KeyError: no such technique.
    """
    return _BY_ID[id]


def plain_step(state: State, max_tier: int = 4) -> Step | None:
    """The first step the table gives (cheapest technique first), up to `max_tier`."""
    puzzle = state.puzzle
    for row in TECHNIQUES:
        if row.tier > max_tier:
            break
        step = row.func(puzzle, state)
        if step is not None:
            return step
    return None
