"""The exceptions that stop a search when one of its limits is reached.

Two meanings, one class each:

- `OutOfTime`: a time limit passed (CPU or wall-clock time, whichever the raiser's
  limit is counted in). Running out of time only ever stops work: it never changes
  what a search answers when it finishes.
- `OutOfBudget`: a budget of counted work (search nodes, technique scans) is spent.
  Counted work is the same on every machine, so giving up on it is part of the answer.

Both are internal: raised deep inside a search to unwind it, and caught by that search's
own entry point, which turns them into an ordinary outcome (a `Result` with
``limit_hit``, a walkthrough ``"stopped"``, a hint of None, a 422 from the web API).
Neither reaches a caller of the public API: timed-out is a result, not an exception.

Both derive from `Exception`, and neither from `NurikabeError` (a `ValueError`): a limit
is not bad input, so an ``except ValueError`` or ``except NurikabeError`` around a
search never swallows one.

This module imports nothing, so that any layer, from `grid` up, may raise them.
"""

from __future__ import annotations

__all__ = ["OutOfBudget", "OutOfTime"]


class OutOfTime(Exception):
    """A time limit passed: the search stops where it is, with nothing found.

    Its message, when it has one, says where the search stopped (the logic engine's
    trial search says at which depth).

    Raised by:

    - the logic engine's costly techniques and its trial search, past the CPU-time
      deadline of the walkthrough or hint (`logic.state.State.check_time`,
      `logic.trial.TrialBudget.spend`, `logic.engine.explain`), and by the exact core
      answering the trial search's guide (`solver.refuter.Position`);
    - the Python engines, past `Limit.seconds` of wall-clock time: the CP-SAT engines
      while building their model (`solver.cpsat`), island expansion
      (`solver.expand`) and the reference engine's propagation (`solver.reference`);
    - the web API's booklet drawing, past ``PRINT_SECONDS`` (`web.printing`).

    Caught by:

    - `logic.trial.find_trial`, which raises it again saying at which depth;
    - `logic.engine.find_step` (no step: None) and `logic.engine.explain` (the
      walkthrough ends ``"stopped"``, its message saying where);
    - each engine's ``solutions()``, which ends with ``limit_hit = "seconds"``;
    - `web.printing`, which answers 422 ``timeout``.
    """


class OutOfBudget(Exception):
    """A budget of counted work is spent: the search gives up, with nothing found.

    Raised by:

    - `logic.trial.TrialBudget.spend`, when the trial search's technique scans run out;
    - `solver.expand.ExpandSearch`, at `Limit.nodes` search nodes.

    Caught by:

    - `logic.trial.find_trial`, which then finds no trial step (None);
    - `solver.expand.ExpandSearch.solutions`, which ends with ``limit_hit = "nodes"``.
    """
