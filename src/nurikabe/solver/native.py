"""The default exact engine, `native`: a thin driver around the compiled core `_csolve`.

Owns `NativeSearch`, which has the engine interface of `solver` (a generator of
solution boards under a `Limit`, then ``complete``, ``limit_hit``, ``nodes``,
``seconds``). The search itself (propagation, failed-literal probing, depth-first
search) is C code in ``_csolve.c``, built when the package is installed (the build is
required: setup.py stops with an install error without a C compiler); its module
docstring lists the rules, and docs/solver.md maps each to a logic technique.

Imports only `puzzle` and `solver.result`, plus the compiled module.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..puzzle import UNKNOWN_CLUE, Board, Puzzle
from . import _csolve
from .result import Limit, SearchBase

__all__ = ["LEARN", "LEARN_AFTER", "REASONS", "NativeSearch"]

_UNKNOWN, _BLACK, _WHITE = 0, 1, 2

LEARN = True
"""Whether `NativeSearch` learns from conflicts unless told (the core's nogoods over
decisions, restarts with saved phases), from node `LEARN_AFTER` of a search on; the
portfolio races a search that learns from the first node. docs/solver.md ("Figures of
learning") has the figures behind the choice. The developer variable
``NURIKABE_CSOLVE_OFF=learning`` turns learning off whatever is asked."""

LEARN_AFTER = 3000
"""With learning: the nodes a search first runs without it (the core's ``learn_after``);
learning starts once a search has visited that many. Every published puzzle we have is
proven in fewer (in all 8 orientations but one), so they keep the speed of a search
without learning, while a long search on a sparse grid gets restarts. 0: learning from
the first node."""

REASONS = False
"""With learning: whether the core's rules record reasons, so that a refuted leaf's nogood
is its decision cut rather than its whole decision path (the core's ``reasons``). Off:
the cuts are nearly the whole path and cost more to find ("Figures of learning" in
docs/solver.md); ``NURIKABE_CSOLVE_OFF=reasons`` turns them off whatever is asked."""


class NativeSearch(SearchBase):
    """Depth-first search for the solutions of `puzzle`, within `limit`, in compiled code.

    `start` is an optional partial board whose black and white cells are taken as given.
    Iterate `solutions()`; afterwards `complete`, `limit_hit`, `nodes` and `seconds` tell
    how it went. Ctrl-C interrupts it (KeyboardInterrupt) within a few milliseconds.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> s = NativeSearch(p, Limit(solutions=None))
    >>> sorted(str(b).replace("\\n", "/") for b in s.solutions()), s.complete
    (['.##/.#./##.', '..#/###/#..'], True)
    """

    engine = "native"

    def __init__(
        self,
        puzzle: Puzzle,
        limit: Limit,
        *,
        start: Board | None = None,
        lean: bool = False,
        learn: bool | None = None,
        learn_after: int | None = None,
    ) -> None:
        super().__init__(puzzle, limit, start=start)
        self.lean = lean
        """Branch first on the color whose probe decided fewer cells (the core's ``lean``
        order: finds solutions of sparse grids sooner, slower on some dense ones; off in
        the ``native`` engine, the portfolio races it)."""
        self.learn = LEARN if learn is None else learn
        """Learn from conflicts: nogoods over the decisions, restarts (the core's ``learn``;
        None: `LEARN`), from node `learn_after` on. The counts of solutions are the same
        either way."""
        self.learn_after = LEARN_AFTER if learn_after is None else max(0, learn_after)
        """With `learn`: the nodes searched before learning starts (None: `LEARN_AFTER`)."""
        self.propagations = 0
        """Propagations to a fixpoint (probes included)."""
        self.probes = 0
        """Cells probed both ways."""
        self.learned = 0
        """Nogoods learned (with `learn`)."""
        self.restarts = 0
        """Restarts (with `learn`)."""
        self._running: _csolve.Search | None = None
        self._cancelled = False

    def cancel(self) -> None:
        """Stop the search soon, from any thread (it runs without the GIL): `solutions()`
        then ends with ``limit_hit`` ``"cancelled"``."""
        self._cancelled = True
        core = self._running
        if core is not None:
            core.cancel()

    def _core(self) -> _csolve.Search:
        puzzle = self.puzzle
        grid = puzzle.grid
        size = grid.size
        cells = bytearray(size)
        if self.start is not None:
            for i in _bits(self.start.black_mask):
                cells[i] = _BLACK
            for i in _bits(self.start.white_mask):
                cells[i] = _WHITE
        clues = [(cell, -1 if v == UNKNOWN_CLUE else v) for cell, v in puzzle.clues.items()]
        limit = self.limit
        seconds = -1.0 if limit.seconds is None else max(0.0, float(limit.seconds))
        nodes = -1 if limit.nodes is None else max(0, int(limit.nodes))
        return _csolve.Search(
            grid.rows,
            grid.cols,
            clues,
            bytes(cells),
            seconds,
            nodes,
            strong=True,
            lean=self.lean,
            learn=self.learn,
            reasons=REASONS,
            learn_after=self.learn_after,
        )

    def solutions(self) -> Iterator[Board]:
        """Yield solution boards until the space or the limit runs out."""
        began = time.perf_counter()
        core = self._core()
        self._running = core
        if self._cancelled:
            core.cancel()
        wanted = self.limit.solutions
        found = 0
        puzzle = self.puzzle
        full = puzzle.grid.full
        try:
            if wanted is not None and wanted <= 0:
                self.limit_hit = "solutions"
                return
            while True:
                bits = core.next()
                if bits is None:
                    break
                black = int.from_bytes(bits, "little")
                found += 1
                self._tally(core, began)
                yield Board(puzzle, black, full & ~black)
                began = time.perf_counter()
                if wanted is not None and found >= wanted:
                    if core.pending:
                        self.limit_hit = "solutions"
                    else:
                        self.complete = True
                    return
            self.complete = bool(core.complete)
            if not self.complete:
                self.limit_hit = core.stop
        finally:
            self._tally(core, began)

    def _tally(self, core: _csolve.Search, began: float) -> None:
        self.seconds += time.perf_counter() - began
        self.nodes = core.nodes
        self.propagations = core.propagations
        self.probes = core.probes
        self.learned = core.learned
        self.restarts = core.restarts


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
