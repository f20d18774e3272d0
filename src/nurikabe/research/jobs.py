"""Research's batch job: `EnumerateShard`, one shard of a grid's census, and `merge_census`.

A job is what `nurikabe.batch.run_batch` runs: a frozen, picklable dataclass with a
``key`` (unique in its batch; a store keeps results under it, so it never changes) and
a ``run()`` that returns a JSON-ready dict. The runner's `Job` protocol is structural,
so this module does not import the runner. `merge_census` adds up the stored results
of a grid's shards into its `Census`.

>>> from nurikabe.batch import load_results, run_batch
>>> import tempfile, os
>>> store = os.path.join(tempfile.mkdtemp(), "b.sqlite")
>>> jobs = [EnumerateShard(2, 2, shards=2, shard=k) for k in (0, 1)]
>>> report = run_batch(jobs, store, workers=0)
>>> report.done, report.skipped, sorted(load_results(store))
(2, 0, ['enumerate 2x2 max9 shard 0/2', 'enumerate 2x2 max9 shard 1/2'])
>>> merged = merge_census(load_results(store)[job.key] for job in jobs)
>>> merged.solution_counts == census(2, 2).solution_counts
True

Imports `research.enumerate`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .enumerate import Census, EnumerationError, census, census_shards

__all__ = ["EnumerateShard", "EnumerateShards", "merge_census"]


@dataclass(frozen=True)
class EnumerateShard:
    """One shard of the census of a grid (see `nurikabe.research.enumerate`).

    The result is the shard's `Census` as a dict (without its ``correct_keys``), plus
    the ``cpu_seconds`` it took."""

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
        start = time.process_time()
        found = census(
            self.rows, self.cols, max_clue=self.max_clue, shards=self.shards, shard=self.shard
        )
        data = asdict(found)
        data.pop("correct_keys")
        data["cpu_seconds"] = time.process_time() - start
        return data


@dataclass(frozen=True)
class EnumerateShards:
    """Shards `first` .. `first + count - 1` of the census of a grid, from one enumeration
    of its boards (`census_shards`): on a big grid, most of a shard's time is that
    enumeration, so a group of shards costs little more than one. Memory: one shard's
    table plus 8 bytes per valid board (500 MB on the 6x6).

    The result is ``{"parts": [census dict, ...], "cpu_seconds": ...}``."""

    rows: int
    cols: int
    max_clue: int = 9
    shards: int = 1
    first: int = 0
    count: int = 1

    @property
    def key(self) -> str:
        last = self.first + self.count - 1
        return (
            f"enumerate {self.rows}x{self.cols} max{self.max_clue} "
            f"shards {self.first}-{last}/{self.shards}"
        )

    def run(self) -> dict[str, Any]:
        start = time.process_time()
        found = census_shards(
            self.rows,
            self.cols,
            range(self.first, self.first + self.count),
            max_clue=self.max_clue,
            shards=self.shards,
        )
        parts = []
        for part in found:
            data = asdict(part)
            data.pop("correct_keys")
            parts.append(data)
        return {"parts": parts, "cpu_seconds": time.process_time() - start}


def merge_census(results: Iterable[dict[str, Any]]) -> Census:
    """The `Census` of a grid from the stored results of its `EnumerateShard` and
    `EnumerateShards` jobs.

    Raises:
        EnumerationError: no results.
    """
    total = None
    for data in results:
        for one in data.get("parts", [data]):
            fields = {k: v for k, v in one.items() if k != "cpu_seconds"}
            part = Census(**fields)
            total = part if total is None else total.merge(part)
    if total is None:
        raise EnumerationError("no shard results to merge")
    return total
