"""What every technique module shares: the catalogue row and the wording of steps.

Owns `Technique` (one row of the catalogue), the helpers that build a step or a
contradiction and word its message, the reach and sea counts several tiers use, and
the per-walkthrough memo (`_memo`) the costlier techniques keep their work in.

Imports `grid`, `logic.state` and `logic.steps`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...grid import Grid
from ..state import Analysis, Island, State
from ..steps import Step, name_cells

TechniqueFunc = Callable[[State], "Step | None"]


@dataclass(frozen=True)
class Technique:
    """One row of the catalogue."""

    id: str
    """Stable kebab-case id (saved traces and tests depend on it)."""
    name: str
    """Name for people."""
    tier: int
    """Difficulty tier, 1 (easy) to 5 (extreme)."""
    func: TechniqueFunc
    """The technique itself."""

    @property
    def doc(self) -> str:
        """The technique's docstring: rule, soundness, picture, source."""
        return self.func.__doc__ or ""


def _step(
    state: State,
    technique: str,
    message: str,
    *,
    black: int = 0,
    white: int = 0,
    premises: int = 0,
    cases: int = 0,
) -> Step:
    return Step(
        technique,
        state.grid,
        black_mask=black,
        white_mask=white,
        premise_mask=premises,
        message=message,
        cases=cases,
    )


def contradiction(state: State, technique: str, involved: int, message: str) -> Step:
    """A step saying the position is impossible, naming the cells involved."""
    return Step(
        technique,
        state.grid,
        premise_mask=involved,
        wrong_mask=involved,
        message=message,
        kind="contradiction",
    )


def _clue_text(state: State, island: Island) -> str:
    value = "?" if island.unknown_size else str(island.value)
    return f"the {value} at {state.grid.name(island.clue)}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _subject(grid: Grid, mask: int) -> str:
    """``Cell r1c2`` or ``Cells r1c2 and r3c4``, to open a sentence."""
    many = mask & (mask - 1)
    return f"{'Cells' if many else 'Cell'} {name_cells(grid, mask)}"


def _is(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


def _exits(a: Analysis, island: Island) -> int:
    return island.border & island.allowed


def _touching(grid: Grid, part: int, exits: int) -> int:
    """A cell of `part` next to the (single) exit, to name the region by."""
    near = part & grid.neighbors[exits.bit_length() - 1]
    return (near or part).bit_length() - 1


def _ways(kept: list[int], what: str) -> str:
    """``The only way left to complete X`` or ``Every way to complete X (n left)``."""
    if len(kept) == 1:
        return f"The only way left to complete {what}"
    return f"Every way to complete {what} ({len(kept)} left)"


def _total_black(state: State) -> int | None:
    if state.total_white is None:
        return None
    return state.grid.size - state.total_white


MEMO_MAX = 200_000
"""Most entries `_memo` keeps before starting afresh (bounds memory on long trials)."""


def _memo(state: State) -> dict[object, object]:
    memo = state.memo
    if len(memo) > MEMO_MAX:
        memo.clear()
    return memo
