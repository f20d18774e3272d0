"""The logic engine's batch job: `GradeJob`, one puzzle graded within a time limit.

A job is what `nurikabe.batch.run_batch` runs: a frozen, picklable dataclass with a
``key`` (unique in its batch; a store keeps results under it, so it never changes) and
a ``run()`` that returns a JSON-ready dict. The runner's `Job` protocol is structural,
so this module does not import the runner.

Imports `puzzle` and `logic.engine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..puzzle import Puzzle
from .engine import grade

__all__ = ["GradeJob"]


@dataclass(frozen=True)
class GradeJob:
    """Grade one puzzle (a puzz.link URL) with the logic engine, within `seconds` of CPU.

    The result is `Grade.to_json()`; `index` tells apart the same puzzle appearing
    twice in one batch.

    >>> GradeJob("https://puzz.link/p?nurikabe/3/3/k33h", index=2).key
    'grade #2 60s https://puzz.link/p?nurikabe/3/3/k33h'
    """

    url: str
    seconds: float = 60.0
    index: int | None = None

    @property
    def key(self) -> str:
        numbered = "" if self.index is None else f" #{self.index}"
        return f"grade{numbered} {self.seconds:g}s {self.url}"

    def run(self) -> dict[str, Any]:
        return grade(Puzzle.from_url(self.url), seconds=self.seconds).to_json()
