"""The page's board model (static/js/board.js), run in the browser: random sequences of moves,
undo and redo; the saved history restores the same undo stack from the saved board, and a
history that does not fit the board is dropped while the board is kept."""

from __future__ import annotations

import random

from tests.web.browser.harness import open_puzzle

# Plays the scripted actions on a 6x6 board with two clues, returns what the tests compare.
PLAY = """async ([actions, limit]) => {
  const { Board } = await import('/static/js/board.js');
  const clues = [[7, 3], [28, 2]];
  const b = new Board(6, 6, clues);
  for (const [kind, cells, value] of actions) {
    if (kind === 'play') b.play(b.changesTo(cells, value));
    else if (kind === 'undo') b.undo();
    else b.redo();
  }
  const saved = b.movesText(limit);
  const back = new Board(6, 6, clues);
  const restored = back.restore(b.toString(), saved);
  const stack = [];
  while (back.undo()) stack.push(back.toString());
  const original = [];
  const copy = new Board(6, 6, clues);
  copy.restore(b.toString(), b.movesText());
  while (copy.undo()) original.push(copy.toString());
  const broken = new Board(6, 6, clues);
  const keptBoard = broken.restore(b.toString().replace(/#/, '.'), saved);
  return { board: b.toString(), saved, restored, stack, original,
           depth: b.history.length, clueCells: clues.map(([c]) => b.cells[c]),
           brokenHistory: broken.history.length, brokenBoard: broken.toString(), keptBoard };
}"""


def random_actions(rng: random.Random) -> list[list[object]]:
    actions: list[list[object]] = []
    for _ in range(rng.randrange(1, 40)):
        kind = rng.choice(["play", "play", "play", "undo", "redo"])
        cells = rng.sample(range(36), rng.randrange(1, 5))
        actions.append([kind, cells, rng.choice("#.?")])
    return actions


def test_history_round_trips_through_the_saved_moves(page, server) -> None:
    open_puzzle(page, server.url, "10x10/0")
    rng = random.Random(7)
    for _ in range(40):
        actions = random_actions(rng)
        answer = page.evaluate(PLAY, [actions, 5000])
        assert answer["clueCells"] == ["?", "?"]  # clues are never changed
        assert all(len(text) <= 16 for text in answer["saved"])
        # The restored undo stack walks back through the same boards as the original one,
        # down to the empty board.
        assert answer["stack"] == answer["original"]
        assert len(answer["stack"]) == answer["depth"]
        if answer["depth"]:
            assert answer["restored"] and answer["stack"][-1] == "?" * 36
        # A board that the moves do not lead to keeps the board and drops the history.
        if "#" in answer["board"]:
            assert answer["brokenHistory"] == 0
            assert answer["brokenBoard"] == answer["board"].replace("#", ".", 1)


def test_a_long_history_keeps_its_latest_moves(page, server) -> None:
    open_puzzle(page, server.url, "10x10/0")
    rng = random.Random(11)
    actions = [["play", rng.sample(range(36), 3), rng.choice("#.")] for _ in range(30)]
    answer = page.evaluate(PLAY, [actions, 20])
    assert len(answer["saved"]) <= 20
    assert answer["restored"]
    # The latest moves come back: undoing them walks back through the boards played.
    kept = len(answer["stack"])
    assert 0 < kept < answer["depth"]
    assert answer["stack"] == answer["original"][:kept]
