"""The wand thinks on (game.js, THINK_ROUNDS): when the server's hint search runs out of
time, the page offers the cell from the solution at once and asks again, since the server
carries the search on from where it stopped; a real step replaces the offer, a press of
the wand takes the offer, a move ends the thinking, and after the last round the offer
stays with the whole search time said.

The server's answers that ran out of time are made here with Playwright's routing (a
real time-out depends on the machine's speed); the others come from the real server."""

from __future__ import annotations

import json
from contextlib import suppress

from tests.web.browser.harness import board_text, click_cell, open_puzzle

KEY = "10x10/4"


def solution_of(page, key: str) -> str:
    answer = page.evaluate("k => window.nurikabe.api.solve(k)", key)
    assert answer["status"] == "unique"
    return answer["solution"]


def clue_cells(page) -> set[int]:
    return {cell for cell, _ in page.evaluate("() => [...window.nurikabe.game.board.clues]")}


class TimedOut:
    """The page's hint requests: the first `count` answered as a search that ran out of its
    2 s (offering `cell` from the solution), the rest passed on to the server. With `hold`,
    each timed-out answer waits until `answer` sends it (a real one takes 2 s)."""

    def __init__(self, page, solution: str, cell: int, count: int, *, hold: bool = False) -> None:
        self.page = page
        self.count = count
        self.hold = hold
        self.asked = 0
        self.held: list = []
        color = "black" if solution[cell] == "#" else "white"
        self.body = json.dumps(
            {
                "ok": True,
                "kind": "step",
                "technique": "from-solution",
                "name": "From the solution",
                "message": "No rule found the next cell within 2 s (the search ran out of time).",
                "cells": [[cell, color]],
                "premises": [],
                "level": None,
                "reveal": "time",
                "searched": 2.0,
            }
        )
        page.route("**/api/hint", self._route)

    def _route(self, route) -> None:
        self.asked += 1
        if self.asked > self.count:
            route.continue_()
        elif self.hold:
            self.held.append(route)
        else:
            self._send(route)

    def _send(self, route) -> None:
        from playwright.sync_api import Error

        with suppress(Error):  # the page aborted it
            route.fulfill(status=200, content_type="application/json", body=self.body)

    def answer(self) -> None:
        """Wait for a held request (10 s at most) and send it its timed-out answer."""
        for _ in range(200):
            if self.held:
                self._send(self.held.pop(0))
                self.page.wait_for_timeout(100)
                return
            self.page.wait_for_timeout(50)
        raise AssertionError("no hint request came")


def wait_for_message(page, text: str) -> None:
    shown = "t => document.querySelector('#message').textContent.includes(t)"
    page.wait_for_function(shown, arg=text)


def unknown_cell(page, solution: str) -> int:
    clues = clue_cells(page)
    return next(i for i in range(len(solution)) if i not in clues)


def timed_out(page, server, *, count: int, hold: bool = False) -> tuple[str, int, TimedOut]:
    """`KEY` open, its solution, the first cell that is not a clue, and the page's hint
    requests answered as `TimedOut` says (offering that cell)."""
    open_puzzle(page, server.url, KEY)
    solution = solution_of(page, KEY)
    cell = unknown_cell(page, solution)
    return solution, cell, TimedOut(page, solution, cell, count, hold=hold)


def test_a_search_that_runs_out_of_time_goes_on_until_a_step_comes(page, server) -> None:
    solution, _, hints = timed_out(page, server, count=2)
    page.click("#hint")
    # The third ask reaches the server, whose step replaces the offer.
    wait_for_message(page, "Press the wand again to apply")
    assert hints.asked == 3
    assert page.locator("#board rect.premise").count() >= 1
    marked = page.evaluate("() => window.nurikabe.game.hint.cells")
    for cell, color in marked:
        assert (solution[cell] == "#") == (color == "black")
    assert board_text(page) == "?" * 100


def test_the_offer_stands_while_thinking_and_the_wand_takes_it(page, server) -> None:
    solution, cell, hints = timed_out(page, server, count=1000, hold=True)
    page.click("#hint")
    hints.answer()
    hints.answer()
    page.wait_for_selector("#message.thinking")
    assert "Still thinking" in page.locator("#message").inner_text()
    assert "4 s of search" in page.locator("#message").inner_text()
    assert page.locator("#board text.hint-mark").count() == 1
    page.click("#hint")  # take the offer while the third search goes on
    page.wait_for_function("() => !document.querySelector('#board text.hint-mark')")
    assert board_text(page)[cell] == solution[cell]
    hints.answer()  # the third search's answer comes too late: dropped
    page.wait_for_timeout(300)
    assert hints.asked == 3
    assert page.locator("#message.thinking").count() == 0
    assert page.locator("#board text.hint-mark").count() == 0


def test_after_the_last_round_the_offer_says_how_long_logic_searched(page, server) -> None:
    solution, cell, hints = timed_out(page, server, count=1000)
    rounds = page.evaluate("async () => (await import('/static/js/game.js')).THINK_ROUNDS")
    page.click("#hint")
    wait_for_message(page, "Press the wand again to reveal")
    assert hints.asked == rounds
    text = page.locator("#message").inner_text()
    assert f"in {2 * rounds} s of search" in text
    name = f"r{cell // 10 + 1}c{cell % 10 + 1}"
    assert name in text
    page.click("#hint")
    page.wait_for_function("() => !document.querySelector('#board text.hint-mark')")
    assert board_text(page)[cell] == solution[cell]


def test_a_move_while_thinking_ends_it(page, server) -> None:
    _, cell, hints = timed_out(page, server, count=1000, hold=True)
    page.click("#hint")
    hints.answer()
    page.wait_for_selector("#message.thinking")
    other = next(i for i in range(cell + 1, 100) if i not in clue_cells(page))
    click_cell(page, other)  # a move while the second search goes on
    assert page.locator("#message.thinking").count() == 0
    hints.answer()  # its answer is for the board before the move: dropped
    page.wait_for_timeout(300)
    assert hints.asked == 2
    assert page.locator("#message.thinking").count() == 0
    assert page.locator("#board text.hint-mark").count() == 0
