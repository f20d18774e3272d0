"""Worker processes: the one place that starts them, and runs that can stop at any moment.

This module owns starting a worker process (`start_process`: its start method, the
signals it is deaf to until it has set its own, and, in the worker, the watch that
ends it with its parent) for every part of the package that needs one:

- `run_unordered(work, items, processes)` runs one function over many items on
  forked workers and yields ``(index, result)`` as each item is done. Batches
  (`nurikabe.batch`) and the research miner use it.
- The web server's helpers are spawned, not forked (`HELPER_METHOD`; the server runs
  threads, and a fork copies only the one that forks, with any lock another held):
  `start_helper` starts one that serves a pipe (the studio's analysts, the lanes of
  `web.lanes`). They leave Ctrl-C to the server and end when it is gone
  (`_watch_parent`, a thread that watches the parent).
  A forked worker instead dies at once with its parent (`_end_with_parent`).

The rest of this docstring is about `run_unordered`.

Why not `multiprocessing.Pool`: its workers share the locks of two queues, and a worker
killed while it holds one (a Ctrl-C or SIGTERM sent to the whole process group lands
at any moment) leaves the lock held forever, so `Pool.terminate()` waits forever too
(CPython issues 78178 and 73945, still open). It hung 2 of 42 runs of a loop shaped
like our signal fuzz test, and every run of a SIGTERM to a batch of quick jobs. Here
every worker has its own pipe and shares no lock, so killing one can only break its
own pipe, which the parent then drops.

- A worker takes one item at a time, so none sits on work another could do.
- A worker that dies mid-item (killed, out of memory, a crash in C) costs that item
  only: it comes back as ``lost(index, exitcode)`` and a new worker takes its place.
- A worker that cannot be started raises `WorkerError`, with the system's reason.
- Workers ignore Ctrl-C (the parent decides what happens) and die at once on SIGTERM,
  which Linux also sends them when the parent dies.
- When the consumer stops early (an exception, Ctrl-C, `close()` on the generator),
  every worker is ended before the generator returns.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import NurikabeError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

__all__ = [
    "WorkerError",
    "run_unordered",
    "start_helper",
    "start_process",
    "stop_signals_handled",
]

Item = TypeVar("Item")
Result = TypeVar("Result")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

HELPER_METHOD = "spawn"
"""How the web server's helpers start (`run_unordered`'s workers are forked)."""

_GRACE = 1.0
"""Seconds a worker has to end after SIGTERM before it is killed."""


class WorkerError(NurikabeError):
    """No worker process can be started (out of memory, processes or file descriptors),
    or the workers die as soon as they start."""


# -- starting a worker process ------------------------------------------------------------------


def start_process(
    target: Callable[..., object],
    args: tuple[Any, ...],
    *,
    method: str,
    deaf_to: Collection[signal.Signals],
) -> BaseProcess:
    """A started daemon process running ``target(*args)``, by the start `method`
    (``"fork"``, ``"spawn"``), begun with the signals `deaf_to` blocked.

    A signal mask survives both a fork and a spawn's exec: the worker takes the signals
    only once it has set its own handlers (`target` unblocks them), so a Ctrl-C or
    SIGTERM sent while it starts waits for it instead of meeting the parent's handler
    or Python's default. This process takes them again at once, and a signal held back
    meanwhile lands here, after the worker exists to be ended.

    Raises:
        OSError: the process cannot be started (out of memory or processes).
    """
    import multiprocessing

    context: Any = multiprocessing.get_context(method)  # its Process is untyped
    process: BaseProcess = context.Process(target=target, args=args, daemon=True)
    with _deaf(deaf_to):
        process.start()
    return process


@contextlib.contextmanager
def _deaf(signals: Collection[signal.Signals]) -> Iterator[None]:
    """`signals` blocked in this thread in the block, as before after it."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _watch_parent() -> None:
    """In a helper process of the server (the solver's, the studio's analysts): leave
    Ctrl-C to the server, and end when the server is gone (killed, say).

    A Ctrl-C in the terminal reaches the whole process group; a helper that took it
    printed a KeyboardInterrupt traceback under the server's own clean shutdown, or, if
    it was still starting, a fatal error. Helpers start with it blocked
    (`start_process`'s `deaf_to`) and ignore it from here on (one held back meanwhile is
    dropped); the server ends them itself as it exits (or this watch does)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _helper(serve: Callable[[Connection], object], conn: Connection) -> None:
    """A server helper's life: the parent watch, then ``serve(conn)``."""
    _watch_parent()
    serve(conn)


def start_helper(serve: Callable[[Connection], object]) -> tuple[BaseProcess, Connection]:
    """A started server helper process running ``serve(conn)`` on its end of a pipe, and
    this process's end. `serve` must be a top-level function (the helper is spawned).

    Raises:
        OSError: the process or its pipe cannot be made.
    """
    import multiprocessing

    conn, child = multiprocessing.get_context(HELPER_METHOD).Pipe()
    try:
        process = start_process(
            _helper, (serve, child), method=HELPER_METHOD, deaf_to={signal.SIGINT}
        )
    except OSError:
        conn.close()
        raise
    finally:
        child.close()
    return process, conn


# -- run_unordered: forked workers over many items ----------------------------------------------


def _worker_start() -> None:
    """In a worker: ignore Ctrl-C (the parent decides) and die at once on SIGTERM.

    Ctrl-C in a terminal reaches every process of the group; the workers leave it to
    the parent, which keeps what is done and ends them. A worker is forked with both
    signals blocked (see `_Worker`) and takes them only once they are set, so a SIGTERM
    sent while it starts waits for it instead of meeting the parent's handler.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _end_with_parent(parent: int) -> None:
    """Linux: SIGTERM this worker when the parent dies (a SIGTERM to the parent alone
    kills it at once, as a command that keeps nothing should), instead of leaving it to
    finish its item for nobody."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM))  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the pipe's end stops it later
        return
    if os.getppid() != parent:  # the parent died before the call
        os.kill(os.getpid(), signal.SIGTERM)


def _serve(conn: Any, work: Callable[[Any], Any], parent: int) -> None:
    """A worker's life: take ``(index, item)`` from the pipe, send back ``(index,
    work(item))``; end at ``None`` or when the parent's end of the pipe is gone."""
    _end_with_parent(parent)
    _worker_start()  # looked up when called, so a test can replace it
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        index, item = task
        try:
            conn.send((index, work(item)))
        except OSError:  # the parent is gone
            return


class _Worker:
    """One forked worker process and the parent's end of its pipe."""

    def __init__(self, work: Callable[[Any], Any]) -> None:
        from multiprocessing.connection import Pipe

        try:
            self.conn, theirs = Pipe()
        except OSError as exc:  # out of file descriptors
            raise WorkerError(f"cannot start a worker process: {exc.strerror or exc}") from None
        try:
            # Forked with Ctrl-C and SIGTERM blocked, until `_worker_start` sets them.
            self.process = start_process(
                _serve, (theirs, work, os.getpid()), method="fork", deaf_to=STOP_SIGNALS
            )
        except OSError as exc:  # out of memory or processes
            self.conn.close()
            raise WorkerError(f"cannot start a worker process: {exc.strerror or exc}") from None
        finally:
            theirs.close()
        self.index: int | None = None  # the item it is working on
        self.done = 0  # items it has sent back

    def give(self, index: int, item: Any) -> None:
        self.index = index
        self.conn.send((index, item))

    def ended(self) -> int | None:
        """The exit code of a worker whose pipe broke (it is ending, or has ended;
        killed if it has not within the grace period), its pipe closed."""
        self.conn.close()
        self.process.join(_GRACE)
        if self.process.exitcode is None:
            self.process.kill()
            self.process.join()
        code: int | None = self.process.exitcode
        return code


def _end(workers: list[_Worker], *, finished: bool) -> None:
    """End every worker: told the work is over when it is (`finished`), else SIGTERM;
    any still alive after the grace period is killed."""
    with stop_signals_handled(signal.SIG_IGN):
        for worker in workers:
            if finished:
                with contextlib.suppress(OSError):  # a worker that died meanwhile
                    worker.conn.send(None)
            elif worker.process.exitcode is None:
                worker.process.terminate()
        for worker in workers:
            worker.process.join(_GRACE)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join()
            worker.conn.close()


@contextlib.contextmanager
def stop_signals_handled(handler: Any) -> Iterator[None]:
    """SIGINT and SIGTERM handled by `handler` in the block (``signal.SIG_IGN``: a
    second Ctrl-C must not interrupt a clean-up), as before after it; outside the main
    thread, where signals cannot be set, as they are."""
    try:
        previous = [signal.signal(sig, handler) for sig in STOP_SIGNALS]
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        for sig, old in zip(STOP_SIGNALS, previous, strict=True):
            signal.signal(sig, old)


def run_unordered(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    processes: int,
    lost: Callable[[int, int | None], Result],
) -> Generator[tuple[int, Result], None, None]:
    """``(index, work(items[index]))`` for every item, in the order they finish, from
    up to `processes` forked workers. An item whose worker died comes back as
    ``(index, lost(index, exitcode))``.

    `work` runs in the workers (forked: it need not be picklable); items and results
    go through pipes, so they must be. Close the generator (or let it finish) to end
    the workers; an exception inside it ends them too.

    >>> sorted(run_unordered(abs, [-3, 1, -2], 2, lambda i, code: -1))
    [(0, 3), (1, 1), (2, 2)]
    """
    from multiprocessing.connection import wait

    todo = deque(enumerate(items))
    workers: list[_Worker] = []
    finished = False
    try:
        for _ in range(min(processes, len(items))):
            workers.append(_Worker(work))
        idle = list(workers)
        while True:
            while idle and todo:
                worker = idle.pop()
                task = todo.popleft()
                try:
                    worker.give(*task)
                except OSError:  # it died while idle (killed): another takes the item
                    todo.appendleft(task)
                    worker.ended()
                    workers.remove(worker)
                    if not worker.done:
                        raise WorkerError("worker processes end as soon as they start") from None
                    workers.append(_Worker(work))
                    idle.append(workers[-1])
            busy: dict[Any, _Worker] = {w.conn: w for w in workers if w.index is not None}
            if not busy:
                break
            for conn in wait(list(busy)):
                worker = busy[conn]
                index = worker.index
                assert index is not None
                try:
                    result: Result = worker.conn.recv()[1]
                except (EOFError, OSError):  # the worker died mid-item
                    code = worker.ended()
                    workers.remove(worker)
                    if todo:
                        workers.append(_Worker(work))
                        idle.append(workers[-1])
                    yield index, lost(index, code)
                    continue
                worker.index = None
                worker.done += 1
                idle.append(worker)
                yield index, result
        finished = True
    finally:
        _end(workers, finished=finished)
