// The JSON API client (docs/web-api.md): one function per endpoint, errors thrown as ApiError
// with the server's one-line message. Progress saves go through a queue: one request in
// flight, each save sent in order, so the server always ends with the latest board.

export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function call(method, path, body, keepalive = false) {
  // keepalive lets the last save finish when the tab is closed.
  const init = { method, headers: {}, credentials: "same-origin", keepalive };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("The server cannot be reached.", "offline", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
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
