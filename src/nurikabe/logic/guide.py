"""The trial search's guide: which suppositions the exact core says are worth following.

A supposition that agrees with the unique solution is never refuted by sound logic,
so the trial search (`logic.trial`) does not follow it as an outer supposition; among
the others, those the exact core refutes with propagation alone come first, then
those it refutes by probing at the root, then with the fewest search nodes. This
module owns `Guide`, which asks the core (through the solver layer's door,
`solver.refuter`) and ranks the suppositions; the steps are still found and explained
by the techniques. It also owns how much the core may do: `GUIDE_WORK` and the node
limits of its questions.

The walkthrough's `Refuter` (which remembers the unique solution once proven) is kept
in `State.case_memo`, so that a walkthrough solves once, and finds the same steps
however many walkthroughs ran before it.

Imports `limits`, `puzzle`, `logic.state`, `solver.refuter` and (when the guide's own
solve gives up) the exact solver.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager

from ..limits import OutOfTime
from ..puzzle import Color
from ..solver.refuter import Cost, Position, Refuter, Supposition
from .state import State

__all__ = [
    "GUIDE_NODES",
    "GUIDE_WORK",
    "PROVE_NODES",
    "SOLVE_NODES",
    "SOLVE_WORK",
    "Guide",
    "remembering",
]

GUIDE_NODES = 16
"""Search nodes the exact engine may spend on one supposition when ranking them (see
`Guide.favoured`); a supposition it cannot refute within them ranks after those it can."""

GUIDE_WORK = 14_000_000
"""Work the exact engine may do for one position (solving it and ranking suppositions),
counted in cell-propagations: the core's propagations to a fixpoint, probes included,
times the cells of the grid. The core does 5-10 million a CPU second here (on grids of
100 to 2,500 cells), so this is about 2 s. Counting work rather than time makes the
steps found the same on every machine, however fast or busy it is."""

SOLVE_NODES = 20_000
"""Search nodes the exact engine may spend solving a position for its guide (janko 1108's
first trial position, the hardest measured, takes about 1,900); past them the trial
search goes unguided."""

SOLVE_WORK = 6 * GUIDE_WORK
"""Work the exact engine may do solving a position for its guide (counted as
`GUIDE_WORK` is: a few seconds), whatever `SOLVE_NODES` allows; past it the exact
solver, with its strong rules, is asked for the solution instead (`_proven`). On big
sparse boards the guide's core spends milliseconds a node: a sparse 32x32 took 35 s of
CPU over its 20,000 nodes (770 million cell-propagations) before this bound. The most
a walkthrough of the corpus (8 orientations) or of the bundled collection needs is
janko 1091 turned 3's, 43 million, half of this."""

PROVE_NODES = 5_000
"""Search nodes the exact solver may spend finding the solution for a guide whose own
solve gave up (`_proven`): on a big sparse board a node takes about a millisecond, so
this bounds it to seconds too."""

REFUTER = "guide-refuter"
"""Key in `State.case_memo` (one walkthrough's, shared by its copies) of the walkthrough's
`Refuter`, which remembers the unique solution once proven. Kept per walkthrough, not
per process, so that a walkthrough finds the same steps however many were made before
it."""


def _refuter(state: State) -> Refuter:
    """The walkthrough's `Refuter` (made on first use)."""
    found = state.case_memo.get(REFUTER)
    if not isinstance(found, Refuter):
        found = state.case_memo[REFUTER] = Refuter(state.puzzle)
    return found


def remembering(state: State) -> AbstractContextManager[None]:
    """Within, the guides of `state`'s walkthrough share one memo of the exact core's
    fixpoints (`solver.refuter.Refuter.remembering`): the same answers, sooner."""
    return _refuter(state).remembering()


def _proven(state: State, deadline: float | None) -> int | None:
    """The unique solution's black cells by the exact solver (its strong rules and
    learning, which settle big sparse boards far sooner than the guide's core does),
    within `PROVE_NODES` nodes; remembered for the walkthrough. Asked only when the
    guide's own solve gave up at `SOLVE_WORK`: the answer is the same solution, and a
    node limit, not time, decides whether there is one.

    Raises:
        OutOfTime: the deadline passed first."""
    from ..solver import Limit, Status, solve

    left = None
    if deadline is not None:
        left = deadline - time.thread_time()
        if left <= 0:
            raise OutOfTime
    puzzle = state.puzzle
    limit = Limit(solutions=2, nodes=PROVE_NODES, seconds=left)
    result = solve(puzzle, limit=limit, start=state.to_board())
    if result.limit_hit == "seconds":
        raise OutOfTime
    if result.status is not Status.UNIQUE or result.solution is None:
        return None
    solution = result.solution.black_mask
    _refuter(state).remember(solution, state.black, state.white)
    return solution


class Guide:
    """What the exact core says about the suppositions of one position: the position's
    unique solution, and on demand how hard it is to refute each supposition that
    contradicts it.

    It only chooses which suppositions the trial search follows, and in what order.
    Past the trial search's deadline (CPU time, as in `logic.trial.TrialBudget`) its
    questions raise `limits.OutOfTime`; what it answers depends on counted work alone.
    """

    __slots__ = ("position", "solution")

    def __init__(self, position: Position, solution: int | None) -> None:
        self.position = position
        """The position, as asked of the core (with its work budget)."""
        self.solution = solution
        """The black cells of the position's unique solution; None for a position known
        to have no solution (inside a supposition that contradicts the solution)."""

    @classmethod
    def make(
        cls,
        state: State,
        deadline: float | None = None,
        work: int = GUIDE_WORK,
        *,
        local: bool = False,
    ) -> Guide | None:
        """The guide for `state`, or None when the core does not prove a unique solution
        within `SOLVE_NODES` nodes and `SOLVE_WORK` (see `GUIDE_WORK`; solving counts
        towards `work` too). With
        `local`, the core's search of each supposition probes first near what the
        supposition changes (see `solver.refuter.Position.local`).

        Raises:
            OutOfTime: `deadline` passed."""
        position = _refuter(state).position(
            state.black, state.white, work=work, deadline=deadline, local=local
        )
        solution = position.solve(SOLVE_NODES, SOLVE_WORK)
        if solution is None and position.gave_up:
            solution = _proven(state, deadline)
        if solution is None:
            return None
        return cls(position, solution)

    @classmethod
    def inside(cls, state: State, deadline: float | None = None) -> Guide:
        """The guide for `state`, a position inside a supposition that contradicts the
        unique solution (so it has none, and every supposition from it is refutable).
        Only its ranking (`favoured`) is of use."""
        position = _refuter(state).position(
            state.black, state.white, work=GUIDE_WORK, deadline=deadline
        )
        return cls(position, None)

    def exhausted(self) -> bool:
        """Whether the guide has done all its work (counted, never timed: see `GUIDE_WORK`)."""
        return self.position.exhausted()

    def refutable(self, key: Supposition) -> bool:
        """Whether the supposition contradicts the unique solution (always, in a position
        that has none)."""
        if self.solution is None:
            return True
        cell, color = key
        return (self.solution >> cell & 1) != (color is Color.BLACK)

    def _refuted(self, key: Supposition, nodes: int) -> Cost | None:
        """The core's cost to refute `key` within `nodes` search nodes, or None.

        Raises:
            OutOfTime: the deadline passed."""
        return self.position.refute(key, nodes)

    def ranked(self, keys: list[Supposition], passes: tuple[int, ...]) -> Iterator[Supposition]:
        """The refutable suppositions of `keys` the core refutes, in passes: those it
        refutes within each of `passes` search nodes that an earlier pass did not, fewest
        nodes (then probes) first. Lazy; stops when the guide's work is up."""
        keys = [key for key in keys if self.refutable(key)]
        for nodes in passes:
            found: list[tuple[Cost, int, Supposition]] = []
            rest = []
            for n, key in enumerate(keys):
                cost = self._refuted(key, nodes)
                if cost is not None:
                    found.append((cost, n, key))
                elif self.exhausted():
                    return
                else:
                    rest.append(key)
            found.sort()
            yield from (key for _, _, key in found)
            keys = rest

    def favoured(self, keys: list[Supposition], batch: int) -> Iterator[Supposition]:
        """The refutable suppositions of `keys` that the core refutes, likeliest first.

        `batch` suppositions at a time, in `keys` order: those of the batch the core
        refutes at the root, by propagation alone first, then with the fewest probes.
        After the last batch, as they come, those it refutes within `GUIDE_NODES` search
        nodes. Lazy, so the core stops once a trial step is found; stops early when the
        guide's work is up."""
        keys = [key for key in keys if self.refutable(key)]
        deeper: list[Supposition] = []
        for start in range(0, len(keys), batch):
            root: list[tuple[Cost, int, Supposition]] = []
            for n, key in enumerate(keys[start : start + batch], start):
                cost = self._refuted(key, 1)
                if cost is not None:
                    root.append((cost, n, key))
                elif self.exhausted():
                    return
                else:
                    deeper.append(key)
            root.sort()
            yield from (key for _, _, key in root)
        for key in deeper:
            if self._refuted(key, GUIDE_NODES) is not None:
                yield key
            elif self.exhausted():
                return
