// The JSON API client (docs/web-api.md): one function per endpoint, errors thrown as ApiError
// with the server's one-line message (a calm one, after retries, for a busy server). Progress saves go through a queue: one request in
// flight, each save sent in order, so the server always ends with the latest board.

export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// A 429 (this player is going faster than its share) or 503 (the server is full) is not
// the player's mistake: the call waits the server's Retry-After (at most RETRY_CAP_S) and
// tries again, up to RETRIES times, then says so calmly. Every call of this API may be
// sent again: reads, checks and hints change nothing, a save or the settings put the same
// state again, an import of the same text finds the same puzzle.
const RETRIES = 2;
const RETRY_CAP_S = 10;
const CALM = {
  429: "You are going faster than the server can follow; it will catch up in a moment.",
  503: "The server is busy just now; please try again in a few seconds.",
};

const pause = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

function retryAfter(response) {
  const seconds = Number(response.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, RETRY_CAP_S) : 1;
}

async function call(method, path, body, keepalive = false) {
  // keepalive lets the last save finish when the tab is closed.
  const init = { method, headers: {}, credentials: "same-origin", keepalive };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, init);
    } catch {
      throw new ApiError("The server cannot be reached.", "offline", 0);
    }
    if (!(response.status in CALM) || attempt >= RETRIES) break;
    await pause(retryAfter(response));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status in CALM) {
    throw new ApiError(CALM[response.status], data?.error?.code || "busy", response.status);
  }
  if (!response.ok || !data || data.ok === false) {
    const err = data?.error || {};
    throw new ApiError(err.message || `The server answered ${response.status}.`, err.code || "http", response.status);
  }
  return data;
}

const part = (key) => key.split("/").map(encodeURIComponent).join("/");

export const api = {
  collections: () => call("GET", "/api/collections"),
  puzzle: (key) => call("GET", `/api/puzzles/${part(key)}`),
  next: (key, level) =>
    call("GET", `/api/puzzles/next?${new URLSearchParams(level ? { key, level } : { key })}`),
  random: (collection, level) => {
    const q = new URLSearchParams();
    if (collection) q.set("collection", collection);
    if (level) q.set("level", level);
    return call("GET", `/api/puzzles/random?${q}`);
  },
  importText: (text) => call("POST", "/api/import", { text }),
  check: (key, board) => call("POST", "/api/check", { key, board }),
  hint: (key, board) => call("POST", "/api/hint", { key, board }),
  solve: (key) => call("POST", "/api/solve", { key }),
  progress: () => call("GET", "/api/progress"),
  settings: () => call("GET", "/api/settings"),
  saveSettings: (settings) => call("PUT", "/api/settings", { settings }),
};

/** Sends progress saves one at a time, in order; `pending` is the number not yet stored. */
export class SaveQueue {
  constructor(onSaved, onError) {
    this.queue = [];
    this.busy = false;
    this.onSaved = onSaved;
    this.onError = onError;
    this.idle = Promise.resolve();
    this._resolveIdle = null;
  }

  get pending() {
    return this.queue.length + (this.busy ? 1 : 0);
  }

  save(key, body) {
    this.queue.push({ key, body });
    if (!this.busy) {
      this.idle = new Promise((resolve) => (this._resolveIdle = resolve));
      this._pump();
    }
  }

  async _pump() {
    this.busy = true;
    while (this.queue.length) {
      const { key, body } = this.queue.shift();
      try {
        const answer = await call("PUT", `/api/progress/${part(key)}`, body, true);
        this.onSaved(key, answer);
      } catch (err) {
        this.onError(err);
      }
    }
    this.busy = false;
    this._resolveIdle?.();
  }
}

// New puzzles (docs/web-api.md, "New puzzles"): each answers {kind: "puzzle", id, link, day,
// puzzle} or, while the server makes one (202), {kind: "making", waited, expected, message}.
Object.assign(api, {
  freshOffer: () => call("GET", "/api/fresh"),
  fresh: (rows, cols, level) => call("POST", "/api/fresh", { rows, cols, level }),
  daily: () => call("GET", "/api/fresh/daily"),
  freshById: (id) => call("GET", `/api/fresh/id/${encodeURIComponent(id)}`),
  freshByNumber: (number) => call("GET", `/api/fresh/key/${encodeURIComponent(number)}`),
});
