"""Progress bars for long jobs, on stderr (tqdm), quiet when stderr is not a terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


def _shown() -> bool:
    import os

    return sys.stderr.isatty() or os.environ.get("NURIKABE_PROGRESS") == "1"


def progress(items: Iterable[T], *, total: int | None = None, desc: str = "") -> Iterator[T]:
    """Iterate over `items` with a progress bar on stderr.

    The bar shows only when stderr is a terminal, or when NURIKABE_PROGRESS=1.
    """
    if not _shown():
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, total=total, desc=desc, file=sys.stderr, leave=False, unit="puzzle")


@contextmanager
def counter(total: int, *, desc: str = "", unit: str = "cell") -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr for work counted in units (the same rule as `progress`
    for when it shows): yields ``set_done(n)``, which moves the bar to `n` of `total`."""
    if not _shown():
        yield lambda done: None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, file=sys.stderr, leave=False, unit=unit) as bar:

        def set_done(done: int) -> None:
            bar.update(done - bar.n)

        yield set_done
