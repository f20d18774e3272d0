"""Shared fixtures, and the signal state the signal tests need."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.processes import kill_leftovers

# A suite started in the background of a non-interactive shell (`make test &`, nohup, some
# CI runners) inherits SIGINT ignored, and every process it starts would inherit that too:
# the tests that send Ctrl-C to a command would see it ignored. Python takes SIGINT as
# KeyboardInterrupt only when it is not ignored at start-up, so restore it here (a
# handler, unlike "ignored", is reset to the default in the processes started).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# Hypothesis's timing checks (a 200 ms deadline per example, "input generation too slow")
# measure the machine, not the code: on a shared or loaded runner they fail tests whose
# examples are right. Every property test runs without them; what it asserts is unchanged.
settings.register_profile("nurikabe", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("nurikabe")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `long` first: `pytest -n` hands tests out in order, and a long one
    handed out last keeps one worker busy while the others have ended."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(autouse=True)
def _no_command_left_running() -> Iterator[None]:
    """After each test, end any command it started with `tests.processes.start_cli`."""
    yield
    kill_leftovers()
