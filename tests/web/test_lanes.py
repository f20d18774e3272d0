"""The lanes (`nurikabe.web.lanes`): rate limits, the expensive lane's fairness and
bounds, and the cheap lane left free while the expensive one is full.

The expensive lane's jobs here are ``time.sleep`` and ``int`` (builtins, pickled by name
for the spawned workers), so the tests time the lane, not a search.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from nurikabe.web import create_app  # noqa: E402
from nurikabe.web.errors import ApiError  # noqa: E402
from nurikabe.web.lanes import (  # noqa: E402
    Lanes,
    RateLimits,
    ThreadLane,
    WorkerLane,
    WorkerPool,
    fair_key,
)


def _run(awaitable: Any) -> Any:
    """`asyncio.run` in a thread of its own: a test in a process whose main thread runs an
    event loop (Playwright's sync API, in the same xdist worker) cannot start another."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, awaitable).result()


def test_a_bucket_gives_its_burst_then_its_rate() -> None:
    limits = RateLimits(rate=2.0, burst=3)
    assert [limits.take("a", now=10.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limits.take("a", now=10.0) == pytest.approx(0.5)  # one token in half a second
    assert limits.take("b", now=10.0) == 0.0  # each key its own bucket
    assert limits.take("a", now=10.5) == 0.0
    assert limits.take("a", now=10.5) > 0
    assert limits.take("a", now=100.0) == 0.0  # refilled, never past the burst
    assert [limits.take("a", now=100.0) for _ in range(3)][-1] > 0


def test_peek_takes_nothing() -> None:
    limits = RateLimits(rate=1.0, burst=1)
    assert limits.peek("a", now=0.0) == 0.0 and limits.peek("a", now=0.0) == 0.0
    assert limits.take("a", now=0.0) == 0.0
    assert limits.peek("a", now=0.25) == pytest.approx(0.75)


def test_buckets_are_bounded() -> None:
    limits = RateLimits(rate=1.0, burst=1, keys=100)
    for n in range(1000):
        limits.take(str(n), now=0.0)
    assert len(limits._buckets) == 100
    with pytest.raises(ValueError):
        RateLimits(rate=0, burst=1)


def test_the_fair_key_is_the_player_or_the_address_of_a_cookieless_request() -> None:
    assert fair_key({"player": "p", "player_new": False}, ("1.2.3.4", 5)) == "p"
    assert fair_key({"player": "p", "player_new": True}, ("1.2.3.4", 5)) == "address:1.2.3.4"
    assert fair_key({"player": "p", "player_new": True}, None) == "p"


@pytest.fixture(scope="module")
def pool() -> Any:
    pool = WorkerPool(1)
    yield pool
    pool.close()


def lane(pool: WorkerPool, *, queue: int = 1, burst: float = 100) -> WorkerLane:
    return WorkerLane(pool, queue=queue, limits=RateLimits(rate=0.01, burst=burst))


async def outcome(work: Any) -> Any:
    try:
        return await work
    except ApiError as exc:
        return exc


def test_a_newer_job_of_a_player_supersedes_the_older_at_once(pool: WorkerPool) -> None:
    expensive = lane(pool)

    async def main() -> list[Any]:
        first = asyncio.ensure_future(outcome(expensive.run("p", time.sleep, (30,), seconds=30)))
        await asyncio.sleep(1.0)  # the first runs (its worker started)
        began = time.monotonic()
        second = await outcome(expensive.run("p", time.sleep, (0.1,), seconds=5))
        return [await first, second, time.monotonic() - began]

    first, second, took = _run(main())
    assert isinstance(first, ApiError) and (first.status, first.code) == (409, "superseded")
    assert second is None  # time.sleep's answer, from a fresh worker
    assert took < 15
    assert expensive.running == 0 and expensive.waiting == 0


def test_a_full_queue_answers_503_and_a_player_over_its_share_429(pool: WorkerPool) -> None:
    expensive = lane(pool, queue=1)

    async def main() -> list[Any]:
        def job(player: str, seconds: float) -> Any:  # each player from its own address
            return outcome(expensive.run(player, time.sleep, (seconds,), seconds=5, address=player))

        running = asyncio.ensure_future(job("a", 1.5))
        await asyncio.sleep(0.2)
        waiting = asyncio.ensure_future(job("b", 0))
        await asyncio.sleep(0.2)
        full = await job("c", 0)
        return [await running, await waiting, full]

    running, waiting, full = _run(main())
    assert running is None and waiting is None  # the waiting job ran after the first
    assert isinstance(full, ApiError) and (full.status, full.code) == (503, "busy")
    assert int(full.headers["retry-after"]) >= 1

    stingy = lane(pool, burst=1)
    assert _run(outcome(stingy.run("a", time.sleep, (0,), seconds=5))) is None
    over = _run(outcome(stingy.run("a", time.sleep, (0,), seconds=5)))
    assert isinstance(over, ApiError) and (over.status, over.code) == (429, "rate-limited")
    assert int(over.headers["retry-after"]) >= 60  # 0.01 tokens a second
    assert _run(outcome(stingy.run("b", time.sleep, (0,), seconds=5))) is None


def test_a_failing_job_is_an_error_and_the_worker_lives_on(pool: WorkerPool) -> None:
    expensive = lane(pool)
    with pytest.raises(RuntimeError, match="ValueError"):
        _run(expensive.run("a", int, ("x",), seconds=5))
    assert _run(expensive.run("a", int, ("7",), seconds=5)) == 7


def test_one_address_holds_half_the_expensive_lane_and_the_others_go_first(
    pool: WorkerPool,
) -> None:
    """Made-up players behind one address get half the places (429 past that, naming
    the address); a job of another address that comes later runs before theirs."""
    expensive = lane(pool, queue=3)  # 1 worker + 3 places: 2 per address

    async def main() -> list[Any]:
        order: list[str] = []

        async def job(player: str, address: str, seconds: float) -> Any:
            found = await outcome(
                expensive.run(player, time.sleep, (seconds,), seconds=5, address=address)
            )
            order.append(player)
            return found

        first = asyncio.ensure_future(job("m1", "10.0.0.9", 0.6))
        await asyncio.sleep(0.2)
        second = asyncio.ensure_future(job("m2", "10.0.0.9", 0))
        await asyncio.sleep(0.1)
        third = await job("m3", "10.0.0.9", 0)
        honest = asyncio.ensure_future(job("alice", "10.0.0.1", 0))
        results = [await first, await second, third, await honest]
        return [*results, order]

    first, second, third, honest, order = _run(main())
    assert first is None and second is None and honest is None
    assert isinstance(third, ApiError) and (third.status, third.code) == (429, "rate-limited")
    assert "network address" in third.message and int(third.headers["retry-after"]) >= 1
    assert order.index("alice") < order.index("m2")  # its address had no job running


def test_a_hint_flood_delays_its_own_hints_not_another_clients() -> None:
    """The cheap lane serves addresses in turn and keeps a thread from any one of them:
    behind 40 slow calls of one client (many made-up players), another client's call is
    answered within about one call's time; a player or an address past its places gets
    429."""
    cheap = ThreadLane("test", threads=2, queue=60, per_player=2)
    gate = threading.Event()

    async def main() -> tuple[float, list[Any], Any]:
        def slow() -> None:
            gate.wait(0.3)

        flood = [
            asyncio.ensure_future(outcome(cheap.run(slow, f"made-up-{n % 20}", "10.0.0.9")))
            for n in range(40)
        ]
        await asyncio.sleep(0.05)
        began = time.monotonic()
        assert await cheap.run(lambda: 7, "alice", "10.0.0.1") == 7
        took = time.monotonic() - began
        over = await outcome(cheap.run(slow, "made-up-0", "10.0.0.9"))
        answers = await asyncio.gather(*flood)
        return took, answers, over

    try:
        took, answers, over = _run(main())
    finally:
        cheap.close()
    assert took < 1.0  # not behind the flood's 40 x 0.3 s on its one thread
    refused = [a for a in answers if isinstance(a, ApiError)]
    assert len(refused) == 40 - 31  # half the lane's 62 places
    assert {(a.status, a.code) for a in refused} == {(429, "rate-limited")}
    assert "network address" in refused[0].message
    assert isinstance(over, ApiError) and "this player" in over.message
    assert cheap.inflight == 0


def test_hints_answer_while_the_expensive_lane_is_full(tmp_path: Path) -> None:
    """Every slot and place of the expensive lane taken by long jobs: a hint still
    answers at once, a further studio analysis gets 503, and nothing answers 422."""
    lanes = Lanes.make(workers=1, queue=1)
    app = create_app(tmp_path / "players.sqlite", lanes=lanes)
    expensive = lanes.expensive

    async def hold() -> None:  # x runs 4 s; y holds the one place in the queue meanwhile
        await asyncio.gather(
            outcome(expensive.run("x", time.sleep, (4,), seconds=10, address="10.0.0.1")),
            outcome(expensive.run("y", time.sleep, (0.1,), seconds=10, address="10.0.0.2")),
        )

    with TestClient(app) as client:
        holder = client.portal.start_task_soon(hold)  # type: ignore[union-attr]
        deadline = time.monotonic() + 10
        while expensive.running + expensive.waiting < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        began = time.monotonic()
        hint = client.post("/api/hint", json={"key": "10x10/0", "board": "?" * 100})
        assert hint.status_code == 200 and hint.json()["kind"] == "step"
        assert time.monotonic() - began < 2.0
        draft = {"rows": 5, "cols": 5, "clues": [[0, 2]]}
        full = client.post("/api/studio/analyze", json=draft)
        assert full.status_code == 503 and full.json()["error"]["code"] == "busy"
        assert "retry-after" in full.headers
        holder.result(timeout=30)


def test_the_api_rate_limit_answers_429_per_player(tmp_path: Path) -> None:
    app = create_app(tmp_path / "players.sqlite", rate=0.01, burst=3)
    with TestClient(app) as alice, TestClient(app) as bob:
        alice.get("/api/collections")  # a request without the cookie counts by address
        codes = [alice.get("/api/settings").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        over = alice.get("/api/settings")
        assert over.json()["error"]["code"] == "rate-limited"
        assert int(over.headers["retry-after"]) >= 1
        bob.cookies.set("nk_player", "b" * 32)
        assert bob.get("/api/settings").status_code == 200  # another player's share
        assert alice.get("/").status_code in (200, 404)  # the page is not limited


def test_made_up_players_share_their_addresss_limit(tmp_path: Path) -> None:
    """Any well-formed id is a player, so one address gets `address_players` players'
    worth of requests whatever ids it sends: past that 429 naming the address, while
    another address still has its own share; a request refused takes no player token."""
    app = create_app(tmp_path / "players.sqlite", rate=0.01, burst=3, address_players=2)
    with TestClient(app) as client, TestClient(app, client=("10.0.0.2", 50000)) as other:
        codes = []
        for n in range(8):  # a new made-up player for every request
            client.cookies.set("nk_player", f"{n:032x}")
            codes.append(client.get("/api/settings").status_code)
        assert codes == [200] * 6 + [429] * 2  # 2 players' worth of 3
        client.cookies.set("nk_player", f"{99:032x}")
        over = client.get("/api/settings")
        assert over.status_code == 429 and "network address" in over.json()["error"]["message"]
        assert int(over.headers["retry-after"]) >= 1
        other.cookies.set("nk_player", f"{99:032x}")  # the same id from elsewhere: its own
        assert [other.get("/api/settings").status_code for _ in range(4)] == [200] * 3 + [429]


def test_an_import_over_the_players_share_is_refused_before_it_is_read(tmp_path: Path) -> None:
    lanes = Lanes.make(workers=1, queue=1, rate=0.01, burst=1)
    app = create_app(tmp_path / "players.sqlite", lanes=lanes)
    with TestClient(app) as client:
        client.cookies.set("nk_player", "c" * 32)
        url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
        assert client.post("/api/import", json={"text": url}).status_code == 200
        again = client.post("/api/import", json={"text": "junk that does not parse"})
        assert again.status_code == 429 and again.json()["error"]["code"] == "rate-limited"
        other = TestClient(app)
        other.cookies.set("nk_player", "d" * 32)
        assert other.post("/api/import", json={"text": "junk"}).status_code == 400


def test_workers_run_at_a_lower_priority(pool: WorkerPool) -> None:
    import os

    theirs = _run(lane(pool).run("p", os.getpriority, (os.PRIO_PROCESS, 0), seconds=5))
    assert theirs == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)


def test_a_worker_starts_without_fastapi() -> None:
    """What a worker imports for its jobs (a respawn after each superseded job costs it)."""
    import subprocess
    import sys

    code = (
        "import sys, nurikabe.web.analysts, nurikabe.web.lanes\n"
        "assert 'fastapi' not in sys.modules and 'pydantic' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
