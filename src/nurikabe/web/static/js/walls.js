// The walls (connected regions of black cells): pzprjs's "irowake", each wall in its own
// colour, kept from one move to the next as far as it can be (a wall keeps the colour most
// of its cells had; when two walls join, the larger one's wins; a new wall gets the colour
// used least), and the wall a cell belongs to, for the highlight that shows early a sea
// about to split.

import { BLACK } from "./board.js";

export const WALL_COLOURS = 12;

/** The walls of `board`: arrays of cells, each a connected region of black cells. */
export function walls(board) {
  const seen = new Uint8Array(board.size);
  const out = [];
  for (let start = 0; start < board.size; start++) {
    if (seen[start] || board.cells[start] !== BLACK) continue;
    const wall = [start];
    seen[start] = 1;
    for (let i = 0; i < wall.length; i++) {
      for (const next of board.neighbours(wall[i])) {
        if (!seen[next] && board.cells[next] === BLACK) {
          seen[next] = 1;
          wall.push(next);
        }
      }
    }
    out.push(wall);
  }
  return out;
}

/** The cells of the wall `cell` belongs to (empty unless it is black). */
export function wallOf(board, cell) {
  if (board.cells[cell] !== BLACK) return [];
  return walls(board).find((wall) => wall.includes(cell)) || [];
}

/** Colours for the walls, stable across moves; `shuffle()` deals new ones. */
export class WallColours {
  constructor() {
    this.previous = new Map(); // cell -> colour at the last call
    this.offset = 0;
  }

  shuffle() {
    this.offset = (this.offset + 1 + Math.floor(Math.random() * (WALL_COLOURS - 1))) % WALL_COLOURS;
    this.previous = new Map();
  }

  /** cell -> colour index (0..WALL_COLOURS-1) for every black cell of `board`. */
  assign(board) {
    const found = walls(board).sort((a, b) => b.length - a.length);
    const used = new Array(WALL_COLOURS).fill(0);
    const out = new Map();
    for (const wall of found) {
      const votes = new Map();
      for (const cell of wall) {
        const colour = this.previous.get(cell);
        if (colour !== undefined) votes.set(colour, (votes.get(colour) || 0) + 1);
      }
      let colour = -1;
      for (const [c, n] of [...votes].sort((x, y) => y[1] - x[1] || x[0] - y[0])) {
        if (!used[c]) {
          colour = c;
          break;
        }
      }
      if (colour < 0) {
        // the colour used least, starting from a place that depends on the wall's first cell
        const from = (Math.min(...wall) * 7 + this.offset) % WALL_COLOURS;
        let best = from;
        for (let k = 0; k < WALL_COLOURS; k++) {
          const c = (from + k) % WALL_COLOURS;
          if (used[c] < used[best]) best = c;
        }
        colour = best;
      }
      used[colour]++;
      for (const cell of wall) out.set(cell, colour);
    }
    this.previous = out;
    return out;
  }
}
