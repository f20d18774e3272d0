"""Types of the compiled enumeration core (`_cenum.c`), for type checkers."""

from typing import Any

def census(
    rows: int, cols: int, max_clue: int, shards: int, shard: int, keep_correct: bool, /
) -> dict[str, Any]: ...
def shapes(n: int, /) -> list[tuple[int, int, int]]: ...
