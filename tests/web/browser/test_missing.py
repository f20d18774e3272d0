"""A link to a puzzle the server does not hold, in a real browser: the page opens another
puzzle and says in words which one was missing (a 404 from the API is not shown as it
came); the same for a number typed into the address later."""

from __future__ import annotations


def test_a_missing_puzzle_is_named_and_another_shown(page, server) -> None:
    page.goto(f"{server.url}/#20x20/999")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board rect.cell")
    message = page.locator("#message").inner_text()
    assert message == "This server has no puzzle 20x20 #999; here is 10x10 #0 instead."
    assert page.evaluate("() => window.nurikabe.game.key") == "10x10/0"

    page.evaluate("() => { location.hash = '10x10/4'; }")
    page.wait_for_function("() => window.nurikabe.game.key === '10x10/4'")
    page.evaluate("() => { location.hash = '15x15/777'; }")
    page.wait_for_function(
        "() => document.getElementById('message').textContent.includes('15x15 #777')"
    )
    assert page.locator("#message").inner_text() == "This server has no puzzle 15x15 #777."
    assert page.evaluate("() => window.nurikabe.game.key") == "10x10/4"  # left as it was
