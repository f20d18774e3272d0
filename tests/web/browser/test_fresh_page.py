"""New puzzles on the page in chromium against the real server (which makes them in its
helper process): the New puzzle control with a custom size, the wait, the ID and the link
that gives another player the same puzzle, a solve that joins the solved list, the puzzle
of the day, and a puzz.link address opened from the page's address."""

from __future__ import annotations

import re

import pytest

from tests.web.browser.harness import board_text, click_cell, saved

ID = re.compile(r"^(\d+)x(\d+)-(easy|medium|hard|expert|extreme)-\d+-g\w+$")
WAIT = 120_000
"""Milliseconds the page may take to get a small puzzle made (a loaded machine)."""


def ready(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board rect.cell")


def cells(page) -> int:
    return page.locator("#board rect.cell").count()


@pytest.mark.long
def test_a_new_custom_puzzle_is_made_shared_and_solved(page, server, browser) -> None:
    ready(page, server.url)
    page.select_option("#freshSize", "custom")
    assert page.locator("#freshCustom").is_visible()
    page.fill("#freshRows", "5")
    page.fill("#freshCols", "6")
    page.select_option("#freshLevel", "easy")
    page.click("#freshGo")
    page.wait_for_function("() => window.nurikabe.game.key?.startsWith('generated/')", timeout=WAIT)
    assert cells(page) == 30
    ident = page.locator("#shareLink").inner_text()
    m = ID.match(ident)
    assert m and (m[1], m[2], m[3]) == ("5", "6", "easy"), ident
    assert page.locator("#title").inner_text() == "New 5x6"
    assert page.locator("#level").inner_text() == "easy"
    assert page.locator("#freshProgress").is_hidden()
    key = page.evaluate("() => window.nurikabe.game.key")
    link = page.locator("#shareLink").get_attribute("href")
    assert link == f"{server.url}/?id={ident}"

    # solve it by clicks: a solved puzzle of the player's list, with its best time
    solution = page.evaluate("k => window.nurikabe.api.solve(k)", key)["solution"]
    for cell, ch in enumerate(solution):
        if ch == "#":
            click_cell(page, cell)
    saved(page)
    page.wait_for_selector("#board.solved")
    page.click("#solvedBox summary")
    page.wait_for_selector(f"#solvedList a[data-key='{key}']")

    # the size and level are remembered; a reload opens the same puzzle with its ID
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("() => document.getElementById('shareLink').textContent.length > 0")
    assert page.locator("#shareLink").inner_text() == ident
    assert page.input_value("#freshSize") == "custom" and page.input_value("#freshCols") == "6"

    # Next on a generated puzzle: another new one of its size and level
    page.click("#next")
    page.wait_for_function(
        "k => window.nurikabe.game.key !== k && window.nurikabe.game.key.startsWith('generated/')",
        arg=key,
        timeout=WAIT,
    )
    assert cells(page) == 30 and page.locator("#shareLink").inner_text() != ident
    assert ID.match(page.locator("#shareLink").inner_text())[3] == "easy"

    # another player, through the link: the same puzzle, not solved by them
    other = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        them = other.new_page()
        them.goto(link)
        them.wait_for_selector("body[data-ready='1']")
        them.wait_for_function("k => window.nurikabe.game.key === k", arg=key, timeout=WAIT)
        assert them.locator("#shareLink").inner_text() == ident
        assert board_text(them) == "?" * 30
        assert "id=" not in them.url and them.url.endswith(f"#{key}")
    finally:
        other.close()


def test_the_puzzle_of_the_day_and_the_wait_shown(page, server) -> None:
    ready(page, server.url)
    page.click("#dailyGo")
    # the first player of the day may see the wait: a bar and the seconds so far
    page.wait_for_function(
        "() => window.nurikabe.game.key?.startsWith('generated/')"
        " || !document.getElementById('freshProgress').hidden",
        timeout=WAIT,
    )
    page.wait_for_function("() => window.nurikabe.game.key?.startsWith('generated/')", timeout=WAIT)
    assert page.locator("#title").inner_text().startswith("Puzzle of 20")
    assert cells(page) == 100
    assert ID.match(page.locator("#shareLink").inner_text())


@pytest.mark.long
def test_a_puzzlink_address_opens_that_puzzle(page, server) -> None:
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    for address in (f"{server.url}/?url={url}", f"{server.url}/p?nurikabe/5/5/g5k2o1k3g"):
        ready(page, address)
        page.wait_for_function("() => window.nurikabe.game.key?.startsWith('imported/')")
        assert page.evaluate("() => window.nurikabe.game.puzzle.url") == url
        assert cells(page) == 25
    ready(page, f"{server.url}/?url=https://puzz.link/p?nurikabe/2/2/9")
    assert "could not be opened" in page.locator("#message").inner_text()


@pytest.mark.long
def test_a_size_typed_before_the_offer_arrives_is_kept(page, server) -> None:
    """The server's offer refills the form; what the player typed before it came stays."""
    held: list = []

    def hold_the_offer(route) -> None:
        if route.request.method == "GET":
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/fresh", hold_the_offer)
    ready(page, f"{server.url}/#10x10/4")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page asks for the offer"
    page.select_option("#freshSize", "custom")
    page.fill("#freshRows", "9")  # the offer comes while the player is typing
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('#dailyGo').title.includes('UTC')")
    page.fill("#freshCols", "11")
    assert page.locator("#freshSize").input_value() == "custom"
    assert page.locator("#freshRows").input_value() == "9"
    assert page.locator("#freshCols").input_value() == "11"


@pytest.mark.long
def test_a_cold_start_shows_its_wait_and_can_be_left(page, server) -> None:
    """No stock of 9x11 hard: the page says it is making one, with a bar; Cancel, or
    opening another puzzle, leaves the shown puzzle as it is; asked again, it comes."""
    ready(page, f"{server.url}/#10x10/4")
    page.select_option("#freshSize", "custom")
    page.fill("#freshRows", "9")
    page.fill("#freshCols", "11")
    page.select_option("#freshLevel", "hard")
    page.click("#freshGo")
    page.wait_for_selector("#freshProgress:not([hidden])")
    assert page.locator("#freshText").inner_text().startswith("Making a new 9x11 hard puzzle")
    assert page.locator("#freshGo").is_disabled()
    page.click("#freshCancel")
    assert page.locator("#freshProgress").is_hidden() and page.locator("#freshGo").is_enabled()
    page.wait_for_timeout(1500)  # a wait left behind never opens its puzzle
    assert page.evaluate("() => window.nurikabe.game.key") == "10x10/4"
    # another puzzle opened while waiting ends the wait too (a size never made: no stock)
    page.fill("#freshRows", "11")
    page.fill("#freshCols", "9")
    page.click("#freshGo")
    page.wait_for_selector("#freshProgress:not([hidden])")
    page.click("#next")
    page.wait_for_function("() => window.nurikabe.game.key === '10x10/5'")
    page.wait_for_selector("#freshProgress", state="hidden")
    page.wait_for_timeout(1500)
    assert page.evaluate("() => window.nurikabe.game.key") == "10x10/5"
    page.click("#freshGo")
    page.wait_for_function("() => window.nurikabe.game.key?.startsWith('generated/')", timeout=WAIT)
    assert ID.match(page.locator("#shareLink").inner_text())
    assert cells(page) == 99
