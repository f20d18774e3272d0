"""The logic engine's memories kept per puzzle between the game's hints (`web.warm`):
lent to one hint at a time, the most recent puzzles kept, and the hints given with them
as sound as cold ones, whatever boards the player goes back and forth between."""

from __future__ import annotations

import random

from nurikabe import collection
from nurikabe.logic import State
from nurikabe.puzzle import Puzzle
from nurikabe.web.app import _hint
from nurikabe.web.games import Game
from nurikabe.web.warm import Memories

SMALL = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
OTHER = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 1]])


def test_memories_are_lent_to_one_hint_at_a_time() -> None:
    memories = Memories(size=2)
    first = State.from_board(SMALL.empty_board())
    memories.lend(SMALL, first)
    first.memo["learnt"] = 1
    first.case_memo["split"] = 2
    second = State.from_board(SMALL.empty_board())
    memories.lend(SMALL, second)  # the first still has them: this one starts cold
    assert second.memo == {} and second.case_memo == {}
    memories.keep(SMALL, first)
    third = State.from_board(SMALL.empty_board())
    memories.lend(SMALL, third)
    assert third.memo == {"learnt": 1} and third.case_memo == {"split": 2}
    memories.keep(SMALL, third)
    assert len(memories) == 1


def test_the_most_recent_puzzles_are_kept() -> None:
    memories = Memories(size=1)
    state = State.from_board(SMALL.empty_board())
    memories.lend(SMALL, state)
    state.memo["small"] = True
    memories.keep(SMALL, state)
    other = State.from_board(OTHER.empty_board())
    memories.lend(OTHER, other)
    memories.keep(OTHER, other)
    assert len(memories) == 1
    again = State.from_board(SMALL.empty_board())
    memories.lend(SMALL, again)
    assert again.memo == {}  # pushed out by the other puzzle


def test_warm_hints_agree_with_the_solution_back_and_forth() -> None:
    """A player who takes each hint and now and then clears cells again (a board the
    memories came from no longer extends): every hint names cells the solution agrees
    with, trial steps included, and the puzzle is finished."""
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    entry = collection.get(conn, 155, "15x15")
    collection.close_db(conn)
    assert entry is not None and entry.level == "extreme"
    game = Game("15x15", 155, entry.puzzle, entry.solution, entry.level, entry.score)
    memories = Memories()
    solution = entry.solution
    rng = random.Random(5)
    board = entry.puzzle.empty_board()
    kinds = set()
    for _ in range(3000):
        if not board.unknown_mask:
            break
        hint = _hint(game, board, memories)
        assert hint.kind == "step"
        kinds.add(hint.technique)
        for cell, color in hint.cells:
            assert (solution.black_mask >> cell & 1) == (color == "black"), hint.message
            (board.set_black if color == "black" else board.set_white)(cell)
        if rng.random() < 0.1:
            decided = (board.black_mask | board.white_mask) & ~entry.puzzle.clue_mask
            cells = [i for i in range(entry.puzzle.area) if decided >> i & 1]
            for cell in rng.sample(cells, min(len(cells), rng.randint(1, 6))):
                board.clear(cell)
    assert board.black_mask == solution.black_mask
    assert "trial" in kinds, kinds
    assert len(kinds) > 3, kinds
