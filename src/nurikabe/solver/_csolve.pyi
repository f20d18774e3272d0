"""Types of the compiled core `_csolve` (built from _csolve.c; see solver/compiled.py)."""

from collections.abc import Sequence

class Memo:
    """The fixpoints of states propagated before, shared by searches of one puzzle and
    configuration, one running at a time: it changes no answer and no count, only the time."""

    def __init__(self, max_bytes: int = 32 << 20) -> None: ...
    def stats(self) -> tuple[int, int, int, int]:
        """(hits, misses, entries held, times it started again empty)."""

class Search:
    """An exact search; with `cpu`, seconds are CPU seconds of the searching thread."""

    nodes: int
    propagations: int
    probes: int
    learned: int
    restarts: int
    jumps: int
    cut_literals: int
    path_literals: int
    @property
    def pending(self) -> bool: ...
    @property
    def stop(self) -> str | None: ...
    @property
    def complete(self) -> bool: ...
    def __init__(
        self,
        rows: int,
        cols: int,
        clues: Sequence[tuple[int, int]],
        start: bytes,
        seconds: float = -1,
        nodes: int = -1,
        cpu: bool = False,
        strong: bool = False,
        lean: bool = False,
        near: bytes | None = None,
        learn: bool = False,
        reasons: bool = False,
        learn_after: int = 0,
        diversify: bool = False,
        memo: Memo | None = None,
    ) -> None: ...
    def next(self) -> bytes | None: ...
    def extend(self, nodes: int, seconds: float = -1) -> None: ...
    def cancel(self) -> None: ...
    def _restart_stamps_at(self, limit: int) -> None: ...
