"""The page's speed in Debian's chromium against the real server on localhost.

* load: from navigation to the board being clickable (the page's own mark, in ms since the
  navigation began, and the wall time from `goto` to a click that changed the board), each
  run in a fresh browser context (no cache, a new player);
* save: each move's round trip, from the click to the server's answer to its PUT progress,
  and whether the save of every move had finished before the next move was drawn when the
  moves come as fast as Playwright clicks (no human is that fast).

    .venv/bin/python bench/page.py [--runs 10] [--moves 30] [--key 10x10/0]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.browser.harness import cell_center, open_puzzle, served_browser  # noqa: E402

# Counts the saves in the page: when each move was drawn and when its save was answered.
PROBE = """() => {
  const g = window.nurikabe.game;
  window.bench = { drawn: [], saved: [] };
  const play = g.board.play.bind(g.board);
  g.board.play = (changes) => {
    const ok = play(changes);
    if (ok) window.bench.drawn.push(performance.now());
    return ok;
  };
  const onSaved = g.saves.onSaved;
  g.saves.onSaved = (key, answer) => {
    window.bench.saved.push(performance.now());
    onSaved(key, answer);
  };
}"""
RESET = "() => { window.bench.drawn = []; window.bench.saved = []; }"


def load_times(browser, url: str, key: str, runs: int) -> list[dict[str, float]]:
    out = []
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        page = context.new_page()
        start = time.perf_counter()
        page.goto(f"{url}/#{key}")
        page.wait_for_selector("body[data-ready='1']")
        clues = {c for c, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
        cell = next(c for c in range(100) if c not in clues)
        x, y = cell_center(page, cell)
        page.mouse.click(x, y)
        page.wait_for_function("c => window.nurikabe.game.board.cells[c] === '#'", arg=cell)
        clickable = (time.perf_counter() - start) * 1000
        ready = page.evaluate("() => window.nurikabe.readyAt")
        out.append({"ready_ms": ready, "click_ms": clickable})
        context.close()
    return out


def save_times(browser, url: str, key: str, moves: int) -> dict[str, object]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    open_puzzle(page, url, key)
    clues = {c for c, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    cells = [c for c in range(100) if c not in clues][:moves]
    page.evaluate(PROBE)
    # Paced like a quick player (one move per 150 ms): each save's round trip.
    for cell in cells:
        x, y = cell_center(page, cell)
        page.mouse.click(x, y)
        page.wait_for_timeout(150)
    page.wait_for_function("() => window.nurikabe.game.saves.pending === 0")
    paced = page.evaluate("() => window.bench")
    # As fast as the browser takes clicks: the saves queue up and go in order.
    page.evaluate(RESET)
    for cell in cells:
        x, y = cell_center(page, cell)
        page.mouse.click(x, y, button="right")
    page.wait_for_function("() => window.nurikabe.game.saves.pending === 0")
    burst = page.evaluate("() => window.bench")
    context.close()
    round_trips = [s - d for d, s in zip(paced["drawn"], paced["saved"], strict=True)]
    before_next = sum(
        1 for i in range(len(paced["drawn"]) - 1) if paced["saved"][i] <= paced["drawn"][i + 1]
    )
    burst_before = sum(
        1 for i in range(len(burst["drawn"]) - 1) if burst["saved"][i] <= burst["drawn"][i + 1]
    )
    gaps = [b - a for a, b in zip(burst["drawn"], burst["drawn"][1:], strict=False)]
    return {
        "moves": len(cells),
        "save_ms_median": statistics.median(round_trips),
        "save_ms_max": max(round_trips),
        "paced_saved_before_next": f"{before_next}/{len(cells) - 1}",
        "burst_gap_ms_median": statistics.median(gaps),
        "burst_saved_before_next": f"{burst_before}/{len(cells) - 1}",
        "burst_saves_answered": len(burst["saved"]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--key", default="10x10/0")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    with served_browser() as (server, browser):
        loads = load_times(browser, server.url, args.key, args.runs)
        saves = save_times(browser, server.url, args.key, args.moves)
    ready = [r["ready_ms"] for r in loads]
    click = [r["click_ms"] for r in loads]
    summary = {
        "key": args.key,
        "runs": args.runs,
        "ready_ms_median": statistics.median(ready),
        "ready_ms_max": max(ready),
        "click_ms_median": statistics.median(click),
        "click_ms_max": max(click),
        **saves,
    }
    print(f"load ({args.runs} fresh contexts, {args.key}):")
    print(f"  board ready    median {summary['ready_ms_median']:7.1f} ms  max {max(ready):7.1f} ms")
    print(f"  first click    median {summary['click_ms_median']:7.1f} ms  max {max(click):7.1f} ms")
    print(f"save ({saves['moves']} moves, one each 150 ms):")
    print(
        f"  round trip     median {saves['save_ms_median']:7.1f} ms"
        f"  max {saves['save_ms_max']:7.1f} ms;"
        f" saved before the next move: {saves['paced_saved_before_next']}"
    )
    print(
        f"  burst: a move each {saves['burst_gap_ms_median']:.1f} ms, saved before the next:"
        f" {saves['burst_saved_before_next']}, {saves['burst_saves_answered']} saves answered"
    )
    out = args.out or ROOT / "bench" / "results" / f"page-{date.today()}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
