"""Batches of independent jobs on all local cores or a Dask cluster, kept in SQLite.

This module owns the batch runner: `run_batch(jobs, store)` runs typed jobs, each a
frozen dataclass with a ``key`` (unique in its batch) and a ``run()`` that returns a
JSON-ready dict, and stores every result in an SQLite file as soon as it arrives, so

- a progress bar (tqdm, on stderr) shows what is done;
- Ctrl-C (or SIGTERM) stops the batch and keeps every finished job
  (`BatchReport.interrupted`); local worker processes are ended at once;
- running the same batch again resumes: jobs whose key is stored are not run again;
- by default the jobs spread over every local core (processes); with
  ``cluster="tcp://host:8786"`` they go to a Dask distributed scheduler instead (the
  ``cluster`` extra), whose workers need this package installed;
- with ``ordered=True`` the caller sees every result in job order, stored ones
  included, so a command prints the same lines whatever the workers and however
  often it was resumed.

A job is anything with the shape of `Job` (a structural protocol): each domain owns
its jobs and none imports this module: `nurikabe.logic.jobs.GradeJob`,
`nurikabe.generator.jobs.GenerateJob`, `nurikabe.research.jobs.EnumerateShard`, the
``solve`` command's `nurikabe.cli.solve_batch.SolveRecordJob`; `FunctionJob` (a
picklable function of one argument) is the runner's own. A job that is a dataclass is
stored with its fields as JSON, any other with its key. A job that raises is recorded in
`BatchReport.failed` (not stored, so it runs again on resume); the batch goes on.

>>> import tempfile, os
>>> store = os.path.join(tempfile.mkdtemp(), "b.sqlite")
>>> jobs = [FunctionJob(f"square {k}", dict, {"square": k * k}) for k in (2, 3)]
>>> report = run_batch(jobs, store, workers=0)
>>> report.done, report.skipped, load_results(store)["square 3"]
(2, 0, {'square': 9})

Imports `errors` and `workers` (local processes); ``tqdm`` for the progress bar and
Dask ``distributed`` for a cluster, each when first needed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, is_dataclass
from pathlib import Path
from typing import Any, Protocol

from .errors import NurikabeError
from .workers import run_unordered, stop_signals_handled

__all__ = [
    "BatchError",
    "BatchReport",
    "FunctionJob",
    "Job",
    "load_results",
    "run_batch",
]


class BatchError(NurikabeError):
    """A batch that cannot run: duplicate keys, an unreadable store, no cluster."""


class Job(Protocol):
    """What the runner needs of a job: a unique key and a `run` that returns JSON data."""

    @property
    def key(self) -> str: ...

    def run(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class FunctionJob:
    """``function(argument)``: any picklable top-level function of one argument that
    returns a JSON-ready dict, under a key of the caller's choice."""

    name: str
    function: Callable[[Any], dict[str, Any]]
    argument: Any = None

    @property
    def key(self) -> str:
        return self.name

    def run(self) -> dict[str, Any]:
        return self.function(self.argument)


@dataclass
class BatchReport:
    """How a batch went."""

    total: int
    done: int = 0
    """Jobs run and stored by this call."""
    skipped: int = 0
    """Jobs already in the store (resumed)."""
    failed: dict[str, str] = field(default_factory=dict)
    """Key -> error message of jobs that raised (not stored; they run again next time)."""
    interrupted: bool = False
    seconds: float = 0.0


_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    job TEXT NOT NULL,
    result TEXT NOT NULL,
    seconds REAL NOT NULL,
    finished REAL NOT NULL
)
"""


def _open(store: str | Path | None) -> sqlite3.Connection:
    where = ":memory:" if store is None else str(store)
    try:
        db = sqlite3.connect(where)
        db.execute(_SCHEMA)
        db.commit()
    except sqlite3.Error as exc:
        raise BatchError(f"{store}: cannot use as a result store: {exc}") from None
    return db


def load_results(store: str | Path) -> dict[str, dict[str, Any]]:
    """Every stored result, by job key."""
    db = _open(store)
    try:
        return {
            key: json.loads(text) for key, text in db.execute("SELECT key, result FROM results")
        }
    finally:
        db.close()


Outcome = tuple[bool, Any, float]
"""What a worker sends back: (True, result, seconds) or (False, error message, seconds)."""


def _attempt(job: Job) -> Outcome:
    """Run one job, turning its failure into a message.

    Any `Exception` a job raises is its failure, whatever the job type (a bad puzzle,
    a library bug): it is recorded in the report and the batch goes on.
    """
    start = time.perf_counter()
    try:
        out = job.run()
    except Exception as exc:  # a job's failure, recorded in BatchReport.failed
        return False, f"{type(exc).__name__}: {exc}", time.perf_counter() - start
    return True, out, time.perf_counter() - start


def _job_json(job: Job) -> str:
    if is_dataclass(job) and not isinstance(job, type):
        return json.dumps(asdict(job), default=repr)
    return json.dumps(job.key)


def run_batch(
    jobs: Iterable[Job],
    store: str | Path | None = None,
    *,
    workers: int | None = None,
    cluster: str | None = None,
    progress: bool | None = None,
    on_result: Callable[[Job, dict[str, Any]], object] | None = None,
    ordered: bool = False,
    desc: str = "batch",
) -> BatchReport:
    """Run every job not yet in `store`, storing each result as it arrives.

    `store`: an SQLite file (created as needed); None keeps the results in memory for
    this call only. `workers`: local processes (default: every core this process may
    use; 0 runs in this process, one job after another). `cluster`: the address of a
    Dask scheduler (then `workers` is ignored). `progress`: show a bar on stderr
    (default: when stderr is a terminal or NURIKABE_PROGRESS=1), named `desc`.

    `on_result(job, result)` is called after each result is stored, in the order they
    finish; with `ordered`, in the order of `jobs` instead, for every job of the batch
    (the results already in the store too), waiting for a slow job before passing on
    the ones after it: a failed job is passed over, and when the batch is interrupted
    the results that were waiting are passed on in order (with gaps) before returning.

    While it runs (in the main thread) SIGINT and SIGTERM raise KeyboardInterrupt:
    either ends the batch with ``interrupted`` set and every finished result kept, as
    does a KeyboardInterrupt from `on_result` or from a job run in this process.

    Raises:
        BatchError: two jobs with the same key, a store that cannot be opened, a
            cluster that cannot be reached or the ``cluster`` extra missing.
    """
    began = time.perf_counter()
    todo: list[Job] = list(jobs)
    keys = [job.key for job in todo]
    if len(set(keys)) != len(keys):
        raise BatchError("two jobs of the batch have the same key")
    db = _open(store)
    try:
        stored = dict(db.execute("SELECT key, result FROM results"))
    except sqlite3.Error as exc:
        db.close()
        raise BatchError(f"{store}: cannot read as a result store: {exc}") from None
    report = BatchReport(total=len(todo))
    pending = [job for job in todo if job.key not in stored]
    report.skipped = len(todo) - len(pending)
    sequence = _Sequence(todo, on_result if ordered else None)
    for number, job in enumerate(todo):
        if job.key in stored:
            sequence.waiting[number] = json.loads(stored[job.key])
    number_of = {key: number for number, key in enumerate(keys)}
    bar = _bar(len(todo), report.skipped, progress, desc)

    interrupts = _Deferred()

    def keep(job: Job, outcome: Outcome) -> None:
        with interrupts.deferred():
            _keep(job, outcome)

    def _keep(job: Job, outcome: Outcome) -> None:
        ok, result, seconds = outcome
        if bar is not None:
            bar.update(1)
        if not ok:
            report.failed[job.key] = result
            sequence.passed(number_of[job.key])
            return
        try:
            db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                (
                    job.key,
                    type(job).__name__,
                    _job_json(job),
                    json.dumps(result),
                    seconds,
                    time.time(),
                ),
            )
            db.commit()
        except sqlite3.Error as exc:  # a full disk, a store locked by another program
            raise BatchError(f"{store}: cannot store a result: {exc}") from None
        report.done += 1
        if ordered:
            sequence.arrived(number_of[job.key], result)
        elif on_result is not None:
            on_result(job, result)

    try:
        with stop_signals_handled(interrupts.handler):
            try:
                sequence.flush()
                if cluster is not None:
                    _run_cluster(pending, cluster, keep)
                elif workers == 0 or len(pending) <= 1:
                    for job in pending:
                        keep(job, _attempt(job))
                else:
                    _run_local(pending, workers or _cores(), keep)
            except KeyboardInterrupt:
                report.interrupted = True
                with stop_signals_handled(signal.SIG_IGN), contextlib.suppress(KeyboardInterrupt):
                    sequence.flush(to_the_end=True)
    finally:
        if bar is not None:
            bar.close()
        db.close()
    report.seconds = time.perf_counter() - began
    return report


class _Sequence:
    """Passes results on in job order: each waits until every job before it is through.

    `waiting` holds the results not passed on yet by job number (None: a failed job)."""

    def __init__(
        self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], object] | None
    ) -> None:
        self.jobs = jobs
        self.on_result = on_result
        self.waiting: dict[int, dict[str, Any] | None] = {}
        self.next = 0

    def arrived(self, number: int, result: dict[str, Any]) -> None:
        if self.on_result is not None:
            self.waiting[number] = result
            self.flush()

    def passed(self, number: int) -> None:
        if self.on_result is not None:
            self.waiting[number] = None
            self.flush()

    def flush(self, *, to_the_end: bool = False) -> None:
        """Pass on the results ready in order (`to_the_end`: every one waiting, gaps or not)."""
        if self.on_result is None:
            return
        while self.next < len(self.jobs) and (to_the_end or self.next in self.waiting):
            number = self.next
            self.next += 1
            result = self.waiting.pop(number, None)
            if result is not None:
                self.on_result(self.jobs[number], result)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Deferred:
    """SIGINT and SIGTERM raise KeyboardInterrupt while the batch runs (`handler`), but
    not inside `deferred()`, where a result is stored and passed on: there the signal
    waits until the block ends, so a result is either stored and passed on, or neither.

    A shell starts background jobs with SIGINT ignored; a batch must still stop cleanly
    and keep what it has done, which is why the handler is set, not inherited.
    """

    def __init__(self) -> None:
        self.inside = False
        self.pending = False

    def handler(self, signum: int, frame: object) -> None:
        if self.inside:
            self.pending = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        self.inside = True
        try:
            yield
        finally:
            self.inside = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


def _bar(total: int, initial: int, progress: bool | None, desc: str) -> Any:
    if progress is None:
        progress = sys.stderr.isatty() or os.environ.get("NURIKABE_PROGRESS") == "1"
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, file=sys.stderr, unit="job", desc=desc, leave=False)


Keep = Callable[[Job, Outcome], None]


def _attempt_in_worker(job: Job) -> Outcome:
    """`_attempt` in a worker process, which ignores Ctrl-C: a KeyboardInterrupt or
    SystemExit there comes from the job's own code, and is its failure (let out, it
    would end the worker, and the job would come back as lost)."""
    try:
        return _attempt(job)
    except (KeyboardInterrupt, SystemExit) as exc:
        return False, f"{type(exc).__name__}: {exc}", 0.0


def _lost(index: int, exitcode: int | None) -> Outcome:
    """The outcome of a job whose worker process died under it."""
    if exitcode is not None and exitcode < 0:
        how = f"killed by signal {-exitcode}"
    else:
        how = f"exit code {exitcode}"
    return False, f"its worker process ended ({how})", 0.0


def _run_local(pending: Sequence[Job], workers: int, keep: Keep) -> None:
    """Every job on up to `workers` forked processes (`nurikabe.workers`), which end
    before this returns, whether the batch finished or was interrupted."""
    with contextlib.closing(run_unordered(_attempt_in_worker, pending, workers, _lost)) as done:
        for number, outcome in done:
            keep(pending[number], outcome)


def _run_cluster(pending: Sequence[Job], address: str, keep: Keep) -> None:
    try:
        import distributed
    except ImportError:
        raise BatchError(
            "--cluster needs Dask distributed: pip install 'nurikabe[cluster]'"
        ) from None
    dask: Any = distributed  # untyped
    problem = ""
    try:
        client = dask.Client(address, timeout=10)
    except ValueError as exc:  # Dask's word for an address it cannot parse
        problem = f"not a Dask scheduler address: {address} ({exc})"
    except OSError as exc:
        problem = f"cannot reach the Dask scheduler at {address}: {exc}"
    if problem:
        # The half-made Client sits in a reference cycle with the exception. Collected
        # later, its finalizer would close its event loop from whatever thread the
        # collector runs in: once, inside the next cluster's event loop, which then
        # never started. Collect it here, now that the exception is gone.
        import gc

        gc.collect()
        raise BatchError(problem)
    try:
        futures = client.map(_attempt, list(pending), key=[f"nurikabe-{j.key}" for j in pending])
        jobs = {f.key: j for f, j in zip(futures, pending, strict=True)}
        for future in dask.as_completed(futures):
            job = jobs[future.key]
            try:
                outcome = future.result()
            except _lost_on_the_cluster() as exc:
                outcome = (False, f"{type(exc).__name__}: {exc}", 0.0)
            keep(job, outcome)
    finally:
        client.close()


def _lost_on_the_cluster() -> tuple[type[BaseException], ...]:
    """What a Dask future raises when its job did not come back (the job's own errors
    come back as an outcome): its workers died, or it was cancelled."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker

    return (KilledWorker, CancelledError)
