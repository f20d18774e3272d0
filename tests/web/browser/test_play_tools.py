"""The play tools of puz.link's players in chromium against the real server: trial mode
(nested, drawn apart by shape, accepted or rejected, through undo and a reload)."""

from __future__ import annotations

import pytest

from tests.web.browser.harness import board_text, click_cell, open_puzzle, saved

KEY = "10x10/0"


def free_cells(page, n: int) -> list[int]:
    """The first `n` cells without a clue, none two in a row next to each other."""
    clues = {c for c, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}
    out: list[int] = []
    for cell in range(100):
        if cell not in clues and all(abs(cell - o) > 1 for o in out) and cell % 10 < 9:
            out.append(cell)
        if len(out) == n:
            return out
    raise AssertionError("no room")


def classes(page, cell: int) -> set[str]:
    return set(page.locator(f"#board rect.cell[data-cell='{cell}']").get_attribute("class").split())


def level(page) -> int:
    return int(page.evaluate("() => window.nurikabe.game.trialLevel"))


def test_trials_nest_accept_reject_undo_and_survive_a_reload(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    a, b, c, d, e = free_cells(page, 5)
    click_cell(page, a)
    assert page.locator("#accept").is_disabled() and page.locator("#reject").is_disabled()

    page.click("#trial")
    assert level(page) == 1 and page.locator("#trial").inner_text() == "Trial 1/3"
    click_cell(page, b)
    click_cell(page, c, button="right")
    assert {"black", "trial", "trial-1"} <= classes(page, b)
    assert "trial" not in classes(page, a)
    assert page.locator("#board .trial-frame").count() == 1  # shape, not colour alone
    assert page.locator("#board circle.dot.trial").count() == 1  # a ring for a trial dot

    page.click("#trial")
    click_cell(page, d)
    assert level(page) == 2 and "trial-2" in classes(page, d)
    page.click("#trial")
    assert level(page) == 3 and page.locator("#trial").is_disabled()
    click_cell(page, e)
    page.click("#reject")  # the third trial and its move go
    assert level(page) == 2 and board_text(page)[e] == "?"
    assert page.locator("#redo").is_disabled()
    page.click("#accept")  # the second's move joins the first trial
    assert level(page) == 1 and "trial-1" in classes(page, d)

    # undo takes the acceptance back, redo makes it again
    page.click("#undo")
    assert level(page) == 2 and "trial-2" in classes(page, d)
    page.click("#redo")
    assert level(page) == 1

    # kept across a reload: the board, the open trial and which cells are in it
    saved(page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board rect.cell")
    assert level(page) == 1
    assert {"trial-1"} <= classes(page, b) and {"trial-1"} <= classes(page, d)
    assert "trial" not in classes(page, a)

    page.click("#reject")  # the first trial: b, c, d go; a stays
    board = board_text(page)
    assert level(page) == 0 and board[a] == "#" and board[b] == board[c] == board[d] == "?"
    assert page.locator("#board .trial-frame").count() == 0
    saved(page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board rect.cell")
    assert level(page) == 0 and board_text(page) == board


def fills(page) -> dict[int, str]:
    """The computed fill of every black cell."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board rect.cell.black')]
            .map(r => [r.dataset.cell, getComputedStyle(r).fill]))"""
    )


def test_walls_in_their_own_colours_and_a_wall_highlighted(page, server) -> None:
    open_puzzle(page, server.url, "10x10/1")
    a, b, c, d = free_cells(page, 4)  # four cells not side by side: four walls
    for cell in (a, b, c, d):
        click_cell(page, cell)
    assert len(set(fills(page).values())) == 1  # plain: every wall black
    page.click("#settingsBox summary")
    page.check("#irowake")
    colours = fills(page)
    assert len(set(colours.values())) == 4
    # a wall keeps its colour across other moves; new colours on the button
    click_cell(page, d)  # d cleared: the others keep theirs
    after = fills(page)
    assert all(after[str(x)] == colours[str(x)] for x in (a, b, c))
    page.click("#recolour")
    assert fills(page) != after
    assert page.evaluate("() => window.nurikabe.game.settings.irowake") is True

    # Shift+click highlights the wall of a cell without playing it; the others are dimmed
    board = board_text(page)
    page.keyboard.down("Shift")
    click_cell(page, a)
    page.keyboard.up("Shift")
    assert board_text(page) == board
    lit = page.locator("#board rect.cell.black:not(.unlit)")
    assert lit.count() == 1 and lit.get_attribute("data-cell") == str(a)
    assert page.locator("#board .wall-outline").count() == 1
    # the Wall button does the same on a touch screen; a move ends the highlight
    page.click("#wallMode")
    click_cell(page, b)
    assert page.locator("#board rect.cell.black:not(.unlit)").get_attribute("data-cell") == str(b)
    assert board_text(page) == board
    page.click("#wallMode")
    click_cell(page, b)
    assert page.locator("#board .wall-outline").count() == 0 and board_text(page)[b] == "?"


def big_url(side: int = 40) -> str:
    """A side x side puzzle with one solution: a 1 on every cell of odd row and column (all
    else black: every 2x2 block holds one 1, and the sea is the even rows and columns)."""
    from nurikabe import Puzzle

    clues = {r * side + c: 1 for r in range(1, side, 2) for c in range(1, side, 2)}
    return Puzzle(side, side, clues).to_url()


def touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


@pytest.mark.long
def test_a_40x40_board_on_a_phone_zooms_pans_and_two_fingers_never_paint(browser, server) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']")
        answer = page.evaluate("u => window.nurikabe.api.importText(u)", big_url())
        page.goto(f"{server.url}/#{answer['key']}")
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function(f"() => window.nurikabe.game.key === '{answer['key']}'")
        assert page.evaluate("() => window.nurikabe.game.settings.mouse") == "cycle"
        first = page.locator("#board rect.cell[data-cell='0']").bounding_box()
        assert first is not None and first["width"] > 27.9, first  # zoomed in on a phone
        assert page.locator(".board-wrap").evaluate("w => w.scrollWidth > w.clientWidth")

        # one finger plays: a tap shades a cell, a drag paints a row
        x, y = first["x"] + first["width"] / 2, first["y"] + first["height"] / 2
        page.touchscreen.tap(x, y)
        assert board_text(page)[0] == "#"
        cdp = context.new_cdp_session(page)
        w = first["width"]
        touch(cdp, "touchStart", [(x, y + 2 * w)])
        touch(cdp, "touchMove", [(x + 2 * w, y + 2 * w)])
        touch(cdp, "touchEnd", [])
        assert board_text(page)[80:83] == "###"

        # two fingers: what the first painted is taken back, the cells grow, nothing painted
        before = board_text(page)
        history = page.evaluate("() => window.nurikabe.game.board.history.length")
        row = y + 4 * w
        touch(cdp, "touchStart", [(x, row)])
        touch(cdp, "touchMove", [(x + 2 * w, row)])
        assert board_text(page) != before  # the first finger painted, for now
        touch(cdp, "touchStart", [(x + 2 * w, row), (x + 4 * w, row)])
        touch(cdp, "touchMove", [(x + 1 * w, row), (x + 6 * w, row)])
        touch(cdp, "touchMove", [(x + 0.5 * w, row + w), (x + 7 * w, row + w)])
        touch(cdp, "touchEnd", [(x + 7 * w, row + w)])
        touch(cdp, "touchMove", [(x + 8 * w, row + 2 * w)])  # the finger left: still no paint
        touch(cdp, "touchEnd", [])
        assert board_text(page) == before
        assert page.evaluate("() => window.nurikabe.game.board.history.length") == history
        assert page.evaluate("() => window.nurikabe.game.board.future.length") == 0
        grown = page.locator("#board rect.cell[data-cell='0']").bounding_box()
        assert grown is not None and grown["width"] > w * 1.5
        assert page.evaluate("() => window.nurikabe.game.settings.cellSize") > 28

        # the buttons: smaller, then fitted again (never below 28 px on a touch screen)
        page.click("#zoomOut")
        smaller = page.locator("#board rect.cell[data-cell='0']").bounding_box()
        assert smaller is not None and smaller["width"] < grown["width"]
        page.click("#zoomFit")
        fitted = page.locator("#board rect.cell[data-cell='0']").bounding_box()
        assert fitted is not None and 27.9 < fitted["width"] < 29
        assert page.locator("#zoomSize").inner_text() == "28 px"
    finally:
        context.close()


def test_cell_size_buttons_on_a_desktop(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    fitted = page.locator("#board rect.cell[data-cell='0']").bounding_box()
    assert page.locator("#zoomSize").inner_text() == "fit"
    page.click("#zoomIn")
    bigger = page.locator("#board rect.cell[data-cell='0']").bounding_box()
    assert bigger["width"] > fitted["width"] * 1.2
    page.click("#zoomFit")
    assert page.locator("#zoomSize").inner_text() == "fit"


def clock(page) -> str:
    return page.locator("#clock").inner_text()


def test_pause_hides_the_board_and_stops_the_clock(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    page.wait_for_function("() => document.getElementById('clock').textContent !== '0:00'")
    page.click("#pause")
    assert page.locator("#pausedCover").is_visible()
    assert page.locator("#board").evaluate("b => getComputedStyle(b).visibility") == "hidden"
    stopped = page.evaluate("() => window.nurikabe.game.seconds")
    board = board_text(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("x")
    page.wait_for_timeout(1600)
    assert page.evaluate("() => window.nurikabe.game.seconds") == stopped
    assert board_text(page) == board
    page.click("#resume")
    assert page.locator("#pausedCover").is_hidden()
    assert page.locator("#board").evaluate("b => getComputedStyle(b).visibility") == "visible"
    page.wait_for_function(f"() => window.nurikabe.game.seconds > {stopped} + 0.9")


def test_a_complete_island_greys_its_number(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    ones = page.evaluate(
        "() => [...window.nurikabe.game.board.clues].filter(([c, v]) => v === 1).map(([c]) => c)"
    )
    one = ones[0]
    around = page.evaluate("c => window.nurikabe.game.board.neighbours(c)", one)
    page.click("#settingsBox summary")
    page.check("#greyComplete")
    clue = page.locator("#board text.clue").nth(
        sorted(page.evaluate("() => [...window.nurikabe.game.board.clues.keys()]")).index(one)
    )
    for cell in around[:-1]:
        click_cell(page, cell)
    assert "done" not in clue.get_attribute("class")
    click_cell(page, around[-1])
    assert "done" in clue.get_attribute("class")
    other = page.locator("#board text.clue:not(.done)").first
    assert clue.evaluate("t => getComputedStyle(t).fill") != other.evaluate(
        "t => getComputedStyle(t).fill"
    )
    page.uncheck("#greyComplete")
    assert page.locator("#board text.clue.done").count() == 0


def test_copy_the_puzzlink_url(browser, server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    try:
        page = context.new_page()
        open_puzzle(page, server.url, "15x15/2")
        page.click("#copyUrl")
        page.wait_for_selector("#message.good")
        url = page.evaluate("() => window.nurikabe.game.puzzle.url")
        assert url.startswith("https://puzz.link/p?nurikabe/15/15/")
        assert page.evaluate("() => navigator.clipboard.readText()") == url
    finally:
        context.close()
