"""The real server (``nurikabe serve`` in a subprocess) over HTTP, killed with SIGKILL mid-game.

A killed server must lose at most the move in flight: every acknowledged save is in
the database file, the file passes SQLite's integrity check, and a new server on the
same file gives the player their board back.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from tests.processes import alive, children

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")


URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(
    db: Path, *, own_group: bool = False, args: tuple[str, ...] = ()
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A server on a free port (`own_group`: in a process group of its own, as a shell
    starts a command, so that a Ctrl-C can be sent to the group; `args`: more options
    of ``nurikabe serve``)."""
    port = free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(db.parent))
    proc = subprocess.Popen(
        [sys.executable, "-m", "nurikabe", "serve", "--port", str(port), "--db", str(db), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=own_group,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                assert proc.stderr is not None
                pytest.fail(f"the server ended: {proc.stderr.read().decode()}")
            try:
                if httpx.get(f"{base}/api/collections", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the server did not answer within 60 s")
            time.sleep(0.1)
        yield proc, base
    finally:
        if proc.poll() is None:
            if own_group:
                with suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
            proc.kill()
        proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()


@pytest.mark.long
def test_a_killed_server_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "players.sqlite"
    key = "10x10/17"
    with server(db) as (proc, base), httpx.Client(base_url=base, timeout=30) as client:
        puzzle = client.get(f"/api/puzzles/{key}").json()
        assert puzzle["progress"] is None
        player = client.cookies["nk_player"]
        solution = client.post("/api/solve", json={"key": key}).json()["solution"]
        clues = {cell for cell, _ in puzzle["clues"]}
        cells = [i for i in range(len(solution)) if i not in clues]
        board = ["." if i in clues else "?" for i in range(len(solution))]
        acknowledged = ""
        for n, cell in enumerate(cells[:30]):
            board[cell] = solution[cell]
            moves = [f"r{c // 10 + 1}c{c % 10 + 1}={solution[c]}" for c in cells[: n + 1]]
            text = "".join(board)
            saved = client.put(
                f"/api/progress/{key}", json={"board": text, "seconds": n, "moves": moves}
            )
            assert saved.status_code == 200 and saved.json()["ok"]
            acknowledged = text
        # One more move in flight, and the server killed under it.
        board[cells[30]] = solution[cells[30]]
        in_flight = "".join(board)

        def send() -> None:
            with suppress(httpx.TransportError):
                client.put(
                    f"/api/progress/{key}", json={"board": in_flight, "seconds": 30, "moves": []}
                )

        # An import starts the solver's process; it must not outlive the server.
        imported = client.post("/api/import", json={"text": URL})
        assert imported.status_code == 200
        helpers = children(proc.pid)
        assert helpers
        sender = threading.Thread(target=send)
        sender.start()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        sender.join(timeout=30)
        deadline = time.monotonic() + 20
        while any(alive(pid) for pid in helpers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(pid) for pid in helpers)

    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = conn.execute(
        "SELECT board FROM progress WHERE player = ? AND puzzle = ?", (player, key)
    ).fetchone()[0]
    conn.close()
    assert stored in (acknowledged, in_flight)

    with server(db) as (_, base), httpx.Client(base_url=base, timeout=30) as client:
        client.cookies.set("nk_player", player)
        progress = client.get(f"/api/puzzles/{key}").json()["progress"]
        assert progress["board"] == stored and not progress["solved"]
        other = httpx.get(f"{base}/api/puzzles/{key}", timeout=30).json()
        assert other["progress"] is None  # a new browser is a new player


def test_ctrl_c_stops_the_server_and_its_helpers_quietly(tmp_path: Path) -> None:
    """Ctrl-C in the terminal (SIGINT to the whole process group) once an import has
    started the solver's process and the studio its analysts: the server shuts down,
    every helper ends, and no helper prints a KeyboardInterrupt traceback (they did)."""
    with server(tmp_path / "players.sqlite", own_group=True) as (proc, base):
        with httpx.Client(base_url=base, timeout=30) as client:
            assert client.post("/api/import", json={"text": URL}).status_code == 200
            assert client.get("/studio").status_code == 200  # starts the analysts
        deadline = time.monotonic() + 30
        while len(children(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        helpers = children(proc.pid)
        assert len(helpers) >= 2  # the two workers of the expensive lane
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=20)
        assert proc.stderr is not None
        err = proc.stderr.read().decode()
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in helpers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in helpers)


def test_serve_refuses_a_database_it_cannot_use(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all " * 200)
    done = subprocess.run(
        [sys.executable, "-m", "nurikabe", "serve", "--port", str(free_port()), "--db", str(junk)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "junk.sqlite" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_names_a_damaged_database_in_one_line(tmp_path: Path) -> None:
    """The file is checked (quick_check) as the server starts: a players' database with
    a page overwritten ends the command with one line that says it is damaged."""
    from nurikabe.players import open_players

    db = tmp_path / "players.sqlite"
    players = open_players(db)
    for n in range(200):  # pages enough that one in the middle holds rows
        players.save_settings(f"{n:032x}", {"notes": "x" * 500})
    players.close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = DELETE")  # everything in the main file
    conn.close()
    data = bytearray(db.read_bytes())
    data[3 * 4096 : 3 * 4096 + 400] = b"\xa5" * 400
    db.write_bytes(bytes(data))
    done = subprocess.run(
        [sys.executable, "-m", "nurikabe", "serve", "--port", str(free_port()), "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "damaged" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_behind_a_proxy_the_cookie_is_secure_when_the_proxy_was_reached_over_https(
    tmp_path: Path,
) -> None:
    args = ("--proxy-headers", "--forwarded-allow-ips", "127.0.0.1")
    with server(tmp_path / "players.sqlite", args=args) as (_, base):
        over_https = httpx.get(
            f"{base}/api/settings", headers={"x-forwarded-proto": "https"}, timeout=30
        )
        assert "; Secure" in over_https.headers["set-cookie"]
        plain = httpx.get(f"{base}/api/settings", timeout=30)
        assert "Secure" not in plain.headers["set-cookie"]
        assert plain.headers["x-content-type-options"] == "nosniff"
    with server(tmp_path / "players.sqlite") as (_, base):  # no proxy trusted
        spoofed = httpx.get(
            f"{base}/api/settings", headers={"x-forwarded-proto": "https"}, timeout=30
        )
        assert "Secure" not in spoofed.headers["set-cookie"]


@pytest.mark.parametrize("option", [("--workers", "0"), ("--jobs", "100"), ("--port", "0")])
def test_serve_refuses_bad_numbers_in_one_line(option: tuple[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nurikabe", "serve", *option],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert option[0] in done.stderr
