"""Benchmark of the studio page: from a key press to the analysis shown, in chromium.

Run as ``python bench/studio_page.py``. The real server (`nurikabe serve`, a temporary
players database) and Debian's chromium; on the studio page, the first ``--puzzles`` 10x10
puzzles of the bundled collection are composed clue by clue (click the cell, type the
value, digit by digit), and for each edit the time from the last key press to
the status no longer pending is taken (the page's 120 ms debounce included). Target (issue
18): within 300 ms of the edit for a 10x10. Prints the median, p90, max and how many edits
took longer than 300 ms. This script owns no library code.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright import sync_api
from tests.web.browser.harness import Server, launch_browser

from nurikabe import collection as bundled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=8)
    args = parser.parse_args()
    conn = bundled.open_db(None, readonly=True)
    puzzles = [e.puzzle for e in bundled.entries(conn, collection="10x10")][: args.puzzles]
    conn.close()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "players.sqlite")
        server.start()
        try:
            with sync_api.sync_playwright() as playwright:
                browser = launch_browser(playwright)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(server.url + "/studio")
                page.wait_for_timeout(1500)  # the page starts the server's workers
                for puzzle in puzzles:
                    page.click("#new-grid")
                    for cell, value in puzzle.clues.items():
                        page.click(f'#board rect.cell[data-cell="{cell}"]')
                        digits = str(value) if value > 0 else "?"
                        for key in digits[:-1]:
                            page.keyboard.press(key)
                        began = page.evaluate("performance.now()")
                        page.keyboard.press(digits[-1])
                        page.wait_for_function(
                            "document.getElementById('status').dataset.status !== 'pending'"
                        )
                        times.append(page.evaluate("performance.now()") - began)
                        if times[-1] > 300:
                            print(
                                f"slow: {times[-1]:.0f} ms at clue {cell}={value}",
                                page.text_content("#status"),
                                page.text_content("#details"),
                            )
                browser.close()
        finally:
            server.stop()
    times.sort()
    slow = sum(t > 300 for t in times)
    print(
        f"{len(times)} edits: median {statistics.median(times):.0f} ms,"
        f" p90 {times[int(len(times) * 0.9)]:.0f} ms, max {times[-1]:.0f} ms,"
        f" {slow} over 300 ms"
    )


if __name__ == "__main__":
    main()
