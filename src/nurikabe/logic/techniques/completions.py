"""Tier 3: island completions, every shape an island lacking a few cells can still take.

Owns the listing of completions (with their sea connectivity checked where it is
cheap, and pairs of islands checked against each other, and long lists indexed by cell
so that filtering them again is cheap, `_Index`) and the techniques that read
them: completion-common-cell, completion-common-border and completion-unreachable.
The listing is kept per position, and the case splits of tier 4 use it too.

Imports `grid` (and its compiled `_cgrid`, which lists the shapes and tests each shape
of a list against a position), `logic.state`,
`logic.steps` and `logic.techniques.common`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from operator import and_
from typing import cast

from ..._cgrid import keep_shapes, pairwise, sea_shapes, shapes
from ...grid import Grid, bits
from ..state import Analysis, State
from ..steps import Step, name_cells
from .common import MEMO_MAX, _cap, _clue_text, _memo, _step, _ways, contradiction

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


INDEX_FROM = 100
"""Lists of more shapes than this are filtered through their index (`_Index`); shorter
ones shape by shape, which costs less than the index's passes over the position."""


WINDOW_FROM = 4000
"""Grids up to this many cells check sea connectivity around a shape exactly."""


WINDOW_RADIUS = 8
"""On larger grids, the radius of the window checked around a shape."""


def _enumerate(
    grid: Grid,
    start: int,
    allowed: int,
    need: int,
    cap: int,
    check: Callable[[], None] | None = None,
) -> list[int] | None:
    """Every connected superset of `start` with `need` more cells from `allowed`, or None
    when there are more than `cap` (Redelmeier's method: each set is made once; the
    search gives up, None too, after 20 * `cap` nodes). Listed in `_cgrid.shapes`.

    `check` is called every few thousand search nodes (it may raise to stop the search)."""
    return shapes(grid.rows, grid.cols, start, allowed, need, cap, check)


class _Index:
    """The shapes of an island's list, indexed by cell, so that a position's filter (see
    `survivors`) is a few operations per cell instead of a test per shape.

    A set of the shapes is a mask over their positions in the list (bit *i*: shape
    *i*); the list's order is kept. Made with each list a position keeps, and shared,
    as the position's cache is, by the suppositions and later positions made from it;
    the index itself is built when the list is first filtered again (most lists made
    inside suppositions never are), by whichever of them does it first."""

    __slots__ = ("cells", "inside", "near", "shapes", "start", "touching")

    def __init__(self, shapes: list[int]) -> None:
        self.shapes = shapes
        """The list."""
        self.start = -1
        """The cells every shape takes (-1: the index is not built yet)."""
        self.inside: dict[int, int] = {}
        """Per cell outside `start`, the shapes taking it."""
        self.touching: dict[int, int] = {}
        """Per cell, the shapes it borders."""
        self.cells = 0
        """The cells some shape takes."""
        self.near = 0
        """The cells some shape borders."""

    def _build(self, dilate: Callable[[int], int], rings: dict[int, int]) -> None:
        """Fill the index from the list; `rings` (the position's memory of borders)
        gives each shape's border, and receives those it lacks."""
        shapes = self.shapes
        start = self.start = reduce(and_, shapes) if shapes else 0
        inside = self.inside
        touching = self.touching
        cells = near = 0
        for n, comp in enumerate(shapes):
            bit = 1 << n
            ring = rings.get(comp)
            if ring is None:
                ring = rings[comp] = dilate(comp) & ~comp
            cells |= comp
            near |= ring
            for cell in bits(comp & ~start):
                inside[cell] = inside.get(cell, 0) | bit
            for cell in bits(ring):
                touching[cell] = touching.get(cell, 0) | bit
        self.cells = cells
        self.near = near

    def listed(self, alive: int) -> list[int]:
        """The shapes of the set `alive`, in the listing's order."""
        return list(map(self.shapes.__getitem__, bits(alive)))

    def narrowed(self, alive: int, kept: list[int]) -> int:
        """The set of the shapes of `alive` that `kept` holds."""
        keep = set(kept)
        shapes = self.shapes
        out = 0
        for n in bits(alive):
            if shapes[n] in keep:
                out |= 1 << n
        return out

    def tested(
        self,
        alive: int,
        forbidden: int,
        held: int,
        white: int,
        black: int,
        dead: int,
        grid: Grid,
    ) -> int:
        """`survivors`, found by testing each shape of `alive` (cheaper for a few; in
        `_cgrid.keep_shapes`)."""
        return _kept(self.shapes, alive, forbidden, held, white, black, dead, grid)

    def survivors(
        self,
        alive: int,
        forbidden: int,
        held: int,
        white: int,
        black: int,
        dead: int,
        grid: Grid,
        rings: dict[int, int] | None = None,
    ) -> int:
        """The shapes of `alive` that take no cell of `forbidden`, hold every cell of
        `held`, border no white cell, and leave no 2x2 block all black once their border
        and the cells of `dead` they do not take are black (what a test per shape would
        keep: ``comp & forbidden``, ``comp & held != held``, ``ring & white`` and
        ``pool_corners(black | ring | (dead & ~comp))``). `rings` (when the index is
        built) receives each shape's border."""
        if self.start < 0:
            self._build(grid.dilate, {} if rings is None else rings)
        inside = self.inside
        touching = self.touching
        out = 0
        for cell in bits(forbidden & self.cells):
            out |= inside.get(cell, 0)
        for cell in bits(white & self.near):
            out |= touching[cell]
        alive &= ~out
        if held & ~self.cells or forbidden & self.start:
            return 0
        for cell in bits(held):
            if cell in inside:
                alive &= inside[cell]
        if not alive:
            return 0
        dead &= ~self.start  # every shape takes those
        # A block can only be all black for some shape where each of its cells is black,
        # borders some shape, or is a dead cell (black when the shape does not take it).
        for corner in bits(grid.pool_corners(black | dead | self.near)):
            pooled = alive
            for cell in bits(grid.block(corner) & ~black):
                if dead >> cell & 1:
                    pooled &= touching.get(cell, 0) | ~inside.get(cell, 0)
                else:
                    pooled &= touching.get(cell, 0)
                if not pooled:
                    break
            alive &= ~pooled
        return alive


def _kept(
    shapes: list[int],
    alive: int | None,
    forbidden: int,
    held: int,
    white: int,
    black: int,
    dead: int,
    grid: Grid,
) -> int:
    """The shapes of `shapes` (those of the set `alive`, None: all) that
    `_Index.survivors` keeps, as a set over the list, tested one by one in
    `_cgrid.keep_shapes`."""
    geometry = (grid.full, grid.not_first_col, grid.not_last_col)
    return keep_shapes(shapes, alive, *geometry, forbidden, held, white, black, dead, grid.cols)


def _filter_each(
    candidates: list[int],
    forbidden: int,
    held: int,
    white: int,
    black: int,
    dead: int,
    grid: Grid,
) -> list[int]:
    """The shapes of `candidates` that `_Index.survivors` keeps, tested one by one (what
    a listing filtered once costs least with)."""
    kept = _kept(candidates, None, forbidden, held, white, black, dead, grid)
    return list(map(candidates.__getitem__, bits(kept)))


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
                found = _enumerate(grid, island.mask, allowed, need, cap, state.check_time)
                if found is None:
                    _memo(state)[too_many] = True
            if found is None:
                cache[island.clue] = (key, None, local, None)
                continue
            listed: list[int] = found
            indexed: tuple[_Index, int] | None = None  # a fresh list: no index yet
        elif entry[1] is None:
            continue
        else:
            listed = entry[1]
            indexed = cast("tuple[_Index, int]", entry[3])
        mask = island.mask
        forbidden = island.forbidden | black
        # The cells a shape must hold: the island and the white cells only it can reach.
        held = mask | must_join.get(island.clue, 0)
        # Cells no other island can reach turn black once this island is complete.
        others = (cover_any & ~island.reach) | cover_two
        dead_base = unknown & ~others
        if indexed is None:
            # A fresh listing, filtered shape by shape (most are filtered only once).
            kept = _filter_each(listed, forbidden, held, white, black, dead_base, grid)
        else:
            index, alive = indexed
            if alive.bit_count() <= INDEX_FROM:
                # A short list: testing each shape costs less than the index's passes.
                alive = index.tested(alive, forbidden, held, white, black, dead_base, grid)
            else:
                alive = index.survivors(
                    alive, forbidden, held, white, black, dead_base, grid, rings
                )
            kept = index.listed(alive)
            indexed = (index, alive)
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
            if base:
                # Each shape's flood from `base`, in `_cgrid.sea_shapes` (`_sea_survives`).
                survive = sea_shapes(
                    kept,
                    None,
                    grid.full,
                    grid.not_first_col,
                    grid.not_last_col,
                    black,
                    dead_base,
                    domain,
                    base,
                    grid.cols,
                )
                fewer = list(map(kept.__getitem__, bits(survive)))
            else:
                ring = rings.get
                fewer = [
                    c
                    for c in kept
                    if _sea_survives(
                        grid,
                        black | (ring(c) or dilate(c) & ~c) | (dead_base & ~c),
                        domain,
                        c,
                        mask,
                        base,
                    )
                ]
            if len(fewer) != len(kept):
                kept = fewer
                if indexed is not None:
                    indexed = (indexed[0], indexed[0].narrowed(indexed[1], kept))
        if indexed is None:
            indexed = (_Index(kept), (1 << len(kept)) - 1)
        cache[island.clue] = (
            entry[0] if entry and entry[1] is not None else key,
            kept,
            local,
            indexed,
        )
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
    Each shape's test against the neighbours' lists is made in `_cgrid.pairwise`.
    """
    grid = state.grid
    cache = state.completions
    near = {clue: grid.dilate(a.island_at[clue].reach) for clue in out}
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
        geometry = (grid.not_first_col, grid.not_last_col, grid.full, grid.cols)
        fresh = list(map(kept.__getitem__, bits(pairwise(kept, others, *geometry))))
        if len(fresh) != len(kept):
            out[clue] = fresh
            entry = cache[clue]
            index, alive = cast("tuple[_Index, int]", entry[3])
            cache[clue] = (entry[0], fresh, entry[2], (index, index.narrowed(alive, fresh)))


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


def completion_common_cell(state: State) -> Step | None:
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


def completion_common_border(state: State) -> Step | None:
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


def completion_unreachable(state: State) -> Step | None:
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
