// Uploads from the pages: the New form on the Documents page and Replace on a document
// (`<form class="upload" data-csrf data-max [data-version]>`, see pages/upload.rs). A file
// chosen with the button or dropped anywhere on the page goes at once, with its progress
// shown; the server answers where to go next (the document, with what the conversion
// said). Without scripts the form posts as it is.

import { CSRF_FIELD, CSRF_HEADER } from "./request.js";

const KIB = 1024;

/** 1536 → "1.5 KiB", as the pages write sizes (`html::bytes`). */
export function size(bytes) {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= KIB && unit + 1 < units.length) {
    value /= KIB;
    unit += 1;
  }
  return unit === 0 ? `${Math.max(0, bytes)} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Whether a drag carries files (not text or a link dragged within the page). */
function carriesFiles(event) {
  return Array.from(event.dataTransfer?.types ?? []).includes("Files");
}

function enhance(form) {
  const input = form.querySelector("input[type=file]");
  const progress = form.querySelector("progress");
  const status = form.querySelector(".status");
  const limit = Number(form.dataset.max || 0);
  let busy = false;

  const say = (text, problem = false) => {
    status.textContent = text;
    status.classList.toggle("problem", problem);
    status.setAttribute("role", problem ? "alert" : "status");
  };
  const finish = () => {
    busy = false;
    progress.hidden = true;
    input.value = "";
    document.body.classList.remove("uploading");
  };

  const send = (file) => {
    if (busy) return;
    if (limit && file.size > limit) {
      say(`${file.name} is ${size(file.size)}; your plan takes files up to ${size(limit)}.`, true);
      return;
    }
    busy = true;
    document.body.classList.add("uploading");
    const body = new FormData();
    body.append("file", file, file.name);
    const action = new URL(form.action, location.href);
    action.searchParams.delete(CSRF_FIELD);
    const request = new XMLHttpRequest();
    request.open("POST", action.pathname + action.search);
    request.setRequestHeader(CSRF_HEADER, form.dataset.csrf);
    request.setRequestHeader("Accept", "application/json");
    if (form.dataset.version) request.setRequestHeader("If-Match", `"${form.dataset.version}"`);
    request.responseType = "json";
    progress.value = 0;
    progress.hidden = false;
    say(`Sending ${file.name}…`);
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) progress.value = Math.round((e.loaded * 100) / e.total);
    });
    request.upload.addEventListener("load", () => {
      progress.removeAttribute("value");
      say(`Converting ${file.name}…`);
    });
    request.addEventListener("load", () => {
      const answer = request.response ?? {};
      if (request.status >= 200 && request.status < 300 && answer.open) {
        say(`Done: “${answer.document.title}”. Opening it…`);
        location.assign(answer.open);
        return;
      }
      finish();
      say(answer.detail || `The upload was refused (HTTP ${request.status}).`, true);
    });
    request.addEventListener("error", () => {
      finish();
      say("The file did not reach the server; check the connection and try again.", true);
    });
    request.send(body);
  };

  input.addEventListener("change", () => {
    if (input.files.length) send(input.files[0]);
  });

  // The whole page is the drop target; `depth` counts the enter/leave pairs of the
  // elements a drag passes over, so the hint stays while it is anywhere on the page.
  let depth = 0;
  const over = (on) => document.body.classList.toggle("dropping", on);
  document.addEventListener("dragenter", (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    depth += 1;
    over(true);
  });
  document.addEventListener("dragover", (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("dragleave", (e) => {
    if (!carriesFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) over(false);
  });
  document.addEventListener("drop", (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    depth = 0;
    over(false);
    const files = e.dataTransfer.files;
    if (files.length !== 1) {
      say("Drop one file at a time.", true);
      return;
    }
    send(files[0]);
  });
}

const form = globalThis.document?.querySelector("form.upload");
if (form) enhance(form);
