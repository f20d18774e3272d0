"""Grid geometry: masks agree with a plain (row, col) implementation."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nurikabe.grid import Grid, bits, lowest, popcount


def naive_neighbors(rows: int, cols: int, i: int) -> set[int]:
    r, c = divmod(i, cols)
    out = set()
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            out.add(rr * cols + cc)
    return out


def naive_components(rows: int, cols: int, cells: set[int]) -> list[set[int]]:
    left = set(cells)
    parts = []
    while left:
        start = min(left)
        part, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in naive_neighbors(rows, cols, i):
                if j in left and j not in part:
                    part.add(j)
                    todo.append(j)
        left -= part
        parts.append(part)
    return parts


grids = st.tuples(st.integers(1, 9), st.integers(1, 9))


@st.composite
def grid_and_mask(draw: st.DrawFn) -> tuple[Grid, int]:
    rows, cols = draw(grids)
    g = Grid.of(rows, cols)
    return g, draw(st.integers(0, g.full))


def test_coordinates_round_trip() -> None:
    g = Grid.of(5, 7)
    for i in range(g.size):
        assert g.cell(*g.coords(i)) == i
    assert g.name(g.cell(4, 6)) == "r5c7"
    assert g.contains(4, 6) and not g.contains(5, 0) and not g.contains(0, -1)


def test_grid_is_cached() -> None:
    assert Grid.of(3, 4) is Grid.of(3, 4)


@given(grids)
def test_neighbor_masks(size: tuple[int, int]) -> None:
    g = Grid.of(*size)
    for i in range(g.size):
        assert set(bits(g.neighbors[i])) == naive_neighbors(g.rows, g.cols, i)


@given(grid_and_mask())
def test_dilate_and_border(case: tuple[Grid, int]) -> None:
    g, mask = case
    cells = set(bits(mask))
    expected = set(cells)
    for i in cells:
        expected |= naive_neighbors(g.rows, g.cols, i)
    assert set(bits(g.dilate(mask))) == expected
    assert set(bits(g.border(mask))) == expected - cells


@given(grid_and_mask())
def test_components(case: tuple[Grid, int]) -> None:
    g, mask = case
    parts = [set(bits(p)) for p in g.components(mask)]
    assert parts == naive_components(g.rows, g.cols, set(bits(mask)))
    assert g.is_connected(mask) == (len(parts) <= 1)


@given(grid_and_mask())
def test_pools(case: tuple[Grid, int]) -> None:
    g, mask = case
    cells = set(bits(mask))
    corners = set()
    for r in range(g.rows - 1):
        for c in range(g.cols - 1):
            i = g.cell(r, c)
            if {i, i + 1, i + g.cols, i + g.cols + 1} <= cells:
                corners.add(i)
    assert set(bits(g.pool_corners(mask))) == corners
    covered = set()
    for i in corners:
        covered |= set(bits(g.block(i)))
    assert set(bits(g.pool_cells(mask))) == covered


def test_bit_helpers() -> None:
    assert list(bits(0)) == []
    assert lowest(0b1000) == 3
    assert popcount(0b1011) == 3


@st.composite
def dense_case(draw: st.DrawFn) -> tuple[Grid, int, int]:
    """A grid up to 40 x 40, a mostly filled mask on it (regions winding far), a seed."""
    g = Grid.of(draw(st.integers(1, 40)), draw(st.integers(1, 40)))
    rng = draw(st.randoms(use_true_random=False))
    density = draw(st.floats(0.4, 1.0))
    mask = g.mask_of([i for i in range(g.size) if rng.random() < density])
    seed = g.mask_of(rng.sample(range(g.size), draw(st.integers(1, min(3, g.size)))))
    return g, mask, seed


@given(dense_case())
def test_flood_of_long_regions(case: tuple[Grid, int, int]) -> None:
    g, mask, seed = case
    expected = set()
    for part in naive_components(g.rows, g.cols, set(bits(mask))):
        if part & set(bits(seed)):
            expected |= part
    assert set(bits(g.flood(seed, mask))) == expected


@given(grid_and_mask(), st.integers(min_value=0))
def test_joined_components(case: tuple[Grid, int], added: int) -> None:
    # The components after adding cells, from those before (in their order), as a new list.
    g, mask = case
    added &= g.full & ~mask
    parts = g.components(mask)
    joined = g.joined(parts, added)
    assert joined == g.components(mask | added)
    assert joined is not parts
    assert parts == g.components(mask)


def test_grid_pickles_as_its_size() -> None:
    g = Grid.of(4, 6)
    assert pickle.loads(pickle.dumps(g)) is g
    other = pickle.loads(pickle.dumps(Grid(2, 3)))
    assert (other.rows, other.cols) == (2, 3) and other.dilate(1) == 0b1011


@given(grid_and_mask(), st.integers(min_value=0), st.integers(-1, 12))
def test_spread_by_layers(case: tuple[Grid, int], region: int, steps: int) -> None:
    # What a region reaches through a mask in a number of steps, layer by layer.
    g, within = case
    region &= g.full
    reached = set(bits(region))
    layer = set(reached)
    for _ in range(max(steps, 0)):
        layer = {
            j for i in layer for j in naive_neighbors(g.rows, g.cols, i) if within >> j & 1
        } - reached
        reached |= layer
    assert set(bits(g.spread(region, within, steps))) == reached


@st.composite
def wide_case(draw: st.DrawFn) -> tuple[Grid, int, int]:
    """A grid whose rows span one or more 64-bit words of the compiled flood fill (up to
    150 columns, or one column of up to 300 rows), a mask on it and a few seed cells."""
    if draw(st.booleans()):
        g = Grid.of(draw(st.integers(1, 6)), draw(st.integers(60, 150)))
    else:
        g = Grid.of(draw(st.integers(60, 300)), draw(st.integers(1, 2)))
    rng = draw(st.randoms(use_true_random=False))
    density = draw(st.floats(0.3, 1.0))
    mask = g.mask_of([i for i in range(g.size) if rng.random() < density])
    seed = g.mask_of(rng.sample(range(g.size), draw(st.integers(1, 4))))
    return g, mask, seed


@given(wide_case(), st.integers(-1, 70))
def test_flood_across_words(case: tuple[Grid, int, int], steps: int) -> None:
    # Shifts by a row cross word boundaries: the compiled fill agrees with a walk.
    g, mask, seed = case
    assert [set(bits(p)) for p in g.components(mask)] == naive_components(
        g.rows, g.cols, set(bits(mask))
    )
    reached = set(bits(seed))
    layer = set(reached)
    for _ in range(steps if steps >= 0 else g.size):
        layer = {j for i in layer for j in naive_neighbors(g.rows, g.cols, i) if mask >> j & 1}
        layer -= reached
        reached |= layer
    assert set(bits(g.spread(seed, mask, steps if steps >= 0 else g.size))) == reached


def test_flood_of_the_largest_grid() -> None:
    # A serpentine corridor through a 256 x 256 grid: one region of 32,896 cells.
    g = Grid.of(256, 256)
    rows = [
        "." * 256 if r % 2 == 0 else ("#" * 255 + "." if r % 4 == 1 else "." + "#" * 255)
        for r in range(256)
    ]
    mask = g.mask_of([r * 256 + c for r in range(256) for c in range(256) if rows[r][c] == "."])
    assert g.flood(1, mask) == mask
    assert g.components(mask) == [mask]
    # The corridor is one path: 300 steps from its end reach 301 of its cells.
    near = g.spread(1, mask, 300)
    assert near & ~mask == 0 and near.bit_count() == 301 and near >> 255 & 1


@given(
    st.integers(1, 140),
    st.integers(1, 140),
    st.integers(0, 2**32 - 1),
)
def test_compiled_dilation_is_the_shift_formula(rows: int, cols: int, seed: int) -> None:
    """The compiled dilation gives the big-int formula it replaced, on grids of one word
    and of many (word and row ends in every place), with masks sparse and dense."""

    g = Grid.of(rows, cols)
    pick = random.Random(seed)
    for _ in range(8):
        mask = pick.getrandbits(g.size)
        for _ in range(pick.randrange(4)):
            mask &= pick.getrandbits(g.size)
        expected = (
            mask
            | ((mask & g.not_first_col) >> 1)
            | ((mask & g.not_last_col) << 1)
            | (mask >> cols)
            | ((mask << cols) & g.full)
        )
        assert g.dilate(mask) == expected
    assert g.dilate(0) == 0 and g.dilate(g.full) == g.full


def test_compiled_dilation_refuses_bad_masks() -> None:
    g = Grid.of(3, 4)
    with pytest.raises(ValueError, match="negative"):
        g.dilate(-1)
    with pytest.raises(TypeError):
        g.dilate(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        g.dilate(1, 2)  # type: ignore[call-arg]


def test_compiled_fill_refuses_negative_masks() -> None:
    from nurikabe import _cgrid

    with pytest.raises(ValueError, match="negative"):
        _cgrid.grow(-1, 3, 3, 3, 2, -1)
    with pytest.raises(TypeError):
        _cgrid.components(1.5, 0, 0, 2)  # type: ignore[arg-type]
