"""The newest request wins (issue 37, item 7): answers held back on purpose with Playwright's
routing arrive after a newer request's, and must not overwrite it. A collection switch's
load against an Open of a number, a hint or a check against the player's next step, a
busy answer's retry against a newer load, and settings saved in quick succession."""

from __future__ import annotations

import pytest

from tests.web.browser.harness import HeldAnswers, click_cell, open_puzzle

KEY = "10x10/0"


def other_collection(page) -> str:
    names = page.eval_on_selector_all("#collection option", "os => os.map(o => o.value)")
    others = [n for n in names if n != "10x10"]
    assert others, names
    return others[0]


def shown_key(page) -> str:
    return page.evaluate("() => window.nurikabe.game.key")


def test_open_of_a_number_wins_over_the_slower_collection_switch(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    other = other_collection(page)
    with HeldAnswers(page, f"**/api/puzzles/{other}/0") as held:
        page.select_option("#collection", other)  # opens <other>/0: its answer is held back
        held.wait_for(1)
        page.fill("#number", "3")
        page.click("#go")
        page.wait_for_function("k => window.nurikabe.game.key === k", arg=f"{other}/3")
        held.release()  # the switch's answer comes now, after the Open's
    page.wait_for_timeout(300)
    assert shown_key(page) == f"{other}/3"
    assert page.locator("#title").inner_text() == f"{other} #3"
    assert page.input_value("#number") == "3"
    assert page.locator("#message").inner_text() == ""  # an aborted load says nothing
    assert held.aborted == [f"{server.url}/api/puzzles/{other}/0"]


def test_hint_answer_after_moving_on_to_another_puzzle_is_dropped(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    with HeldAnswers(page, "**/api/hint") as held:
        page.click("#hint")
        held.wait_for(1)
        page.fill("#number", "1")
        page.click("#go")
        page.wait_for_function("() => window.nurikabe.game.key === '10x10/1'")
        held.release()
    page.wait_for_timeout(300)
    assert shown_key(page) == "10x10/1"
    assert page.evaluate("() => window.nurikabe.game.hint") is None
    assert page.locator("#board .hint, #board [class*='hint']").count() == 0
    assert page.locator("#message").inner_text() == ""
    assert len(held.aborted) == 1


def test_older_check_answer_does_not_overwrite_a_newer_hint(page, server) -> None:
    open_puzzle(page, server.url, "10x10/2")
    with HeldAnswers(page, "**/api/check") as held:
        page.click("#check")
        held.wait_for(1)
        page.click("#hint")  # asked later on the same board: its answer is the one to show
        page.wait_for_selector("#message.hint")
        hint_text = page.locator("#message").inner_text()
        held.release()
    page.wait_for_timeout(300)
    assert page.locator("#message").inner_text() == hint_text
    assert page.evaluate("() => window.nurikabe.game.hint !== null")
    # the hint still applies: the wand's second press plays it
    before = page.evaluate("() => window.nurikabe.game.board.history.length")
    page.click("#hint")
    assert page.evaluate("() => window.nurikabe.game.board.history.length") == before + 1
    assert len(held.aborted) == 1


def test_newer_check_wins_over_an_older_one_on_another_board(page, server) -> None:
    open_puzzle(page, server.url, "10x10/3")
    with HeldAnswers(page, "**/api/check", count=1) as held:
        page.click("#check")  # on the empty board: held back
        held.wait_for(1)
        click_cell(page, 0 if page.evaluate("() => !window.nurikabe.game.board.isClue(0)") else 1)
        page.click("#check")  # on the board with one move: answered at once
        page.wait_for_selector("#message.good, #message.error")
        newer = page.locator("#message").inner_text()
        held.release()
    page.wait_for_timeout(300)
    assert page.locator("#message").inner_text() == newer
    assert len(held.aborted) == 1


def test_busy_load_is_not_retried_once_a_newer_load_began(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    asked: list[str] = []

    def busy(route) -> None:
        asked.append(route.request.url)
        route.fulfill(
            status=503,
            headers={"Retry-After": "2", "Content-Type": "application/json"},
            body='{"ok": false, "error": {"code": "busy", "message": "busy"}}',
        )

    page.route("**/api/puzzles/10x10/5", busy)
    page.fill("#number", "5")
    page.click("#go")  # answered 503: the page waits 2 s to try again
    page.wait_for_timeout(200)
    page.fill("#number", "6")
    page.click("#go")
    page.wait_for_function("() => window.nurikabe.game.key === '10x10/6'")
    page.wait_for_timeout(2500)  # past the Retry-After: no second try, no message
    assert asked == [f"{server.url}/api/puzzles/10x10/5"]
    assert shown_key(page) == "10x10/6"
    assert page.locator("#message").inner_text() == ""


def test_settings_saved_in_quick_succession_end_with_the_newest(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    page.click("#settingsBox summary")
    was = page.is_checked("#showTimer")
    with HeldAnswers(page, "**/api/settings", method="PUT", count=1) as held:
        page.click("#showTimer")  # its PUT is held back
        held.wait_for(1)
        page.click("#showTimer")  # the newest: the box back as it was
        held.release()
    want = was
    page.wait_for_timeout(500)
    stored = page.evaluate("() => window.nurikabe.api.settings()")["settings"]
    assert stored["showTimer"] is want
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.is_checked("#showTimer") is want


def test_link_followed_while_the_page_starts_wins_over_the_first_puzzle(page, server) -> None:
    with HeldAnswers(page, "**/api/puzzles/10x10/4") as held:
        page.goto(f"{server.url}/#10x10/4")  # the first puzzle's answer is held back
        held.wait_for(1)
        page.wait_for_function("() => window.nurikabe !== undefined")  # the page listens
        page.evaluate("() => { location.hash = '#10x10/7'; }")
        page.wait_for_function("() => window.nurikabe.game.key === '10x10/7'")
        held.release()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_timeout(300)
    assert shown_key(page) == "10x10/7"
    assert page.locator("#title").inner_text() == "10x10 #7"
    assert page.input_value("#collection") == "10x10"
    assert page.input_value("#number") == "7"
    assert page.locator("#message").inner_text() == ""
    assert len(held.aborted) == 1


@pytest.mark.long
def test_new_puzzle_asked_for_wins_over_a_slower_open(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    with HeldAnswers(page, "**/api/puzzles/10x10/2") as held:
        page.fill("#number", "2")
        page.click("#go")
        held.wait_for(1)
        page.click("#freshGo")  # a new puzzle, asked for after the Open
        page.wait_for_function(
            "() => window.nurikabe.game.puzzle.collection === 'generated'", timeout=60_000
        )
        made = shown_key(page)
        held.release()
    page.wait_for_timeout(300)
    assert shown_key(page) == made
    assert page.locator("#shareLink").is_visible()
    assert len(held.aborted) == 1


def test_open_wins_over_a_slower_new_puzzle(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    with HeldAnswers(page, "**/api/fresh", method="POST") as held:
        page.click("#freshGo")
        held.wait_for(1)
        page.fill("#number", "8")
        page.click("#go")
        page.wait_for_function("() => window.nurikabe.game.key === '10x10/8'")
        held.release()
    page.wait_for_timeout(1500)  # past a poll of the wait, had it gone on
    assert shown_key(page) == "10x10/8"
    assert page.locator("#freshProgress").is_hidden()
    assert page.is_enabled("#freshGo")
    assert len(held.aborted) == 1
