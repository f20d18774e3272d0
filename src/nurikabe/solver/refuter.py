"""The door from the logic engine into the exact core: how cheaply a supposition is refuted.

The logic engine's trial search (`logic.trial`, guided by `logic.guide`) asks the
compiled core three things about a position: its unique solution, whether supposing
a cell black or white is refuted, and at what cost (search nodes, probes: at the root
by propagation alone, by probing, or within a few nodes). This module owns the typed
objects it asks:

- `Refuter`, one per walkthrough: the puzzle's clues as the core takes them, and the
  memory of the unique solution once proven (a later position that extends the one it
  was proven from and agrees with it has the same unique solution, so a walkthrough
  solves once);
- `Position`, one per position asked about: the questions, within a budget of counted
  work (cell-propagations), with the core's searches stopped at a node limit kept
  paused so that a later question with more nodes carries them on.

What it answers depends on counted work alone, never on time: a CPU deadline only
stops it (`limits.OutOfTime`). It never passes the core its ``strong`` rules (those are
for the exact solver alone), so the answers are the ones the logic engine has always
had.

The compiled core is required (the package does not install without it). Only this
module and `solver.native` import it.

Imports `grid`, `limits` and `puzzle`, and the compiled core ``solver._csolve``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple, Protocol

from ..grid import bits
from ..limits import OutOfTime
from ..puzzle import UNKNOWN_CLUE, Color, Puzzle

__all__ = ["Cost", "Position", "Refuter", "Supposition"]

Supposition = tuple[int, Color]
"""A cell and the color supposed for it."""

_UNKNOWN, _BLACK, _WHITE = 0, 1, 2
"""The core's cell states."""


class _CoreSearch(Protocol):
    """What this module uses of the core's ``Search`` (see ``_csolve.c``)."""

    @property
    def nodes(self) -> int: ...

    @property
    def propagations(self) -> int: ...

    @property
    def probes(self) -> int: ...

    @property
    def stop(self) -> str | None: ...

    @property
    def complete(self) -> bool: ...

    def next(self) -> bytes | None: ...

    def extend(self, nodes: int, seconds: float = -1.0) -> None: ...


_core = importlib.import_module("nurikabe.solver._csolve")
_Search: Callable[..., _CoreSearch] = _core.Search
"""The core's search: ``Search(rows, cols, clues, start, seconds, nodes, cpu)``."""
_Memo: Callable[[], object] = _core.Memo
"""The core's memo of fixpoints (``Memo()``): searches given the same one answer a state
propagated before from it (the same fixpoint, the same counts; only faster)."""


class Cost(NamedTuple):
    """What the core spent refuting a supposition (compared as a tuple: nodes first)."""

    nodes: int
    """Search nodes (1: refuted at the root, by propagation and probing)."""
    probes: int
    """Cells probed both ways."""


class Refuter:
    """The exact core, asked about the positions of one walkthrough of `puzzle`.

    Keep one per walkthrough (the logic engine keeps it in `State.case_memo`): it
    remembers the unique solution once a `Position` has proven it, so that a later
    position of the same walkthrough is not solved again. Per walkthrough, not per
    process, so that a walkthrough gets the same answers however many ran before it.
    """

    __slots__ = ("_solved", "clues", "memo", "puzzle", "sharing")

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.clues = [(cell, -1 if v == UNKNOWN_CLUE else v) for cell, v in puzzle.clues.items()]
        """The clues as the core takes them: (cell, value), -1 for a ``?``."""
        self._solved: tuple[int, int, int] | None = None
        """The black cells of the unique solution, and the black and white cells of the
        position it was proven unique from."""
        self.sharing = False
        """Whether the positions asked now share one memo of the core's fixpoints (see
        `remembering`)."""
        self.memo: object | None = None
        """That memo, once made (None outside `remembering`)."""

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """Within, every position asked shares one memo of the fixpoints the core's
        searches reach (made on the first search, dropped on leaving; within another
        `remembering`, the outer one's). It changes no answer and no count of work, only
        the time: a walkthrough's trial searches ask the core about many positions that
        differ in a few cells, and their searches often propagate the same state (on
        janko 1091 turned 7, a fifth of the propagations of a walkthrough). Outside,
        each position has a memo of its own."""
        if self.sharing:
            yield
            return
        self.sharing = True
        try:
            yield
        finally:
            self.sharing = False
            self.memo = None

    def known_solution(self, black: int, white: int) -> int | None:
        """The black cells of the unique solution proven from an earlier position, if the
        position (`black`, `white`) extends that one and agrees with the solution."""
        if self._solved is None:
            return None
        solution, at_black, at_white = self._solved
        if (
            black & at_black == at_black
            and white & at_white == at_white
            and not (black & ~solution or white & solution)
        ):
            return solution
        return None

    def remember(self, solution: int, black: int, white: int) -> None:
        """Take `solution` (black cells) as the unique solution, proven (by another
        engine) from the position (`black`, `white`)."""
        self._solved = (solution, black, white)

    def position(
        self,
        black: int,
        white: int,
        *,
        work: int,
        deadline: float | None = None,
        local: bool = False,
    ) -> Position:
        """The position with these black and white cells, to ask within `work` (counted
        in cell-propagations) and until `deadline` (CPU time of this thread, as
        `time.thread_time`; None: no deadline). With `local`, the core's search of a
        supposition probes first near what the supposition changes (see `Position.local`)."""
        return Position(self, black, white, work=work, deadline=deadline, local=local)


SOLVE_SLICE = 256
"""Search nodes between two looks at the work of a solve with a bound of its own (see
`Position.solve`): a node on a big sparse board can take milliseconds."""


class Position:
    """One position's questions to the core, within a budget of counted work.

    Work is counted in cell-propagations: the core's propagations to a fixpoint,
    probes included, times the cells of the grid. Once `spent` reaches `allowance`,
    every question answers None (unknown). Counting work rather than time makes the
    answers the same on every machine, however fast or busy it is.
    """

    __slots__ = (
        "allowance",
        "black",
        "cells",
        "deadline",
        "gave_up",
        "local",
        "memo",
        "paused",
        "refuter",
        "spent",
        "white",
    )

    def __init__(
        self,
        refuter: Refuter,
        black: int,
        white: int,
        *,
        work: int,
        deadline: float | None,
        local: bool = False,
    ) -> None:
        self.refuter = refuter
        self.local = local
        """Whether the core's search of a supposition probes at its root first near the
        cells the supposition changes (as it does at every node below), rather than every
        cell: its cost then measures the supposition more than the rest of the position."""
        self.black = black
        self.white = white
        self.cells: bytes | None = None
        """The position as the core takes it (see `_cells`), once made."""
        self.deadline = deadline
        """The CPU time (`time.thread_time`) past which a question raises
        `OutOfTime`, or None."""
        self.spent = 0
        """The work done so far."""
        self.gave_up = False
        """Whether `solve` stopped at its own work bound (rather than deciding, or
        reaching its node limit)."""
        self.allowance = work
        """The work it may do in all."""
        self.memo: object | None = None
        """The core's memo of the fixpoints its searches of this position reach (made on
        the first search), unless the refuter shares one (`Refuter.remembering`): a state
        propagated again, in another supposition's search or deeper in the same, is
        answered from it, with the same fixpoint and counts."""
        self.paused: dict[Supposition, _CoreSearch] = {}
        """The core's searches that stopped at their node limit, by supposition; a later
        question with more nodes carries them on instead of searching again from the
        start."""

    def exhausted(self) -> bool:
        """Whether all the work allowed is done."""
        return self.spent >= self.allowance

    def solve(self, nodes: int, work: int | None = None) -> int | None:
        """The black cells of the position's unique solution, or None: no solution,
        several, or none proven unique within `nodes` search nodes, `work` (counted as
        `spent` is; None: no bound of its own) or the work left.

        Taken from the refuter's memory when it holds one this position extends (no
        work done); otherwise proven here, and remembered. With `work`, the core searches
        `SOLVE_SLICE` nodes at a time and gives up once the solve has done that much: a
        single node limit let a search on a big sparse board run for half a minute
        between two looks at the work. The slices reach the same end as one search with
        `nodes` (a paused search carried on counts the same nodes).

        Raises:
            OutOfTime: the deadline passed.
        """
        refuter = self.refuter
        known = refuter.known_solution(self.black, self.white)
        if known is not None:
            return known
        limit = nodes if work is None else min(nodes, SOLVE_SLICE)
        core = self._search(None, limit)
        if core is None:
            return None
        size = refuter.puzzle.grid.size
        found: list[bytes] = []
        while len(found) < 2:
            one = core.next()
            self._finished(core)
            if one is not None:
                found.append(one)
                continue
            if core.complete or core.stop != "nodes" or limit >= nodes:
                break
            if work is not None and core.propagations * size >= work:
                self.gave_up = True
                break
            limit = min(nodes, limit + SOLVE_SLICE)
            core.extend(limit, self._left())
        self._charge(core, 0)
        if len(found) != 1 or not core.complete:
            return None
        solution = int.from_bytes(found[0], "little")
        refuter.remember(solution, self.black, self.white)
        return solution

    def refute(self, key: Supposition, nodes: int) -> Cost | None:
        """What the core spends refuting the supposition `key` within `nodes` search
        nodes, or None: not refuted within them (the search is kept paused when the
        node limit stopped it), or the work is up.

        Raises:
            OutOfTime: the deadline passed.
        """
        paused = self.paused.get(key)
        before = 0 if paused is None else paused.propagations
        core = self._search(key, nodes)
        if core is None:
            return None
        found = core.next()
        self._finished(core)
        self._charge(core, before)
        if found is not None or not core.complete:
            if core.stop == "nodes":
                self.paused[key] = core
            return None
        return Cost(core.nodes, core.probes)

    def _charge(self, core: _CoreSearch, before: int) -> None:
        """Count the work `core` did since it had made `before` propagations."""
        done = core.propagations - before
        self.spent += done * self.refuter.puzzle.grid.size

    def _search(self, key: Supposition | None, nodes: int) -> _CoreSearch | None:
        """The core's search from the position (plus the supposition `key`), or None
        when the work is up. A search of the same supposition paused at a smaller node
        limit is carried on (the core then counts the same nodes, and reaches the same
        end, as a search started afresh with `nodes`).

        The deadline stops the core too, but then `OutOfTime` is raised (see
        `_finished`): what the core answers never depends on time."""
        if self.exhausted():
            return None
        left = self._left()
        if key is not None:
            paused = self.paused.pop(key, None)
            if paused is not None:
                paused.extend(nodes, left)
                return paused
        grid = self.refuter.puzzle.grid
        base = self._cells()
        start, near = base, None
        if key is not None:
            if self.local:
                near = base  # the position without the supposition
            cell, color = key
            cells = bytearray(base)
            cells[cell] = _BLACK if color is Color.BLACK else _WHITE
            start = bytes(cells)
        # Its only time limit is the deadline, in CPU time (cpu=True); never `strong`.
        return _Search(
            grid.rows,
            grid.cols,
            self.refuter.clues,
            start,
            left,
            nodes,
            True,
            near=near,
            memo=self._memo(),
        )

    def _memo(self) -> object:
        """The memo of fixpoints this position's searches share: the refuter's while it
        shares one, else the position's own (made on first use)."""
        refuter = self.refuter
        if refuter.sharing:
            if refuter.memo is None:
                refuter.memo = _Memo()
            return refuter.memo
        if self.memo is None:
            self.memo = _Memo()
        return self.memo

    def _left(self) -> float:
        """The CPU seconds left before the deadline (-1: no deadline), as the core takes them.

        Raises:
            OutOfTime: the deadline passed."""
        deadline = self.deadline
        if deadline is None:
            return -1.0
        now = time.thread_time()
        if now > deadline:
            raise OutOfTime
        return max(0.0, deadline - now)

    def _cells(self) -> bytes:
        """The position as the core takes it, a byte per cell (made once: every question
        about the position starts from it)."""
        if self.cells is None:
            cells = bytearray(self.refuter.puzzle.grid.size)
            for i in bits(self.black):
                cells[i] = _BLACK
            for i in bits(self.white):
                cells[i] = _WHITE
            self.cells = bytes(cells)
        return self.cells

    @staticmethod
    def _finished(core: _CoreSearch) -> None:
        """Raise `OutOfTime` if the core's search stopped on the deadline (its
        other stops, nodes and a complete search, are counted work)."""
        if core.stop == "seconds":
            raise OutOfTime
