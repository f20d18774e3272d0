"""The generator's phase 1 (`nurikabe.generator.tiling`): random solved boards.

Every layout is checked against the rules by means that share no code with the tiling
(the rule checker, and the plain loops below): islands apart with one clue each and
no bigger than the profile allows, one sea without a pool, symmetric clue cells.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe import Board, Puzzle
from nurikabe.generator.tiling import (
    SYMMETRIES,
    Layout,
    Profile,
    _size_weights,
    random_layout,
    sea_stays_connected,
    symmetry_map,
)
from nurikabe.grid import Grid
from nurikabe.rules import check

SHAPES = [(5, 7), (7, 9), (8, 6), (9, 9), (6, 11)]


def _components(rows: int, cols: int, cells: set[int]) -> list[set[int]]:
    """The orthogonally connected parts of `cells`, by breadth-first search."""
    left, parts = set(cells), []
    while left:
        start = left.pop()
        part, todo = {start}, deque([start])
        while todo:
            r, c = divmod(todo.popleft(), cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                n = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and n in left:
                    left.remove(n)
                    part.add(n)
                    todo.append(n)
        parts.append(part)
    return parts


def _cells(mask: int) -> set[int]:
    return {i for i in range(mask.bit_length()) if mask >> i & 1}


def assert_solved_board(layout: Layout, max_island: int) -> None:
    grid = layout.grid
    rows, cols = grid.rows, grid.cols
    white, clues = _cells(layout.white), _cells(layout.clue_mask)
    sea = set(range(rows * cols)) - white
    assert clues <= white
    for island in _components(rows, cols, white):
        assert len(island & clues) == 1, "one clue cell per island"
        assert 1 <= len(island) <= max_island
    seas = _components(rows, cols, sea)
    assert len(seas) <= 1, "one sea"
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = {r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1}
            assert not block <= sea, f"a pool at r{r + 1}c{c + 1}"
    # The independent rule checker agrees: the board solves the puzzle of its clues.
    puzzle = Puzzle(rows, cols, layout.clues())
    board = Board(puzzle, grid.full & ~layout.white, layout.white)
    assert check(puzzle, board, mode="all") == []


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_layouts_are_solved_boards(symmetry: str, rows: int, cols: int) -> None:
    for seed in range(4):
        profile = Profile(max_island=5 + seed, mean_island=2.5 + seed / 2)
        layout = random_layout(rows, cols, profile, random.Random(seed), symmetry=symmetry)
        if symmetry == "mirror" and rows % 2 == 0 and cols % 2 == 0:
            # Every cell of the two middle columns would touch its own image: they would
            # be all sea, a column of pools. No layout, rather than a wrong one.
            assert layout is None
            continue
        assert layout is not None
        assert_solved_board(layout, profile.max_island)
        assert layout.is_valid(profile.max_island)
        sigma = symmetry_map(rows, cols, symmetry)
        if sigma is not None:
            clues = _cells(layout.clue_mask)
            assert {sigma[i] for i in clues} == clues
            # Islands come in pairs (or map onto themselves): the white cells are symmetric.
            assert {sigma[i] for i in _cells(layout.white)} == _cells(layout.white)


def test_clues_are_island_sizes() -> None:
    layout = random_layout(8, 10, Profile(), random.Random(3))
    assert layout is not None
    islands = _components(8, 10, _cells(layout.white))
    assert sorted(layout.clues().values()) == sorted(len(island) for island in islands)
    for cell, size in layout.clues().items():
        assert any(cell in island and len(island) == size for island in islands)


def test_the_white_share_follows_the_profile() -> None:
    for share in (0.35, 0.45):
        whites = []
        for seed in range(6):
            layout = random_layout(12, 12, Profile(white_share=share), random.Random(seed))
            assert layout is not None
            whites.append(layout.white.bit_count() / 144)
        assert abs(sum(whites) / len(whites) - share) < 0.08


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_the_same_seed_gives_the_same_layout(symmetry: str) -> None:
    def make(seed: int) -> Layout | None:
        return random_layout(9, 11, Profile(), random.Random(seed), symmetry=symmetry)

    assert make(7) == make(7)
    assert len({(layout.white, layout.clue_mask) for layout in map(make, range(5)) if layout}) > 1


def test_no_attempt_no_layout() -> None:
    assert random_layout(5, 5, Profile(), random.Random(0), attempts=0) is None


def test_draw_size_stays_in_range_and_near_the_mean() -> None:
    rng = random.Random(1)
    for max_island, mean in [(9, 4.0), (4, 2.0), (20, 6.0), (500, 30.0)]:
        profile = Profile(max_island=max_island, mean_island=mean)
        sizes = [profile.draw_size(rng) for _ in range(4000)]
        assert min(sizes) >= 1 and max(sizes) <= max_island
        assert abs(sum(sizes) / len(sizes) - mean) < 0.1 * mean


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (3, 2), (4, 4), (5, 7), (6, 5)])
@pytest.mark.parametrize("symmetry", ["rot180", "mirror"])
def test_symmetry_maps_are_involutions_of_the_grid(rows: int, cols: int, symmetry: str) -> None:
    sigma = symmetry_map(rows, cols, symmetry)
    assert sigma is not None
    assert sorted(sigma) == list(range(rows * cols))
    assert all(sigma[sigma[i]] == i for i in range(rows * cols))
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        image_r, image_c = divmod(sigma[i], cols)
        if symmetry == "rot180":
            assert (image_r, image_c) == (rows - 1 - r, cols - 1 - c)
        elif cols % 2 == 0 and rows % 2 == 1:  # a top-bottom mirror
            assert (image_r, image_c) == (rows - 1 - r, c)
        else:  # a left-right mirror
            assert (image_r, image_c) == (r, cols - 1 - c)


def test_unknown_symmetry_is_a_value_error() -> None:
    assert symmetry_map(3, 3, "none") is None
    with pytest.raises(ValueError, match="unknown symmetry 'spiral'"):
        symmetry_map(3, 3, "spiral")
    with pytest.raises(ValueError, match="unknown symmetry"):
        random_layout(5, 5, Profile(), random.Random(0), symmetry="spiral")


@settings(max_examples=300, deadline=None)
@given(
    rows=st.integers(2, 6),
    cols=st.integers(2, 6),
    black=st.integers(0, 2**36 - 1),
    pick=st.integers(0, 2**36 - 1),
    several=st.booleans(),
)
def test_sea_stays_connected_agrees_with_a_search(
    rows: int, cols: int, black: int, pick: int, several: bool
) -> None:
    grid = Grid.of(rows, cols)
    black &= grid.full
    sea = _cells(black)
    if len(_components(rows, cols, sea)) != 1:
        return  # the function is asked about one connected sea
    chosen = sorted(sea)
    cells = black & pick if several else 1 << chosen[pick % len(chosen)]
    if not cells:
        return
    rest = sea - _cells(cells)
    expected = len(_components(rows, cols, rest)) <= 1
    assert sea_stays_connected(grid, black, cells) == expected


# Island-size weights.


def test_size_weights_large_islands() -> None:
    """Large islands no longer overflow the tilt or rebuild the weights every draw."""
    weights = _size_weights(4096, 60.0)
    assert len(weights) == 4096 and all(math.isfinite(w) and w >= 0 for w in weights)
    mean = sum(k * w for k, w in enumerate(weights, 1)) / sum(weights)
    assert abs(mean - 60.0) < 0.5
    profile = Profile(max_island=4096, mean_island=60.0)
    began = time.perf_counter()
    import random

    rng = random.Random(1)
    sizes = [profile.draw_size(rng) for _ in range(500)]
    assert time.perf_counter() - began < 1
    assert all(1 <= s <= 4096 for s in sizes)


def test_size_weights_unchanged_for_usual_profiles() -> None:
    """The weights the bundled collection was drawn with are the same numbers as before."""
    base = [0.115, 0.23, 0.221, 0.167, 0.101, 0.061, 0.039, 0.023, 0.025]
    lo, hi = 0.05, 20.0
    for _ in range(50):
        mid = (lo * hi) ** 0.5
        ws = [w * mid**k for k, w in enumerate(base, 1)]
        if sum(k * w for k, w in enumerate(ws, 1)) / sum(ws) < 3.7:
            lo = mid
        else:
            hi = mid
    assert list(_size_weights(9, 3.7)) == [w * lo**k for k, w in enumerate(base, 1)]
