"""Draw the research figures of docs/research.md as SVG files under docs/figures/.

Run as ``python scripts/research_figures.py bench/results/research-answers-DATE.json``
(needs the ``figures`` extra: ``pip install 'nurikabe[figures]'``, matplotlib). The data
come from bench/research_answers.py; the island-shape counts are computed here (they
take a tenth of a second). Four figures:

- ``correct-by-area.svg``: how the number of correct puzzles grows with the grid's area;
- ``clue-counts.svg``: the share of correct puzzles with each number of clues, per size;
- ``levels.svg``: the share of each level (the logic engine's grade) per size;
- ``island-shapes.svg``: the island shapes of k cells, against k (the thesis's figure 8).

The SVG files are reproducible: no date in them, and fixed element ids.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ("easy", "medium", "hard", "expert", "extreme")


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("the figures need matplotlib: pip install 'nurikabe[figures]'") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "nurikabe"
    matplotlib.rcParams["font.size"] = 10
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})


def correct_by_area(plt: Any, sizes: list[dict[str, Any]], path: Path) -> None:
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    shown = [s for s in sizes if s["correct"]]
    ax.semilogy([s["cells"] for s in shown], [s["correct"] for s in shown], "o", color="#1f4e99")
    for s in shown:
        if s["cells"] >= 16 and s["size"].split("x")[0] != "1":
            ax.annotate(
                s["size"],
                (s["cells"], s["correct"]),
                textcoords="offset points",
                xytext=(4, -3),
                fontsize=8,
            )
    ax.set_xlabel("cells of the grid (m x n)")
    ax.set_ylabel("correct puzzles (clues 1..9)")
    largest = max(shown, key=lambda s: s["cells"])["size"]
    ax.set_title(f"Correct puzzles by area: every grid up to {largest}")
    ax.grid(True, which="major", alpha=0.3)
    _save(fig, path)
    plt.close(fig)


def clue_counts(plt: Any, sizes: list[dict[str, Any]], path: Path) -> None:
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for s in sizes:
        rows, cols = map(int, s["size"].split("x"))
        if rows < 3 or (rows != cols and s["size"] != "5x6"):
            continue
        total = s["correct"]
        counts = sorted((int(k), n) for k, n in s["clue_counts"].items())
        ax.plot(
            [k for k, _ in counts],
            [100 * n / total for _, n in counts],
            "o-",
            label=s["size"],
            markersize=4,
        )
    ax.set_xlabel("clues in the puzzle")
    ax.set_ylabel("share of correct puzzles (%)")
    ax.set_title("How many clues a correct puzzle has")
    ax.legend(title="grid")
    ax.grid(True, alpha=0.3)
    _save(fig, path)
    plt.close(fig)


def levels(plt: Any, sizes: list[dict[str, Any]], path: Path) -> None:
    shown = [s for s in sizes if s["mined"]["puzzles"] >= 20]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    colours = ["#c6dbef", "#6baed6", "#2171b5", "#08306b", "#000000"]
    bottom = [0.0] * len(shown)
    names = [s["size"] for s in shown]
    for level, colour in zip(LEVELS, colours, strict=True):
        shares = [100 * s["mined"]["level_shares"][level] for s in shown]
        ax.bar(
            names,
            shares,
            bottom=bottom,
            color=colour,
            label=level,
            edgecolor="white",
            linewidth=0.5,
        )
        bottom = [b + v for b, v in zip(bottom, shares, strict=True)]
    ax.set_ylabel("share of the mined puzzles (%)")
    ax.set_xlabel("grid (puzzles mined: all, or a random sample)")
    ax.set_title("Level of correct puzzles by grid (logic engine)")
    ax.tick_params(axis="x", labelrotation=60, labelsize=8)
    ax.legend(loc="upper left", fontsize=8, ncols=5)
    ax.set_ylim(0, 115)
    _save(fig, path)
    plt.close(fig)


def island_shapes(plt: Any, path: Path, largest: int = 14) -> None:
    from nurikabe.research.shapes import shape_counts

    table = shape_counts(largest)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ks = [t.k for t in table]
    for name, values, marker in (
        ("free (in the open)", [t.free for t in table], "o-"),
        ("against a wall", [t.wall for t in table], "s-"),
        ("in a corner", [t.corner for t in table], "^-"),
    ):
        ax.semilogy(ks, values, marker, label=name, markersize=4)
    ax.set_xlabel("k (cells of the island)")
    ax.set_ylabel("island shapes through a given cell")
    ax.set_title("Island shapes of k cells (the thesis's figure 8)")
    ax.legend()
    ax.grid(True, which="major", alpha=0.3)
    _save(fig, path)
    plt.close(fig)


def draw(answers: Path, folder: Path) -> list[Path]:
    """Draw the four figures from a research-answers JSON file into `folder`."""
    plt = _pyplot()
    sizes = json.loads(answers.read_text())["sizes"]
    folder.mkdir(parents=True, exist_ok=True)
    paths = [
        folder / name
        for name in ("correct-by-area.svg", "clue-counts.svg", "levels.svg", "island-shapes.svg")
    ]
    correct_by_area(plt, sizes, paths[0])
    clue_counts(plt, sizes, paths[1])
    levels(plt, sizes, paths[2])
    island_shapes(plt, paths[3])
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("answers", type=Path, help="bench/results/research-answers-DATE.json")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args()
    for path in draw(args.answers, args.out):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
