// The page's shell: wires the buttons, the puzzle picker, new puzzles (fresh.js), import, the
// solved list, printing (print.js), the cell size (zoom.js), the play tools (trial, walls,
// pause, copy URL) and the settings panel to the game, and opens the puzzle of the address
// (a key, ?id=, ?daily, ?url= or /p?nurikabe/...) or of the last visit.

import { api, ApiError, isAborted, Latest } from "./api.js";
import { MAX_TRIALS } from "./board.js";
import { bindFresh, showId } from "./fresh.js";
import { clockText, escapeHtml, Game } from "./game.js";
import { attachInput } from "./input.js";
import { Zoom } from "./zoom.js";
import { bindPrint } from "./print.js";
import { loadSettings, saveSettings } from "./settings.js";

const $ = (id) => document.getElementById(id);

function say(html, kind = "") {
  const box = $("message");
  box.innerHTML = html;
  box.className = `message ${kind}`;
}

let game;
let settings;
let collections = [];
// Only the newest of each counts (api.js, Latest): a slower answer to an older request is dropped.
const loads = new Latest(); // the puzzle to show: Open, Next, Random, import, a link, a new puzzle
const titles = new Latest(); // the ID and day of the generated puzzle shown
const solvedLists = new Latest();
let zoom;
let fresh; // the New puzzle control (fresh.js)

async function guarded(action) {
  try {
    await action();
  } catch (err) {
    if (isAborted(err)) return; // a newer request of its kind took over: nothing to say
    say(escapeHtml(err.message || String(err)), "error");
  }
}

/** The title of a puzzle; a generated one's from its FreshOut (`fresh`) when known. */
function titleOf(puzzle, fresh) {
  if (puzzle.collection === "imported") return `Imported #${puzzle.number}`;
  if (puzzle.collection === "generated") {
    if (fresh?.day) return `Puzzle of ${fresh.day}`;
    return `New ${puzzle.rows}x${puzzle.cols}`;
  }
  return `${puzzle.collection} #${puzzle.number}`;
}

function showPuzzle(puzzle, fresh = null) {
  titles.abort();
  if (game.paused) $("resume").click();
  game.load(puzzle);
  zoom.apply(game.board);
  $("title").textContent = titleOf(puzzle, fresh);
  showId(fresh);
  if (puzzle.collection === "generated" && !fresh) {
    titles.run((signal) => api.freshByNumber(puzzle.number, signal)).then(
      (f) => {
        showId(f);
        $("title").textContent = titleOf(puzzle, f);
        document.title = `${$("title").textContent} · Nurikabe`;
      },
      () => {},
    );
  }
  document.title = `${$("title").textContent} · Nurikabe`;
  $("level").textContent = puzzle.level || "";
  $("level").className = `badge ${puzzle.level || ""}`;
  showInPicker(puzzle);
  if (location.hash.slice(1) !== puzzle.key || location.search || location.pathname !== "/") {
    history.replaceState(null, "", `/#${puzzle.key}`); // a reload opens it by its key
  }
  if (settings.last !== puzzle.key) {
    settings.last = puzzle.key;
    saveSettings(settings);
  }
  $("celebrate").hidden = true;
}

/** Show the puzzle `request(signal)` answers, unless a newer load began meanwhile. */
async function load(request) {
  showPuzzle(await loads.run(request));
}

/** What the player reads for a key the server holds no puzzle at ("10x10/999"). */
const noSuchPuzzle = (key) => `This server has no puzzle ${key.replace("/", " #")}`;

async function open(key) {
  try {
    await load((signal) => api.puzzle(key, signal));
  } catch (err) {
    if (err.status === 404) throw new ApiError(`${noSuchPuzzle(key)}.`, err.code, err.status);
    throw err;
  }
}

/** The collection and number of `puzzle` in the picker, if it is one of a collection. */
function showInPicker(puzzle) {
  if (puzzle.collection === "imported" || puzzle.collection === "generated") return;
  $("collection").value = puzzle.collection;
  $("number").value = puzzle.number;
  updateNumberRange();
}

function updateNumberRange() {
  const c = collections.find((x) => x.name === $("collection").value);
  if (c) $("number").max = c.count - 1;
}

async function refreshSolved() {
  const { solved } = await solvedLists.run((signal) => api.progress(signal));
  $("solvedCount").textContent = solved.length ? `(${solved.length})` : "";
  $("solvedList").innerHTML = solved
    .map(
      (s) =>
        `<li><a href="#${escapeHtml(s.key)}" data-key="${escapeHtml(s.key)}">${escapeHtml(s.key)}</a>` +
        `<span>${s.best_seconds != null ? clockText(s.best_seconds) : ""}</span></li>`,
    )
    .join("") || "<li class=\"none\">None yet.</li>";
}

function celebrate(puzzle, seconds, best) {
  const text = `Solved in ${clockText(seconds)}${best != null ? ` · best ${clockText(best)}` : ""}`;
  say(`<b>${escapeHtml(text)}</b>`, "good");
  const box = $("celebrate");
  box.textContent = "Solved!";
  box.hidden = false;
  box.classList.remove("show");
  void box.offsetWidth; // restart the animation
  box.classList.add("show");
  setTimeout(() => (box.hidden = true), 2600);
  guarded(refreshSolved);
}

function bindSettings() {
  for (const radio of document.querySelectorAll('input[name="mouse"]')) {
    radio.checked = radio.value === settings.mouse;
    radio.addEventListener("change", () => {
      settings.mouse = radio.value;
      saveSettings(settings);
    });
  }
  const switches = [
    "showIslandSize",
    "autoDots",
    "liveErrors",
    "livePool",
    "liveIsland",
    "liveSea",
    "showTimer",
    "irowake",
    "greyComplete",
  ];
  for (const name of switches) {
    const box = $(name);
    box.checked = !!settings[name];
    box.addEventListener("change", () => {
      settings[name] = box.checked;
      saveSettings(settings);
      applyView();
      game.render();
    });
  }
  $("theme").value = ["light", "dark"].includes(settings.theme) ? settings.theme : "auto";
  $("theme").addEventListener("change", () => {
    settings.theme = $("theme").value;
    saveSettings(settings);
    applyView();
  });
  $("levelFilter").value = settings.level || "";
  $("levelFilter").addEventListener("change", () => {
    settings.level = $("levelFilter").value;
    saveSettings(settings);
  });
}

function applyView() {
  // "auto" leaves the colours to the CSS's prefers-color-scheme; a choice overrides it
  const theme = ["light", "dark"].includes(settings.theme) ? settings.theme : null;
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  $("clock").hidden = !settings.showTimer;
  for (const name of ["livePool", "liveIsland", "liveSea"]) $(name).disabled = !settings.liveErrors;
}

function bindButtons() {
  $("undo").addEventListener("click", () => game.undo());
  $("redo").addEventListener("click", () => game.redo());
  $("restart").addEventListener("click", () => game.restart());
  $("check").addEventListener("click", () => guarded(() => game.check()));
  $("trial").addEventListener("click", () => game.enterTrial());
  $("accept").addEventListener("click", () => game.acceptTrial());
  $("reject").addEventListener("click", () => game.rejectTrial());
  $("wallMode").addEventListener("click", () => {
    game.wallMode = !game.wallMode;
    $("wallMode").setAttribute("aria-pressed", String(game.wallMode));
    if (!game.wallMode) game.showWall(-1);
  });
  const pause = (on) => {
    game.setPaused(on);
    $("pause").setAttribute("aria-pressed", String(game.paused));
    $("pause").textContent = game.paused ? "Resume" : "Pause";
    $("pausedCover").hidden = !game.paused;
    document.querySelector(".board-wrap").classList.toggle("paused", game.paused);
    if (game.paused) $("resume").focus();
  };
  $("pause").addEventListener("click", () => pause(!game.paused));
  $("resume").addEventListener("click", () => pause(false));
  $("copyUrl").addEventListener("click", () =>
    guarded(async () => {
      const url = game.puzzle?.url;
      if (!url) return;
      try {
        await navigator.clipboard.writeText(url);
        say(`Copied: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`, "good");
      } catch {
        say(`Copy this address: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`);
      }
    }),
  );
  $("recolour").addEventListener("click", () => {
    if (!settings.irowake) {
      settings.irowake = true;
      $("irowake").checked = true;
      saveSettings(settings);
    }
    game.recolour();
  });
  $("hint").addEventListener("click", () => guarded(() => game.hintPressed()));
  $("solution").addEventListener("click", () => {
    if (game.solved || confirm("Show the whole solution?")) guarded(() => game.showSolution());
  });
  $("go").addEventListener("click", () => guarded(() => open(`${$("collection").value}/${$("number").value}`)));
  $("number").addEventListener("keydown", (e) => {
    if (e.key === "Enter") $("go").click();
  });
  $("collection").addEventListener("change", () => {
    updateNumberRange();
    $("number").value = 0;
    $("go").click();
  });
  $("next").addEventListener("click", () =>
    guarded(async () => {
      // a generated puzzle has no next: another new one of its size and level instead
      if (game.puzzle?.collection === "generated") return fresh.again(game.puzzle);
      const key = game.key;
      await load((signal) => api.next(key, settings.level || undefined, signal));
    }),
  );
  $("random").addEventListener("click", () =>
    guarded(() => {
      const collection = $("collection").value;
      return load((signal) => api.random(collection, settings.level || undefined, signal));
    }),
  );
  $("importGo").addEventListener("click", () =>
    guarded(async () => {
      const text = $("importText").value.trim();
      if (!text) return;
      await load((signal) => api.importText(text, signal));
      $("importText").value = "";
      $("importBox").open = false;
    }),
  );
  $("solvedBox").addEventListener("toggle", () => {
    if ($("solvedBox").open) guarded(refreshSolved);
  });
  $("solvedList").addEventListener("click", (e) => {
    const key = e.target.closest("a")?.dataset.key;
    if (key) {
      e.preventDefault();
      guarded(() => open(key));
    }
  });
  window.addEventListener("hashchange", () => {
    const key = decodeURIComponent(location.hash.slice(1));
    if (key && key !== game.key) guarded(() => open(key));
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && game.board?.history.length) game.save();
  });
}

function updateButtons() {
  const b = game.board;
  $("undo").disabled = !b?.history.length;
  $("redo").disabled = !b?.future.length;
  const level = game.trialLevel;
  $("trial").textContent = level ? `Trial ${level}/${MAX_TRIALS}` : "Trial";
  $("trial").disabled = !b || level >= MAX_TRIALS;
  $("accept").disabled = !level;
  $("reject").disabled = !level;
  document.body.dataset.trial = String(level);
}

/**
 * What the address asks for besides a key: `?id=<ID>` a generated puzzle, `?daily` the
 * puzzle of the day, `?url=<puzz.link URL>` or a path of puzz.link's shape
 * (`/p?nurikabe/5/5/...`) that puzzle, imported.
 */
function addressWants() {
  const query = new URLSearchParams(location.search);
  if (query.get("id")) return { id: query.get("id") };
  if (query.has("daily")) return { daily: true };
  if (query.get("url")) return { url: query.get("url") };
  if (location.pathname === "/p" && location.search.length > 1) {
    return { url: `https://puzz.link/p?${decodeURIComponent(location.search.slice(1))}` };
  }
  return null;
}

async function main() {
  // The settings, the collections and the puzzle of the address are asked for at once. The
  // first puzzle is a load like the others: one the player opens meanwhile wins over it.
  const startup = loads.begin();
  const hashKey = decodeURIComponent(location.hash.slice(1));
  const wants = addressWants();
  let missing = null; // the address's puzzle, when the server has no such puzzle
  const firstPuzzle =
    hashKey && !wants
      ? api.puzzle(hashKey, startup).catch((err) => {
          if (err.status === 404) missing = hashKey;
          return null;
        })
      : Promise.resolve(null);
  const imported = wants?.url ? api.importText(wants.url, startup).catch((err) => err) : null;
  const listing = api.collections().catch(() => ({ collections: [] }));
  settings = await loadSettings();
  const svg = $("board");
  game = new Game(svg, settings, {
    say,
    clock: (text) => ($("clock").textContent = text),
    best: (seconds) => ($("best").textContent = seconds != null ? `best ${clockText(seconds)}` : ""),
    broken: (messages) => ($("broken").textContent = messages.join(" ")),
    solved: celebrate,
    changed: updateButtons,
  });
  zoom = new Zoom(svg, document.querySelector(".board-wrap"), settings, () => saveSettings(settings));
  attachInput(svg, game, zoom);
  $("zoomIn").addEventListener("click", () => zoom.step(true));
  $("zoomOut").addEventListener("click", () => zoom.step(false));
  $("zoomFit").addEventListener("click", () => zoom.fit());
  window.addEventListener("resize", () => zoom.apply());
  window.nurikabe = { game, api, zoom }; // for the browser tests and the curious
  bindSettings();
  bindButtons();
  applyView();
  fresh = bindFresh({
    show: (answer) => showPuzzle(answer.puzzle, answer),
    loads,
    say,
    guarded,
    settings,
    saveSettings,
  });
  let puzzle = await firstPuzzle;
  let problem = null;
  if (imported) {
    const got = await imported;
    if (!(got instanceof Error)) puzzle = got;
    else if (!isAborted(got)) problem = `That puzz.link address could not be opened: ${got.message}`;
  }
  if (!puzzle && !startup.aborted) puzzle = await api.puzzle(settings.last || "10x10/0", startup).catch(() => null);
  if (!puzzle && !startup.aborted) {
    puzzle = await api.puzzle("10x10/0", startup).catch((err) => (isAborted(err) ? null : Promise.reject(err)));
  }
  collections = (await listing).collections;
  $("collection").innerHTML = collections
    .map((c) => `<option value="${escapeHtml(c.name)}">${escapeHtml(c.name)} (${c.count})</option>`)
    .join("");
  if (startup.aborted) {
    if (game.puzzle) showInPicker(game.puzzle); // the one the player opened meanwhile
  } else {
    if (missing && puzzle) problem = `${noSuchPuzzle(missing)}; here is ${titleOf(puzzle)} instead.`;
    loads.abort(startup);
    showPuzzle(puzzle);
  }
  bindPrint(collections, (puzzle || game.puzzle)?.collection || collections[0]?.name, { say, guarded });
  if (problem) say(escapeHtml(problem), "error");
  document.body.dataset.ready = "1";
  if (wants?.id) guarded(() => fresh.openId(wants.id));
  if (wants?.daily) guarded(() => fresh.daily());
  window.nurikabe.readyAt = performance.now(); // ms since navigation began (bench/page.py)
}

main().catch((err) => say(escapeHtml(`The game could not start: ${err.message}`), "error"));
