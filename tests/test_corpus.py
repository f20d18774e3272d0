"""The published corpus is present and sound: 499 puzzles, each with a solution."""

from __future__ import annotations

import pytest

from tests.corpus import CORPUS_PATH, corpus


@pytest.mark.skipif(not CORPUS_PATH.exists(), reason=f"corpus not found at {CORPUS_PATH}")
def test_corpus_is_there() -> None:
    docs = corpus()
    assert len(docs) == 499
    assert all(d.solution is not None for d in docs)
    assert len({d.meta["id"] for d in docs}) == len(docs)
