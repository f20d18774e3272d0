// Draws the board as SVG: cells, grid, clue numbers, dots, and the overlays of the page
// (rule errors tinted red, wrong cells crossed with a red X, the hint's "?" cells and its
// highlighted premises, the island size being built, the keyboard cursor, and the cells of
// an open trial: a trial's black cells carry an inner frame and its dots are rings, so they
// stand apart by shape as well as by colour).

import { BLACK, DOT, UNKNOWN as UNKNOWN_VALUE } from "./board.js";

export const CELL = 40;
const PAD = 4;
const SVG_NS = "http://www.w3.org/2000/svg";

/** The cell under a pointer at client coordinates, or -1 outside the grid. */
export function cellAt(svg, board, clientX, clientY) {
  const box = svg.getBoundingClientRect();
  const width = board.cols * CELL + 2 * PAD;
  const height = board.rows * CELL + 2 * PAD;
  const scale = Math.min(box.width / width, box.height / height);
  const left = box.left + (box.width - width * scale) / 2;
  const top = box.top + (box.height - height * scale) / 2;
  const c = Math.floor(((clientX - left) / scale - PAD) / CELL);
  const r = Math.floor(((clientY - top) / scale - PAD) / CELL);
  if (r < 0 || c < 0 || r >= board.rows || c >= board.cols) return -1;
  return r * board.cols + c;
}

/**
 * Draw `board` into `svg`. `view` holds the overlays: errors (Set of cells the rules prove
 * wrong), wrong (Set of cells marked with X), hint ({cells, premises} or null), cursor
 * (cell or -1), label ({cell, size} or null), solved (bool), trial (Map cell -> depth of the
 * open trial that set it), done (Set of the clues to grey out, or null), colours (Map black cell -> wall colour, or null), lit (Set of the
 * cells of the highlighted wall, or null: the other black cells are dimmed).
 */
export function draw(svg, board, view) {
  const { rows, cols } = board;
  const W = cols * CELL + 2 * PAD;
  const H = rows * CELL + 2 * PAD;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  // The page's CSS sizes the board from its shape: never taller than the window, never
  // wider than 72 px a cell.
  svg.style.setProperty("--ratio", String(W / H));
  svg.style.setProperty("--cols", String(cols));
  svg.setAttribute("xmlns", SVG_NS);
  svg.classList.toggle("solved", !!view.solved);
  const hintCells = new Set((view.hint?.cells || []).map(([cell]) => cell));
  const premises = new Set(view.hint?.premises || []);
  const parts = [`<rect class="paper" x="${PAD}" y="${PAD}" width="${cols * CELL}" height="${rows * CELL}"/>`];
  const marks = [];
  for (let cell = 0; cell < board.size; cell++) {
    const x = PAD + (cell % cols) * CELL;
    const y = PAD + Math.floor(cell / cols) * CELL;
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    const value = board.cells[cell];
    const err = view.errors?.has(cell);
    const trial = view.trial?.get(cell) || 0;
    const classes = ["cell"];
    if (value === BLACK) classes.push("black");
    if (trial && value !== UNKNOWN_VALUE) classes.push("trial", `trial-${trial}`);
    if (value === BLACK && view.colours?.has(cell)) classes.push(`wc${view.colours.get(cell)}`);
    if (view.lit && value === BLACK) classes.push(view.lit.has(cell) ? "lit" : "unlit");
    if (premises.has(cell)) classes.push("premise");
    if (err) classes.push("error");
    if (hintCells.has(cell)) classes.push("hinted");
    parts.push(
      `<rect class="${classes.join(" ")}" data-cell="${cell}" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>`,
    );
    if (board.isClue(cell)) {
      const v = board.clues.get(cell);
      marks.push(
        `<text class="clue${err ? " error" : ""}${view.done?.has(cell) ? " done" : ""}" x="${cx}" y="${cy}" font-size="${CELL * (String(v ?? "?").length > 1 ? 0.52 : 0.62)}">${v ?? "?"}</text>`,
      );
    } else if (value === DOT && trial) {
      marks.push(
        `<circle class="dot trial trial-${trial}${err ? " error" : ""}" cx="${cx}" cy="${cy}" r="${CELL * 0.15}"/>`,
      );
    } else if (value === DOT) {
      marks.push(`<circle class="dot${err ? " error" : ""}" cx="${cx}" cy="${cy}" r="${CELL * 0.11}"/>`);
    }
    if (err || premises.has(cell)) {
      // a frame inside the cell, so an error or a hint's premise shows by shape, not by tint alone
      const kind = err ? "error-frame" : "premise-frame";
      const inset = CELL * (err ? 0.07 : 0.1);
      marks.push(
        `<rect class="${kind}${value === BLACK ? " on-black" : ""}" x="${x + inset}" y="${y + inset}" width="${CELL - 2 * inset}" height="${CELL - 2 * inset}"/>`,
      );
    }
    if (trial && value === BLACK) {
      const inset = CELL * 0.16;
      marks.push(
        `<rect class="trial-frame trial-${trial}" x="${x + inset}" y="${y + inset}" width="${CELL - 2 * inset}" height="${CELL - 2 * inset}"/>`,
      );
    }
    if (hintCells.has(cell)) {
      marks.push(`<text class="hint-mark" x="${cx}" y="${cy}" font-size="${CELL * 0.62}">?</text>`);
    }
    if (view.wrong?.has(cell)) {
      const d = CELL * 0.24;
      const x = `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`;
      marks.push(`<path class="wrong-halo" d="${x}"/><path class="wrong" d="${x}"/>`);
    }
  }
  if (view.lit?.size) {
    // the highlighted wall's outline: every side of its cells that does not touch another
    const edges = [];
    for (const cell of view.lit) {
      const x = PAD + (cell % cols) * CELL;
      const y = PAD + Math.floor(cell / cols) * CELL;
      const r = Math.floor(cell / cols);
      const c = cell % cols;
      if (r === 0 || !view.lit.has(cell - cols)) edges.push(`M${x} ${y}h${CELL}`);
      if (r === rows - 1 || !view.lit.has(cell + cols)) edges.push(`M${x} ${y + CELL}h${CELL}`);
      if (c === 0 || !view.lit.has(cell - 1)) edges.push(`M${x} ${y}v${CELL}`);
      if (c === cols - 1 || !view.lit.has(cell + 1)) edges.push(`M${x + CELL} ${y}v${CELL}`);
    }
    marks.push(`<path class="wall-outline-halo" d="${edges.join("")}"/><path class="wall-outline" d="${edges.join("")}"/>`);
  }
  const lines = [];
  for (let r = 1; r < rows; r++) lines.push(`M${PAD} ${PAD + r * CELL}h${cols * CELL}`);
  for (let c = 1; c < cols; c++) lines.push(`M${PAD + c * CELL} ${PAD}v${rows * CELL}`);
  parts.push(`<path class="grid" d="${lines.join("")}"/>`);
  parts.push(...marks);
  if (view.label && view.label.size > 0) {
    const x = PAD + (view.label.cell % cols) * CELL;
    const y = PAD + Math.floor(view.label.cell / cols) * CELL;
    parts.push(`<text class="island-size" x="${x + CELL - 4}" y="${y + 4}">${view.label.size}</text>`);
  }
  parts.push(`<rect class="border" x="${PAD}" y="${PAD}" width="${cols * CELL}" height="${rows * CELL}"/>`);
  if (view.cursor >= 0) {
    const x = PAD + (view.cursor % cols) * CELL;
    const y = PAD + Math.floor(view.cursor / cols) * CELL;
    parts.push(`<rect class="cursor" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}"/>`);
  }
  svg.innerHTML = parts.join("");
}
