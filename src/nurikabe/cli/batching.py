"""The options every batch command shares: ``--jobs``, ``--cluster`` and ``--store``.

``solve`` (of a batch), ``grade`` (of a batch), ``generate`` and ``collection build``
run their puzzles through `nurikabe.batch.run_batch`; this module only declares how a
command asks for it, and imports nothing heavy (the runner is imported when a batch
runs, so a single solve stays light at start-up).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .common import jobs_option

if TYPE_CHECKING:
    from ..batch import BatchReport, Job


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def batch_options(parser: argparse.ArgumentParser, *, store_help: str | None = None) -> None:
    """``--jobs``, ``--cluster`` and (with `store_help`) ``--store``: how a batch runs."""
    parser.add_argument(
        "--jobs",
        type=jobs_option,
        default=default_jobs(),
        help="worker processes (default: all cores)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="run on a Dask scheduler (tcp://host:8786) instead; pip install 'nurikabe[cluster]'",
    )
    if store_help is not None:
        parser.add_argument("--store", metavar="FILE", default=None, help=store_help)


def local_workers(jobs: int) -> int:
    """`run_batch`'s `workers` for ``--jobs``: 1 runs in this process."""
    return 0 if jobs <= 1 else jobs


def run_in_order(
    jobs: Sequence[Job],
    on_result: Callable[[Job, dict[str, Any]], object],
    *,
    workers: int,
    cluster: str | None,
    store: str | None,
    desc: str,
) -> BatchReport:
    """`run_batch` for a command: ``--jobs`` `workers`, results passed on in job order,
    and a line on stderr for each job that failed."""
    from ..batch import run_batch

    report = run_batch(
        jobs,
        store,
        workers=local_workers(workers),
        cluster=cluster,
        on_result=on_result,
        ordered=True,
        desc=desc,
    )
    for key, message in report.failed.items():
        print(f"nurikabe: {key}: {message}", file=sys.stderr)
    return report
