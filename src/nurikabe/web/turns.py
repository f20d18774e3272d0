"""Whose turn it is: the order in which a lane serves the waiting calls of many players.

`Turns` holds the calls that wait for a thread, each with the player it counts against
and the network address it came from. A free thread takes the next call in turn:
round-robin over the addresses that have a call waiting, and within an address
round-robin over its players, each player's calls first come, first served. An address
or a player already running `most` calls is passed over (even when a thread is free:
`most` below the lane's threads keeps a thread for everyone else), so that a client
with many calls, or many made-up players behind one address, gets its turns and no
more, and a call of anyone else waits at most for the calls running, not for the
client's whole queue.

It only orders and counts; the lane (`lanes.ThreadLane`) owns the threads, the lock and
the limits on how many calls a player or an address may have waiting.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from typing import Generic, TypeVar

__all__ = ["Turns"]

T = TypeVar("T")


class Turns(Generic[T]):
    """Calls waiting per address and player, taken in turn (see the module's docstring).

    Not thread-safe: the lane calls it under its own lock.
    """

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError("Turns: most must be >= 1")
        self.most = most
        self._waiting: OrderedDict[str, OrderedDict[str, deque[T]]] = OrderedDict()
        self._running: Counter[tuple[str, str]] = Counter()
        self._held: Counter[tuple[str, str]] = Counter()

    def __len__(self) -> int:
        return sum(len(calls) for players in self._waiting.values() for calls in players.values())

    def held(self, player: str, address: str) -> tuple[int, int]:
        """The calls `player` and `address` have waiting or running."""
        return self._held["player", player], self._held["address", address]

    def put(self, call: T, player: str, address: str) -> None:
        """Add `call` of `player`, from `address`, at the end of the player's own line."""
        players = self._waiting.setdefault(address, OrderedDict())
        players.setdefault(player, deque()).append(call)
        self._held["player", player] += 1
        self._held["address", address] += 1

    def take(self) -> tuple[T, str, str] | None:
        """The next call in turn, with its player and address (now counted as running),
        or None when every waiting call belongs to an address or player at `most`."""
        for address, players in self._waiting.items():
            if self._running["address", address] >= self.most:
                continue
            for player, calls in players.items():
                if self._running["player", player] >= self.most:
                    continue
                call = calls.popleft()
                # the next turn goes to the others first
                if calls:
                    players.move_to_end(player)
                else:
                    del players[player]
                if players:
                    self._waiting.move_to_end(address)
                else:
                    del self._waiting[address]
                self._running["player", player] += 1
                self._running["address", address] += 1
                return call, player, address
        return None

    def done(self, player: str, address: str) -> None:
        """A call taken for `player` and `address` has ended."""
        for key in (("player", player), ("address", address)):
            self._running[key] -= 1
            self._held[key] -= 1
            if not self._held[key]:
                del self._held[key]
            if not self._running[key]:
                del self._running[key]
