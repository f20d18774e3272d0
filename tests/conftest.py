"""Shared fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

# Let test modules import the corpus helper as `tests.corpus` or `corpus`.
sys.path.insert(0, str(Path(__file__).resolve().parent))
