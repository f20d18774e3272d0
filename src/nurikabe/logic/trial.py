"""Trial steps: when no technique applies, suppose a colour and refute it.

A trial supposes that one unknown cell has one colour, runs the plain techniques
(and, at depth 2 and more, nested trials) until a contradiction appears, and then
concludes that the cell has the other colour. The search deepens the nesting one
level at a time and, within a depth, lets chains grow by steps, so the step it
returns uses the least nesting depth that works and, among those, a shortest chain.
Every search has a budget of technique scans, so a trial can give up but never runs
away.

Imports `logic.state`, `logic.steps` and `logic.techniques`.
"""

from __future__ import annotations

import time

from ..grid import bits
from ..puzzle import Color
from .state import State
from .steps import Step, name_cells
from .techniques import find_contradiction, plain_step

__all__ = ["MAX_DEPTH", "OutOfBudget", "TrialBudget", "find_trial"]

MAX_DEPTH = 3
"""Deepest nesting of suppositions the engine tries."""

CHAIN_CAPS = (2, 5, 12, 30, 80)
"""Longest chains tried in each pass (the shortest chain that works is found first)."""


class OutOfBudget(Exception):
    """The trial search ran out of technique scans."""


class TrialBudget:
    """How many technique scans a trial search may still make, and until when."""

    __slots__ = ("deadline", "scans")

    def __init__(self, scans: int, seconds: float | None = None) -> None:
        self.scans = scans
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def spend(self) -> None:
        """Count one scan; raise `OutOfBudget` when the scans or the time run out."""
        self.scans -= 1
        if self.scans < 0:
            raise OutOfBudget
        if (
            self.deadline is not None
            and not self.scans & 31
            and (time.perf_counter() > self.deadline)
        ):
            raise OutOfBudget


def _closure(
    state: State, max_tier: int, limit: int, budget: TrialBudget
) -> tuple[list[Step], Step | None, bool]:
    """Apply plain steps until a contradiction, a stall or `limit` steps.

    Returns the steps, the contradiction (or None), and whether it stalled (no step left).
    """
    steps: list[Step] = []
    while True:
        found = find_contradiction(state)
        if found is not None:
            return steps, found, False
        if len(steps) >= limit:
            return steps, None, False
        budget.spend()
        step = plain_step(state, max_tier)
        if step is None:
            return steps, None, True
        if step.kind == "contradiction":
            return steps, step, False
        steps.append(step)
        state.decide(step.black_mask, step.white_mask)


def _refute(
    state: State,
    cell: int,
    color: Color,
    depth: int,
    max_tier: int,
    limit: int,
    budget: TrialBudget,
) -> list[Step] | None:
    """The chain of steps from supposing `cell` is `color` to a contradiction, or None."""
    s = _suppose(state, cell, color)
    chain: list[Step] = []
    while True:
        steps, found, _ = _closure(s, max_tier, limit - len(chain), budget)
        chain += steps
        if found is not None:
            chain.append(found)
            return chain
        if depth <= 1 or len(chain) >= limit:
            return None
        inner = _search(s, 1, depth - 1, max_tier, budget, CHAIN_CAPS[:2])
        if inner is None:
            return None
        if inner.kind == "contradiction":
            chain.append(inner)
            return chain
        chain.append(inner)
        s.decide(inner.black_mask, inner.white_mask)


def _candidates(state: State) -> list[int]:
    """Unknown cells in the order suppositions are tried: the exits of islands (those
    lacking fewest cells first), then the exits of black regions, then cells touching
    decided cells, then the rest."""
    grid = state.grid
    unknown = state.unknown
    a = state.analysis()
    order: list[int] = []
    taken = 0
    for island in sorted(a.islands, key=lambda i: i.need):
        if island.need > 0:
            exits = island.border & island.allowed & ~taken
            order.extend(bits(exits))
            taken |= exits
    for part in a.sea_parts():
        exits = grid.border(part) & unknown & ~taken
        order.extend(bits(exits))
        taken |= exits
    near = grid.dilate(state.black | state.white) & unknown & ~taken
    order.extend(bits(near))
    order.extend(bits(unknown & ~taken & ~near))
    return order


def _describe(grid: object, step: Step) -> str:
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


def _trial_step(state: State, cell: int, color: Color, depth: int, chain: list[Step]) -> Step:
    grid = state.grid
    name = grid.name(cell)
    other = Color.WHITE if color is Color.BLACK else Color.BLACK
    said = [_describe(grid, s) for s in chain[:-1]]
    if len(said) > 4:
        said = [*said[:3], f"{len(said) - 4} more steps", said[-1]]
    then = "; ".join([*said, _describe(grid, chain[-1])])
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


def _suppose(state: State, cell: int, color: Color) -> State:
    s = state.copy()
    s.light = True
    bit = 1 << cell
    if color is Color.BLACK:
        s.decide(bit, 0)
    else:
        s.decide(0, bit)
    return s


def _search_depth_one(
    state: State, max_tier: int, budget: TrialBudget, caps: tuple[int, ...]
) -> Step | None:
    """Depth 1, resumably: each supposition's chain is extended pass by pass (never
    recomputed), and a supposition whose chain stalls without a contradiction is dropped."""
    pending: list[tuple[int, Color, State, list[Step]]] = [
        (cell, color, _suppose(state, cell, color), [])
        for cell in _candidates(state)
        for color in (Color.BLACK, Color.WHITE)
    ]
    for cap in caps:
        best: tuple[int, int, Color, list[Step]] | None = None
        kept = []
        for cell, color, s, chain in pending:
            limit = cap if best is None else min(cap, best[0] - 1)
            if len(chain) >= limit:
                kept.append((cell, color, s, chain))
                continue
            steps, found, stalled = _closure(s, max_tier, limit - len(chain), budget)
            chain += steps
            if found is not None:
                full = [*chain, found]
                if best is None or len(full) < best[0]:
                    best = (len(full), cell, color, full)
            elif not stalled:
                kept.append((cell, color, s, chain))
        if best is not None:
            return _trial_step(state, best[1], best[2], 1, best[3])
        pending = kept
        if not pending:
            break
    return None


def _search(
    state: State,
    min_depth: int,
    max_depth: int,
    max_tier: int,
    budget: TrialBudget,
    caps: tuple[int, ...] = CHAIN_CAPS,
) -> Step | None:
    cells = _candidates(state)
    for depth in range(min_depth, max_depth + 1):
        if depth == 1:
            found = _search_depth_one(state, max_tier, budget, caps)
            if found is not None:
                return found
            continue
        for cap in caps:
            best: tuple[int, int, Color, list[Step]] | None = None
            for cell in cells:
                for color in (Color.BLACK, Color.WHITE):
                    limit = cap if best is None else min(cap, best[0] - 1)
                    if limit < 1:
                        break
                    chain = _refute(state, cell, color, depth, max_tier, limit, budget)
                    if chain is not None and (best is None or len(chain) < best[0]):
                        best = (len(chain), cell, color, chain)
                if best is not None and best[0] <= 1:
                    break
            if best is not None:
                return _trial_step(state, best[1], best[2], depth, best[3])
    return None


def find_trial(
    state: State,
    *,
    max_depth: int = MAX_DEPTH,
    max_tier: int = 3,
    scans: int = 100_000,
    seconds: float | None = 20.0,
) -> Step | None:
    """The trial step with the least nesting depth and a shortest chain, or None.

    `max_tier` bounds the plain techniques used inside suppositions; `scans` and
    `seconds` bound the work (a search that runs out gives None).
    """
    if not state.unknown:
        return None
    budget = TrialBudget(scans, seconds)
    try:
        return _search(state, 1, max_depth, max_tier, budget)
    except OutOfBudget:
        return None
