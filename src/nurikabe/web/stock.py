"""New puzzles for the game: their IDs, the stock of each (size, level), the puzzle of the day.

A generated puzzle is named by its ID, ``<rows>x<cols>-<level>-<seed>-g<generator>`` (such
as ``10x10-hard-804211793-g7``): ``generate(rows, cols, difficulty=level, rng=seed)`` with
the budget `ATTEMPTS` remakes it on any machine with that generator version, as Tatham's
random seeds do. Every puzzle made is kept in the players' database (`players.Generated`,
the key ``generated/N``), so an ID or a key is answered from the file, and only an ID the
file has never seen is made again.

The `Maker` keeps a stock of `STOCK_DEPTH` puzzles for every (size, level) in its warm
list and every one a player has asked for, and makes the puzzle of each day (today's
and tomorrow's, UTC) ahead of time. It works in one helper process (`workers.start_helper`)
that lowers its own priority (`NICE`), one puzzle at a time, and never takes one of the
searches' slots (`games.Games.searches`), so a refill cannot hold up a hint or a check.
A puzzle a player is waiting for (an empty stock, an ID to remake) goes first.

The puzzle of a day (`daily_spec`): 10x10, its level following the day of the week (easy
on Monday up to expert on Sunday); its seed is the first of `daily_seed(day, 0)`,
`daily_seed(day, 1)`, ... the generator succeeds with, so every server with the same
generator version makes the same puzzle for the same date.

Imports `players`, `workers` and (in the helper process only) the generator.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import statistics
import threading
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from multiprocessing.connection import Connection
from typing import Any

from ..generator import GENERATOR_VERSION
from ..players import Generated, Players
from ..workers import start_helper
from .models import FRESH_MAX_SIDE, FRESH_MIN_SIDE

__all__ = [
    "ATTEMPTS",
    "DAILY_LEVELS",
    "EXTREME_CELLS",
    "LEVELS",
    "MAX_SIDE",
    "MIN_SIDE",
    "NICE",
    "OFF",
    "STOCK_DEPTH",
    "Job",
    "Maker",
    "Spec",
    "daily_seed",
    "daily_spec",
    "parse_id",
    "parse_warm",
    "puzzle_id",
    "today",
]

MIN_SIDE = FRESH_MIN_SIDE
"""The smallest side of a new puzzle."""
MAX_SIDE = FRESH_MAX_SIDE
"""The largest side of a new puzzle."""
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
"""The levels a new puzzle may have."""
EXTREME_CELLS = 400
"""Extreme puzzles are offered up to this many cells (20x20: generator 11 makes them from
expert puzzles in about a minute of CPU; larger ones are not measured, docs/generator.md)."""
STOCK_DEPTH = 2
"""Puzzles kept ready for each (size, level) of the stock."""
ATTEMPTS = 12
"""The generator's budget of random boards per seed: a count, so a seed remakes its puzzle."""
SECONDS = 900.0
"""Wall time one seed may take before the helper gives it up (and tries another seed)."""
TRIES = 4
"""Seeds one stock puzzle is tried with before the maker gives the (size, level) up: for
the rest of the server's life when it refills a stock, until asked again when a player
waits for it (some are beyond the generator: 5x5 extreme)."""
NICE = 10
"""How far the helper process lowers its own priority."""
DAILY_SIZE = (10, 10)
"""The size of the puzzle of the day."""
DAILY_LEVELS = ("easy", "easy", "medium", "medium", "hard", "hard", "expert")
"""The level of the puzzle of the day, Monday first."""
DEFAULT_WARM = "10x10,15x15"
"""The stocks kept without being asked for (every level but extreme) when the environment
variable ``NURIKABE_STOCK`` is not set; ``NURIKABE_STOCK=""`` keeps none ahead, and
``NURIKABE_STOCK=off`` makes no puzzle at all (the tests of other parts of the server)."""
OFF = "off"
_GUESS = {"easy": 1.0, "medium": 1.0, "hard": 1.2, "expert": 3.0, "extreme": 25.0}
"""Seconds per 100 cells a level takes, for a first estimate (docs/generator.md)."""

_ID = re.compile(
    r"^(\d{1,2})x(\d{1,2})-(" + "|".join(LEVELS) + r")-(\d{1,15})-g([0-9A-Za-z.]{1,8})$"
)


@dataclass(frozen=True, order=True)
class Spec:
    """A size and level of new puzzles."""

    rows: int
    cols: int
    level: str

    def check(self) -> None:
        """Raises ValueError with a line for people when the generator is not offered it."""
        for name, side in (("rows", self.rows), ("cols", self.cols)):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise ValueError(f"{name} must be from {MIN_SIDE} to {MAX_SIDE}, not {side}")
        if self.level not in LEVELS:
            raise ValueError(f"no level {self.level!r} (one of {', '.join(LEVELS)})")
        if self.level == "extreme" and self.rows * self.cols > EXTREME_CELLS:
            raise ValueError(
                f"extreme puzzles are made up to {EXTREME_CELLS} cells, not {self.rows}x{self.cols}"
            )

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols} {self.level}"


@dataclass(frozen=True)
class Job:
    """One puzzle to make: from the stock's random seeds, from `seed` (an ID), or the
    puzzle of `day`."""

    spec: Spec
    seed: int | None = None
    day: str | None = None


def puzzle_id(g: Generated) -> str:
    """The ID that remakes `g`: ``10x10-hard-804211793-g7``."""
    return f"{g.rows}x{g.cols}-{g.level}-{g.seed}-g{g.generator}"


def parse_id(text: str) -> tuple[Spec, int, str]:
    """The spec, seed and generator version of an ID.

    >>> parse_id("10x12-hard-42-g7")
    (Spec(rows=10, cols=12, level='hard'), 42, '7')

    Raises:
        ValueError: not an ID, or a size or level the game does not offer.
    """
    m = _ID.match(text)
    if m is None:
        raise ValueError(f"not a puzzle ID (like 10x10-hard-42-g7): {text[:60]!r}")
    spec = Spec(int(m[1]), int(m[2]), m[3])
    spec.check()
    return spec, int(m[4]), m[5]


def parse_warm(text: str) -> list[Spec]:
    """The stocks of a warm list: ``10x10,15x15:hard`` (a size alone: every level but
    extreme).

    Raises:
        ValueError: a size or level that is not offered.
    """
    out: list[Spec] = []
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        size, _, level = item.partition(":")
        rows, _, cols = size.partition("x")
        if not (rows.isdigit() and cols.isdigit()):
            raise ValueError(f"not a size like 10x10: {size!r}")
        for name in [level] if level else LEVELS[:-1]:
            spec = Spec(int(rows), int(cols), name)
            spec.check()
            out.append(spec)
    return out


def today() -> str:
    """Today's UTC date, ``2026-11-27``."""
    return datetime.now(UTC).date().isoformat()


def daily_spec(day: str) -> Spec:
    """The size and level of the puzzle of `day` (``2026-11-27``).

    >>> daily_spec("2026-11-23"), daily_spec("2026-11-29").level
    (Spec(rows=10, cols=10, level='easy'), 'expert')

    Raises:
        ValueError: not a date.
    """
    weekday = date.fromisoformat(day).weekday()
    return Spec(*DAILY_SIZE, DAILY_LEVELS[weekday])


def daily_seed(day: str, k: int) -> int:
    """The `k`-th seed tried for the puzzle of `day` (32 bits, the same everywhere)."""
    digest = hashlib.sha256(f"nurikabe-daily:{day}:{k}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _serve(conn: Connection) -> None:
    """In the helper: lower the priority, then make each ``(rows, cols, level, seed)``
    received, answering ``("ok", url, solution, score, seconds)`` or ``("failed",
    message)``, until None."""
    from ..generator import GenerationError, generate

    os.nice(NICE)
    while True:
        job = conn.recv()
        if job is None:
            return
        rows, cols, level, seed = job
        began = time.monotonic()
        try:
            made = generate(
                rows, cols, difficulty=level, rng=seed, attempts=ATTEMPTS, seconds=SECONDS
            )
        except GenerationError as exc:
            conn.send(("failed", str(exc).splitlines()[0]))
            continue
        solution = "".join(made.solution.to_rows())
        score = made.grade.score
        conn.send(("ok", made.puzzle.to_url(), solution, score, time.monotonic() - began))


class Maker:
    """Makes generated puzzles in the background: the stocks, the days, and what players
    wait for (see the module's docstring). The thread starts on first use (`start`)."""

    def __init__(
        self, players: Players, warm: list[Spec], *, depth: int = STOCK_DEPTH, on: bool = True
    ) -> None:
        self.players = players
        self.on = on
        """False: nothing is ever made (``NURIKABE_STOCK=off``)."""
        self.warm = list(warm)
        self.depth = depth
        self._cv = threading.Condition()
        self._wanted: dict[Job, float] = {}  # what players wait for -> when first asked
        self._failed: dict[Job, str] = {}  # what could not be made -> why
        self._given_up: set[Spec] = set()  # stocks not refilled any more
        self._busy: tuple[Job, float] | None = None
        self._thread: threading.Thread | None = None
        self._helper: tuple[Any, Connection] | None = None
        self._closed = False

    # -- asked by the requests -------------------------------------------------------------

    def start(self) -> None:
        """Start the thread that makes puzzles (once)."""
        with self._cv:
            if self._thread is None and not self._closed and self.on:
                self._thread = threading.Thread(target=self._run, name="maker", daemon=True)
                self._thread.start()
            self._cv.notify_all()

    def want(self, job: Job) -> None:
        """A player waits for `job`: it goes before the stocks' refills."""
        with self._cv:
            self._failed.pop(job, None)
            self._given_up.discard(job.spec)
            if self.on:
                self._wanted.setdefault(job, time.monotonic())
        self.start()

    def failure(self, job: Job, *, forget: bool = False) -> str | None:
        """Why `job` could not be made, or None; `forget`: the next `want` tries again."""
        with self._cv:
            return self._failed.pop(job, None) if forget else self._failed.get(job)

    def waited(self, job: Job) -> float:
        """Seconds since a player first asked for `job` (0 when nobody waits)."""
        with self._cv:
            since = self._wanted.get(job)
        return 0.0 if since is None else time.monotonic() - since

    def expected(self, spec: Spec) -> float:
        """About how many seconds a puzzle of `spec` takes to make: the median of the last
        ones made, else a guess from its size and level."""
        seen = self.players.generation_seconds(spec.rows, spec.cols, spec.level)
        if seen:
            return float(statistics.median(seen))
        return max(1.0, spec.rows * spec.cols / 100 * _GUESS[spec.level])

    def close(self) -> None:
        """Stop the thread and end the helper process."""
        with self._cv:
            self._closed = True
            self._cv.notify_all()
            helper, self._helper = self._helper, None
        if helper is not None:
            process, conn = helper
            process.kill()
            process.join(2)
            with contextlib.suppress(OSError):  # the thread may be closing it at the same time
                conn.close()

    # -- the thread ------------------------------------------------------------------------

    def _next(self) -> Job | None:
        """Today's puzzle first, then what players wait for (oldest first), then
        tomorrow's, then the emptiest stock below `depth`."""
        with self._cv:
            wanted = sorted(self._wanted, key=self._wanted.__getitem__)
        days = [today(), (datetime.now(UTC).date() + timedelta(days=1)).isoformat()]
        missing = [Job(daily_spec(day), day=day) for day in days if self.players.daily(day) is None]
        if missing and missing[0].day == days[0]:
            return missing[0]
        if wanted:
            return wanted[0]
        if missing:
            return missing[0]
        stock = self.players.stock(GENERATOR_VERSION)
        specs = set(self.warm) | {Spec(*key) for key in stock}
        with self._cv:
            specs -= self._given_up
        have = {s: stock.get((s.rows, s.cols, s.level), 0) for s in specs}
        low = sorted((n, s) for s, n in have.items() if n < self.depth)
        return Job(low[0][1]) if low else None

    def _run(self) -> None:
        while True:
            with self._cv:
                if self._closed:
                    return
            try:
                job = self._next()
            except Exception:  # the database is busy or gone: try again later
                job = None
            if job is None:
                with self._cv:
                    if not self._closed and not self._wanted:
                        self._cv.wait(30)
                continue
            self._make(job)

    def _seeds(self, job: Job) -> list[int]:
        if job.seed is not None:
            return [job.seed]
        if job.day is not None:
            return [daily_seed(job.day, k) for k in range(50)]
        return [random.SystemRandom().randrange(1, 10**9) for _ in range(TRIES)]

    def _make(self, job: Job) -> None:
        spec = job.spec
        why = "the generator gave up"
        for seed in self._seeds(job):
            answer = self._ask((spec.rows, spec.cols, spec.level, seed))
            if answer is None:  # closed
                return
            if answer[0] != "ok":
                why = str(answer[1])
                continue
            _, url, solution, score, seconds = answer
            self.players.add_generated(
                rows=spec.rows,
                cols=spec.cols,
                level=spec.level,
                seed=seed,
                generator=GENERATOR_VERSION,
                url=url,
                solution=solution,
                score=score,
                seconds=round(seconds, 3),
                day=job.day,
                stock=job.seed is None and job.day is None,
            )
            break
        else:
            with self._cv:
                self._failed[job] = why
                if job.seed is None and job.day is None:
                    self._given_up.add(spec)
        with self._cv:
            self._wanted.pop(job, None)

    def _ask(self, job: tuple[int, int, str, int]) -> tuple[Any, ...] | None:
        """`job` made in the helper (started, or started again after it died); None once
        closed."""
        while True:
            with self._cv:
                if self._closed:
                    return None
                if self._helper is None:
                    self._helper = start_helper(_serve)
                process, conn = self._helper
            try:
                conn.send(job)
                while not conn.poll(0.5):
                    with self._cv:
                        if self._closed:
                            return None
                answer: tuple[Any, ...] = conn.recv()
                return answer
            except (EOFError, OSError):  # the helper died (or was ended by close)
                with self._cv:
                    if self._helper is not None and self._helper[1] is conn:
                        self._helper = None
                process.kill()
                conn.close()
                with self._cv:
                    if self._closed:
                        return None
                time.sleep(1)
