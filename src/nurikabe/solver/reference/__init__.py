"""The pure-Python reference engine (engine name ``reference``): a test oracle, not a twin.

The exact engine of the package is the compiled core (`solver.native` around
``_csolve.c``); its build is required. This engine is an independent, slower exact
search, kept for two jobs: the tests cross-check the compiled core against it
(tests/solver/test_native.py, tests/research/test_families.py, tests/solver/test_reference.py), and
``nurikabe solve --engine reference`` runs it for a cross-check by hand. Where both
finish they give the same answers; it has fewer rules (no crossings, no sides rule,
no last-conflict branching: docs/solver.md), so it decides fewer hard puzzles in time.

- `solver.reference.search`: `ReferenceSearch` (the search, its propagation loop and probing)
  and `search` (its `Result`);
- `solver.reference.rules`: the rules that read only the state, one function per rule;
- `solver.reference.completions`: the enumeration of an island's completions.

Imports `grid`, `limits`, `puzzle` and `solver.result`.
"""

from __future__ import annotations

from .search import ReferenceSearch, search

__all__ = ["ReferenceSearch", "search"]
