"""Benchmark of new puzzles on demand (issue 37): a new puzzle from stock, and cheap work
while the stock refills.

Run as ``python bench/fresh.py`` (``--sizes 10:easy,15:medium,20:hard``, ``--repeats 8``).
Starts the real server (tests/web/browser/harness.py's `Server`, a temporary players'
database, the stock of each asked size filled first) and Debian's chromium, then:

1. New puzzle from stock, as a player sees it: click New puzzle, time until the new board
   is drawn (p50, p95), each request after the stock has refilled;
2. while the background maker makes a 20x20 hard puzzle: ``/api/check`` and ``/api/hint``
   on a 10x10 collection puzzle, 60 of each, timed server-side (the Server-Timing header).

Writes a JSON summary to bench/results/fresh-DATE.json. The targets: new puzzle p95 <= 1 s
for 10x10 and 15x15, <= 3 s for 20x20; hint and check p95 <= 20 ms while stock refills.
This script owns no library code.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.web.browser.harness import Server, launch_browser  # noqa: E402


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def _stock(url: str, rows: int, level: str) -> int:
    with urllib.request.urlopen(f"{url}/api/fresh") as r:
        for s in json.load(r)["stock"]:
            if s["rows"] == rows and s["level"] == level:
                return int(s["ready"])
    return 0


def _server_ms(response: Any) -> float:
    for part in response.headers.get("server-timing", "").split(","):
        if "dur=" in part:
            return float(part.split("dur=")[1])
    raise ValueError("no Server-Timing")


def _post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    response = urllib.request.urlopen(req)
    response.read()
    return response


def _click_ms(page: Any) -> float:
    before = page.evaluate("() => window.nurikabe.game.key")
    return float(
        page.evaluate(
            """(before) => new Promise((done) => {
                const t0 = performance.now();
                document.getElementById('freshGo').click();
                const wait = () => window.nurikabe.game.key !== before
                    ? requestAnimationFrame(() => done(performance.now() - t0))
                    : setTimeout(wait, 5);
                wait();
            })""",
            before,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10:easy,15:medium,20:hard", help="n:level,...")
    parser.add_argument("--repeats", type=int, default=8, help="new puzzles timed per size")
    args = parser.parse_args()
    sizes = [(int(n), level) for n, level in (s.split(":") for s in args.sizes.split(","))]
    out: dict[str, Any] = {"date": datetime.date.today().isoformat(), "new": [], "busy": {}}
    with tempfile.TemporaryDirectory() as tmp:
        stock = ",".join(f"{n}x{n}:{level}" for n, level in sizes)
        server = Server(Path(tmp) / "p.sqlite", stock=stock)
        server.start()
        try:
            for rows, level in sizes:
                began = time.monotonic()
                while _stock(server.url, rows, level) < 2:
                    time.sleep(1)
                print(
                    f"stock of {rows}x{rows} {level}: {time.monotonic() - began:.0f} s", flush=True
                )
            with sync_playwright() as pw:
                browser = launch_browser(pw)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(server.url)
                page.wait_for_selector("body[data-ready='1']")
                for rows, level in sizes:
                    page.select_option("#freshSize", str(rows))
                    page.select_option("#freshLevel", level)
                    times = []
                    for _ in range(args.repeats):
                        while _stock(server.url, rows, level) < 1:
                            time.sleep(0.5)
                        times.append(_click_ms(page) / 1000)
                    row = {
                        "size": f"{rows}x{rows}",
                        "level": level,
                        "n": len(times),
                        "p50": round(statistics.median(times), 3),
                        "p95": round(p95(times), 3),
                    }
                    out["new"].append(row)
                    print(
                        f"new {row['size']} {level} from stock: "
                        f"p50 {row['p50']} s, p95 {row['p95']} s"
                    )
                browser.close()
            _post(f"{server.url}/api/fresh", {"rows": 20, "cols": 20, "level": "hard"})
            time.sleep(2)
            board = "?" * 100
            for name in ("check", "hint"):
                ms = []
                for _ in range(60):
                    answer = _post(f"{server.url}/api/{name}", {"key": "10x10/0", "board": board})
                    ms.append(_server_ms(answer))
                    time.sleep(0.1)  # below a player's share (20 requests a second)
                out["busy"][name] = {"p50": statistics.median(ms), "p95": p95(ms), "n": len(ms)}
                print(
                    f"/api/{name} while the maker works: p50 {statistics.median(ms):.1f} ms, "
                    f"p95 {p95(ms):.1f} ms server-side"
                )
        finally:
            server.stop()
    path = ROOT / "bench" / "results" / f"fresh-{out['date']}.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
