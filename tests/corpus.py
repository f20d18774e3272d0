"""The published corpus (../shared/corpus/puzzles.jsonl) for tests and benchmarks.

`CORPUS_PATH` is found next to the repository (``../shared``), or given by the
NURIKABE_CORPUS environment variable. Tests that need it skip only when it is
truly absent; CI always has it.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest

from nurikabe.formats import Document
from nurikabe.formats.jsonl import read_file

ROOT = Path(__file__).resolve().parent.parent
CORPUS_PATH = Path(
    os.environ.get("NURIKABE_CORPUS", ROOT.parent / "shared" / "corpus" / "puzzles.jsonl")
)

needs_corpus = pytest.mark.skipif(
    not CORPUS_PATH.exists(), reason=f"corpus not found at {CORPUS_PATH}"
)
"""Mark a test that cannot run without the corpus (CI always has it)."""


@lru_cache(maxsize=1)
def corpus() -> tuple[Document, ...]:
    """Every corpus record, each with its puzzle, solution and metadata (``id``, ...).

    Empty when the corpus is absent; `tests/test_corpus.py` then reports the skip.
    """
    if not CORPUS_PATH.exists():
        return ()
    return tuple(read_file(CORPUS_PATH))


def corpus_ids() -> list[str]:
    """The ids, for parametrize."""
    return [d.meta["id"] for d in corpus()]


def sample(n: int, *, max_cells: int | None = None) -> list[Document]:
    """An evenly spread, deterministic sample of `n` records (no larger than `max_cells`)."""
    docs = [d for d in corpus() if max_cells is None or d.puzzle.area <= max_cells]
    if n >= len(docs):
        return docs
    step = len(docs) / n
    return [docs[int(k * step)] for k in range(n)]
