"""A supposition's chain: supposing a color, replaying a chain, wording a trial step.

Owns what the trial search (`logic.trial`) does with one supposition besides searching:
`suppose` (a light copy of the position with the cell decided), `replay` (a chain found
from an earlier position, carried on without a technique scan), `clash_step` (the
contradiction of a chain deciding a cell both ways) and `trial_step` (the step that
says which cell was supposed, what followed, and so what the cell is).

Imports `grid`, `puzzle`, `logic.state`, `logic.steps` and `logic.techniques`.
"""

from __future__ import annotations

from ..grid import Grid
from ..puzzle import Color
from .state import State
from .steps import Step, name_cells
from .techniques import find_contradiction

__all__ = ["clash_step", "describe", "replay", "suppose", "trial_step"]


def describe(grid: object, step: Step) -> str:
    g = step.grid
    if step.kind == "contradiction":
        text = step.message.rstrip(".")
        return text[:1].lower() + text[1:]
    if step.kind == "trial":
        return (
            f"a trial shows {name_cells(g, step.mask, limit=3)} "
            f"{'is' if step.mask.bit_count() == 1 else 'are'} "
            f"{'black' if step.black_mask else 'white'}"
        )
    parts = []
    if step.black_mask:
        parts.append(
            f"{name_cells(g, step.black_mask, limit=3)} "
            f"{'is' if step.black_mask.bit_count() == 1 else 'are'} black"
        )
    if step.white_mask:
        parts.append(
            f"{name_cells(g, step.white_mask, limit=3)} "
            f"{'is' if step.white_mask.bit_count() == 1 else 'are'} white"
        )
    return f"{' and '.join(parts)} ({step.technique})"


def trial_step(state: State, cell: int, color: Color, depth: int, chain: list[Step]) -> Step:
    grid = state.grid
    name = grid.name(cell)
    other = Color.WHITE if color is Color.BLACK else Color.BLACK
    said = [describe(grid, s) for s in chain[:-1]]
    if len(said) > 4:
        hidden = chain[3:-2]
        trials = sum(s.kind == "trial" for s in hidden)
        more = f"{len(hidden)} more step{'s' if len(hidden) > 1 else ''}"
        if trials:
            more += f" ({trials} of them {'trials' if trials > 1 else 'a trial'})"
        said = [*said[:3], more, said[-1]]
    then = "; ".join([*said, describe(grid, chain[-1])])
    involved = chain[-1].wrong_mask
    bit = 1 << cell
    return Step(
        "trial",
        grid,
        black_mask=bit if other is Color.BLACK else 0,
        white_mask=bit if other is Color.WHITE else 0,
        premise_mask=involved & ~bit,
        message=f"Suppose {name} is {color.name.lower()}; then {then}; "
        f"so {name} is {other.name.lower()}.",
        trial_depth=depth,
        kind="trial",
        chain=tuple(chain),
        wrong_mask=0,
    )


def suppose(state: State, cell: int, color: Color) -> State:
    s = state.copy()
    s.light = True
    bit = 1 << cell
    if color is Color.BLACK:
        s.decide(bit, 0)
    else:
        s.decide(0, bit)
    return s


def replay(
    state: State, cell: int, color: Color, chain: list[Step]
) -> tuple[State, list[Step], Step | None]:
    """Suppose `cell` is `color` in `state` and replay `chain`, the steps that followed
    from the same supposition in an earlier position with fewer cells decided.

    Each of those steps still follows (its premises only grew), so the replay costs no
    technique scan. Returns the state, the steps replayed, and the contradiction met on
    the way (a cell the chain decides against `state`, or a broken rule), if any.
    """
    s = suppose(state, cell, color)
    grid = s.grid
    steps: list[Step] = []
    for step in chain:
        clash = (step.black_mask & s.white) | (step.white_mask & s.black)
        if clash:
            steps.append(step)
            return s, steps, clash_step(grid, clash)
        if not (step.black_mask & ~s.black or step.white_mask & ~s.white):
            continue
        steps.append(step)
        s.decide(step.black_mask, step.white_mask)
    # One check at the end keeps the replay cheap (a chain that broke a rule early is
    # reported whole; every step of it still follows).
    return s, steps, find_contradiction(s)


def clash_step(grid: Grid, cells: int) -> Step:
    """The contradiction of a chain deciding `cells` the other way than they already are."""
    name = name_cells(grid, cells, limit=3)
    return Step(
        "contradiction",
        grid,
        premise_mask=cells,
        wrong_mask=cells,
        message=f"{name} would have to be both black and white.",
        kind="contradiction",
    )
