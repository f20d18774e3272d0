// The rules in the page: `check`, a line-by-line port of src/nurikabe/rules.py `check`, which
// is the definition. Same checklist order, same stable codes (clue-shaded, pool,
// island-no-clue, sea-split, island-two-clues, island-size), same modes ("first", "all",
// "partial"), same cells and messages. The page marks `check(board, "partial")` as the
// player goes: only what no filling of the unknown cells can put right, exactly what the
// server's /api/check reports. tests/data/rules_cases.json holds the cases both sides must
// agree on (tests/test_rules.py runs them through rules.py, tests/web/browser/test_rules_js.py
// through this file); change a rule in rules.py first, then here, then add its case there.
//
// Also here: the islands (connected white cells: dots and clues) and the marks the rules
// force around finished islands (the "finish islands" option).

import { BLACK, DOT, UNKNOWN } from "./board.js";

/** The checklist's codes, in the order `check` runs them (rules.py `CODES`). */
export const CODES = ["clue-shaded", "pool", "island-no-clue", "sea-split", "island-two-clues", "island-size"];

/** The values `check` accepts for `mode` (rules.py `MODES`). */
export const MODES = ["first", "all", "partial"];

/** The setting that switches the live marking of each code (a clue is never shaded in the page). */
export const ERROR_SETTING = {
  "clue-shaded": "liveErrors",
  pool: "livePool",
  "island-no-clue": "liveIsland",
  "sea-split": "liveSea",
  "island-two-clues": "liveIsland",
  "island-size": "liveIsland",
};

/** Connected groups of the cells for which `inside(cell)` holds, ordered by their smallest cell. */
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
    out.push(group.sort((a, b) => a - b));
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

// ---- the checker (rules.py) ---------------------------------------------------------------

/** What every rule reads (rules.py `_State`): the board split into per-cell flags. */
class State {
  constructor(board, partial) {
    this.board = board;
    this.partial = partial;
    const n = board.size;
    this.black = new Uint8Array(n);
    this.clue = new Uint8Array(n); // a clue cell is white unless the board shades it
    this.white = new Uint8Array(n); // in a full check every cell that is not black
    this.unknown = new Uint8Array(n);
    for (let c = 0; c < n; c++) {
      const black = board.cells[c] === BLACK;
      this.black[c] = black ? 1 : 0;
      this.clue[c] = board.isClue(c) && !black ? 1 : 0;
      const white = !black && (!partial || board.cells[c] === DOT || this.clue[c] === 1);
      this.white[c] = white ? 1 : 0;
      this.unknown[c] = !black && !white ? 1 : 0;
    }
  }

  name(cell) {
    return this.board.name(cell);
  }

  clueText(cell) {
    const value = this.board.clues.get(cell);
    return value == null ? "?" : String(value);
  }
}

/** `r1c1, r1c2 and r2c1`, or the first few and a count (rules.py `_names`). */
function names(s, cells, limit = 4) {
  const all = cells.map((c) => s.name(c));
  if (all.length > limit) return `${all.slice(0, limit).join(", ")} and ${all.length - limit} more`;
  if (all.length === 1) return all[0];
  return `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

function cellsWord(n) {
  return n === 1 ? `${n} cell` : `${n} cells`;
}

function violation(code, cells, message) {
  return { code, cells, message };
}

function clueShaded(s) {
  const out = [];
  for (let c = 0; c < s.board.size; c++) {
    if (s.black[c] && s.board.isClue(c)) {
      out.push(violation("clue-shaded", [c], `The clue ${s.clueText(c)} at ${s.name(c)} is shaded; clue cells are white.`));
    }
  }
  return out;
}

function pool(s) {
  const { rows, cols } = s.board;
  const corner = new Uint8Array(s.board.size);
  const inPool = new Uint8Array(s.board.size);
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const square = [r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1];
      if (square.every((x) => s.black[x])) {
        corner[square[0]] = 1;
        for (const x of square) inPool[x] = 1;
      }
    }
  }
  const out = [];
  for (const group of groups(s.board, (c) => inPool[c] === 1)) {
    const corners = group.filter((c) => corner[c]);
    let text;
    if (corners.length > 1) {
      text = `The black cells with top-left corners at ${names(s, corners)} form 2x2 pools.`;
    } else {
      const i = corners[0];
      text = `The black cells ${s.name(i)} to ${s.name(i + cols + 1)} form a 2x2 pool.`;
    }
    out.push(violation("pool", group, text));
  }
  return out;
}

function islandNoClue(s) {
  // Full check: every white area without a clue. Partial check: the white cells whose
  // white-or-unknown area holds no clue; no way of filling the unknowns gives them one.
  const out = [];
  for (const area of groups(s.board, (c) => !s.black[c])) {
    if (area.some((c) => s.clue[c])) continue;
    const white = area.filter((c) => s.white[c]);
    if (!white.length) continue;
    const n = white.length;
    const text =
      s.partial && white.length !== area.length
        ? `The white ${n === 1 ? "cell" : "cells"} ${names(s, white)} cannot reach any clue.`
        : `The white area at ${s.name(white[0])} (${cellsWord(n)}) has no clue.`;
    out.push(violation("island-no-clue", white, text));
  }
  return out;
}

function seaSplit(s) {
  // Full check: the black components. Partial check: the black cells of each
  // black-or-unknown component; if two such components hold black cells, no filling of the
  // unknowns can join them.
  const parts = s.partial
    ? groups(s.board, (c) => s.black[c] || s.unknown[c])
        .map((part) => part.filter((c) => s.black[c]))
        .filter((part) => part.length)
    : groups(s.board, (c) => s.black[c] === 1);
  if (parts.length < 2) return [];
  let keep = 0; // the largest part, the first of them when tied
  parts.forEach((part, k) => {
    if (part.length > parts[keep].length) keep = k;
  });
  const main = parts[keep];
  const out = [];
  parts.forEach((part, k) => {
    if (k === keep) return;
    const n = part.length;
    const text =
      `The black ${n === 1 ? "cell" : "cells"} ${names(s, part)} ${n === 1 ? "is" : "are"} ` +
      `cut off from the main sea (${cellsWord(main.length)} at ${s.name(main[0])}).`;
    out.push(violation("sea-split", part, text));
  });
  return out;
}

function islandTwoClues(s) {
  const out = [];
  for (const island of groups(s.board, (c) => s.white[c] === 1)) {
    const clues = island.filter((c) => s.clue[c]);
    if (clues.length > 1) {
      const listed = clues.map((c) => `${s.clueText(c)} at ${s.name(c)}`).join(", ");
      const text = `The island at ${s.name(island[0])} holds ${clues.length} clues: ${listed}.`;
      out.push(violation("island-two-clues", island, text));
    }
  }
  return out;
}

function islandSize(s) {
  const out = [];
  const rooms = s.partial ? groups(s.board, (c) => !s.black[c]) : [];
  const roomOf = new Int32Array(s.board.size); // the index in `rooms` of each non-black cell
  rooms.forEach((room, k) => {
    for (const c of room) roomOf[c] = k;
  });
  for (const island of groups(s.board, (c) => s.white[c] === 1)) {
    const clues = island.filter((c) => s.clue[c]);
    if (clues.length !== 1) continue; // no clue, or several: other rules report those
    const i = clues[0];
    const value = s.board.clues.get(i);
    if (value == null) continue; // a ? clue: any size
    const size = island.length;
    const of = `The island of the ${value} at ${s.name(i)}`;
    if (!s.partial) {
      if (size !== value) out.push(violation("island-size", island, `${of} has ${cellsWord(size)}.`));
      continue;
    }
    if (size > value) {
      out.push(violation("island-size", island, `${of} already has ${cellsWord(size)}.`));
      continue;
    }
    // Whatever the unknowns become, the island stays inside its non-black area.
    const room = rooms[roomOf[i]];
    if (room.length < value) {
      const text =
        room.length === size
          ? `${of} is closed off with ${cellsWord(size)}.`
          : `${of} can grow to ${cellsWord(room.length)} at most.`;
      out.push(violation("island-size", room, text));
    }
  }
  return out;
}

/** The checklist, in the order `check` runs it (rules.py `RULES`). */
const RULES = [
  ["clue-shaded", clueShaded],
  ["pool", pool],
  ["island-no-clue", islandNoClue],
  ["sea-split", seaSplit],
  ["island-two-clues", islandTwoClues],
  ["island-size", islandSize],
];

/**
 * The rules `board` breaks, as [{code, cells, message}] in checklist order (empty when none
 * is); `cells` are cell indices, ascending. In the full modes ("first", "all") unknown cells
 * count as white, and "first" stops after the first rule that reports anything; "partial"
 * reports, for every rule, only what no filling of the unknown cells can put right. A clue
 * cell is white unless the board holds "#" there (then it is `clue-shaded`).
 */
export function check(board, mode = "first") {
  if (!MODES.includes(mode)) throw new Error(`unknown check mode ${mode} (expected one of ${MODES.join(", ")})`);
  const state = new State(board, mode === "partial");
  const found = [];
  for (const [, find] of RULES) {
    found.push(...find(state));
    if (found.length && mode === "first") break;
  }
  return found;
}

// ---- finishing marks ------------------------------------------------------------------------

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
