"""`nurikabe solve` over many puzzles (a JSON Lines file or a folder) through `nurikabe.batch`.

Owns the batch job of one `solve` line (`SolveRecordJob`, picklable, so Dask workers can
import it) and the loop that prints the lines in input order with the summary. Imported
only when a batch is solved, so a single `nurikabe solve FILE` loads none of it.

Imports `cli.solve_items` (the puzzles, solving one, the exit codes) and `cli.batching`;
not `cli.solve`, which imports this module when SRC is a batch.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..formats import Document
from ..puzzle import Puzzle
from ..solver import Status
from .batching import run_in_order
from .common import print_json
from .solve_items import (
    EXIT_BAD_INPUT,
    EXIT_FOUND,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_UNIQUE,
    FOUND,
    Item,
    solve_item,
)

__all__ = ["SolveRecordJob", "run_batch_of_items"]

_SEVERITY = [EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_MULTIPLE, EXIT_NONE, EXIT_FOUND, EXIT_UNIQUE]
"""Which exit code wins in a batch: the most serious first."""


@dataclass(frozen=True)
class SolveRecordJob:
    """One puzzle of a ``solve`` batch as a `nurikabe.batch` job: the record and exit code
    `solve_item` gives, for the puzzle of `url` (or the input `error` that replaced it)."""

    index: int
    id: str
    url: str | None
    error: str | None
    engine: str
    timeout: float
    limit: int | None
    count: bool
    all: bool

    @property
    def key(self) -> str:
        how = (
            f"{self.engine} {self.timeout:g}s limit {self.limit} count {self.count} all {self.all}"
        )
        return f"solve #{self.index} {self.id} ({how}) {self.url or self.error}"

    def run(self) -> dict[str, Any]:
        document = None if self.url is None else Document(Puzzle.from_url(self.url))
        options = argparse.Namespace(
            count=self.count,
            all=self.all,
            limit=self.limit,
            timeout=self.timeout,
            engine=self.engine,
        )
        outcome = solve_item(Item(self.id, document, self.error), options)
        return {"code": outcome.code, "record": outcome.record}


def _line(record: dict[str, Any]) -> str:
    """A puzzle's line of the text output."""
    if record.get("status") == "error":
        return f"{record['id']}: error: {record['error']}"
    text = f"{record['id']}: {record['status']} ({record['engine']}, {record['seconds']:.3f} s)"
    if "count" in record:
        bound = "" if record["complete"] else "at least "
        noun = "solution" if record["count"] == 1 else "solutions"
        text += f", {bound}{record['count']} {noun}"
    return text


def run_batch_of_items(items: Iterator[Item], total: int | None, args: argparse.Namespace) -> int:
    """Every puzzle through `nurikabe.batch.run_batch`: one line each in input order,
    whatever ``--jobs``/``--cluster``; ``--store FILE`` lets a rerun resume."""
    from ..batch import Job

    began = time.perf_counter()
    jobs = [
        SolveRecordJob(
            index,
            item.id,
            None if item.document is None else item.document.puzzle.to_url(),
            item.error,
            args.engine,
            args.timeout,
            args.limit,
            args.count,
            args.all,
        )
        for index, item in enumerate(items)
    ]
    codes: list[int] = []
    tally: Counter[str] = Counter()

    def show(job: Job, result: dict[str, Any]) -> None:
        record = result["record"]
        codes.append(result["code"])
        tally[record["status"]] += 1
        if args.json:
            print_json(record)
        else:
            print(_line(record))
        sys.stdout.flush()

    report = run_in_order(
        jobs, show, workers=args.jobs, cluster=args.cluster, store=args.store, desc="solve"
    )
    for _ in report.failed:
        codes.append(EXIT_BAD_INPUT)
        tally["error"] += 1
    interrupted = report.interrupted
    seconds = time.perf_counter() - began
    summary = {
        "puzzles": len(codes),
        **{status.value: tally[status.value] for status in Status},
        FOUND: tally[FOUND],
        "error": tally["error"],
        "seconds": round(seconds, 3),
        "interrupted": interrupted,
    }
    if args.json:
        print_json({"summary": summary})
    else:
        parts = ", ".join(f"{summary[s.value]} {s.value}" for s in Status)
        if summary[FOUND]:
            parts += f", {summary[FOUND]} found (uniqueness not checked)"
        note = " (interrupted: the rest was not solved)" if interrupted else ""
        noun = "puzzle" if len(codes) == 1 else "puzzles"
        print(f"{len(codes)} {noun}: {parts}, {summary['error']} bad input; {seconds:.2f} s{note}")
    if interrupted:
        return EXIT_INTERRUPTED
    return next((code for code in _SEVERITY if code in codes), EXIT_UNIQUE)
