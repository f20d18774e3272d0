"""The ``portfolio`` engine: the native search, raced by a lean one, a learning one, then CP-SAT.

Owns `PortfolioSearch`. The native engine (`solver.native`) decides almost every puzzle
in milliseconds, but on some sparse grids (few clues, big islands) it finds no solution
in many seconds, where the core's ``lean`` color order (try first the color whose probe
decided fewer cells) often finds two in a fraction of a second, the core's learning from
conflicts (nogoods over decisions, restarts with saved phases) in a second or a few, and
CP-SAT (`solver.cpsat`, ``cpsat-fast``) in a few (docs/solver.md, "Known limits",
"Tail" and "The portfolio"). So the native search runs in a worker thread for the whole
limit (the C core releases the GIL), and a second worker thread, the racer's, runs one
searcher after another: a native search with ``lean=True`` (`LEAN`) for the first
`LEAN_SHARE` of the time limit, then one with ``learn=True`` (`LEARN`) until
`NATIVE_SHARE` of it; if none has decided by then, ``cpsat-fast`` takes the racer's core,
in the calling thread, on the time left (so no more than two engines run at once, one
per core of a two-core machine); on grids of more than `CPSAT_MAX_CELLS` cells CP-SAT
does not join and the learning search keeps its core to the end. The first engine to
decide stops the others. Solutions of all are merged (each is a full solution found by
an exact engine; each is listed once), and two different ones decide MULTIPLE whichever
engines found them.

All the engines are exact and the default native search keeps its whole limit, so the
portfolio never loses an answer the native engine gives (short of the machine being too
busy to run two threads at full speed), it only turns UNKNOWN into answers. A node limit
bounds each native search on its own (CP-SAT's branches are another unit, checked only
between its solves); the time limit holds in total; Ctrl-C stops every engine. Without a
time limit it is the native search alone, in the calling thread; without OR-Tools the
learning search (the lean one without `LEARN`) races the default one to the end.

Imports `puzzle`, `solver.result`, `solver.native`; `solver.cpsat` (and so ``ortools``)
only when CP-SAT joins.
"""

from __future__ import annotations

import importlib.util
import queue
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..puzzle import Board, Puzzle
from .native import NativeSearch
from .result import Limit, SearchBase

if TYPE_CHECKING:
    from .cpsat import FastCpSatSearch

__all__ = [
    "CPSAT_MAX_CELLS",
    "FINDER",
    "LEAN",
    "LEAN_SHARE",
    "LEARN",
    "NATIVE_SHARE",
    "PortfolioSearch",
    "cpsat_available",
]

LEAN = True
"""Whether a lean native search (`NativeSearch` with ``lean=True``) races the default
one from the start, for `LEAN_SHARE` of the time limit (until CP-SAT joins without
`LEARN`; to the end without `LEARN` and OR-Tools)."""

LEAN_SHARE = 0.1
"""The share of the time limit the lean search has (with `LEARN`; it finds its solutions
in tenths of a second when it finds them)."""

LEARN = True
"""Whether a native search that learns from conflicts (`NativeSearch` with ``learn=True``)
races the default one after the lean search, until CP-SAT joins (to the end without
OR-Tools)."""

NATIVE_SHARE = 0.5
"""The share of the time limit the native searches have alone before CP-SAT joins them."""

CPSAT_MAX_CELLS = 200
"""CP-SAT joins only on grids of at most this many cells; on larger ones the learning
search keeps the racer's core to the end (CP-SAT decided 10x10 sparse grids the default
native search leaves open, but no 15x15 or 20x20 one in any measured run, where the
learning search decides some: docs/solver.md, "The portfolio")."""


def cpsat_available() -> bool:
    """Whether OR-Tools is installed (CP-SAT can join)."""
    try:
        return importlib.util.find_spec("ortools.sat.python.cp_model") is not None
    except ModuleNotFoundError:
        return False


FINDER = True
"""Whether the portfolio's default search races the native engine's finder
(`native.FINDER`) as the native engine does; its racers never do. Random sparse 15x15s
(seeds 0-11, 10 s of wall time): 9 of 12 decided without, 10 of 12 with (seed 0 in
4.8 s); no published puzzle we have runs long enough without a solution for it to join."""


class PortfolioSearch(SearchBase):
    """The native search on the whole `limit`, raced by a lean one, a learning one, then
    ``cpsat-fast``.

    Iterate `solutions()`; afterwards `complete`, `limit_hit`, `nodes` and `seconds`
    say how it went over all the engines, `answered_by` names the engine that decided
    (``native``, ``lean``, ``learn`` or ``cpsat-fast``; ``native`` when none did and
    CP-SAT never ran) and `extra` holds each engine's seconds and nodes. `start` is a
    partial board of assumptions, given to every engine.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> s = PortfolioSearch(p, Limit(solutions=None))
    >>> len(list(s.solutions())), s.complete, s.answered_by in ("native", "lean", "learn")
    (2, True, True)
    """

    engine = "portfolio"

    def __init__(self, puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> None:
        super().__init__(puzzle, limit, start=start)
        self.answered_by = "native"
        """The engine that decided: ``native``, ``lean``, ``learn`` or ``cpsat-fast``."""
        self.extra: dict[str, float] = {}
        """Seconds and nodes of each engine (``native_seconds``, ``lean_nodes``, ...)."""

    def solutions(self) -> Iterator[Board]:
        """Yield solution boards, each once, until the space or the limit runs out."""
        began = time.perf_counter()
        limit = self.limit
        # the learning racer learns; the default search stays without (as measured), and
        # races the native engine's finder only with FINDER (the racers never do)
        native = NativeSearch(self.puzzle, limit, start=self.start, learn=False, finder=FINDER)
        if limit.seconds is None:
            try:
                yield from native.solutions()
            finally:
                self._finish({"native": native}, None, began)
                self.complete, self.limit_hit = native.complete, native.limit_hit
            return
        yield from self._race(native, began)

    def _race(self, native: NativeSearch, began: float) -> Iterator[Board]:
        limit = self.limit
        assert limit.seconds is not None
        wanted = limit.solutions
        lock = threading.Lock()
        seen: set[int] = set()  # solutions found by any engine (under the lock)
        given: set[int] = set()  # solutions yielded (calling thread)
        found: queue.SimpleQueue[Board | BaseException | None] = queue.SimpleQueue()
        natives: dict[str, NativeSearch] = {}
        workers: list[threading.Thread] = []
        cpsat: FastCpSatSearch | None = None
        decided_by: list[str] = []  # the engine that decided first (under the lock)
        running = 0  # native searches the calling thread has not seen end

        def enough() -> bool:  # under the lock
            return wanted is not None and len(seen) >= wanted

        def decide(name: str) -> None:  # under the lock: the first to decide stops all
            if not decided_by:
                decided_by.append(name)
            for search in natives.values():
                search.cancel()
            if cpsat is not None:
                cpsat.stop()

        def run_native(name: str, search: NativeSearch) -> None:
            try:
                for board in search.solutions():
                    with lock:
                        seen.add(board.black_mask)
                        if enough():
                            decide(name)
                    found.put(board)
            except BaseException as exc:  # handed to the calling thread
                found.put(exc)
            finally:
                with lock:
                    if search.complete or enough():
                        decide(name)
                found.put(None)

        def start_native(name: str, search: NativeSearch) -> None:
            nonlocal running
            with lock:
                if decided_by:
                    return
                natives[name] = search
            worker = threading.Thread(
                target=run_native, args=(name, search), name=f"nurikabe-portfolio-{name}"
            )
            workers.append(worker)
            running += 1
            worker.start()

        def offer(board: Board) -> Iterator[Board]:
            if board.black_mask not in given and (wanted is None or len(given) < wanted):
                given.add(board.black_mask)
                yield board

        def take(block_until: float | None) -> Iterator[Board]:
            """Yield the native solutions queued, waiting until `block_until` for the
            native searches to end."""
            nonlocal running
            while running:
                try:
                    if block_until is None:
                        item = found.get_nowait()
                    else:
                        item = found.get(timeout=max(0.0, block_until - time.perf_counter()))
                except queue.Empty:
                    return
                if item is None:
                    running -= 1
                elif isinstance(item, BaseException):
                    raise item
                else:
                    yield from offer(item)

        try:
            start_native("native", native)
            joins = cpsat_available() and self.puzzle.grid.size <= CPSAT_MAX_CELLS
            # the racer's core: the lean search, then the learning one, until CP-SAT joins
            racers_end = began + (NATIVE_SHARE if joins else 1.0) * limit.seconds
            racers = self._racers(began, racers_end)
            racer: NativeSearch | None = None
            for name, until in racers:
                with lock:
                    if decided_by:
                        break
                slot = until - time.perf_counter()
                if slot <= 0:  # no time left for it (a share of 0)
                    continue
                racer = NativeSearch(
                    self.puzzle,
                    limit.replace(seconds=slot),
                    start=self.start,
                    lean=name == "lean",
                    learn=name == "learn",
                    learn_after=0,  # the learning racer learns from its first node
                    finder=False,
                )
                start_native(name, racer)
                yield from take(until)
                if until < racers_end:  # the next racer takes its core
                    racer.cancel()
            yield from take(racers_end)
            if joins:
                from .cpsat import FastCpSatSearch

                if racer is not None:  # CP-SAT takes its core
                    racer.cancel()

                left = max(0.0, limit.seconds - (time.perf_counter() - began))
                with lock:  # CP-SAT joins under the lock, so a native search ending sees it
                    if not decided_by:
                        cpsat = FastCpSatSearch(
                            self.puzzle, limit.replace(seconds=left, nodes=None), start=self.start
                        )
                if cpsat is not None:
                    for board in cpsat.solutions():
                        yield from take(None)
                        with lock:
                            seen.add(board.black_mask)
                            done = enough()
                            if done:
                                decide("cpsat-fast")
                        yield from offer(board)
                        if done:
                            break
                    if cpsat.complete:
                        with lock:
                            decide("cpsat-fast")
            yield from take(began + limit.seconds + 1.0)
        finally:
            with lock:
                for search in natives.values():
                    search.cancel()
                if cpsat is not None:
                    cpsat.stop()
            for worker in workers:
                worker.join()
            self._finish(natives, cpsat, began)
        yield from take(None)
        self._settle(natives, cpsat, decided_by, len(seen))

    def _racers(self, began: float, end: float) -> list[tuple[str, float]]:
        """The racer's searchers in turn, each with the time (`time.perf_counter`) it
        stops at: the lean one (`LEAN`) for `LEAN_SHARE` of the limit (to `end` alone),
        then the learning one (`LEARN`) to `end`."""
        assert self.limit.seconds is not None
        racers = []
        if LEAN:
            lean_end = min(end, began + LEAN_SHARE * self.limit.seconds) if LEARN else end
            racers.append(("lean", lean_end))
        if LEARN:
            racers.append(("learn", end))
        return racers

    def _settle(
        self,
        natives: dict[str, NativeSearch],
        cpsat: FastCpSatSearch | None,
        decided_by: list[str],
        count: int,
    ) -> None:
        """`complete`, `limit_hit` and `answered_by` from how each engine ended."""
        wanted = self.limit.solutions
        ended: dict[str, SearchBase] = dict(natives)
        if cpsat is not None:
            ended["cpsat-fast"] = cpsat
        complete = [name for name, search in ended.items() if search.complete]
        if complete:
            first = decided_by[0] if decided_by and decided_by[0] in complete else complete[0]
            self.complete, self.limit_hit, self.answered_by = True, None, first
        elif wanted is not None and count >= wanted:
            self.complete, self.limit_hit = False, "solutions"
            self.answered_by = decided_by[0] if decided_by else "native"
        else:
            self.complete, self.limit_hit = False, natives["native"].limit_hit
            if self.limit_hit in (None, "cancelled"):
                self.limit_hit = "seconds"
            self.answered_by = "native" if cpsat is None else "cpsat-fast"

    def _finish(
        self, natives: dict[str, NativeSearch], cpsat: FastCpSatSearch | None, began: float
    ) -> None:
        self.nodes = 0
        for name, search in natives.items():
            self.extra[f"{name}_seconds"] = search.seconds
            self.extra[f"{name}_nodes"] = search.nodes
            self.nodes += search.nodes
        if cpsat is not None:
            self.extra["cpsat_seconds"] = cpsat.seconds
            self.extra["cpsat_nodes"] = cpsat.nodes
            self.nodes += cpsat.nodes
        self.seconds = time.perf_counter() - began
