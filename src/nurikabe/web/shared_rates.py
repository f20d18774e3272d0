"""Players' shares kept in one file, so that the server processes of ``nurikabe serve
--workers N`` count each player once, not once per process.

`SharedRateLimits` is a `lanes.RateLimits` (the same token buckets: `burst` tokens at
most, `rate` more per second) whose buckets live in a small SQLite file that every
server process opens. ``nurikabe serve`` makes that file in a temporary folder when it
starts more than one process and removes it when it ends (`ENV` ``rates``); one process
keeps its buckets in memory, as before. Each take is one short write transaction
(``BEGIN IMMEDIATE``), so two processes never both spend a player's last token. The
clock is `time.monotonic`, which on Linux is the same for every process of the machine.

Buckets left alone until they are full again are deleted now and then, so a client
that makes up new keys cannot grow the file.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from .lanes import RateLimits

__all__ = ["SharedRateLimits"]

PRUNE_EVERY = 1000
"""Takes between two sweeps of the full buckets."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS buckets (
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    tokens REAL NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (name, key)
) WITHOUT ROWID
"""


class SharedRateLimits(RateLimits):
    """Token buckets named `name` in the SQLite file `path`, shared by every process
    that opens it (one connection per thread of this one)."""

    def __init__(self, path: str | Path, name: str, rate: float, burst: float) -> None:
        super().__init__(rate, burst)
        self.path = str(path)
        self.name = name
        self._local = threading.local()
        self._takes = 0
        self._conn()  # the table exists before the first request

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")  # shares, not data: a crash may lose them
            conn.execute(_SCHEMA)
            self._local.conn = conn
        return conn

    def _tokens(self, conn: sqlite3.Connection, key: str, now: float) -> float:
        row = conn.execute(
            "SELECT tokens, at FROM buckets WHERE name = ? AND key = ?", (self.name, key)
        ).fetchone()
        if row is None:
            return self.burst
        # a bucket stamped later than `now` (a take of another thread came in between)
        # has refilled nothing since
        return float(min(self.burst, row[0] + max(0.0, now - row[1]) * self.rate))

    def peek(self, key: str, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        tokens = self._tokens(self._conn(), key, now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def take(self, key: str, now: float | None = None) -> float:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        now = time.monotonic() if now is None else now  # read once the file is ours
        try:
            tokens = self._tokens(conn, key, now)
            wait = 0.0
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) / self.rate
            conn.execute(
                "INSERT OR REPLACE INTO buckets (name, key, tokens, at) VALUES (?, ?, ?, ?)",
                (self.name, key, tokens, now),
            )
            self._takes += 1
            if self._takes % PRUNE_EVERY == 0:
                # full again by now: the same as no bucket at all
                conn.execute(
                    "DELETE FROM buckets WHERE name = ? AND at < ?",
                    (self.name, now - self.burst / self.rate),
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return wait
