"""The studio's analyses in worker processes that a newer edit can stop at once.

`run_analysis` sends a draft to an idle worker process (`MAX_WORKERS` of them, shared by
the whole server, started on first use) and waits for its `analysis.Analysis`, asking
`stale()` every few milliseconds meanwhile. When a newer analysis of the same player has
made this one stale, or the worker overruns its limits by `GRACE_SECONDS`, the worker is
killed (its search goes with it) and a fresh one is started in its place. In its own
process the solver's C core cannot stall the server's other requests either.

Imports `analysis` (run in the workers), `errors` and `workers` (which starts them).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

from ..puzzle import Puzzle
from ..workers import start_helper
from .analysis import FORCED_SECONDS, GRADE_SECONDS, Analysis, analyze
from .errors import ApiError

__all__ = ["GRACE_SECONDS", "MAX_WORKERS", "run_analysis", "warm"]

MAX_WORKERS = 2
"""Worker processes at most (the searches' slots bound how many are busy)."""
GRACE_SECONDS = 10.0
"""How long past its own limits a worker may take before it is killed."""
POLL_SECONDS = 0.01


def _serve(conn: Connection) -> None:
    """In a worker: analyse each ``(draft URL, graded)`` received, until None."""
    while True:
        job = conn.recv()
        if job is None:
            return
        url, graded = job
        conn.send(analyze(Puzzle.from_url(url), graded=graded))


class _Worker:
    def __init__(self) -> None:
        self.process, self.conn = start_helper(_serve)

    def kill(self) -> None:
        self.process.kill()
        self.process.join(1)
        self.conn.close()


_IDLE: list[_Worker] = []
_LOCK = threading.Lock()


def _take() -> _Worker:
    with _LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.process.is_alive():
                return worker
            worker.kill()
    return _Worker()


def _give(worker: _Worker) -> None:
    with _LOCK:
        if len(_IDLE) < MAX_WORKERS:
            _IDLE.append(worker)
            return
    worker.conn.send(None)


def _replace(worker: _Worker) -> None:
    """Kill `worker` and start a fresh one, so that the next analysis finds it warm."""
    worker.kill()
    fresh = _Worker()
    _give(fresh)


def warm() -> None:
    """Start the workers in the background (the studio page calls it when it is served),
    so that the first analysis does not wait for a worker to start."""

    def start() -> None:
        with _LOCK:
            missing = MAX_WORKERS - len(_IDLE)
        for _ in range(missing):
            _give(_Worker())

    threading.Thread(target=start, daemon=True).start()


def run_analysis(
    puzzle: Puzzle, stale: Callable[[], bool], *, graded: bool = True
) -> Analysis | None:
    """The analysis of `puzzle` from a worker, or None when `stale()` turned true first
    (the worker is then killed).

    Raises:
        ApiError: ``timeout`` when the worker died or overran its limits.
    """
    worker = _take()
    deadline = time.monotonic() + FORCED_SECONDS + GRADE_SECONDS + GRACE_SECONDS
    try:
        worker.conn.send((puzzle.to_url(), graded))
        while not worker.conn.poll(POLL_SECONDS):
            if stale():
                _replace(worker)
                return None
            if time.monotonic() > deadline or not worker.process.is_alive():
                raise EOFError
        result: Analysis = worker.conn.recv()
    except (EOFError, OSError):
        _replace(worker)
        raise ApiError(422, "timeout", "the analysis did not finish; try again") from None
    _give(worker)
    return result
