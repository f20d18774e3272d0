"""Progress bars for long jobs, on stderr (tqdm), quiet when stderr is not a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], *, total: int | None = None, desc: str = "") -> Iterator[T]:
    """Iterate over `items` with a progress bar on stderr.

    The bar shows only when stderr is a terminal, or when NURIKABE_PROGRESS=1.
    """
    import os

    show = sys.stderr.isatty() or os.environ.get("NURIKABE_PROGRESS") == "1"
    if not show:
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, total=total, desc=desc, file=sys.stderr, leave=False, unit="puzzle")
