"""Make the README's picture of the game: start the server on a temporary players database,
open a puzzle, play a few moves, ask for a hint, and save the page at desktop width.

    .venv/bin/python scripts/screenshot.py            # writes docs/screenshot.png
    .venv/bin/python scripts/screenshot.py -o x.png --key 10x10/12
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.browser.harness import (  # noqa: E402
    click_cell,
    drag_cells,
    open_puzzle,
    saved,
    served_browser,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--key", default="10x10/12", help="the puzzle to show (default 10x10/12)")
    parser.add_argument("--width", type=int, default=1180)
    parser.add_argument("--height", type=int, default=760)
    args = parser.parse_args(argv)

    with served_browser() as (server, browser):
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        open_puzzle(page, server.url, args.key)
        # A few right moves, taken from the solution: one drag of black cells, some dots.
        solution = page.evaluate("k => window.nurikabe.api.solve(k)", args.key)["solution"]
        clues = {c for c, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
        cols = page.evaluate("() => window.nurikabe.game.board.cols")
        for _ in range(3):  # the first steps, as a player who pressed the wand would
            page.click("#hint")
            page.wait_for_selector("#board text.hint-mark")
            page.click("#hint")
            page.wait_for_function("() => !document.querySelector('#board text.hint-mark')")
        start = next(
            c
            for c in range(len(solution) - 2)
            if c % cols <= cols - 3 and solution[c : c + 3] == "###"
        )
        drag_cells(page, [start, start + 1, start + 2])
        whites = [i for i, ch in enumerate(solution) if ch == "." and i not in clues]
        for cell in whites[:3]:
            click_cell(page, cell, button="right")
        saved(page)
        page.click("#hint")
        page.wait_for_selector("#board text.hint-mark")
        page.evaluate("() => document.activeElement.blur()")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(args.out))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
