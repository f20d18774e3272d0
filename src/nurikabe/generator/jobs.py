"""The generator's batch job: puzzle `index` of a batch, made from its own seed.

This module owns `derive_seed` (each puzzle's seed follows from a batch seed and its
index, so a batch does not depend on how many processes make it), `job_seeds` (the
seeds a job tries, its retries' included), `make_record` (one puzzle from a job dict,
as its JSON record, or ``{"index": i, "error": message}`` when the generator gives
up) and `GenerateJob`, the same as a job of `nurikabe.batch.run_batch`: a frozen,
picklable dataclass with a ``key`` (unique in its batch; a store keeps results under
it, so it never changes) and a ``run()`` returning `make_record`'s record. The
runner's `Job` protocol is structural, so this module does not import the runner.

Imports `generate`, and the solver for a second proof (``verify``).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass
from typing import Any

from . import GeneratedPuzzle, GenerationError, generate

__all__ = ["VERIFIERS", "GenerateJob", "derive_seed", "job_seeds", "make_record", "proven_again"]


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


VERIFIERS = ("cpsat", "cpsat-fast", "reference")
"""Engines a job may ask to prove its puzzle unique again (``verify``). ``cpsat-fast``
is the CP-SAT model with its domains cut by geometry (`solver.cpsat`): the same proof by
the same second engine, 10-25 times faster than ``cpsat`` on generator 8's 15x15s
(0.4-0.9 s against 10 s of CPU), which is what makes verifying a whole build affordable."""

VERIFY_SECONDS = 600.0
"""The time a second proof may take (a limit reached counts as not proven)."""


def proven_again(made: GeneratedPuzzle, engine: str) -> bool:
    """Whether `engine` proves `made` unique, with the generator's solution."""
    from ..solver import Limit, Status, solve

    result = solve(made.puzzle, limit=Limit(solutions=2, seconds=VERIFY_SECONDS), engine=engine)
    return (
        result.status is Status.UNIQUE
        and result.solution is not None
        and result.solution.white_mask == made.solution.white_mask
    )


def make_record(job: dict[str, Any]) -> dict[str, Any]:
    """Generate the puzzle a job describes; its JSON record plus ``index`` and ``seconds``.

    A job holds ``index``, ``rows``, ``cols``, ``seed`` and any keyword options of
    `generate` (``difficulty``, ``symmetry``, ``max_island``, ...). With ``retries``
    (default 0), a failure is retried that many times with the seeds of
    ``derive_seed(seed, k)`` for k = 1, 2, ...; the record's ``seed`` is the one used.
    With ``verify`` (an engine of `VERIFIERS`, such as ``"cpsat"``), each puzzle is proved
    unique once more by that engine, apart from the native one the generator used; a
    puzzle it does not prove (another solution, or no answer within `VERIFY_SECONDS`)
    counts as a failure, so the next seed is tried.

    Raises:
        ValueError: an unknown ``verify`` engine.
    """
    options = {
        k: v
        for k, v in job.items()
        if k not in ("index", "rows", "cols", "seed", "retries", "verify")
    }
    verify = job.get("verify")
    if verify is not None and verify not in VERIFIERS:
        raise ValueError(f"unknown verify engine {verify!r} (known: {', '.join(VERIFIERS)})")
    began = time.perf_counter()
    error = ""
    for seed in job_seeds(job):
        try:
            made = generate(job["rows"], job["cols"], rng=seed, **options)
        except GenerationError as exc:
            error = str(exc)
            continue
        if verify is not None and not proven_again(made, verify):
            error = f"seed {seed}: the {verify} engine did not prove the puzzle unique"
            continue
        record = made.to_json()
        record["index"] = job["index"]
        record["seconds"] = round(time.perf_counter() - began, 3)
        record["difficulty"] = options.get("difficulty", "medium")
        return record
    return {"index": job["index"], "error": error, "seconds": round(time.perf_counter() - began, 3)}


@dataclass(frozen=True)
class GenerateJob:
    """Puzzle `index` of a generated batch, made from its own `seed`.

    The result is the record of `make_record` (the generator's JSON plus ``index``,
    ``seconds`` and ``difficulty``), or ``{"index", "error", "seconds"}`` when the
    generator gives up after `retries` more seeds. The options left at None are the
    generator's defaults.

    >>> GenerateJob(0, 5, 6, seed=1, difficulty="easy").key
    'generate #0 5x6 (seed=1, difficulty=easy, symmetry=none, seconds=60.0, max_island=None, \
mean_island=None, clue_density=None, attempts=None, retries=0)'
    """

    index: int
    rows: int
    cols: int
    seed: int
    difficulty: str = "medium"
    symmetry: str = "none"
    seconds: float | None = 60.0
    max_island: int | None = None
    mean_island: float | None = None
    clue_density: float | None = None
    attempts: int | None = None
    retries: int = 0
    verify: str | None = None

    @property
    def key(self) -> str:
        options = ", ".join(
            f"{k}={v}"
            for k, v in asdict(self).items()
            # `verify` came later: left out when unset, so earlier keys stay the same.
            if k not in ("index", "rows", "cols") and not (k == "verify" and v is None)
        )
        return f"generate #{self.index} {self.rows}x{self.cols} ({options})"

    def run(self) -> dict[str, Any]:
        spec = {k: v for k, v in asdict(self).items() if v is not None or k == "seconds"}
        return make_record(spec)
