"""Benchmark of the server under a hostile client: honest hint and check latency while
one client floods studio analyses and imports of unknown puzzles.

Run as ``python bench/abuse.py`` (``--src PATH`` serves another source tree instead, for
a before/after comparison: a checkout of an older commit with its C extensions built).
Starts the real server (``nurikabe serve`` in a subprocess, on 127.0.0.1 and a free
port, a temporary players' database), then for ``--seconds``:

* ``--honest`` players (one cookie jar and one loopback address each), each asking for
  a hint and a check on its own 10x10 collection puzzle, ``--think`` seconds after the
  last answer;
* ``--hostile`` clients (1 by default), from the address ``--hostile-address`` (another
  loopback address, as a client of another machine would be), each sending waves of
  ``--flood`` requests at once, each wave as soon as the last is answered. What a wave
  holds is ``--attack``:

  - ``jobs`` (the default): studio analyses of sparse 40x40 drafts (a few clues: slow
    to settle) and as many imports of puzzles the server has not seen (bundled 15x15
    and 20x20 puzzles with every other clue made ``?``: slow to solve), one cookie;
  - ``hints``: hints on the empty board of the corpus's janko-0962, whose first step is
    a trial of about a second (imported once), one cookie;
  - ``players``: the same hints, each with a player id of its own (any well-formed id is
    a player: a client can make up as many as it likes).

Reports the honest requests' latency (p50, p95, max, as the client sees it), their
answers other than 200 and their rate, the hostile clients' answers by status, the CPU
the load generator took, and the server's process tree (resident memory, open file
descriptors, processes) at the start and the end of the load: what a soak watches. The
client runs on the same machine as the server, so the figures include its own load.
Writes a JSON summary to bench/results/abuse-DATE.json. This script owns no library code.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import itertools
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _quantiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "p50_ms": round(1000 * ordered[len(ordered) // 2], 1),
        "p95_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


def _tree(pid: int) -> dict[str, int]:
    """The server's process tree (Linux /proc): processes, resident MiB, open fds."""
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == p:
                    todo.append(int(stat.parent.name))
            except (OSError, ValueError, IndexError):
                continue
    rss = fds = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss += int(line.split()[1])
            fds += len(list(Path(f"/proc/{p}/fd").iterdir()))
        except OSError:
            continue
    return {"processes": len(pids), "rss_mib": rss // 1024, "fds": fds}


def _draft(rng: random.Random) -> dict[str, Any]:
    cells = rng.sample(range(1600), 4)
    return {"rows": 40, "cols": 40, "clues": [[c, rng.randint(2, 9)] for c in cells]}


def _unknown_puzzles() -> list[str]:
    """Puzzles the server has not seen, slow to solve: the bundled 15x15 and 20x20
    puzzles with every other clue made ``?``, as puzz.link URLs."""
    from nurikabe import Puzzle
    from nurikabe import collection as bundled

    conn = bundled.open_db(None, readonly=True)
    try:
        entries = [e for e in bundled.entries(conn) if e.collection in ("15x15", "20x20")]
    finally:
        conn.close()
    out = []
    for e in entries:
        clues = e.puzzle.clues.items()
        vague = {c: -1 if i % 2 else v for i, (c, v) in enumerate(clues)}
        out.append(Puzzle(e.puzzle.rows, e.puzzle.cols, vague).to_url())
    return out


HARD_HINT = "janko-0962"
"""The corpus puzzle of the hint attacks: its empty board's first step is a trial."""


def _hard_url(corpus: str) -> str:
    from nurikabe import Puzzle

    with open(corpus) as lines:
        for line in lines:
            doc = json.loads(line)
            if doc["id"] == HARD_HINT:
                clues = {r * doc["cols"] + c: v for r, c, v in doc["clues"]}
                return Puzzle(doc["rows"], doc["cols"], clues).to_url()
    raise SystemExit(f"{HARD_HINT} is not in {corpus}")


def run(args: argparse.Namespace) -> dict[str, Any]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    tmp = tempfile.mkdtemp(prefix="nk-abuse-")
    env = dict(os.environ, XDG_DATA_HOME=tmp)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    serve = [sys.executable, "-m", "nurikabe", "serve", "--port", str(port)]
    serve += ["--db", str(Path(tmp) / "players.sqlite"), *args.serve_args]
    proc = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/collections", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        before = _tree(proc.pid)
        samples: list[dict[str, int]] = []
        done = threading.Event()

        def watch() -> None:  # the server's tree every --sample seconds (a soak's watch)
            while not done.wait(args.sample):
                samples.append(_tree(proc.pid))

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        out = _load(base, args)
        done.set()
        out["server_before"], out["server_after"] = before, _tree(proc.pid)
        out["server_samples"] = samples
        return out
    finally:
        proc.kill()
        proc.wait()


def _load(base: str, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    stop = threading.Event()
    lock = threading.Lock()
    honest: dict[str, list[float]] = {"hint": [], "check": []}
    honest_bad: collections.Counter[str] = collections.Counter()
    hostile: collections.Counter[str] = collections.Counter()
    unknown = itertools.cycle(_unknown_puzzles())

    def player(n: int) -> None:
        # each honest player from a loopback address of its own (127.0.1.x), as players
        # of other machines are
        transport = httpx.HTTPTransport(local_address=f"127.0.{1 + n // 250}.{1 + n % 250}")
        with httpx.Client(base_url=base, timeout=30, transport=transport) as client:
            key = f"10x10/{n}"
            puzzle = client.get(f"/api/puzzles/{key}").json()
            clues = {c for c, _ in puzzle["clues"]}
            board = "".join("." if i in clues else "?" for i in range(100))
            while not stop.is_set():
                for kind in ("hint", "check"):
                    began = time.perf_counter()
                    try:
                        code = client.post(
                            f"/api/{kind}", json={"key": key, "board": board}
                        ).status_code
                    except httpx.TransportError:
                        code = 0
                    took = time.perf_counter() - began
                    with lock:
                        honest[kind].append(took)
                        if code != 200:
                            honest_bad[f"{kind} {code}"] += 1
                time.sleep(args.think)

    def wave(client: httpx.Client) -> None:
        def one(path: str, body: dict[str, Any]) -> None:
            try:
                code = str(client.post(path, json=body).status_code)
            except httpx.TransportError:
                code = "none"
            with lock:
                hostile[f"{path.rsplit('/', 1)[-1]} {code}"] += 1

        jobs = [("/api/studio/analyze", _draft(rng)) for _ in range(args.flood)]
        jobs += [("/api/import", {"text": next(unknown)}) for _ in range(args.flood)]
        threads = [threading.Thread(target=one, args=job) for job in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def hints(client: httpx.Client, own_players: bool) -> None:
        imported = client.post("/api/import", json={"text": _hard_url(args.corpus)})
        imported.raise_for_status()
        key = imported.json()["key"]
        clues = {c for c, _ in imported.json()["clues"]}
        area = imported.json()["rows"] * imported.json()["cols"]
        board = "".join("." if i in clues else "?" for i in range(area))

        def one() -> None:
            cookies = {"nk_player": os.urandom(16).hex()} if own_players else None
            try:
                answer = client.post(
                    "/api/hint", json={"key": key, "board": board}, cookies=cookies
                )
                code = str(answer.status_code)
            except httpx.TransportError:
                code = "none"
            with lock:
                hostile[f"hint {code}"] += 1

        while not stop.is_set():
            threads = [threading.Thread(target=one) for _ in range(args.flood)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()

    def attacker() -> None:
        transport = httpx.HTTPTransport(local_address=args.hostile_address)
        with httpx.Client(base_url=base, timeout=120, transport=transport) as client:
            if args.attack == "jobs":
                while not stop.is_set():
                    wave(client)
            else:
                hints(client, own_players=args.attack == "players")

    players = [threading.Thread(target=player, args=(n,)) for n in range(args.honest)]
    for t in players:
        t.start()
    time.sleep(1.0)  # the honest players are playing when the flood starts
    bad = [threading.Thread(target=attacker) for _ in range(args.hostile)]
    cpu = os.times()
    began = time.monotonic()
    for t in bad:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    for t in players:
        t.join()
    for t in bad:
        t.join()
    took = time.monotonic() - began
    used = os.times()
    return {
        "honest": {kind: _quantiles(v) for kind, v in honest.items()},
        "honest_errors": dict(honest_bad),
        "honest_per_second": round(sum(len(v) for v in honest.values()) / took, 1),
        "hostile": dict(sorted(hostile.items())),
        "seconds": round(took, 1),
        "load_generator_cpu_seconds": round(used.user + used.system - cpu.user - cpu.system, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="serve this source tree (default: the installed one)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--honest", type=int, default=5)
    parser.add_argument("--hostile", type=int, default=1)
    parser.add_argument("--flood", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--attack", choices=["jobs", "hints", "players"], default="jobs")
    parser.add_argument("--hostile-address", default="127.0.0.2", help="the hostile source")
    parser.add_argument(
        "--corpus",
        default=str(ROOT.parent.parent / "shared" / "corpus" / "puzzles.jsonl"),
        help="the corpus (for --attack hints and players)",
    )
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--label", default="", help="a name for the run in the summary")
    parser.add_argument("serve_args", nargs="*", help="more options of nurikabe serve")
    args = parser.parse_args()
    summary = {"label": args.label, "src": args.src, "attack": args.attack, **run(args)}
    print(json.dumps(summary, indent=2))
    out = ROOT / "results" / f"abuse-{datetime.date.today().isoformat()}.json"
    out.parent.mkdir(exist_ok=True)
    previous = json.loads(out.read_text()) if out.exists() else []
    out.write_text(json.dumps([*previous, summary], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
