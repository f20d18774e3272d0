"""The analysis a state builds from the one before (after `decide`) equals one made afresh."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nurikabe import Puzzle
from nurikabe.logic.state import Analysis, State
from nurikabe.puzzle import UNKNOWN_CLUE
from tests.bruteforce import black_masks

PUZZLE = Puzzle.from_clues(7, 7, [(0, 0, 3), (1, 4, 2), (3, 2, 4), (4, 6, 1), (6, 1, 5), (6, 5, 2)])


def facts(a: Analysis) -> tuple[object, ...]:
    a.reach()
    return (
        a.white_parts,
        a.sea_parts(),
        a.sea_room(),
        a.touching_two,
        a.orphans,
        a.clashes,
        [(i.mask, i.around, i.border, i.forbidden, i.allowed, i.reach) for i in a.islands],
    )


@given(st.lists(st.tuples(st.integers(0, 48), st.booleans()), max_size=40), st.integers(0, 3))
def test_incremental_analysis(moves: list[tuple[int, bool]], every: int) -> None:
    state = State(PUZZLE)
    for n, (cell, black) in enumerate(moves):
        if not state.unknown >> cell & 1:
            continue
        if every and n % every:
            # Some positions are analysed and some not, as in the techniques' loops.
            state.analysis()
        bit = 1 << cell
        copy = state.copy()
        state.decide(bit if black else 0, 0 if black else bit)
        copy.decide(bit if black else 0, 0 if black else bit)
        fresh = State(PUZZLE, state.black, state.white)
        assert facts(state.analysis()) == facts(fresh.analysis())
        assert facts(copy.analysis()) == facts(fresh.analysis())


# An island's reach holds every way of completing it, against a brute-force oracle.
#
# `Analysis.reach` prices a clueless white region an island walks into at its whole size,
# which makes the reach smaller than counting steps would. Every technique that reads it
# (unreachable, the contradictions, bottlenecks, island shapes) is sound only if no
# solution's island ever leaves it. Here small random puzzles, `?` clues included, are
# solved by brute force; a random part of one solution is taken as the position, and the
# island of that solution around each clue must lie within the clue's reach, and every
# clueless white region of the position within the union of the reaches.


@st.composite
def positions(draw: st.DrawFn) -> tuple[Puzzle, int, int, int]:
    """A puzzle, one of its solutions (black cells) and a position taken from it."""
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(2, 4 if rows == 5 else 5))
    area = rows * cols
    cells = draw(st.lists(st.integers(0, area - 1), min_size=1, max_size=4, unique=True))
    choices = [UNKNOWN_CLUE, *range(1, min(area, 8) + 1)]
    values = [draw(st.sampled_from(choices)) for _ in cells]
    puzzle = Puzzle.from_clues(
        rows, cols, [(c // cols, c % cols, v) for c, v in zip(cells, values, strict=True)]
    )
    solutions = sorted(black_masks(puzzle, cap=20))
    assume(solutions)
    black = solutions[draw(st.integers(0, len(solutions) - 1))]
    known = draw(st.integers(0, (1 << area) - 1))
    return puzzle, black, black & known, ~black & known & ((1 << area) - 1)


@pytest.mark.long
@given(positions())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_every_solution_island_lies_within_its_reach(case: tuple[Puzzle, int, int, int]) -> None:
    puzzle, solution, black, white = case
    state = State(puzzle, black, white)
    grid = state.grid
    analysis = state.analysis()
    covered = analysis.reach()
    solution_white = grid.full & ~solution
    for island in analysis.islands:
        whole = grid.flood(1 << island.clue, solution_white)
        assert whole & ~island.reach == 0, (puzzle.to_url(), grid.name(island.clue))
    for orphan in analysis.orphans:
        assert orphan & ~covered == 0, puzzle.to_url()
