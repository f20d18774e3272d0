"""The setter's studio in Debian's chromium against the real server: compose a small puzzle
clue by clue and watch the status go from no solution to several to unique while the forced
cells appear, show the witness, export and read back, save and reopen a draft, play it, and
a bad clue's message. Screenshots at 360 and 1280 px go to the test's temporary folder."""

from __future__ import annotations

from pathlib import Path

from nurikabe import Puzzle

# Composed clue by clue: no solution, then several, several, then one (tests/web/test_studio.py
# checks these answers against the brute-force oracle).
STEPS = [(0, 5), (8, 5), (20, 1), (23, 4)]


def open_studio(page, url: str, rows: int = 5, cols: int = 5) -> None:
    page.goto(f"{url}/studio")
    page.fill("#rows", str(rows))
    page.fill("#cols", str(cols))
    page.click("#new-grid")
    page.wait_for_selector(f'#board rect.cell[data-cell="{rows * cols - 1}"]')


def place(page, cell: int, value: int | None) -> None:
    page.click(f'#board rect.cell[data-cell="{cell}"]')
    page.keyboard.press("?" if value is None else str(value))


def status(page, expected: str) -> None:
    page.wait_for_selector(f'#status[data-status="{expected}"]')


def forced(page) -> int:
    return page.locator("#board rect.cell.forced-black, #board rect.cell.forced-white").count()


def test_compose_until_unique(page, server, tmp_path: Path) -> None:
    open_studio(page, server.url)
    expected = ["none", "multiple", "multiple", "unique"]
    counts = []
    for (cell, value), want in zip(STEPS, expected, strict=True):
        place(page, cell, value)
        status(page, want)
        counts.append(forced(page))
    assert counts[1] > 0 and counts[1] < counts[2] < counts[3] == 25
    assert page.locator("#board rect.cell.open").count() == 0
    page.wait_for_function("() => document.getElementById('grade').textContent.includes('Level')")
    walkthrough = page.get_attribute("#grade a", "href")
    assert walkthrough and walkthrough.startswith("/studio/walkthrough?")
    page.screenshot(path=str(tmp_path / "studio-1280.png"), full_page=True)

    # Back to several solutions: remove the last clue; open cells and the witness appear.
    page.click('#board rect.cell[data-cell="23"]')
    page.keyboard.press("Backspace")
    status(page, "multiple")
    assert page.locator("#board rect.cell.open").count() > 0
    page.click("#witness")
    assert page.locator("#board rect.cell.witness").count() > 0


def test_export_round_trip_and_drafts(page, server) -> None:
    open_studio(page, server.url)
    for cell, value in STEPS:
        place(page, cell, value)
    status(page, "unique")
    page.select_option("#format", "url")
    page.click("#export")
    page.wait_for_function(
        "() => document.getElementById('export-text').value.startsWith('https://')"
    )
    url = page.input_value("#export-text")
    assert Puzzle.from_url(url) == Puzzle(5, 5, dict(STEPS))

    page.fill("#draft-name", "five")
    page.click("#save")
    page.wait_for_selector("#draft-list option", state="attached")

    open_studio(page, server.url, 4, 4)  # a new, empty grid: no clues
    assert page.locator("#board text.clue").count() == 0
    page.fill("#export-text", url)
    page.click("#read")
    status(page, "unique")
    assert sorted(page.locator("#board text.clue").all_text_contents()) == ["1", "4", "5", "5"]

    open_studio(page, server.url, 4, 4)
    page.wait_for_selector("#draft-list option", state="attached")
    page.click("#load")
    status(page, "unique")
    assert page.input_value("#draft-name") == "five"

    page.click("#play")
    page.wait_for_url("**/#imported/*")
    page.wait_for_selector('#board rect.cell[data-cell="24"]')


def test_symmetry_and_bad_clue(page, server, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 360, "height": 780})
    open_studio(page, server.url)
    page.select_option("#symmetry", "rotate")
    place(page, 1, 3)
    clues = page.locator("#board text.clue").all_text_contents()
    assert sorted(clues) == ["3", "?"]
    page.click('#board rect.cell[data-cell="6"]')
    page.keyboard.press("9")
    page.keyboard.press("9")  # 99 on a 25-cell grid
    status(page, "error")
    assert "larger than the grid" in page.text_content("#status")
    page.screenshot(path=str(tmp_path / "studio-360.png"), full_page=True)


def test_a_busy_server_is_waited_for_not_shown_as_an_error(page, server) -> None:
    """An analysis answered 429 (over this setter's share) is sent again after the
    server's Retry-After, as the game's calls are: the status arrives, no error shows."""
    refused: list[str] = []
    retried: list[str] = []

    def busy_once(route) -> None:  # type: ignore[no-untyped-def]
        if "[0, 5]" not in (route.request.post_data or "").replace(",5", ", 5"):
            route.continue_()
        elif not refused:
            refused.append(route.request.url)
            route.fulfill(
                status=429,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body='{"ok": false, "error": {"code": "rate-limited", "message": "Slow down."}}',
            )
        else:
            retried.append(route.request.url)
            route.continue_()

    open_studio(page, server.url)
    page.route("**/api/studio/analyze", busy_once)
    place(page, 0, 5)
    for _ in range(200):  # the refusal, then the same draft again after Retry-After
        if retried:
            break
        page.wait_for_timeout(50)
    assert refused and retried
    status(page, "none")
    page.wait_for_timeout(300)  # the graded analysis that follows
    assert page.get_attribute("#status", "data-status") == "none"
