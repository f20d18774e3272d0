"""Every test of the server starts with ``NURIKABE_STOCK=off``: an app the tests make
generates no puzzle (a fuzzed request for a 25x25 would otherwise keep a core busy for
minutes); tests/web/test_fresh.py and the browser's server switch it on again."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NURIKABE_STOCK", "off")
