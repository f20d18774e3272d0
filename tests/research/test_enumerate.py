"""The enumeration of small grids against a brute force over clue placements and the exact solver.

Three independent routes must agree: the compiled census, its pure-Python twin, and
(for grids small enough) every clue placement solved by the brute-force oracle of
tests/bruteforce.py. Placements whose clues add up to more than the grid's cells
cannot be solved and are skipped. Bigger grids are checked on samples with the
default exact engine, correct and incorrect clue sets alike.
"""

from __future__ import annotations

import itertools
import random

import pytest

from nurikabe import Puzzle, count_solutions
from nurikabe.research.enumerate import (
    EnumerationError,
    census,
    census_python,
    decode_clues,
    encode_clues,
    grid_sizes,
    solution_counts,
)
from tests.bruteforce import black_masks


def _placements(rows: int, cols: int, max_clue: int):
    """Every clue placement whose clues add up to at most the number of cells."""
    cells = rows * cols

    def walk(i: int, left: int, acc: list[tuple[int, int]]):
        if i == cells:
            if acc:
                yield tuple(acc)
            return
        yield from walk(i + 1, left, acc)
        for v in range(1, min(max_clue, left) + 1):
            acc.append((i, v))
            yield from walk(i + 1, left - v, acc)
            acc.pop()

    yield from walk(0, cells, [])


def _puzzle(rows: int, cols: int, key) -> Puzzle:
    return Puzzle.from_clues(rows, cols, [(i // cols, i % cols, v) for i, v in key])


def _brute_force(rows: int, cols: int, max_clue: int) -> dict:
    out = {}
    for key in _placements(rows, cols, max_clue):
        n = len(black_masks(_puzzle(rows, cols, key)))
        if n:
            out[key] = n
    return out


@pytest.mark.parametrize(("rows", "cols", "max_clue"), [(1, 4, 9), (2, 2, 9), (2, 3, 9), (3, 3, 2)])
def test_every_placement_brute_force(rows: int, cols: int, max_clue: int) -> None:
    assert solution_counts(rows, cols, max_clue=max_clue) == _brute_force(rows, cols, max_clue)


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (2, 4), (2, 5)])
def test_every_placement_brute_force_slow(rows: int, cols: int) -> None:
    assert solution_counts(rows, cols) == _brute_force(rows, cols, 9)


@pytest.fixture(scope="module")
def census_5x5():
    return census(5, 5, keep_correct=True)


def _histogram(counts: dict) -> list[int]:
    top = max(counts.values())
    return [sum(1 for n in counts.values() if n == k) for k in range(top + 1)]


@pytest.mark.parametrize(("rows", "cols"), [(1, 7), (2, 5), (3, 3), (3, 4), (4, 3), (4, 4)])
def test_compiled_equals_python(rows: int, cols: int) -> None:
    fast = census(rows, cols, keep_correct=True)
    slow = census_python(rows, cols, keep_correct=True)
    assert _same(fast, slow)
    assert sorted(p.to_url() for p in fast.correct_puzzles()) == sorted(
        p.to_url() for p in slow.correct_puzzles()
    )
    counts = solution_counts(rows, cols)
    assert fast.solution_counts[1:] == _histogram(counts)[1:]


def _same(a, b) -> bool:
    sa, sb = a.summary(), b.summary()
    for key, value in sa.items():
        if isinstance(value, (float, list)):
            assert value == pytest.approx(sb[key])
        else:
            assert value == sb[key], key
    return True


def test_shards_add_up() -> None:
    whole = census(4, 4)
    parts = [census(4, 4, shards=3, shard=k) for k in range(3)]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    assert merged.solution_counts == whole.solution_counts
    assert merged.cell_clues == whole.cell_clues
    assert merged.ones_only == whole.ones_only
    assert all(p.correct < whole.correct for p in parts)
    python_parts = [census_python(3, 3, shards=2, shard=k) for k in range(2)]
    assert python_parts[0].merge(python_parts[1]).solution_counts == census(3, 3).solution_counts


def test_large_shards_add_up() -> None:
    """Shards whose tables outgrow 2**20 slots (the shard must not depend on the index bits)."""
    whole = census(5, 5)
    parts = [census(5, 5, shards=2, shard=k) for k in range(2)]
    merged = parts[0].merge(parts[1])
    assert merged.solution_counts == whole.solution_counts
    assert merged.clue_counts == whole.clue_counts


def test_transposed_grids_agree() -> None:
    a, b = census(2, 6), census(6, 2)
    assert a.solution_counts == b.solution_counts
    assert a.cell_clues == [b.cell_clues[(i % 6) * 2 + i // 6] for i in range(12)]


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (2, 7)])
def test_sample_against_exact_solver(rows: int, cols: int) -> None:
    """Random clue sets, solvable or not, counted by the default engine."""
    rng = random.Random(17)
    counts = solution_counts(rows, cols)
    keys = sorted(counts)
    sample = rng.sample(keys, 60)
    for _ in range(30):  # placements that may have no solution at all
        cells = rng.sample(range(rows * cols), rng.randint(1, 4))
        sample.append(tuple(sorted((c, rng.randint(1, 9)) for c in cells)))
    for key in sample:
        result = count_solutions(_puzzle(rows, cols, key))
        assert result.complete
        assert result.count == counts.get(key, 0), key


def test_5x5_sample_against_exact_solver(census_5x5) -> None:
    """Correct 5x5 puzzles from the compiled census are unique for the exact engine."""
    c = census_5x5
    blob = c.correct_keys[0]
    rng = random.Random(5)
    for i in rng.sample(range(c.correct), 25):
        puzzle = decode_clues(5, 5, blob[24 * i : 24 * i + 24])
        assert count_solutions(puzzle).count == 1


def _perturbed(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """A nearby clue set: one clue changed, moved, dropped or added."""
    rows, cols = puzzle.rows, puzzle.cols
    top = min(9, rows * cols)
    clues = dict(puzzle.clues)
    cell = rng.choice(sorted(clues))
    free = [i for i in range(rows * cols) if i not in clues]
    values = [v for v in range(1, top + 1) if v != clues[cell]]
    move = rng.randrange(4)
    if move == 1 and free:
        clues[rng.choice(free)] = clues.pop(cell)
    elif move == 2 and len(clues) > 1:
        del clues[cell]
    elif move == 3 and free:
        clues[rng.choice(free)] = rng.randint(1, top)
    elif values:
        clues[cell] = rng.choice(values)
    return Puzzle.from_clues(rows, cols, [(i // cols, i % cols, v) for i, v in clues.items()])


def _check_correct_set(c, samples: int, seed: int) -> None:
    """Correct puzzles are unique for the exact engine; nearby clue sets are correct exactly
    when the census lists them."""
    blob = b"".join(c.correct_keys)
    keys = {blob[i : i + 24] for i in range(0, len(blob), 24)}
    rng = random.Random(seed)
    for i in rng.sample(range(c.correct), min(samples, c.correct)):
        puzzle = decode_clues(c.rows, c.cols, blob[24 * i : 24 * i + 24])
        assert count_solutions(puzzle).count == 1
        other = _perturbed(puzzle, rng)
        counted = count_solutions(other)
        assert counted.complete
        assert (counted.count == 1) == (encode_clues(other) in keys), other.to_url()


def test_5x5_nearby_clue_sets(census_5x5) -> None:
    _check_correct_set(census_5x5, 25, 7)


@pytest.mark.slow
def test_every_size_to_25_against_exact_solver() -> None:
    for rows, cols in grid_sizes(25):
        _check_correct_set(census(rows, cols, keep_correct=True), 15, rows * 100 + cols)


def test_thesis_5x5_figures(census_5x5) -> None:
    c = census_5x5
    assert c.correct == 935_763
    assert c.max_solutions == (212, 10)
    assert round(100 * c.share_with(1), 1) == 45.4
    assert round(100 * c.share_with(2), 1) == 18.4
    assert round(100 * c.share_with(3), 1) == 10.2
    assert round(c.clues_per_puzzle()[0], 2) == 4.72
    assert round(c.clue_value()[0], 2) == 2.48
    mean, sd = c.black_share()
    assert (round(100 * mean, 1), round(100 * sd, 1)) == (53.1, 7.8)
    # The thesis has 303 and 128,407: one more each (see docs/research.md).
    assert (c.ones_only, c.no_ones) == (302, 128_406)


def test_all_white_board_is_a_solution() -> None:
    """A grid filled by one island has no sea; it counts as solved, as for the exact engine."""
    c = census_python(1, 3, keep_correct=True)
    assert Puzzle.from_grid([[3, 0, 0]]).to_url() in {p.to_url() for p in c.correct_puzzles()}
    assert count_solutions(Puzzle.from_grid([[3, 0, 0]])).count == 1


def test_grid_sizes_and_bad_input() -> None:
    assert (5, 5) in grid_sizes(25) and (1, 25) in grid_sizes(25) and (5, 6) not in grid_sizes(25)
    for bad in ((0, 3), (7, 7)):
        with pytest.raises(EnumerationError):
            census(*bad)
    with pytest.raises(EnumerationError):
        census(3, 3, max_clue=16)
    with pytest.raises(EnumerationError):
        census(3, 3, shards=2, shard=2)
    with pytest.raises(EnumerationError):
        next(census(2, 2).correct_puzzles())


def test_cli_enumerate(tmp_path, capsys) -> None:
    from nurikabe.cli import main

    out = tmp_path / "p.jsonl"
    assert main(["research", "enumerate", "--size", "3x3", "--json", "-o", str(out)]) == 0
    assert '"correct": 139' in capsys.readouterr().out
    assert len(out.read_text().splitlines()) == 139
    assert main(["research", "enumerate", "--size", "3y3"]) == 2
    assert main(["research", "enumerate", "--size", "9x9"]) == 2
    assert main(["research", "enumerate", "--size", "2x3", "--figures", str(tmp_path)]) == 0
    assert (tmp_path / "clue-probability-2x3.svg").read_text().startswith("<svg")


def test_cli_enumerate_batch(tmp_path, capsys) -> None:
    from nurikabe.cli import main

    store = str(tmp_path / "s.sqlite")
    args = ["research", "enumerate", "--size", "3x4", "--shards", "3", "--store", store]
    assert main([*args, "--shard", "1", "--workers", "0", "--json"]) == 0
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    assert f'"correct": {census(3, 4).correct}' in capsys.readouterr().out
    assert main([*args, "--shard", "5"]) == 2


def test_every_small_size_runs() -> None:
    sizes = [s for s in grid_sizes(12)]
    for rows, cols in sizes:
        c = census(rows, cols)
        assert c.correct > 0
    assert list(itertools.islice(sizes, 2)) == [(1, 1), (1, 2)]


def test_shards_sharing_one_enumeration_equal_shards_alone() -> None:
    """`census_shards` (one enumeration of the boards, a pass per shard) gives, shard by
    shard, the census of each shard alone; together they make the whole grid."""
    from nurikabe.research.enumerate import census_shards

    whole = census(4, 5)
    together = census_shards(4, 5, [0, 1, 2, 3, 4], shards=5, keep_correct=True)
    for k, part in enumerate(together):
        alone = census(4, 5, shards=5, shard=k, keep_correct=True)
        assert part.solution_counts == alone.solution_counts
        assert part.cell_values == alone.cell_values
        assert sorted(part.correct_puzzles(), key=str) == sorted(alone.correct_puzzles(), key=str)
    merged = together[0]
    for part in together[1:]:
        merged = merged.merge(part)
    assert merged.solution_counts == whole.solution_counts
    assert merged.clue_counts == whole.clue_counts
    assert census_shards(5, 4, [2], shards=5)[0].correct == together[2].correct  # transposed


def test_grouped_shard_jobs_merge_to_the_whole(tmp_path) -> None:
    from nurikabe.batch import load_results, run_batch
    from nurikabe.research.jobs import EnumerateShard, EnumerateShards, merge_census

    jobs = [
        EnumerateShards(3, 4, shards=7, first=0, count=4),
        EnumerateShards(3, 4, shards=7, first=4, count=3),
    ]
    store = tmp_path / "g.sqlite"
    assert run_batch(jobs, store, workers=0).done == 2
    assert sorted(load_results(store)) == [
        "enumerate 3x4 max9 shards 0-3/7",
        "enumerate 3x4 max9 shards 4-6/7",
    ]
    merged = merge_census(load_results(store).values())
    assert merged.solution_counts == census(3, 4).solution_counts
    mixed = [EnumerateShard(3, 4, shards=7, shard=k).run() for k in range(4)]
    assert merge_census([*mixed, load_results(store)[jobs[1].key]]).correct == census(3, 4).correct
