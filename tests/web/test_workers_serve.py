"""Several server processes on one players' database (SQLite in WAL mode).

Two ``nurikabe serve`` processes on the same file take saves for the same players at
once: no save is lost or doubled, and each player's progress ends as their last
acknowledged save. ``nurikabe serve --workers 2`` killed with SIGKILL (its whole process
group) in the middle of saves loses at most the save in flight of each player.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

from tests.processes import alive, children
from tests.web.test_server import server

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.long

KEY = "10x10/17"
PLAYERS = [f"{n:032x}" for n in range(1, 7)]


def client_of(base: str, player: str, timeout: float = 30) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=timeout)
    client.cookies.set("nk_player", player)
    return client


def save(client: httpx.Client, seconds: int) -> int:
    """One save of the client's player whose `seconds` counts the saves; the status."""
    answer = client.put(
        f"/api/progress/{KEY}",
        json={"board": "?" * 100, "seconds": seconds, "moves": [f"r1c1=#{seconds}"[:16]]},
    )
    return answer.status_code


def stored(db: Path) -> dict[str, tuple[int, int]]:
    """Each player's saved seconds and how many rows they have for the puzzle."""
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    out = {}
    for player in PLAYERS:
        rows = conn.execute(
            "SELECT seconds FROM progress WHERE player = ? AND puzzle = ?", (player, KEY)
        ).fetchall()
        out[player] = (int(rows[-1][0]) if rows else -1, len(rows))
    conn.close()
    return out


def test_two_servers_on_one_database_lose_and_double_no_save(tmp_path: Path) -> None:
    db = tmp_path / "players.sqlite"
    with server(db) as (_, first), server(db) as (_, second):
        bases = [first, second]
        acknowledged: dict[str, int] = {}
        drafts: dict[str, list[int]] = {p: [] for p in PLAYERS}
        failures: list[str] = []

        def play(player: str) -> None:
            clients = [client_of(b, player) for b in bases]
            try:
                for n in range(1, 41):  # each save to the other server than the last
                    code = save(clients[n % 2], n)
                    if code != 200:
                        failures.append(f"{player} save {n}: {code}")
                        return
                    acknowledged[player] = n
                    if n % 8 == 0:
                        made = clients[(n // 8) % 2].post(
                            "/api/studio/drafts",
                            json={"name": f"d{n}", "rows": 3, "cols": 3, "clues": [[4, 1]]},
                        )
                        if made.status_code != 200:
                            failures.append(f"{player} draft {n}: {made.status_code}")
                            return
                        drafts[player].append(made.json()["id"])
            finally:
                for c in clients:
                    c.close()

        threads = [threading.Thread(target=play, args=(p,)) for p in PLAYERS]
        for t in threads:
            t.start()
        for t in threads:
            t.join(240)
        assert not failures, failures
        # each server sees what the other stored
        for base in bases:
            for player in PLAYERS:
                with client_of(base, player) as c:
                    progress = c.get(f"/api/puzzles/{KEY}").json()["progress"]
                    assert progress["seconds"] == 40
                    listed = c.get("/api/studio/drafts").json()["drafts"]
                    assert sorted(d["id"] for d in listed) == sorted(drafts[player])
    assert acknowledged == {p: 40 for p in PLAYERS}
    assert stored(db) == {p: (40, 1) for p in PLAYERS}
    every = [i for ids in drafts.values() for i in ids]
    assert len(every) == len(set(every)) == 5 * len(PLAYERS)


def test_sigkill_with_two_workers_loses_at_most_the_save_in_flight(tmp_path: Path) -> None:
    db = tmp_path / "players.sqlite"
    acknowledged = dict.fromkeys(PLAYERS, 0)
    sent = dict.fromkeys(PLAYERS, 0)
    stop = threading.Event()
    with server(db, own_group=True, args=("--workers", "2")) as (proc, base):

        def play(player: str) -> None:
            with client_of(base, player, timeout=10) as client:
                n = 0
                while not stop.is_set():
                    n += 1
                    sent[player] = n
                    try:
                        code = save(client, n)
                    except httpx.TransportError:
                        return
                    if code == 200:
                        acknowledged[player] = n
                    else:
                        return

        threads = [threading.Thread(target=play, args=(p,)) for p in PLAYERS]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while min(acknowledged.values()) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert min(acknowledged.values()) >= 20, acknowledged
        os.killpg(proc.pid, signal.SIGKILL)  # the server, its workers and their helpers
        stop.set()
        for t in threads:
            t.join(30)
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    final = stored(db)
    for player in PLAYERS:
        seconds, rows = final[player]
        assert rows == 1
        # the last acknowledged save, or the one in flight when the server died
        assert acknowledged[player] <= seconds <= sent[player], (player, seconds)
        assert sent[player] - acknowledged[player] <= 1

    with server(db) as (_, again), httpx.Client(base_url=again, timeout=30) as client:
        client.cookies.set("nk_player", PLAYERS[0])
        progress = client.get(f"/api/puzzles/{KEY}").json()["progress"]
        assert progress["seconds"] == final[PLAYERS[0]][0]


def test_the_workers_end_when_their_manager_is_killed(tmp_path: Path) -> None:
    """SIGKILL to the manager process of ``--workers 2`` alone (not its group): its
    server workers end too, instead of serving on as orphans holding the port."""
    with server(tmp_path / "players.sqlite", own_group=True, args=("--workers", "2")) as (
        proc,
        base,
    ):
        workers = children(proc.pid)
        assert len(workers) >= 2  # two servers (and multiprocessing's resource tracker)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(pid) for pid in workers)
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{base}/api/collections", timeout=5)
