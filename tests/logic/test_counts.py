"""The global budgets (`logic.techniques.counts`): sound on every position of tiny grids
(the brute force), quiet with ``?`` clues, and worded with the numbers a person checks."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from nurikabe import Puzzle
from nurikabe.logic.state import State
from nurikabe.logic.steps import Step
from nurikabe.logic.techniques.counts import sea_budget, white_budget
from tests.bruteforce import black_masks
from tests.logic.test_techniques import position


def test_sound_on_tiny_grids() -> None:
    """Every cell either technique decides has that color in every solution the position
    allows (the brute force over all colorings), and each fires often enough for that
    to mean something."""
    rng = random.Random(3)
    fired = {"white-budget": 0, "sea-budget": 0}
    for _ in range(1500):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        cells = rng.sample(range(rows * cols), rng.randint(1, 4))
        most = max(1, rows * cols // len(cells) - 1)
        puzzle = Puzzle(rows, cols, {cell: rng.randint(1, most) for cell in cells})
        solutions = black_masks(puzzle, cap=60)
        if not solutions:
            continue
        solution = rng.choice(sorted(solutions))
        shown = rng.getrandbits(rows * cols) & rng.getrandbits(rows * cols)
        black, white = solution & shown, ~solution & shown & ((1 << rows * cols) - 1)
        white |= puzzle.clue_mask
        state = State(puzzle, black, white)
        for func in (white_budget, sea_budget):
            step = func(state)
            if step is None:
                continue
            fired[step.technique] += 1
            assert step.kind == "deduction" and (step.black_mask or step.white_mask)
            assert not step.mask & (black | white)
            for other in solutions:
                if other & black == black and not other & white:
                    assert not step.black_mask & ~other and not step.white_mask & other
    assert min(fired.values()) >= 20, fired


def test_white_budget_names_the_count_and_groups() -> None:
    step = white_budget(position(["?1?#?", "??#.?", "1????", "?##4?"]))
    assert step is not None
    assert "add up to 6 white cells and 4 are placed, so 2 are missing" in step.message
    assert "the 2x2 block r3c2-r4c3" in step.message and "stray white cell r2c4" in step.message
    # the groups are highlighted: r3c2, r3c3 (the block's open cells), r2c5, r3c4
    grid = step.grid
    for name in ("r3c2", "r3c3", "r2c5", "r3c4"):
        r, c = int(name[1]) - 1, int(name[3]) - 1
        assert step.premise_mask >> grid.cell(r, c) & 1


def test_sea_budget_names_the_count_and_pair() -> None:
    step = sea_budget(position(["?3.", "?##", "3??"]))
    assert step is not None
    assert "The sea has 9 - 6 = 3 cells and 2 are black, so 1 is still to come" in step.message
    assert "r1c1 or r2c1" in step.message and step.message.endswith("white.")


def test_quiet_with_unknown_clues() -> None:
    """A ``?`` clue leaves the totals unknown: neither count is made."""
    puzzle = Puzzle.from_clues(3, 3, [(0, 1, 3), (2, 0, -1)])
    state = State(puzzle, black=0b000_110_000, white=puzzle.clue_mask | 0b100)
    assert white_budget(state) is None and sea_budget(state) is None


@pytest.mark.parametrize(
    ("func", "fires", "moves", "quiet"),
    [
        (
            white_budget,
            # 2 white cells missing; the stray r2c4 and the block r3c2-r4c3 each need one
            ["?1?#?", "??#.?", "1????", "?##4?"],
            {"r1c1=#", "r1c3=#", "r1c5=#", "r2c1=#", "r2c2=#", "r3c5=#", "r4c1=#", "r4c5=#"},
            # 4 missing: the groups leave cells to spare
            ["?1???", "?????", "1????", "???4?"],
        ),
        (
            sea_budget,
            # one black cell to come, and r1c1 or r2c1 must keep the two 3s apart
            ["?3.", "?##", "3??"],
            {"r3c2=.", "r3c3=."},
            # three to come, one group needing one
            ["?3?", "???", "3??"],
        ),
    ],
    ids=["white-budget", "sea-budget"],
)
def test_fires_and_quiet(
    func: Callable[[State], Step | None], fires: list[str], moves: set[str], quiet: list[str]
) -> None:
    state = position(fires)
    step = func(state)
    assert step is not None and step.kind == "deduction"
    assert {str(m) for m in step.moves()} == moves
    assert not step.mask & ~state.unknown
    assert func(position(quiet)) is None


def test_sea_budget_names_the_black_region() -> None:
    """A black region smaller than the sea needs one more black cell next to it; the
    sentence names the region by a cell of it, and the cell between the 3s is a group
    of its own."""
    step = sea_budget(position(["?#?", "???", "3?3"]))
    assert step is not None
    assert "3 cells and 1 is black, so 2 are still to come" in step.message
    assert "r3c2 (it touches two islands)" in step.message
    assert "the cells next to the black region at r1c2" in step.message
    assert {str(m) for m in step.moves()} == {"r2c1=.", "r2c3=."}
