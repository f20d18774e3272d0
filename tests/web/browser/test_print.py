"""The page's Print section in a real browser against the real server: a run of a
collection and the player's solved puzzles downloaded as PDF booklets, read back."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader

from tests.web.browser.harness import HeldAnswers, open_puzzle

KEY = "15x15/4"


def downloaded(page, selector: str) -> tuple[str, PdfReader]:
    with page.expect_download() as info:
        page.click(selector)
    download = info.value
    data = Path(download.path()).read_bytes()
    assert data.startswith(b"%PDF-")
    return download.suggested_filename, PdfReader(io.BytesIO(data))


def test_print_section_downloads_booklets(page, server) -> None:
    open_puzzle(page, server.url, KEY)
    page.click("#printBox summary")
    assert page.locator("#printCollection").input_value() == "15x15"
    page.select_option("#printCollection", "10x10")
    page.select_option("#printLevel", "easy")
    page.fill("#printStart", "10")
    page.fill("#printCount", "3")
    page.select_option("#printPerPage", "1")
    page.select_option("#printPaper", "letter")
    page.fill("#printTitle", "Easy ones")
    page.fill("#printAuthor", "From the browser")
    href = page.get_attribute("#printDownload", "href")
    assert "collection=10x10" in href and "level=easy" in href and "count=3" in href

    name, pdf = downloaded(page, "#printDownload")
    assert name.startswith("nurikabe-10x10-easy-") and name.endswith(".pdf")
    assert len(pdf.pages) == 3 + 1  # one puzzle a page, then the solutions
    assert pdf.metadata.title == "Easy ones" and pdf.metadata.author == "From the browser"
    assert round(float(pdf.pages[0].mediabox.width)) == 612  # letter
    assert all(page_.extract_text().count("easy") == 1 for page_ in pdf.pages[:3])

    # No solved puzzle yet: the page says so and nothing is downloaded.
    page.click("#printSolved")
    page.wait_for_selector("#message.error")
    assert "solved list is empty" in page.locator("#message").inner_text()

    # Solve the puzzle on the board through the API, then print the solved list.
    solution = page.evaluate("k => window.nurikabe.api.solve(k)", KEY)["solution"]
    page.evaluate(
        "([k, b]) => fetch(`/api/progress/${k}`, {method: 'PUT', headers: {'Content-Type':"
        " 'application/json'}, body: JSON.stringify({board: b, seconds: 5})})",
        [KEY, solution],
    )
    page.uncheck("#printSolutions")
    name, pdf = downloaded(page, "#printSolved")
    assert name == "nurikabe-1-puzzle.pdf"
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    assert text.startswith("Easy ones") and "15×15" in text and "Solutions" not in text
    assert "Saved" in page.locator("#message").inner_text()


def test_a_second_click_replaces_the_booklet_being_made(page, server) -> None:
    """The booklet asked for first is held at the server's door while a second one is
    asked for: the first request is aborted, only the second booklet is saved, and a busy
    server (429) met on the way is waited out rather than shown as an error."""
    open_puzzle(page, server.url, KEY)
    page.click("#printBox summary")
    page.fill("#printCount", "2")
    page.select_option("#printPerPage", "1")
    refused: list[str] = []

    def busy_once(route) -> None:  # type: ignore[no-untyped-def]
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(
            status=429,
            headers={"Retry-After": "1", "Content-Type": "application/json"},
            body='{"ok": false, "error": {"code": "rate-limited", "message": "Slow down."}}',
        )

    downloads: list[str] = []
    page.on("download", lambda d: downloads.append(d.suggested_filename))
    with HeldAnswers(page, "**/api/print?*", count=1) as held:
        page.click("#printDownload")
        held.wait_for(1)
        page.fill("#printCount", "3")
        page.route("**/api/print?*count=3*", busy_once)
        with page.expect_download() as info:
            page.click("#printDownload")
        second = info.value
    assert held.aborted and "count=2" in held.aborted[0]
    assert refused and "count=3" in refused[0]
    pdf = PdfReader(io.BytesIO(Path(second.path()).read_bytes()))
    assert len(pdf.pages) == 3 + 1  # the second booklet: 3 puzzles, one a page, then the solutions
    page.wait_for_timeout(300)
    assert downloads == [second.suggested_filename]
    assert page.get_attribute("#printDownload", "aria-busy") is None
    assert "error" not in (page.get_attribute("#message", "class") or "")
