"""The studio's jobs for the expensive lane's worker processes, and `run_analysis`.

`analysis_job` (a draft's `analysis.Analysis`) and `walkthrough_job` (a unique draft's
walkthrough page) run in a worker process of `lanes.WorkerPool`: in its own process
the solver's C core and the logic engine cannot stall the server's other requests, and
a job that a newer edit has made stale is stopped at once by killing its process.

`run_analysis` runs one analysis on a pool of its own (two processes, started on first
use), for the studio's benchmark and the tests; the server goes through its lanes.

Imports `analysis` (run in the workers), `lanes` (the pool) and the library.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..logic import explain
from ..puzzle import Puzzle
from ..render.walkthrough import walkthrough_html
from .analysis import FORCED_SECONDS, GRADE_SECONDS, Analysis, analyze
from .lanes import WorkerPool

__all__ = [
    "ANALYSIS_SECONDS",
    "WALKTHROUGH_SECONDS",
    "analysis_job",
    "run_analysis",
    "walkthrough_job",
]

ANALYSIS_SECONDS = FORCED_SECONDS + GRADE_SECONDS
"""The time limit of one analysis (its searches' limits together)."""
WALKTHROUGH_SECONDS = 5.0
"""CPU time the walkthrough page's solve may take."""


def analysis_job(url: str, graded: bool) -> Analysis | None:
    """In a worker: the analysis of the draft `url`."""
    return analyze(Puzzle.from_url(url), graded=graded)


def walkthrough_job(url: str, title: str) -> str:
    """In a worker: the walkthrough page of the puzzle `url`."""
    walk = explain(Puzzle.from_url(url), seconds=WALKTHROUGH_SECONDS)
    return walkthrough_html(walk, title=title)


_POOL: WorkerPool | None = None
_LOCK = threading.Lock()


def run_analysis(
    puzzle: Puzzle, stale: Callable[[], bool], *, graded: bool = True
) -> Analysis | None:
    """The analysis of `puzzle` from a worker, or None when `stale()` turned true first
    (the worker is then killed and replaced).

    Raises:
        ApiError: 503 ``busy`` when the worker died or overran its limits.
    """
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = WorkerPool(2)
        pool = _POOL
    done, found = pool.run(
        analysis_job, (puzzle.to_url(), graded), seconds=ANALYSIS_SECONDS, stale=stale
    )
    return found if done else None
