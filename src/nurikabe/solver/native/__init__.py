"""The pure-Python reference engine (engine name ``python``): a test oracle, not a twin.

The exact engine of the package is the compiled core (`solver.compiled` around
``_csolve.c``); its build is required. This engine is an independent, slower exact
search, kept for two jobs: the tests cross-check the compiled core against it
(tests/test_compiled.py, tests/test_families.py, tests/test_native.py), and
``nurikabe solve --engine python`` runs it for a cross-check by hand. Where both
finish they give the same answers; it has fewer rules (no crossings, no sides rule,
no last-conflict branching: docs/solver.md), so it decides fewer hard puzzles in time.

- `solver.native.search`: `NativeSearch` (the search, its propagation loop and probing)
  and `search` (its `Result`);
- `solver.native.rules`: the rules that read only the state, one function per rule;
- `solver.native.completions`: the enumeration of an island's completions.

Imports `grid`, `puzzle` and `solver.result`.
"""

from __future__ import annotations

from .search import NativeSearch, search

__all__ = ["NativeSearch", "search"]
