// The setter's studio: compose a draft clue by clue; after every edit (debounced) the server
// analyses it (docs/web-api.md, /api/studio/) and the board shows the forced cells shaded
// and the open cells highlighted. Draws with the game's board model and renderer.

import { isAborted, request as call } from "../js/api.js";
import { Board, BLACK, DOT } from "../js/board.js";
import { cellAt, draw } from "../js/render.js";
import { partners } from "./symmetry.js";

const $ = (id) => document.getElementById(id);
const DEBOUNCE_MS = 120;

const state = {
  rows: 10,
  cols: 10,
  clues: new Map(), // cell -> value (null for ?)
  cursor: 0,
  typing: null, // the cell whose number is being typed, for numbers of several digits
  analysis: null,
  witness: 0, // 0 hidden, 1 or 2: which solution is shown
  timer: 0,
  inflight: null,
  seq: 0,
};

function draft() {
  return { rows: state.rows, cols: state.cols, clues: [...state.clues].sort((a, b) => a[0] - b[0]) };
}

function render() {
  const board = new Board(state.rows, state.cols, [...state.clues]);
  const a = state.analysis;
  const classes = new Map();
  const add = (cell, name) => classes.set(cell, [...(classes.get(cell) || []), name]);
  if (a && state.witness && a.witness.length === 2) {
    const shown = a.witness[state.witness - 1];
    const other = a.witness[2 - state.witness];
    for (let cell = 0; cell < board.size; cell++) {
      if (!board.isClue(cell)) board.cells[cell] = shown[cell] === "#" ? BLACK : DOT;
      if (shown[cell] !== other[cell]) add(cell, "witness");
    }
  } else if (a) {
    for (const cell of a.forced.black) {
      board.cells[cell] = BLACK;
      add(cell, "forced-black");
    }
    for (const cell of a.forced.white) {
      if (!board.isClue(cell)) board.cells[cell] = DOT;
      add(cell, "forced-white");
    }
    for (const cell of a.open) add(cell, "open");
  }
  draw($("board"), board, { cursor: state.cursor, errors: new Set(), wrong: new Set() });
  for (const [cell, names] of classes) {
    $("board").querySelector(`rect.cell[data-cell="${cell}"]`)?.classList.add(...names);
  }
}

const STATUS_TEXT = {
  unique: "Unique: exactly one solution.",
  multiple: "Several solutions.",
  none: "No solution.",
  unknown: "Undecided within the time limit.",
};

function showAnalysis() {
  const a = state.analysis;
  const status = $("status");
  const witness = $("witness");
  status.className = "status";
  $("grade").textContent = "";
  if (!a) {
    $("details").textContent = "";
    witness.hidden = true;
    return;
  }
  status.classList.add(a.status);
  status.textContent = STATUS_TEXT[a.status];
  status.dataset.status = a.status;
  const size = state.rows * state.cols;
  const forced = a.forced.black.length + a.forced.white.length;
  let details = `${forced} of ${size} cells forced (${a.forced.black.length} black, ${a.forced.white.length} white)`;
  if (a.open.length) details += `, ${a.open.length} open`;
  if (a.unresolved.length) details += `, ${a.unresolved.length} not settled in time`;
  $("details").textContent = details + ".";
  witness.hidden = a.witness.length !== 2;
  witness.textContent = state.witness ? (state.witness === 1 ? "Show the other solution" : "Hide the solutions") : "Show two solutions";
  if (a.status === "unique" && a.level) {
    const grade = $("grade");
    const names = a.techniques.map((t) => t.name).join(", ");
    grade.append(`Level ${a.level} (score ${a.score}). Techniques: ${names || "none"}. `);
    const link = document.createElement("a");
    link.href = a.walkthrough;
    link.target = "_blank";
    link.textContent = "Walkthrough";
    grade.append(link);
  }
}

function edited() {
  state.analysis = null;
  state.witness = 0;
  render();
  $("status").className = "status";
  $("status").textContent = "Analysing…";
  $("status").dataset.status = "pending";
  clearTimeout(state.timer);
  state.timer = setTimeout(analyse, DEBOUNCE_MS);
}

async function analyse() {
  state.inflight?.abort();
  const controller = new AbortController();
  state.inflight = controller;
  const seq = ++state.seq;
  try {
    // The status and forced cells first; the grade of a unique draft (which can take
    // seconds) in a second request.
    const a = await call("POST", "/api/studio/analyze", { ...draft(), grade: false }, controller.signal);
    if (seq !== state.seq) return;
    state.analysis = a;
    showAnalysis();
    render();
    if (a.status !== "unique") return;
    $("grade").textContent = "Grading…";
    const graded = await call("POST", "/api/studio/analyze", draft(), controller.signal);
    if (seq !== state.seq) return;
    state.analysis = graded;
    showAnalysis();
  } catch (err) {
    if (seq !== state.seq || isAborted(err) || err.code === "superseded") return;
    state.analysis = null;
    showAnalysis();
    $("status").className = "status error";
    $("status").dataset.status = "error";
    $("status").textContent = err.message;
  }
}

function setClue(cell, value) {
  const symmetry = $("symmetry").value;
  if (value === undefined) {
    state.clues.delete(cell);
    for (const p of partners(cell, state.rows, state.cols, symmetry)) state.clues.delete(p);
  } else {
    state.clues.set(cell, value);
    for (const p of partners(cell, state.rows, state.cols, symmetry)) {
      if (!state.clues.has(p)) state.clues.set(p, null);
    }
  }
  edited();
}

function key(k) {
  const cell = state.cursor;
  if (/^[0-9]$/.test(k)) {
    const old = state.clues.get(cell);
    const value = state.typing === cell && old ? Number(`${old}${k}`) : Number(k);
    state.typing = cell;
    setClue(cell, value);
  } else if (k === "?") {
    state.typing = null;
    setClue(cell, null);
  } else if (k === "Backspace" || k === "Delete") {
    state.typing = null;
    setClue(cell, undefined);
  } else {
    const moves = { ArrowUp: -state.cols, ArrowDown: state.cols, ArrowLeft: -1, ArrowRight: 1 };
    if (!(k in moves)) return false;
    const r = Math.floor(cell / state.cols);
    const c = cell % state.cols;
    const nr = r + (k === "ArrowUp" ? -1 : k === "ArrowDown" ? 1 : 0);
    const nc = c + (k === "ArrowLeft" ? -1 : k === "ArrowRight" ? 1 : 0);
    if (nr >= 0 && nr < state.rows && nc >= 0 && nc < state.cols) state.cursor = nr * state.cols + nc;
    state.typing = null;
    render();
  }
  return true;
}

function newGrid(rows, cols, clues = []) {
  state.rows = rows;
  state.cols = cols;
  state.clues = new Map(clues);
  state.cursor = 0;
  state.typing = null;
  $("rows").value = rows;
  $("cols").value = cols;
  edited();
}

function say(text) {
  $("message").textContent = text;
}

async function refreshDrafts(selected) {
  const { drafts } = await call("GET", "/api/studio/drafts");
  const list = $("draft-list");
  list.replaceChildren(
    ...drafts.map((d) => {
      const option = document.createElement("option");
      option.value = d.id;
      option.textContent = `${d.name} (${d.rows}x${d.cols})`;
      return option;
    }),
  );
  if (selected) list.value = String(selected);
  state.drafts = drafts;
}

function wire() {
  const svg = $("board");
  svg.addEventListener("click", (event) => {
    const cell = cellAt(svg, { rows: state.rows, cols: state.cols }, event.clientX, event.clientY);
    if (cell < 0) return;
    if (cell === state.cursor && !state.clues.has(cell)) {
      setClue(cell, null); // a second click on an empty cell places a ? clue
    } else {
      state.cursor = cell;
      state.typing = null;
      render();
    }
    svg.focus();
  });
  svg.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (key(event.key)) event.preventDefault();
  });
  $("pad").addEventListener("click", (event) => {
    const k = event.target.closest("button")?.dataset.key;
    if (k) key(k);
  });
  $("size").addEventListener("submit", (event) => {
    event.preventDefault();
    const rows = Number($("rows").value);
    const cols = Number($("cols").value);
    newGrid(rows, cols);
  });
  $("witness").addEventListener("click", () => {
    state.witness = (state.witness + 1) % 3;
    showAnalysis();
    render();
  });
  $("save").addEventListener("click", async () => {
    const name = $("draft-name").value.trim() || "Untitled";
    const id = state.draftId && state.draftName === name ? state.draftId : null;
    try {
      const saved = id
        ? await call("PUT", `/api/studio/drafts/${id}`, { ...draft(), name })
        : await call("POST", "/api/studio/drafts", { ...draft(), name });
      state.draftId = saved.id;
      state.draftName = saved.name;
      await refreshDrafts(saved.id);
      say(`Saved “${saved.name}”.`);
    } catch (err) {
      say(err.message);
    }
  });
  $("load").addEventListener("click", async () => {
    const id = $("draft-list").value;
    if (!id) return;
    try {
      const d = await call("GET", `/api/studio/drafts/${id}`);
      state.draftId = d.id;
      state.draftName = d.name;
      $("draft-name").value = d.name;
      newGrid(d.rows, d.cols, d.clues);
      say(`Opened “${d.name}”.`);
    } catch (err) {
      say(err.message);
    }
  });
  $("delete").addEventListener("click", async () => {
    const id = $("draft-list").value;
    if (!id) return;
    try {
      await call("DELETE", `/api/studio/drafts/${id}`);
      if (String(state.draftId) === id) state.draftId = null;
      await refreshDrafts();
      say("Deleted.");
    } catch (err) {
      say(err.message);
    }
  });
  $("export").addEventListener("click", async () => {
    try {
      const out = await call("POST", "/api/studio/export", { ...draft(), format: $("format").value });
      $("export-text").value = out.text;
      say(`Exported as ${$("format").selectedOptions[0].textContent}.`);
    } catch (err) {
      say(err.message);
    }
  });
  $("read").addEventListener("click", async () => {
    try {
      const d = await call("POST", "/api/studio/read", { text: $("export-text").value });
      newGrid(d.rows, d.cols, d.clues);
      say("Opened the puzzle from the text.");
    } catch (err) {
      say(err.message);
    }
  });
  $("play").addEventListener("click", async () => {
    try {
      const out = await call("POST", "/api/studio/play", draft());
      location.href = out.url;
    } catch (err) {
      say(err.message);
    }
  });
}

wire();
newGrid(10, 10);
refreshDrafts().catch((err) => say(err.message));
