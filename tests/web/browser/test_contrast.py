"""Dark mode and marks that do not rely on colour alone, in chromium: the contrast of every
text and every mark of the board, computed from the page's computed styles (WCAG 2
relative luminance), in the light and the dark theme, followed from the system
(``prefers-color-scheme``) or chosen in the settings.

Text must reach 4.5:1 against the background it is drawn on, marks 3:1 against the cell
(or the halo) under them; every error, hint and trial mark has a shape of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.browser.harness import open_puzzle

KEY = "10x10/0"


def _sections() -> dict[str, str]:
    text = (Path(__file__).parent / "contrast.js").read_text()
    parts = re.split(r"^// ---- (\w+)\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


_JS = _sections()
TEXTS = "() => {" + _JS["LUMINANCE"] + "return (" + _JS["TEXTS"] + ")(); }"
MARKS = "() => {" + _JS["LUMINANCE"] + "return (" + _JS["MARKS"] + ")(); }"
SETUP = _JS["SETUP"]


def check(page, theme: str) -> None:
    page.wait_for_timeout(400)  # the controls' colour transitions (0.15 s) after a theme change
    page.click("#settingsBox summary")
    page.click("#printBox summary")
    page.wait_for_timeout(400)  # as above, for the controls just shown
    texts = page.evaluate(TEXTS)
    assert len(texts) > 30
    low = [t for t in texts if t["ratio"] < 4.5]
    assert not low, f"{theme}: text below 4.5:1: {low}"
    page.evaluate(SETUP)
    marks = page.evaluate(MARKS)
    kinds = {m["what"].split(" ")[0] for m in marks}
    assert {"black", "dot", ".trial-frame", ".error-frame", ".premise-frame", "text"} <= kinds
    assert {"wrong", "wall", "cursor", "island"} <= kinds
    low = [m for m in marks if m["ratio"] < (4.5 if m["kind"] == "text" else 3.0)]
    assert not low, f"{theme}: marks below their contrast: {low}"
    classes = page.evaluate(
        "() => [...document.querySelectorAll('#board rect.cell.black')]"
        ".map(r => r.getAttribute('class'))"
    )
    assert len({c for c in classes if "wc" in c}) >= 2  # walls in their colours


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_contrast_when_the_system_asks(page, server, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    open_puzzle(page, server.url, KEY)
    background = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    assert (background == "rgb(21, 24, 29)") == (theme == "dark")
    check(page, theme)


def test_the_setting_overrides_the_system(page, server) -> None:
    page.emulate_media(color_scheme="light")
    open_puzzle(page, server.url, KEY)
    page.click("#settingsBox summary")
    page.select_option("#theme", "dark")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == (
        "rgb(21, 24, 29)"
    )
    page.wait_for_function("() => window.nurikabe.game.settings.theme === 'dark'")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    check(page, "dark (chosen)")  # opens the settings again
    page.select_option("#theme", "light")
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") != (
        "rgb(21, 24, 29)"
    )
