"""Batches of independent jobs on all local cores or a Dask cluster, kept in SQLite.

This module owns the batch runner: `run_batch(jobs, store)` runs typed jobs, each a
frozen dataclass with a ``key`` (unique in its batch) and a ``run()`` that returns a
JSON-ready dict, and stores every result in an SQLite file as soon as it arrives, so

- a progress bar (tqdm, on stderr) shows what is done;
- Ctrl-C stops the batch and keeps every finished job (`BatchReport.interrupted`);
- running the same batch again resumes: jobs whose key is stored are not run again;
- by default the jobs spread over every local core (processes); with
  ``cluster="tcp://host:8786"`` they go to a Dask distributed scheduler instead (the
  ``cluster`` extra), whose workers need this package installed.

Job types here: `EnumerateShard` (one shard of `research.enumerate.census`), `SolveJob`,
`GradeJob` and `GenerateJob`. Any other picklable dataclass with ``key`` and ``run()``
works too.

>>> import tempfile, os
>>> store = os.path.join(tempfile.mkdtemp(), "b.sqlite")
>>> report = run_batch([EnumerateShard(2, 2, shards=2, shard=k) for k in (0, 1)], store, workers=0)
>>> report.done, report.skipped, sorted(load_results(store))
(2, 0, ['enumerate 2x2 max9 shard 0/2', 'enumerate 2x2 max9 shard 1/2'])
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .errors import NurikabeError

__all__ = [
    "BatchError",
    "BatchReport",
    "EnumerateShard",
    "GenerateJob",
    "GradeJob",
    "Job",
    "SolveJob",
    "load_results",
    "merge_census",
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
class EnumerateShard:
    """One shard of the census of a grid (see `nurikabe.research.enumerate`)."""

    rows: int
    cols: int
    max_clue: int = 9
    shards: int = 1
    shard: int = 0

    @property
    def key(self) -> str:
        return (
            f"enumerate {self.rows}x{self.cols} max{self.max_clue} shard {self.shard}/{self.shards}"
        )

    def run(self) -> dict[str, Any]:
        from .research.enumerate import census

        start = time.process_time()
        found = census(
            self.rows, self.cols, max_clue=self.max_clue, shards=self.shards, shard=self.shard
        )
        data = asdict(found)
        data.pop("correct_keys")
        data["cpu_seconds"] = time.process_time() - start
        return data


@dataclass(frozen=True)
class SolveJob:
    """Solve one puzzle (a puzz.link URL) with an engine, within `seconds`."""

    url: str
    engine: str = "native"
    seconds: float = 60.0

    @property
    def key(self) -> str:
        return f"solve {self.engine} {self.url}"

    def run(self) -> dict[str, Any]:
        from .puzzle import Puzzle
        from .solver import Limit, solve

        result = solve(
            Puzzle.from_url(self.url),
            limit=Limit(solutions=2, seconds=self.seconds),
            engine=self.engine,
        )
        solution = result.solution
        return {
            "status": result.status.name.lower(),
            "solution": None if solution is None else solution.to_rows(),
            "seconds": result.stats.seconds,
            "nodes": result.stats.nodes,
        }


@dataclass(frozen=True)
class GradeJob:
    """Grade one puzzle (a puzz.link URL) with the logic engine, within `seconds` of CPU."""

    url: str
    seconds: float = 60.0

    @property
    def key(self) -> str:
        return f"grade {self.url}"

    def run(self) -> dict[str, Any]:
        from .logic import grade
        from .puzzle import Puzzle

        return grade(Puzzle.from_url(self.url), seconds=self.seconds).to_json()


@dataclass(frozen=True)
class GenerateJob:
    """Generate one puzzle of a size and level from a seed."""

    rows: int
    cols: int
    difficulty: str = "medium"
    seed: int = 0
    seconds: float = 60.0

    @property
    def key(self) -> str:
        return f"generate {self.rows}x{self.cols} {self.difficulty} seed {self.seed}"

    def run(self) -> dict[str, Any]:
        from .generate import generate

        made = generate(
            self.rows, self.cols, difficulty=self.difficulty, rng=self.seed, seconds=self.seconds
        )
        return {
            "url": made.puzzle.to_url(),
            "solution": made.solution.to_rows(),
            "grade": made.grade.to_json(),
            "seed": made.seed,
        }


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


def _open(store: str | Path) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(str(store))
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


def _timed(job: Job) -> tuple[dict[str, Any], float]:
    start = time.perf_counter()
    out = job.run()
    return out, time.perf_counter() - start


def run_batch(
    jobs: Iterable[Job],
    store: str | Path,
    *,
    workers: int | None = None,
    cluster: str | None = None,
    progress: bool | None = None,
    on_result: Callable[[Job, dict[str, Any]], object] | None = None,
) -> BatchReport:
    """Run every job not yet in `store`, storing each result as it arrives.

    `workers`: local processes (default: every core; 0 runs in this process, one job
    after another). `cluster`: the address of a Dask scheduler (then `workers` is
    ignored). `progress`: show a bar on stderr (default: when stderr is a terminal).
    `on_result(job, result)` is called after each result is stored. Ctrl-C (or a
    KeyboardInterrupt from `on_result`) ends the batch with ``interrupted`` set and
    every finished result kept.

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
    stored = {row[0] for row in db.execute("SELECT key FROM results")}
    report = BatchReport(total=len(todo))
    pending = [job for job in todo if job.key not in stored]
    report.skipped = len(todo) - len(pending)
    bar = _bar(len(todo), report.skipped, progress)

    def keep(job: Job, result: dict[str, Any], seconds: float) -> None:
        db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
            (
                job.key,
                type(job).__name__,
                json.dumps(asdict(job)) if hasattr(job, "__dataclass_fields__") else job.key,
                json.dumps(result),
                seconds,
                time.time(),
            ),
        )
        db.commit()
        report.done += 1
        if bar is not None:
            bar.update(1)
        if on_result is not None:
            on_result(job, result)

    try:
        if cluster is not None:
            _run_cluster(pending, cluster, keep, report)
        elif workers == 0 or len(pending) <= 1:
            for job in pending:
                try:
                    result, seconds = _timed(job)
                except Exception as exc:
                    report.failed[job.key] = f"{type(exc).__name__}: {exc}"
                    continue
                keep(job, result, seconds)
        else:
            _run_local(pending, workers or os.cpu_count() or 1, keep, report)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        if bar is not None:
            bar.close()
        db.close()
    report.seconds = time.perf_counter() - began
    return report


def _bar(total: int, initial: int, progress: bool | None) -> Any:
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, file=sys.stderr, unit="job", leave=False)


Keep = Callable[[Job, dict[str, Any], float], None]


def _run_local(pending: Sequence[Job], workers: int, keep: Keep, report: BatchReport) -> None:
    pool = ProcessPoolExecutor(workers)
    try:
        futures: dict[Future[tuple[dict[str, Any], float]], Job] = {
            pool.submit(_timed, job): job for job in pending
        }
        waiting = set(futures)
        while waiting:
            finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in finished:
                job = futures[future]
                try:
                    result, seconds = future.result()
                except Exception as exc:
                    report.failed[job.key] = f"{type(exc).__name__}: {exc}"
                    continue
                keep(job, result, seconds)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _run_cluster(pending: Sequence[Job], address: str, keep: Keep, report: BatchReport) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BatchError(
            "--cluster needs Dask distributed: pip install 'nurikabe[cluster]'"
        ) from None
    try:
        client = Client(address, timeout=10)
    except OSError as exc:
        raise BatchError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        futures = client.map(_timed, list(pending), key=[f"nurikabe-{j.key}" for j in pending])
        jobs = {f.key: j for f, j in zip(futures, pending, strict=True)}
        for future in as_completed(futures):
            job = jobs[future.key]
            try:
                result, seconds = future.result()
            except Exception as exc:
                report.failed[job.key] = f"{type(exc).__name__}: {exc}"
                continue
            keep(job, result, seconds)
    finally:
        client.close()


def merge_census(results: Iterable[dict[str, Any]]) -> Any:
    """The `Census` of a grid from the stored results of its `EnumerateShard` jobs."""
    from .research.enumerate import Census

    total = None
    for data in results:
        fields = {k: v for k, v in data.items() if k != "cpu_seconds"}
        part = Census(**fields)
        total = part if total is None else total.merge(part)
    if total is None:
        raise BatchError("no shard results to merge")
    return total
