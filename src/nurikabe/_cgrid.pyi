"""Types of the compiled grid walks (see _cgrid.c)."""

from collections.abc import Callable, Mapping
from typing import TypeVar

_T = TypeVar("_T")

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

class Dilation:
    def __init__(self, cols: int, not_first_col: int, not_last_col: int, full: int) -> None: ...
    def __call__(self, mask: int) -> int: ...

def keep_shapes(
    shapes: list[int],
    alive: int | None,
    full: int,
    not_first_col: int,
    not_last_col: int,
    forbidden: int,
    held: int,
    white: int,
    black: int,
    dead: int,
    cols: int,
) -> int: ...
def sea_shapes(
    shapes: list[int],
    alive: int | None,
    full: int,
    not_first_col: int,
    not_last_col: int,
    black: int,
    dead: int,
    domain: int,
    base: int,
    cols: int,
) -> int: ...
def bottleneck(
    start: int,
    allowed: int,
    unknown: int,
    not_first_col: int,
    not_last_col: int,
    need: int,
    cols: int,
) -> int: ...
def reaches(
    start: int,
    allowed: int,
    blocked: int,
    target: int,
    not_first_col: int,
    not_last_col: int,
    steps: int,
    cols: int,
) -> bool: ...
def priced_reach(
    start: int,
    allowed: int,
    orphans: list[int],
    sizes: list[int],
    steps: int,
    not_first_col: int,
    not_last_col: int,
    cols: int,
) -> int: ...
def island_fields(
    masks: list[int],
    dils: list[int | None],
    unknown: int,
    free: int,
    not_first_col: int,
    not_last_col: int,
    full: int,
    cols: int,
) -> tuple[int, list[int], list[int], list[int], list[int]]: ...
def islands(
    cls: type[_T],
    masks: list[int],
    cells: list[int],
    values: Mapping[int, int],
    arounds: list[int],
    borders: list[int],
    forbiddens: list[int],
    alloweds: list[int],
    unbounded: int,
) -> list[_T]: ...
def pairwise(
    kept: list[int],
    others: list[list[int]],
    not_first_col: int,
    not_last_col: int,
    full: int,
    cols: int,
) -> int: ...
