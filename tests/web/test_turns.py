"""The cheap lane's order (`nurikabe.web.turns.Turns`): round-robin over addresses, then
over their players, first come first served per player, and nobody past `most`."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe.web.turns import Turns


def test_addresses_then_players_take_turns() -> None:
    turns: Turns[str] = Turns(most=10)
    for n in range(3):
        turns.put(f"h{n}", "hostile-1", "10.0.0.9")  # a flood from one client
    for n in range(3):
        turns.put(f"m{n}", "hostile-2", "10.0.0.9")  # a made-up player of the same client
    turns.put("alice", "alice", "10.0.0.1")
    turns.put("bob", "bob", "10.0.0.2")
    taken = []
    while (got := turns.take()) is not None:
        taken.append(got[0])
    # each address in turn; within the hostile address, its players in turn
    assert taken == ["h0", "alice", "bob", "m0", "h1", "m1", "h2", "m2"]
    assert len(turns) == 0


def test_an_address_or_player_at_most_is_passed_over() -> None:
    turns: Turns[str] = Turns(most=1)
    turns.put("a1", "a", "x")
    turns.put("a2", "a", "x")
    turns.put("b1", "b", "x")  # another player of the same address
    turns.put("c1", "c", "y")
    assert turns.take() == ("a1", "a", "x")
    assert turns.take() == ("c1", "c", "y")
    assert turns.take() is None  # x runs one call already: b1 and a2 wait
    assert turns.held("a", "x") == (2, 3)
    turns.done("a", "x")
    assert turns.held("a", "x") == (1, 2)
    assert turns.take() == ("b1", "b", "x")  # the next player of x, before a's second call
    turns.done("b", "x")
    assert turns.take() == ("a2", "a", "x")
    with pytest.raises(ValueError):
        Turns(most=0)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 3),
    st.lists(
        st.one_of(
            st.tuples(st.just("put"), st.integers(0, 3), st.just(0)),
            st.tuples(st.just("take"), st.just(0), st.just(0)),
            st.tuples(st.just("done"), st.integers(0, 20), st.just(0)),
        ),
        max_size=60,
    ),
)
def test_nobody_runs_past_most_and_nothing_waits_for_nothing(
    most: int, ops: list[tuple[str, int, int]]
) -> None:
    """Against a plain model: every call is taken once, in its player's order; no player
    or address runs more than `most`; `take` gives None only when every waiting call's
    player or address is at `most`."""
    turns: Turns[int] = Turns(most)
    waiting: list[tuple[int, str, str]] = []  # the model's waiting calls, in order
    running: list[tuple[int, str, str]] = []
    taken: list[int] = []
    serial = 0
    for op, a, _ in ops:
        if op == "put":
            call = (serial, f"p{a}", f"addr{a // 2}")  # players 0 and 1 behind one address
            serial += 1
            turns.put(*call)
            waiting.append(call)
        elif op == "take":
            got = turns.take()
            per_player = Counter(p for _, p, _ in running)
            per_address = Counter(d for _, _, d in running)
            ready = [c for c in waiting if per_player[c[1]] < most and per_address[c[2]] < most]
            if got is None:
                assert not ready
                continue
            assert got in ready
            first = next(c for c in waiting if c[1] == got[1])
            assert got == first  # first come, first served within a player
            waiting.remove(got)
            running.append(got)
            taken.append(got[0])
        elif running:
            _, player, address = running.pop(a % len(running))
            turns.done(player, address)
        for player in {p for _, p, _ in waiting + running}:
            for address in {d for _, _, d in waiting + running}:
                held = turns.held(player, address)
                assert held == (
                    sum(p == player for _, p, _ in waiting + running),
                    sum(d == address for _, _, d in waiting + running),
                )
        assert len(turns) == len(waiting)
    assert len(taken) == len(set(taken))
