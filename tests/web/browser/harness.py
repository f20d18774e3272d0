"""The pieces the browser tests, the screenshot script and the page benchmark share: the
server in a subprocess on a free port, chromium launched the project's way (`served_browser`
gives both to a script), and helpers that play on the page (open a puzzle, click a cell,
read the board)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_browser(playwright):
    """Debian's chromium, headless, with no network of its own."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`nurikabe serve` in a subprocess; start() waits until it answers, stop() ends it."""

    def __init__(self, db: Path, port: int | None = None, stock: str = "") -> None:
        self.db = db
        self.port = port or free_port()
        self.stock = stock
        """``NURIKABE_STOCK`` of the server: by default it makes new puzzles when asked,
        and keeps no stock ahead."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        exe = Path(sys.executable).with_name("nurikabe")
        command = [str(exe)] if exe.exists() else [sys.executable, "-m", "nurikabe"]
        command += ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", str(self.db)]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "NURIKABE_STOCK": self.stock},
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped with code {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/collections", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not answer in time")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def served_browser() -> Iterator[tuple[Server, object]]:
    """For scripts: the server on a temporary players database and chromium, both stopped
    (and the database removed) when the block ends."""
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        Server(Path(tmp) / "players.sqlite") as server,
        sync_playwright() as playwright,
    ):
        browser = launch_browser(playwright)
        try:
            yield server, browser
        finally:
            browser.close()


# ---- playing on the page -----------------------------------------------------------------


def open_puzzle(page, base: str, key: str) -> None:
    """Load the page at `key` and wait until the board is drawn and the game ready."""
    page.goto(f"{base}/#{key}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board rect.cell")


def cell_center(page, cell: int) -> tuple[float, float]:
    box = page.locator(f"#board rect.cell[data-cell='{cell}']").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_cell(page, cell: int, button: str = "left") -> None:
    x, y = cell_center(page, cell)
    page.mouse.click(x, y, button=button)


def drag_cells(page, cells: list[int], button: str = "left") -> None:
    """Press on the first cell, move through the others in order, release on the last."""
    x, y = cell_center(page, cells[0])
    page.mouse.move(x, y)
    page.mouse.down(button=button)
    for cell in cells[1:]:
        x, y = cell_center(page, cell)
        page.mouse.move(x, y, steps=3)
    page.mouse.up(button=button)


def board_text(page) -> str:
    """The board as the page holds it: '#', '.' or '?' per cell."""
    return page.evaluate("() => window.nurikabe.game.board.toString()")


def saved(page) -> None:
    """Wait until every progress save has reached the server."""
    page.wait_for_function("() => window.nurikabe.game.saves.pending === 0")


class HeldAnswers:
    """Requests of the page matching `pattern` (a Playwright URL glob; of `method` only, if
    given; the first `count` only, if given) held back until release(): the server sees each
    then, so its answer arrives after any the page asked for meanwhile, unless the page has
    aborted it (the request's URL is then in `aborted`). A context manager: the rest are
    released and the route removed at its end."""

    def __init__(
        self, page, pattern: str, method: str | None = None, count: int | None = None
    ) -> None:
        self.page = page
        self.pattern = pattern
        self.method = method
        self.count = count
        self.held: list = []
        self.taken = 0
        self.aborted: list[str] = []
        self.released = False

    def _hold(self, route) -> None:
        request = route.request
        if (self.method and request.method != self.method) or (
            self.count is not None and self.taken >= self.count
        ):
            route.continue_()
            return
        self.taken += 1
        self.held.append(route)

    def _failed(self, request) -> None:
        if (
            any(route.request == request for route in self.held)
            and "ABORTED" in (request.failure or "").upper()
        ):
            self.aborted.append(request.url)

    def wait_for(self, n: int, timeout_ms: int = 10_000) -> None:
        """Wait until `n` requests are held."""
        for _ in range(timeout_ms // 50):
            if len(self.held) >= n:
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{len(self.held)} of {n} requests to {self.pattern} held")

    def release(self) -> None:
        """Let the held requests go on (an aborted one has nowhere to go), then give the page a
        moment to take their answers."""
        from playwright.sync_api import Error

        self.released = True
        for route in self.held:
            with suppress(Error):  # the page aborted it: there is no answer to send
                route.continue_()
        self.page.wait_for_timeout(200)

    def __enter__(self) -> HeldAnswers:
        self.page.on("requestfailed", self._failed)
        self.page.route(self.pattern, self._hold)
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.released:
            self.release()
        self.page.unroute(self.pattern, self._hold)
        self.page.remove_listener("requestfailed", self._failed)
