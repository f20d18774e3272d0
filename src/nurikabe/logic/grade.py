"""Difficulty grading from what a walkthrough needed.

This module owns `Grade`, the level names and the scoring formula; docs/grading.md
says what each level means for setters. A grade is computed from the steps of a
walkthrough: the hardest tier used sets the level, and the score adds how often the
harder techniques were needed and how many trial steps, how deep, the solve took.

Imports `logic.steps` and `logic.techniques`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .steps import Step
from .techniques import TECHNIQUES, technique

__all__ = ["LEVELS", "Grade", "easy_points", "grade_steps", "level_tier", "step_points"]

LEVELS = ("easy", "medium", "hard", "expert", "extreme")
"""The levels, easiest first; level *k* (1-based) allows techniques up to tier *k*."""

_ORDER = {t.id: n for n, t in enumerate(TECHNIQUES)}

TRIAL_TIER = 5
"""The tier of a trial step, at any nesting depth."""

STEP_POINTS = {2: 1.0, 3: 2.0, 4: 3.0}
"""Points per step of tiers 2-4 (a case split also gets `CASE_POINTS` and `DEEP_POINTS`)."""

EASY_POINTS = {
    "last-cell": 1.0,
    "orphan-single-exit": 1.0,
    "unreachable": 1.0,
    "enclosed-pocket": 2.0,
    "counting": 2.0,
}
"""Points of the rarer tier 1 techniques, which score an easy puzzle only (`easy_points`):
a solver has to look at the whole board for them, not at one clue or one wall. The
common ones (a clue of 1, cells between clues, single exits, complete islands, pools)
weigh nothing; the engine takes these rarer steps only when none of those applies."""

CASE_POINTS = 0.5
"""Extra points of a case split per doubling of its cases beyond two (two exits: 0; four:
0.5; an island with 64 shapes: 2.5)."""

DEEP_POINTS = 2.0
"""Extra points of a `deep-cases` step (its cases are followed with island shapes too)."""

HALF_POINTS = {1: 2.0, 2: 6.0, 3: 16.0, 4: 40.0}
"""Per level below extreme, the points at which the score reaches the middle of the level
(+49): the score within the level is ``99 * points / (points + HALF_POINTS[tier])``, a
curve that rises quickly at first and saturates, so it never reaches the next level.
Set near the median points of each level over the corpus (easy 2 with `EASY_POINTS`, then
5.5, 17 and 42)."""

EXTREME_SCALE = 4
"""At extreme, score points per step point (uncapped), on top of the trial points."""

TRIAL_POINTS = 25
"""Score points of a trial step per level of nesting (extreme only)."""


def step_points(step: Step) -> float:
    """How much `step` adds to the difficulty of the level (trial steps excepted).

    Tier 1 steps add nothing (`easy_points` scores an easy puzzle); tiers 2 and 3 add
    `STEP_POINTS`; a case split (tier 4) adds `STEP_POINTS[4]`, plus `CASE_POINTS` per
    doubling of its cases beyond two, plus `DEEP_POINTS` for `deep-cases`.

    >>> from nurikabe import Puzzle
    >>> grid = Puzzle.from_grid([[1, 0], [0, 0]]).grid
    >>> step_points(Step("sea-exit-cases", grid, black_mask=2, cases=4))
    3.5
    """
    tier = _tier_of(step)
    points = STEP_POINTS.get(tier, 0.0)
    if tier == 4:
        points += CASE_POINTS * max(0.0, math.log2(max(step.cases, 2)) - 1)
        if step.technique == "deep-cases":
            points += DEEP_POINTS
    return points


def easy_points(steps: Sequence[Step]) -> float:
    """The `EASY_POINTS` of `steps`: what sets the score of an easy puzzle, whose steps
    carry no `step_points`."""
    return sum(EASY_POINTS.get(s.technique, 0.0) for s in steps)


def level_tier(level: str) -> int:
    """The highest technique tier a level allows (``"easy"`` -> 1 ... ``"extreme"`` -> 5).

    Raises:
        ValueError: not a level name.
    """
    try:
        return LEVELS.index(level) + 1
    except ValueError:
        raise ValueError(f"unknown level {level!r} (known: {', '.join(LEVELS)})") from None


@dataclass(frozen=True)
class Grade:
    """How hard a puzzle is for the logic engine, and why."""

    level: str
    """One of `LEVELS`."""
    score: int
    """A number that grows with difficulty: 0-98 easy, 100-198 medium, 200-298 hard,
    300-398 expert, 400 and up extreme (see `grade_steps`)."""
    hardest: str | None
    """Id of the hardest technique the solve used (None for a puzzle with nothing to do)."""
    counts: dict[str, int] = field(default_factory=dict)
    """How many steps each technique made."""
    trials: int = 0
    """Number of trial steps."""
    max_depth: int = 0
    """Deepest nesting of suppositions in a trial step."""
    solved: bool = True
    """False when the engine got stuck (the grade is then extreme)."""
    points: float = 0.0
    """The sum of `step_points` over the solve (trial steps excepted)."""
    stopped: bool = False
    """True when the walkthrough ran out of CPU time (it is then graded as stuck, and
    the grade says more about the machine than about the puzzle: a caller that stores
    grades should not store it)."""
    revealed: int = 0
    """How many cells the walkthrough copied from the solution where logic was stuck
    (``explain(..., reveal=True)``): logic alone did not finish, so the grade is that of
    a stuck solve."""

    @property
    def tier(self) -> int:
        """The level as a number, 1 (easy) to 5 (extreme)."""
        return LEVELS.index(self.level) + 1

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "level": self.level,
            "score": self.score,
            "hardest": self.hardest,
            "counts": dict(self.counts),
            "trials": self.trials,
            "max_depth": self.max_depth,
            "solved": self.solved,
            "points": round(self.points, 2),
            "stopped": self.stopped,
        } | ({"revealed": self.revealed} if self.revealed else {})


def _tier_of(step: Step) -> int:
    if step.kind in ("trial", "reveal"):
        return TRIAL_TIER
    try:
        return technique(step.technique).tier
    except KeyError:
        return 1


def grade_steps(steps: Sequence[Step], *, solved: bool = True, stopped: bool = False) -> Grade:
    """The grade of a solve that made `steps`.

    Level: the highest tier among the steps (a trial step, at any depth, is extreme);
    a solve that got stuck (or was `stopped` by its time limit, which the grade records,
    or needed cells revealed from the solution, which it counts) is extreme. Score: 100
    per level above easy, plus within the level a saturating curve of the step points
    (`step_points`, and at easy `easy_points`): ``99 * p / (p + h)`` with h =
    `HALF_POINTS` of the level, so 0-98 and never the next level. At extreme the score is
    400 plus `EXTREME_SCALE` per step point, `TRIAL_POINTS` per trial step times its
    depth, and 200 when stuck (uncapped).

    >>> grade_steps([]).level
    'easy'
    """
    revealed = sum(s.kind == "reveal" for s in steps)
    if revealed:
        solved = False  # logic alone did not finish
        steps = [s for s in steps if s.kind != "reveal"]
    counts = Counter(s.technique for s in steps)
    tiers = [_tier_of(s) for s in steps]
    trials = [s for s in steps if s.kind == "trial"]
    max_depth = max((s.trial_depth for s in trials), default=0)
    top = max(tiers, default=1)
    if not solved:
        top = TRIAL_TIER
    hardest = None
    best = (0, -1)
    for s, t in zip(steps, tiers, strict=True):
        key = (t, _ORDER.get(s.technique, -1))
        if key > best:
            best, hardest = key, s.technique
    points = sum(step_points(s) for s in steps if s.kind != "trial")
    if top == TRIAL_TIER:
        extra = round(EXTREME_SCALE * points)
        extra += sum(TRIAL_POINTS * max(1, s.trial_depth) for s in trials)
        if not solved:
            extra += 200
    else:
        weight = easy_points(steps) if top == 1 else points
        extra = int(99 * weight / (weight + HALF_POINTS[top]))
    score = 100 * (top - 1) + extra
    return Grade(
        LEVELS[top - 1],
        score,
        hardest,
        dict(counts),
        len(trials),
        max_depth,
        solved,
        points,
        stopped,
        revealed,
    )
