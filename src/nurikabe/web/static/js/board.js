// The board model: the puzzle's cells, the player's marks and the undo/redo history.
// A cell holds "?" (unknown), "#" (black) or "." (dot, known white). Clue cells stay "?"
// and are never changed. A move is a list of changes [cell, from, to] made by one action
// (one click, one drag, one hint); undo and redo replay them backwards and forwards.
// Trial mode (puz.link's): entering a trial and accepting one are moves of their own, with
// no changes and a `mark` ("trial" or "accept"), so undo and redo step through them and the
// saved history keeps them; rejecting a trial takes back every move since it began, as if
// it had never been. Trials nest up to MAX_TRIALS deep.

export const MAX_TRIALS = 3;

export const UNKNOWN = "?";
export const BLACK = "#";
export const DOT = ".";

export class Board {
  constructor(rows, cols, clues) {
    this.rows = rows;
    this.cols = cols;
    this.clues = new Map(clues.map(([cell, value]) => [cell, value]));
    this.cells = new Array(rows * cols).fill(UNKNOWN);
    this.history = []; // moves done, oldest first
    this.future = []; // moves undone, the next one to redo last
  }

  get size() {
    return this.rows * this.cols;
  }

  isClue(cell) {
    return this.clues.has(cell);
  }

  /** White for the rules: a dot or a clue. */
  isWhite(cell) {
    return this.cells[cell] === DOT || this.isClue(cell);
  }

  toString() {
    return this.cells.join("");
  }

  neighbours(cell) {
    const r = Math.floor(cell / this.cols);
    const c = cell % this.cols;
    const out = [];
    if (r > 0) out.push(cell - this.cols);
    if (r < this.rows - 1) out.push(cell + this.cols);
    if (c > 0) out.push(cell - 1);
    if (c < this.cols - 1) out.push(cell + 1);
    return out;
  }

  name(cell) {
    return `r${Math.floor(cell / this.cols) + 1}c${(cell % this.cols) + 1}`;
  }

  /** Changes that would set each cell of `cells` to `value` (clues and no-ops left out). */
  changesTo(cells, value) {
    const changes = [];
    for (const cell of cells) {
      if (!this.isClue(cell) && this.cells[cell] !== value) {
        changes.push([cell, this.cells[cell], value]);
      }
    }
    return changes;
  }

  /** A move with no changes that marks the start ("trial") or the acceptance ("accept") of a trial. */
  static marker(kind) {
    const move = [];
    move.mark = kind;
    return move;
  }

  /** The trials open now: for each, oldest first, the index in `history` of its "trial" move. */
  openTrials() {
    const open = [];
    this.history.forEach((move, i) => {
      if (move.mark === "trial") open.push(i);
      else if (move.mark === "accept" && open.length) open.pop();
    });
    return open;
  }

  get trialLevel() {
    return this.openTrials().length;
  }

  /** cell -> the depth (1..MAX_TRIALS) of the innermost open trial that changed it last. */
  trialCells() {
    const stack = [new Map()]; // stack[0]: cells outside any open trial
    for (const move of this.history) {
      if (move.mark === "trial") {
        stack.push(new Map());
      } else if (move.mark === "accept") {
        if (stack.length > 1) {
          const done = stack.pop();
          for (const cell of done.keys()) {
            for (const level of stack) level.delete(cell);
            stack[stack.length - 1].set(cell, stack.length - 1);
          }
        }
      } else {
        for (const [cell] of move) {
          for (const level of stack) level.delete(cell);
          stack[stack.length - 1].set(cell, stack.length - 1);
        }
      }
    }
    const out = new Map();
    for (let depth = 1; depth < stack.length; depth++) {
      for (const cell of stack[depth].keys()) out.set(cell, depth);
    }
    return out;
  }

  /** Begin a trial (a move of its own); false when MAX_TRIALS are open already. */
  enterTrial() {
    if (this.trialLevel >= MAX_TRIALS) return false;
    this.history.push(Board.marker("trial"));
    this.future = [];
    return true;
  }

  /** Keep the innermost trial's moves: they join the level around it. False when none is open. */
  acceptTrial() {
    if (!this.trialLevel) return false;
    this.history.push(Board.marker("accept"));
    this.future = [];
    return true;
  }

  /** Take back every move of the innermost trial, and the trial itself (no redo brings it back). */
  rejectTrial() {
    const open = this.openTrials();
    if (!open.length) return false;
    this.undoTo(open[open.length - 1]);
    this.future = [];
    return true;
  }

  /** Apply changes as one new move (it clears the redo list). Returns false if nothing changed. */
  play(changes) {
    if (changes.length === 0) return false;
    for (const [cell, , to] of changes) this.cells[cell] = to;
    this.history.push(changes);
    this.future = [];
    return true;
  }

  /** Add changes to the last move (a drag that crosses more cells, auto-marks). */
  extend(changes) {
    if (changes.length === 0) return;
    if (this.history.length === 0 || this.history[this.history.length - 1].mark) {
      this.play(changes);
      return;
    }
    for (const [cell, , to] of changes) this.cells[cell] = to;
    this.history[this.history.length - 1].push(...changes);
  }

  undo() {
    const move = this.history.pop();
    if (!move) return false;
    for (let i = move.length - 1; i >= 0; i--) this.cells[move[i][0]] = move[i][1];
    this.future.push(move);
    return true;
  }

  redo() {
    const move = this.future.pop();
    if (!move) return false;
    for (const [cell, , to] of move) this.cells[cell] = to;
    this.history.push(move);
    return true;
  }

  /** Undo until only the first `length` moves remain. */
  undoTo(length) {
    while (this.history.length > length) this.undo();
  }

  /** Index of the first move that gave one of `wrong` its present (wrong) color, or -1. */
  firstMistake(wrong) {
    const white = (v) => v !== BLACK;
    let first = -1;
    for (const cell of wrong) {
      const now = this.cells[cell];
      if (now === UNKNOWN) continue;
      for (let i = 0; i < this.history.length; i++) {
        const hit = this.history[i].some(
          ([c, , to]) => c === cell && to !== UNKNOWN && white(to) === white(now),
        );
        if (hit) {
          if (first < 0 || i < first) first = i;
          break;
        }
      }
    }
    return first;
  }

  /**
   * The history as strings for the server, one per change: "r1c2?#" sets r1c2 from unknown
   * to black; a leading "+" joins a change to the move before it; "trial" and "accept" are
   * the trial's marks. At most `limit` strings: the oldest moves are left out when there are more.
   */
  movesText(limit = 5000) {
    const out = [];
    for (let i = this.history.length - 1; i >= 0; i--) {
      const marked = this.history[i].mark;
      const move = marked
        ? [marked]
        : this.history[i].map(([cell, from, to], j) => `${j ? "+" : ""}${this.name(cell)}${from}${to}`);
      if (out.length + move.length > limit) break;
      out.push(...move.reverse());
    }
    return out.reverse();
  }

  /**
   * Show the saved `board` and rebuild the undo history from saved `moves`, checking them
   * backwards from the board. Moves that do not fit the board are dropped (the board wins).
   */
  restore(board, moves) {
    this.cells = [...(board || "")].slice(0, this.size).map((ch, cell) =>
      this.isClue(cell) || !"#.".includes(ch) ? UNKNOWN : ch,
    );
    while (this.cells.length < this.size) this.cells.push(UNKNOWN);
    const history = [];
    try {
      for (const text of moves || []) {
        if (text === "trial" || text === "accept") {
          history.push(Board.marker(text));
          continue;
        }
        const m = /^(\+?)r(\d+)c(\d+)([#.?])([#.?])$/.exec(text);
        if (!m) throw new Error("bad move");
        const [r, c] = [Number(m[2]) - 1, Number(m[3]) - 1];
        if (r >= this.rows || c >= this.cols || r < 0 || c < 0) throw new Error("bad cell");
        const change = [r * this.cols + c, m[4], m[5]];
        if (m[1] && history.length && !history[history.length - 1].mark) history[history.length - 1].push(change);
        else history.push([change]);
      }
      // Undo every move on a copy: each change must find the value it set.
      const cells = [...this.cells];
      for (let i = history.length - 1; i >= 0; i--) {
        for (let j = history[i].length - 1; j >= 0; j--) {
          const [cell, from, to] = history[i][j];
          if (cells[cell] !== to || this.isClue(cell)) throw new Error("moves do not fit");
          cells[cell] = from;
        }
      }
      this.history = history;
    } catch {
      this.history = [];
    }
    this.future = [];
    return this.history.length > 0;
  }
}
