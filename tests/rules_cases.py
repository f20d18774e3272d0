"""The rule cases both checkers run: tests/data/rules_cases.json, in the spirit of pzprjs's
``failcheck`` lists (a board and the codes it must give).

The file is a JSON list of cases. Each case is an object with these fields:

``name``
    a unique kebab-case id;
``note`` (optional)
    why the case is there, for people;
``puzzle``
    the puzzle, as a puzz.link URL;
``board``
    one string per row, one character per cell: ``#`` black, ``.`` white (a dot), ``?``
    unknown. On a clue cell ``#`` is a shaded clue; any other character there must be the
    clue itself (its digit, or ``?`` for a ``?`` clue), so the rows show the clues. The
    cases' clues are 1 to 9 or ``?``;
``mode``
    ``"first"``, ``"all"`` or ``"partial"``, as `nurikabe.rules.check` takes it;
``codes``
    the codes of the violations `check` returns, in order, one per violation (``[]`` for a
    board that breaks no rule);
``cells`` (optional)
    the cells of each violation, a list parallel to ``codes``: 1-based names (``r3c4``)
    separated by spaces, in cell order.

tests/test_rules.py runs every case through `nurikabe.rules.check`, and
tests/web/browser/test_rules_js.py through ``check`` of src/nurikabe/web/static/js/rules.js
in the page. A case that lacks a field, or has one this format does not know, fails both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nurikabe import UNKNOWN_CLUE, Board, Puzzle
from nurikabe.rules import CODES, MODES

CASES_PATH = Path(__file__).resolve().parent / "data" / "rules_cases.json"
REQUIRED = ("name", "puzzle", "board", "mode", "codes")
OPTIONAL = ("note", "cells")


@dataclass(frozen=True)
class RuleCase:
    """One case of the file, read and checked."""

    name: str
    puzzle: Puzzle
    rows: tuple[str, ...]
    """The board as the file writes it."""
    mode: str
    codes: tuple[str, ...]
    cells: tuple[tuple[int, ...], ...] | None
    """The cells of each violation (cell indices, ascending), when the case gives them."""

    @classmethod
    def from_json(cls, raw: object) -> RuleCase:
        """Read one case of the file.

        Raises:
            ValueError: a field is missing, unknown or malformed.
        """
        if not isinstance(raw, dict):
            raise ValueError(f"a case must be an object, got {raw!r}")
        name = raw.get("name", "?")
        missing = [key for key in REQUIRED if key not in raw]
        unknown = [key for key in raw if key not in REQUIRED + OPTIONAL]
        if missing or unknown:
            raise ValueError(f"case {name!r}: missing fields {missing}, unknown fields {unknown}")
        puzzle = Puzzle.from_url(raw["puzzle"])
        rows = raw["board"]
        if not (isinstance(rows, list) and all(isinstance(row, str) for row in rows)):
            raise ValueError(f"case {name!r}: the board must be a list of strings")
        if len(rows) != puzzle.rows or any(len(row) != puzzle.cols for row in rows):
            raise ValueError(f"case {name!r}: the board is not {puzzle.rows}x{puzzle.cols}")
        for i, ch in enumerate("".join(rows)):
            where = f"case {name!r}, {puzzle.grid.name(i)}"
            if i in puzzle.clues:
                value = puzzle.clues[i]
                text = "?" if value == UNKNOWN_CLUE else str(value)
                if ch != "#" and ch != text:
                    raise ValueError(f"{where}: the clue {text} is written {ch!r}")
            elif ch not in "#.?":
                raise ValueError(f"{where}: {ch!r} is not one of '#', '.', '?'")
        if raw["mode"] not in MODES:
            raise ValueError(f"case {name!r}: unknown mode {raw['mode']!r}")
        codes = raw["codes"]
        if not isinstance(codes, list) or any(code not in CODES for code in codes):
            raise ValueError(f"case {name!r}: codes must be a list of {CODES}, got {codes!r}")
        cells = None
        if "cells" in raw:
            listed = raw["cells"]
            if not isinstance(listed, list) or len(listed) != len(codes):
                raise ValueError(f"case {name!r}: cells must give one string per code")
            cells = tuple(_cells(puzzle, name, text) for text in listed)
        return cls(name, puzzle, tuple(rows), raw["mode"], tuple(codes), cells)

    def board(self) -> Board:
        return Board.from_rows(self.puzzle, self.rows)

    def page_board(self) -> str:
        """The board as the page's Board holds it: a clue cell is ``?`` unless shaded."""
        return "".join(
            "?" if i in self.puzzle.clues and ch != "#" else ch
            for i, ch in enumerate("".join(self.rows))
        )

    def page_clues(self) -> list[list[int | None]]:
        """The clues as the API gives them to the page: ``[cell, value or null]``."""
        return [[i, None if v == UNKNOWN_CLUE else v] for i, v in sorted(self.puzzle.clues.items())]


def _cells(puzzle: Puzzle, name: str, text: object) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise ValueError(f"case {name!r}: cells must be strings of names, got {text!r}")
    out = []
    for cell in text.split():
        try:
            r, c = (int(part) for part in cell.lstrip("r").split("c"))
        except ValueError:
            raise ValueError(f"case {name!r}: {cell!r} is not a cell name like r3c4") from None
        if not (1 <= r <= puzzle.rows and 1 <= c <= puzzle.cols) or not cell.startswith("r"):
            raise ValueError(f"case {name!r}: no cell {cell!r} on the grid")
        out.append(puzzle.grid.cell(r - 1, c - 1))
    if out != sorted(set(out)):
        raise ValueError(f"case {name!r}: cells {text!r} are not in cell order")
    return tuple(out)


@lru_cache(maxsize=1)
def raw_cases() -> tuple[object, ...]:
    """The cases as the file holds them (read once)."""
    return tuple(json.loads(CASES_PATH.read_text(encoding="utf-8")))


def case_id(raw: object) -> str:
    """The name of a raw case, for test ids (a case without one still gets an id)."""
    return str(raw.get("name", "unnamed")) if isinstance(raw, dict) else "not-an-object"


def load_cases() -> list[RuleCase]:
    """Every case of the file, checked.

    Raises:
        ValueError: a case is malformed.
    """
    return [RuleCase.from_json(raw) for raw in raw_cases()]
