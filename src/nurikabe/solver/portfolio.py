"""The ``portfolio`` engine: the native search, joined by CP-SAT when it is slow to decide.

Owns `PortfolioSearch`. The native engine (`solver.compiled`) decides almost every puzzle
in milliseconds, but on some sparse grids (few clues, big islands) it finds no solution
in many seconds where CP-SAT (`solver.cpsat`, ``cpsat-fast``) finds two in a few
(docs/solver.md, "Known limits"). So the native search runs in a worker thread for the
whole limit (the C core releases the GIL); if it is still undecided after `NATIVE_SHARE`
of the time limit, ``cpsat-fast`` starts in the calling thread on the time left, and the
first of the two to decide stops the other. Solutions of both are merged (each is a full
solution found by an exact engine; each is listed once), and two different ones decide
MULTIPLE whichever engine found them.

Both engines are exact and the native search keeps its whole limit, so the portfolio
never loses an answer the native engine gives (short of the machine being too busy to
run both threads at full speed), it only turns UNKNOWN into answers. A node limit bounds
the native search only (CP-SAT's branches are another unit, checked only between its
solves); the time limit holds in total; Ctrl-C stops both. Without OR-Tools, or without
a time limit, it is the native search alone, in the calling thread.

Imports `puzzle`, `solver.result`, `solver.compiled`; `solver.cpsat` (and so ``ortools``)
only when CP-SAT joins.
"""

from __future__ import annotations

import importlib.util
import queue
import threading
import time
from collections.abc import Iterator

from ..puzzle import Board, Puzzle
from .compiled import CompiledSearch
from .result import Limit, SearchBase

__all__ = ["NATIVE_SHARE", "PortfolioSearch", "cpsat_available"]

NATIVE_SHARE = 0.25
"""The share of the time limit the native search has alone before CP-SAT joins it."""


def cpsat_available() -> bool:
    """Whether OR-Tools is installed (CP-SAT can join)."""
    try:
        return importlib.util.find_spec("ortools.sat.python.cp_model") is not None
    except ModuleNotFoundError:
        return False


class PortfolioSearch(SearchBase):
    """The native search on the whole `limit`, joined by ``cpsat-fast`` after a share of it.

    Iterate `solutions()`; afterwards `complete`, `limit_hit`, `nodes` and `seconds`
    say how it went over both engines, `answered_by` names the engine that decided
    (``native`` or ``cpsat-fast``; ``native`` when neither did and CP-SAT never ran) and
    `extra` holds each engine's seconds and nodes. `start` is a partial board of
    assumptions, given to both engines.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> s = PortfolioSearch(p, Limit(solutions=None))
    >>> len(list(s.solutions())), s.complete, s.answered_by
    (2, True, 'native')
    """

    engine = "portfolio"

    def __init__(self, puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> None:
        super().__init__(puzzle, limit, start=start)
        self.answered_by = "native"
        """The engine that decided: ``native`` or ``cpsat-fast``."""
        self.extra: dict[str, float] = {}
        """Seconds and nodes of each engine (``native_seconds``, ``cpsat_nodes``, ...)."""

    def solutions(self) -> Iterator[Board]:
        """Yield solution boards, each once, until the space or the limit runs out."""
        began = time.perf_counter()
        limit = self.limit
        native = CompiledSearch(self.puzzle, limit, start=self.start)
        if limit.seconds is None or not cpsat_available():
            try:
                yield from native.solutions()
            finally:
                self._finish(native, None, began)
                self.complete, self.limit_hit = native.complete, native.limit_hit
            return
        yield from self._race(native, began)

    def _race(self, native: CompiledSearch, began: float) -> Iterator[Board]:
        from .cpsat import FastCpSatSearch

        limit = self.limit
        assert limit.seconds is not None
        wanted = limit.solutions
        lock = threading.Lock()
        seen: set[int] = set()  # solutions found by either engine
        given = 0  # solutions yielded
        found: queue.SimpleQueue[Board | BaseException | None] = queue.SimpleQueue()
        cpsat: FastCpSatSearch | None = None
        native_over = False  # the calling thread has seen the native search end
        native_done = False  # the native search has ended (set in its thread)

        def enough() -> bool:  # under the lock
            return wanted is not None and len(seen) >= wanted

        def run_native() -> None:
            nonlocal native_done
            try:
                for board in native.solutions():
                    with lock:
                        seen.add(board.black_mask)
                        rival = cpsat if enough() else None
                    found.put(board)
                    if rival is not None:
                        rival.stop()
            except BaseException as exc:  # handed to the calling thread
                found.put(exc)
            finally:
                with lock:
                    native_done = True
                    rival = cpsat if native.complete or enough() else None
                if rival is not None:
                    rival.stop()
                found.put(None)

        def take(block_until: float | None) -> Iterator[Board]:
            """Yield the native solutions queued (waiting until `block_until` for the
            native search to end); sets `native_over` when it has."""
            nonlocal given, native_over
            while not native_over:
                try:
                    if block_until is None:
                        item = found.get_nowait()
                    else:
                        item = found.get(timeout=max(0.0, block_until - time.perf_counter()))
                except queue.Empty:
                    return
                if item is None:
                    native_over = True
                elif isinstance(item, BaseException):
                    raise item
                elif wanted is None or given < wanted:
                    given += 1
                    yield item

        worker = threading.Thread(target=run_native, name="nurikabe-portfolio-native")
        worker.start()
        try:
            yield from take(began + NATIVE_SHARE * limit.seconds)
            left = max(0.0, limit.seconds - (time.perf_counter() - began))
            with lock:  # CP-SAT joins under the lock, so a native search ending sees it
                if not (native_done and native.complete) and not enough():
                    cpsat = FastCpSatSearch(
                        self.puzzle, limit.replace(seconds=left, nodes=None), start=self.start
                    )
            if cpsat is not None:
                decided = False
                for board in cpsat.solutions():
                    yield from take(None)
                    with lock:
                        new = board.black_mask not in seen
                        seen.add(board.black_mask)
                        decided = enough()
                    if new and (wanted is None or given < wanted):
                        given += 1
                        yield board
                    if decided:
                        break
                if cpsat.complete or decided:
                    native.cancel()
            yield from take(began + limit.seconds + 1.0)
        finally:
            native.cancel()
            if cpsat is not None:
                cpsat.stop()
            worker.join()
            self._finish(native, cpsat, began)
        yield from take(None)
        self._settle(native, cpsat, len(seen))

    def _settle(self, native: CompiledSearch, cpsat: object | None, count: int) -> None:
        """`complete`, `limit_hit` and `answered_by` from how each engine ended."""
        wanted = self.limit.solutions
        if native.complete:
            self.complete, self.limit_hit, self.answered_by = True, None, "native"
        elif cpsat is not None and getattr(cpsat, "complete", False):
            self.complete, self.limit_hit, self.answered_by = True, None, "cpsat-fast"
        elif wanted is not None and count >= wanted:
            self.complete, self.limit_hit = False, "solutions"
            self.answered_by = "native" if native.limit_hit == "solutions" else "cpsat-fast"
        else:
            self.complete, self.limit_hit = False, native.limit_hit
            if self.limit_hit in (None, "cancelled"):
                self.limit_hit = "seconds"
            self.answered_by = "native" if cpsat is None else "cpsat-fast"

    def _finish(self, native: CompiledSearch, cpsat: object | None, began: float) -> None:
        self.extra["native_seconds"] = native.seconds
        self.extra["native_nodes"] = native.nodes
        self.nodes = native.nodes
        if cpsat is not None:
            self.extra["cpsat_seconds"] = getattr(cpsat, "seconds", 0.0)
            self.extra["cpsat_nodes"] = getattr(cpsat, "nodes", 0)
            self.nodes += int(self.extra["cpsat_nodes"])
        self.seconds = time.perf_counter() - began
