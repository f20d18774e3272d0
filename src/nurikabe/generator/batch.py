"""Many puzzles at once: per-puzzle seeds and the worker function for process pools.

This module owns `derive_seed` (each puzzle's seed follows from a batch seed and its
index, so a batch does not depend on how many processes make it), `job_seeds` (the
seeds a job tries, its retries' included) and `make_record`,
what a `nurikabe.batch.GenerateJob` runs in a worker: it generates one puzzle from a
job dict and returns its JSON record, or ``{"index": i, "error": message}`` when the
generator gives up.

Imports `generate` only.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from . import GenerationError, generate

__all__ = ["derive_seed", "job_seeds", "make_record"]


def derive_seed(seed: int, index: int) -> int:
    """The seed of puzzle `index` of a batch made with `seed` (48 bits).

    >>> derive_seed(7, 0) == derive_seed(7, 0), derive_seed(7, 0) == derive_seed(7, 1)
    (True, False)
    """
    digest = hashlib.sha256(f"nurikabe-batch:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def job_seeds(job: dict[str, Any]) -> list[int]:
    """The seeds a job tries, in order: its ``seed``, then with ``retries`` (default 0)
    ``derive_seed(seed, k)`` for k = 1, 2, ... (the record's ``seed`` is the one used)."""
    seed = job["seed"]
    return [seed] + [derive_seed(seed, k) for k in range(1, job.get("retries", 0) + 1)]


def make_record(job: dict[str, Any]) -> dict[str, Any]:
    """Generate the puzzle a job describes; its JSON record plus ``index`` and ``seconds``.

    A job holds ``index``, ``rows``, ``cols``, ``seed`` and any keyword options of
    `generate` (``difficulty``, ``symmetry``, ``max_island``, ...). With ``retries``
    (default 0), a failure is retried that many times with the seeds of
    ``derive_seed(seed, k)`` for k = 1, 2, ...; the record's ``seed`` is the one used.
    """
    options = {
        k: v for k, v in job.items() if k not in ("index", "rows", "cols", "seed", "retries")
    }
    began = time.perf_counter()
    error = ""
    for seed in job_seeds(job):
        try:
            made = generate(job["rows"], job["cols"], rng=seed, **options)
        except GenerationError as exc:
            error = str(exc)
            continue
        record = made.to_json()
        record["index"] = job["index"]
        record["seconds"] = round(time.perf_counter() - began, 3)
        record["difficulty"] = options.get("difficulty", "medium")
        return record
    return {"index": job["index"], "error": error, "seconds": round(time.perf_counter() - began, 3)}
