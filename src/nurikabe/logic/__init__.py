"""The logic engine: solving that explains itself, hints, walkthroughs and grading.

- `techniques`: the catalogue, one ordered table of techniques (cheapest first), a
  package with one module per tier or family.
- `walls`: the walled-in island (a tier 3 technique and its perimeter arithmetic).
- `steps`: `Step`, what one deduction decides and why.
- `state`: the engine's private bitset state and its cached analysis.
- `trial`: trial steps (suppose, refute) with iterative deepening.
- `guide`: which suppositions the exact core says the trial search should follow
  (it asks the core through `solver.refuter`).
- `engine`: `next_step` and `hint` (a step, or why there is none), `explain`, `grade`,
  `reveal_step` (the last resort: a cell from the solution).
- `grade`: `Grade` and the level definitions (docs/grading.md).
- `chains`: one supposition of the trial search: suppose, replay a chain, word the step.

>>> from nurikabe import Puzzle
>>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
>>> explain(p).status  # two solutions: logic alone cannot finish
'stuck'

Imports `grid`, `puzzle` and its own modules; `next_step` and the trial search's guide
use the exact solver.
"""

from .engine import Hint, Walkthrough, explain, find_step, grade, hint, next_step, reveal_step
from .grade import LEVELS, Grade, level_tier
from .state import State
from .steps import Step
from .techniques import TECHNIQUES, Technique, find_contradiction

__all__ = [
    "LEVELS",
    "TECHNIQUES",
    "Grade",
    "Hint",
    "State",
    "Step",
    "Technique",
    "Walkthrough",
    "explain",
    "find_contradiction",
    "find_step",
    "grade",
    "hint",
    "level_tier",
    "next_step",
    "reveal_step",
]
