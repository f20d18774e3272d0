"""Types of the compiled grid walks (see _cgrid.c)."""

from collections.abc import Callable

def grow(region: int, within: int, west: int, east: int, cols: int, steps: int) -> int: ...
def components(mask: int, west: int, east: int, cols: int) -> list[int]: ...
def cells(mask: int) -> list[int]: ...
def shapes(
    rows: int,
    cols: int,
    start: int,
    allowed: int,
    need: int,
    cap: int,
    check: Callable[[], object] | None,
) -> list[int] | None: ...
def cuts(rows: int, cols: int, domain: int, black: int, root: int) -> int: ...
