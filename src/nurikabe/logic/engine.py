"""The logic engine's entry points: `next_step` (hints), `explain` (walkthroughs), `grade`.

The engine walks the technique table from the top after every step, so each step is
the simplest one available; only when no technique applies does it make a trial step
(`logic.trial`), with the least nesting depth that works. Every entry point takes a
`max_tier`, so callers (the generator) can ask whether a puzzle is solvable at a
level and not at the one below.

Imports `limits`, `puzzle`, `logic.*`, and, inside `next_step`, the exact solver.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..limits import OutOfTime
from ..puzzle import Board, Puzzle
from .grade import Grade, grade_steps, level_tier
from .guide import remembering
from .state import State
from .steps import Step, name_cells
from .techniques import find_contradiction, plain_step
from .trial import MAX_DEPTH, find_trial

__all__ = [
    "HINT_SECONDS",
    "SOLVE_SHARE",
    "Hint",
    "Walkthrough",
    "explain",
    "find_step",
    "grade",
    "hint",
    "next_step",
    "reveal_step",
]

HINT_SECONDS = 20.0
"""CPU time a hint may take by default, the exact solve of the puzzle included."""

SOLVE_SHARE = 0.25
"""Share of a hint's CPU time the exact solve may take before the search for a step,
when the player has cells of their own on the board (the solve is there to find the
wrong ones). A puzzle the solver does not prove in that time still gets its step. When
no step is found, the solve runs with what is left (the reveal needs it); on a board
with no cell of the player's it was not run before, and the search leaves it this
share of the time."""


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the engine searches, back on after
    (if it was on; it then collects whatever cycles were made meanwhile).

    The engine makes no reference cycles of its own (a state and its analysis do not
    refer to each other), so reference counting frees what it drops, but it makes and
    keeps many small containers (states, analyses, memories), and the collector's passes
    over them took 8-16% of a long walkthrough's CPU time (janko 1055 and
    grilops-issue10-1, bench/results/logic-engine-log.md, session 25). The setting is
    the process's: a thread that starts a step meanwhile finds it off and leaves it so;
    the step that found it on turns it back on when it ends."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _tier(max_tier: int | str) -> int:
    return level_tier(max_tier) if isinstance(max_tier, str) else int(max_tier)


def find_step(
    state: State, *, max_tier: int | str = 5, seconds: float | None = 20.0
) -> Step | None:
    """The simplest step from `state`: the first technique that applies, else a trial step.

    Techniques above `max_tier` are not used; tier 5 allows trial steps (the least
    nesting depth that works; suppositions are followed with techniques up to tier 4).
    `seconds` bounds the CPU time of the search (None: no bound); a search that runs out
    of time returns None, as when nothing applies.
    """
    return search_step(state, max_tier=max_tier, seconds=seconds)[0]


def search_step(
    state: State, *, max_tier: int | str = 5, seconds: float | None = 20.0
) -> tuple[Step | None, str]:
    """`find_step`, saying what happened: ``(step, "step")``; ``(None, "stuck")`` when no
    technique and no trial applies; ``(None, "stopped")`` when the time ran out first."""
    try:
        with _collector_paused():
            step = _timed_step(state, _tier(max_tier), seconds)
    except OutOfTime:
        return None, "stopped"
    return step, "step" if step is not None else "stuck"


def _timed_step(state: State, tier: int, seconds: float | None) -> Step | None:
    """`find_step`, but running out of time raises `OutOfTime` instead of giving None.

    The time only ever stops the search: every choice of which step to make depends on
    counted work (technique scans, the exact engine's propagations), never on time.
    """
    saved = state.deadline
    if seconds is not None:
        end = time.thread_time() + seconds
        state.deadline = end if saved is None else min(saved, end)
    try:
        step = plain_step(state, min(tier, 4))
        if step is not None or tier < 5:
            return step
        left = None if state.deadline is None else state.deadline - time.thread_time()
        return find_trial(state, max_depth=MAX_DEPTH, max_tier=4, seconds=left)
    finally:
        state.deadline = saved


@dataclass
class Walkthrough:
    """A whole solve, step by step."""

    puzzle: Puzzle
    status: str
    """``"solved"``; ``"stuck"`` (no technique or trial applies, or a rule broke); or
    ``"stopped"`` (the CPU time ran out: `stopped` says where)."""
    steps: list[Step] = field(default_factory=list)
    """The steps made (when stopped, those found before the time ran out); with
    ``reveal=True``, the cells copied from the solution where logic was stuck are steps of
    kind ``reveal``."""
    grade: Grade | None = None
    board: Board | None = None
    """The board at the end (the solution when solved)."""
    stopped: str | None = None
    """Where a walkthrough that ran out of time stopped (None unless ``"stopped"``)."""

    @property
    def solved(self) -> bool:
        """Whether the engine solved the puzzle (reveals included: see `revealed`)."""
        return self.status == "solved"

    @property
    def revealed(self) -> int:
        """How many cells were copied from the solution (0: logic alone did it all)."""
        return sum(s.kind == "reveal" for s in self.steps)

    def to_json(self, *, detail: bool = False) -> dict[str, Any]:
        """``{"status", "steps": [...], "grade": {"level", "score"}}`` (and ``"stopped"``
        when the time ran out); `detail` adds more."""
        out: dict[str, Any] = {
            "status": self.status,
            "steps": [s.to_json(detail=detail) for s in self.steps],
        }
        if self.stopped is not None:
            out["stopped"] = self.stopped
        if self.revealed:
            out["revealed"] = self.revealed
        if self.grade is not None:
            g = self.grade.to_json()
            out["grade"] = g if detail else {"level": g["level"], "score": g["score"]}
        return out


def explain(
    puzzle: Puzzle,
    *,
    max_tier: int | str = 5,
    board: Board | None = None,
    seconds: float | None = 60.0,
    on_step: Callable[[Step, int], object] | None = None,
    reveal: bool = False,
) -> Walkthrough:
    """Solve `puzzle` step by step with the technique table and say why at every step.

    Starts from `board` (default: the empty board). With `max_tier` below 5 the engine
    uses only techniques up to that tier (``"expert"`` = 4 means no trial steps), so a
    ``"stuck"`` status means the puzzle is harder than that level. `seconds` bounds the
    CPU time of the whole walkthrough (None: no bound); running out ends as
    ``"stopped"``, with the steps found so far and `Walkthrough.stopped` saying where
    (it grades as stuck). The time only stops a walkthrough: which steps it makes
    depends on counted work alone, so a walkthrough that ends within its time is the
    same on every machine, however busy. `on_step`, if given, is called after each
    step with the step and the number of cells still unknown (for a progress bar).

    With `reveal`, a walkthrough that gets stuck (no technique, no trial) copies one cell
    from the unique solution (a ``reveal`` step, `reveal_step`) and goes on, so it always
    reaches the end when the exact solver proves the puzzle unique: `Walkthrough.revealed`
    counts those cells, and the grade (``solved`` False, extreme) says that logic alone
    did not finish.

    >>> from nurikabe import Puzzle
    >>> walk = explain(Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]]))
    >>> walk.status, walk.steps[0].technique, walk.grade.level
    ('solved', 'one-clue', 'medium')

    Raises:
        ValueError: `max_tier` is not a level name or tier.
    """
    tier = _tier(max_tier)
    state = State.from_board(board) if board is not None else State(puzzle)
    steps: list[Step] = []
    status = "stuck"
    stopped = None
    solution: Board | None = None
    deadline = None if seconds is None else time.thread_time() + seconds
    # the trial searches' guides share the exact core's fixpoints over the walkthrough
    with remembering(state):
        while True:
            if not state.unknown:
                status = "stuck" if find_contradiction(state) else "solved"
                break
            left = None if deadline is None else deadline - time.thread_time()
            try:
                if left is not None and left <= 0:
                    raise OutOfTime
                with _collector_paused():
                    step = _timed_step(state, tier, left)
            except OutOfTime as stop:
                status = "stopped"
                where = str(stop) or "in the techniques"
                unknown = state.unknown.bit_count()
                stopped = (
                    f"ran out of its {seconds:g} s of CPU time looking for step {len(steps) + 1} "
                    f"({where}), with {unknown} of {puzzle.area} cells unknown"
                )
                break
            if step is None and reveal:
                if solution is None:
                    seconds_left = None if deadline is None else max(left or 0, 0.1)
                    solution = _solution(puzzle, seconds_left)[0]
                if solution is not None:
                    step = reveal_step(state.to_board(), solution)
            if step is None:
                break
            steps.append(step)
            if step.kind == "contradiction":
                break
            state.decide(step.black_mask, step.white_mask)
            if on_step is not None:
                on_step(step, state.unknown.bit_count())
    walk = Walkthrough(puzzle, status, steps, board=state.to_board(), stopped=stopped)
    walk.grade = grade_steps(steps, solved=status == "solved", stopped=status == "stopped")
    return walk


def reveal_step(board: Board, solution: Board) -> Step | None:
    """One unknown cell of `board` with its color in `solution`: the last resort of a hint
    (a ``reveal`` step, no deduction). The cell is the first unknown one next to a decided
    cell (so it joins what is on the board), else the first unknown one; None when no
    cell is unknown.

    >>> from nurikabe import Board, Puzzle
    >>> p = Puzzle.from_grid([[1, 0], [0, 0]])
    >>> reveal_step(p.empty_board(), Board(p, 0b0110, 0b1001)).message
    'Logic finds no step here, so the solution says: r1c2 is black.'
    """
    unknown = board.unknown_mask
    if not unknown:
        return None
    grid = board.grid
    decided = grid.full & ~unknown
    near = unknown & grid.dilate(decided) if decided else 0
    pick = near or unknown
    cell = (pick & -pick).bit_length() - 1
    black = bool(solution.black_mask >> cell & 1)
    return Step(
        "reveal",
        grid,
        black_mask=(1 << cell) if black else 0,
        white_mask=0 if black else 1 << cell,
        kind="reveal",
        message=f"Logic finds no step here, so the solution says: {grid.name(cell)} is "
        + ("black." if black else "white."),
    )


@dataclass(frozen=True)
class Hint:
    """What a hint found: a step, or why there is none."""

    status: str
    """``"step"`` (a deduction or trial step), ``"wrong-cells"`` (the board disagrees
    with the solution: `step` names the cells), ``"complete"`` (no cell is unknown),
    ``"stuck"`` (no technique and no trial applies: logic cannot go on from here) or
    ``"stopped"`` (the time ran out before a step was found)."""
    step: Step | None = None
    """The step (None unless the status is ``"step"`` or ``"wrong-cells"``)."""
    solution: Board | None = None
    """The unique solution, when the exact solver proved it in time (for `reveal`)."""

    def reveal(self, board: Board) -> Step | None:
        """A cell of `board` from the solution (`reveal_step`), None without a solution."""
        return None if self.solution is None else reveal_step(board, self.solution)


def hint(
    puzzle: Puzzle,
    board: Board,
    *,
    solution: Board | None = None,
    max_tier: int | str = 5,
    seconds: float | None = HINT_SECONDS,
) -> Hint:
    """`next_step`, saying what happened when there is no step (see `Hint.status`).

    >>> from nurikabe import Board, Puzzle
    >>> p = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    >>> hint(p, p.empty_board()).status
    'step'
    >>> hint(p, Board(p, 0b001011110, 0b110100001)).status
    'complete'
    """
    end = None if seconds is None else time.thread_time() + seconds
    decided = solution is not None  # whether the exact solver has said all it will
    solved = False  # whether it was asked here
    if solution is None and (board.black_mask | board.white_mask) & ~puzzle.clue_mask:
        # Only the player's own cells can be wrong, and only the solution tells which
        # (those that break no rule). It must not eat the step's time: a puzzle the
        # solver takes long over gets its step all the same.
        solution, decided = _solution(puzzle, None if seconds is None else seconds * SOLVE_SHARE)
        solved = True
    if solution is not None:
        step = wrong_cells_step(board, solution)
        if step is not None:
            return Hint("wrong-cells", step, solution)
    state = State.from_board(board)
    if solution is None:
        found = find_contradiction(state)
        if found is not None:
            return Hint("step", found, None)
    if not state.unknown:
        return Hint("complete", None, solution)
    left = None if end is None else max(0.0, end - time.thread_time())
    if left is not None and not decided and not solved:
        left *= 1 - SOLVE_SHARE  # the solve the reveal needs keeps its share
    step, status = search_step(state, max_tier=max_tier, seconds=left)
    if step is None and not decided:
        # No step: the reveal is the last resort, and it needs the solution.
        left = None if end is None else max(0.0, end - time.thread_time())
        if left is None or left > 0:
            solution = _solution(puzzle, left)[0]
    return Hint(status, step, solution)


def grade(puzzle: Puzzle, *, seconds: float | None = 60.0) -> Grade:
    """The difficulty of `puzzle` (see docs/grading.md).

    A walkthrough that runs out of its `seconds` of CPU time grades as stuck, with
    `Grade.stopped` set: such a grade depends on the machine, not only on the puzzle.

    >>> from nurikabe import Puzzle
    >>> grade(Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])).level
    'medium'
    """
    walk = explain(puzzle, seconds=seconds)
    assert walk.grade is not None
    return walk.grade


def _solution(puzzle: Puzzle, seconds: float | None) -> tuple[Board | None, bool]:
    """The unique solution, if the exact solver proves it within `seconds` (None: no
    bound), and whether the solver decided (False: its time ran out first)."""
    from ..solver import Limit, Status, solve

    result = solve(puzzle, limit=Limit(solutions=2, seconds=seconds))
    return result.solution, result.status is not Status.UNKNOWN


def wrong_cells_step(board: Board, solution: Board) -> Step | None:
    """A ``wrong-cells`` step naming the cells of `board` that disagree with `solution`."""
    wrong = (board.black_mask & ~solution.black_mask) | (board.white_mask & solution.black_mask)
    if not wrong:
        return None
    grid = board.grid
    return Step(
        "wrong-cells",
        grid,
        wrong_mask=wrong,
        premise_mask=0,
        kind="wrong-cells",
        message=f"{name_cells(grid, wrong)} {'are' if wrong & (wrong - 1) else 'is'} "
        "wrong; fix that first.",
    )


def next_step(
    puzzle: Puzzle,
    board: Board,
    *,
    solution: Board | None = None,
    max_tier: int | str = 5,
    seconds: float | None = HINT_SECONDS,
) -> Step | None:
    """A hint: the simplest step not yet made on a player's `board` (dots included).

    If the board already disagrees with the solution, the hint is a ``wrong-cells`` step
    naming the wrong cells. The solution is computed with the exact solver when not
    given and the player has cells of their own (at most `SOLVE_SHARE` of the time);
    when it is not known to be unique, wrong cells are found only when they contradict
    the rules. `seconds` bounds the CPU time of the whole hint, the solve included (None:
    no bound). Returns None when the board is complete, nothing can be
    deduced, or the time ran out.

    >>> from nurikabe import Puzzle
    >>> p = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    >>> next_step(p, p.empty_board()).message
    'The 1 at r1c1 is a whole island, so r1c2 and r2c1 are black.'
    """
    return hint(puzzle, board, solution=solution, max_tier=max_tier, seconds=seconds).step
