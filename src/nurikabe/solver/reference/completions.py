"""Island completions for the reference engine: every way to grow an island to its clue.

`completions` lists the connected shapes of exactly the clue's size that hold the
island, with the cells every shape uses (white), the cells every shape borders (black)
and their union (cells outside it are black for this island), by Redelmeier's method.
`solver.reference.search` calls it on islands lacking at most a few cells and caches the
answers.

Imports only `grid`.
"""

from __future__ import annotations

from ...grid import Grid

__all__ = ["ENUM_CAP", "completions"]

ENUM_CAP = 1000
"""Give up enumerating an island's completions beyond this many partial shapes."""


def completions(
    grid: Grid,
    corners: int,
    comp: int,
    size: int,
    allowed: int,
    orphan: int,
    black: int,
    white: int,
    cap: int = ENUM_CAP,
) -> tuple[list[int], int, int, int] | None:
    """Every way to complete island `comp` to `size` cells, or None past `cap` partial shapes.

    A completion is a connected set of `size` cells holding `comp`, otherwise made of
    `allowed` cells, that swallows every white cell it touches (`orphan`: the white cells
    without a clue) and whose black border makes no pool (`corners`: the top-left cells
    of the 2x2 blocks) and has no cell walled in (when the sea has other cells). Returns
    the shapes, their union, their intersection and the cells outside every shape that
    border all of them.

    Redelmeier's method: each connected shape is generated once, by growing only
    through cells first seen after the parent's choice. A white component without a
    clue is one node of the graph (taken whole), represented by its lowest cell.
    """
    cols = grid.cols
    full = grid.full
    nfc = grid.not_first_col
    nlc = grid.not_last_col
    nbrs = grid.neighbors
    dil = grid.dilate
    sea = full & ~white
    done: list[int] = []
    budget = [cap]

    def fresh(cells: int, seen: int) -> tuple[int, int]:
        """New candidate nodes among `cells`, and the cells they mark as seen."""
        cand = cells & allowed & ~seen
        mark = cells | seen
        lone = cand & orphan
        if lone:
            cand &= ~orphan
            while lone:
                o = lone & -lone
                part = o
                front = o
                while front:
                    front = dil(front) & orphan & ~part
                    part |= front
                lone &= ~part
                mark |= part
                cand |= part & -part
        return cand, mark

    def grow(shape: int, n: int, untried: int, seen: int) -> None:
        while untried:
            low = untried & -untried
            untried ^= low
            budget[0] -= 1
            if budget[0] < 0:
                return
            if low & orphan:
                region = low
                front = low
                while front:
                    front = dil(front) & orphan & ~region
                    region |= front
                m = n + region.bit_count()
                around = dil(region)
            else:
                region = low
                m = n + 1
                around = nbrs[low.bit_length() - 1]
            if m > size:
                continue
            new = shape | region
            if m == size:
                ring = dil(new) & ~new
                nb = black | ring
                pb = nb & (nb >> 1) & corners
                if pb & (pb >> cols):
                    continue
                # A border cell with no way out to the rest of the sea.
                f = sea & ~new
                shut = ring & ~(
                    ((f & nfc) >> 1) | ((f & nlc) << 1) | (f >> cols) | ((f << cols) & full)
                )
                if shut and (nb & (nb - 1)):
                    continue
                done.append(new)
                continue
            cand, mark = fresh(around & ~new, seen)
            grow(new, m, untried | cand, mark)

    cand, mark = fresh(dil(comp) & ~comp, comp)
    grow(comp, comp.bit_count(), cand, mark)
    if budget[0] < 0:
        return None
    shapes = done
    union = 0
    inter = full
    binter = full
    for shape in shapes:
        union |= shape
        inter &= shape
        binter &= dil(shape)
    return shapes, union, inter, binter & ~union
