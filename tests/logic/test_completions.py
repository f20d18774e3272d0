"""The island-completion listing's internals against plain per-shape definitions.

`_Index.survivors` filters a listing with mask operations per cell; it must keep
exactly the shapes a test of each shape keeps. The compiled tests of each shape
(`_cgrid.keep_shapes`, `_cgrid.sea_shapes`) must keep what the Python definitions keep,
on grids whose rows cross the 64-bit words they work in. `cases._diverse` orders the cases of a
split with a vectorised count; it must give the order of the plain greedy loop."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nurikabe._cgrid import keep_shapes, sea_shapes
from nurikabe.grid import Grid, bits
from nurikabe.logic.techniques.cases import _diverse
from nurikabe.logic.techniques.completions import (
    _enumerate,
    _filter_each,
    _Index,
    _sea_survives,
)

from .wide import wide_grid


def _passes(grid: Grid, comp: int, filt: tuple[int, int, int, int, int]) -> bool:
    """The filter of one shape, as `_completions` wrote it before the index."""
    forbidden, held, white, black, dead = filt
    ring = grid.dilate(comp) & ~comp
    return not (
        comp & forbidden
        or comp & held != held
        or ring & white
        or grid.pool_corners(black | ring | (dead & ~comp))
    )


def _and(masks: list[int]) -> int:
    out = -1
    for mask in masks:
        out &= mask
    return out


@st.composite
def listings(draw: st.DrawFn) -> tuple[Grid, list[int], list[tuple[int, int, int, int, int]]]:
    rows, cols = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    grid = Grid.of(rows, cols)
    start = 1 << draw(st.integers(0, grid.size - 1))
    allowed = draw(st.integers(0, grid.full)) & ~start
    need = draw(st.integers(1, 4))
    shapes = _enumerate(grid, start, allowed, need, 5000)
    assert shapes is not None
    # Random masks of every density (an and of k draws keeps a cell with odds 2^-k),
    # the empty mask included: dense ones kill every shape, sparse ones few.
    masks = st.lists(st.integers(0, grid.full), min_size=1, max_size=6).map(
        lambda ms: 0 if len(ms) == 6 else _and(ms)
    )
    filters = draw(st.lists(st.tuples(masks, masks, masks, masks, masks), min_size=1, max_size=3))
    return grid, shapes, filters


@given(listings(), st.data())
@settings(max_examples=1000, deadline=None)
def test_index_keeps_what_a_test_per_shape_keeps(
    case: tuple[Grid, list[int], list[tuple[int, int, int, int, int]]], data: st.DataObject
) -> None:
    grid, shapes, filters = case
    index = _Index(shapes)
    alive = data.draw(st.integers(0, (1 << len(shapes)) - 1)) if shapes else 0
    expected = [shapes[n] for n in bits(alive)]
    for filt in filters:
        # Filters one after another, as a listing is narrowed position by position.
        tested = index.tested(alive, *filt, grid)
        alive = index.survivors(alive, *filt, grid)
        assert tested == alive
        before = expected
        expected = [comp for comp in expected if _passes(grid, comp, filt)]
        assert _filter_each(before, *filt, grid) == expected
        assert index.listed(alive) == expected
    assert index.narrowed((1 << len(shapes)) - 1, expected) == alive


@st.composite
def wide_positions(draw: st.DrawFn) -> tuple[Grid, list[int], int, list[int]]:
    """A grid of one to a few 64-bit words a row (or a tall thin one), shapes on it (any
    sets of cells: the tests do not need them connected), a set of them and five masks."""
    grid, mask, rng = wide_grid(draw)
    density = draw(st.sampled_from([0.02, 0.1, 0.3]))
    shapes = [mask(density) for _ in range(draw(st.integers(0, 70)))]
    alive = rng.getrandbits(len(shapes)) if shapes else 0
    masks = [mask(draw(st.sampled_from([0.0, 0.02, 0.1, 0.4, 0.8]))) for _ in range(5)]
    return grid, shapes, alive, masks


@given(wide_positions())
@settings(max_examples=150)
def test_the_compiled_shape_filter_keeps_what_each_test_keeps(
    case: tuple[Grid, list[int], int, list[int]],
) -> None:
    grid, shapes, alive, filt = case
    forbidden, held, white, black, dead = filt
    geometry = (grid.full, grid.not_first_col, grid.not_last_col)
    expected = sum(
        1 << n
        for n in bits(alive)
        if _passes(grid, shapes[n], (forbidden, held, white, black, dead))
    )
    kept = keep_shapes(shapes, alive, *geometry, forbidden, held, white, black, dead, grid.cols)
    assert kept == expected
    every = keep_shapes(shapes, None, *geometry, forbidden, held, white, black, dead, grid.cols)
    assert every & alive == kept


@given(wide_positions())
@settings(max_examples=150)
def test_the_compiled_sea_check_keeps_what_the_flood_keeps(
    case: tuple[Grid, list[int], int, list[int]],
) -> None:
    grid, shapes, alive, (black, dead, domain, base, _) = case
    domain |= black
    black &= domain
    base &= domain
    for shape in shapes:
        base &= ~shape  # as in the listing: a piece of the sea no shape takes
    if not base:
        # the listing floods on large grids, without a base, in Python: the base here is
        # the first cell of the domain that no shape takes, when there is one
        taken = 0
        for shape in shapes:
            taken |= shape
        free = domain & ~taken
        base = free & -free
    geometry = (grid.full, grid.not_first_col, grid.not_last_col)
    assume(base)
    got = sea_shapes(shapes, alive, *geometry, black, dead, domain, base, grid.cols)
    expected = 0
    for n in bits(alive):
        shape = shapes[n]
        sea = black | (grid.dilate(shape) & ~shape) | (dead & ~shape)
        if _sea_survives(grid, sea, domain, shape, 0, base):
            expected |= 1 << n
    assert got == expected


def test_the_compiled_filters_refuse_what_is_not_a_position() -> None:
    grid = Grid.of(3, 3)
    geometry = (grid.full, grid.not_first_col, grid.not_last_col)
    with pytest.raises(ValueError, match="outside the grid"):
        keep_shapes([1 << 70], None, *geometry, 0, 0, 0, 0, 0, 3)
    with pytest.raises(ValueError, match="beyond the list"):
        keep_shapes([1], 1 << 200, *geometry, 0, 0, 0, 0, 0, 3)
    with pytest.raises(TypeError):
        sea_shapes((1,), None, *geometry, 0, 0, 0, 1, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cols"):
        sea_shapes([1], None, *geometry, 0, 0, 0, 1, 0)


def _diverse_loop(cases: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The greedy order written as a plain loop: each next case is the first sharing
    fewest cells (black with black, white with white) with all those taken."""
    if len(cases) <= 2:
        return cases
    rest = list(cases)
    out = [rest.pop(0)]
    black, white = out[0]
    while rest and black | white:
        shared = [(black & b).bit_count() + (white & w).bit_count() for b, w in rest]
        case = rest.pop(shared.index(min(shared)))
        out.append(case)
        black &= case[0]
        white &= case[1]
    return out + rest


@given(st.lists(st.tuples(st.integers(0, 2**40 - 1), st.integers(0, 2**40 - 1)), max_size=30))
def test_diverse_is_the_greedy_order(cases: list[tuple[int, int]]) -> None:
    cases = [(black & ~white, white) for black, white in cases]
    assert _diverse(list(cases)) == _diverse_loop(cases)
