"""The listing of island shapes (`completions._enumerate`, compiled in `_cgrid.shapes`)
against the pure-Python listing it replaced (same shapes, same order, same give-ups) and
against brute force on small grids."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe.grid import Grid, bits
from nurikabe.logic.techniques.completions import _enumerate


def python_listing(
    grid: Grid,
    start: int,
    allowed: int,
    need: int,
    cap: int,
    check: Callable[[], None] | None = None,
) -> list[int] | None:
    """Redelmeier's method on big-int masks: the engine's listing before it was compiled."""
    neighbors = grid.neighbors
    out: list[int] = []
    init = 0
    for c in bits(start):
        init |= neighbors[c]
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
            nb = neighbors[b.bit_length() - 1] & allowed & ~seen
            if not grow(nxt, untried | nb, seen | nb, left - 1):
                return False
        return True

    if need <= 0:
        return [start]
    if not grow(start, init, start | init, need):
        return None
    return out


@st.composite
def listing_case(draw: st.DrawFn) -> tuple[Grid, int, int, int, int]:
    """A grid (rows up to 12, columns up to 70: masks of several words), an island (a
    cell or a small blob), the cells it may take, how many more it needs, and a cap."""
    g = Grid.of(draw(st.integers(1, 12)), draw(st.integers(1, 70)))
    rng = draw(st.randoms(use_true_random=False))
    density = draw(st.floats(0.1, 1.0))
    allowed = g.mask_of([i for i in range(g.size) if rng.random() < density])
    start = g.spread(1 << rng.randrange(g.size), g.full, draw(st.integers(0, 2)))
    if draw(st.booleans()):
        allowed &= ~start
    need = draw(st.integers(-1, 7))
    cap = draw(st.sampled_from([3, 40, 600, 6000]))
    return g, start, allowed, need, cap


@settings(max_examples=120)
@given(listing_case())
def test_listing_agrees_with_the_python_one(case: tuple[Grid, int, int, int, int]) -> None:
    g, start, allowed, need, cap = case
    assert _enumerate(g, start, allowed, need, cap) == python_listing(g, start, allowed, need, cap)


def _brute_force(g: Grid, start: int, allowed: int, need: int) -> set[int]:
    """Every set of `need` cells of `allowed` (outside `start`) that joins it into one region."""
    free = list(bits(allowed & ~start))
    out = set()
    for extra in combinations(free, need):
        shape = start | g.mask_of(extra)
        if len(g.components(shape)) == 1:
            out.add(shape)
    return out


@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**20 - 1), st.integers(1, 4))
def test_listing_is_every_connected_superset(rows: int, cols: int, allowed: int, need: int) -> None:
    g = Grid.of(rows, cols)
    start = 1 << (g.size // 2)
    allowed &= g.full & ~start
    found = _enumerate(g, start, allowed, need, 10**6)
    assert found is not None and len(found) == len(set(found))
    assert set(found) == _brute_force(g, start, allowed, need)


def test_listing_gives_up_past_its_cap_and_stops_when_asked() -> None:
    g = Grid.of(20, 15)
    centre = 1 << g.cell(10, 7)
    assert _enumerate(g, centre, g.full & ~centre, 6, 100) is None
    assert python_listing(g, centre, g.full & ~centre, 6, 100) is None

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        _enumerate(g, centre, g.full & ~centre, 9, 6000, stop)
