"""The sea's free sides (`logic.techniques.sides`): sound on every position of tiny grids
(the brute force), and the walkthroughs of the thesis's families it unlocks."""

from __future__ import annotations

import random

import pytest

from nurikabe import Puzzle
from nurikabe.logic import explain
from nurikabe.logic.state import State
from nurikabe.logic.techniques import sides
from nurikabe.logic.techniques.sides import sea_sides
from nurikabe.research.families import FAMILIES
from tests.bruteforce import black_masks


def _agrees(step_black: int, step_white: int, solutions: set[int], black: int, white: int) -> None:
    for other in solutions:
        if other & black == black and not other & white:
            assert not step_black & ~other and not step_white & other


def test_sound_on_tiny_grids(monkeypatch: pytest.MonkeyPatch) -> None:
    """With its gates opened (every island counted with its box and edges, any density),
    every cell the technique decides has that color in every solution the position
    allows; and it fires often enough for that to mean something."""
    monkeypatch.setattr(sides, "SIDES_AREA", 2)
    monkeypatch.setattr(sides, "SIDES_SPARSE", 0)
    rng = random.Random(11)
    fired = 0
    for _ in range(500):
        rows, cols = rng.randint(2, 4), rng.randint(3, 5)
        cells = rng.sample(range(rows * cols), rng.randint(1, 3))
        most = max(2, rows * cols // len(cells))
        puzzle = Puzzle(rows, cols, {cell: rng.randint(2, most) for cell in cells})
        solutions = black_masks(puzzle, cap=60)
        if not solutions:
            continue
        solution = rng.choice(sorted(solutions))
        shown = rng.getrandbits(rows * cols) & rng.getrandbits(rows * cols)
        black, white = solution & shown, ~solution & shown & ((1 << rows * cols) - 1)
        white |= puzzle.clue_mask
        step = sea_sides(State(puzzle, black, white))
        if step is None:
            continue
        fired += 1
        assert step.kind == "deduction" and (step.black_mask or step.white_mask)
        assert not (step.black_mask | step.white_mask) & (black | white)
        _agrees(step.black_mask, step.white_mask, solutions, black, white)
    assert fired >= 20


@pytest.mark.parametrize("family", ["two-clue", "corner"])
@pytest.mark.parametrize("n", [7, 9, 13, 21])
def test_families_explained(family: str, n: int) -> None:
    """The thesis's families are explained to the end without a trial, every step
    agreeing with the family's known solution."""
    member = FAMILIES[family](n)
    walk = explain(member.puzzle, seconds=60)
    assert walk.status == "solved"
    black = member.solution.black_mask
    for step in walk.steps:
        assert not step.black_mask & ~black and not step.white_mask & black
    assert all(step.technique != "trial" for step in walk.steps)
    if family == "two-clue":
        assert walk.steps[0].technique == "sea-sides"
        assert walk.grade is not None and walk.grade.level == "expert"


def test_the_message_names_the_count() -> None:
    """The sentence gives the numbers a person checks: the sea, its sides, the edge's."""
    step = sea_sides(State(FAMILIES["two-clue"](7).puzzle))
    assert step is not None
    assert "sea of 7 cells" in step.message and "16 sides" in step.message
    assert "28" in step.message and step.message.endswith("white.")
    assert step.premise_mask & 1  # the clue r1c1 is highlighted


def test_quiet_on_dense_grids() -> None:
    """Islands of fewer than SIDES_SPARSE cells on average: the count is not made."""
    puzzle = Puzzle.from_grid([[9, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    assert puzzle.known_clue_total < sides.SIDES_SPARSE
    assert sea_sides(State(puzzle)) is None
