// The contrast checks of test_contrast.py, run in the page: each section below a
// '// ---- name' line is one function (LUMINANCE is put before TEXTS and MARKS).

// ---- LUMINANCE
const parse = (text) => {
  const m = /rgba?\(([^)]*)\)/.exec(text);
  if (!m) return null;
  const [r, g, b, a = 1] = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return { r, g, b, a };
};
const lum = ({ r, g, b }) => {
  const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const ratio = (x, y) => {
  const [hi, lo] = [lum(x), lum(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
};

// ---- TEXTS
() => {
  // every element with text of its own, shown, not disabled, outside the board
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor)
      || parse(getComputedStyle(document.body).backgroundColor);
  };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") || el.closest(":disabled") || el.closest("[hidden]")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility({ visibilityProperty: true })) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || Number(style.opacity) < 1) continue;
    const fg = parse(style.color);
    out.push({ what: `${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${el.textContent.trim().slice(0, 30)}`,
               ratio: ratio(fg, background(el)) });
  }
  return out;
}

// ---- MARKS
() => {
  const CELL = 40, PAD = 4;
  const svg = document.getElementById("board");
  const paper = parse(getComputedStyle(svg.querySelector(".paper")).fill);
  const cellFill = (cell) => {
    const rect = svg.querySelector(`rect.cell[data-cell="${cell}"]`);
    const c = parse(getComputedStyle(rect).fill);
    return c && c.a > 0 ? c : paper;
  };
  const cols = window.nurikabe.game.board.cols;
  const cellAt = (x, y) => Math.floor((y - PAD) / CELL) * cols + Math.floor((x - PAD) / CELL);
  const out = [];
  const add = (what, kind, fg, bg) => out.push({ what, kind, ratio: ratio(fg, bg) });
  const fill = (el) => parse(getComputedStyle(el).fill);
  const stroke = (el) => parse(getComputedStyle(el).stroke);
  for (const r of svg.querySelectorAll("rect.cell.black:not(.unlit)")) add(`black ${r.getAttribute("class")}`, "mark", fill(r), paper);
  for (const c of svg.querySelectorAll("circle.dot")) {
    const under = cellFill(cellAt(+c.getAttribute("cx"), +c.getAttribute("cy")));
    add(`dot ${c.getAttribute("class")}`, "mark", c.classList.contains("trial") ? stroke(c) : fill(c), under);
  }
  for (const sel of [".trial-frame", ".error-frame", ".premise-frame"]) {
    for (const r of svg.querySelectorAll(sel)) {
      const under = cellFill(cellAt(+r.getAttribute("x") + 8, +r.getAttribute("y") + 8));
      add(`${sel} ${r.getAttribute("class")}`, "mark", stroke(r), under);
    }
  }
  for (const t of svg.querySelectorAll("text.hint-mark, text.clue")) {
    const under = cellFill(cellAt(+t.getAttribute("x"), +t.getAttribute("y")));
    add(`text ${t.getAttribute("class")}`, "text", fill(t), under);
  }
  for (const t of svg.querySelectorAll("text.island-size")) add("island size", "text", fill(t), paper);
  for (const w of svg.querySelectorAll("path.wrong")) add("wrong X", "mark", stroke(w), stroke(w.previousElementSibling));
  for (const w of svg.querySelectorAll("path.wall-outline")) add("wall outline", "mark", stroke(w), stroke(w.previousElementSibling));
  for (const w of svg.querySelectorAll("path.wall-outline")) {
    // on the paper, the outline or its halo stands out, whichever differs more
    const halo = stroke(w.previousElementSibling);
    const best = Math.max(ratio(stroke(w), paper), ratio(halo, paper));
    out.push({ what: "wall outline on paper", kind: "mark", ratio: best });
  }
  for (const c of svg.querySelectorAll("rect.cursor")) add("cursor", "mark", stroke(c), paper);
  return out;
}

// ---- SETUP
() => {
  const game = window.nurikabe.game;
  const board = game.board;
  const free = [...board.cells.keys()].filter((c) => !board.isClue(c));
  // a 2x2 pool (live errors on black cells), black cells, dots, a wrong cell, a hint with
  // premises, a trial with a black cell and a dot, walls in colours, a highlighted wall
  const cols = board.cols;
  const pool = free.find((c) => c % cols < cols - 1 && [c + 1, c + cols, c + cols + 1].every((d) => free.includes(d)));
  board.play(board.changesTo([pool, pool + 1, pool + cols, pool + cols + 1], "#"));
  const rest = free.filter((c) => ![pool, pool + 1, pool + cols, pool + cols + 1].includes(c));
  board.play(board.changesTo([rest[0], rest[2]], "."));
  board.play(board.changesTo([rest[4], rest[40]], "#"));
  game.wrong = new Set([rest[0], pool]);
  game.hint = { cells: [[rest[6], "black"]], premises: [rest[4], rest[2]], board: board.toString() };
  board.enterTrial();
  board.play(board.changesTo([rest[60]], "#"));
  board.play(board.changesTo([rest[62]], "."));
  game.settings.irowake = true;
  game.settings.liveErrors = true;
  game.litCell = rest[40];
  game.label = { cell: rest[4], size: 3 };
  game.cursor = rest[8];
  game.showCursor = true;
  game.render();
}
