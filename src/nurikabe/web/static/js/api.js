// The JSON API client (docs/web-api.md): one function per endpoint, errors thrown as ApiError
// with the server's one-line message (a calm one, after retries, for a busy server). Latest
// keeps one kind of request (the puzzle to show, the help asked for) to its newest: the
// older is aborted, so its answer can never overwrite a newer one. Progress saves go through
// a queue: one request in flight, each save sent in order, so the server always ends with
// the latest board and misses no solve.

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

/** A wait of `seconds` that ends early when `signal` aborts. */
const pause = (seconds, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

const ABORTED = "aborted";

/** The error of a call aborted by a newer request of its kind (Latest): never shown to the player. */
export const isAborted = (err) => err instanceof ApiError && err.code === ABORTED;

const aborted = () => new ApiError("A newer request took this one's place.", ABORTED, 0);

function retryAfter(response) {
  const seconds = Number(response.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, RETRY_CAP_S) : 1;
}

/**
 * One request, its Response: a 429 or 503 is waited out and sent again (RETRIES times at
 * most). `keepalive` lets the last save finish when the tab is closed; `signal` (an
 * AbortSignal, see Latest) aborts it: the call then throws an aborted ApiError, at once,
 * without a retry, even when the answer was already in.
 */
async function send(method, path, body, { keepalive = false, signal } = {}) {
  const init = { method, headers: {}, credentials: "same-origin", keepalive, signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, init);
    } catch {
      if (signal?.aborted) throw aborted();
      throw new ApiError("The server cannot be reached.", "offline", 0);
    }
    if (!(response.status in CALM) || attempt >= RETRIES) break;
    await pause(retryAfter(response), signal);
    if (signal?.aborted) throw aborted();
  }
  return response;
}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** The error of a refused request: calm words for a busy server, else the server's message. */
function refusal(status, data) {
  if (status in CALM) return new ApiError(CALM[status], data?.error?.code || "busy", status);
  const err = data?.error || {};
  return new ApiError(err.message || `The server answered ${status}.`, err.code || "http", status);
}

/** One JSON request (see send): its answer, or an ApiError with the server's message. */
async function call(method, path, body, options = {}) {
  const response = await send(method, path, body, options);
  const data = await readJson(response);
  if (options.signal?.aborted) throw aborted();
  if (!response.ok || !data || data.ok === false) throw refusal(response.status, data);
  return data;
}

/**
 * A file from the API (a PDF booklet): the Response of a request that succeeded, after the
 * same waits and retries as every call; a refusal throws its ApiError.
 */
export async function download(method, path, body, signal) {
  const response = await send(method, path, body, { signal });
  if (!response.ok) throw refusal(response.status, await readJson(response));
  if (signal?.aborted) throw aborted();
  return response;
}

/**
 * One request to any endpoint of the API (the studio's too), with the retries and calm
 * messages above: `signal`, when given, aborts it (an aborted ApiError, see isAborted).
 */
export const request = (method, path, body, signal) => call(method, path, body, { signal });

const part = (key) => key.split("/").map(encodeURIComponent).join("/");

// The last argument `signal` of a call, when given, aborts it (see Latest).
export const api = {
  collections: () => call("GET", "/api/collections"),
  puzzle: (key, signal) => call("GET", `/api/puzzles/${part(key)}`, undefined, { signal }),
  next: (key, level, signal) =>
    call("GET", `/api/puzzles/next?${new URLSearchParams(level ? { key, level } : { key })}`, undefined, { signal }),
  random: (collection, level, signal) => {
    const q = new URLSearchParams();
    if (collection) q.set("collection", collection);
    if (level) q.set("level", level);
    return call("GET", `/api/puzzles/random?${q}`, undefined, { signal });
  },
  importText: (text, signal) => call("POST", "/api/import", { text }, { signal }),
  check: (key, board, signal) => call("POST", "/api/check", { key, board }, { signal }),
  hint: (key, board, signal) => call("POST", "/api/hint", { key, board }, { signal }),
  solve: (key, signal) => call("POST", "/api/solve", { key }, { signal }),
  progress: (signal) => call("GET", "/api/progress", undefined, { signal }),
  settings: () => call("GET", "/api/settings"),
  saveSettings: (settings) => call("PUT", "/api/settings", { settings }),
};

/**
 * One kind of request of which only the newest counts: the puzzle to show (Open, Next,
 * Random, import, a new puzzle, a link), the help asked for (check, hint, solution), the
 * solved list. `run(request)` calls `request(signal)` and aborts the request of this kind
 * still in flight; an aborted call throws an aborted ApiError (isAborted), so a slower answer
 * to an older request can never overwrite the newer one. Never used for saves: those are
 * all kept, in order (SaveQueue).
 */
export class Latest {
  constructor() {
    this.controller = null;
  }

  /** Abort the request of this kind in flight and give the signal of a new one. */
  begin() {
    this.controller?.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }

  /** Abort the request in flight, or, given its `signal`, that one only if it is still the newest. */
  abort(signal) {
    if (signal && signal !== this.controller?.signal) return;
    this.controller?.abort();
    this.controller = null;
  }

  /** `request(signal)`'s answer, or an aborted ApiError if a newer request began meanwhile. */
  async run(request) {
    const signal = this.begin();
    const answer = await request(signal);
    if (signal.aborted) throw aborted();
    if (this.controller?.signal === signal) this.controller = null;
    return answer;
  }
}

/**
 * Sends progress saves one at a time, in order; `pending` is the number not yet stored.
 * Each save carries the whole board, yet none is skipped for a newer one: the server judges
 * every save (a solved board sets the best time even when the next save undoes it).
 */
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
        const answer = await call("PUT", `/api/progress/${part(key)}`, body, { keepalive: true });
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
  fresh: (rows, cols, level, signal) => call("POST", "/api/fresh", { rows, cols, level }, { signal }),
  daily: (signal) => call("GET", "/api/fresh/daily", undefined, { signal }),
  freshById: (id, signal) => call("GET", `/api/fresh/id/${encodeURIComponent(id)}`, undefined, { signal }),
  freshByNumber: (number, signal) =>
    call("GET", `/api/fresh/key/${encodeURIComponent(number)}`, undefined, { signal }),
});
