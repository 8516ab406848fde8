// The document as the server keeps it: loading it (GET /d/{id}/model), whether the edits
// differ from the saved version, saving them as a new version (PUT with If-Match), and
// what a save against a version changed elsewhere shows.

import { fieldRules } from "./model.js";
import { detailOf, sendJson } from "./request.js";
import { h } from "./view.js";

export class SavedCopy {
  /** `editor` is the Editor (editor.js) whose edits this saves. */
  constructor(editor, { base, csrf, version }) {
    this.editor = editor;
    this.base = base;
    this.csrf = csrf;
    this.version = version;
    /** The model's JSON as the saved version has it. */
    this.json = "";
    this.dirty = false;
    this.saving = false;
    this.title = document.title;
  }

  /** Leaving the page with unsaved edits asks first. */
  guardUnload() {
    addEventListener("beforeunload", (e) => {
      if (this.dirty) {
        e.preventDefault();
        e.returnValue = true; // browsers before the preventDefault() way
      }
    });
  }

  /**
   * The saved version: `{version, kind, model, fieldRules}` (from model.js fieldRules), or
   * null after saying why not (in the status line, or over the server's pictures when the
   * editor has not started).
   */
  async load() {
    let problem;
    try {
      const res = await fetch(`${this.base}/model`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (res.ok) {
        const data = await res.json();
        const rules = fieldRules(data?.field_rules);
        if (!(data && data.model && Array.isArray(data.model.pages) && data.model.pages.length)) {
          problem = "the server sent a model without pages";
        } else if (!rules) {
          problem = "the server sent no rules for form fields";
        } else {
          return { ...data, fieldRules: rules };
        }
      } else {
        problem = await detailOf(res);
      }
    } catch (err) {
      problem = `the server could not be reached (${err.message})`;
    }
    const chrome = this.editor.chrome;
    if (chrome) {
      chrome.setStatus(`Could not load the document: ${problem}`, "error");
    } else {
      // Keep the server's pictures; say why there is no editor.
      this.editor.root.prepend(h("p", { id: "editor-status", role: "status", "aria-live": "polite", class: "qe-status", "data-kind": "error", text: `The editor could not start: ${problem}` }));
    }
    return null;
  }

  /** Takes `model` as version `version`, just loaded: nothing unsaved. */
  adopt(model, version) {
    this.version = version;
    this.editor.root.dataset.version = String(version);
    this.json = JSON.stringify(model);
    this.setDirty(false);
  }

  setDirty(dirty) {
    this.dirty = dirty;
    this.editor.chrome?.showDirty(dirty);
    document.title = dirty ? `• ${this.title}` : this.title;
  }

  /** Hears the edited model's JSON: edits undone back to the saved version leave nothing unsaved. */
  settle(json) {
    if (this.dirty && json === this.json) this.setDirty(false);
  }

  /** After a save: the page's line about the document, its versions table and the
   * version a file replace is made against, read again from the server (which wrote
   * them), so nothing on the page still names the version before. */
  async refreshPage() {
    try {
      const res = await fetch(location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (!res.ok) return;
      const fresh = new DOMParser().parseFromString(await res.text(), "text/html");
      for (const selector of ["#doc-meta", "#versions"]) {
        const now = document.querySelector(selector);
        const then = fresh.querySelector(selector);
        if (now && then) now.replaceWith(document.importNode(then, true));
      }
      const upload = document.querySelector("form.upload");
      if (upload) upload.dataset.version = String(this.version);
    } catch {
      /* the page keeps what it showed; the saved version is in the status line */
    }
  }

  async save() {
    const editor = this.editor;
    editor.text.close(true);
    if (!editor.doc || this.saving) return;
    const json = JSON.stringify(editor.doc);
    if (json === this.json) {
      this.setDirty(false);
      editor.setStatus(`No unsaved changes (version ${this.version}).`);
      return;
    }
    this.saving = true;
    editor.updateToolbar();
    editor.setStatus("Saving…");
    try {
      const res = await sendJson(`${this.base}/model`, {
        method: "PUT",
        csrf: this.csrf,
        body: json,
        headers: { "If-Match": `"${this.version}"` },
      });
      if (res.ok) {
        const data = await res.json();
        this.version = data.version;
        editor.root.dataset.version = String(data.version);
        this.json = json;
        this.setDirty(JSON.stringify(editor.doc) !== json);
        editor.chrome.hideConflict();
        const warnings = Array.isArray(data.warnings) ? data.warnings.filter(Boolean) : [];
        editor.setStatus(`Saved version ${data.version}${warnings.length ? `. Note: ${warnings.join(" ")}` : ""}`);
        this.refreshPage();
      } else if (res.status === 409) {
        let data = {};
        try {
          data = await res.json();
        } catch {
          /* keep the defaults */
        }
        const detail = data.detail || "The document was changed elsewhere.";
        const now = data.version !== undefined ? ` It is now at version ${data.version}.` : "";
        editor.chrome.showConflict(`Not saved: ${detail}${now} Your edits are still here. Reload fetches the saved document and drops them.`);
        editor.setStatus("Not saved: the document was changed elsewhere.", "error");
      } else {
        const detail = await detailOf(res);
        editor.setStatus(`Not saved: ${detail}`, "error");
      }
    } catch (err) {
      editor.setStatus(`Not saved: the server could not be reached (${err.message}). Your edits are kept.`, "error");
    } finally {
      this.saving = false;
      editor.updateToolbar();
    }
  }

  async reload() {
    if (this.dirty && !confirm("Reload the saved document? Your unsaved changes here will be lost.")) return;
    const editor = this.editor;
    editor.setStatus("Reloading…");
    const data = await this.load();
    if (!data) return;
    editor.setModel(data);
    editor.chrome.hideConflict();
    editor.setStatus(`Reloaded version ${data.version}.`);
  }
}
