// The editor's frame around the pages: the toolbar, the unsaved-changes mark, the status
// line and the box that reports a save conflict.

import { h } from "./view.js";

function button(label, onClick, extra = {}) {
  const b = h("button", { type: "button", class: "qe-button", ...extra, text: label });
  b.addEventListener("click", onClick);
  return b;
}

export class EditorChrome {
  /**
   * `kind` is the document's (a diagram also gets Add node and Connect); `actions` are what
   * the buttons do: addNode, toggleConnect, toggleFieldMode, deleteSelected, undo, redo,
   * save and reload.
   */
  constructor(kind, actions) {
    const b = (this.buttons = {});
    if (kind === "diagram") {
      b.addNode = button("Add node", actions.addNode);
      b.connect = button("Connect", actions.toggleConnect, { "aria-pressed": "false" });
    }
    b.addField = button("Add field", actions.toggleFieldMode, { "aria-pressed": "false" });
    b.del = button("Delete", actions.deleteSelected);
    b.undo = button("Undo", actions.undo, { "aria-keyshortcuts": "Control+Z" });
    b.redo = button("Redo", actions.redo, { "aria-keyshortcuts": "Control+Y" });
    b.save = button("Save", actions.save, { "aria-keyshortcuts": "Control+S", class: "qe-button qe-save" });
    this.toolbar = h("div", { role: "toolbar", "aria-label": "Editor tools", class: "qe-toolbar" }, ...Object.values(b));
    this.toolbar.addEventListener("keydown", (e) => this.onToolbarKey(e));
    this.dirtyMark = h("span", { class: "qe-dirty", hidden: true, text: "• Unsaved changes" });
    this.bar = h("div", { class: "qe-bar" }, this.toolbar, this.dirtyMark);
    this.status = h("p", { id: "editor-status", class: "qe-status", role: "status", "aria-live": "polite" });
    this.conflictText = h("p", { class: "qe-conflict-text" });
    const reload = button("Reload", actions.reload);
    this.conflict = h("div", { id: "editor-conflict", class: "qe-conflict", role: "alert", hidden: true }, this.conflictText, reload);
  }

  setStatus(text, kind = "info") {
    this.status.textContent = text;
    this.status.dataset.kind = kind;
  }

  /** Empties the status line if it says something of `kind` (a preview drawn at last
   *  takes back its own failure, and nothing else). */
  clearStatus(kind) {
    if (this.status.dataset.kind === kind) this.setStatus("");
  }

  showDirty(dirty) {
    this.dirtyMark.hidden = !dirty;
  }

  showConflict(text) {
    this.conflictText.textContent = text;
    this.conflict.hidden = false;
  }

  hideConflict() {
    this.conflict.hidden = true;
  }

  /** Enables and presses the buttons for the editor's state now. */
  updateToolbar({ selected, canUndo, canRedo, saving, mode }) {
    const b = this.buttons;
    b.del.disabled = !selected;
    b.undo.disabled = !canUndo;
    b.redo.disabled = !canRedo;
    b.save.disabled = saving;
    if (b.connect) b.connect.setAttribute("aria-pressed", String(mode === "connect"));
    b.addField.setAttribute("aria-pressed", String(mode === "field"));
  }

  /** Arrow keys move along the toolbar (Home/End to its ends). */
  onToolbarKey(e) {
    const buttons = [...this.toolbar.querySelectorAll("button:not(:disabled)")];
    const at = buttons.indexOf(e.target);
    if (at < 0) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined || e.ctrlKey || e.altKey || e.metaKey) return;
    e.preventDefault();
    buttons[(to + buttons.length) % buttons.length].focus();
  }
}
