"""Exhaustive enumeration of small grids: every correct puzzle and every solution count.

This module owns the census of an R x C grid (the thesis's section 6): which clue sets
with values 1..`max_clue` have exactly one solution, how many solutions every solvable
clue set has, and the statistics of the correct ones.

Method. Rather than trying every clue placement (10**25 of them on a 5x5), enumerate
every valid *solution board* once: one 4-connected sea (or no sea at all), no 2x2 pool,
every island at most `max_clue` cells. A puzzle is consistent with a board exactly when
it has one clue per island, equal to the island's size, so a board with islands of
sizes s1..sk is a solution of s1*...*sk puzzles. Counting, per clue set, the boards it
is consistent with gives its number of solutions; the correct puzzles are those counted
once. Two choices, stated because they change small grids:

- a board with no black cell at all (one island filling the grid) is valid: the sea rule
  is read as "all black cells, if any, are connected", as the exact solver reads it;
- the clue-free grid is not a puzzle, so boards without any island are skipped.

The compiled core (`_cenum.c`) does the work; `census_python` is its pure-Python twin,
slow but independent, for tests (the C build is required). Large grids run
in shards (`shards`, `shard`): each shard keeps the clue sets whose residue (a sum over
their clues) falls in it, so its memory is a fraction of the whole, and it never builds
the clue sets of other shards; shard results add up (`Census.merge`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import NurikabeError
from ..puzzle import Puzzle

__all__ = [
    "MAX_CELLS",
    "MAX_SHARDS",
    "Census",
    "EnumerationError",
    "census",
    "census_python",
    "census_shards",
    "check_request",
    "decode_clues",
    "encode_clues",
    "grid_sizes",
    "solution_counts",
]

MAX_CELLS = 48
"""The largest grid (cells) the enumeration accepts: clue sets are keyed in 3 x 64 bits."""

MAX_CLUE = 15
"""The largest clue value a key can hold (4 bits per cell)."""

MAX_SHARDS = 65536
"""The most shards a census splits into (the compiled core keeps a mask per residue)."""


class EnumerationError(NurikabeError):
    """A grid size, clue limit or shard the enumeration cannot take."""


@dataclass
class Census:
    """What the enumeration of one grid (or one shard of it) found.

    Every field adds up over shards. ``solution_counts[k]`` is the number of clue sets
    with exactly k solutions (index 0 unused); the other histograms describe the correct
    puzzles only: ``clue_counts[n]`` puzzles with n clues, ``value_counts[v]`` clues of
    value v, ``white_counts[w]`` puzzles with w white cells; ``cell_clues[i]`` and
    ``cell_values[i]`` the number of correct puzzles with a clue at cell i and the sum
    of those clues.
    """

    rows: int
    cols: int
    max_clue: int
    boards: int = 0
    solution_counts: list[int] = field(default_factory=lambda: [0])
    clue_counts: list[int] = field(default_factory=list)
    value_counts: list[int] = field(default_factory=list)
    white_counts: list[int] = field(default_factory=list)
    cell_clues: list[int] = field(default_factory=list)
    cell_values: list[int] = field(default_factory=list)
    ones_only: int = 0
    no_ones: int = 0
    mean_sum: float = 0.0
    mean_sq: float = 0.0
    correct_keys: list[bytes] | None = None

    def __post_init__(self) -> None:
        cells = self.rows * self.cols
        for name, size in (
            ("clue_counts", cells + 1),
            ("white_counts", cells + 1),
            ("value_counts", MAX_CLUE + 1),
            ("cell_clues", cells),
            ("cell_values", cells),
        ):
            value = getattr(self, name)
            setattr(self, name, list(value) + [0] * (size - len(value)))

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def correct(self) -> int:
        """The number of correct puzzles (exactly one solution)."""
        return self.solution_counts[1] if len(self.solution_counts) > 1 else 0

    @property
    def solvable(self) -> int:
        """The number of clue sets with at least one solution."""
        return sum(self.solution_counts[1:])

    @property
    def max_solutions(self) -> tuple[int, int]:
        """(the most solutions any clue set has, how many clue sets have that many)."""
        for k in range(len(self.solution_counts) - 1, 0, -1):
            if self.solution_counts[k]:
                return k, self.solution_counts[k]
        return 0, 0

    def share_with(self, solutions: int) -> float:
        """The share of solvable clue sets with exactly `solutions` solutions."""
        if solutions >= len(self.solution_counts) or not self.solvable:
            return 0.0
        return self.solution_counts[solutions] / self.solvable

    @property
    def all_grids(self) -> int:
        """Every clue placement with values 1..max_clue: (max_clue + 1) ** cells."""
        return int((self.max_clue + 1) ** self.cells)

    @property
    def correct_share(self) -> Fraction:
        """The exact share of correct puzzles among all grids (the thesis's figure 14)."""
        return Fraction(self.correct, self.all_grids)

    def clues_per_puzzle(self) -> tuple[float, float]:
        """Mean and standard deviation of the number of clues of a correct puzzle."""
        return _mean_sd(self.clue_counts)

    def clue_value(self) -> tuple[float, float]:
        """Mean and standard deviation of a clue's value, over every clue of every puzzle."""
        return _mean_sd(self.value_counts)

    def puzzle_mean_clue(self) -> tuple[float, float]:
        """Mean and standard deviation of a correct puzzle's own mean clue value."""
        if not self.correct:
            return 0.0, 0.0
        mean = self.mean_sum / self.correct
        return mean, math.sqrt(max(self.mean_sq / self.correct - mean * mean, 0.0))

    def black_share(self) -> tuple[float, float]:
        """Mean and standard deviation of the black share of a correct puzzle's solution."""
        mean, sd = _mean_sd(self.white_counts)
        return 1 - mean / self.cells, sd / self.cells

    def clue_probability(self) -> list[float]:
        """Per cell, the share of correct puzzles with a clue there (figure 16, left)."""
        return [n / self.correct if self.correct else 0.0 for n in self.cell_clues]

    def mean_clue_at(self) -> list[float]:
        """Per cell, the mean value of the clues there (figure 16, right)."""
        return [s / n if n else 0.0 for s, n in zip(self.cell_values, self.cell_clues, strict=True)]

    def correct_puzzles(self) -> Iterator[Puzzle]:
        """The correct puzzles found (only when the census kept them), in no set order."""
        if self.correct_keys is None:
            raise EnumerationError("this census did not keep its correct puzzles")
        for blob in self.correct_keys:
            for i in range(0, len(blob), 24):
                yield decode_clues(self.rows, self.cols, blob[i : i + 24])

    def merge(self, other: Census) -> Census:
        """The census of two disjoint shards of the same grid."""
        if (self.rows, self.cols, self.max_clue) != (other.rows, other.cols, other.max_clue):
            raise EnumerationError("cannot merge censuses of different grids")
        keys = None
        if self.correct_keys is not None and other.correct_keys is not None:
            keys = self.correct_keys + other.correct_keys
        return Census(
            self.rows,
            self.cols,
            self.max_clue,
            boards=self.boards,  # every shard enumerates every board
            solution_counts=_add(self.solution_counts, other.solution_counts),
            clue_counts=_add(self.clue_counts, other.clue_counts),
            value_counts=_add(self.value_counts, other.value_counts),
            white_counts=_add(self.white_counts, other.white_counts),
            cell_clues=_add(self.cell_clues, other.cell_clues),
            cell_values=_add(self.cell_values, other.cell_values),
            ones_only=self.ones_only + other.ones_only,
            no_ones=self.no_ones + other.no_ones,
            mean_sum=self.mean_sum + other.mean_sum,
            mean_sq=self.mean_sq + other.mean_sq,
            correct_keys=keys,
        )

    def clue_range(self) -> tuple[int, int]:
        """(the fewest, the most) clues a correct puzzle has; (0, 0) when there is none."""
        counts = [k for k, n in enumerate(self.clue_counts) if n]
        return (counts[0], counts[-1]) if counts else (0, 0)

    @property
    def largest_island(self) -> int:
        """The largest island of a correct puzzle's solution: its largest clue (0: none).

        Bounded by `max_clue`: when it equals `max_clue`, only clues up to that value were
        counted, and a bigger island may exist with bigger clues."""
        values = [v for v, n in enumerate(self.value_counts) if n]
        return values[-1] if values else 0

    def summary(self) -> dict[str, object]:
        """The census's figures as plain JSON-ready values."""
        clues_mean, clues_sd = self.clues_per_puzzle()
        value_mean, value_sd = self.clue_value()
        pmean, psd = self.puzzle_mean_clue()
        black_mean, black_sd = self.black_share()
        most, reached = self.max_solutions
        return {
            "size": f"{self.rows}x{self.cols}",
            "max_clue": self.max_clue,
            "boards": self.boards,
            "correct": self.correct,
            "solvable": self.solvable,
            "ones_only": self.ones_only,
            "no_ones": self.no_ones,
            "clues_per_puzzle": [clues_mean, clues_sd],
            "clue_value": [value_mean, value_sd],
            "puzzle_mean_clue": [pmean, psd],
            "black_share": [black_mean, black_sd],
            "unique_share": self.share_with(1),
            "two_share": self.share_with(2),
            "three_share": self.share_with(3),
            "max_solutions": most,
            "max_reached_by": reached,
            "correct_share": float(self.correct_share),
            "solution_counts": {str(k): n for k, n in enumerate(self.solution_counts) if k and n},
            "clue_counts": {str(k): n for k, n in enumerate(self.clue_counts) if n},
            "value_counts": {str(v): n for v, n in enumerate(self.value_counts) if n},
            "fewest_clues": self.clue_range()[0],
            "most_clues": self.clue_range()[1],
            "largest_island": self.largest_island,
            "clue_probability": self.clue_probability(),
            "mean_clue_at": self.mean_clue_at(),
        }


def _add(a: list[int], b: list[int]) -> list[int]:
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(n)]


def _mean_sd(hist: list[int]) -> tuple[float, float]:
    n = sum(hist)
    if not n:
        return 0.0, 0.0
    mean = sum(k * v for k, v in enumerate(hist)) / n
    var = sum(k * k * v for k, v in enumerate(hist)) / n - mean * mean
    return mean, math.sqrt(max(var, 0.0))


def decode_clues(rows: int, cols: int, key: bytes) -> Puzzle:
    """The puzzle of a packed clue-set key (three little-endian 64-bit words, 4 bits a cell)."""
    words = [int.from_bytes(key[i : i + 8], "little") for i in (0, 8, 16)]
    clues = []
    for cell in range(rows * cols):
        value = (words[cell >> 4] >> (4 * (cell & 15))) & 15
        if value:
            clues.append((cell // cols, cell % cols, value))
    return Puzzle.from_clues(rows, cols, clues)


def encode_clues(puzzle: Puzzle) -> bytes:
    """The packed clue-set key of a puzzle (the inverse of `decode_clues`).

    >>> p = Puzzle.from_grid([[2, 0], [0, 1]])
    >>> decode_clues(2, 2, encode_clues(p)) == p
    True
    """
    return _encode(puzzle.clues.items())


def check_request(rows: int, cols: int, max_clue: int, shards: int, shard: int) -> None:
    """Raise `EnumerationError` for a grid, clue limit or shard the census cannot take."""
    if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
        raise EnumerationError(f"grid {rows}x{cols}: the enumeration takes 1..{MAX_CELLS} cells")
    if not 1 <= max_clue <= MAX_CLUE:
        raise EnumerationError(f"clue limit {max_clue}: must be 1..{MAX_CLUE}")
    if not 1 <= shards <= MAX_SHARDS:
        raise EnumerationError(f"{shards} shards: must be 1..{MAX_SHARDS}")
    if not 0 <= shard < shards:
        raise EnumerationError(f"shard {shard} of {shards}: must be 0..{shards - 1}")


def census(
    rows: int,
    cols: int,
    *,
    max_clue: int = 9,
    shards: int = 1,
    shard: int = 0,
    keep_correct: bool = False,
) -> Census:
    """Enumerate every solvable clue set of a `rows` x `cols` grid (one shard of them).

    >>> c = census(3, 3)
    >>> c.correct, c.solvable, c.max_solutions
    (139, 244, (11, 8))

    Runs in the compiled core; `census_python` is its slow twin, for cross-checks.

    Raises:
        EnumerationError: a grid over `MAX_CELLS` cells, a clue limit out of 1..15, a bad shard.
    """
    return census_shards(
        rows, cols, [shard], max_clue=max_clue, shards=shards, keep_correct=keep_correct
    )[0]


def census_shards(
    rows: int,
    cols: int,
    shard_list: Sequence[int],
    *,
    max_clue: int = 9,
    shards: int = 1,
    keep_correct: bool = False,
) -> list[Census]:
    """The census of each shard of `shard_list`, from one enumeration of the boards.

    Each shard costs a pass over the valid boards (kept, 8 bytes each) and its own table;
    the boards' enumeration, the larger part of a shard's time on a big grid, is done once.

    >>> parts = census_shards(3, 3, [0, 1, 2], shards=3)
    >>> sum(p.correct for p in parts) == census(3, 3).correct
    True

    Raises:
        EnumerationError: as `census`, or an empty `shard_list`.
    """
    if not shard_list:
        raise EnumerationError("no shard to enumerate")
    for shard in shard_list:
        check_request(rows, cols, max_clue, shards, shard)
    if cols > rows:  # the rows are enumerated pattern by pattern: keep them narrow
        wide = census_shards(
            cols, rows, shard_list, max_clue=max_clue, shards=shards, keep_correct=keep_correct
        )
        return [_transpose(part) for part in wide]
    from . import _cenum

    out = []
    for raw in _cenum.census(rows, cols, max_clue, shards, list(shard_list), keep_correct):
        keys = raw.pop("correct")
        out.append(
            Census(rows, cols, max_clue, correct_keys=None if keys is None else [keys], **raw)
        )
    return out


def _transpose(c: Census) -> Census:
    """The census of the transposed grid (cells (r, c) -> (c, r))."""
    rows, cols = c.cols, c.rows  # the new shape
    order = [(i % cols) * c.cols + i // cols for i in range(rows * cols)]  # new cell -> old cell
    keys = None
    if c.correct_keys is not None:
        keys = [
            b"".join(
                _encode(_transpose_key(blob[i : i + 24], c.rows, c.cols))
                for i in range(0, len(blob), 24)
            )
            for blob in c.correct_keys
        ]
    return Census(
        rows,
        cols,
        c.max_clue,
        boards=c.boards,
        solution_counts=c.solution_counts,
        clue_counts=c.clue_counts,
        value_counts=c.value_counts,
        white_counts=c.white_counts,
        cell_clues=[c.cell_clues[o] for o in order],
        cell_values=[c.cell_values[o] for o in order],
        ones_only=c.ones_only,
        no_ones=c.no_ones,
        mean_sum=c.mean_sum,
        mean_sq=c.mean_sq,
        correct_keys=keys,
    )


def _transpose_key(key: bytes, rows: int, cols: int) -> list[tuple[int, int]]:
    words = [int.from_bytes(key[i : i + 8], "little") for i in (0, 8, 16)]
    out = []
    for cell in range(rows * cols):
        value = (words[cell >> 4] >> (4 * (cell & 15))) & 15
        if value:
            r, col = divmod(cell, cols)
            out.append((col * rows + r, value))
    return out


# ----------------------------------------------------------------------------------------
# The pure-Python twin.


def _valid_boards(rows: int, cols: int, max_clue: int) -> Iterator[list[int]]:
    """Every valid solution board, as its list of island masks (cells as bits)."""
    cells = rows * cols
    full = (1 << cells) - 1
    left = sum(1 << (r * cols) for r in range(rows))
    right = left << (cols - 1)

    def flood(seed: int, region: int) -> int:
        x = seed
        while True:
            y = (x | ((x << 1) & ~left) | ((x >> 1) & ~right) | (x << cols) | (x >> cols)) & region
            if y == x:
                return x
            x = y

    pool_free_pairs = [
        [b for b in range(1 << cols) if not ((a & b) & ((a & b) >> 1))] for a in range(1 << cols)
    ]

    def rows_of(r: int, prev: int) -> Iterable[int]:
        return range(1 << cols) if r == 0 else pool_free_pairs[prev]

    stack: list[tuple[int, int, int]] = [(0, 0, 0)]
    while stack:
        r, black, prev = stack.pop()
        if r == rows:
            if black and flood(black & -black, black) != black:
                continue
            white = full & ~black
            islands = []
            while white:
                island = flood(white & -white, white)
                if island.bit_count() > max_clue:
                    break
                islands.append(island)
                white &= ~island
            else:
                if islands:
                    yield islands
            continue
        for b in rows_of(r, prev):
            stack.append((r + 1, black | (b << (r * cols)), b))


def census_python(
    rows: int,
    cols: int,
    *,
    max_clue: int = 9,
    shards: int = 1,
    shard: int = 0,
    keep_correct: bool = False,
) -> Census:
    """The same census as `census`, in pure Python (no pruning but pools; for up to ~16 cells).

    Shards are taken by the hash of the clue set, like the compiled core, though not
    the same partition; the merged result is the same.

    >>> census_python(3, 3).correct
    139
    """
    check_request(rows, cols, max_clue, shards, shard)
    counts, boards = _clue_set_counts(rows, cols, max_clue, shards, shard)
    hist: Counter[int] = Counter(counts.values())
    result = Census(
        rows,
        cols,
        max_clue,
        boards=boards,
        solution_counts=[hist.get(k, 0) for k in range(max(hist, default=0) + 1)],
        correct_keys=[] if keep_correct else None,
    )
    for key, count in counts.items():
        if count != 1:
            continue
        values = [v for _, v in key]
        result.clue_counts[len(key)] += 1
        result.white_counts[sum(values)] += 1
        for cell, value in key:
            result.value_counts[value] += 1
            result.cell_clues[cell] += 1
            result.cell_values[cell] += value
        result.ones_only += all(v == 1 for v in values)
        result.no_ones += 1 not in values
        mean = sum(values) / len(values)
        result.mean_sum += mean
        result.mean_sq += mean * mean
        if result.correct_keys is not None:
            result.correct_keys.append(_encode(key))
    return result


ClueSet = tuple[tuple[int, int], ...]
"""A clue set as sorted (cell, value) pairs."""


def solution_counts(rows: int, cols: int, *, max_clue: int = 9) -> dict[ClueSet, int]:
    """Every solvable clue set of the grid with its number of solutions (pure Python, small grids).

    >>> counts = solution_counts(1, 3)
    >>> counts[((0, 1), (2, 1))], counts[((1, 2),)]
    (1, 2)
    """
    check_request(rows, cols, max_clue, 1, 0)
    return dict(_clue_set_counts(rows, cols, max_clue, 1, 0)[0])


def _clue_set_counts(
    rows: int, cols: int, max_clue: int, shards: int, shard: int
) -> tuple[Counter[ClueSet], int]:
    counts: Counter[ClueSet] = Counter()
    boards = 0
    for islands in _valid_boards(rows, cols, max_clue):
        boards += 1
        options = [
            [(cell, island.bit_count()) for cell in range(rows * cols) if island >> cell & 1]
            for island in islands
        ]
        for choice in _product(options):
            key = tuple(sorted(choice))
            if shards == 1 or hash(key) % shards == shard:
                counts[key] += 1
    return counts, boards


def _product(options: list[list[tuple[int, int]]]) -> Iterator[list[tuple[int, int]]]:
    if not options:
        yield []
        return
    for rest in _product(options[1:]):
        for first in options[0]:
            yield [first, *rest]


def _encode(key: Iterable[tuple[int, int]]) -> bytes:
    words = [0, 0, 0]
    for cell, value in key:
        words[cell >> 4] |= value << (4 * (cell & 15))
    return b"".join(w.to_bytes(8, "little") for w in words)


def grid_sizes(max_cells: int) -> list[tuple[int, int]]:
    """Every grid shape rows x cols with rows <= cols and rows * cols <= max_cells.

    The census of cols x rows is the transpose of rows x cols, so these are all the sizes.

    >>> grid_sizes(6)
    [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3)]
    """
    return [
        (r, c)
        for r in range(1, max_cells + 1)
        for c in range(r, max_cells + 1)
        if r * c <= max_cells
    ]
