// The board's cell size: fitted to the screen (the default), or a size the player chose
// with the - / + buttons or by pinching with two fingers, the board then scrolling inside
// its frame (two fingers pan it). On a touch screen a fitted board never gets cells smaller
// than TOUCH_CELL px: a 40x40 board on a 360 px phone is played zoomed in and panned.

import { CELL } from "./render.js";

export const MIN_CELL = 12;
export const MAX_CELL = 96;
export const TOUCH_CELL = 28;
const PAD = 4;
const STEP = 1.25;

const clamp = (px) => Math.max(MIN_CELL, Math.min(MAX_CELL, Math.round(px)));

export class Zoom {
  /** `svg` the board, `wrap` its scrolling frame, `settings.cellSize` (0: fit), `save()`. */
  constructor(svg, wrap, settings, save) {
    this.svg = svg;
    this.wrap = wrap;
    this.settings = settings;
    this.save = save;
    this.board = null;
    this.pinch = null;
  }

  get coarse() {
    return !!window.matchMedia?.("(pointer: coarse)").matches;
  }

  /** The cell size in px that fits the board into the frame and the window. */
  fitted() {
    const { rows, cols } = this.board;
    const width = this.wrap.clientWidth || window.innerWidth;
    const height = Math.max(200, window.innerHeight - 80);
    return Math.min(72, (width * CELL) / (cols * CELL + 2 * PAD), (height * CELL) / (rows * CELL + 2 * PAD));
  }

  /** The cell size shown now, in px (0: fitted by the page's CSS). */
  chosen() {
    if (!this.board) return 0;
    if (this.settings.cellSize > 0) return clamp(this.settings.cellSize);
    return this.coarse && this.fitted() < TOUCH_CELL ? TOUCH_CELL : 0;
  }

  /** Size the board for `board` (or the one shown). */
  apply(board = this.board) {
    this.board = board;
    if (!board) return;
    const px = this.chosen();
    this.wrap.classList.toggle("zoomed", px > 0);
    if (px > 0) {
      this.svg.style.setProperty("--board-width", `${((board.cols * CELL + 2 * PAD) * px) / CELL}px`);
    } else {
      this.svg.style.removeProperty("--board-width");
    }
    const label = document.getElementById("zoomSize");
    if (label) label.textContent = px > 0 ? `${px} px` : "fit";
  }

  /** The cell size now in px, fitted or chosen. */
  current() {
    return this.chosen() || Math.round(this.fitted());
  }

  step(up) {
    this.settings.cellSize = clamp(this.current() * (up ? STEP : 1 / STEP));
    this.apply();
    this.save();
  }

  fit() {
    this.settings.cellSize = 0;
    this.apply();
    this.save();
  }

  // ---- two fingers: pinch to size the cells, move to pan ----------------------------

  beginPinch(a, b) {
    this.pinch = {
      distance: Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1])),
      middle: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
      px: this.current(),
      scroll: [this.wrap.scrollLeft, this.wrap.scrollTop],
    };
  }

  movePinch(a, b) {
    const p = this.pinch;
    if (!p) return;
    const distance = Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1]));
    const middle = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const px = clamp((p.px * distance) / p.distance);
    if (px !== this.chosen()) {
      this.settings.cellSize = px;
      this.apply();
    }
    // keep the point between the fingers under them: scale about it, then follow it
    const box = this.wrap.getBoundingClientRect();
    const scale = px / p.px;
    this.wrap.scrollLeft = (p.scroll[0] + p.middle[0] - box.left) * scale - (middle[0] - box.left);
    this.wrap.scrollTop = (p.scroll[1] + p.middle[1] - box.top) * scale - (middle[1] - box.top);
  }

  endPinch() {
    if (!this.pinch) return;
    this.pinch = null;
    this.save();
  }
}
