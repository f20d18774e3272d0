"""Benchmark of the game's server: API hint and check on 10x10 boards, and a load test.

Run as ``python bench/web.py`` (``make bench-web``). Two parts, both on a temporary
players' database:

* server side: the app in this process (FastAPI's TestClient, no network), asked for a
  hint and a check on every board along the hint walkthroughs of ``--puzzles`` 10x10
  puzzles of the bundled collection spread over the levels. The server-side time of a
  request is the app's own ``Server-Timing`` header (from the request's arrival in the
  ASGI app to the start of its answer: middleware, validation, the handler, JSON); the
  round trip through the TestClient (its threads included) is reported beside it.
  Target: median <= 20 ms for each.
* load: the real server (``nurikabe serve`` in a subprocess, on 127.0.0.1 and a free
  port), ``--players`` simulated players at once (httpx's async client, one cookie jar
  and one loopback address each), each playing ``--moves`` moves of its own puzzle:
  every move is a PUT progress then a POST check, the next move ``--think`` seconds
  after the last answer came (0.25 s by default, four moves a second, faster than
  people play; ``--think 0`` makes every player send its next request as soon as it
  has the answer: a stress test).
  Counts the errors (any answer but 200, or none within 30 s) and the latency of every
  request as the client sees it (and the server's own time from its header, and the
  server's CPU time per request, its worker processes included). Then checks that each
  player's progress is their last save. ``--workers 1,2`` runs the load test once per
  number of server processes (``nurikabe serve --workers N``), one after the other, to
  compare them side by side (``--load-only`` skips the in-process part). Target: no
  error, every save kept, p95 <= 100 ms. The
  client runs on the same machine as the server (2 cores), so the figures include its
  own load.

Writes a JSON summary to bench/results/web-DATE.json. This script owns no library code.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import httpx

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from nurikabe.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "count": len(values),
        "median_ms": round(1000 * statistics.median(ordered), 2),
        "p95_ms": round(1000 * p95, 2),
        "max_ms": round(1000 * ordered[-1], 2),
    }


def _server_ms(response: httpx.Response) -> float:
    """The app's own time from its ``Server-Timing: app;dur=<ms>`` header, in seconds."""
    return float(response.headers["server-timing"].split("dur=")[1]) / 1000


def _apply(board: str, cells: list[list[Any]]) -> str:
    out = list(board)
    for cell, color in cells:
        out[cell] = "#" if color == "black" else "."
    return "".join(out)


def server_side(puzzles: int, db: Path) -> dict[str, Any]:
    """Hint and check on every board of the hint walkthroughs of `puzzles` 10x10 puzzles."""
    hint_times: list[float] = []
    check_times: list[float] = []
    hint_trips: list[float] = []
    check_trips: list[float] = []
    # One client asks for every board as fast as it can: no per-player rate limit here.
    with TestClient(create_app(db, rate=1e6, burst=1e6)) as client:
        count = client.get("/api/collections").json()["collections"][0]["count"]
        keys = [f"10x10/{round(i * (count - 1) / max(1, puzzles - 1))}" for i in range(puzzles)]
        for key in keys:
            puzzle = client.get(f"/api/puzzles/{key}").json()
            board = _apply("?" * 100, [[c, "white"] for c, _ in puzzle["clues"]])
            for _ in range(100):
                body = {"key": key, "board": board}
                began = time.perf_counter()
                checked = client.post("/api/check", json=body)
                check_trips.append(time.perf_counter() - began)
                check_times.append(_server_ms(checked))
                began = time.perf_counter()
                hint = client.post("/api/hint", json=body)
                hint_trips.append(time.perf_counter() - began)
                hint_times.append(_server_ms(hint))
                assert checked.status_code == hint.status_code == 200
                step = hint.json()
                if step["kind"] != "step":
                    break
                board = _apply(board, step["cells"])
    return {
        "puzzles": keys,
        "hint": _quantiles(hint_times),
        "check": _quantiles(check_times),
        "hint_round_trip": _quantiles(hint_trips),
        "check_round_trip": _quantiles(check_trips),
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _player(
    base: str,
    number: int,
    moves: int,
    think: float,
    latencies: list[float],
    server: list[float],
    errors: list[str],
    cookies: dict[int, str],
) -> None:
    key = f"10x10/{number}"
    # each player from a loopback address of its own, as players of other machines are
    # (the server's per-address share would otherwise count all of them as one client)
    transport = httpx.AsyncHTTPTransport(
        local_address=f"127.0.{1 + number // 250}.{1 + number % 250}"
    )
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        puzzle = (await client.get(f"/api/puzzles/{key}")).json()
        cookies[number] = client.cookies["nk_player"]
        solution = (await client.post("/api/solve", json={"key": key})).json()["solution"]
        clues = {c for c, _ in puzzle["clues"]}
        cells = [i for i in range(100) if i not in clues]
        board = ["." if i in clues else "?" for i in range(100)]
        history: list[str] = []
        for n in range(moves):
            if think:
                await asyncio.sleep(think)
            cell = cells[n % len(cells)]
            board[cell] = solution[cell]
            history.append(f"r{cell // 10 + 1}c{cell % 10 + 1}={solution[cell]}")
            text = "".join(board)
            for method, url, body in (
                ("PUT", f"/api/progress/{key}", {"board": text, "seconds": n, "moves": history}),
                ("POST", "/api/check", {"key": key, "board": text}),
            ):
                began = time.perf_counter()
                try:
                    response = await client.request(method, url, json=body)
                    if response.status_code != 200:
                        errors.append(f"{method} {url}: {response.status_code}")
                    server.append(_server_ms(response))
                except httpx.HTTPError as exc:
                    errors.append(f"{method} {url}: {type(exc).__name__}")
                latencies.append(time.perf_counter() - began)


async def _load(
    base: str, players: int, moves: int, think: float
) -> tuple[list[float], list[float], list[str], float, int]:
    latencies: list[float] = []
    server: list[float] = []
    errors: list[str] = []
    cookies: dict[int, str] = {}
    began = time.perf_counter()
    await asyncio.gather(
        *(
            _player(base, 7 * i % 500, moves, think, latencies, server, errors, cookies)
            for i in range(players)
        )
    )
    took = time.perf_counter() - began
    return latencies, server, errors, took, await _saves_kept(base, moves, cookies)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time so far of a process and its children (Linux /proc: the
    server's worker processes with ``--workers``)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def _saves_kept(base: str, moves: int, cookies: dict[int, str]) -> int:
    """How many players' progress is their last save (seconds = moves - 1)."""
    kept = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for number, player in cookies.items():
            client.cookies.set("nk_player", player)
            got = (await client.get(f"/api/puzzles/10x10/{number}")).json()
            progress = got.get("progress") or {}
            kept += progress.get("seconds") == moves - 1
    return kept


def load_test(players: int, moves: int, think: float, db: Path, workers: int = 1) -> dict[str, Any]:
    """`players` players at once against the real server (`workers` processes), `moves`
    moves each; then whether each player's progress is their last save."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    serve = ["serve", "--port", str(port), "--db", str(db), "--workers", str(workers)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "nurikabe", *serve],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/collections", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        cpu_before = _cpu_seconds(proc.pid)
        client_before = time.process_time()
        latencies, server, errors, seconds, kept = asyncio.run(
            asyncio.wait_for(_load(base, players, moves, think), timeout=600)
        )
        server_cpu = _cpu_seconds(proc.pid) - cpu_before
        client_cpu = time.process_time() - client_before
    finally:
        proc.kill()
        proc.wait(timeout=10)
    return {
        "workers": workers,
        "players": players,
        "saves_kept": kept,
        "moves_each": moves,
        "think_seconds": think,
        "requests": len(latencies),
        "errors": len(errors),
        "first_errors": errors[:5],
        "seconds": round(seconds, 2),
        "requests_per_second": round(len(latencies) / seconds, 1),
        "server_cpu_ms_per_request": round(1000 * server_cpu / len(latencies), 2),
        "client_cpu_ms_per_request": round(1000 * client_cpu / len(latencies), 2),
        "latency": _quantiles(latencies),
        "server_side": _quantiles(server),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=10, help="10x10 puzzles walked (server side)")
    ap.add_argument("--players", type=int, default=50, help="simulated players at once")
    ap.add_argument("--moves", type=int, default=20, help="moves per player")
    ap.add_argument("--think", type=float, default=0.25, help="seconds between a player's moves")
    ap.add_argument(
        "--workers",
        default="1",
        help="server processes of the load test; a list (1,2) runs one load test for each,"
        " one after the other",
    )
    ap.add_argument("--load-only", action="store_true", help="skip the in-process part")
    ap.add_argument("--out", default=None, help="JSON summary (default results/web-DATE.json)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        inside = {} if args.load_only else server_side(args.puzzles, Path(tmp) / "bench.sqlite")
        for name in ("hint", "check", "hint_round_trip", "check_round_trip"):
            if name not in inside:
                continue
            q = inside[name]
            print(
                f"in process  {name:16}  {q['count']:4} boards  median {q['median_ms']:6.2f} ms"
                f"  p95 {q['p95_ms']:6.2f} ms  max {q['max_ms']:7.2f} ms"
            )
        loads = []
        for workers in [int(w) for w in args.workers.split(",")]:
            db = Path(tmp) / f"load-{workers}.sqlite"
            load = load_test(args.players, args.moves, args.think, db, workers)
            loads.append(load)
            q = load["latency"]
            print(
                f"load  {workers} server process(es), {load['players']} players x"
                f" {load['moves_each']} moves, {load['think_seconds']} s apart:"
                f" {load['requests']} requests in {load['seconds']} s"
                f" ({load['requests_per_second']}/s), {load['errors']} errors,"
                f" {load['saves_kept']}/{load['players']} last saves kept,"
                f" median {q['median_ms']} ms, p95 {q['p95_ms']} ms, max {q['max_ms']} ms"
                f" (server's own time: median {load['server_side']['median_ms']} ms,"
                f" p95 {load['server_side']['p95_ms']} ms; server CPU"
                f" {load['server_cpu_ms_per_request']} ms a request, client CPU"
                f" {load['client_cpu_ms_per_request']} ms)"
            )
        load = loads[0] if len(loads) == 1 else {"runs": loads}
    summary = {
        "date": datetime.date.today().isoformat(),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
        "load_average": list(os.getloadavg()),
        "server_side": inside,
        "load": load,
    }
    out = Path(args.out or ROOT / "results" / f"web-{summary['date']}.json")
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"summary: {out}")
    return 0 if all(run["errors"] == 0 for run in loads) else 1


if __name__ == "__main__":
    sys.exit(main())
