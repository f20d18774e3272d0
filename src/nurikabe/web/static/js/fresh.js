// New puzzles on demand and the puzzle of the day: the New puzzle control (size, custom
// rows x columns, level), the wait while the server makes one (asked again until it is
// there, with a bar of the time taken against the usual time), and the puzzle's ID and the
// link that gives another player the same puzzle.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_MS = 700;

/**
 * Wire the control. `ui`: show(freshAnswer) puts a puzzle on the board, loads the page's
 * Latest of puzzle loads (a wait is one load: another puzzle asked for meanwhile ends it, and
 * a wait begun ends the load before it), say(html, kind), guarded(action), settings and
 * saveSettings(settings).
 */
export function bindFresh(ui) {
  let waiting = 0; // the latest wait; an older one stops when it sees a newer
  let waitSignal = null; // the latest wait's signal (ui.loads): Cancel aborts its request

  const progress = (on, text = "", share = 0) => {
    $("freshProgress").hidden = !on;
    $("freshText").textContent = text;
    $("freshBar").value = Math.min(share, 0.97);
    $("freshGo").disabled = on;
    $("dailyGo").disabled = on;
  };

  /** Ask `ask(signal)` until it gives a puzzle; show it unless the player moved on meanwhile. */
  async function wait(ask) {
    const mine = ++waiting;
    const signal = (waitSignal = ui.loads.begin());
    try {
      for (;;) {
        const answer = await ask(signal);
        if (mine !== waiting) return; // a newer wait, or Cancel, took over
        if (signal.aborted) return progress(false); // another puzzle was asked for meanwhile
        if (answer.kind === "puzzle") {
          ui.loads.abort(signal); // done: nothing left to abort
          progress(false);
          ui.show(answer);
          return;
        }
        const seconds = Math.round(answer.waited);
        progress(
          true,
          `${answer.message} ${seconds} s (usually about ${Math.max(1, Math.round(answer.expected))} s)`,
          answer.waited / Math.max(answer.expected, 0.1),
        );
        await sleep(POLL_MS);
        if (mine !== waiting) return;
        if (signal.aborted) return progress(false);
      }
    } catch (err) {
      if (mine === waiting) progress(false);
      throw err;
    }
  }

  const size = () => {
    if ($("freshSize").value === "custom") return [Number($("freshRows").value), Number($("freshCols").value)];
    const n = Number($("freshSize").value);
    return [n, n];
  };

  let offer = { min_side: 5, max_side: 25, extreme_cells: 400, sizes: [5, 7, 10, 12, 15, 20, 25] };
  const fitLevels = () => {
    const [rows, cols] = size();
    const extreme = $("freshLevel").querySelector('option[value="extreme"]');
    extreme.disabled = rows * cols > offer.extreme_cells;
    if (extreme.disabled && $("freshLevel").value === "extreme") $("freshLevel").value = "expert";
    $("freshCustom").hidden = $("freshSize").value !== "custom";
  };
  const fillSizes = () => {
    $("freshSize").innerHTML =
      offer.sizes.map((n) => `<option value="${n}">${n}x${n}</option>`).join("") +
      '<option value="custom">custom…</option>';
    for (const id of ["freshRows", "freshCols"]) {
      $(id).min = offer.min_side;
      $(id).max = offer.max_side;
    }
    const s = ui.settings;
    $("freshSize").value = offer.sizes.includes(s.freshSize) || s.freshSize === "custom" ? String(s.freshSize) : "10";
    $("freshRows").value = s.freshRows || 10;
    $("freshCols").value = s.freshCols || 12;
    $("freshLevel").value = s.freshLevel || "easy";
    fitLevels();
  };
  fillSizes();
  api.freshOffer().then(
    (o) => {
      offer = o;
      fillSizes();
      $("dailyGo").title = `Today's puzzle (${o.daily.day}, UTC): ${o.daily.rows}x${o.daily.cols} ${o.daily.level}, the same for everyone`;
    },
    () => {},
  );

  const remember = () => {
    const s = ui.settings;
    s.freshSize = $("freshSize").value === "custom" ? "custom" : Number($("freshSize").value);
    s.freshRows = Number($("freshRows").value);
    s.freshCols = Number($("freshCols").value);
    s.freshLevel = $("freshLevel").value;
    ui.saveSettings(s);
  };
  // "input" too: a size typed before the server's offer arrives is kept when the offer
  // refills the form from the settings
  for (const id of ["freshSize", "freshRows", "freshCols", "freshLevel"]) {
    for (const kind of ["change", "input"]) {
      $(id).addEventListener(kind, () => {
        fitLevels();
        remember();
      });
    }
  }

  $("freshGo").addEventListener("click", () =>
    ui.guarded(async () => {
      const [rows, cols] = size();
      const { min_side: lo, max_side: hi } = offer;
      if (![rows, cols].every((n) => Number.isInteger(n) && n >= lo && n <= hi)) {
        ui.say(`Rows and columns go from ${lo} to ${hi}.`, "error");
        return;
      }
      const level = $("freshLevel").value;
      await wait((signal) => api.fresh(rows, cols, level, signal));
    }),
  );
  $("dailyGo").addEventListener("click", () => ui.guarded(() => wait((signal) => api.daily(signal))));
  $("freshCancel").addEventListener("click", () => {
    waiting++;
    progress(false);
    ui.loads.abort(waitSignal); // unless another load took over already
  });

  return {
    /** Open the puzzle of an ID (a shared link), waiting while it is made again. */
    openId: (id) => wait((signal) => api.freshById(id, signal)),
    daily: () => wait((signal) => api.daily(signal)),
    /** Another new puzzle of the size and level of `puzzle` (Next on a generated puzzle). */
    again: (puzzle) => wait((signal) => api.fresh(puzzle.rows, puzzle.cols, puzzle.level, signal)),
  };
}

/** Show the ID and share link of a generated puzzle (`fresh` a FreshOut), or hide them. */
export function showId(fresh) {
  const link = $("shareLink");
  link.hidden = !fresh;
  if (!fresh) return;
  link.textContent = fresh.id;
  link.href = new URL(fresh.link, location.origin).href;
  link.title = "A link that gives anyone this same puzzle (its ID: seed and parameters)";
}
