// The player's settings: defaults, and loading and saving them through the server
// (kept per player, so they survive a visit). Keys are those of docs/web-api.md.

import { api } from "./api.js";

export const DEFAULTS = {
  mouse: "black-left", // "black-left" | "white-left" | "cycle"
  showIslandSize: true,
  autoDots: false,
  liveErrors: true, // the rules already broken (rules.js check, mode "partial"); each kind on its own:
  livePool: true, // pool
  liveIsland: true, // island-two-clues, island-size, island-no-clue
  liveSea: true, // sea-split
  showTimer: true,
  irowake: false, // each wall (black region) in its own colour
  greyComplete: false, // grey out a clue whose island is complete
  theme: "auto", // "auto" (prefers-color-scheme) | "light" | "dark"
  cellSize: 0, // px a cell, or 0: fitted to the screen (at least 28 px on a touch screen)
  level: "",
  last: "",
};

/** The defaults for this device: on a touch screen one button cycles, as in pzprjs. */
function defaults() {
  const touch = window.matchMedia?.("(pointer: coarse)").matches && !window.matchMedia("(pointer: fine)").matches;
  return { ...DEFAULTS, mouse: touch ? "cycle" : DEFAULTS.mouse };
}

export async function loadSettings() {
  try {
    const { settings } = await api.settings();
    return { ...defaults(), ...(settings || {}) };
  } catch {
    return defaults();
  }
}

let sending = null; // the save in flight (a promise), or null
let next = null; // the settings to send after it, or null

/**
 * Save the settings: one request in flight, and of those asked for meanwhile only the newest
 * is sent after it (each carries all the settings), so an older PUT can never land after a
 * newer one and undo it.
 */
export function saveSettings(settings) {
  next = { ...settings };
  sending ||= (async () => {
    while (next) {
      const body = next;
      next = null;
      try {
        await api.saveSettings(body);
      } catch {
        // Settings are a comfort: the game goes on with them kept in the page.
      }
    }
    sending = null;
  })();
  return sending;
}
