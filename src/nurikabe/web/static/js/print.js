// The "Print" section: PDF booklets from the server (docs/web-api.md, /api/print). "Download
// PDF" is a link to GET /api/print with the options chosen (kept current as they change);
// "Print my solved puzzles" posts the keys of the player's solved list. Both fetch the PDF
// first, so a refusal shows the server's one-line message instead of saving a JSON file,
// through the API client: a busy server is waited out, and only the newest booklet asked
// for is saved (a second click while one is made replaces it, as the game's loads do).

import { api, ApiError, download, Latest } from "./api.js";
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

const booklets = new Latest(); // the booklet being made: only the newest is saved

/** Save a fetched PDF under the name the server gave it. */
async function save(response) {
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
  // A button stays busy while any booklet it asked for is being made (a second click
  // replaces the first booklet, which then ends aborted before the second is in).
  const busy = async (button, work) => {
    button.dataset.making = String(Number(button.dataset.making || 0) + 1);
    button.setAttribute("aria-busy", "true");
    button.classList.add("busy");
    try {
      const name = await work();
      say(`Saved <b>${escapeHtml(name)}</b>.`, "good");
    } finally {
      button.dataset.making = String(Number(button.dataset.making) - 1);
      if (button.dataset.making === "0") {
        button.removeAttribute("aria-busy");
        button.classList.remove("busy");
      }
    }
  };
  link.addEventListener("click", (e) => {
    e.preventDefault();
    guarded(() =>
      busy(link, async () => save(await booklets.run((signal) => download("GET", printAddress(), undefined, signal)))),
    );
  });
  $("printSolved").addEventListener("click", () =>
    guarded(() =>
      busy($("printSolved"), async () => {
        const { solved } = await api.progress();
        if (!solved.length) throw new ApiError("Solve a puzzle first: your solved list is empty.", "print", 0);
        // The list is most recent first: the 200 most recent, in the order they were solved.
        const keys = solved.slice(0, 200).reverse().map((s) => s.key);
        const body = { keys, ...options() };
        return save(await booklets.run((signal) => download("POST", "/api/print", body, signal)));
      }),
    ),
  );
}
