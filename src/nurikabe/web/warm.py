"""What the logic engine learnt on a puzzle, kept from one hint to the next: `Memories`.

A walkthrough carries its memories from step to step (`State.memo` and
`State.case_memo`: the case splits that found nothing and the cases that broke a rule,
the trial search's chains and stalls, its guide's proven solution, the shapes' borders).
A hint in the game starts from the player's board, a new `State`, so without them every
press of the wand redoes from cold what a walkthrough does once: on the bundled 30x30
extreme puzzles 5-9 s of CPU at each trial position, past the wand's 2 s, where the
warm walkthrough takes a second or two a step.

Each memory is kept with what it holds for: a pure function's result with the part of
the shading it read, a broken case with the position it broke from (used only from
positions that extend it), a proven solution with the position it was proven from.
The wand asks only about boards that agree with the solution (it names wrong cells
first), so whatever a memory says of the positions it applies to holds from every
board it is used on, in whatever order players reach them; at most it lets a technique
skip work it would find nothing with, as in a walkthrough. Every step is still found
and checked by its technique. Which step a hint gives may depend on the hints asked
on the puzzle before, as a walkthrough's step depends on the steps before it.

`Memories` keeps the memories of the `SIZE` puzzles hinted most recently (each is
bounded by `logic.techniques.common.MEMO_MAX` entries per store; a whole game of the
bundled 30x30 #36, the longest walkthrough, played by 355 presses of the wand leaves
4.5 MB). A hint takes its
puzzle's memories out while it runs, so two hints never share one at once (the
second starts cold), and puts them back after.

Imports `puzzle` and `logic.state`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..logic.state import State
from ..puzzle import Puzzle

__all__ = ["SIZE", "Memories"]

SIZE = 8
"""Puzzles whose memories are kept (the most recently hinted)."""

_Kept = tuple[dict[object, object], dict[object, object]]


class Memories:
    """The logic engine's memories per puzzle, for the hints of the game (thread-safe)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Puzzle, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def lend(self, puzzle: Puzzle, state: State) -> None:
        """Give `state` (a position of `puzzle`) the puzzle's memories, taken out until
        `keep` puts them back; a state with none starts cold."""
        with self._lock:
            kept = self._kept.pop(puzzle, None)
        if kept is not None:
            state.memo, state.case_memo = kept

    def keep(self, puzzle: Puzzle, state: State) -> None:
        """Put back what `state` (lent by `lend`) learnt, as the puzzle's memories."""
        with self._lock:
            self._kept.pop(puzzle, None)
            self._kept[puzzle] = (state.memo, state.case_memo)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
