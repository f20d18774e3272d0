"""The puzzle model: `Puzzle` (frozen instance), `Board` (mutable shading), `Move`, `Color`.

A `Puzzle` is what defines an instance: its size and its clues. A `Board` is what
undo restores: two masks, the black cells and the white (dotted) cells; every other
cell is unknown. Solver and logic state never lives here.

Imports only `grid` and `errors` at module level; the format and render methods
import their modules inside the method, so that the core stays one-directional.

>>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 1]])
>>> p.rows, p.cols, p.clues
(3, 3, {0: 2, 8: 1})
>>> board = p.empty_board()
>>> board.play(Move.parse("r1c2=."))
>>> board.play(Move.parse("r3c2=#"))
>>> print(board)
..?
???
?#.
>>> board.undo()
>>> str(board.color_at(2, 1))
'?'
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import Protocol

from .errors import FormatError, IllegalMoveError, InvalidBoardError, InvalidPuzzleError
from .grid import MAX_SIDE, Grid, bits

__all__ = [
    "UNKNOWN_CLUE",
    "Board",
    "CellSet",
    "Clues",
    "Color",
    "Move",
    "Puzzle",
    "PuzzleIssue",
]

UNKNOWN_CLUE = -1
"""The value of a ``?`` clue: a white cell whose island may have any size."""


class Color(enum.IntEnum):
    """The state of a cell on a board."""

    UNKNOWN = 0
    BLACK = 1
    WHITE = 2

    @property
    def symbol(self) -> str:
        """``#`` for black, ``.`` for white, ``?`` for unknown (the move and board text form)."""
        return _SYMBOL_OF[self]

    @classmethod
    def from_symbol(cls, symbol: str) -> Color:
        """The color written `symbol`: ``#``/``x`` black, ``.``/``+`` white, ``?``/``_`` unknown.

        Raises:
            ValueError: for any other symbol.
        """
        try:
            return _COLOR_OF[symbol.lower()]
        except KeyError:
            raise ValueError(f"not a cell symbol: {symbol!r}") from None

    def __str__(self) -> str:
        return self.symbol


_SYMBOL_OF = {Color.UNKNOWN: "?", Color.BLACK: "#", Color.WHITE: "."}
_COLOR_OF = {
    "#": Color.BLACK,
    "x": Color.BLACK,
    ".": Color.WHITE,
    "+": Color.WHITE,
    "?": Color.UNKNOWN,
    "_": Color.UNKNOWN,
}


class PuzzleIssue(enum.IntFlag):
    """Soundness problems of a puzzle that still parses. `Puzzle.issues()` returns these."""

    NONE = 0
    ADJACENT_CLUES = enum.auto()
    """Two clues are orthogonally adjacent, so two islands would touch: no solution."""
    CLUES_EXCEED_AREA = enum.auto()
    """The clues need more white cells than the grid can hold apart: no solution."""


def _whole(value: object, what: str) -> int:
    """`value` as an int, if it is a whole number (an int, not a bool, a float or a str).

    Raises:
        InvalidPuzzleError: anything else, named.
    """
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise InvalidPuzzleError(f"{what} {value!r} is not a whole number")
    return operator.index(value)


class Clues(Mapping[int, int]):
    """A read-only, hashable mapping from cell index to clue value (``-1`` for ``?``)."""

    __slots__ = ("_hash", "_items", "_map")

    def __init__(self, items: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        self._map = dict(sorted((_whole(i, "cell"), _whole(v, "clue")) for i, v in pairs))
        self._items = tuple(self._map.items())
        self._hash = hash(self._items)
        """Made once: the engines' caches are keyed by puzzle, so it is asked often."""

    def __getitem__(self, cell: int) -> int:
        return self._map[cell]

    def __iter__(self) -> Iterator[int]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Clues):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._map == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(self._map)


class Puzzle:
    """A Nurikabe instance: an R x C grid and its clues. Immutable and hashable.

    `clues` maps a cell index (``r * cols + c``) to its value; ``UNKNOWN_CLUE``
    (-1) stands for a ``?`` clue. Use `from_clues` to give clues by (row, col).

    >>> p = Puzzle.from_clues(2, 3, [(0, 0, 2), (1, 2, UNKNOWN_CLUE)])
    >>> p.clues
    {0: 2, 5: -1}
    >>> p.issues()
    <PuzzleIssue.NONE: 0>

    Raises:
        InvalidPuzzleError: no cells, a side above `MAX_SIDE`, a clue off the grid,
            a clue below 1 (other than ``?``), or a clue larger than the grid.
    """

    rows: int
    """Number of rows."""
    cols: int
    """Number of columns."""
    clues: Clues
    """Clue values by cell index; -1 is a ``?`` clue."""

    def __init__(
        self, rows: int, cols: int, clues: Mapping[int, int] | Iterable[tuple[int, int]] = ()
    ):
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "clues", clues if isinstance(clues, Clues) else Clues(clues))
        self._validate()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to {name!r}: a Puzzle is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete {name!r}: a Puzzle is immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Puzzle)
        return (self.rows, self.cols, self.clues) == (other.rows, other.cols, other.clues)

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        """The hash, made once (the engines' caches are keyed by puzzle)."""
        return hash((self.rows, self.cols, self.clues))

    def _validate(self) -> None:
        rows, cols = self.rows, self.cols
        if (
            not isinstance(rows, int)
            or not isinstance(cols, int)
            or isinstance(rows, bool)
            or isinstance(cols, bool)
            or rows < 1
            or cols < 1
        ):
            raise InvalidPuzzleError(
                f"a puzzle needs at least one row and one column, got {rows}x{cols}"
            )
        if rows > MAX_SIDE or cols > MAX_SIDE:
            raise InvalidPuzzleError(
                f"grid {rows}x{cols} is larger than the supported {MAX_SIDE}x{MAX_SIDE}"
            )
        area = rows * cols
        for i, v in self.clues.items():
            if not 0 <= i < area:
                raise InvalidPuzzleError(f"clue at cell {i} lies off the {rows}x{cols} grid")
            where = f"r{i // cols + 1}c{i % cols + 1}"
            if v != UNKNOWN_CLUE and v < 1:
                raise InvalidPuzzleError(f"clue {v} at {where} is not a positive number")
            if v > area:
                raise InvalidPuzzleError(
                    f"clue {v} at {where} is larger than the grid ({area} cells)"
                )

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def from_clues(cls, rows: int, cols: int, clues: Iterable[tuple[int, int, int]]) -> Puzzle:
        """A puzzle from ``(row, col, value)`` triples, 0-based.

        Raises:
            InvalidPuzzleError: as the constructor, or for a clue given twice or off the grid.
        """
        cells: dict[int, int] = {}
        for r, c, v in clues:
            if not (0 <= r < rows and 0 <= c < cols):
                raise InvalidPuzzleError(
                    f"clue at r{r + 1}c{c + 1} lies off the {rows}x{cols} grid"
                )
            i = r * cols + c
            if i in cells:
                raise InvalidPuzzleError(f"two clues at r{r + 1}c{c + 1}")
            cells[i] = v
        return cls(rows, cols, cells)

    @classmethod
    def from_grid(cls, grid: Iterable[Iterable[int]]) -> Puzzle:
        """A puzzle from a matrix of ints: 0 empty, k > 0 a clue, -1 a ``?`` clue.

        Raises:
            InvalidPuzzleError: for ragged rows, or as the constructor.
        """
        matrix = [list(row) for row in grid]
        if not matrix or not matrix[0]:
            raise InvalidPuzzleError("a puzzle needs at least one row and one column")
        cols = len(matrix[0])
        clues = {}
        for r, row in enumerate(matrix):
            if len(row) != cols:
                raise InvalidPuzzleError(f"row {r + 1} has {len(row)} cells, expected {cols}")
            for c, v in enumerate(row):
                if v:
                    clues[r * cols + c] = v
        return cls(len(matrix), cols, clues)

    @classmethod
    def from_text(cls, text: str) -> Puzzle:
        """Read a puzzle in any supported format (see `nurikabe.formats`).

        Raises:
            FormatError: the text is no known format. InvalidPuzzleError: it is not a puzzle.
        """
        from .formats import read

        return read(text)

    @classmethod
    def from_url(cls, url: str) -> Puzzle:
        """Read a puzz.link (or pzv.jp, pzprxs) URL.

        Raises:
            FormatError: the URL is not a Nurikabe URL. InvalidPuzzleError: not a puzzle.
        """
        from .formats import read

        return read(url, format="url")

    def to_text(self) -> str:
        """The thesis text format: ``R C``, then rows of ints (0 empty, -1 a ``?`` clue)."""
        from .formats import write

        return write(self, "text")

    def to_url(self) -> str:
        """The canonical puzz.link URL."""
        from .formats import write

        return write(self, "url")

    def __repr__(self) -> str:
        return f"Puzzle.from_url({self.to_url()!r})"

    def _repr_svg_(self) -> str:
        from .render.svg import render_svg

        return render_svg(self)

    def with_clue(self, cell: int, value: int) -> Puzzle:
        """A copy with the clue at `cell` set to `value`."""
        clues = dict(self.clues)
        clues[cell] = value
        return Puzzle(self.rows, self.cols, clues)

    def without_clue(self, cell: int) -> Puzzle:
        """A copy with no clue at `cell`."""
        return Puzzle(self.rows, self.cols, {i: v for i, v in self.clues.items() if i != cell})

    # -- derived facts -------------------------------------------------------------------------

    @cached_property
    def grid(self) -> Grid:
        """The geometry of this puzzle's grid."""
        return Grid.of(self.rows, self.cols)

    @property
    def area(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @cached_property
    def clue_mask(self) -> int:
        """Mask of the clue cells."""
        m = 0
        for i in self.clues:
            m |= 1 << i
        return m

    @property
    def has_unknown_clues(self) -> bool:
        """Whether some clue is ``?``."""
        return UNKNOWN_CLUE in self.clues.values()

    @property
    def known_clue_total(self) -> int:
        """Sum of the clues of known size (each ``?`` island holds at least its clue cell)."""
        return sum(v for v in self.clues.values() if v != UNKNOWN_CLUE)

    def clue_at(self, r: int, c: int) -> int | None:
        """The clue at (r, c), or None."""
        return self.clues.get(r * self.cols + c)

    def issues(self) -> PuzzleIssue:
        """Soundness problems that make the puzzle unsolvable although it parses.

        >>> Puzzle.from_grid([[1, 2], [0, 0]]).issues()
        <PuzzleIssue.ADJACENT_CLUES: 1>
        """
        flags = PuzzleIssue.NONE
        grid = self.grid
        mask = self.clue_mask
        if any(grid.neighbors[i] & mask for i in self.clues):
            flags |= PuzzleIssue.ADJACENT_CLUES
        white = self.known_clue_total + sum(1 for v in self.clues.values() if v == UNKNOWN_CLUE)
        if white > self.area or (white == self.area and len(self.clues) > 1):
            flags |= PuzzleIssue.CLUES_EXCEED_AREA
        return flags

    def empty_board(self) -> Board:
        """A board with only the clue cells known (white)."""
        return Board(self, 0, self.clue_mask)


class Applicable(Protocol):
    """Anything that turns into moves: a `Step` of the logic engine, say."""

    def moves(self) -> Iterable[Move]: ...


_MOVE_RE = re.compile(r"^\s*r(\d+)\s*c(\d+)\s*=\s*(\S)\s*$", re.IGNORECASE)


class Move:
    """Set one cell to a color. Its text form is ``r3c4=#`` (1-based; ``#``, ``.`` or ``?``).

    >>> m = Move.parse("r3c4=#")
    >>> m, str(m)
    (Move(row=2, col=3, color=<Color.BLACK: 1>), 'r3c4=#')
    """

    row: int
    """0-based row."""
    col: int
    """0-based column."""
    color: Color
    """The color the cell gets; UNKNOWN clears it."""

    __slots__ = ("col", "color", "row")

    def __init__(self, row: int, col: int, color: Color) -> None:
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "col", col)
        object.__setattr__(self, "color", color)

    def _key(self) -> tuple[int, int, Color]:
        return (self.row, self.col, self.color)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to {name!r}: a Move is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete {name!r}: a Move is immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Move)
        return self._key() == other._key()

    def __lt__(self, other: Move) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: Move) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: Move) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: Move) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() >= other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Move(row={self.row!r}, col={self.col!r}, color={self.color!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[int, int, Color]]:
        return (Move, self._key())

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move like ``r3c4=#``, ``r3c4=.`` or ``r3c4=?``.

        Raises:
            FormatError: the text is not a move.
        """
        match = _MOVE_RE.match(text)
        if not match:
            raise FormatError(f"not a move (expected like r3c4=#): {text!r}")
        r, c, symbol = match.groups()
        try:
            color = Color.from_symbol(symbol)
        except ValueError as exc:
            raise FormatError(f"not a move (unknown color {symbol!r}): {text!r}") from exc
        if int(r) < 1 or int(c) < 1:
            raise FormatError(f"not a move (rows and columns count from 1): {text!r}")
        return cls(int(r) - 1, int(c) - 1, color)

    def __str__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}={self.color.symbol}"


class CellSet:
    """A friendly, read-only view of a mask: supports ``in`` (index or (row, col)), len, iteration.

    >>> s = CellSet(Grid.of(2, 3), 0b100001)
    >>> len(s), list(s), (1, 2) in s, s.coords()
    (2, [0, 5], True, [(0, 0), (1, 2)])
    """

    __slots__ = ("grid", "mask")

    def __init__(self, grid: Grid, mask: int) -> None:
        self.grid = grid
        self.mask = mask

    def __contains__(self, item: object) -> bool:
        if isinstance(item, tuple):
            r, c = item
            if not self.grid.contains(r, c):
                return False
            item = self.grid.cell(r, c)
        if not isinstance(item, int) or item < 0:
            return False
        return bool(self.mask >> item & 1)

    def __iter__(self) -> Iterator[int]:
        return iter(bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CellSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            return set(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def coords(self) -> list[tuple[int, int]]:
        """The cells as 0-based (row, col) pairs."""
        return [self.grid.coords(i) for i in bits(self.mask)]

    def __repr__(self) -> str:
        return f"CellSet([{', '.join(self.grid.name(i) for i in bits(self.mask))}])"


class Board:
    """The shading of a puzzle's cells: black, white (dot) or unknown, as two masks.

    `Board(puzzle)` gives a board with nothing known, not even the clues; use
    `Puzzle.empty_board()` for the usual start, with clue cells white. The fast
    setters (`set_black`, `set_white`, `clear`) check nothing and record no undo;
    `play` validates and `apply` records undo.
    """

    __slots__ = ("_history", "black_mask", "grid", "puzzle", "white_mask")

    def __init__(self, puzzle: Puzzle, black_mask: int = 0, white_mask: int = 0) -> None:
        """A board of `puzzle` with the cells of `black_mask` black and `white_mask` white.

        Raises:
            InvalidBoardError: `puzzle` is not a Puzzle, or a mask is not an int, is
                negative, has a bit off the grid, or shares a cell with the other.
        """
        if not isinstance(puzzle, Puzzle):
            raise InvalidBoardError(f"a board needs a Puzzle, not {type(puzzle).__name__}")
        full = puzzle.grid.full
        for name, mask in (("black_mask", black_mask), ("white_mask", white_mask)):
            if not isinstance(mask, int) or isinstance(mask, bool):
                raise InvalidBoardError(f"{name} must be an int, not {type(mask).__name__}")
            if mask < 0 or mask & ~full:
                raise InvalidBoardError(
                    f"{name} has cells off the {puzzle.rows}x{puzzle.cols} grid "
                    "(a mask is a non-negative int with one bit per cell)"
                )
        if black_mask & white_mask:
            raise InvalidBoardError("black_mask and white_mask share cells")
        self._set(puzzle, black_mask, white_mask)

    def _set(self, puzzle: Puzzle, black_mask: int, white_mask: int) -> None:
        self.puzzle = puzzle
        self.grid = puzzle.grid
        self.black_mask = black_mask
        """Mask of the black cells."""
        self.white_mask = white_mask
        """Mask of the white cells (dots and clue cells)."""
        self._history: list[tuple[int, int]] = []

    @classmethod
    def from_rows(cls, puzzle: Puzzle, rows: Iterable[str]) -> Board:
        """A board from one string per row, one character per cell.

        ``#`` (or ``x``) is black, ``.`` (or ``+``) white, ``?`` unknown; on a clue
        cell any character but ``#``/``x`` means white (a digit, say). A shaded clue
        is kept as black so that the checker can report it.

        >>> p = Puzzle.from_grid([[1, 0], [0, 0]])
        >>> Board.from_rows(p, ["1#", "##"]).black_cells()
        CellSet([r1c2, r2c1, r2c2])

        Raises:
            FormatError: wrong number of rows or cells, or an unknown character.
        """
        lines = list(rows)
        grid = puzzle.grid
        if len(lines) != grid.rows:
            raise FormatError(f"expected {grid.rows} rows, got {len(lines)}")
        black = white = 0
        for r, line in enumerate(lines):
            if len(line) != grid.cols:
                raise FormatError(
                    f"expected {grid.cols} cells, got {len(line)}: {line!r}", line=r + 1
                )
            for c, ch in enumerate(line):
                i = r * grid.cols + c
                bit = 1 << i
                if i in puzzle.clues and ch not in "#xX":
                    white |= bit
                    continue
                try:
                    color = Color.from_symbol(ch)
                except ValueError:
                    raise FormatError(
                        f"unknown cell {ch!r} (expected #, . or ?)", line=r + 1, column=c + 1
                    ) from None
                if color is Color.BLACK:
                    black |= bit
                elif color is Color.WHITE:
                    white |= bit
        return cls(puzzle, black, white)

    # -- reading -------------------------------------------------------------------------------

    @property
    def unknown_mask(self) -> int:
        """Mask of the cells neither black nor white."""
        return self.grid.full & ~(self.black_mask | self.white_mask)

    def color(self, i: int) -> Color:
        """The color of cell `i`."""
        if self.black_mask >> i & 1:
            return Color.BLACK
        if self.white_mask >> i & 1:
            return Color.WHITE
        return Color.UNKNOWN

    def color_at(self, r: int, c: int) -> Color:
        """The color of the cell at (r, c)."""
        return self.color(r * self.grid.cols + c)

    def black_cells(self) -> CellSet:
        """The black cells."""
        return CellSet(self.grid, self.black_mask)

    def white_cells(self) -> CellSet:
        """The white cells (clue cells included)."""
        return CellSet(self.grid, self.white_mask)

    def unknown_cells(self) -> CellSet:
        """The cells not yet decided."""
        return CellSet(self.grid, self.unknown_mask)

    def is_complete(self) -> bool:
        """Whether every cell is black or white."""
        return not self.unknown_mask

    def to_rows(self) -> list[str]:
        """One string per row: ``#`` black, ``.`` white, ``?`` unknown."""
        cols = self.grid.cols
        out = []
        for r in range(self.grid.rows):
            out.append("".join(self.color(r * cols + c).symbol for c in range(cols)))
        return out

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    def __repr__(self) -> str:
        return f"<Board {self.grid.rows}x{self.grid.cols} {'/'.join(self.to_rows())}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.puzzle, self.black_mask, self.white_mask) == (
            other.puzzle,
            other.black_mask,
            other.white_mask,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _repr_svg_(self) -> str:
        from .render.svg import render_svg

        return render_svg(self.puzzle, self)

    # -- changing ------------------------------------------------------------------------------

    def copy(self, *, history: bool = False) -> Board:
        """An independent copy; with `history`, the undo stack is copied too."""
        board = Board.__new__(Board)  # the masks are valid already
        board._set(self.puzzle, self.black_mask, self.white_mask)
        if history:
            board._history = list(self._history)
        return board

    def set_black(self, i: int) -> None:
        """Make cell `i` black. Checks nothing; records no undo."""
        bit = 1 << i
        self.black_mask |= bit
        self.white_mask &= ~bit

    def set_white(self, i: int) -> None:
        """Make cell `i` white. Checks nothing; records no undo."""
        bit = 1 << i
        self.white_mask |= bit
        self.black_mask &= ~bit

    def clear(self, i: int) -> None:
        """Make cell `i` unknown. Checks nothing; records no undo."""
        bit = ~(1 << i)
        self.black_mask &= bit
        self.white_mask &= bit

    def set_color(self, i: int, color: Color) -> None:
        """Give cell `i` the color `color`. Checks nothing; records no undo."""
        if color is Color.BLACK:
            self.set_black(i)
        elif color is Color.WHITE:
            self.set_white(i)
        else:
            self.clear(i)

    def push(self) -> None:
        """Remember the current shading, for `undo`."""
        self._history.append((self.black_mask, self.white_mask))

    def undo(self) -> None:
        """Go back to the shading before the last `apply`, `play` or `push`.

        Raises:
            IllegalMoveError: nothing to undo.
        """
        if not self._history:
            raise IllegalMoveError("nothing to undo")
        self.black_mask, self.white_mask = self._history.pop()

    def can_undo(self) -> bool:
        """Whether there is something to undo."""
        return bool(self._history)

    def _cell_of(self, move: Move) -> int:
        if not self.grid.contains(move.row, move.col):
            raise IllegalMoveError(f"{move} lies off the {self.grid.rows}x{self.grid.cols} grid")
        return self.grid.cell(move.row, move.col)

    def play(self, move: Move | str) -> None:
        """Play one move, checking it, with undo.

        Raises:
            IllegalMoveError: the cell is off the grid, or a clue cell is to be shaded or cleared.
            FormatError: `move` is text that is not a move.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        i = self._cell_of(move)
        if i in self.puzzle.clues and move.color is not Color.WHITE:
            raise IllegalMoveError(f"{move}: r{move.row + 1}c{move.col + 1} holds a clue")
        self.push()
        self.set_color(i, move.color)

    def apply(self, change: Move | Applicable | Iterable[Move]) -> None:
        """Apply a move, a step (anything with ``moves()``) or several moves as one undoable change.

        Unlike `play`, clue cells are not protected: engines may apply what they deduce.

        Raises:
            IllegalMoveError: a move lies off the grid.
        """
        if isinstance(change, Move):
            moves: Iterable[Move] = (change,)
        elif hasattr(change, "moves"):
            moves = change.moves()
        else:
            moves = change
        cells = [(self._cell_of(m), m.color) for m in moves]
        self.push()
        for i, color in cells:
            self.set_color(i, color)


def board_from_masks(puzzle: Puzzle, black_mask: int, white_mask: int | None = None) -> Board:
    """A board from masks; without `white_mask`, every non-black cell is white (a full solution)."""
    if white_mask is None:
        white_mask = puzzle.grid.full & ~black_mask
    return Board(puzzle, black_mask, white_mask)
