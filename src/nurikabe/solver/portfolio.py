"""The ``portfolio`` engine: the native search first, CP-SAT for what it leaves undecided.

Owns `PortfolioSearch`. The native engine (`solver.compiled`) decides almost every puzzle
in milliseconds, but on some sparse grids (few clues, big islands) it finds no solution
in many seconds where CP-SAT (`solver.cpsat`, ``cpsat-fast``) finds two in a few
(docs/solver.md, "Known limits"). So the native search runs on `NATIVE_SHARE` of the time
limit (and of the node limit); if it stops undecided, the puzzle goes to ``cpsat-fast``
for the time left (a node limit bounds only the native phase: CP-SAT's branches are
another unit), and the solutions of both are merged (each is a full solution, found
by an exact engine, so they are listed once each).

Both engines are exact, so the portfolio never changes an answer the native engine gives:
when the native search decides within its share, its solutions and status are the
answer; otherwise CP-SAT's proven answer, or UNKNOWN. Without OR-Tools, or with no time
limit (a node limit alone cannot bound a CP-SAT solve), the native search simply gets the
whole limit. Ctrl-C stops either phase (KeyboardInterrupt).

Imports `puzzle`, `solver.result`, `solver.compiled`; `solver.cpsat` (and so ``ortools``)
only when a search is handed over.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from dataclasses import replace

from ..puzzle import Board, Puzzle
from .compiled import CompiledSearch
from .result import Limit, SearchBase

__all__ = ["NATIVE_SHARE", "PortfolioSearch", "cpsat_available"]

NATIVE_SHARE = 0.25
"""The native search's share of the time (and node) limit before CP-SAT takes over."""


def cpsat_available() -> bool:
    """Whether OR-Tools is installed (the hand-over to CP-SAT is possible)."""
    try:
        return importlib.util.find_spec("ortools.sat.python.cp_model") is not None
    except ModuleNotFoundError:
        return False


class PortfolioSearch(SearchBase):
    """The native search on a share of `limit`, then ``cpsat-fast`` on the rest.

    Iterate `solutions()`; afterwards `complete`, `limit_hit`, `nodes` and `seconds`
    say how it went over both phases, `answered_by` names the engine whose search ended
    it (``native`` or ``cpsat-fast``) and `extra` holds each phase's seconds and nodes.
    `start` is a partial board of assumptions, given to both engines.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> s = PortfolioSearch(p, Limit(solutions=None))
    >>> len(list(s.solutions())), s.complete, s.answered_by
    (2, True, 'native')
    """

    engine = "portfolio"

    def __init__(self, puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> None:
        super().__init__(puzzle, limit, start=start)
        self.answered_by = "native"
        """The engine whose search ended the portfolio's: ``native`` or ``cpsat-fast``."""
        self.extra: dict[str, float] = {}
        """Seconds and nodes of each phase (``native_seconds``, ``cpsat_nodes``, ...)."""

    def _native_limit(self, hand_over: bool) -> Limit:
        limit = self.limit
        if not hand_over:
            return limit
        seconds = None if limit.seconds is None else NATIVE_SHARE * limit.seconds
        nodes = None if limit.nodes is None else max(1, int(NATIVE_SHARE * limit.nodes))
        return replace(limit, seconds=seconds, nodes=nodes)

    def solutions(self) -> Iterator[Board]:
        """Yield solution boards, each once, until the space or the limit runs out."""
        began = time.perf_counter()
        limit = self.limit
        wanted = limit.solutions
        hand_over = limit.seconds is not None and cpsat_available()
        seen: set[int] = set()
        native = CompiledSearch(self.puzzle, self._native_limit(hand_over), start=self.start)
        try:
            for board in native.solutions():
                seen.add(board.black_mask)
                yield board
        finally:
            self.extra["native_seconds"] = native.seconds
            self.extra["native_nodes"] = native.nodes
            self.nodes = native.nodes
            self.seconds = time.perf_counter() - began
        self.complete, self.limit_hit = native.complete, native.limit_hit
        if not hand_over or native.limit_hit not in ("seconds", "nodes"):
            return

        from .cpsat import FastCpSatSearch

        assert limit.seconds is not None  # hand_over
        left = max(0.0, limit.seconds - (time.perf_counter() - began))
        # CP-SAT's branches are no native nodes, and it checks a node limit only between
        # its solves: the time left bounds it.
        cpsat = FastCpSatSearch(
            self.puzzle, replace(limit, seconds=left, nodes=None), start=self.start
        )
        self.answered_by = cpsat.engine
        try:
            for board in cpsat.solutions():
                if board.black_mask in seen:
                    continue
                seen.add(board.black_mask)
                yield board
                if wanted is not None and len(seen) >= wanted:
                    # CP-SAT lists distinct solutions: with `wanted` of them found it
                    # would stop here too, so whether more exist is left open.
                    self.complete, self.limit_hit = False, "solutions"
                    return
            self.complete, self.limit_hit = cpsat.complete, cpsat.limit_hit
        finally:
            self.extra["cpsat_seconds"] = cpsat.seconds
            self.extra["cpsat_nodes"] = cpsat.nodes
            self.nodes = native.nodes + cpsat.nodes
            self.seconds = time.perf_counter() - began
