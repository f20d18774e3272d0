"""The island-completion listing's internals against plain per-shape definitions.

`_Index.survivors` filters a listing with mask operations per cell; it must keep
exactly the shapes a test of each shape keeps. `cases._diverse` orders the cases of a
split with a vectorised count; it must give the order of the plain greedy loop."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe.grid import Grid, bits
from nurikabe.logic.techniques.cases import _diverse
from nurikabe.logic.techniques.completions import (
    _enumerate,
    _filter_each,
    _Index,
)


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
        tested = index.tested(alive, *filt, grid, {})
        alive = index.survivors(alive, *filt, grid)
        assert tested == alive
        before = expected
        expected = [comp for comp in expected if _passes(grid, comp, filt)]
        assert _filter_each(before, *filt, grid, {}) == expected
        assert index.listed(alive) == expected
    assert index.narrowed((1 << len(shapes)) - 1, expected) == alive


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
