"""The server's lanes: cheap work never waits behind expensive work, and every player
gets a fair share of each.

Two lanes, each with its own threads, so that a flood of one kind of work cannot take
the threads the other needs (FastAPI's shared thread pool is not used by either):

- `ThreadLane` (``cheap``): the searches that answer a player at once (hints), in the
  server's own process, at most `threads` at a time and `queue` more waiting; past that
  the server is full and answers 503 ``busy``. Checks, progress, settings and the solve
  of a stored puzzle take well under a millisecond and run on the event loop itself.
- `WorkerLane` (``expensive``): the jobs that may take seconds (the studio's analyses,
  the solve of an unknown imported puzzle, walkthrough pages, printed booklets), each
  run in one of the `WorkerPool`'s processes (started by `workers.start_helper`, the
  one place that starts processes), at a lower CPU priority than the server (`nice`),
  so that even on a busy machine the server's own threads get the CPU first. At most
  as many jobs run as the pool has processes, and at most `queue` more wait (FIFO);
  past that 503 ``busy``.

Fairness, in the expensive lane: a player has at most one job at a time; a newer one
makes the older stale (it answers 409 ``superseded``, and if it runs, its process is
killed and replaced), as the studio wants for a draft edited again; and each player has
a token bucket (`RateLimits`): past its share it answers 429 ``rate-limited``. A
player is the id of the ``nk_player`` cookie the request carried, or, for a request
that carried none, its client address (else a client that never keeps its cookie
would be a new player every time). Every 429 and 503 carries ``Retry-After``.

The lanes are per process: with ``nurikabe serve --workers N`` each server process
has its own (and its own `WorkerPool`); the players' shares are counted across them, in
one file (`web.shared_rates`), while the one-job-at-a-time rule holds per process.

Imports `workers` (the processes), `errors` (`ApiError`) and nothing else of the web
package; the jobs are top-level functions of their own modules (they are pickled by
name for the spawned workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from ..workers import start_helper
from .errors import ApiError

__all__ = [
    "EXPENSIVE_BURST",
    "EXPENSIVE_RATE",
    "EXPENSIVE_WORKERS",
    "GRACE_SECONDS",
    "Job",
    "Lanes",
    "RateLimits",
    "ThreadLane",
    "WorkerLane",
    "WorkerPool",
    "busy",
    "rate_limited",
]

T = TypeVar("T")

GRACE_SECONDS = 10.0
"""How long past its own limit a job may take before its process is killed."""
EXPENSIVE_RATE = 2.0
"""Expensive jobs a player may start per second, on average."""
EXPENSIVE_BURST = 12.0
"""Expensive jobs a player may start at once (the bucket's size)."""
WORKER_NICE = 10
"""How much lower the worker processes' CPU priority is than the server's."""
POLL_SECONDS = 0.01
BUSY_RETRY = 2
"""The ``Retry-After`` of a 503: seconds, a guess at how long a slot takes to free."""


def _retry_after(seconds: float) -> dict[str, str]:
    return {"retry-after": str(max(1, math.ceil(seconds)))}


def busy(message: str, seconds: float = BUSY_RETRY) -> ApiError:
    """503 ``busy``: the server is full; the client may try again after `seconds`."""
    return ApiError(503, "busy", message, headers=_retry_after(seconds))


def rate_limited(seconds: float) -> ApiError:
    """429 ``rate-limited``: this player is over its share for `seconds` more."""
    return ApiError(
        429,
        "rate-limited",
        f"too many requests from this player; try again in {max(1, math.ceil(seconds))} s",
        headers=_retry_after(seconds),
    )


class RateLimits:
    """A token bucket per key: `burst` tokens at most, `rate` more per second.

    At most `keys` buckets are kept (the least recently used goes first; a bucket left
    alone for ``burst / rate`` seconds is full again anyway, as a new one is), so that a
    client that makes up new keys cannot grow the server's memory.
    """

    def __init__(self, rate: float, burst: float, *, keys: int = 20_000) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("RateLimits: rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self._keys = keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, key: str, now: float | None = None) -> float:
        """The seconds until `key`'s bucket has a token (0.0: it has one); takes none."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def take(self, key: str, now: float | None = None) -> float:
        """Take one token from `key`'s bucket: 0.0 when there was one, else the seconds
        until there will be (nothing is taken then)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            wait = 0.0
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) / self.rate
            self._buckets[key] = (tokens, now)
            while len(self._buckets) > self._keys:
                self._buckets.popitem(last=False)
        return wait


class ThreadLane:
    """Blocking work in threads of the lane's own: `threads` at once, `queue` waiting."""

    def __init__(self, name: str, *, threads: int, queue: int) -> None:
        self.name = name
        self.capacity = threads + queue
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix=f"nurikabe-{name}")
        self._lock = threading.Lock()
        self._inflight = 0

    @property
    def inflight(self) -> int:
        """Calls running or waiting."""
        return self._inflight

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in one of the lane's threads.

        Raises:
            ApiError: 503 ``busy`` when `capacity` calls are running or waiting already.
        """
        with self._lock:
            if self._inflight >= self.capacity:
                raise busy("the server is busy; try again in a moment")
            self._inflight += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work)
        finally:
            with self._lock:
                self._inflight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


# -- worker processes ---------------------------------------------------------------------------


def _serve(conn: Connection) -> None:
    """In a worker: run each ``(function, args)`` received and send back ``("ok",
    result)`` or ``("error", (status, code, message))``, until None."""
    while True:
        job = conn.recv()
        if job is None:
            return
        function, args = job
        try:
            conn.send(("ok", function(*args)))
        except ApiError as exc:
            conn.send(("error", (exc.status, exc.code, exc.message)))
        except Exception as exc:  # a bug in a job: the server answers 500, the worker lives
            conn.send(("fault", f"{type(exc).__name__}: {exc}"))


class _Process:
    def __init__(self) -> None:
        try:
            self.process, self.conn = start_helper(_serve)
        except OSError as exc:
            raise busy(f"the server cannot start a worker ({exc.strerror or exc})") from None
        # Its priority lowered at once, from here: its start (imports) is work too.
        pid = self.process.pid
        with contextlib.suppress(OSError, AttributeError):
            if pid is not None:
                mine = os.getpriority(os.PRIO_PROCESS, 0)
                os.setpriority(os.PRIO_PROCESS, pid, min(19, mine + WORKER_NICE))

    def kill(self) -> None:
        self.process.kill()
        self.process.join(1)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.conn.close()


class WorkerPool:
    """Up to `size` worker processes, started on first use and kept while idle."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("WorkerPool: size must be at least 1")
        self.size = size
        self._idle: list[_Process] = []
        self._lock = threading.Lock()
        self._closed = False

    def _take(self) -> _Process:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                worker.kill()
        return _Process()

    def _give(self, worker: _Process) -> None:
        with self._lock:
            if not self._closed and len(self._idle) < self.size:
                self._idle.append(worker)
                return
        worker.stop()

    def warm(self) -> None:
        """Start the missing processes in the background, so that the next job does not
        wait for one to start."""

        def start() -> None:
            with self._lock:
                missing = self.size - len(self._idle)
            for _ in range(missing):
                with contextlib.suppress(ApiError):
                    self._give(_Process())

        threading.Thread(target=start, daemon=True).start()

    def pids(self) -> list[int]:
        """The ids of the idle processes."""
        with self._lock:
            return [w.process.pid for w in self._idle if w.process.pid is not None]

    def run(
        self,
        function: Callable[..., T],
        args: tuple[Any, ...],
        *,
        seconds: float,
        stale: Callable[[], bool] = lambda: False,
    ) -> tuple[bool, T | None]:
        """``(True, function(*args))`` from a worker process, or ``(False, None)`` when
        `stale()` turned true first (the process is then killed, and a fresh one started
        in its place). `function` must be a top-level function (it is pickled by name).

        Raises:
            ApiError: what the job raised; 503 ``busy`` when the process died or
                overran `seconds` by `GRACE_SECONDS` (it is then killed).
        """
        worker = self._take()
        deadline = time.monotonic() + seconds + GRACE_SECONDS
        try:
            worker.conn.send((function, args))
            while not worker.conn.poll(POLL_SECONDS):
                if stale():
                    self._replace(worker)
                    return False, None
                if time.monotonic() > deadline or not worker.process.is_alive():
                    raise EOFError
            kind, value = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker)
            raise busy("the job did not finish; try again") from None
        self._give(worker)
        if kind == "error":
            raise ApiError(*value)
        if kind == "fault":
            raise RuntimeError(value)
        return True, value

    def _replace(self, worker: _Process) -> None:
        worker.kill()
        with contextlib.suppress(ApiError), self._lock:
            if self._closed:
                return
        with contextlib.suppress(ApiError):
            self._give(_Process())

    def close(self) -> None:
        """Stop the idle processes (a running job's process stops when it is done)."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.stop()


@dataclass(eq=False)
class Job:
    """One expensive job of one player, from its admission to its end."""

    player: str
    cancelled: bool = False
    began: float = field(default_factory=time.monotonic)


class WorkerLane:
    """Expensive jobs on a `WorkerPool`: one per player, a rate per player, a bounded
    FIFO queue (see the module's docstring)."""

    def __init__(self, pool: WorkerPool, *, queue: int, limits: RateLimits) -> None:
        self.pool = pool
        self.queue = queue
        self.limits = limits
        self._cond = threading.Condition()
        self._running = 0
        self._waiting: list[Job] = []
        self._latest: dict[str, Job] = {}
        self._executor = ThreadPoolExecutor(
            pool.size + queue, thread_name_prefix="nurikabe-expensive"
        )

    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        with self._cond:
            return sum(not job.cancelled for job in self._waiting)

    def admit(self, player: str) -> Job:
        """Admit a job of `player`: it supersedes the player's older job, if any.

        Raises:
            ApiError: 429 ``rate-limited`` (the player is over its share), 503 ``busy``
                (every slot and place in the queue is taken).
        """
        wait = self.limits.take(player)
        if wait > 0:
            raise rate_limited(wait)
        with self._cond:
            older = self._latest.get(player)
            if older is not None:
                older.cancelled = True
                self._cond.notify_all()
            live = self._running + sum(not job.cancelled for job in self._waiting)
            if live >= self.pool.size + self.queue:
                raise busy("the server is busy with other long jobs; try again shortly")
            job = Job(player)
            self._latest[player] = job
            return job

    async def run(
        self, player: str, function: Callable[..., T], args: tuple[Any, ...], *, seconds: float
    ) -> T:
        """``function(*args)`` in a worker process, for `player`.

        Raises:
            ApiError: 429, 503 (`admit`); 409 ``superseded`` when a newer job of the same
                player replaced this one; what the job raised.
        """
        job = self.admit(player)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, lambda: self._run(job, function, args, seconds)
        )

    def _next(self) -> Job | None:
        return next((job for job in self._waiting if not job.cancelled), None)

    def _run(
        self, job: Job, function: Callable[..., T], args: tuple[Any, ...], seconds: float
    ) -> T:
        with self._cond:
            self._waiting.append(job)
            while not job.cancelled and not (
                self._running < self.pool.size and self._next() is job
            ):
                self._cond.wait(0.5)
            self._waiting.remove(job)
            slot = not job.cancelled
            if slot:
                self._running += 1
            self._cond.notify_all()
        done, value = False, None
        try:
            if slot:
                done, value = self.pool.run(
                    function, args, seconds=seconds, stale=lambda: job.cancelled
                )
        finally:
            with self._cond:
                if slot:
                    self._running -= 1
                if self._latest.get(job.player) is job:
                    del self._latest[job.player]
                self._cond.notify_all()
        if not done:
            raise ApiError(409, "superseded", "a newer request from this player replaced this one")
        return value  # type: ignore[return-value]

    def close(self) -> None:
        with self._cond:
            for job in self._waiting:
                job.cancelled = True
            self._cond.notify_all()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self.pool.close()


EXPENSIVE_WORKERS = 2
"""Worker processes of the expensive lane, by default (one per core of a small server)."""
EXPENSIVE_QUEUE = 8
"""Expensive jobs that may wait for a worker, by default."""
CHEAP_THREADS = 4
"""Threads of the cheap lane (hints)."""
CHEAP_QUEUE = 64
"""Hints that may wait for a thread of the cheap lane."""


@dataclass
class Lanes:
    """The app's two lanes."""

    cheap: ThreadLane
    expensive: WorkerLane

    @classmethod
    def make(
        cls,
        *,
        workers: int = EXPENSIVE_WORKERS,
        queue: int = EXPENSIVE_QUEUE,
        rate: float = EXPENSIVE_RATE,
        burst: float = EXPENSIVE_BURST,
        cheap_threads: int = CHEAP_THREADS,
        cheap_queue: int = CHEAP_QUEUE,
        limits: RateLimits | None = None,
    ) -> Lanes:
        """Lanes of these sizes (the worker processes start on first use); the players'
        shares of the expensive lane are `limits` if given (shared by the processes of
        ``--workers N``, see `web.shared_rates`), else buckets of `rate` and `burst`."""
        return cls(
            ThreadLane("cheap", threads=cheap_threads, queue=cheap_queue),
            WorkerLane(
                WorkerPool(workers),
                queue=queue,
                limits=limits if limits is not None else RateLimits(rate, burst),
            ),
        )

    def close(self) -> None:
        """Stop the worker processes and the lanes' threads (at the app's shutdown)."""
        self.cheap.close()
        self.expensive.close()


def fair_key(scope_state: dict[str, Any], client: tuple[str, int] | None) -> str:
    """Whom a request counts against: its player, or its client address when it came
    without a player cookie (see the module's docstring)."""
    if scope_state.get("player_new") and client is not None:
        return f"address:{client[0]}"
    return str(scope_state["player"])
