// One puzzle being played: the board and its overlays, moves from input, check, hint,
// solution, the clock, completion, and saving each move to the server in order.

import { api, Latest, SaveQueue } from "./api.js";
import { BLACK, Board, DOT, MAX_TRIALS, UNKNOWN } from "./board.js";
import { draw } from "./render.js";
import { check as checkRules, ERROR_SETTING, finishingMarks, groups, islandOf } from "./rules.js";
import { WallColours, wallOf } from "./walls.js";

/**
 * How many times in a row the wand asks the server for a hint while its search runs out of
 * time (about 2 s of CPU each). The server keeps what each search learnt, so the next one
 * carries on where it stopped: on the bundled 30x30 extreme puzzles a trial step that no
 * single 2 s search finds comes after 3-5 asks. Meanwhile the cell from the solution is
 * offered, and a press of the wand takes it at once.
 */
export const THINK_ROUNDS = 8;

export function clockText(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export class Game {
  /**
   * `svg` is the board, `ui` the page's callbacks: say(html, kind), clock(text),
   * best(seconds or null), broken(messages of the rules broken), solved(puzzle, seconds,
   * best), changed().
   */
  constructor(svg, settings, ui) {
    this.svg = svg;
    this.settings = settings;
    this.ui = ui;
    this.puzzle = null;
    this.board = null;
    this.cursor = -1;
    this.showCursor = false;
    this.wrong = new Set(); // cells crossed by the last check (or a hint that found mistakes)
    this.checkedAt = null; // the board those marks belong to
    this.hint = null; // {cells, premises, board} of a hint shown but not applied
    this.label = null;
    this.stroke = null;
    this.wallColours = new WallColours();
    this.litCell = -1; // a cell of the highlighted wall, or -1
    this.wallMode = false; // clicks highlight walls instead of playing
    this.paused = false; // the board hidden, the clock stopped, no move taken
    this.seconds = 0;
    this.best = null;
    this.solved = false;
    this.revealed = null;
    this.lastTick = performance.now();
    this.help = new Latest(); // check, hint, solution: the newest asked for wins, a new puzzle ends it
    this.saves = new SaveQueue(
      (key, answer) => this.saved(key, answer),
      (err) => this.ui.say(`Not saved: ${err.message}`, "error"),
    );
    setInterval(() => this.tick(), 500);
  }

  get key() {
    return this.puzzle?.key;
  }

  /** Show a puzzle object from the API, restoring the player's progress on it. */
  load(puzzle) {
    this.help.abort();
    this.puzzle = puzzle;
    this.board = new Board(puzzle.rows, puzzle.cols, puzzle.clues);
    const progress = puzzle.progress;
    if (progress) this.board.restore(progress.board, progress.moves);
    this.seconds = progress?.seconds || 0;
    this.best = progress?.best_seconds ?? null;
    this.solved = !!progress?.solved;
    this.revealed = null; // the move that showed the solution
    this.cursor = -1;
    this.litCell = -1;
    this.wallColours = new WallColours();
    this.clearMarks();
    this.label = null;
    this.render();
    this.ui.clock(clockText(this.seconds));
    this.ui.best(this.best);
    this.ui.say(this.solved ? `Solved${this.best != null ? ` · best ${clockText(this.best)}` : ""}.` : "");
  }

  /** Highlight the wall `cell` belongs to (a second click on it, or a cell not black, ends it). */
  showWall(cell) {
    const wall = cell >= 0 ? wallOf(this.board, cell) : [];
    this.litCell = wall.length && !(this.litCell >= 0 && wallOf(this.board, this.litCell).includes(cell)) ? cell : -1;
    if (this.litCell >= 0) {
      this.ui.say(`This wall has ${wall.length} black cell${wall.length > 1 ? "s" : ""}; the others are dimmed.`);
    }
    this.render();
  }

  /** Pause (the board hidden, the clock stopped) or go on. */
  setPaused(paused) {
    if (paused === this.paused || !this.board) return;
    this.paused = paused;
    this.stroke = null;
    if (paused) this.save(); // the time so far
    this.lastTick = performance.now();
  }

  /** New colours for the walls. */
  recolour() {
    this.wallColours.shuffle();
    this.render();
  }

  clearMarks() {
    if (this.hint || this.wrong.size) this.ui.say("");
    this.wrong = new Set();
    this.checkedAt = null;
    this.hint = null;
  }

  render() {
    if (!this.board) return;
    const errors = new Set();
    // The live marks are the rules already broken, as rules.py's check(..., mode="partial").
    const shown = (e) => this.settings[ERROR_SETTING[e.code]] !== false;
    const broken = this.settings.liveErrors ? checkRules(this.board, "partial").filter(shown) : [];
    for (const e of broken) for (const c of e.cells) errors.add(c);
    this.ui.broken([...new Set(broken.map((e) => e.message))]);
    draw(this.svg, this.board, {
      errors,
      wrong: this.wrong,
      hint: this.hint,
      cursor: this.showCursor ? this.cursor : -1,
      label: this.settings.showIslandSize ? this.label : null,
      solved: this.solved || this.showingSolution,
      trial: this.board.trialCells(),
      done: this.settings.greyComplete ? completeClues(this.board) : null,
      colours: this.settings.irowake ? this.wallColours.assign(this.board) : null,
      lit: this.litCell >= 0 ? new Set(wallOf(this.board, this.litCell)) : null,
    });
    this.ui.changed();
  }

  /** The clock counts real time while the page is shown (a sleeping machine adds at most 2 s). */
  tick() {
    const now = performance.now();
    const step = Math.min(2, (now - this.lastTick) / 1000);
    this.lastTick = now;
    if (!this.board || this.solved || document.hidden || this.showingSolution || this.paused) return;
    this.seconds += step;
    this.ui.clock(clockText(this.seconds));
  }

  /** Whether an answer asked for on `key` and `board` still fits what is shown. */
  current(key, board) {
    return this.key === key && this.board.toString() === board;
  }

  // ---- moves -------------------------------------------------------------------------

  beginStroke(cell, value) {
    this.stroke = { value, started: false };
    this.strokeTo(cell);
  }

  strokeTo(cell) {
    if (!this.stroke || this.board.isClue(cell)) return;
    const changes = this.board.changesTo([cell], this.stroke.value);
    if (!changes.length) return;
    if (this.stroke.started) this.board.extend(changes);
    else this.stroke.started = this.board.play(changes);
    this.label = this.stroke.value === DOT ? { cell, size: 0 } : null;
    this.clearMarks();
    this.updateLabel();
    this.render();
  }

  /** Take back a stroke not finished (a second finger came down): as if it never began. */
  cancelStroke() {
    const stroke = this.stroke;
    this.stroke = null;
    if (stroke?.started && this.board.undo()) this.board.future.pop();
    this.label = null;
    this.render();
  }

  endStroke() {
    const stroke = this.stroke;
    this.stroke = null;
    if (stroke?.started) this.moved();
  }

  /** One cell set from the keyboard. */
  mark(cell, value) {
    if (this.board.isClue(cell)) return;
    if (this.board.play(this.board.changesTo([cell], value))) {
      this.label = value === DOT ? { cell, size: 0 } : null;
      this.clearMarks();
      this.moved();
    }
  }

  moveCursor(cell, shown) {
    this.cursor = cell;
    this.showCursor = shown;
    this.render();
  }

  updateLabel() {
    if (!this.label) return;
    const island = islandOf(this.board, this.label.cell);
    this.label.size = island ? island.length : 0;
  }

  /** After a move: the finishing marks, the overlays, the save. */
  moved() {
    this.litCell = -1;
    if (this.settings.autoDots) {
      for (let round = 0; round < this.board.size; round++) {
        const marks = finishingMarks(this.board);
        if (!marks.length) break;
        this.board.extend(marks);
      }
    }
    this.updateLabel();
    this.render();
    this.save();
  }

  undo() {
    if (this.board?.undo()) this.afterHistory();
  }

  redo() {
    if (this.board?.redo()) this.afterHistory();
  }

  afterHistory() {
    this.litCell = -1;
    this.clearMarks();
    this.label = null;
    this.render();
    this.save();
  }

  // ---- trial mode ----------------------------------------------------------------------

  get trialLevel() {
    return this.board?.trialLevel || 0;
  }

  enterTrial() {
    if (!this.board || !this.board.enterTrial()) return;
    this.afterHistory();
    this.ui.say(
      `Trial ${this.trialLevel} of at most ${MAX_TRIALS}: the moves from here are drawn apart. <b>Accept</b> keeps them, <b>Reject</b> takes them all back.`,
    );
  }

  acceptTrial() {
    if (!this.board?.acceptTrial()) return;
    this.afterHistory();
  }

  rejectTrial() {
    if (!this.board?.rejectTrial()) return;
    this.afterHistory();
  }

  restart() {
    const changes = this.board.changesTo([...this.board.cells.keys()], UNKNOWN);
    if (this.board.play(changes)) this.afterHistory();
  }

  /** Whether the shown solution is among the moves played. */
  get showingSolution() {
    return !!this.revealed && this.board.history.includes(this.revealed);
  }

  save() {
    if (!this.puzzle || this.showingSolution) return;
    this.saves.save(this.key, {
      board: this.board.toString(),
      seconds: Math.round(this.seconds * 10) / 10,
      moves: this.board.movesText(),
      solved: this.solved || this.showingSolution,
      url: this.puzzle.url, // a page older than a collection update is refused, not saved
    });
  }

  saved(key, answer) {
    if (key !== this.key || this.saves.pending > 1) return;
    if (answer.best_seconds != null) this.best = answer.best_seconds;
    this.ui.best(this.best);
    if (!answer.solved && this.solved) {
      this.solved = false; // undone after the solve: the clock goes on
      this.render();
    } else if (answer.solved && !this.solved) {
      this.solved = true;
      this.clearMarks();
      this.render();
      this.ui.solved(this.puzzle, this.seconds, this.best);
    }
  }

  // ---- help from the server ----------------------------------------------------------

  async check() {
    const now = this.board.toString();
    if (this.wrong.size && this.checkedAt === now) {
      this.revertMistakes();
      return;
    }
    const key = this.key;
    const answer = await this.help.run((signal) => api.check(key, now, signal));
    if (!this.current(key, now)) return;
    this.hint = null;
    if (answer.wrong.length) {
      this.wrong = new Set(answer.wrong);
      this.checkedAt = now;
      const n = answer.wrong.length;
      this.ui.say(
        `${n} cell${n > 1 ? "s are" : " is"} wrong (crossed in red). Press <b>Check</b> again to go back to before the first mistake.`,
        "error",
      );
    } else {
      this.wrong = new Set();
      this.ui.say(answer.complete || answer.solved ? "All correct." : "No mistakes so far.", "good");
    }
    this.render();
  }

  revertMistakes() {
    const first = this.board.firstMistake([...this.wrong]);
    const before = this.board.history.length;
    if (first >= 0) {
      this.board.undoTo(first);
    } else {
      this.board.play(this.board.changesTo([...this.wrong], UNKNOWN));
    }
    const undone = first >= 0 ? before - first : 0;
    this.clearMarks();
    this.label = null;
    this.render();
    this.save();
    this.ui.say(
      undone
        ? `Back to before the first mistake (${undone} move${undone > 1 ? "s" : ""} undone; Redo brings them back).`
        : "The wrong cells are cleared.",
    );
  }

  async hintPressed() {
    const now = this.board.toString();
    if (this.hint && this.hint.board === now) {
      const changes = [];
      for (const [cell, color] of this.hint.cells) {
        changes.push(...this.board.changesTo([cell], color === "black" ? BLACK : DOT));
      }
      this.hint = null;
      if (this.board.play(changes)) {
        this.label = null;
        this.moved();
      } else {
        this.render();
      }
      this.ui.say("");
      return;
    }
    const key = this.key;
    let searched = 0;
    let answer;
    for (let round = 1; ; round++) {
      answer = await this.help.run((signal) => api.hint(key, now, signal));
      if (!this.current(key, now)) return;
      if (round > 1 && this.hint?.board !== now) return; // the offer was dropped meanwhile
      searched += answer.searched || 0;
      if (answer.reveal !== "time" || round >= THINK_ROUNDS) break;
      // The search ran out of time: offer the cell from the solution now, and ask again.
      this.hint = { cells: answer.cells, premises: [], board: now };
      this.ui.say(
        `<b>Still thinking</b>: no rule has found the next cell in ${Math.round(searched)} s of search; the search goes on. <span class="aside">Press the wand to take the cell marked ? from the solution instead.</span>`,
        "hint thinking",
      );
      this.render();
    }
    this.hint = null;
    if (answer.kind === "mistakes") {
      this.wrong = new Set(answer.wrong);
      this.checkedAt = now;
      this.ui.say(
        "No hint while mistakes stand: the cells crossed in red are wrong. Press <b>Check</b> to go back to before the first one.",
        "error",
      );
    } else if (answer.kind === "step") {
      this.hint = { cells: answer.cells, premises: answer.premises || [], board: now };
      const message =
        answer.reveal === "time"
          ? `No rule found the next cell in ${Math.round(searched)} s of search. The solution can give you ${this.board.name(answer.cells[0][0])}, marked with a ?.`
          : answer.message;
      this.ui.say(
        `<b>${escapeHtml(answer.name)}</b>${answer.level ? ` <span class="level">${escapeHtml(answer.level)}</span>` : ""}: ${escapeHtml(message)} <span class="aside">Press the wand again to ${answer.reveal ? "reveal" : "apply"} it.</span>`,
        "hint",
      );
    } else {
      this.ui.say("Nothing left to deduce: the board is solved.", "good");
    }
    this.render();
  }

  async showSolution() {
    const key = this.key;
    const answer = await this.help.run((signal) => api.solve(key, signal));
    if (this.key !== key) return;
    if (answer.status !== "unique" && !answer.solution) {
      this.ui.say(`The solver could not settle this puzzle (${answer.status}).`, "error");
      return;
    }
    const changes = [];
    [...answer.solution].forEach((ch, cell) => {
      if (!this.board.isClue(cell)) changes.push(...this.board.changesTo([cell], ch === "#" ? BLACK : DOT));
    });
    this.clearMarks();
    if (this.board.play(changes)) {
      // While the shown solution is on the board nothing is saved: a solution shown is no
      // solve and sets no best time; the player's own board comes back on reload.
      this.revealed = this.board.history[this.board.history.length - 1];
      this.render();
    }
    this.ui.say("The solution is shown (not saved: a reload brings your board back). Undo takes it back.");
  }
}

/** The clue cells whose island is complete: walled in by black, that clue's size, no other clue. */
export function completeClues(board) {
  const done = new Set();
  for (const island of groups(board, (c) => board.isWhite(c))) {
    const clues = island.filter((c) => board.isClue(c));
    if (clues.length !== 1 || board.clues.get(clues[0]) !== island.length) continue;
    const walled = island.every((c) => board.neighbours(c).every((n) => board.isWhite(n) || board.cells[n] === BLACK));
    if (walled) done.add(clues[0]);
  }
  return done;
}

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
