"""The rule checker: which Nurikabe rules a board breaks, with stable codes and the cells.

This module owns `check` and its ordered rule table `RULES`, the `Violation`
record, `is_solved`, and `wrong_cells` (the game's red marks: a board compared
with the solution).

`check` follows the pzprjs answer checker (formats.md 2.1): the same order, one
stable kebab-case code per rule, and every offending area of a rule flagged. On a
full check, unknown cells count as white, so a board with nothing marked white but
its black cells right is solved (dots are only an aid to the player). The codes,
in the order they are checked:

========================  ==========================================================
``clue-shaded``           a clue cell is black (one violation per cell)
``pool``                  a 2x2 block of black cells (one violation per connected
                          group of such blocks, flagging each of their cells)
``island-no-clue``        a white area holds no clue (one per area)
``sea-split``             the black cells are not connected: pzprjs flags only one
                          black component; we flag every component but the largest
                          (the first of the largest, in cell order, when tied), one
                          violation each, so that the flagged cells are those cut off
                          from the main sea
``island-two-clues``      an island holds two or more clues (one per island)
``island-size``           an island's size differs from its clue (one per island;
                          ``?`` clues and islands with several clues are exempt)
========================  ==========================================================

Modes: ``"first"`` (pzprjs's default) stops after the first rule that reports
anything; ``"all"`` (pzprjs's ``multierr``) runs every rule. ``"partial"`` is for
boards still being solved: it runs every rule but reports only what is wrong
whatever the unknown cells become, so it never flags a board whose decided cells
agree with some solution. There a clue cell counts as white unless shaded, and:

- ``clue-shaded`` and ``pool`` are as in a full check (black cells stay black);
- ``island-no-clue`` flags the white cells whose white-or-unknown area holds no
  clue (no filling connects them to one);
- ``sea-split`` flags the black cells of each black-or-unknown component but the
  one with the most black cells, when two such components hold black cells (the
  sea can no longer join up);
- ``island-two-clues`` flags white areas already joining two clues;
- ``island-size`` flags an island already bigger than its clue, and the
  white-or-unknown area around a clue when it is smaller than the clue (an island
  closed off too small is the case with no unknown cell in it).

This module is the definition of the rules for every front end. The game page checks the
player's board itself, as the player goes, with ``src/nurikabe/web/static/js/rules.js``:
a port of `check` with the same codes, modes, cells and messages, whose live marks are
``check(puzzle, board, mode="partial")`` (what ``/api/check`` answers too). The cases in
``tests/data/rules_cases.json`` (a board, a mode, the codes and cells expected; format in
``tests/rules_cases.py``) run through both, so a change to a rule here goes there too, with
its case.

Imports only `grid` and `puzzle`.

>>> from nurikabe.puzzle import Puzzle, Board
>>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 1]])
>>> board = Board.from_rows(p, ["2.#", "##?", "##1"])
>>> [v.code for v in check(p, board)], [v.code for v in check(p, board, mode="all")]
(['pool'], ['pool', 'sea-split', 'island-size'])
>>> for violation in check(p, Board.from_rows(p, ["2.#", "#.#", "##1"]), mode="all"):
...     print(violation)
sea-split: The black cells r1c3 and r2c3 are cut off from the main sea (3 cells at r2c1).
island-size: The island of the 2 at r1c1 has 3 cells.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from .grid import Grid, bits, lowest
from .puzzle import UNKNOWN_CLUE, Board, CellSet, Puzzle

__all__ = [
    "CODES",
    "MODES",
    "RULES",
    "Mode",
    "Rule",
    "Violation",
    "check",
    "is_solved",
    "violation_mask",
    "wrong_cells",
]

Mode = Literal["first", "all", "partial"]
MODES: tuple[str, ...] = ("first", "all", "partial")
"""The values `check` accepts for ``mode``."""


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable code, the cells to highlight and a sentence for people.

    >>> from nurikabe.grid import Grid
    >>> v = Violation("pool", CellSet(Grid.of(2, 3), 0b011011), "A 2x2 pool.")
    >>> v.coords(), v.to_json()["code"]
    ([[0, 0], [0, 1], [1, 0], [1, 1]], 'pool')
    """

    code: str
    """The rule's stable kebab-case id (see `CODES`)."""
    cells: CellSet
    """The offending cells."""
    message: str
    """An English sentence naming the cells 1-based (``r3c4``)."""

    @property
    def mask(self) -> int:
        """The offending cells as a mask."""
        return self.cells.mask

    def coords(self) -> list[list[int]]:
        """The offending cells as 0-based ``[row, col]`` pairs, in cell order (for JSON)."""
        return [[r, c] for r, c in self.cells.coords()]

    def to_json(self) -> dict[str, object]:
        """``{"code": ..., "cells": [[r, c], ...], "message": ...}``."""
        return {"code": self.code, "cells": self.coords(), "message": self.message}

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class _State:
    """What every rule reads: the puzzle's geometry and the board split into masks."""

    __slots__ = (
        "all_clues",
        "black",
        "clue",
        "clues",
        "grid",
        "nonblack",
        "partial",
        "unknown",
        "white",
    )

    def __init__(self, puzzle: Puzzle, board: Board, partial: bool) -> None:
        grid = puzzle.grid
        self.grid: Grid = grid
        self.clues = puzzle.clues
        self.partial = partial
        self.black = board.black_mask & grid.full
        self.all_clues = puzzle.clue_mask
        # A clue cell is white unless the board shades it (then `clue-shaded` reports it,
        # and the other rules take the board at its word).
        self.clue = puzzle.clue_mask & ~self.black
        self.nonblack = grid.full & ~self.black
        if partial:
            self.white = (board.white_mask | self.clue) & self.nonblack
        else:
            self.white = self.nonblack
        self.unknown = self.nonblack & ~self.white

    def name(self, i: int) -> str:
        return self.grid.name(i)

    def cells(self, mask: int) -> CellSet:
        return CellSet(self.grid, mask)

    def clue_text(self, i: int) -> str:
        value = self.clues[i]
        return "?" if value == UNKNOWN_CLUE else str(value)


def _names(state: _State, mask: int, limit: int = 4) -> str:
    """``r1c1, r1c2 and r2c1``, or the first few and a count."""
    cells = [state.name(i) for i in bits(mask)]
    if len(cells) > limit:
        return f"{', '.join(cells[:limit])} and {len(cells) - limit} more"
    if len(cells) == 1:
        return cells[0]
    return f"{', '.join(cells[:-1])} and {cells[-1]}"


def _cells_word(n: int) -> str:
    return f"{n} cell" if n == 1 else f"{n} cells"


# -- the rules -------------------------------------------------------------------------------
# Each takes the state and returns its violations, in cell order. The same function serves
# the full and the partial check; the state says which, and `white` holds only the cells
# known to be white in a partial check.


def _clue_shaded(s: _State) -> list[Violation]:
    out = []
    for i in bits(s.black & s.all_clues):
        out.append(
            Violation(
                "clue-shaded",
                s.cells(1 << i),
                f"The clue {s.clue_text(i)} at {s.name(i)} is shaded; clue cells are white.",
            )
        )
    return out


def _pool(s: _State) -> list[Violation]:
    out = []
    for group in s.grid.components(s.grid.pool_cells(s.black)):
        corners = s.grid.pool_corners(group)
        if corners & (corners - 1):
            where = f"with top-left corners at {_names(s, corners)}"
            text = f"The black cells {where} form 2x2 pools."
        else:
            i = lowest(corners)
            far = s.name(i + s.grid.cols + 1)
            text = f"The black cells {s.name(i)} to {far} form a 2x2 pool."
        out.append(Violation("pool", s.cells(group), text))
    return out


def _island_no_clue(s: _State) -> list[Violation]:
    out = []
    # Full check: every white area without a clue. Partial check: the white cells whose
    # white-or-unknown area holds no clue; no way of filling the unknowns gives them one.
    for area in s.grid.components(s.nonblack):
        if area & s.clue:
            continue
        white = area & s.white
        if not white:
            continue
        n = white.bit_count()
        if s.partial and area != white:
            text = (
                f"The white {'cell' if n == 1 else 'cells'} {_names(s, white)} "
                "cannot reach any clue."
            )
        else:
            text = f"The white area at {s.name(lowest(white))} ({_cells_word(n)}) has no clue."
        out.append(Violation("island-no-clue", s.cells(white), text))
    return out


def _sea_split(s: _State) -> list[Violation]:
    # Full check: the black components. Partial check: the black cells of each
    # black-or-unknown component; if two such components hold black cells, no filling of
    # the unknowns can join them.
    if s.partial:
        parts = [p & s.black for p in s.grid.components(s.black | s.unknown) if p & s.black]
    else:
        parts = s.grid.components(s.black)
    if len(parts) < 2:
        return []
    keep = max(range(len(parts)), key=lambda k: (parts[k].bit_count(), -k))
    main = parts[keep]
    out = []
    for k, part in enumerate(parts):
        if k == keep:
            continue
        n = part.bit_count()
        text = (
            f"The black {'cell' if n == 1 else 'cells'} {_names(s, part)} "
            f"{'is' if n == 1 else 'are'} cut off from the main sea "
            f"({_cells_word(main.bit_count())} at {s.name(lowest(main))})."
        )
        out.append(Violation("sea-split", s.cells(part), text))
    return out


def _island_two_clues(s: _State) -> list[Violation]:
    out = []
    for island in s.grid.components(s.white):
        clues = island & s.clue
        if clues & (clues - 1):
            listed = ", ".join(f"{s.clue_text(i)} at {s.name(i)}" for i in bits(clues))
            text = (
                f"The island at {s.name(lowest(island))} holds {clues.bit_count()} clues: {listed}."
            )
            out.append(Violation("island-two-clues", s.cells(island), text))
    return out


def _island_size(s: _State) -> list[Violation]:
    out = []
    grid = s.grid
    for island in grid.components(s.white):
        clues = island & s.clue
        if not clues or clues & (clues - 1):
            continue  # no clue, or several: other rules report those
        i = lowest(clues)
        value = s.clues[i]
        if value == UNKNOWN_CLUE:
            continue
        size = island.bit_count()
        if not s.partial:
            if size != value:
                text = f"The island of the {value} at {s.name(i)} has {_cells_word(size)}."
                out.append(Violation("island-size", s.cells(island), text))
            continue
        if size > value:
            text = f"The island of the {value} at {s.name(i)} already has {_cells_word(size)}."
            out.append(Violation("island-size", s.cells(island), text))
            continue
        # Whatever the unknowns become, the island stays inside its non-black area.
        room = grid.flood(island, s.nonblack)
        if room.bit_count() < value:
            if room == island:
                text = (
                    f"The island of the {value} at {s.name(i)} is closed off "
                    f"with {_cells_word(size)}."
                )
            else:
                text = (
                    f"The island of the {value} at {s.name(i)} can grow to "
                    f"{_cells_word(room.bit_count())} at most."
                )
            out.append(Violation("island-size", s.cells(room), text))
    return out


@dataclass(frozen=True)
class Rule:
    """One entry of the checklist: a stable code, a description and the function that checks it."""

    code: str
    """The stable kebab-case code of the violations it reports."""
    description: str
    """The rule in one sentence."""
    find: Callable[[_State], list[Violation]]
    """Finds the violations on a prepared state."""


RULES: tuple[Rule, ...] = (
    Rule("clue-shaded", "Clue cells are never shaded.", _clue_shaded),
    Rule("pool", "No 2x2 block of cells is all black.", _pool),
    Rule("island-no-clue", "Every white area holds a clue.", _island_no_clue),
    Rule("sea-split", "All black cells are connected.", _sea_split),
    Rule("island-two-clues", "No island holds more than one clue.", _island_two_clues),
    Rule("island-size", "Each island has as many cells as its clue says.", _island_size),
)
"""The checklist, in the order `check` runs it (pzprjs's order, shaded clues first)."""

CODES: tuple[str, ...] = tuple(rule.code for rule in RULES)
"""Every violation code, in check order."""


def check(puzzle: Puzzle, board: Board, *, mode: Mode | str = "first") -> list[Violation]:
    """The rules `board` breaks, as violations in checklist order (empty when none is).

    In the full modes (``"first"``, ``"all"``) unknown cells count as white, as in
    pzprjs; ``"first"`` stops after the first rule that reports anything.
    ``"partial"`` reports, for every rule, only what no filling of the unknown
    cells can put right. See the module docstring for the codes.

    >>> from nurikabe.puzzle import Puzzle, Board
    >>> p = Puzzle.from_grid([[1, 0, 0], [0, 0, 0]])
    >>> [str(v) for v in check(p, Board.from_rows(p, ["1#.", "###"]))]
    ['island-no-clue: The white area at r1c3 (1 cell) has no clue.']
    >>> check(p, Board.from_rows(p, ["1#?", "#??"]), mode="partial")
    []

    Raises:
        ValueError: `mode` is not one of ``"first"``, ``"all"``, ``"partial"``, or the
            board belongs to a grid of another size.
    """
    if mode not in MODES:
        raise ValueError(f"unknown check mode {mode!r} (expected one of {', '.join(MODES)})")
    if board.grid.rows != puzzle.rows or board.grid.cols != puzzle.cols:
        raise ValueError(
            f"a {board.grid.rows}x{board.grid.cols} board does not fit "
            f"a {puzzle.rows}x{puzzle.cols} puzzle"
        )
    state = _State(puzzle, board, partial=mode == "partial")
    found: list[Violation] = []
    for rule in RULES:
        found.extend(rule.find(state))
        if found and mode == "first":
            break
    return found


def is_solved(puzzle: Puzzle, board: Board, *, all_decided: bool = False) -> bool:
    """Whether the black cells of `board` solve `puzzle` (unknown cells count as white).

    Dots are optional, as on puzz.link's manual check and in Conceptis's apps. With
    `all_decided`, every cell must also be black or white, as puzz.link's guarded
    autocheck asks before it says "Complete!" (formats.md 2.1).

    >>> from nurikabe.puzzle import Puzzle, Board
    >>> p = Puzzle.from_grid([[1, 0, 2], [0, 0, 0]])
    >>> is_solved(p, Board.from_rows(p, ["1#2", "##?"]))
    True
    >>> is_solved(p, Board.from_rows(p, ["1#2", "##?"]), all_decided=True)
    False
    >>> is_solved(p, Board.from_rows(p, ["1#2", "###"]))
    False
    """
    if all_decided and board.unknown_mask & ~puzzle.clue_mask:
        return False
    return not check(puzzle, board, mode="first")


def wrong_cells(board: Board, solution: Board) -> CellSet:
    """The cells `board` gets wrong against `solution` (the game's red marks).

    A cell is wrong when it is black on `board` but not in `solution`, or white
    (dotted) on `board` but black in `solution`. Unknown cells are never wrong.

    >>> from nurikabe.puzzle import Puzzle, Board
    >>> p = Puzzle.from_grid([[1, 0], [0, 2]])
    >>> wrong_cells(Board.from_rows(p, ["1.", "#2"]), Board.from_rows(p, ["1#", ".2"]))
    CellSet([r1c2, r2c1])

    Raises:
        ValueError: the two boards have different sizes.
    """
    grid = board.grid
    if (grid.rows, grid.cols) != (solution.grid.rows, solution.grid.cols):
        raise ValueError(
            f"a {grid.rows}x{grid.cols} board cannot be compared with a "
            f"{solution.grid.rows}x{solution.grid.cols} solution"
        )
    solution_black = solution.black_mask & grid.full
    wrong = (board.black_mask & ~solution_black) | (board.white_mask & solution_black)
    return CellSet(grid, wrong & grid.full)


def violation_mask(violations: Iterable[Violation]) -> int:
    """The union of the cells of `violations`, as a mask (for highlighting)."""
    m = 0
    for v in violations:
        m |= v.mask
    return m
