// The source page (pages/source.rs): the text a document was made from, with a preview of
// what it makes drawn as you type (debounced, through /d/{id}/source/preview, which imports
// the text as an upload would and draws one page with the SVG exporter), and Save as a new
// version with If-Match. Without scripts the form still posts the text.

import { sendJson } from "./request.js";

/** Quiet time after the last keystroke before the preview is drawn. */
const DEBOUNCE_MS = 400;

/** The line and column an importer's refusal names ("line 3, column 7: ..."), if any. */
export function placeOf(detail) {
  const m = /line (\d+), column (\d+)/.exec(detail || "");
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}

/** The character offsets of `line` (1-based) in `text`, for selecting it. */
export function lineRange(text, line) {
  let start = 0;
  for (let n = 1; n < line; n += 1) {
    const next = text.indexOf("\n", start);
    if (next < 0) return { start: text.length, end: text.length };
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return { start, end: end < 0 ? text.length : end };
}

function enhance(form) {
  const { id, field, csrf } = form.dataset;
  const textarea = form.querySelector("#source");
  const problem = form.querySelector("#source-problem");
  const image = form.querySelector("#preview");
  const state = form.querySelector("#preview-state");
  const pager = form.querySelector("#preview-pager");
  const pageSelect = form.querySelector("#preview-page");
  const saveState = form.querySelector("#save-state");
  let timer = 0;
  let drawn = 0;
  let shownUrl = null;

  const body = () => JSON.stringify({ [field]: textarea.value });

  const showProblem = (detail) => {
    const place = placeOf(detail);
    problem.hidden = false;
    problem.textContent = "";
    const text = document.createElement("span");
    // The importer's own words start with the place; the page says it once, capitalised.
    text.textContent = place ? detail.replace(/^line/, "Line") : detail;
    problem.append(text);
    if (place) {
      const go = document.createElement("button");
      go.type = "button";
      go.className = "link";
      go.textContent = `Go to line ${place.line}`;
      go.addEventListener("click", () => {
        const { start, end } = lineRange(textarea.value, place.line);
        textarea.focus();
        textarea.setSelectionRange(start, end);
      });
      problem.append(" ", go);
    }
    textarea.setAttribute("aria-invalid", "true");
    image.classList.add("stale");
  };
  const clearProblem = () => {
    problem.hidden = true;
    problem.textContent = "";
    textarea.removeAttribute("aria-invalid");
    image.classList.remove("stale");
  };

  const draw = async () => {
    const ticket = ++drawn;
    const page = Number(pageSelect.value || 1);
    state.textContent = "Drawing…";
    let response;
    try {
      response = await sendJson(`/d/${id}/source/preview?page=${page}`, { csrf, body: body() });
    } catch {
      state.textContent = "The preview could not be drawn: the server did not answer.";
      return;
    }
    if (ticket !== drawn) return; // a newer keystroke's preview is on its way
    if (!response.ok) {
      const refusal = await response.json().catch(() => ({}));
      showProblem(refusal.detail || `The preview failed (${response.status}).`);
      state.textContent = "The preview shows the last text that could be read.";
      return;
    }
    const pages = Number(response.headers.get("X-Quire-Pages") || 1);
    const picture = await response.blob();
    if (ticket !== drawn) return;
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = URL.createObjectURL(picture);
    image.src = shownUrl;
    image.dataset.drawn = String(ticket);
    clearProblem();
    state.textContent = "Preview of the text as it is now (not saved yet).";
    if (pages > 1 || pageSelect.options.length > 1) {
      const keep = Math.min(page, pages);
      pageSelect.replaceChildren(
        ...Array.from({ length: pages }, (_, i) => new Option(String(i + 1), String(i + 1), false, i + 1 === keep)),
      );
      pager.hidden = pages < 2;
    }
  };

  textarea.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(draw, DEBOUNCE_MS);
  });
  pageSelect.addEventListener("change", draw);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    saveState.textContent = "Saving…";
    const response = await sendJson(`/d/${id}/source`, {
      csrf,
      body: body(),
      headers: { "If-Match": `"${form.dataset.version}"` },
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok && answer.open) {
      location.assign(answer.open);
      return;
    }
    saveState.textContent = "";
    showProblem(
      response.status === 409
        ? "The document changed since this page was opened; reload to edit the newest version (copy your text first)."
        : answer.detail || `Saving failed (${response.status}).`,
    );
  });
}

const form = globalThis.document?.querySelector("#source-form");
if (form) enhance(form);
