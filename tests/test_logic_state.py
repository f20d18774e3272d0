"""The analysis a state builds from the one before (after `decide`) equals one made afresh."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nurikabe import Puzzle
from nurikabe.logic.state import Analysis, State

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
