"""A hostile client against the real server (``nurikabe serve`` in a subprocess).

One client sends 20 studio analyses of sparse 40x40 drafts at once (each can take the
analysis's whole time limit), twice: first without a cookie, then with one. Meanwhile an
honest player asks for hints on a 10x10 puzzle. The honest player must get every answer,
fast; the hostile client gets its own answers or 409/429/503, never a 422 (busy is not
the client's bad input) and never another 5xx.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import pytest

from nurikabe.web.lanes import EXPENSIVE_BURST, EXPENSIVE_RATE
from tests.web.test_server import server

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.long

SIDE = 40


def sparse_draft(rng: random.Random) -> dict[str, object]:
    """A 40x40 draft with a few small clues far apart: many solutions, slow to settle."""
    cells = rng.sample(range(SIDE * SIDE), 4)
    return {"rows": SIDE, "cols": SIDE, "clues": [[c, rng.randint(2, 9)] for c in cells]}


class _KeepNoCookie(DefaultCookiePolicy):
    """A client's cookie policy that stores no cookie it is sent."""

    def set_ok(self, cookie: Cookie, request: Any) -> bool:
        return False


def flood(client: httpx.Client, rng: random.Random, count: int) -> tuple[list[int], float]:
    """`count` analyses sent at once; their status codes, and the seconds until the last
    refusal (429) or supersession (409) came back: the wave's admissions were decided by
    then (a refusal is answered at once, and each admission but the last supersedes the
    one before), and the player's share refilled at EXPENSIVE_RATE meanwhile. On a busy
    machine a wave can arrive spread over seconds, and then every request may be
    admitted, superseding the one before."""
    codes: list[int] = []
    decided: list[float] = []
    lock = threading.Lock()

    def one(draft: dict[str, object]) -> None:
        try:
            code = client.post("/api/studio/analyze", json=draft).status_code
        except httpx.TransportError:
            code = 0
        with lock:
            codes.append(code)
            if code in (409, 429):
                decided.append(time.monotonic())

    threads = [threading.Thread(target=one, args=(sparse_draft(rng),)) for _ in range(count)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return codes, max(decided, default=began) - began


def test_an_honest_player_keeps_getting_hints_while_one_client_floods(tmp_path: Path) -> None:
    rng = random.Random(38)
    with server(tmp_path / "players.sqlite", own_group=True) as (_, base):
        honest = httpx.Client(base_url=base, timeout=30)
        # The first wave keeps no cookie (else, on a busy machine where the wave arrives
        # spread out, its later requests would carry the one its first answer set, and
        # count against that new player instead of the address).
        anonymous = httpx.Client(
            base_url=base, timeout=120, cookies=CookieJar(policy=_KeepNoCookie())
        )
        hostile = httpx.Client(base_url=base, timeout=120)
        key = "10x10/3"
        puzzle = honest.get(f"/api/puzzles/{key}").json()
        board = "".join("." if i in {c for c, _ in puzzle["clues"]} else "?" for i in range(100))
        warm = honest.post("/api/hint", json={"key": key, "board": board})
        assert warm.status_code == 200

        latencies: list[float] = []
        honest_codes: list[int] = []
        stop = threading.Event()

        def play() -> None:
            while not stop.is_set():
                began = time.perf_counter()
                answer = honest.post("/api/hint", json={"key": key, "board": board})
                latencies.append(time.perf_counter() - began)
                honest_codes.append(answer.status_code)
                time.sleep(0.1)

        player = threading.Thread(target=play)
        player.start()
        try:
            first = flood(anonymous, rng, 20)  # without a cookie: they count by address
            assert not anonymous.cookies
            hostile.get(f"/api/puzzles/{key}")  # a cookie, for the second wave
            assert "nk_player" in hostile.cookies
            second = flood(hostile, rng, 20)  # with the cookie: they count by player
            # On a fast machine the waves are answered (mostly 429) within a second: the
            # honest player's ten hints are then counted partly after them.
            deadline = time.monotonic() + 30
            while len(latencies) < 10 and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            stop.set()
            player.join(60)
        honest.close()
        anonymous.close()
        hostile.close()

    assert honest_codes and set(honest_codes) == {200}, honest_codes
    assert len(latencies) >= 10
    p95 = sorted(latencies)[int(0.95 * (len(latencies) - 1))]
    assert p95 < 1.0, (statistics.median(latencies), p95)  # 5 s and a 422 before the lanes
    for codes, seconds in (first, second):
        assert len(codes) == 20
        assert set(codes) <= {200, 409, 429, 503}, codes
        # 12 admitted at most (each superseding the one before, if it still ran), and
        # what the share refilled while the wave was answered (a busy machine spreads a
        # wave over seconds); the rest over the player's share
        admitted = EXPENSIVE_BURST + int(EXPENSIVE_RATE * seconds) + 1
        assert codes.count(200) + codes.count(409) <= admitted, (codes, seconds)
        assert codes.count(429) >= 20 - admitted, (codes, seconds)
