"""How a puzzle looks and plays, in figures comparable with published puzzles of its size.

This module owns the quality figures the generator is measured by (bench/generate_quality.py
and docs/generator.md, "Quality"):

- *shape*: clues per cell, mean and largest clue, the shares of clues that are 1 and
  that are 1 or 2, and the largest island as a share of the cells (one clue per
  island, so the largest island is the largest clue; the share makes grids of
  different sizes comparable);
- *play*: the share of the non-clue cells decided by the first easy steps (the tier-1
  steps before the first harder one: how much of the grid falls at once), and the mix
  of techniques as the share of the non-clue cells each tier decided (tier 1, tier 2,
  tier 3 and above).

`figures` computes them from a puzzle and the steps of its walkthrough; `Spread` is the
distribution of one figure over a reference set (its quartiles and mean) and says
whether a value is close to it: within the interquartile range, or within `TOLERANCE`
of the mean. `size_band` puts a grid into the band of published sizes it is compared
with.

Imports `grid` and `puzzle`; the logic engine's table is read lazily (for tiers).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..grid import popcount

if TYPE_CHECKING:
    from ..logic import Step
    from ..puzzle import Puzzle

__all__ = [
    "FIGURES",
    "TOLERANCE",
    "Spread",
    "figures",
    "size_band",
]

FIGURES = (
    ("clues_per_cell", "clues per cell"),
    ("mean_clue", "mean clue"),
    ("largest_clue", "largest clue"),
    ("share_1", "share of 1s"),
    ("share_le2", "share of 1s and 2s"),
    ("largest_island", "largest island / cells"),
    ("easy_start", "decided by first easy steps"),
    ("tier1", "cells by tier 1"),
    ("tier2", "cells by tier 2"),
    ("tier3up", "cells by tier 3+"),
)
"""Every figure: (key, name for people), in the order tables print them."""

TOLERANCE = 0.15
"""A value within this share of the reference mean counts as close (besides the IQR)."""

TRIAL_TIER = 5
"""The tier of a trial step (extreme)."""

BANDS = (("10x10", 100, 101), ("15x15", 157, 306), ("20x20", 306, 625), ("30x30", 625, 10**9))
"""Size bands by cell count: (name, least cells, beyond the most). Published puzzles come in
many shapes; each band holds those whose cells are near its name's (10x10 exactly; a
side of 12.5 to 17.5, 17.5 to 25, and 25 up)."""


def size_band(rows: int, cols: int) -> str | None:
    """The band of published sizes a `rows` x `cols` grid is compared with (None: none).

    >>> size_band(10, 10), size_band(14, 24), size_band(31, 45), size_band(7, 7)
    ('10x10', '20x20', '30x30', None)
    """
    area = rows * cols
    for name, low, high in BANDS:
        if low <= area < high:
            return name
    return None


def _tiers() -> dict[str, int]:
    from ..logic import TECHNIQUES

    return {t.id: t.tier for t in TECHNIQUES}


def step_tier(step: Step, tiers: dict[str, int] | None = None) -> int:
    """The tier of one step (a trial step is `TRIAL_TIER`)."""
    if step.kind == "trial":
        return TRIAL_TIER
    return (tiers or _tiers()).get(step.technique, 1)


def figures(puzzle: Puzzle, steps: Sequence[Step]) -> dict[str, float]:
    """The quality figures of `puzzle`, given the steps of its walkthrough from the empty board.

    The play figures count non-clue cells; a walkthrough that stopped early counts the
    cells it decided (the others are decided by no tier).

    >>> from nurikabe import Puzzle
    >>> from nurikabe.logic import explain
    >>> p = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    >>> f = figures(p, explain(p).steps)
    >>> f["clues_per_cell"], f["mean_clue"], f["share_1"], f["largest_island"]
    (0.2222222222222222, 2.0, 0.5, 0.3333333333333333)
    """
    values = list(puzzle.clues.values())
    area = puzzle.area
    known = [v for v in values if v > 0]
    free = max(1, area - len(values))
    tiers = _tiers()
    by_tier = [0, 0, 0]
    easy_start = 0
    started = True
    for step in steps:
        tier = step_tier(step, tiers)
        cells = popcount(step.black_mask | step.white_mask)
        if tier > 1:
            started = False
        elif started:
            easy_start += cells
        by_tier[min(tier, 3) - 1] += cells
    largest = max(known, default=0)
    return {
        "clues_per_cell": len(values) / area,
        "mean_clue": statistics.fmean(known) if known else 0.0,
        "largest_clue": float(largest),
        "share_1": sum(v == 1 for v in known) / max(1, len(known)),
        "share_le2": sum(v <= 2 for v in known) / max(1, len(known)),
        "largest_island": largest / area,
        "easy_start": easy_start / free,
        "tier1": by_tier[0] / free,
        "tier2": by_tier[1] / free,
        "tier3up": by_tier[2] / free,
    }


@dataclass(frozen=True)
class Spread:
    """The distribution of one figure over a reference set: quartiles and mean."""

    q1: float
    """The lower quartile."""
    median: float
    """The median."""
    q3: float
    """The upper quartile."""
    mean: float
    """The mean."""
    count: int
    """How many values."""

    @classmethod
    def of(cls, values: Iterable[float]) -> Spread:
        """The spread of `values` (at least one).

        >>> s = Spread.of([1, 2, 3, 4, 5])
        >>> s.q1, s.median, s.q3, s.mean
        (2.0, 3.0, 4.0, 3.0)

        Raises:
            ValueError: no values.
        """
        data = sorted(float(v) for v in values)
        if not data:
            raise ValueError("a spread needs at least one value")
        return cls(
            _quantile(data, 0.25),
            _quantile(data, 0.5),
            _quantile(data, 0.75),
            statistics.fmean(data),
            len(data),
        )

    def in_iqr(self, value: float) -> bool:
        """Whether `value` lies within the interquartile range."""
        return self.q1 <= value <= self.q3

    def near_mean(self, value: float) -> bool:
        """Whether `value` is within `TOLERANCE` of the mean (a zero mean takes only zero)."""
        return abs(value - self.mean) <= TOLERANCE * abs(self.mean)

    def close(self, value: float) -> bool:
        """Whether `value` is close to this distribution: in its IQR or near its mean."""
        return self.in_iqr(value) or self.near_mean(value)

    def distance(self, value: float) -> float:
        """How far `value` is from the mean, as a share of the mean (inf for a zero mean)."""
        if self.mean == 0:
            return 0.0 if value == 0 else math.inf
        return (value - self.mean) / abs(self.mean)


def _quantile(data: list[float], q: float) -> float:
    """The `q` quantile of sorted `data`, linear between order statistics."""
    pos = q * (len(data) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)
