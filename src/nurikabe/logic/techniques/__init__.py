"""The technique catalogue: every deduction the logic engine knows, in one ordered table.

This package owns `TECHNIQUES`, the table the engine walks from the top after every
step (cheapest first), and `technique` and `plain_step`, which read it. Each technique
is a function ``(state) -> Step | None`` (the puzzle is ``state.puzzle``) with a
stable kebab-case id, a name and a difficulty tier; it returns one step (or None) and
never changes the state. The costly ones (island shapes, case splits) check the
state's deadline as they go and raise `limits.OutOfTime` once it has passed.
`find_contradiction` holds the checks that end a supposition.

Tiers: 1 easy, 2 medium, 3 hard (listing island shapes), 4 expert (case splits: two to
four exhaustive cases followed a few rounds each); 5 extreme is trial steps (a
supposition refuted at any nesting depth), made by `logic.trial`.

The catalogue (the seed rules each covers are in docs/techniques.md)::

    tier id                          rule
    1    one-clue                    a 1 is a whole island: its neighbours are black
    1    between-clues               a cell between two clues in a line is black
    1    l-corner                    the two cells touching two diagonal clues are black
    1    island-complete             a complete island is surrounded by black
    1    bordering-two-islands       a cell touching two islands is black
    1    pool-prevention             a 2x2 block with three black cells: the fourth is white
    1    island-single-exit          an island lacking cells with one way out: it is white
    1    last-cell                   an island lacking one cell with one legal option: white
    1    sea-single-exit             a black region with one way out (more sea elsewhere): black
    1    orphan-single-exit          a white cell without a clue, one way out: it is white
    1    unreachable                 a cell no island can reach is black
    1    enclosed-pocket             unknown cells walled in by one color take that color
    1    counting                    all whites placed: rest black; whites missing = unknowns: white
    2    two-choices-border          island lacking one cell: a cell touching all options is black
    2    island-bottleneck           a cell every completion of an island passes through is white
    2    orphan-bottleneck           a cell every island must use to reach a stray white is white
    2    sea-articulation            a cell whose whitening would split the sea is black
    2    pool-escape                 a cell whose blackening leaves a 2x2 block unreachable is white
    3    completion-common-cell      a cell used by every possible completion of an island is white
    3    completion-common-border    a cell bordered by every possible completion is black
    3    completion-unreachable      a cell no possible completion of any island uses is black
    3    walled-in-island            the sea walls in one of two diagonal islands: perimeter bounds
    3    perimeter-budget            the sea's sides bound an island's: it fills the one box it fits
    4    white-budget                as many groups needing white as whites missing: rest is black
    4    sea-budget                  as many groups needing black as blacks to come: rest is white
    4    sea-sides                   a sea of S cells shows 2S + 2 sides: islands must hug the edge
    4    sea-exit-cases              a black region with 2-4 exits: what every exit leads to holds
    4    pool-cases                  an open 2x2 block: what whitening each open cell leads to holds
    4    orphan-exit-cases           a stray white cell with two exits: what both lead to holds
    4    island-exit-cases           an island with 2-4 exits: what every exit leads to holds
    4    island-options              an island with few shapes: what every shape leads to holds
    4    deep-cases                  the same splits, each case followed with island shapes too
    5    trial                       suppose a color; plain logic meets a contradiction (any depth)

Where each technique lives, one module per tier or family:

- `basics`: tier 1 (one clue, island, 2x2 block or sea region at a time);
- `bottlenecks`: two-choices-border, island-bottleneck, orphan-bottleneck (tier 2);
- `articulation`: sea-articulation, pool-escape (tier 2, cut cells of the sea);
- `completions`: the tier 3 island-completion techniques (`logic.walls` holds
  walled-in-island);
- `sides`: sea-sides (tier 4, a global count of the sea's sides against the edge);
- `counts`: white-budget and sea-budget (tier 4, global counts of the cells still to
  come of one color; docs/techniques.md, "Global budgets");
- `cases`: the tier 4 case splits;
- `contradictions`: `find_contradiction`;
- `common`: `Technique` and the helpers that word a step.

Imports its own modules, `logic.state`, `logic.steps` and `logic.walls`.
"""

from __future__ import annotations

from ..state import State
from ..steps import Step
from ..walls import perimeter_budget, walled_in_island
from .articulation import pool_escape, sea_articulation
from .basics import (
    between_clues,
    bordering_two_islands,
    counting,
    enclosed_pocket,
    island_complete,
    island_single_exit,
    l_corner,
    last_cell,
    one_clue,
    orphan_single_exit,
    pool_prevention,
    sea_single_exit,
    unreachable,
)
from .bottlenecks import island_bottleneck, orphan_bottleneck, two_choices_border
from .cases import (
    deep_cases,
    island_exit_cases,
    island_options,
    orphan_exit_cases,
    pool_cases,
    sea_exit_cases,
)
from .common import Technique, TechniqueFunc
from .completions import (
    MAX_COMPLETIONS,
    completion_common_border,
    completion_common_cell,
    completion_unreachable,
)
from .contradictions import find_contradiction
from .counts import sea_budget, white_budget
from .sides import sea_sides

__all__ = [
    "MAX_COMPLETIONS",
    "TECHNIQUES",
    "Technique",
    "TechniqueFunc",
    "find_contradiction",
    "plain_step",
    "technique",
]

TECHNIQUES: tuple[Technique, ...] = (
    Technique("one-clue", "A 1 is a whole island", 1, one_clue),
    Technique("between-clues", "Cell between two clues", 1, between_clues),
    Technique("l-corner", "Cells between diagonal clues", 1, l_corner),
    Technique("island-complete", "Complete island", 1, island_complete),
    Technique("bordering-two-islands", "Cell touching two islands", 1, bordering_two_islands),
    Technique("pool-prevention", "Pool prevention", 1, pool_prevention),
    Technique("island-single-exit", "Island with a single exit", 1, island_single_exit),
    Technique("last-cell", "Last cell with one option", 1, last_cell),
    Technique("sea-single-exit", "Sea with a single exit", 1, sea_single_exit),
    Technique("orphan-single-exit", "Stray white cell with a single exit", 1, orphan_single_exit),
    Technique("unreachable", "Unreachable cell", 1, unreachable),
    Technique("enclosed-pocket", "Enclosed pocket", 1, enclosed_pocket),
    Technique("counting", "Counting white cells", 1, counting),
    Technique("two-choices-border", "Both choices border a cell", 2, two_choices_border),
    Technique("island-bottleneck", "Island bottleneck", 2, island_bottleneck),
    Technique("orphan-bottleneck", "Stray white cell bottleneck", 2, orphan_bottleneck),
    Technique("sea-articulation", "Sea articulation", 2, sea_articulation),
    Technique("pool-escape", "Pool escape", 2, pool_escape),
    Technique("completion-common-cell", "Cell in every completion", 3, completion_common_cell),
    Technique(
        "completion-common-border", "Cell bordering every completion", 3, completion_common_border
    ),
    Technique("completion-unreachable", "Cell in no completion", 3, completion_unreachable),
    Technique("walled-in-island", "Island walled in by the sea", 3, walled_in_island),
    Technique("perimeter-budget", "Perimeter budget", 3, perimeter_budget),
    Technique("white-budget", "White cells still to come", 4, white_budget),
    Technique("sea-budget", "Black cells still to come", 4, sea_budget),
    Technique("sea-sides", "The sea's free sides", 4, sea_sides),
    Technique("sea-exit-cases", "Both ways out of a black region", 4, sea_exit_cases),
    Technique("pool-cases", "Both ways to break a pool", 4, pool_cases),
    Technique("orphan-exit-cases", "Both ways out of a stray white cell", 4, orphan_exit_cases),
    Technique("island-exit-cases", "Every way out of an island", 4, island_exit_cases),
    Technique("island-options", "Every shape of an island agrees", 4, island_options),
    Technique("deep-cases", "Case split followed with island shapes", 4, deep_cases),
)
"""The catalogue, cheapest first (tiers never decrease down the table). Trial steps (tier 5)
come from `logic.trial`."""

TRIAL = Technique("trial", "Trial and error", 5, lambda state: None)
"""The row that stands for trial steps (made by `logic.trial`, not by this function)."""

_BY_ID = {t.id: t for t in (*TECHNIQUES, TRIAL)}


def technique(id: str) -> Technique:
    """The catalogue row with this id.

    Raises:
        KeyError: no such technique.
    """
    return _BY_ID[id]


def plain_step(state: State, max_tier: int = 4) -> Step | None:
    """The first step the table gives (cheapest technique first), up to `max_tier`."""
    for row in TECHNIQUES:
        if row.tier > max_tier:
            break
        step = row.func(state)
        if step is not None:
            return step
    return None
