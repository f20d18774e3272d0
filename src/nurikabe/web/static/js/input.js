// Turns mouse, touch and keyboard input into moves on the game: a stroke starts on a cell,
// its first cell decides what every crossed cell becomes (black, dot or clear), and it ends
// when the button is released. The mouse scheme is a setting: left black / right dot, the
// desktop game's left white / right black / middle undo, or one button that cycles.

import { BLACK, DOT, UNKNOWN } from "./board.js";
import { cellAt } from "./render.js";

const CYCLE_LEFT = { [UNKNOWN]: BLACK, [BLACK]: DOT, [DOT]: UNKNOWN };
const CYCLE_RIGHT = { [UNKNOWN]: DOT, [DOT]: BLACK, [BLACK]: UNKNOWN };

/** What a press of `button` (0 left, 1 middle, 2 right) makes of a cell holding `value`. */
export function pressTarget(scheme, button, value) {
  const toggle = (mark) => (value === mark ? UNKNOWN : mark);
  if (scheme === "cycle") return button === 2 ? CYCLE_RIGHT[value] : CYCLE_LEFT[value];
  if (scheme === "white-left") {
    if (button === 0) return toggle(DOT);
    if (button === 2) return toggle(BLACK);
    return "undo";
  }
  if (button === 0) return toggle(BLACK);
  if (button === 2) return toggle(DOT);
  return null;
}

/**
 * Listen on the board `svg` and the document. `game` offers: board, settings, cursor,
 * beginStroke(cell, value), strokeTo(cell), endStroke(), undo(), redo(), mark(cell, value),
 * moveCursor(cell).
 */
export function attachInput(svg, game, zoom = null) {
  let stroke = null; // {pointerId, last: [x, y]}
  const touches = new Map(); // pointerId -> [x, y] of the fingers on the board
  let pinching = false; // two fingers came down: nothing is painted until every finger is up

  const twoFingers = () => [...touches.values()].slice(0, 2);

  const cellsBetween = (from, to) => {
    // Sample the pointer's path finely enough that a fast drag crosses every cell it passed.
    const [x0, y0] = from;
    const [x1, y1] = to;
    const box = svg.getBoundingClientRect();
    const step = Math.max(2, Math.min(box.width / game.board.cols, box.height / game.board.rows) / 4);
    const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0) / step);
    const out = [];
    for (let i = 1; i <= n; i++) {
      const cell = cellAt(svg, game.board, x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n);
      if (cell >= 0 && out[out.length - 1] !== cell) out.push(cell);
    }
    return out;
  };

  svg.addEventListener("contextmenu", (e) => e.preventDefault());
  svg.addEventListener("mousedown", (e) => {
    if (e.button === 1) e.preventDefault(); // no auto-scroll on the board
  });

  svg.addEventListener("pointerdown", (e) => {
    if (game.paused) return;
    if (e.pointerType === "touch") {
      touches.set(e.pointerId, [e.clientX, e.clientY]);
      if (touches.size >= 2) {
        // A second finger never paints: what the first painted is taken back, and the two
        // pinch and pan the board instead.
        e.preventDefault();
        if (stroke) {
          stroke = null;
          game.cancelStroke();
        }
        if (!pinching) {
          pinching = true;
          zoom?.beginPinch(...twoFingers());
        }
        svg.setPointerCapture(e.pointerId);
        return;
      }
      if (pinching) return;
    }
    const cell = cellAt(svg, game.board, e.clientX, e.clientY);
    if (cell < 0 || stroke) return;
    e.preventDefault();
    const button = e.pointerType === "touch" ? 0 : e.button;
    game.moveCursor(cell, false);
    if (game.wallMode || (e.shiftKey && button === 0)) {
      game.showWall(cell); // shift+click, or the Wall button: the wall, not a move
      return;
    }
    if (game.board.isClue(cell)) return; // clues are never shaded
    const target = pressTarget(game.settings.mouse, button, game.board.cells[cell]);
    if (target === "undo") {
      game.undo();
      return;
    }
    if (target == null) return;
    svg.setPointerCapture(e.pointerId);
    stroke = { pointerId: e.pointerId, last: [e.clientX, e.clientY] };
    game.beginStroke(cell, target);
  });

  svg.addEventListener("pointermove", (e) => {
    if (touches.has(e.pointerId)) touches.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinching) {
      e.preventDefault();
      if (touches.size >= 2) zoom?.movePinch(...twoFingers());
      return;
    }
    if (!stroke || e.pointerId !== stroke.pointerId) return;
    e.preventDefault();
    for (const cell of cellsBetween(stroke.last, [e.clientX, e.clientY])) game.strokeTo(cell);
    stroke.last = [e.clientX, e.clientY];
  });

  const finish = (e) => {
    touches.delete(e.pointerId);
    if (pinching) {
      if (touches.size < 2) zoom?.endPinch();
      if (touches.size === 0) pinching = false;
      return;
    }
    if (!stroke || e.pointerId !== stroke.pointerId) return;
    stroke = null;
    game.endStroke();
  };
  svg.addEventListener("pointerup", finish);
  svg.addEventListener("pointercancel", finish);

  document.addEventListener("keydown", (e) => {
    const tag = e.target?.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const key = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    if (game.paused) return;
    if (ctrl && (key === "z" || key === "Z")) {
      e.preventDefault();
      if (e.shiftKey) game.redo();
      else game.undo();
      return;
    }
    if (ctrl && (key === "y" || key === "Y")) {
      e.preventDefault();
      game.redo();
      return;
    }
    if (ctrl || e.altKey || game.paused) return;
    const { rows, cols } = game.board;
    const at = game.cursor < 0 ? 0 : game.cursor;
    const r = Math.floor(at / cols);
    const c = at % cols;
    const moves = {
      ArrowUp: [Math.max(0, r - 1), c],
      ArrowDown: [Math.min(rows - 1, r + 1), c],
      ArrowLeft: [r, Math.max(0, c - 1)],
      ArrowRight: [r, Math.min(cols - 1, c + 1)],
    };
    if (key in moves) {
      e.preventDefault();
      const [nr, nc] = game.cursor < 0 ? [0, 0] : moves[key];
      game.moveCursor(nr * cols + nc, true);
      return;
    }
    if (game.cursor < 0) return;
    // Space on a focused button or summary presses it, as usual.
    if (key === " " && (tag === "BUTTON" || tag === "SUMMARY" || tag === "A")) return;
    const value = game.board.cells[game.cursor];
    let target = null;
    if (key === " " || key === "x" || key === "X") target = value === BLACK ? UNKNOWN : BLACK;
    else if (key === "." || key === "o") target = value === DOT ? UNKNOWN : DOT;
    else if (key === "Backspace" || key === "Delete") target = UNKNOWN;
    if (target != null) {
      e.preventDefault();
      game.moveCursor(game.cursor, true);
      game.mark(game.cursor, target);
    }
  });
}
