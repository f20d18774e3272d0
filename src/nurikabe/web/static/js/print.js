// The "Print" section: PDF booklets from the server (docs/web-api.md, /api/print). "Download
// PDF" is a link to GET /api/print with the options chosen (kept current as they change);
// "Print my solved puzzles" posts the keys of the player's solved list. Both fetch the PDF
// first, so a refusal shows the server's one-line message instead of saving a JSON file.

import { api, ApiError } from "./api.js";
import { escapeHtml } from "./game.js";

const $ = (id) => document.getElementById(id);

/** The booklet's look, as the form says it. */
function options() {
  const out = {
    per_page: Number($("printPerPage").value),
    paper: $("printPaper").value,
    solutions: $("printSolutions").checked,
    title: $("printTitle").value,
  };
  const author = $("printAuthor").value.trim();
  if (author) out.author = author;
  return out;
}

/** The address of GET /api/print for the run of the collection the form describes. */
export function printAddress() {
  const q = new URLSearchParams({ collection: $("printCollection").value });
  if ($("printLevel").value) q.set("level", $("printLevel").value);
  q.set("start", $("printStart").value || "0");
  q.set("count", $("printCount").value || "20");
  for (const [name, value] of Object.entries(options())) q.set(name, String(value));
  return `/api/print?${q}`;
}

/** Save a fetched PDF under the name the server gave it. */
async function save(response) {
  if (!response.ok) {
    let message = `The server answered ${response.status}.`;
    try {
      message = (await response.json()).error.message || message;
    } catch {
      // not the envelope: keep the status line
    }
    throw new ApiError(message, "print", response.status);
  }
  const disposition = response.headers.get("content-disposition") || "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] || "nurikabe.pdf";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

/** Wire the section; `collections` as /api/collections lists them, `current` the one played. */
export function bindPrint(collections, current, { say, guarded }) {
  $("printCollection").innerHTML = collections
    .map((c) => `<option value="${escapeHtml(c.name)}">${escapeHtml(c.name)}</option>`)
    .join("");
  if (collections.some((c) => c.name === current)) $("printCollection").value = current;
  const link = $("printDownload");
  const update = () => (link.href = printAddress());
  $("printBox").addEventListener("input", update);
  $("printBox").addEventListener("change", update);
  update();
  const busy = async (button, work) => {
    button.setAttribute("aria-busy", "true");
    button.classList.add("busy");
    try {
      const name = await work();
      say(`Saved <b>${escapeHtml(name)}</b>.`, "good");
    } finally {
      button.removeAttribute("aria-busy");
      button.classList.remove("busy");
    }
  };
  link.addEventListener("click", (e) => {
    e.preventDefault();
    guarded(() => busy(link, async () => save(await fetch(printAddress(), { credentials: "same-origin" }))));
  });
  $("printSolved").addEventListener("click", () =>
    guarded(() =>
      busy($("printSolved"), async () => {
        const { solved } = await api.progress();
        if (!solved.length) throw new ApiError("Solve a puzzle first: your solved list is empty.", "print", 0);
        // The list is most recent first: the 200 most recent, in the order they were solved.
        const keys = solved.slice(0, 200).reverse().map((s) => s.key);
        const response = await fetch("/api/print", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ keys, ...options() }),
        });
        return save(response);
      }),
    ),
  );
}
