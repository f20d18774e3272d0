"""Random options (and, in a subprocess, random Ctrl-C and SIGTERM) thrown at the
CLI never give a traceback, and every exit code is one the command documents."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from nurikabe import collection
from nurikabe.cli import main
from tests.processes import start_cli, wait_or_kill

EXAMPLE = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"

NUMBERS = ["nan", "inf", "-inf", "-1", "0", "0.3", "1", "2", "1e400", "3.5", "x", "", "9" * 30]

# (command words, exit codes it documents, option -> candidate values); every command
# gets a small time budget first, so that random options cannot make a test slow.
COMMANDS: list[tuple[list[str], set[int], dict[str, list[str]]]] = [
    (
        ["generate", "--seconds", "1", "--jobs", "1", "--difficulty", "easy"],
        {0, 1, 2},
        {
            "--size": ["5x5", "0x3", "3", "100x100", "2x2", "1x9", "x", "4x6", "-3x4"],
            "--count": ["1", "2", "0", "-3", "1e3", "x"],
            "--max-island": ["1", "3", "0", "30", "300000000", "2.5", "nan"],
            "--mean-island": NUMBERS,
            "--clue-density": NUMBERS,
            "--seconds": ["nan", "inf", "-1", "0", "0.3", "1e400", "abc"],
            "--jobs": ["0", "-1", "1", "x", "1000"],
            "--symmetry": ["none", "rot180", "mirror", "bad"],
            "--seed": ["1", "-5", "x", "1" * 40],
        },
    ),
    (
        ["solve", EXAMPLE, "--timeout", "1"],
        {0, 1, 2, 3, 4},
        {
            "--timeout": ["nan", "inf", "-1", "0", "0.3", "1e400", "abc"],
            "--limit": ["1", "0", "-2", "x", "3"],
            "--engine": ["native", "bad", ""],
        },
    ),
    (["grade", EXAMPLE, "--seconds", "1"], {0, 2}, {"--seconds": NUMBERS}),
    (["explain", EXAMPLE, "--seconds", "1"], {0, 2, 4, 5}, {"--seconds": NUMBERS}),
    (["hint", EXAMPLE, "--seconds", "1"], {0, 2, 3, 4, 5}, {"--seconds": NUMBERS}),
    (
        ["show", EXAMPLE, "--solution"],
        {0, 1, 2},
        {"--seconds": NUMBERS, "--format": ["text", "svg", "png"]},
    ),
    (
        ["collection", "show"],
        {0, 2},
        {"": ["0", "1", "-1", "99999999999999999999", "x", "1e3"], "--collection": ["10x10", "x"]},
    ),
    (
        ["collection", "list"],
        {0, 2},
        {"": ["10x10", "15x15", "none"], "--level": ["easy", "x"]},
    ),
]


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[list[str], set[int]]:
    words, codes, options = draw(st.sampled_from(COMMANDS))
    argv = list(words)
    for name in draw(st.lists(st.sampled_from(sorted(options)), max_size=4, unique=True)):
        value = draw(st.sampled_from(options[name]))
        argv += [value] if name == "" else [name, value]
    return argv, codes


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@pytest.mark.long
@given(case=command_lines())
def test_random_options_never_traceback(
    case: tuple[list[str], set[int]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv, codes = case
    try:
        code = main(argv)  # any exception but SystemExit fails the test: a traceback
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code in codes, (argv, code, err)
    assert "Traceback" not in err
    if code == 2:
        assert len([line for line in err.splitlines() if line.strip()]) == 1, (argv, err)


HARD_URL = (  # a 20x20 with six ? clues: seconds of work for every command
    "https://puzz.link/p?nurikabe/20/20/zg.h3g3i1m1zh3k1j.idr4t2m2g7m3k.o4r5q3j7i1i3zm."
    "i7g2j3h1h2m5g.zh1i2h6k6j9h7zo.r1j4zq3g3l2h2k2h1zi"
)

SIGNALLED: list[list[str]] = [
    ["generate", "--size", "5x5", "--difficulty", "easy", "--count", "300", "--jobs", "2"],
    ["generate", "--size", "6x6", "--count", "100", "--jobs", "1"],
    ["solve", "https://puzz.link/p?nurikabe/6/6/.zt./", "--all", "--timeout", "30"],
    ["solve", "https://puzz.link/p?nurikabe/6/6/.zt./", "--count", "--timeout", "30"],
    ["explain", HARD_URL, "--seconds", "30"],
    ["show", HARD_URL, "--solution", "--seconds", "30"],
]


@pytest.mark.long
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],  # shrinking would rerun minutes of processes
)
@given(
    st.sampled_from(SIGNALLED),
    st.sampled_from([signal.SIGINT, signal.SIGTERM]),
    st.booleans(),
    st.floats(min_value=1.0, max_value=4.0),  # past Python's start-up (see below)
)
def test_random_signals_never_traceback(
    argv: list[str], sig: signal.Signals, group: bool, after: float
) -> None:
    """Any of these commands, sent Ctrl-C or SIGTERM at a random moment once started,
    ends at once with 130 (or its normal code, if it was done) and no traceback.

    (A Ctrl-C in the first few hundred milliseconds, while Python imports the package,
    still shows Python's own KeyboardInterrupt traceback: only the entry point can
    catch that.)"""
    proc = start_cli(argv)
    time.sleep(after)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    sent = time.perf_counter()
    _, err = wait_or_kill(proc, 30)
    assert time.perf_counter() - sent < 3
    assert "Traceback" not in err, err
    allowed = {130, 0, 1, 3, 4}
    if argv[0] != "generate":
        # Only batches turn SIGTERM into a clean stop (they have work to keep); other
        # commands die of it at once, as documented (exit 143 in a shell).
        allowed.add(-signal.SIGTERM)
    assert proc.returncode in allowed, (argv, proc.returncode, err)


def test_collection_commands_on_the_bundled_file() -> None:
    """The fuzzed commands read the bundled file; it must still be whole."""
    conn = collection.open_db(collection.bundled_path(), readonly=True)
    assert sum(n for _, n in collection.collections(conn)) > 0
    assert Path(collection.bundled_path()).stat().st_size > 0
