"""Fixtures of the browser tests: the real server on a free port with a temporary players
database, and Debian's chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright import sync_api

from tests.web.browser.harness import CHROMIUM, Server, launch_browser


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`nurikabe serve` on a free port with a fresh players database, stopped afterwards."""
    with Server(tmp_path_factory.mktemp("players") / "players.sqlite") as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: 'make test' installs Debian's chromium")
    with sync_api.sync_playwright() as playwright:
        browser = launch_browser(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, server: Server) -> Iterator[object]:
    """A page of a fresh browser context (a new player: no cookie), at desktop width."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        context.close()
