"""The server's lanes: cheap work never waits behind expensive work, and every player
gets a fair share of each.

Two lanes, each with its own threads, so that a flood of one kind of work cannot take
the threads the other needs (FastAPI's shared thread pool is not used by either):

- `ThreadLane` (``cheap``): the searches that answer a player at once (hints), in the
  server's own process, at most `threads` at a time and `queue` more waiting; past that
  the server is full and answers 503 ``busy``. The waiting calls are served in turn
  (`turns.Turns`: round-robin over client addresses, then over their players), and no
  address or player runs on every thread, so that a client flooding hints (or making
  up players to do so) delays its own hints, not everyone's. Checks, progress, settings
  and the solve of a stored puzzle take well under a millisecond and run on the event
  loop itself.
- `WorkerLane` (``expensive``): the jobs that may take seconds (the studio's analyses,
  the solve of an unknown imported puzzle, walkthrough pages, printed booklets), each
  run in one of the `WorkerPool`'s processes (started by `workers.start_helper`, the
  one place that starts processes), at a lower CPU priority than the server (`nice`),
  so that even on a busy machine the server's own threads get the CPU first. At most
  as many jobs run as the pool has processes, and at most `queue` more wait (FIFO);
  past that 503 ``busy``.

Fairness, in the expensive lane: a player has at most one job at a time; a newer one
makes the older stale (it answers 409 ``superseded``, and if it runs, its process is
killed and replaced), as the studio wants for a draft edited again; each player has
a token bucket (`RateLimits`): past its share it answers 429 ``rate-limited``. A
player is the id of the ``nk_player`` cookie the request carried, or, for a request
that carried none, its client address (else a client that never keeps its cookie
would be a new player every time). Player ids are free to make up, addresses are not,
so the lanes bound each address too: one address may hold at most half the expensive
lane's places (429 past that), and a free worker takes the waiting job of the address
with the fewest jobs running. (Behind a reverse proxy, ``nurikabe serve
--proxy-headers`` gives the clients' own addresses; without it every request comes
from the proxy's.) Every 429 and 503 carries ``Retry-After``.

The lanes are per process: with ``nurikabe serve --workers N`` each server process
has its own (and its own `WorkerPool`); the players' shares are counted across them, in
one file (`web.shared_rates`), while the one-job-at-a-time rule holds per process.

Imports `workers` (the processes), `errors` (`ApiError`), `turns` (the cheap lane's
order) and nothing else of the web package; the jobs are top-level functions of their
own modules (they are pickled by name for the spawned workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from ..workers import start_helper
from .errors import ApiError
from .turns import Turns

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
    "fair_key",
    "fair_of",
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
CHEAP_PER_PLAYER = 8
"""Calls a player may have running or waiting in the cheap lane (a page asks for one
hint at a time; a few more in flight are a player pressing the wand again)."""
SERVED_KEPT = 1000
"""Addresses whose last turn in the expensive lane is remembered (the oldest is
forgotten first: it would come first anyway)."""
POLL_SECONDS = 0.01
BUSY_RETRY = 2
"""The ``Retry-After`` of a 503: seconds, a guess at how long a slot takes to free."""


def _retry_after(seconds: float) -> dict[str, str]:
    return {"retry-after": str(max(1, math.ceil(seconds)))}


def busy(message: str, seconds: float = BUSY_RETRY) -> ApiError:
    """503 ``busy``: the server is full; the client may try again after `seconds`."""
    return ApiError(503, "busy", message, headers=_retry_after(seconds))


def rate_limited(seconds: float, what: str = "requests from this player") -> ApiError:
    """429 ``rate-limited``: this player (or what `what` names) is over its share for
    `seconds` more."""
    return ApiError(
        429,
        "rate-limited",
        f"too many {what}; try again in {max(1, math.ceil(seconds))} s",
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


@dataclass(eq=False)
class _Call:
    """One call of a `ThreadLane`, from its admission to its answer."""

    work: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


def _answer(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    """(On the event loop) settle `future`, unless its request is gone already."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class ThreadLane:
    """Blocking work in threads of the lane's own: `threads` at once, `queue` waiting,
    served in turn (`turns.Turns`): round-robin over client addresses, then over their
    players, and no address or player runs more than `threads - 1` calls at once (so one
    thread is always left to the others). A player may have `per_player` calls running
    or waiting, an address `per_address` (half the lane, by default): past that 429."""

    def __init__(
        self,
        name: str,
        *,
        threads: int,
        queue: int,
        per_player: int = CHEAP_PER_PLAYER,
        per_address: int | None = None,
    ) -> None:
        self.name = name
        self.capacity = threads + queue
        self.per_player = per_player
        self.per_address = per_address if per_address is not None else max(1, self.capacity // 2)
        self._turns: Turns[_Call] = Turns(max(1, threads - 1))
        self._cond = threading.Condition()
        self._inflight = 0
        self._closed = False
        self._threads = [
            threading.Thread(target=self._serve, name=f"nurikabe-{name}-{n}", daemon=True)
            for n in range(threads)
        ]
        for thread in self._threads:
            thread.start()

    @property
    def inflight(self) -> int:
        """Calls running or waiting."""
        return self._inflight

    async def run(self, work: Callable[[], T], player: str = "", address: str = "") -> T:
        """``work()`` in one of the lane's threads, in `player`'s turn (from `address`).

        Raises:
            ApiError: 503 ``busy`` when `capacity` calls are running or waiting already;
                429 ``rate-limited`` when the player or the address has as many as it
                may.
        """
        loop = asyncio.get_running_loop()
        call = _Call(work, loop, loop.create_future())
        with self._cond:
            if self._inflight >= self.capacity:
                raise busy("the server is busy; try again in a moment")
            mine, theirs = self._turns.held(player, address)
            if mine >= self.per_player:
                raise rate_limited(1, "requests at once from this player")
            if theirs >= self.per_address:
                raise rate_limited(1, "requests at once from this network address")
            self._inflight += 1
            self._turns.put(call, player, address)
            self._cond.notify()
        try:
            return await call.future  # type: ignore[no-any-return]
        finally:
            with self._cond:
                self._inflight -= 1

    def _serve(self) -> None:
        """A thread of the lane: take the next call in turn, run it, answer it."""
        while True:
            with self._cond:
                while not self._closed and (taken := self._turns.take()) is None:
                    self._cond.wait()
                if self._closed:
                    return
            assert taken is not None
            call, player, address = taken
            value, error = None, None
            if not call.future.cancelled():  # the request is still waiting for it
                try:
                    value = call.work()
                except BaseException as exc:  # handed to the request, as the work raised it
                    error = exc
            with self._cond:
                self._turns.done(player, address)
                self._cond.notify_all()  # another player's call may be its turn now
            with contextlib.suppress(RuntimeError):  # the event loop has closed
                call.loop.call_soon_threadsafe(_answer, call.future, value, error)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


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
    address: str = ""
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
        self._waiting: list[Job] = []
        self._latest: dict[str, Job] = {}
        self._started: set[Job] = set()
        self._served: OrderedDict[str, int] = OrderedDict()  # when each address last began
        self._serial = 0
        self._executor = ThreadPoolExecutor(
            pool.size + queue, thread_name_prefix="nurikabe-expensive"
        )

    @property
    def running(self) -> int:
        return len(self._started)

    @property
    def waiting(self) -> int:
        with self._cond:
            return sum(not job.cancelled for job in self._waiting)

    def admit(self, player: str, address: str = "") -> Job:
        """Admit a job of `player` (from `address`): it supersedes the player's older
        job, if any.

        Raises:
            ApiError: 429 ``rate-limited`` (the player is over its share, or its address
                has half the lane's places already), 503 ``busy`` (every slot and place
                in the queue is taken).
        """
        wait = self.limits.take(player)
        if wait > 0:
            raise rate_limited(wait)
        with self._cond:
            older = self._latest.get(player)
            if older is not None:
                older.cancelled = True
                self._cond.notify_all()
            live = [job for job in self._live() if job.player != player]
            if sum(job.address == address for job in live) >= self.per_address:
                raise rate_limited(1, "long jobs at once from this network address")
            if len(self._started) + sum(not job.cancelled for job in self._waiting) >= (
                self.pool.size + self.queue
            ):
                raise busy("the server is busy with other long jobs; try again shortly")
            job = Job(player, address)
            self._latest[player] = job
            return job

    @property
    def per_address(self) -> int:
        """Jobs one address may have running or waiting: half the lane's places (other
        players, behind other addresses, always find room)."""
        return max(1, (self.pool.size + self.queue) // 2)

    def _live(self) -> list[Job]:
        """The jobs running or waiting, not superseded."""
        return [job for job in self._latest.values() if not job.cancelled]

    async def run(
        self,
        player: str,
        function: Callable[..., T],
        args: tuple[Any, ...],
        *,
        seconds: float,
        address: str = "",
    ) -> T:
        """``function(*args)`` in a worker process, for `player` (from `address`).

        Raises:
            ApiError: 429, 503 (`admit`); 409 ``superseded`` when a newer job of the same
                player replaced this one; what the job raised.
        """
        job = self.admit(player, address)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, lambda: self._run(job, function, args, seconds)
        )

    def _next(self) -> Job | None:
        """The waiting job whose turn it is: of the address with the fewest jobs
        running, then the one served longest ago (never: first), the job that came
        first."""
        waiting = [job for job in self._waiting if not job.cancelled]
        if not waiting:
            return None
        running = Counter(job.address for job in self._started)
        served = self._served
        return min(waiting, key=lambda job: (running[job.address], served.get(job.address, -1)))

    def _run(
        self, job: Job, function: Callable[..., T], args: tuple[Any, ...], seconds: float
    ) -> T:
        with self._cond:
            self._waiting.append(job)
            while not job.cancelled and not (
                len(self._started) < self.pool.size and self._next() is job
            ):
                self._cond.wait(0.5)
            self._waiting.remove(job)
            slot = not job.cancelled
            if slot:
                self._started.add(job)
                self._serial += 1
                self._served.pop(job.address, None)
                self._served[job.address] = self._serial
                while len(self._served) > SERVED_KEPT:
                    self._served.popitem(last=False)
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
                    self._started.discard(job)
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


def fair_of(scope: MutableMapping[str, Any]) -> tuple[str, str]:
    """Whom an HTTP request's work counts against (`fair_key`) and the network address
    it came from ("" when the server was not told: such requests share one address's
    turns and places)."""
    client = scope.get("client")
    return fair_key(scope["state"], client), client[0] if client is not None else ""


def fair_key(scope_state: dict[str, Any], client: tuple[str, int] | None) -> str:
    """Whom a request counts against: its player, or its client address when it came
    without a player cookie (see the module's docstring)."""
    if scope_state.get("player_new") and client is not None:
        return f"address:{client[0]}"
    return str(scope_state["player"])
