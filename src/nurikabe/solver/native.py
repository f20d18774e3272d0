"""The default exact engine, `native`: a thin driver around the compiled core `_csolve`.

Owns `NativeSearch`, which has the engine interface of `solver` (a generator of
solution boards under a `Limit`, then ``complete``, ``limit_hit``, ``nodes``,
``seconds``). The search itself (propagation, failed-literal probing, depth-first
search) is C code in ``_csolve.c``, built when the package is installed (the build is
required: setup.py stops with an install error without a C compiler); its module
docstring lists the rules, and docs/solver.md maps each to a logic technique.

Imports only `puzzle`, `solver.result` and `solver.anneal`, plus the compiled module.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator

from ..puzzle import UNKNOWN_CLUE, Board, Puzzle
from . import _csolve
from .anneal import Annealer
from .result import Limit, SearchBase

__all__ = [
    "ANNEAL",
    "ANNEAL_SLICE",
    "FINDER",
    "FINDER_AFTER",
    "FINDER_SLICE",
    "LEARN",
    "LEARN_AFTER",
    "REASONS",
    "NativeSearch",
]

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


FINDER = True
"""Whether a search for a few solutions (``Limit.solutions`` set, no node limit) that has
found none within `FINDER_AFTER` nodes races a finder: a second search of the same
puzzle in the same thread, in turns of `FINDER_SLICE` nodes each, that learns from its
first node, tries the least constraining color first and restarts down other paths (the
core's ``lean``, ``learn`` and ``diversify``). Searches for a first solution of a sparse
grid have a heavy tail (one orientation of a random sparse 15x15 finds two solutions
in 129 nodes, its seven others none in 11,000), which the finder's restarts cut. A search that has a
solution by then is proving it unique, which depth-first search does best, so it goes on
alone. Either search's answer is the race's: a solution is handed back once, whichever
found it, and the first search to finish its whole space decides the count. Searches
with a node limit (the generator's checks) run alone, so that a budget means the same
tree as before. docs/solver.md ("The finder") has the figures."""

FINDER_AFTER = 2500
"""The nodes a search runs alone before a finder may join. Every published puzzle we
have, in each of its 8 orientations, has its solution sooner (janko-1091 at most 2,122,
1108 1,965), so none of them races."""

FINDER_SLICE = 64
"""The nodes of each turn of the race."""

ANNEAL = True
"""Whether the finder's race has a third runner: the annealer (`solver.anneal`), a local
search that changes one cell of a whole shading at a time and hands back the solutions
it meets. It cannot prove anything, only find: the count is still decided by the
depth-first searches. On sparse grids it meets two solutions where both depth-first
searches meet none (random sparse 15x15, seeds 0-11: all 12 within 5 s of CPU alone;
docs/solver.md, "The annealer"). Searches from a given partial board (`start`) and
puzzles with ``?`` clues race without it."""

ANNEAL_SLICE = 72
"""The annealer's moves in each turn of the race, per cell of the grid (16,200 on a
15x15, about as long as the two searches' turns together there): a node of the
searches costs more on a bigger grid, a move less so. On the sparse 20x20s (seeds 0-11,
30 s) 72 a cell (28,800 moves) decided the same 10 of 12 as 16,000 moves a turn, sooner
(seeds 0, 3, 8, 10: 11.3-22.2 s -> 8.7-16.1 s); the 15x15s are as with 16,000."""


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
        finder: bool | None = None,
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
        self.finder = FINDER if finder is None else finder
        """Race a finder after `FINDER_AFTER` nodes (None: `FINDER`); only searches for a
        few solutions without a node limit do."""
        self.propagations = 0
        """Propagations to a fixpoint (probes included)."""
        self.probes = 0
        """Cells probed both ways."""
        self.learned = 0
        """Nogoods learned (with `learn`)."""
        self.restarts = 0
        """Restarts (with `learn`)."""
        self._running: list[_csolve.Search] = []
        self._cancelled = False
        self._resumed = 0.0
        self._found = 0
        self.anneal_moves = 0
        """Moves the annealer tried (in a race with `ANNEAL`)."""

    def cancel(self) -> None:
        """Stop the search soon, from any thread (it runs without the GIL): `solutions()`
        then ends with ``limit_hit`` ``"cancelled"``."""
        self._cancelled = True
        for core in list(self._running):
            core.cancel()

    def _core(self, nodes: int | None = None, *, finder: bool = False) -> _csolve.Search:
        """The compiled search of this puzzle: within `nodes` (None: the limit's); a
        `finder` learns from its first node, leanly, with diversified restarts."""
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
        if nodes is None:
            nodes = -1 if limit.nodes is None else max(0, int(limit.nodes))
        core = _csolve.Search(
            grid.rows,
            grid.cols,
            clues,
            bytes(cells),
            seconds,
            nodes,
            strong=True,
            lean=self.lean or finder,
            learn=self.learn or finder,
            reasons=REASONS,
            learn_after=0 if finder else self.learn_after,
            diversify=finder,
        )
        self._running.append(core)
        if self._cancelled:
            core.cancel()
        return core

    def solutions(self) -> Iterator[Board]:
        """Yield solution boards until the space or the limit runs out."""
        self._resumed = time.perf_counter()
        wanted = self.limit.solutions
        race = self.finder and wanted is not None and self.limit.nodes is None
        self._running = []
        core = self._core(FINDER_AFTER if race else None)
        self._found = 0
        try:
            if wanted is not None and wanted <= 0:
                self.limit_hit = "solutions"
                return
            if (yield from self._hand_back(core)):
                return
            if race and core.stop == "nodes":
                if not self._found:
                    yield from self._race(core)
                    return
                core.extend(-1, self._left())  # it has a solution: a proof is on the way
                if (yield from self._hand_back(core)):
                    return
            self.complete = bool(core.complete)
            if not self.complete:
                self.limit_hit = core.stop
        finally:
            self._tally()

    def _race(self, main: _csolve.Search) -> Iterator[Board]:
        """`solutions()` on from `main`, stopped at `FINDER_AFTER` nodes without a
        solution: `main` and a finder in turns of `FINDER_SLICE` nodes."""
        left = self._left()
        deadline = None if left < 0 else time.perf_counter() + left
        finder = self._core(0, finder=True)
        annealer = self._annealer()
        seen: set[int] = set()  # the solutions handed back, which any may find again
        while True:
            if annealer is not None and (yield from self._hand_back_annealed(annealer, seen)):
                return
            for core in (main, finder):
                left = -1.0
                if deadline is not None:
                    left = deadline - time.perf_counter()
                    if left <= 0:
                        self.limit_hit = "seconds"
                        return
                core.extend(core.nodes + FINDER_SLICE, left)
                if (yield from self._hand_back(core, seen)):
                    return
                if core.stop == "nodes":
                    continue
                # this search has searched all it can: every solution of it was handed back
                self.complete = bool(core.complete)
                if not self.complete:
                    self.limit_hit = core.stop
                return

    def _annealer(self) -> Annealer | None:
        """The race's annealer, or None (`ANNEAL` off, a given start, ``?`` clues)."""
        if not ANNEAL or self.start is not None or not Annealer.applies(self.puzzle):
            return None
        return Annealer(self.puzzle)

    def _hand_back_annealed(
        self, annealer: Annealer, seen: set[int]
    ) -> Generator[Board, None, bool]:
        """One turn of the annealer: yield the solutions it meets that are not in `seen`
        (each is added); True once the limit's solutions are all handed back (the
        search stops there, more may exist) or the search was cancelled."""
        if self._cancelled:
            self.limit_hit = "cancelled"
            return True
        met = annealer.run(ANNEAL_SLICE * self.puzzle.grid.size)
        self.anneal_moves = annealer.moves
        for black in met:
            if (yield from self._hand_back_one(black, seen)):
                self.limit_hit = "solutions"
                return True
        return False

    def _hand_back(
        self, core: _csolve.Search, seen: set[int] | None = None
    ) -> Generator[Board, None, bool]:
        """Yield the solutions `core` finds, but those in `seen` (a race's: each found is
        added), until it stops; True once the limit's solutions are all handed back."""
        while (bits := core.next()) is not None:
            if (yield from self._hand_back_one(int.from_bytes(bits, "little"), seen)):
                self._enough(core)
                return True
        return False

    def _hand_back_one(self, black: int, seen: set[int] | None) -> Generator[Board, None, bool]:
        """Yield the solution with these black cells, unless `seen` (a race's) has it
        (then it is added); True once the limit's solutions are all handed back."""
        if seen is not None:
            if black in seen:
                return False
            seen.add(black)
        self._found += 1
        self._tally()
        puzzle = self.puzzle
        yield Board(puzzle, black, puzzle.grid.full & ~black)
        self._resumed = time.perf_counter()
        wanted = self.limit.solutions
        return wanted is not None and self._found >= wanted

    def _left(self) -> float:
        """The seconds the limit leaves from now (-1: no limit)."""
        seconds = self.limit.seconds
        if seconds is None:
            return -1.0
        spent = self.seconds + time.perf_counter() - self._resumed
        return max(0.0, seconds - spent)

    def _enough(self, core: _csolve.Search) -> None:
        """The search has handed back the solutions wanted, the last of them from `core`."""
        if core.pending:
            self.limit_hit = "solutions"
        else:
            self.complete = True

    def _tally(self) -> None:
        """Counts the time since `_resumed` and the cores' work into the counters."""
        now = time.perf_counter()
        self.seconds += now - self._resumed
        self._resumed = now
        cores = self._running
        self.nodes = sum(core.nodes for core in cores)
        self.propagations = sum(core.propagations for core in cores)
        self.probes = sum(core.probes for core in cores)
        self.learned = sum(core.learned for core in cores)
        self.restarts = sum(core.restarts for core in cores)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
