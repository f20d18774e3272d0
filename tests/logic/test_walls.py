"""The perimeter arguments of `logic.walls`: the bounds they rest on; the walled-in island,
the crossings it starts from and the published puzzle it was made for (janko 29); the
perimeter budget against the brute-force oracle and on the thesis's corner family."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe import Puzzle
from nurikabe.logic import State, explain
from nurikabe.logic.walls import (
    black_edge_sides,
    enclosable,
    min_perimeter,
    perimeter_budget,
    walled_in_island,
)
from nurikabe.puzzle import UNKNOWN_CLUE
from nurikabe.research.families import corner_puzzle
from tests.bruteforce import black_masks

try:
    from tests.corpus import CORPUS_PATH, corpus
except ImportError:  # pragma: no cover
    CORPUS_PATH = None

HAVE_CORPUS = CORPUS_PATH is not None and CORPUS_PATH.exists()
needs_corpus = pytest.mark.skipif(not HAVE_CORPUS, reason="corpus not present")


def _box_bound(n: int) -> int:
    """The least perimeter of a box (h rows, w columns) of at least `n` cells: a region
    of n cells has the perimeter of the box it spans at least, and the best region is
    a box with a partial row (Harary and Harborth, 1976)."""
    return min(2 * (h + -(-n // h)) for h in range(1, n + 1))


@pytest.mark.parametrize("n", range(1, 400))
def test_min_perimeter_is_the_best_box(n: int) -> None:
    assert min_perimeter(n) == _box_bound(n)


def test_min_perimeter_of_squares_and_strips() -> None:
    assert [min_perimeter(n) for n in (1, 2, 3, 4, 9, 36, 37)] == [4, 6, 8, 8, 12, 24, 26]


def test_enclosable_janko_29() -> None:
    """27 sea cells can wall in 36 cells (a 6x6 square) but not 37."""
    assert enclosable(36, 27)
    assert not enclosable(37, 27)
    # A bigger sea never walls in less, a bigger area never needs less sea.
    for area in range(1, 60):
        seas = [enclosable(area, sea) for sea in range(1, 80)]
        assert seas == sorted(seas)
    for sea in range(1, 60):
        areas = [enclosable(area, sea) for area in range(1, 80)]
        assert areas == sorted(areas, reverse=True)


def test_no_step_without_a_crossing() -> None:
    """Without a 2x2 block of black on one diagonal and white on the other, nothing to say."""
    puzzle = Puzzle.from_grid([[3, 0, 0], [0, 0, 0], [0, 0, 2]])
    assert walled_in_island(State(puzzle)) is None


def test_crossings_are_the_blocks_with_opposite_diagonals() -> None:
    """`_crossings` (mask arithmetic) lists the blocks a cell-by-cell look finds."""
    from nurikabe.logic.walls import _crossings

    rng = random.Random(4)
    puzzle = Puzzle.from_clues(5, 7, [(0, 0, 2)])
    grid = puzzle.grid
    for _ in range(300):
        black = rng.getrandbits(grid.size) & ~puzzle.clue_mask
        white = rng.getrandbits(grid.size) & ~black
        state = State(puzzle, black, white)
        expected = []
        for r in range(grid.rows - 1):
            for c in range(grid.cols - 1):
                a = r * grid.cols + c
                b, d, e = a + 1, a + grid.cols, a + grid.cols + 1
                color = [state.black >> i & 1 for i in (a, b, d, e)]
                lit = [state.white >> i & 1 for i in (a, b, d, e)]
                block = 1 << a | 1 << b | 1 << d | 1 << e
                if color[0] and color[3] and lit[1] and lit[2]:
                    expected.append((block, b, d))
                elif lit[0] and lit[3] and color[1] and color[2]:
                    expected.append((block, a, e))
        assert _crossings(state) == expected


@needs_corpus
def test_janko_29_is_solved_with_the_walled_in_island() -> None:
    """janko 29 (a 37 and a 36 on a diagonal, 27 sea cells): the walkthrough uses the
    walled-in island, and every step agrees with the published solution."""
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0029")
    walk = explain(doc.puzzle, seconds=120)
    assert walk.status == "solved" and walk.board == doc.solution
    used = [s for s in walk.steps if s.technique == "walled-in-island"]
    assert used
    for step in walk.steps:
        assert not (step.black_mask & ~doc.solution.black_mask), step.message
        assert not (step.white_mask & doc.solution.black_mask), step.message


# -- the perimeter budget ---------------------------------------------------------------


def _position(rows: list[str]) -> State:
    """A position from rows of characters: a digit is a clue, ``#`` black, ``.`` white."""
    cols = len(rows[0])
    clues, black, white = [], 0, 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch.isdigit():
                clues.append((r, c, int(ch)))
            elif ch == "#":
                black |= 1 << (r * cols + c)
            elif ch == ".":
                white |= 1 << (r * cols + c)
    puzzle = Puzzle.from_clues(len(rows), cols, clues)
    return State(puzzle, black, white | puzzle.clue_mask)


def test_black_edge_sides_count_black_cells_and_the_gaps_between_islands() -> None:
    # The 2 and the 3 on the top edge, nothing between them yet: one black side needed;
    # the 2 and the 3 on the left edge: one more; the black corner r3c4: two, one on the
    # bottom edge and one on the right.
    assert black_edge_sides(_position(["2??3", "????", "3??#"])) == 1 + 1 + 2
    # A black cell already parts the top edge's two (it counts once); the right edge
    # still needs one between the 3 and the 1.
    assert black_edge_sides(_position(["2#?3", "????", "???1"])) == 1 + 1


def test_the_corner_family_is_explained_without_a_trial() -> None:
    """From 7x7 on, nothing else the engine has makes a first step on the corner family
    (the thesis's floor(n/2)^2 in each corner); the budget squares each island."""
    for n in (7, 9, 11, 21):
        family = corner_puzzle(n)
        walk = explain(family.puzzle, seconds=30)
        assert walk.status == "solved"
        assert walk.board is not None and walk.board.black_mask == family.solution.black_mask
        assert walk.steps[0].technique == "perimeter-budget"
        assert walk.grade is not None and walk.grade.level == "hard"
        assert not any(step.trial_depth for step in walk.steps)


def test_no_step_with_spare_sides_or_question_marks() -> None:
    """Sides to spare (8s in the corners of a 7x7) leave every box with more room than
    an island needs; a ``?`` leaves the number of sea cells unknown."""
    eights = Puzzle.from_clues(7, 7, [(0, 0, 8), (0, 6, 8), (6, 0, 8), (6, 6, 8)])
    assert perimeter_budget(State(eights)) is None
    unknown = Puzzle.from_clues(7, 7, [(0, 0, 9), (0, 6, 9), (6, 0, 9), (6, 6, UNKNOWN_CLUE)])
    assert perimeter_budget(State(unknown)) is None


@st.composite
def tiny_positions(draw: st.DrawFn) -> tuple[Puzzle, int, int, set[int]]:
    """A grid of up to 20 cells with 1 to 3 clues and a solution, and a position made of
    some cells of one solution; with every solution (at most 60) of the puzzle."""
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(2, 5))
    area = rows * cols
    if area > 20:
        cols = 20 // rows
        area = rows * cols
    cells = draw(st.lists(st.integers(0, area - 1), min_size=1, max_size=3, unique=True))
    most = max(1, area // len(cells))
    values = [draw(st.integers(1, most)) for _ in cells]
    puzzle = Puzzle(rows, cols, dict(zip(cells, values, strict=True)))
    solutions = black_masks(puzzle, cap=60)
    if not solutions:
        return puzzle, 0, 0, solutions
    solution = draw(st.sampled_from(sorted(solutions)))
    shown = draw(st.integers(0, (1 << area) - 1))
    full = (1 << area) - 1
    return puzzle, solution & shown, ~solution & shown & full, solutions


@given(tiny_positions())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_budget_holds_in_every_solution(case: tuple[Puzzle, int, int, set[int]]) -> None:
    """Every cell the budget whitens is white in every solution the position allows."""
    puzzle, black, white, solutions = case
    if not solutions:
        return
    state = State(puzzle, black, white | puzzle.clue_mask)
    step = perimeter_budget(state)
    if step is None:
        return
    assert step.kind == "deduction" and step.white_mask and not step.black_mask
    assert not step.white_mask & ~state.unknown
    for solution in solutions:
        if solution & black == black and not solution & (white | puzzle.clue_mask):
            assert not step.white_mask & solution, step.message


def test_the_budget_fires_on_tiny_grids() -> None:
    """The property test above is not vacuous: on random tiny puzzles the budget makes a
    step often (about one position in seven), and never a wrong one."""
    rng = random.Random(7)
    fired = 0
    for _ in range(600):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        cells = rng.sample(range(rows * cols), rng.randint(1, 3))
        most = max(1, rows * cols // len(cells))
        puzzle = Puzzle(rows, cols, {cell: rng.randint(1, most) for cell in cells})
        solutions = black_masks(puzzle, cap=60)
        if not solutions:
            continue
        solution = rng.choice(sorted(solutions))
        shown = rng.getrandbits(rows * cols)
        black, white = solution & shown, ~solution & shown & ((1 << rows * cols) - 1)
        step = perimeter_budget(State(puzzle, black, white | puzzle.clue_mask))
        if step is not None:
            fired += 1
            for other in solutions:
                if other & black == black and not other & (white | puzzle.clue_mask):
                    assert not step.white_mask & other, step.message
    assert fired >= 30
