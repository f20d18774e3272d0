"""The search of the pure-Python reference engine (`reference`; see `solver.reference`).

Owns `ReferenceSearch` (a generator of solutions under a `Limit`) and `search` (its `Result`).
Everything works on int bitsets (see `grid`): a search state is just two masks, the
black cells and the white cells; islands are recomputed from the white mask.

Propagation runs cheap rules first, all read from one snapshot of the state and applied
together, and repeats until nothing changes:

* an island of the right size gets a black border; an overfull island, two clues in one
  island, a pool, an island with no way out are contradictions;
* a cell next to two different islands is black;
* an incomplete island with a single exit grows through it;
* cells no island can reach within its remaining size (through cells that touch no other
  island) are black; a white cell no island can reach, or an island that cannot reach its
  size, is a contradiction;
* a 2x2 block with three black cells has its fourth cell white;
* with no ``?`` clue, the white cells number exactly the clue total.

When those stall (second tier): islands lacking at most four cells have their completions
enumerated (Redelmeier's method, cached on the state near the island; a completion whose
border would make a pool or wall in a black cell is dropped): cells every completion uses
are white, cells every completion borders are black, cells no completion of any island
covers are black. The sea must stay connectable through unknown cells, and a cell it
cannot reach is white (at nodes, with no ``?`` clue, "reach" counts the unknown cells the
sea would have to take on the way against the black cells it has left); a white cell
without a clue or a black component with a single exit grows through it. Third tier (at
nodes): sea cut cells (Tarjan) are black, and an island lacking more cells than are
enumerated takes the unknown cells its reach hangs on (without one, fewer cells than it
needs stay connected to it).

At a node where propagation stalls, cells next to white cells are probed both ways
(failed literals): a color that fails forces the other, cells both colors agree on are
forced, and after a change only cells near it are probed again. The search then branches
on the completions of the island with fewest of them, or on the probed cell whose two
colors decide the most. The search is iterative (an explicit stack), checks its
deadline inside propagation, and checks each full board against the rules before
yielding it. Sealed islands (complete, no unknown neighbour) leave the per-round loops,
and children regrow islands (and black components) from their parent's. Floods over the
sea run along row segments by carry (one addition fills every run to its right end). The
reach of an island lacking many cells is reused while the allowed cells in it and next
to it are unchanged (the bounded search looks at nothing else).

The rules that read only the state are functions in `solver.reference.rules`, the
completions in `solver.reference.completions`; the island and reach rules, which keep
caches on the search, are methods here (`_islands`, `_reach`, `_completions`), and
`_propagate` runs them all to a fixpoint.

Imports `grid`, `limits`, `puzzle`, `solver.result` and the modules beside it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ...limits import OutOfTime
from ...puzzle import UNKNOWN_CLUE, Board, Puzzle
from ..result import Limit, Result, SearchBase, Stats, Status
from .completions import ENUM_CAP, completions
from .rules import (
    Contradiction,
    black_exits,
    island_cut_cells,
    orphan_exits,
    pool_fourth_cells,
    sea_cut_cells,
    sea_unreachable,
    white_count,
)

__all__ = ["ENUM_REMAINING", "ReferenceSearch", "search"]

ENUM_REMAINING = 4
"""Enumerate the completions of islands lacking at most this many cells."""


_Base = tuple[int, list[int], int, list[int], int, int, list[int]]
"""What a propagation leaves for its descendants: white mask, islands, clued cells,
indices of the islands still active, cells of the sealed islands, black mask (-1: none)
and its components."""


class ReferenceSearch(SearchBase):
    """Depth-first search for the solutions of `puzzle`, within `limit`.

    `start` is an optional partial board whose black and white cells are taken as given.
    Iterate `solutions()`; afterwards `complete`, `limit_hit`, `nodes` and `seconds` tell
    how it went.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> s = ReferenceSearch(p, Limit(solutions=None))
    >>> [str(b).replace("\\n", "/") for b in s.solutions()], s.complete
    (['..#/###/#..', '.##/.#./##.'], True)
    """

    engine = "reference"

    def __init__(self, puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> None:
        super().__init__(puzzle, limit, start=start)
        self.found = 0
        """Solutions yielded."""
        self.rounds = 0
        """Propagation rounds."""
        self.enumerations = 0
        """Island completion enumerations."""
        self.probes = 0
        """Cells probed both ways."""

        # Tuning knobs (measured with bench/perf_reference.py; tests may flip them).
        self.probing = True
        """Probe cells (failed literals) at every branching node."""
        self.probe_local = True
        """Re-probe only cells near what a forced cell changed (else: every candidate)."""
        self.probe_radius = 1
        """How near, in steps, for `probe_local`."""
        self.probe_near = True
        """Probe only cells next to white cells (probing every cell costs more than it finds)."""
        self.probe_cut = False
        """Look for sea cut cells inside probes too."""
        self.probe_after = 0
        """Start probing only after this many nodes."""
        self.probe_enum = 0
        """Enumerate completions inside probes for islands lacking at most this many cells."""
        self.node_enum = ENUM_REMAINING
        """Enumerate completions at nodes for islands lacking at most this many cells."""
        self.black_exits_cells = 1 << 30
        """Inside probes, look for black components with a single exit only on boards of at
        most this many cells (measured: on every board, since the sea floods follow row
        segments by carry)."""

        self.sea_bound = 1
        """Bound the sea's reach by its size (the cells left once every island is counted):
        0 never, 1 at nodes only, 2 inside probes too."""
        self.island_cuts = 1
        """Islands lacking more cells than are enumerated take the cells their reach hangs
        on: 0 never, 1 at nodes only, 2 inside probes too."""

        self._deadline: float | None = None
        self._base: _Base = (0, [], 0, [], 0, -1, [])
        self._balls: dict[tuple[int, int], int] = {}
        self._reach_cache: dict[tuple[int, int], int] = {}
        self._far: dict[int, tuple[int, int, int]] = {}
        self._around: dict[int, int] = {}
        self._zones: dict[int, int] = {}
        self._zones2: dict[int, int] = {}
        self._cache: dict[tuple[int, ...], tuple[list[int], int, int, int] | None] = {}

        grid = puzzle.grid
        self._grid = grid
        self._full = grid.full
        self._cols = grid.cols
        self._clue_cells = tuple(puzzle.clues)
        self._clue_bits = tuple(1 << i for i in self._clue_cells)
        self._clue_sizes = tuple(puzzle.clues[i] for i in self._clue_cells)
        self._clue_mask = puzzle.clue_mask
        self._total = None if puzzle.has_unknown_clues else puzzle.known_clue_total
        # Top-left cells of every 2x2 block.
        pairs = grid.not_last_col
        self._corners = pairs & (pairs >> grid.cols) if grid.rows > 1 else 0

    # -- the search ----------------------------------------------------------------------------

    def solutions(self) -> Iterator[Board]:
        """Yield full solution boards one by one until the space or the limit runs out."""
        t0 = time.perf_counter()
        limit = self.limit
        if limit.seconds is not None:
            self._deadline = t0 + limit.seconds
        max_nodes = limit.nodes
        max_solutions = limit.solutions
        black = 0
        white = self._clue_mask
        if self.start is not None:
            black |= self.start.black_mask & self._full
            white |= self.start.white_mask & self._full
        # Each entry carries an ancestor's islands to regrow from (None: from scratch).
        stack: list[tuple[int, int, _Base | None]] = [(black, white, None)]
        try:
            if max_solutions is not None and max_solutions <= 0:
                self.limit_hit = "solutions"
                return
            while stack:
                if max_nodes is not None and self.nodes >= max_nodes:
                    self.limit_hit = "nodes"
                    return
                black, white, base = stack.pop()
                self.nodes += 1
                try:
                    black, white, children = self._propagate(
                        black, white, self.node_enum, True, base
                    )
                    base = self._base
                    if children and self.probing and self.nodes > self.probe_after:
                        black, white, children = self._probe(black, white, children)
                except Contradiction:
                    continue
                if children:
                    stack.extend((b, w, base) for b, w in reversed(children))
                    continue
                if not self._is_solution(black):
                    continue
                self.found += 1
                self.seconds = time.perf_counter() - t0
                yield Board(self.puzzle, black, self._full & ~black)
                if max_solutions is not None and self.found >= max_solutions:
                    if stack:
                        self.limit_hit = "solutions"
                    else:
                        self.complete = True
                    return
            self.complete = True
        except OutOfTime:
            self.limit_hit = "seconds"
        finally:
            self.seconds = time.perf_counter() - t0

    def _is_solution(self, black: int) -> bool:
        """Check a full board against every rule, independently of propagation."""
        grid = self._grid
        white = self._full & ~black
        if grid.pool_corners(black) or not grid.is_connected(black):
            return False
        if white & ~self._full or black & self._clue_mask:
            return False
        seen = 0
        for bit, size in zip(self._clue_bits, self._clue_sizes, strict=True):
            if seen & bit:
                return False
            island = grid.flood(bit, white)
            if size != UNKNOWN_CLUE and island.bit_count() != size:
                return False
            if (island & self._clue_mask) != bit:
                return False
            seen |= island
        return seen == white

    # -- propagation ---------------------------------------------------------------------------

    def _propagate(
        self,
        black: int,
        white: int,
        enum_limit: int = ENUM_REMAINING,
        cut: bool = True,
        base: _Base | None = None,
        branch: bool = True,
    ) -> tuple[int, int, list[tuple[int, int]]]:
        """Run the rules to a fixpoint; return the new masks and the children to branch into.

        No children means every cell is decided. `base` is the white mask, islands, clued
        cells, active islands and sealed cells of an ancestor state, to regrow islands
        from. On return, `_base` holds those of the returned state. An island is sealed
        (and left out of every loop) once it has no unknown neighbour and is complete.
        Raises `Contradiction` or `OutOfTime`.
        """
        full = self._full
        cols = self._cols
        corners = self._corners
        clue_bits = self._clue_bits
        clue_sizes = self._clue_sizes
        total = self._total
        sea_size = None if total is None else self._full.bit_count() - total
        sea_bound = self.sea_bound
        deadline = self._deadline
        perf = time.perf_counter
        nclues = len(clue_bits)
        zones = self._zones
        reach_cache = self._reach_cache
        far = self._far
        small = self._grid.size <= self.black_exits_cells
        around = self._around

        grid = self._grid
        dil = grid.dilate

        prev: int | None = None
        last: list[int] = []
        clued = 0
        active: list[int] = list(range(nclues))
        sealed = 0
        bprev = -1
        bparts: list[int] = []
        if base is not None:
            prev, last, clued, active, sealed, bprev, bparts = base
        while True:
            self.rounds += 1
            if deadline is not None and perf() > deadline:
                raise OutOfTime
            if black & white:
                raise Contradiction
            unknown = full & ~(black | white)
            # Pools.
            pb = black & (black >> 1) & corners
            if pb & (pb >> cols):
                raise Contradiction

            new_black = 0
            new_white = 0

            comps, clued = self._islands(white, prev, last, clued, sealed, active)
            prev = white
            last = comps
            orphan = white & ~clued

            adj1 = 0
            adj2 = 0
            exits = [0] * nclues
            counts = [0] * nclues
            if len(around) > 50_000:
                around.clear()
            done = 0
            for k in active:
                comp = comps[k]
                ring = around.get(comp)
                if ring is None:
                    ring = around[comp] = dil(comp)
                out = ring & unknown
                exits[k] = out
                adj2 |= adj1 & out
                adj1 |= out
                n = comp.bit_count()
                counts[k] = n
                size = clue_sizes[k]
                if size > 0:
                    if n >= size:
                        if n > size:
                            raise Contradiction
                        new_black |= out
                        if not out:
                            done += 1
                    elif not out:
                        raise Contradiction
                    elif not out & (out - 1):
                        new_white |= out
                elif not out:
                    done += 1
            if done:
                keep = []
                for k in active:
                    if exits[k] or clue_sizes[k] > counts[k]:
                        keep.append(k)
                    else:
                        sealed |= comps[k]
                active = keep
            new_black |= adj2

            # Reach: where each incomplete island could still grow.
            free = unknown | orphan
            cover = clued
            reaches = comps[:]
            if len(reach_cache) > 100_000:
                reach_cache.clear()
                far.clear()
                zones.clear()
                self._zones2.clear()
            # An island may use free cells next to no other island (`adj1` is unknown).
            lone = free & ~adj1
            for k in active:
                size = clue_sizes[k]
                n = counts[k]
                if size == n:
                    continue
                reach = self._reach(comps[k], size, n, lone | (exits[k] & ~adj2))
                reaches[k] = reach
                cover |= reach
            if orphan & ~cover:
                raise Contradiction
            new_black |= unknown & ~cover

            new_white |= pool_fourth_cells(black, unknown, corners, cols)
            if total is not None:
                counted_black, counted_white = white_count(white, unknown, total)
                new_black |= counted_black
                new_white |= counted_white

            if new_black & new_white:
                raise Contradiction
            if new_black | new_white:
                black |= new_black
                white |= new_white
                continue

            if not unknown:
                self._base = (white, comps, clued, active, sealed, bprev, bparts)
                return black, white, []

            # Second tier: enumerate the completions of nearly complete islands.
            best: list[int] | None = None
            cover2 = clued
            must_black = 0
            for k in active:
                size = clue_sizes[k]
                n = counts[k]
                if size == n:
                    continue
                if size < 0 or size - n > enum_limit:
                    cover2 |= reaches[k]
                    continue
                comp = comps[k]
                allowed = lone | (exits[k] & ~adj2)
                found = self._completions(comp, size, allowed, orphan, black, white)
                if found is None:
                    cover2 |= reaches[k]
                    continue
                shapes, union, inter, binter = found
                if not shapes:
                    raise Contradiction
                cover2 |= union
                new_white |= inter & unknown
                must_black |= binter & unknown
                if best is None or len(shapes) < len(best):
                    best = shapes
            new_black |= must_black | (unknown & ~cover2)

            # (Checked once per fixpoint of the cheap rules: on big boards this flood is long.)
            if black:
                bounded = sea_size is not None and (sea_bound > 1 or (sea_bound and cut))
                spare = sea_size - black.bit_count() if bounded and sea_size is not None else None
                new_white |= sea_unreachable(grid, black, unknown, spare)
            orphans, grow = orphan_exits(grid, orphan, unknown)
            new_white |= grow
            if black and (cut or small):
                bprev, bparts, exit_cells = black_exits(grid, black, unknown, bprev, bparts, around)
                new_black |= exit_cells

            if new_black & new_white:
                raise Contradiction
            if new_black | new_white:
                black |= new_black
                white |= new_white
                continue

            # Third tier: unknown cells whose whitening would split the sea.
            if black and cut:
                new_black = sea_cut_cells(grid, black, unknown, self._deadline)
                if new_black:
                    black |= new_black
                    continue

            # Unknown cells a big island's reach hangs on: without one, too few cells stay
            # connected to the island, so it is white.
            if self.island_cuts > 1 or (cut and self.island_cuts):
                for k in active:
                    size = clue_sizes[k]
                    if size - counts[k] > enum_limit:
                        new_white |= island_cut_cells(grid, reaches[k], comps[k], unknown, size)
                if new_white:
                    white |= new_white
                    continue

            # Branch (probes only need to know that cells are left).
            self._base = (white, comps, clued, active, sealed, bprev, bparts)
            if not branch:
                return black, white, [(black, white)]
            if best is not None:
                children = []
                for shape in best:
                    ring = dil(shape) & ~shape
                    children.append((black | ring, white | shape))
                return black, white, children
            cell = self._branch_cell(comps, counts, exits, orphans, unknown)
            return black, white, [(black, white | cell), (black | cell, white)]

    def _islands(
        self,
        white: int,
        prev: int | None,
        last: list[int],
        clued: int,
        sealed: int,
        active: list[int],
    ) -> tuple[list[int], int]:
        """The white component of each clue and their union, regrown from the islands
        `last` of the white mask `prev` (None: from scratch) only where whites were added
        next to an active island; `clued` and `sealed` are the union and the sealed
        islands of `last`. Raises `Contradiction` for two clues in one island."""
        clue_bits = self._clue_bits
        clue_mask = self._clue_mask
        flood = self._grid.flood
        if prev is None:
            comps = []
            clued = 0
            for bit in clue_bits:
                if clued & bit:
                    raise Contradiction  # two clues in one island
                comp = flood(bit, white)
                if comp & clue_mask != bit:
                    raise Contradiction
                comps.append(comp)
                clued |= comp
            return comps, clued
        added = white & ~prev
        if not added:
            return last, clued
        comps = last[:]
        clued = sealed
        around = self._around
        for k in active:
            comp = comps[k]
            ring = around.get(comp)
            if ring is None:
                ring = around[comp] = self._grid.dilate(comp)
            if ring & added:
                comp = flood(comp, white)
                if comp & clue_mask != clue_bits[k]:
                    raise Contradiction
                comps[k] = comp
            clued |= comp
        return comps, clued

    def _reach(self, comp: int, size: int, n: int, allowed: int) -> int:
        """The cells island `comp` (of `n` cells, clue `size`, -1 for ``?``) could still take
        through `allowed` cells: within what it lacks, or any connected for a ``?``.

        Cached: near the island for small islands, else while the allowed cells in the
        reach and next to it are unchanged. Raises `Contradiction` when too few are left.
        """
        dil = self._grid.dilate
        far = self._far
        if size > 0:
            r = size - n
            key = None
            reach = 0
            if r <= 12:
                zones = self._zones
                zone = zones.get(comp)
                if zone is None:
                    zone = zones[comp] = self._zone(comp, r)
                key = (comp, allowed & zone)
                reach = self._reach_cache.get(key, 0)
            elif (last_far := far.get(comp)) is not None and (allowed & last_far[0] == last_far[1]):
                # The search only ever looks at allowed cells in the reach or
                # next to it: the same there, the same reach.
                reach = last_far[2]
            if not reach:
                reach = comp
                front = comp
                for _ in range(r):
                    front = dil(front) & allowed & ~reach
                    if not front:
                        break
                    reach |= front
                if key is not None:
                    self._reach_cache[key] = reach
                else:
                    ring = dil(reach)
                    far[comp] = (ring, allowed & ring, reach)
            if reach.bit_count() < size:
                raise Contradiction
            return reach
        last_far = far.get(comp)
        if last_far is not None and allowed & last_far[0] == last_far[1]:
            return last_far[2]
        reach = self._grid.flood(comp, comp | allowed)
        ring = dil(reach)
        far[comp] = (ring, allowed & ring, reach)
        return reach

    def _zone(self, comp: int, r: int) -> int:
        """The cells within `r` steps of `comp`."""
        if r > 6 or comp.bit_count() > 12:
            zone = comp
            for _ in range(r):
                zone = self._grid.dilate(zone)
            return zone
        zone = 0
        while comp:
            low = comp & -comp
            comp ^= low
            zone |= self._ball(low, r)
        return zone

    def _ball(self, bit: int, r: int) -> int:
        """The cells within `r` steps of cell `bit` (cached)."""
        balls = self._balls
        ball = balls.get((bit, r))
        if ball is None:
            ball = bit if r == 0 else self._grid.dilate(self._ball(bit, r - 1))
            balls[(bit, r)] = ball
        return ball

    def _probe(
        self, black: int, white: int, children: list[tuple[int, int]]
    ) -> tuple[int, int, list[tuple[int, int]]]:
        """Failed-literal probing: try unknown cells both ways, from a worklist.

        A color that leads to a contradiction forces the other; cells both colors agree
        on are forced. After a forced cell, only the cells near what changed are probed
        again (`probe_local`: a heuristic that may miss a far-reaching deduction, which the
        search then finds; it never deduces anything unsound), else every candidate. With
        nothing forced, branch on the cell whose two colors decide the most cells.
        """
        deep = self._propagate
        probe_limit = self.probe_enum
        node_limit = self.node_enum
        probe_cut = self.probe_cut
        dilate = self._grid.dilate
        full = self._full
        start = self._base
        queue = full & ~(black | white)
        if self.probe_near:
            queue &= dilate(white)
        scores: dict[int, int] = {}
        while queue:
            bit = queue & -queue
            queue ^= bit
            if (black | white) & bit:
                continue
            self.probes += 1
            try:
                wb, ww, _ = deep(black, white | bit, probe_limit, probe_cut, start, False)
                w_ok = True
            except Contradiction:
                w_ok = False
            try:
                bb, bw, _ = deep(black | bit, white, probe_limit, probe_cut, start, False)
                b_ok = True
            except Contradiction:
                if not w_ok:
                    raise
                b_ok = False
            before = black | white
            if not w_ok:
                black, white, children = deep(bb, bw, node_limit, probe_cut, start)
            elif not b_ok:
                black, white, children = deep(wb, ww, node_limit, probe_cut, start)
            else:
                cb = wb & bb & ~black
                cw = ww & bw & ~white
                if cb | cw:
                    black, white, children = deep(
                        black | cb, white | cw, node_limit, probe_cut, start
                    )
                else:
                    kn = before.bit_count()
                    scores[bit] = ((wb | ww).bit_count() - kn) * ((bb | bw).bit_count() - kn)
                    continue
            if not children:
                return black, white, children
            start = self._base
            if self.probe_local:
                near = (black | white) & ~before
                for _ in range(self.probe_radius):
                    near = dilate(near)
            else:
                near = full
                scores.clear()
            if self.probe_near:
                near &= dilate(white)
            queue |= near & ~(black | white)
        best_score = -1
        best = 0
        unknown = full & ~(black | white)
        for bit, score in scores.items():
            if score > best_score and bit & unknown:
                best_score = score
                best = bit
        if best:
            return black, white, [(black, white | best), (black | best, white)]
        return black, white, children

    def _branch_cell(
        self,
        comps: list[int],
        counts: list[int],
        exits: list[int],
        orphans: list[int],
        unknown: int,
    ) -> int:
        """The bit of the cell to branch on: an exit of the island with fewest exits."""
        best = 0
        best_n = 1 << 30
        sizes = self._clue_sizes
        for k in range(len(comps)):
            out = exits[k]
            if not out or sizes[k] == counts[k]:
                continue
            m = out.bit_count()
            if sizes[k] < 0:
                m += 1000
            if m < best_n:
                best_n = m
                best = out
        if not best:
            for part in orphans:
                out = self._grid.dilate(part) & unknown
                if out:
                    best = out
                    break
        if not best:
            best = unknown
        return best & -best

    def _completions(
        self, comp: int, size: int, allowed: int, orphan: int, black: int, white: int
    ) -> tuple[list[int], int, int, int] | None:
        """Every way to complete island `comp` to `size` cells, or None past the cap.

        A completion is a connected set of `size` cells holding `comp`, otherwise made of
        `allowed` cells, that swallows every white cell it touches and whose black border
        makes no pool and has no cell walled in (when the sea has other cells). Returns
        the shapes, their union, their intersection and the cells outside every shape
        that border all of them. Results are cached on the part of the state they
        depend on.
        """
        # Shapes stay within r steps of the island; pools and walled-in cells are checked
        # up to two steps further.
        zone = self._zones2.get(comp)
        if zone is None:
            zone = self._zones2[comp] = self._zone(comp, size - comp.bit_count() + 2)
        # A white cell without a clue inside the zone may belong to a component that
        # leaves it: key on the whole of such components.
        near = orphan & zone
        if near:
            near = self._grid.flood(near, orphan)
        key = (comp, size, allowed & zone, near, black & zone, white & zone)
        cache = self._cache
        hit = cache.get(key)
        if hit is not None or key in cache:
            return hit
        self.enumerations += 1
        if len(cache) > 200_000:
            cache.clear()
        result = completions(
            self._grid, self._corners, comp, size, allowed, orphan, black, white, ENUM_CAP
        )
        cache[key] = result
        return result


def search(puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> Result:
    """Solve `puzzle` with the pure-Python engine and say whether the solution is unique.

    `start` is an optional partial board whose shaded cells are taken as given.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> search(p, Limit(solutions=2)).status
    <Status.MULTIPLE: 'multiple'>
    """
    engine = ReferenceSearch(puzzle, limit, start=start)
    found = list(engine.solutions())
    if len(found) >= 2:
        status = Status.MULTIPLE
    elif engine.complete:
        status = Status.UNIQUE if found else Status.NONE
    else:
        status = Status.UNKNOWN
    stats = Stats(
        engine="reference",
        seconds=engine.seconds,
        nodes=engine.nodes,
        extra={"rounds": engine.rounds, "enumerations": engine.enumerations},
    )
    return Result(
        puzzle=puzzle,
        status=status,
        solutions=found,
        stats=stats,
        complete=engine.complete,
        limit_hit=engine.limit_hit,
    )
