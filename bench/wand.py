"""The game's wand played on a bundled puzzle: how many presses end in a reveal.

It plays as a player who only presses the wand: from `--before` steps ahead of the
walkthrough's first trial step, each press asks the server's hint (`web.app._hint`,
with the server's memories of the puzzle, `web.warm.Memories`) and takes what it gives,
a reveal included. As the page does (game.js, `THINK_ROUNDS`), a hint whose search ran
out of its 2 s is asked again, up to `--rounds` times in all, before its offered cell
is taken; `--rounds 1` is the wand before it kept thinking. Prints the presses, the
reveals, the trial hints, the CPU time of each of those and the total.

    python bench/wand.py 30x30/35 [--before 30] [--presses 60] [--rounds 8]

Times are CPU seconds of this process (the hint's own limit is CPU time too).
"""

from __future__ import annotations

import argparse
import time

from nurikabe.collection import get, open_db
from nurikabe.logic import explain
from nurikabe.logic.state import State
from nurikabe.puzzle import Board
from nurikabe.web.app import _hint
from nurikabe.web.games import Game
from nurikabe.web.models import HintStep
from nurikabe.web.warm import Memories


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("key", help="collection/number, such as 30x30/35")
    ap.add_argument("--before", type=int, default=30, help="steps before the first trial")
    ap.add_argument("--presses", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=8, help="asks per press (game.js: 8)")
    args = ap.parse_args()
    collection, number = args.key.split("/")
    entry = get(open_db(readonly=True), int(number), collection)
    if entry is None:
        raise SystemExit(f"no puzzle {args.key}")
    walk = explain(entry.puzzle, seconds=None)
    first = next((n for n, s in enumerate(walk.steps) if s.kind == "trial"), len(walk.steps))
    state = State(entry.puzzle)
    for step in walk.steps[: max(0, first - args.before)]:
        state.decide(step.black_mask, step.white_mask)
    black, white = state.black, state.white
    game = Game(collection, int(number), entry.puzzle, entry.solution)
    memories = Memories()
    presses = reveals = trials = 0
    total = 0.0
    shown: list[str] = []
    while presses < args.presses:
        presses += 1
        board = Board(entry.puzzle, black, white)
        began = time.process_time()
        for _ in range(args.rounds):
            hint = _hint(game, board, memories)
            if not isinstance(hint, HintStep) or hint.reveal != "time":
                break
        spent = time.process_time() - began
        total += spent
        if not isinstance(hint, HintStep):
            break
        if hint.reveal:
            reveals += 1
            shown.append(f"reveal {spent:.1f}")
        elif hint.technique == "trial":
            trials += 1
            shown.append(f"trial {spent:.1f}")
        for cell, color in hint.cells:
            if color == "black":
                black |= 1 << cell
            else:
                white |= 1 << cell
    print(
        f"{args.key}: {presses} presses, {reveals} reveals, {trials} trial hints, "
        f"{total:.1f} s of CPU (asks per press up to {args.rounds})"
    )
    print("  " + ", ".join(shown))


if __name__ == "__main__":
    main()
