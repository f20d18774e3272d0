"""The exceptions that stop a search at a limit are internal, and are not bad input."""

from __future__ import annotations

import pytest

from nurikabe.errors import NurikabeError
from nurikabe.limits import OutOfBudget, OutOfTime


@pytest.mark.parametrize("stop", [OutOfTime, OutOfBudget])
def test_a_limit_is_not_bad_input(stop: type[Exception]) -> None:
    """An ``except ValueError`` (or `NurikabeError`) around a search never swallows a
    limit, and an ``except Exception`` that records a job's failure does see one."""
    assert issubclass(stop, Exception)
    assert not issubclass(stop, ValueError | NurikabeError)
    assert not issubclass(stop, OutOfBudget if stop is OutOfTime else OutOfTime)
