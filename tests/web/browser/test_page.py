"""The game page in a real browser (Debian's chromium) against the real server: playing a
whole puzzle with clicks and drags, undo/redo, check, hints, import, progress kept across a
reload and a server restart, settings, and the page at phone and desktop widths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nurikabe import collection
from tests.web.browser.harness import (
    Server,
    board_text,
    cell_center,
    click_cell,
    drag_cells,
    open_puzzle,
    saved,
)

KEY = "10x10/0"
SMALL_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def solution_of(page, key: str) -> str:
    answer = page.evaluate("k => window.nurikabe.api.solve(k)", key)
    assert answer["status"] == "unique"
    return answer["solution"]


def runs(cells: list[int], cols: int) -> list[list[int]]:
    """Cells split into horizontal runs of neighbours in one row."""
    out: list[list[int]] = []
    for cell in sorted(cells):
        if out and out[-1][-1] == cell - 1 and cell % cols != 0:
            out[-1].append(cell)
        else:
            out.append([cell])
    return out


def test_whole_puzzle_solved_by_clicks_and_drags(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    solution = solution_of(page, KEY)
    clues = {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    black = [i for i, ch in enumerate(solution) if ch == "#"]
    white = [i for i, ch in enumerate(solution) if ch != "#" and i not in clues]
    # Dots by right-button drags along rows of white cells, black by drags and clicks.
    for run in runs(white, 10)[:4]:
        drag_cells(page, run, button="right")
    for run in runs(black, 10):
        if len(run) > 1:
            drag_cells(page, run)
        else:
            click_cell(page, run[0])
    saved(page)
    board = board_text(page)
    assert [i for i, ch in enumerate(board) if ch == "#"] == black
    page.wait_for_selector("#board.solved")
    assert "Solved" in page.locator("#message").inner_text()
    progress = page.evaluate("() => window.nurikabe.api.progress()")
    assert KEY in [s["key"] for s in progress["solved"]]
    page.click("#solvedBox summary")
    page.wait_for_selector(f"#solvedList a[data-key='{KEY}']")


def test_drag_first_cell_decides_and_clues_stay_white(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    # Row 2 (cells 10..19) holds a clue at cell 13: a drag across it never shades it.
    drag_cells(page, [10, 11, 12, 13, 14])
    assert board_text(page)[10:15] == "###?#"
    # A drag that starts on a black cell clears every cell it crosses.
    drag_cells(page, [11, 12, 13, 14, 15])
    assert board_text(page)[10:16] == "#???" + "??"
    assert page.evaluate("() => window.nurikabe.game.board.history.length") == 2


def test_undo_redo_with_buttons_and_keys(page, server) -> None:
    open_puzzle(page, server.url, "10x10/1")
    click_cell(page, 1)
    click_cell(page, 2, button="right")
    after = board_text(page)
    page.click("#undo")
    assert board_text(page)[2] == "?"
    page.keyboard.press("Control+z")
    assert board_text(page)[1] == "?"
    assert page.locator("#undo").is_disabled()
    page.keyboard.press("Control+y")
    page.click("#redo")
    assert board_text(page) == after
    assert page.locator("#redo").is_disabled()


def test_keyboard_play(page, server) -> None:
    open_puzzle(page, server.url, "10x10/2")
    clues = {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    # Walk to the first cell of row 3 that is no clue.
    target = next(c for c in range(20, 30) if c not in clues)
    page.locator("#board").focus()
    page.keyboard.press("ArrowRight")  # shows the cursor at r1c1
    for _ in range(2):
        page.keyboard.press("ArrowDown")
    for _ in range(target - 20):
        page.keyboard.press("ArrowRight")
    assert page.locator("#board rect.cursor").count() == 1
    page.keyboard.press("x")
    assert board_text(page)[target] == "#"
    page.keyboard.press(".")
    assert board_text(page)[target] == "."
    page.keyboard.press("Backspace")
    assert board_text(page)[target] == "?"
    page.keyboard.press("Space")
    assert board_text(page)[target] == "#"


def test_check_marks_a_mistake_and_reverts_to_before_it(page, server) -> None:
    key = "10x10/3"
    open_puzzle(page, server.url, key)
    solution = solution_of(page, key)
    clues = {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    black = [i for i, ch in enumerate(solution) if ch == "#"]
    white = [i for i, ch in enumerate(solution) if ch == "." and i not in clues]
    click_cell(page, black[0])  # right
    click_cell(page, white[0])  # the mistake: a white cell shaded
    click_cell(page, black[1])  # right, but after the mistake
    click_cell(page, black[2])
    before = board_text(page)
    page.click("#check")
    page.wait_for_selector("#board path.wrong")
    assert page.locator("#board path.wrong").count() == 1
    assert "wrong" in page.locator("#message").inner_text()
    assert board_text(page) == before  # check alone changes nothing
    page.click("#check")
    page.wait_for_function("() => !document.querySelector('#board path.wrong')")
    board = board_text(page)
    assert board[black[0]] == "#"
    assert board[white[0]] == board[black[1]] == board[black[2]] == "?"
    assert not page.locator("#redo").is_disabled()  # the reverted moves can come back
    page.click("#check")
    page.wait_for_selector("#message.good")


def test_hint_shown_then_applied_and_mistakes_first(page, server) -> None:
    key = "10x10/4"
    open_puzzle(page, server.url, key)
    solution = solution_of(page, key)
    page.click("#hint")
    page.wait_for_selector("#board text.hint-mark")
    marked = page.evaluate("() => window.nurikabe.game.hint.cells")
    assert marked
    assert page.locator("#board text.hint-mark").count() == len(marked)
    assert page.locator("#board rect.premise").count() >= 1
    assert "Press the wand again" in page.locator("#message").inner_text()
    assert board_text(page) == "?" * 100  # shown, not yet applied
    page.click("#hint")
    page.wait_for_function("() => !document.querySelector('#board text.hint-mark')")
    board = board_text(page)
    for cell, color in marked:
        assert board[cell] == ("#" if color == "black" else ".")
        assert (solution[cell] == "#") == (color == "black")
    # With a mistake on the board the wand shows the mistake instead of a hint.
    clues = {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    wrong = next(
        i for i, ch in enumerate(solution) if ch == "." and i not in clues and board[i] == "?"
    )
    click_cell(page, wrong)
    page.click("#hint")
    page.wait_for_selector("#board path.wrong")
    assert page.locator("#board text.hint-mark").count() == 0
    assert "No hint while mistakes stand" in page.locator("#message").inner_text()


def test_import_a_puzzlink_url(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    page.click("#importBox summary")
    page.fill("#importText", SMALL_URL)
    page.click("#importGo")
    page.wait_for_function("() => window.nurikabe.game.board.size === 25")
    assert page.locator("#title").inner_text().startswith("Imported")
    assert sorted(page.locator("#board text.clue").all_text_contents()) == ["1", "2", "3", "5"]
    # The imported puzzle plays like any other: solve it and see it complete.
    key = page.evaluate("() => window.nurikabe.game.key")
    solution = solution_of(page, key)
    for run in runs([i for i, ch in enumerate(solution) if ch == "#"], 5):
        drag_cells(page, run)
    page.wait_for_selector("#board.solved")
    # A malformed URL is told in one line, and the game goes on.
    if not page.locator("#importBox[open]").count():
        page.click("#importBox summary")
    page.fill("#importText", "https://puzz.link/p?nurikabe/5/5/%%%")
    page.click("#importGo")
    page.wait_for_selector("#message.error")
    assert page.evaluate("() => window.nurikabe.game.key") == key


@pytest.mark.long
def test_progress_survives_reload_and_server_restart(browser, tmp_path: Path) -> None:
    server = Server(tmp_path / "players.sqlite")
    server.start()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        open_puzzle(page, server.url, "10x10/5")
        drag_cells(page, [1, 2])
        click_cell(page, 5, button="right")
        saved(page)
        board = board_text(page)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert board_text(page) == board
        page.click("#undo")  # the history came back too
        assert board_text(page)[5] == "?"
        saved(page)
        page.click("#redo")
        saved(page)
        server.stop()
        server.start()
        page.goto(server.url)  # no key in the address: the last puzzle played
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate("() => window.nurikabe.game.key") == "10x10/5"
        assert board_text(page) == board
        page.click("#undo")
        page.click("#undo")
        assert board_text(page) == "?" * 100
    finally:
        context.close()
        server.stop()


def test_settings_kept_between_visits(page, server) -> None:
    open_puzzle(page, server.url, "10x10/6")
    page.click("#settingsBox summary")
    page.check("input[name='mouse'][value='white-left']")
    page.uncheck("#liveErrors")
    page.wait_for_timeout(200)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("() => window.nurikabe.game.settings.mouse") == "white-left"
    assert page.evaluate("() => window.nurikabe.game.settings.liveErrors") is False
    clues = {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    a, b = [c for c in range(10) if c not in clues][:2]
    click_cell(page, a)  # left: a dot in the desktop game's scheme
    click_cell(page, b, button="right")  # right: black
    assert board_text(page)[a] == "." and board_text(page)[b] == "#"
    x, y = cell_center(page, b)
    page.mouse.click(x, y, button="middle")  # middle: undo
    assert board_text(page)[b] == "?"


def test_live_errors_and_island_size(page, server) -> None:
    open_puzzle(page, server.url, "10x10/7")
    clues = {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    square = next(
        [c, c + 1, c + 10, c + 11]
        for c in range(89)
        if c % 10 < 9 and not {c, c + 1, c + 10, c + 11} & clues
    )
    drag_cells(page, square[:2])
    drag_cells(page, square[2:])
    assert page.locator("#board rect.cell.black.error").count() == 4  # a pool
    assert "pool" in page.locator("#broken").inner_text()
    page.click("#settingsBox summary")
    page.uncheck("#livePool")  # each kind of error is switched on its own
    assert page.locator("#board rect.cell.error").count() == 0
    page.check("#livePool")
    page.uncheck("#liveErrors")  # and all at once
    assert page.locator("#livePool").is_disabled()
    assert page.locator("#board rect.cell.error").count() == 0
    page.check("#liveErrors")
    page.click("#undo")
    assert page.locator("#board rect.cell.error").count() == 0

    # A dot next to a clue: the island's size is shown while building it.
    def near(cell: int) -> set[int]:
        r, c = divmod(cell, 10)
        return {
            (r + dr) * 10 + c + dc
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            if 0 <= r + dr < 10 and 0 <= c + dc < 10
        }

    beside = next(c for c in range(100) if c not in clues and len(near(c) & clues) == 1)
    click_cell(page, beside, button="right")
    assert page.locator("#board text.island-size").text_content() == "2"


def test_page_at_phone_and_desktop_widths(browser, server, tmp_path: Path) -> None:
    for width, height in [(360, 740), (1280, 860)]:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        try:
            open_puzzle(page, server.url, "15x15/0")
            page.click("#hint")
            page.wait_for_selector("#board text.hint-mark")
            shot = tmp_path / f"page-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            # Nothing wider than the screen; the board fits and its cells are big enough to tap.
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            box = page.locator("#board").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            cell = page.locator("#board rect.cell[data-cell='0']").bounding_box()
            assert cell is not None and cell["width"] >= (20 if width < 500 else 35)
            # At desktop width the controls sit beside the board, on a phone below it.
            tools = page.locator(".toolbar").bounding_box()
            assert tools is not None
            if width >= 1000:
                assert tools["x"] > box["x"] + box["width"]
            else:
                assert tools["y"] > box["y"] + box["height"] - 1
        finally:
            context.close()


def test_cycle_mode_and_finishing_islands(page, server) -> None:
    key = "10x10/8"
    open_puzzle(page, server.url, key)
    solution = solution_of(page, key)
    clues = dict(page.evaluate("() => [...window.nurikabe.game.board.clues]"))

    def near(cell: int) -> list[int]:
        r, c = divmod(cell, 10)
        steps = ((0, 1), (0, -1), (1, 0), (-1, 0))
        return [(r + dr) * 10 + c + dc for dr, dc in steps if 0 <= r + dr < 10 and 0 <= c + dc < 10]

    page.click("#settingsBox summary")
    page.check("input[name='mouse'][value='cycle']")
    free = next(c for c in range(100) if c not in clues and not set(near(c)) & set(clues))
    for expected in "#.?":  # one button cycles: black, dot, clear
        click_cell(page, free)
        assert board_text(page)[free] == expected
    # Finishing islands: a 1 is a whole island, so the next move walls every 1 in black.
    ones = [c for c, v in clues.items() if v == 1]
    assert ones
    page.check("#autoDots")
    click_cell(page, free)
    board = board_text(page)
    walls = {n for one in ones for n in near(one)}
    assert all(board[n] == "#" and solution[n] == "#" for n in walls)
    page.click("#undo")  # the marks belong to the move that caused them
    assert board_text(page) == "?" * 100
    # A dot that completes a 2 walls that island too.
    two = next(c for c, v in clues.items() if v == 2 and any(solution[n] == "." for n in near(c)))
    mate = next(n for n in near(two) if solution[n] == ".")
    click_cell(page, mate)  # cycle: black ...
    click_cell(page, mate)  # ... then dot
    board = board_text(page)
    for n in set(near(two) + near(mate)) - {two, mate}:
        assert board[n] == "#" and solution[n] == "#"


def test_show_solution_is_no_solve(page, server) -> None:
    key = "10x10/9"
    open_puzzle(page, server.url, key)
    click_cell(
        page,
        0 if 0 not in dict(page.evaluate("() => [...window.nurikabe.game.board.clues]")) else 1,
    )
    saved(page)
    mine = board_text(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#solution")
    page.wait_for_selector("#board.solved")
    solution = solution_of(page, key)
    clues = {c for c, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    board = board_text(page)
    assert all(board[i] == ("?" if i in clues else solution[i]) for i in range(100))
    saved(page)
    progress = page.evaluate("() => window.nurikabe.api.progress()")
    assert key not in [s["key"] for s in progress["solved"]]  # no best time from a shown solution
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert board_text(page) == mine
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#solution")
    page.wait_for_selector("#board.solved")
    page.click("#undo")
    assert board_text(page) == mine
    page.wait_for_selector("#board:not(.solved)")


def test_completion_is_celebrated(page, server, tmp_path: Path) -> None:
    open_puzzle(page, server.url, KEY)
    page.click("#importBox summary")
    page.fill("#importText", SMALL_URL)
    page.click("#importGo")
    page.wait_for_function("() => window.nurikabe.game.board.size === 25")
    key = page.evaluate("() => window.nurikabe.game.key")
    solution = solution_of(page, key)
    for run in runs([i for i, ch in enumerate(solution) if ch == "#"], 5):
        drag_cells(page, run)
    page.wait_for_selector("#celebrate:not([hidden])")
    page.screenshot(path=str(tmp_path / "solved.png"))
    assert "Solved in" in page.locator("#message").inner_text()
    assert page.locator("#best").inner_text().startswith("best ")


def test_touch_screen_taps_cycle(browser, server) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        open_puzzle(page, server.url, "10x10/10")
        assert page.evaluate("() => window.nurikabe.game.settings.mouse") == "cycle"
        clues = {c for c, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
        cell = next(c for c in range(100) if c not in clues)
        x, y = cell_center(page, cell)
        for expected in "#.?":
            page.touchscreen.tap(x, y)
            assert board_text(page)[cell] == expected
    finally:
        context.close()


def test_number_box_next_random_and_level_filter(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    page.fill("#number", "42")
    page.press("#number", "Enter")
    page.wait_for_function("() => window.nurikabe.game.key === '10x10/42'")
    assert page.locator("#title").inner_text() == "10x10 #42"
    assert page.url.endswith("#10x10/42")
    page.select_option("#levelFilter", "hard")
    page.click("#next")
    page.wait_for_function("() => window.nurikabe.game.key !== '10x10/42'")
    puzzle = page.evaluate("() => window.nurikabe.game.puzzle")
    assert puzzle["level"] == "hard" and puzzle["collection"] == "10x10"
    assert page.locator("#level").inner_text() == "hard"
    page.select_option("#levelFilter", "expert")
    page.click("#random")
    page.wait_for_function("() => window.nurikabe.game.puzzle.level === 'expert'")
    page.select_option("#collection", "15x15")
    page.wait_for_function("() => window.nurikabe.game.key === '15x15/0'")
    assert page.evaluate("() => window.nurikabe.game.board.size") == 225
    bundled = collection.open_db(collection.bundled_path(), readonly=True)
    counts = dict(collection.collections(bundled))
    bundled.close()
    assert page.get_attribute("#number", "max") == str(counts["15x15"] - 1)
    # An unknown number is told in one line; the puzzle stays.
    page.fill("#number", "4000")
    page.click("#go")
    page.wait_for_selector("#message.error")
    assert page.evaluate("() => window.nurikabe.game.key") == "15x15/0"
    # The address opens a puzzle too.
    page.goto(f"{server.url}/#20x20/3")
    page.wait_for_function("() => window.nurikabe.game?.key === '20x20/3'")


def test_menu_links_the_game_and_the_studio(page, server) -> None:
    open_puzzle(page, server.url, "10x10/0")
    page.click("#studio-link")
    page.wait_for_url(f"{server.url}/studio")
    page.wait_for_selector("#new-grid")
    assert page.locator("h1").text_content() == "Nurikabe studio"
    # The game writes the puzzle's key into the address as soon as it opens one, which
    # can be before the wait begins: either address is the game page.
    page.click("#play-link")
    page.wait_for_url(re.compile(re.escape(server.url) + r"/(#.*)?$"))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board rect.cell")
