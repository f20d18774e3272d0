"""Difficulty grading from what a walkthrough needed.

This module owns `Grade`, the level names and the scoring formula; docs/grading.md
says what each level means for setters. A grade is computed from the steps of a
walkthrough: the hardest tier used sets the level, and the score adds how often the
harder techniques were needed and how many trial steps, how deep, the solve took.

Imports `logic.steps` and `logic.techniques`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .steps import Step
from .techniques import TECHNIQUES, technique

__all__ = ["LEVELS", "Grade", "grade_steps", "level_tier"]

LEVELS = ("easy", "medium", "hard", "expert", "extreme")
"""The levels, easiest first; level *k* (1-based) allows techniques up to tier *k*."""

_ORDER = {t.id: n for n, t in enumerate(TECHNIQUES)}

TRIAL_TIER = 5
"""The tier of a trial step, at any nesting depth."""

STEP_POINTS = {2: 4, 3: 8, 4: 12}
"""Score points per step of tiers 2-4 (a trial step counts 25 per level of nesting)."""


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
    """A number that grows with difficulty: 0-99 easy, 100-199 medium, 200-299 hard,
    300-399 expert, 400 and up extreme."""
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
        }


def _tier_of(step: Step) -> int:
    if step.kind == "trial":
        return TRIAL_TIER
    try:
        return technique(step.technique).tier
    except KeyError:
        return 1


def grade_steps(steps: Sequence[Step], *, solved: bool = True) -> Grade:
    """The grade of a solve that made `steps`.

    Level: the highest tier among the steps (a trial step, at any depth, is extreme);
    a solve that got stuck is extreme. Score: 100 per level above easy, plus within the
    level 4 points per medium step, 8 per hard step, 12 per expert step and 25 per trial
    step times its depth, capped at 99 (uncapped for extreme, +200 when stuck).

    >>> grade_steps([]).level
    'easy'
    """
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
    extra = 0
    for s, t in zip(steps, tiers, strict=True):
        if s.kind == "trial":
            extra += 25 * max(1, s.trial_depth)
        else:
            extra += STEP_POINTS.get(t, 0)
    if not solved:
        extra += 200
    score = 100 * (top - 1) + (extra if top == TRIAL_TIER else min(99, extra))
    return Grade(LEVELS[top - 1], score, hardest, dict(counts), len(trials), max_depth, solved)
