"""The `Step` of the logic engine: what one deduction decides, why, and how to say it.

A step is the unit that hints, walkthroughs and grading share. It owns its cells as
two masks (the cells it makes black, the cells it makes white), the premises that
justify it, a sentence for people, and for trial steps the chain of steps that led
to the contradiction. Steps turn into `Move`s, so ``board.apply(step)`` works.

Imports only `grid` and `puzzle`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..grid import Grid, bits
from ..puzzle import CellSet, Color, Move

__all__ = ["KINDS", "Step", "cell_list", "name_cells"]

KINDS = ("deduction", "contradiction", "trial", "wrong-cells", "reveal")
"""The kinds of step: a plain deduction, a contradiction found while searching, a trial
(a cell proven by refuting its other color), a report of a player's wrong cells, and a
reveal (a cell copied from the solution when logic found no step: no deduction at all)."""


def name_cells(grid: Grid, mask: int, *, limit: int = 6) -> str:
    """People's names of the cells of `mask`: ``r1c2``, ``r1c2 and r3c4``, ``... and 5 more``."""
    names = [grid.name(i) for i in bits(mask)]
    if len(names) > limit:
        return f"{', '.join(names[: limit - 1])} and {len(names) - limit + 1} more"
    if len(names) <= 1:
        return names[0] if names else "no cell"
    return f"{', '.join(names[:-1])} and {names[-1]}"


def cell_list(grid: Grid, mask: int) -> list[list[int]]:
    """The cells of `mask` as 0-based ``[row, col]`` pairs (for JSON)."""
    return [list(grid.coords(i)) for i in bits(mask)]


@dataclass(frozen=True, eq=False)
class Step:
    """One step of a solve: the cells it decides, with their colors, and why.

    >>> from nurikabe import Puzzle
    >>> p = Puzzle.from_grid([[1, 0], [0, 0]])
    >>> step = Step("one-clue", p.grid, black_mask=0b0110, premise_mask=0b0001,
    ...             message="The 1 at r1c1 is a whole island, so r1c2 and r2c1 are black.")
    >>> step.color, len(step.cells), [str(m) for m in step.moves()]
    (<Color.BLACK: 1>, 2, ['r1c2=#', 'r2c1=#'])
    """

    technique: str
    """Stable kebab-case id of the technique (``trial`` for a trial step)."""
    grid: Grid = field(repr=False)
    """The geometry, for coordinates and names."""
    black_mask: int = 0
    """The cells this step makes black."""
    white_mask: int = 0
    """The cells this step makes white."""
    premise_mask: int = 0
    """The cells whose state justifies the step."""
    message: str = ""
    """One sentence for people, 1-based coordinates."""
    trial_depth: int = 0
    """0 for a plain step; the nesting depth of suppositions for a trial step."""
    kind: str = "deduction"
    """One of `KINDS`."""
    chain: tuple[Step, ...] = ()
    """For a trial step: the steps that followed from the supposition, up to the contradiction."""
    wrong_mask: int = 0
    """For a ``wrong-cells`` step: the cells the player has wrong (they are cleared by `moves`).
    For a ``contradiction`` step: the cells involved in it."""
    cases: int = 0
    """For a case split (tier 4): how many cases it split into (grading weighs it by that)."""

    @property
    def cells(self) -> tuple[tuple[int, Color], ...]:
        """The cells this step decides, in cell order, each with its color.

        For a ``wrong-cells`` step: the wrong cells, each with ``Color.UNKNOWN`` (clearing them).
        """
        out = [(i, Color.BLACK) for i in bits(self.black_mask)]
        out += [(i, Color.WHITE) for i in bits(self.white_mask)]
        if self.kind == "wrong-cells":
            out += [(i, Color.UNKNOWN) for i in bits(self.wrong_mask)]
        out.sort()
        return tuple(out)

    @property
    def mask(self) -> int:
        """Every cell this step decides (or, for ``wrong-cells``, reports)."""
        extra = self.wrong_mask if self.kind == "wrong-cells" else 0
        return self.black_mask | self.white_mask | extra

    @property
    def color(self) -> Color | None:
        """The color of the decided cells when they all share one, else None."""
        if self.black_mask and not self.white_mask:
            return Color.BLACK
        if self.white_mask and not self.black_mask:
            return Color.WHITE
        return None

    @property
    def premises(self) -> CellSet:
        """The cells that justify the step, as a set."""
        return CellSet(self.grid, self.premise_mask)

    @property
    def involved(self) -> CellSet:
        """For a contradiction or wrong-cells step, the cells involved."""
        return CellSet(self.grid, self.wrong_mask)

    def moves(self) -> Iterable[Move]:
        """The moves that play this step on a board."""
        for i, color in self.cells:
            r, c = self.grid.coords(i)
            yield Move(r, c, color)

    def to_json(self, *, detail: bool = False) -> dict[str, Any]:
        """The JSON form: technique, cells ``[r, c, "#"|"."]`` (0-based), premises, message,
        trial_depth. With `detail`, also the kind, and a trial's chain.

        A ``wrong-cells`` step is ``{"wrong_cells": [[r, c], ...]}``.
        """
        if self.kind == "wrong-cells":
            return {"wrong_cells": cell_list(self.grid, self.wrong_mask)}
        out: dict[str, Any] = {
            "technique": self.technique,
            "cells": [[*self.grid.coords(i), color.symbol] for i, color in self.cells],
            "premises": cell_list(self.grid, self.premise_mask),
            "message": self.message,
            "trial_depth": self.trial_depth,
        }
        if detail:
            out["kind"] = self.kind
            if self.cases:
                out["cases"] = self.cases
            if self.kind == "contradiction":
                out["involved"] = cell_list(self.grid, self.wrong_mask)
            if self.chain:
                out["chain"] = [s.to_json(detail=True) for s in self.chain]
        return out

    def __str__(self) -> str:
        return f"[{self.technique}] {self.message}"
