// New puzzles on demand and the puzzle of the day: the New puzzle control (size, custom
// rows x columns, level), the wait while the server makes one (asked again until it is
// there, with a bar of the time taken against the usual time), and the puzzle's ID and the
// link that gives another player the same puzzle.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_MS = 700;

/**
 * Wire the control. `ui`: show(freshAnswer) puts a puzzle on the board, opened() counts the
 * puzzles shown so far (a wait ends when another puzzle is opened meanwhile), say(html, kind),
 * guarded(action), settings and saveSettings(settings).
 */
export function bindFresh(ui) {
  let waiting = 0; // the latest wait; an older one stops when it sees a newer

  const progress = (on, text = "", share = 0) => {
    $("freshProgress").hidden = !on;
    $("freshText").textContent = text;
    $("freshBar").value = Math.min(share, 0.97);
    $("freshGo").disabled = on;
    $("dailyGo").disabled = on;
  };

  /** Ask `ask()` until it gives a puzzle; show it unless the player moved on meanwhile. */
  async function wait(ask) {
    const mine = ++waiting;
    const opened = ui.opened();
    try {
      for (;;) {
        const answer = await ask();
        if (mine !== waiting) return; // a newer wait, or Cancel, took over
        if (opened !== ui.opened()) return progress(false); // another puzzle was opened meanwhile
        if (answer.kind === "puzzle") {
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
        if (opened !== ui.opened()) return progress(false);
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

  let offer = { min_side: 5, max_side: 25, extreme_cells: 100, sizes: [5, 7, 10, 12, 15, 20, 25] };
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
  for (const id of ["freshSize", "freshRows", "freshCols", "freshLevel"]) {
    $(id).addEventListener("change", () => {
      fitLevels();
      remember();
    });
  }

  $("freshGo").addEventListener("click", () =>
    ui.guarded(async () => {
      const [rows, cols] = size();
      const { min_side: lo, max_side: hi } = offer;
      if (![rows, cols].every((n) => Number.isInteger(n) && n >= lo && n <= hi)) {
        ui.say(`Rows and columns go from ${lo} to ${hi}.`, "error");
        return;
      }
      await wait(() => api.fresh(rows, cols, $("freshLevel").value));
    }),
  );
  $("dailyGo").addEventListener("click", () => ui.guarded(() => wait(() => api.daily())));
  $("freshCancel").addEventListener("click", () => {
    waiting++;
    progress(false);
  });

  return {
    /** Open the puzzle of an ID (a shared link), waiting while it is made again. */
    openId: (id) => wait(() => api.freshById(id)),
    daily: () => wait(() => api.daily()),
    /** Another new puzzle of the size and level of `puzzle` (Next on a generated puzzle). */
    again: (puzzle) => wait(() => api.fresh(puzzle.rows, puzzle.cols, puzzle.level)),
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
