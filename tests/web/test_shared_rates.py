"""Players' shares counted across server processes (web/shared_rates.py).

Two `SharedRateLimits` on one file stand for two server processes: whatever process each
request reaches, the waits are those of one in-memory bucket per player (hypothesis,
against `lanes.RateLimits`). Then the real thing: ``nurikabe serve --workers 2`` and one
player's burst of requests on eight connections (which the two processes share between
them) is admitted once, not once per process (253 of 400 were, before).
"""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe.web import shared_rates
from nurikabe.web.lanes import RateLimits
from nurikabe.web.middleware import API_BURST, API_RATE
from nurikabe.web.shared_rates import SharedRateLimits

requests = st.lists(
    st.tuples(
        st.integers(0, 1),  # which process
        st.sampled_from(["a", "b", "address:10.0.0.1"]),
        st.floats(0, 2, allow_nan=False),  # seconds since the request before
        st.booleans(),  # a peek, not a take
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(requests, st.sampled_from([(2.0, 3.0), (0.5, 1.0), (20.0, 100.0)]))
def test_two_processes_count_as_one(tmp_path_factory, calls, share) -> None:  # type: ignore[no-untyped-def]
    rate, burst = share
    path = tmp_path_factory.mktemp("rates") / "rates.sqlite"
    processes = [SharedRateLimits(path, "api", rate, burst) for _ in range(2)]
    model = RateLimits(rate, burst)
    now = 1000.0
    for process, key, dt, peek in calls:
        now += dt
        if peek:
            got, want = processes[process].peek(key, now), model.peek(key, now)
        else:
            got, want = processes[process].take(key, now), model.take(key, now)
        assert math.isclose(got, want, abs_tol=1e-9), (key, now)


def test_names_keep_their_own_buckets_and_a_later_stamp_refills_nothing(tmp_path: Path) -> None:
    path = tmp_path / "rates.sqlite"
    api = SharedRateLimits(path, "api", 1.0, 1.0)
    expensive = SharedRateLimits(path, "expensive", 1.0, 1.0)
    assert api.take("p", 10.0) == 0.0
    assert api.take("p", 10.0) == pytest.approx(1.0)  # empty: a second to wait
    assert expensive.take("p", 10.0) == 0.0  # the other name's bucket is still full
    assert api.peek("p", 5.0) == pytest.approx(1.0)  # stamped at 10: nothing refilled


def test_full_buckets_are_swept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_rates, "PRUNE_EVERY", 10)
    path = tmp_path / "rates.sqlite"
    limits = SharedRateLimits(path, "api", 1.0, 2.0)
    for n in range(9):
        limits.take(f"made-up-{n}", 0.0)
    limits.take("late", 100.0)  # the 10th take: the others are full by now
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT key FROM buckets").fetchall() == [("late",)]
    conn.close()


def test_threads_never_spend_one_token_twice(tmp_path: Path) -> None:
    path = tmp_path / "rates.sqlite"
    processes = [SharedRateLimits(path, "api", 0.001, 50.0) for _ in range(2)]
    admitted: list[float] = []

    def spend(limits: SharedRateLimits) -> None:
        for _ in range(40):
            if limits.take("p") == 0.0:
                admitted.append(1.0)

    threads = [threading.Thread(target=spend, args=(processes[n % 2],)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) == 50  # 160 asked, the bucket's 50 given, not one more


@pytest.mark.long
def test_serve_with_two_workers_counts_each_player_once(tmp_path: Path) -> None:
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    from tests.web.test_server import server

    asked = int(API_BURST) * 4
    codes: list[int] = []
    lock = threading.Lock()
    with server(tmp_path / "players.sqlite", args=("--workers", "2")) as (_, base):
        began = time.monotonic()

        def ask(count: int) -> None:
            # a connection of its own per thread: the two processes take some each
            with httpx.Client(base_url=base, timeout=30) as client:
                client.cookies.set("nk_player", "0" * 31 + "7")
                for _ in range(count):
                    code = client.get("/api/collections").status_code
                    with lock:
                        codes.append(code)

        threads = [threading.Thread(target=ask, args=(asked // 8,)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.monotonic() - began
    assert set(codes) <= {200, 429}
    admitted = codes.count(200)
    # one bucket: its burst and what it refilled meanwhile (two would give twice the burst)
    assert admitted <= API_BURST + API_RATE * seconds + 1, (admitted, seconds)
    assert codes.count(429) > 0
