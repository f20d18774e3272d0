"""Types of the compiled enumeration core (`_cenum.c`), for type checkers."""

from collections.abc import Sequence
from typing import Any

def census(
    rows: int,
    cols: int,
    max_clue: int,
    shards: int,
    shard_list: Sequence[int],
    keep_correct: bool,
    /,
) -> list[dict[str, Any]]: ...
def shapes(n: int, /) -> list[tuple[int, int, int]]: ...
