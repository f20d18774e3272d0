// What the rules already say about the player's board, computed in the page: the islands
// (connected white cells: dots and clues), the errors the rules prove (a pool, an island with
// two clues or too many cells, an island walled in too small, a walled-in sea) and the marks
// they force (used by the "finish islands" option).

import { BLACK, DOT, UNKNOWN } from "./board.js";

/** Connected groups of the cells for which `inside(cell)` holds. */
export function groups(board, inside) {
  const seen = new Uint8Array(board.size);
  const out = [];
  for (let start = 0; start < board.size; start++) {
    if (seen[start] || !inside(start)) continue;
    const group = [start];
    seen[start] = 1;
    for (let i = 0; i < group.length; i++) {
      for (const n of board.neighbours(group[i])) {
        if (!seen[n] && inside(n)) {
          seen[n] = 1;
          group.push(n);
        }
      }
    }
    out.push(group);
  }
  return out;
}

/** The island (white group) holding `cell`, or null when the cell is not white. */
export function islandOf(board, cell) {
  if (!board.isWhite(cell)) return null;
  return groups(board, (c) => board.isWhite(c)).find((g) => g.includes(cell)) || null;
}

function cluesIn(board, group) {
  return group.filter((c) => board.isClue(c));
}

function touchesUnknown(board, group) {
  return group.some((c) => board.neighbours(c).some((n) => board.cells[n] === UNKNOWN && !board.isClue(n)));
}

/** The setting that switches the live marking of each error code. */
export const ERROR_SETTING = {
  pool: "livePool",
  "two-clues": "liveIsland",
  "too-big": "liveIsland",
  "too-small": "liveIsland",
  "no-clue": "liveIsland",
  "sea-split": "liveSea",
};

/** Errors the rules prove on the board: [{code, cells, message}]. */
export function provenErrors(board) {
  const errors = [];
  const { rows, cols } = board;
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const square = [r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1];
      if (square.every((x) => board.cells[x] === BLACK)) {
        errors.push({ code: "pool", cells: square, message: "A 2x2 pool of black cells." });
      }
    }
  }
  for (const island of groups(board, (c) => board.isWhite(c))) {
    const clues = cluesIn(board, island);
    const closed = !touchesUnknown(board, island);
    if (clues.length > 1) {
      errors.push({ code: "two-clues", cells: island, message: "An island with two numbers." });
    } else if (clues.length === 1) {
      const want = board.clues.get(clues[0]);
      if (want != null && island.length > want) {
        errors.push({ code: "too-big", cells: island, message: `An island of ${want} with ${island.length} cells.` });
      } else if (want != null && closed && island.length < want) {
        errors.push({ code: "too-small", cells: island, message: `An island of ${want} walled in at ${island.length} cells.` });
      }
    } else if (closed) {
      errors.push({ code: "no-clue", cells: island, message: "A walled-in island without a number." });
    }
  }
  const seas = groups(board, (c) => board.cells[c] === BLACK);
  if (seas.length > 1) {
    for (const sea of seas) {
      if (!touchesUnknown(board, sea)) {
        errors.push({ code: "sea-split", cells: sea, message: "A walled-in part of the sea." });
      }
    }
  }
  return errors;
}

/**
 * Marks the rules force around finished islands: black around an island that has all its
 * cells, dots inside a region walled in by black that holds one number and its size.
 */
export function finishingMarks(board) {
  const marks = new Map();
  for (const island of groups(board, (c) => board.isWhite(c))) {
    const clues = cluesIn(board, island);
    if (clues.length !== 1 || board.clues.get(clues[0]) !== island.length) continue;
    for (const c of island) {
      for (const n of board.neighbours(c)) {
        if (board.cells[n] === UNKNOWN && !board.isClue(n)) marks.set(n, BLACK);
      }
    }
  }
  for (const region of groups(board, (c) => board.cells[c] !== BLACK)) {
    const clues = cluesIn(board, region);
    if (clues.length !== 1 || board.clues.get(clues[0]) !== region.length) continue;
    for (const c of region) {
      if (board.cells[c] === UNKNOWN && !board.isClue(c) && !marks.has(c)) marks.set(c, DOT);
    }
  }
  return [...marks].map(([cell, to]) => [cell, board.cells[cell], to]);
}
