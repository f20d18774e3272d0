"""The logic engine's compiled layer walks against their Python definitions.

`_cgrid.bottleneck`, `_cgrid.reaches` (the bottleneck techniques) and
`_cgrid.priced_reach` (`Analysis.reach` past clueless white regions) replaced loops that
grew an island's reach layer by layer with big-int shifts, `_cgrid.island_fields` the
per-island masks of `Analysis` and `_cgrid.pairwise` the clash test of
`completions._pairwise`; the Python is kept here as the oracle, and the
compiled code must answer the same on grids whose rows cross the 64-bit words it works
in, and on tall thin ones. So must pool-escape's choice of 2x2 blocks, now made for every
block at once with shifted masks instead of one block at a time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe._cgrid import bottleneck, island_fields, islands, pairwise, priced_reach, reaches
from nurikabe.grid import Grid, bits
from nurikabe.logic.state import UNBOUNDED, Island
from nurikabe.logic.techniques.articulation import _candidate_blocks

from .wide import wide_grid


def _layer_count(grid: Grid, start: int, allowed: int, need: int) -> int:
    """Cells of `allowed` within `need` layers of `start`, counting stopped at `need`."""
    region = frontier = start
    count = 0
    for _ in range(need):
        grown = grid.dilate(frontier) & allowed & ~region
        if not grown:
            break
        count += grown.bit_count()
        if count >= need:
            return count
        region |= grown
        frontier = grown
    return count


def _bottleneck(grid: Grid, start: int, allowed: int, unknown: int, need: int) -> int:
    """The first candidate cell of `unknown` whose loss leaves fewer than `need` cells."""
    layers = []
    region = frontier = start
    for _ in range(need):
        frontier = grid.dilate(frontier) & allowed & ~region
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
    for c in bits(candidates & unknown):
        if _layer_count(grid, start, allowed & ~(1 << c), need) < need:
            return c
    return -1


def _reaches(grid: Grid, start: int, allowed: int, blocked: int, target: int, steps: int) -> bool:
    region = frontier = start
    allowed &= ~blocked
    for _ in range(steps):
        grown = grid.dilate(frontier) & allowed & ~region
        if not grown:
            return False
        if grown & target:
            return True
        region |= grown
        frontier = grown
    return False


def _priced(grid: Grid, start: int, allowed: int, orphans: list[int], most: int) -> int:
    """`Analysis.reach` of one island as it was written in Python."""
    sizes = [part.bit_count() for part in orphans]
    orphan_white = 0
    for part in orphans:
        orphan_white |= part
    region = frontier = start
    arriving: dict[int, int] = {}
    cost = 0
    while cost < most and (frontier or arriving):
        cost += 1
        grown = grid.dilate(frontier) & allowed & ~region
        entered = grown & orphan_white
        if entered:
            grown &= ~orphan_white
            for part, size in zip(orphans, sizes, strict=True):
                at = cost - 1 + size
                if entered & part and at <= most:
                    arriving[at] = arriving.get(at, 0) | part
        grown |= arriving.pop(cost, 0) & ~region
        region |= grown
        frontier = grown
    return region


@st.composite
def reaches_on_grids(draw: st.DrawFn) -> tuple[Grid, list[int], int]:
    """A grid (rows across words, or tall and thin), an island-like start (a few cells),
    four masks (allowed mostly dense, the others sparse) and a layer count."""
    grid, mask, rng = wide_grid(draw)
    start = grid.spread(1 << rng.randrange(grid.size), grid.full, draw(st.integers(0, 2)))
    allowed = mask(draw(st.sampled_from([0.5, 0.7, 0.9, 1.0]))) & ~start
    unknown = mask(draw(st.sampled_from([0.3, 0.8, 1.0])))
    blocked = mask(draw(st.sampled_from([0.0, 0.02, 0.1])))
    target = mask(draw(st.sampled_from([0.0, 0.01, 0.05])))
    return grid, [start, allowed, unknown, blocked, target], draw(st.integers(0, 40))


@given(reaches_on_grids())
@settings(max_examples=200)
def test_the_compiled_bottleneck_finds_the_cell_the_layers_find(
    case: tuple[Grid, list[int], int],
) -> None:
    grid, (start, allowed, unknown, _, _), need = case
    geometry = (grid.not_first_col, grid.not_last_col)
    got = bottleneck(start, allowed, unknown, *geometry, need, grid.cols)
    assert got == _bottleneck(grid, start, allowed, unknown, need)


@given(reaches_on_grids())
@settings(max_examples=200)
def test_the_compiled_reach_walk_reaches_what_the_layers_reach(
    case: tuple[Grid, list[int], int],
) -> None:
    grid, (start, allowed, _, blocked, target), steps = case
    geometry = (grid.not_first_col, grid.not_last_col)
    got = reaches(start, allowed, blocked, target, *geometry, steps, grid.cols)
    assert got is _reaches(grid, start, allowed, blocked, target, steps)


@given(reaches_on_grids(), st.data())
@settings(max_examples=200)
def test_the_compiled_priced_reach_reaches_what_the_layers_reach(
    case: tuple[Grid, list[int], int], data: st.DataObject
) -> None:
    grid, (start, allowed, _, _, _), most = case
    # clueless white regions: components of a sparse mask inside what may be walked
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    white = grid.mask_of([i for i in bits(allowed) if rng.random() < 0.15])
    orphans = grid.components(white)
    sizes = [part.bit_count() for part in orphans]
    geometry = (grid.not_first_col, grid.not_last_col, grid.cols)
    got = priced_reach(start, allowed, orphans, sizes, most, *geometry)
    assert got == _priced(grid, start, allowed, orphans, most)


@given(reaches_on_grids(), st.data())
@settings(max_examples=200)
def test_the_compiled_island_fields_are_what_the_analysis_computed(
    case: tuple[Grid, list[int], int], data: st.DataObject
) -> None:
    grid, (_, free, unknown, _, _), _ = case
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    masks = grid.components(grid.mask_of([i for i in range(grid.size) if rng.random() < 0.2]))
    dils: list[int | None] = [grid.dilate(m) if rng.random() < 0.3 else None for m in masks]
    geometry = (grid.not_first_col, grid.not_last_col, grid.full, grid.cols)
    two, arounds, borders, forbiddens, alloweds = island_fields(
        masks, dils, unknown, free, *geometry
    )
    in_any = in_two = 0
    for mask in masks:
        d = grid.dilate(mask)
        in_two |= in_any & d
        in_any |= d
    assert two == in_two
    for n, mask in enumerate(masks):
        d = grid.dilate(mask)
        assert arounds[n] == d
        assert borders[n] == d & unknown
        assert forbiddens[n] == (in_any & ~d) | in_two
        assert alloweds[n] == free & ~forbiddens[n]


@given(st.integers(0, 2**700), st.integers(1, 700))
def test_masks_cross_into_the_compiled_words_and_back_unchanged(mask: int, cols: int) -> None:
    grid = Grid.of(max(1, (mask.bit_length() + cols - 1) // cols), cols)
    # one layer of growth from nothing leaves nothing; from the mask within itself, the mask
    assert grid.spread(mask, mask, 1) == mask
    assert reaches(mask, 0, 0, mask, grid.not_first_col, grid.not_last_col, 1, cols) is False


def test_masks_at_the_digit_and_word_boundaries_cross_unchanged() -> None:
    grid = Grid.of(10, 70)
    for k in (0, 29, 30, 59, 60, 63, 64, 89, 90, 127, 128, 629, 630, 639, 640, 699):
        for mask in (1 << k, (1 << k) - 1, (1 << (k + 1)) - 1 & ~1):
            assert grid.spread(mask, mask, 1) == mask
            assert grid.components(mask) == grid.components(mask)
            assert sum(grid.components(mask)) == mask


@given(reaches_on_grids(), st.data())
@settings(max_examples=200)
def test_the_compiled_clash_test_keeps_what_the_pairwise_loop_keeps(
    case: tuple[Grid, list[int], int], data: st.DataObject
) -> None:
    grid, _, _ = case
    rng = random.Random(data.draw(st.integers(0, 2**32)))

    def shape() -> int:
        size = rng.choice([0, 1, 2, 4, 7])
        return grid.spread(1 << rng.randrange(grid.size), grid.full, size) if size else 0

    kept = [shape() for _ in range(rng.randrange(0, 70))]
    others = [[shape() for _ in range(rng.randrange(0, 12))] for _ in range(rng.randrange(0, 4))]
    expected = 0
    for n, comp in enumerate(kept):
        halo = grid.dilate(comp)
        if all(any(not c & halo for c in other) for other in others):
            expected |= 1 << n
    geometry = (grid.not_first_col, grid.not_last_col, grid.full, grid.cols)
    assert pairwise(kept, others, *geometry) == expected


def test_a_corridor_has_a_bottleneck_and_an_open_room_has_none() -> None:
    grid = Grid.of(3, 5)
    geometry = (grid.not_first_col, grid.not_last_col)
    corridor = grid.mask_of([6, 7, 8, 9])  # the middle row beyond r2c1
    start = grid.mask_of([5])
    assert bottleneck(start, corridor, grid.full, *geometry, 3, grid.cols) == 6
    assert bottleneck(start, grid.full & ~start, grid.full, *geometry, 3, grid.cols) == -1
    assert reaches(start, corridor, 0, grid.mask_of([9]), *geometry, 4, grid.cols)
    assert not reaches(start, corridor, 0, grid.mask_of([9]), *geometry, 3, grid.cols)
    assert not reaches(start, corridor, grid.mask_of([7]), grid.mask_of([9]), *geometry, 9, 5)


def test_the_compiled_walks_refuse_what_is_not_a_position() -> None:
    with pytest.raises(ValueError, match="cols"):
        bottleneck(1, 2, 2, 0, 0, 1, 0)
    with pytest.raises(ValueError, match="negative"):
        reaches(-1, 2, 0, 2, 0, 0, 1, 3)
    with pytest.raises(TypeError):
        bottleneck(1, "2", 2, 0, 0, 1, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="differ"):
        priced_reach(1, 2, [2], [], 3, 0, 0, 3)
    with pytest.raises(TypeError):
        priced_reach(1, 2, (2,), [1], 3, 0, 0, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="differ"):
        island_fields([1], [], 0, 0, 0, 0, 7, 3)
    with pytest.raises(ValueError, match="beyond the grid"):
        island_fields([1 << 200], [None], 0, 0, 0, 0, 7, 3)
    with pytest.raises(ValueError, match="outside the grid"):
        pairwise([1 << 200], [[1]], 0, 0, 7, 3)
    with pytest.raises(TypeError):
        pairwise([1], [(1,)], 0, 0, 7, 3)  # type: ignore[list-item]


def _pool_escape_blocks(grid: Grid, black: int, unknown: int, covered: int) -> list[int]:
    """pool-escape's blocks one by one: no white cell, two black cells or more, and an
    unknown cell in `covered`."""
    return [
        corner
        for corner in bits(grid.pool_corners(black | unknown))
        if (grid.block(corner) & black).bit_count() >= 2 and grid.block(corner) & unknown & covered
    ]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_pool_escape_blocks_found_all_at_once_equal_one_by_one(data: st.DataObject) -> None:
    grid, mask, _ = wide_grid(data.draw)
    black = mask(data.draw(st.floats(0.0, 0.7)))
    unknown = mask(0.6) & ~black
    covered = mask(data.draw(st.floats(0.0, 1.0)))
    found = bits(_candidate_blocks(grid, black, unknown, covered))
    assert found == _pool_escape_blocks(grid, black, unknown, covered)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_islands_made_in_c_equal_islands_made_by_their_init(data: st.DataObject) -> None:
    """`_cgrid.islands` fills an Island's slots as `Island.__init__` does (`?` clues
    included), from masks across words."""
    grid, mask, rng = wide_grid(data.draw)
    count = data.draw(st.integers(0, 6))
    masks = [mask(0.2) | 1 << rng.randrange(grid.size) for _ in range(count)]
    cells = [m.bit_length() - 1 for m in masks]
    values = {cell: rng.choice([-1, 1, 2, 9, 40]) for cell in cells}
    fields = [[mask(0.3) for _ in masks] for _ in range(4)]
    made = islands(Island, masks, cells, values, *fields, UNBOUNDED)
    assert len(made) == count
    for n, island in enumerate(made):
        cell = cells[n]
        expected = Island(masks[n], cell, values[cell], *(f[n] for f in fields))
        for name in Island.__slots__:
            assert getattr(island, name) == getattr(expected, name), name
        island.reach = 5  # as `Analysis.reach` sets it
        assert island.reach == 5


def test_islands_refuse_what_they_cannot_fill() -> None:
    class Plain:
        pass

    with pytest.raises(TypeError):
        islands(Plain, [1], [0], {0: 1}, [1], [0], [0], [0], UNBOUNDED)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        islands(Island, [1], [0, 1], {0: 1}, [1], [0], [0], [0], UNBOUNDED)
    with pytest.raises(TypeError):
        islands(Island, ["1"], [0], {0: 1}, [1], [0], [0], [0], UNBOUNDED)  # type: ignore[list-item]
    with pytest.raises(KeyError):
        islands(Island, [1], [0], {}, [1], [0], [0], [0], UNBOUNDED)
