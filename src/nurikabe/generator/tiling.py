"""Random solved boards: islands and one connected, pool-free sea (the generator's phase 1).

This module owns `Profile` (the island-size profile a tiling aims at), `Layout` (a
solved board with one clue cell chosen per island, and the symmetry it keeps) and
`random_layout`, which grows one from a seeded `random.Random`:

1. Start from an all-black grid. While some 2x2 block is all black (a pool), seed a
   new island on a cell of a pool; when no pool is left, keep seeding islands on free
   cells until the white share is reached.
2. Grow each island cell by cell towards a size drawn from the profile, among its
   legal neighbours (touching no other island, not cutting the sea in two), mostly
   cells that break pools.
3. A pool no new island can break is broken by growing a neighbouring island into it;
   failing that, the islands around it are cleared and the gap is tiled again.

With a symmetry, every cell is added together with its image, so islands come in
pairs (or map onto themselves through a fixed cell, where their clue then sits), and
the clue cells are symmetric.

Every step keeps the invariants of a solution (islands apart and connected, one sea),
so a layout is a valid solved board, and its clues have at least this solution.

Imports `grid` only.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from ..grid import Grid, bits, popcount

__all__ = ["SYMMETRIES", "Layout", "Profile", "random_layout", "symmetry_map"]

SYMMETRIES = ("none", "rot180", "mirror")
"""Symmetries of the clue positions: none, 180-degree rotation, mirror.

The mirror is left-right when the grid has an odd number of columns, else top-bottom
when it has an odd number of rows. (With an even width, a left-right mirror image
of a cell in the middle two columns is its neighbour, so no island could cross the
axis and the two middle columns would be all sea, full of pools.)"""


def symmetry_map(rows: int, cols: int, symmetry: str) -> tuple[int, ...] | None:
    """The image of every cell under `symmetry` (None for ``"none"``).

    >>> symmetry_map(2, 3, "rot180")
    (5, 4, 3, 2, 1, 0)
    >>> symmetry_map(2, 3, "mirror")
    (2, 1, 0, 5, 4, 3)
    >>> symmetry_map(3, 2, "mirror")
    (4, 5, 2, 3, 0, 1)

    Raises:
        ValueError: an unknown symmetry name.
    """
    if symmetry == "none":
        return None
    if symmetry == "rot180":
        area = rows * cols
        return tuple(area - 1 - i for i in range(area))
    if symmetry == "mirror":
        if cols % 2 == 0 and rows % 2 == 1:
            return tuple((rows - 1 - r) * cols + c for r in range(rows) for c in range(cols))
        return tuple(r * cols + (cols - 1 - c) for r in range(rows) for c in range(cols))
    raise ValueError(f"unknown symmetry {symmetry!r} (known: {', '.join(SYMMETRIES)})")


@dataclass(frozen=True)
class Profile:
    """The island-size profile and white share a tiling aims at."""

    max_island: int = 9
    """Largest island size (never exceeded)."""
    mean_island: float = 4.0
    """Mean island size aimed at (sizes are drawn around it, capped by `max_island`)."""
    white_share: float = 0.45
    """Share of white cells aimed at (published 10x10 puzzles have about 0.45)."""
    clue_density: float = 12.4
    """Clues per 100 cells the finished puzzle aims at (the generator's quality walk; the
    tiling follows `mean_island`)."""

    def draw_size(self, rng: random.Random) -> int:
        """One island size, drawn from the published size histogram tilted to the mean."""
        weights = _size_weights(self.max_island, self.mean_island)
        return rng.choices(range(1, len(weights) + 1), weights)[0]


PUBLISHED_SIZES = (0.115, 0.23, 0.221, 0.167, 0.101, 0.061, 0.039, 0.023, 0.025, 0.018)
"""Share of island sizes 1..10 in the published 10x10 puzzles of the corpus."""


@functools.lru_cache(maxsize=64)
def _size_weights(max_island: int, mean: float) -> tuple[float, ...]:
    """Weights of sizes 1..max_island: the published histogram times t**k, mean `mean`.

    Computed once per profile (a tiling draws hundreds of sizes). Up to `_DIRECT_SIZES`
    the weights are computed directly (the numbers past puzzles were drawn with);
    beyond, in log space, where t**k would overflow a float.
    """
    n = max(1, max_island)
    if n <= _DIRECT_SIZES:
        base = [
            PUBLISHED_SIZES[k - 1] if k <= 10 else 0.018 * 0.7 ** (k - 10) for k in range(1, n + 1)
        ]

        def tilted(t: float) -> list[float]:
            return [w * t**k for k, w in enumerate(base, 1)]

    else:
        logs = [
            math.log(PUBLISHED_SIZES[k - 1])
            if k <= 10
            else math.log(0.018) + (k - 10) * math.log(0.7)
            for k in range(1, n + 1)
        ]

        def tilted(t: float) -> list[float]:
            exponents = [x + k * math.log(t) for k, x in enumerate(logs, 1)]
            top = max(exponents)
            return [math.exp(x - top) for x in exponents]

    def mean_of(ws: list[float]) -> float:
        return sum(k * w for k, w in enumerate(ws, 1)) / sum(ws)

    lo, hi = 0.05, 20.0
    for _ in range(50):
        mid = (lo * hi) ** 0.5
        if mean_of(tilted(mid)) < mean:
            lo = mid
        else:
            hi = mid
    return tuple(tilted(lo))


_DIRECT_SIZES = 200
"""Largest island size whose weights `_size_weights` computes directly (20**200 fits a float)."""


_RINGS: dict[tuple[int, int], tuple[int, ...]] = {}


def _ring(grid: Grid, cell: int) -> int:
    """The (up to) 8 cells around `cell`."""
    key = (grid.rows, grid.cols)
    rings = _RINGS.get(key)
    if rings is None:
        out = []
        for i in range(grid.size):
            r, c = grid.coords(i)
            m = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and grid.contains(r + dr, c + dc):
                        m |= 1 << grid.cell(r + dr, c + dc)
            out.append(m)
        rings = _RINGS[key] = tuple(out)
    return rings[cell]


def sea_stays_connected(grid: Grid, black: int, cells: int) -> bool:
    """Whether the sea `black` stays in one piece once `cells` turn white."""
    if cells & (cells - 1) == 0:
        cell = cells.bit_length() - 1
        nb = grid.neighbors[cell] & black
        if nb & (nb - 1) == 0:
            return True  # a sea cell with at most one sea neighbour is a leaf
        # When the sea neighbours are joined within the 8 cells around `cell`, any sea
        # path through `cell` can go round it.
        ring = _ring(grid, cell) & black
        if nb & ~grid.flood(nb & -nb, ring) == 0:
            return True
    sea = black & ~cells
    return grid.flood(sea & -sea, sea) == sea


@dataclass(frozen=True)
class Layout:
    """A solved board with one clue cell per island: what the generator edits.

    `white` is the mask of the island cells and `clue_mask` the clue cells; the
    islands are the components of `white`. A layout is valid (`is_valid`) when every
    island holds exactly one clue cell, the sea is connected and has no pool, and the
    clue cells are closed under the symmetry `sigma`.
    """

    grid: Grid
    white: int
    clue_mask: int
    sigma: tuple[int, ...] | None = None
    """Image of every cell under the symmetry, or None."""

    @property
    def black(self) -> int:
        """Mask of the sea."""
        return self.grid.full & ~self.white

    def islands(self) -> list[int]:
        """The islands, as masks."""
        return self.grid.components(self.white)

    def clues(self) -> dict[int, int]:
        """The clue of every island: cell -> island size (for a valid layout)."""
        out = {}
        for island in self.islands():
            clue = island & self.clue_mask
            out[clue.bit_length() - 1] = popcount(island)
        return out

    def image(self, mask: int) -> int:
        """`mask` together with its image under the symmetry."""
        if self.sigma is None:
            return mask
        out = mask
        for i in bits(mask):
            out |= 1 << self.sigma[i]
        return out

    def is_valid(self, max_island: int | None = None) -> bool:
        """Whether this is a solution with one clue per island (and symmetric clues)."""
        grid = self.grid
        if self.clue_mask & ~self.white:
            return False
        for island in self.islands():
            clue = island & self.clue_mask
            if not clue or clue & (clue - 1):
                return False
            if max_island is not None and popcount(island) > max_island:
                return False
        black = grid.full & ~self.white
        if not grid.is_connected(black) or grid.pool_corners(black):
            return False
        return self.sigma is None or self.image(self.clue_mask) == self.clue_mask


class _Builder:
    """The mutable state of one tiling attempt."""

    def __init__(
        self, grid: Grid, profile: Profile, rng: random.Random, sigma: tuple[int, ...] | None
    ) -> None:
        self.grid = grid
        self.profile = profile
        self.rng = rng
        self.sigma = sigma
        self.white = 0
        self.islands: list[int] = []
        self.partner: list[int] = []
        self.owner: dict[int, int] = {}
        self.target: list[int] = []

    def image(self, cell: int) -> int:
        return cell if self.sigma is None else self.sigma[cell]

    def _legal(self, adds: dict[int, int]) -> bool:
        """Whether whitening the cells of `adds` (cell -> island) keeps a valid board."""
        grid = self.grid
        mask = 0
        for cell in adds:
            if self.white >> cell & 1:
                return False
            mask |= 1 << cell
        for cell, island in adds.items():
            for j in bits(grid.neighbors[cell]):
                other = self.owner.get(j, adds.get(j, island))
                if other != island:
                    return False
        return sea_stays_connected(grid, grid.full & ~self.white, mask)

    def _commit(self, adds: dict[int, int]) -> None:
        for cell, island in adds.items():
            self.white |= 1 << cell
            self.islands[island] |= 1 << cell
            self.owner[cell] = island

    def try_add(self, cell: int, island: int) -> bool:
        """Add `cell` to `island` (and its image to the partner island) if that stays valid."""
        adds = {cell: island}
        image = self.image(cell)
        if image != cell:
            adds[image] = self.partner[island]
        if self._legal(adds):
            self._commit(adds)
            return True
        return False

    def try_seed(self, cell: int) -> int | None:
        """Start a new island on `cell` (and its image); returns its number."""
        image = self.image(cell)
        k = len(self.islands)
        adds = {cell: k}
        if image != cell:
            adds[image] = k + 1
        if not self._legal(adds):
            return None
        if image != cell:
            self.islands += [0, 0]
            self.partner += [k + 1, k]
            self.target += [1, 1]
        else:
            self.islands.append(0)
            self.partner.append(k)
            self.target.append(1)
        self._commit(adds)
        return k

    def remove(self, island: int) -> None:
        for k in {island, self.partner[island]}:
            mask = self.islands[k]
            self.white &= ~mask
            self.islands[k] = 0
            for j in bits(mask):
                del self.owner[j]

    def pools(self) -> int:
        return self.grid.pool_cells(self.grid.full & ~self.white)

    def grow(self, island: int, target: int) -> None:
        """Grow island number `island` (and its partner) towards `target` cells."""
        grid = self.grid
        rng = self.rng
        while popcount(self.islands[island]) < target:
            frontier = grid.border(self.islands[island]) & ~self.white
            pools = self.pools()
            # Mostly break pools; sometimes wander, so islands are not all compact blobs.
            first = list(bits(frontier & pools)) if rng.random() < 0.8 else []
            rest = list(bits(frontier & ~(pools if first else 0)))
            rng.shuffle(first)
            rng.shuffle(rest)
            for i in first + rest:
                grows = 2 if self.partner[island] == island and self.image(i) != i else 1
                if popcount(self.islands[island]) + grows > self.profile.max_island:
                    continue
                if self.try_add(i, island):
                    break
            else:
                return

    def seed(self, cell: int) -> int | None:
        """Start an island on `cell` and grow it to a drawn size; its number, or None."""
        k = self.try_seed(cell)
        if k is None:
            return None
        target = self.profile.draw_size(self.rng)
        self.target[k] = self.target[self.partner[k]] = target
        self.grow(k, target)
        return k

    def fix_pool(self) -> bool:
        """Break one pool by seeding on it or growing a neighbour into it."""
        rng = self.rng
        grid = self.grid
        black = grid.full & ~self.white
        pools = grid.pool_cells(black)
        corner = rng.choice(list(bits(grid.pool_corners(black))))
        block = list(bits(grid.block(corner)))
        rng.shuffle(block)
        block.sort(key=lambda i: -popcount(grid.dilate(1 << i) & pools))
        growers = []
        for i in block:
            touching = {self.owner[j] for j in bits(grid.neighbors[i] & self.white)}
            if len(touching) == 1:
                (island,) = touching
                grows = 2 if self.partner[island] == island and self.image(i) != i else 1
                if popcount(self.islands[island]) + grows <= self.profile.max_island:
                    growers.append((i, island))
        rng.shuffle(growers)
        # An island still short of its drawn size grows into the pool first; a new island
        # seeded there may be hemmed in and stay a lone 1 (published puzzles have few).
        short = [(i, k) for i, k in growers if popcount(self.islands[k]) < self.target[k]]
        for i, island in short:
            if self.try_add(i, island):
                return True
        lone = None
        for i in block:
            k = self.seed(i)
            if k is None:
                continue
            if popcount(self.islands[k]) > 1 or self.target[k] == 1:
                return True
            if lone is None:
                lone = i
            self.remove(k)
        for i, island in growers:
            if self.try_add(i, island):
                return True
        if lone is not None and self.seed(lone) is not None:
            return True
        # Stuck: clear the islands around the pool and let later steps tile the gap again.
        # Island cells turned back to sea touch the sea, so it stays connected.
        around = grid.dilate(grid.dilate(grid.block(corner))) & self.white
        for island in {self.owner[j] for j in bits(around)}:
            if self.islands[island]:
                self.remove(island)
        return False

    def build(self) -> Layout | None:
        grid = self.grid
        rng = self.rng
        area = grid.size
        want_white = self.profile.white_share * area
        clears = 0
        for _ in range(8 * area):
            if self.pools():
                if not self.fix_pool():
                    clears += 1
                    if clears > area // 4:
                        return None
                continue
            if popcount(self.white) >= want_white:
                break
            free = list(bits(grid.full & ~grid.dilate(self.white)))
            rng.shuffle(free)
            if not any(self.seed(i) is not None for i in free):
                break
        if self.pools():
            return None
        self.fill(want_white)
        return self.layout()

    def fill(self, want_white: float) -> None:
        """Grow islands (those short of their drawn size first) until the white share is met.

        Seeding stops when no free cell is left, while many islands are still short of
        their size (hemmed in when they were seeded); growing them afterwards brings the
        white share and the island sizes up to the profile. White cells never make a pool.
        A lone 1 that still cannot grow is dropped when that makes no pool.
        """
        grid = self.grid
        rng = self.rng
        max_island = self.profile.max_island
        blocked: set[int] = set()
        while popcount(self.white) < want_white:
            live = [
                k
                for k, m in enumerate(self.islands)
                if m and k not in blocked and popcount(m) < max_island
            ]
            if not live:
                break
            short = [k for k in live if popcount(self.islands[k]) < self.target[k]]
            # Lone 1s first (published puzzles have few), then islands short of their size.
            ones = [k for k in short if popcount(self.islands[k]) == 1]
            k = rng.choice(ones or short or live)
            before = self.islands[k]
            self.grow(k, popcount(before) + 1)
            if self.islands[k] == before:
                blocked.add(k)
        # Lone 1s beyond the drawn share: drop those whose cell can turn black without a pool.
        for k, m in enumerate(self.islands):
            if popcount(m) != 1 or self.target[k] == 1:
                continue
            cells = m | self.islands[self.partner[k]]
            if popcount(cells) > 2:
                continue  # the partner grew: keep the pair
            black = grid.full & ~(self.white & ~cells)
            if not grid.pool_corners(black) and grid.is_connected(black):
                self.remove(k)

    def layout(self) -> Layout | None:
        """The islands with a clue cell each (a fixed cell for a self-symmetric island)."""
        rng = self.rng
        clue_mask = 0
        for k, m in enumerate(self.islands):
            if not m or clue_mask & m:
                continue
            if self.partner[k] == k:
                options = [i for i in bits(m) if self.image(i) == i]
                if not options:
                    return None
            else:
                options = list(bits(m))
            cell = rng.choice(options)
            clue_mask |= 1 << cell | 1 << self.image(cell)
        return Layout(self.grid, self.white, clue_mask, self.sigma)


def random_layout(
    rows: int,
    cols: int,
    profile: Profile,
    rng: random.Random,
    *,
    symmetry: str = "none",
    attempts: int = 50,
) -> Layout | None:
    """A random solved board following `profile`, or None when `attempts` all failed.

    >>> layout = random_layout(7, 9, Profile(), random.Random(1), symmetry="rot180")
    >>> layout.is_valid()
    True

    Raises:
        ValueError: an unknown symmetry.
    """
    grid = Grid.of(rows, cols)
    sigma = symmetry_map(rows, cols, symmetry)
    for _ in range(attempts):
        layout = _Builder(grid, profile, rng, sigma).build()
        if layout is not None:
            return layout
    return None
