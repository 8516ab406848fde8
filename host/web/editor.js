// Quire's in-browser editor. The page (`GET /d/{id}`) holds
//   <section id="editor" data-id data-kind data-version data-csrf data-pages>…fallback…</section>
// and loads this module; it replaces the fallback with a toolbar, the pages (the server's
// SVG picture of each page under an SVG overlay to select, move, resize and edit on), a
// field panel and a status line.
//
// The Editor here holds what is being edited (the model, the selection, the mode, undo)
// and the changes made to it; the parts of the page are modules of their own: the frame
// (editor-chrome.js), the pages' pictures (editor-previews.js), loading and saving
// (editor-saving.js), the pointer (editor-pointer.js), the keys (editor-keyboard.js),
// text in place (editor-text.js), a diagram's Add node and Connect (editor-diagram.js) and
// the field panel (field-panel.js). Model operations live in model.js, drawing in view.js.

import { EditorChrome } from "./editor-chrome.js";
import { DiagramTools } from "./editor-diagram.js";
import { onEditorKey } from "./editor-keyboard.js";
import { PointerGestures } from "./editor-pointer.js";
import { PagePreviews } from "./editor-previews.js";
import { SavedCopy } from "./editor-saving.js";
import { TextInPlace } from "./editor-text.js";
import { FieldPanel } from "./field-panel.js";
import * as M from "./model.js";
import { PageView, h, selOf } from "./view.js";

/** Arrow presses this close together (ms) are one step of undo. */
const NUDGE_MERGE_MS = 1000;

class Editor {
  constructor(root) {
    this.root = root;
    this.doc = null;
    this.sel = null;
    this.mode = "select"; // select | connect | field
    this.history = new M.History(200);
    this.lastNudge = null;
    /** The server's rules for a form field (model.js fieldRules), from the model's load. */
    this.fieldRules = null;
    this.pages = [];
    this.redrawWanted = new Set();
    this.redrawFrame = 0;
    /** The server's pictures shown before scripts ran: the first pages until previews come. */
    this.fallback = [...root.querySelectorAll("img")].map((img) => img.src);
    const base = `/d/${encodeURIComponent(root.dataset.id)}`;
    const csrf = root.dataset.csrf || "";
    this.saved = new SavedCopy(this, { base, csrf, version: Number(root.dataset.version) || 0 });
    this.previews = new PagePreviews({
      root,
      csrf,
      url: (i) => `${base}/preview?page=${i + 1}`,
      draft: () => this.doc,
      onDraft: (json) => this.saved.settle(json),
      onError: (text) => this.setStatus(text, "preview-error"),
      onDrawn: () => this.chrome.clearStatus("preview-error"),
    });
    this.pointer = new PointerGestures(this);
    this.text = new TextInPlace(this);
    this.diagram = new DiagramTools(this);
    this.chrome = null; // built once the model is loaded
    this.panel = null;
    this.pagesEl = null;
  }

  // -------------------------------------------------------------------------------------
  // Loading and the frame of the UI

  async start() {
    const data = await this.saved.load();
    if (!data) return;
    this.buildUi(this.root.dataset.kind || data.model.kind);
    this.setModel(data);
    this.saved.guardUnload();
    document.addEventListener("keydown", (e) => onEditorKey(this, e));
    document.body.dataset.editorReady = "1";
  }

  buildUi(kind) {
    this.chrome = new EditorChrome(kind, {
      addNode: () => this.diagram.addNode(),
      toggleConnect: () => this.diagram.toggleConnect(),
      toggleFieldMode: () => this.setMode(this.mode === "field" ? "select" : "field"),
      deleteSelected: () => this.deleteSelected(),
      undo: () => this.undo(),
      redo: () => this.redo(),
      save: () => this.saved.save(),
      reload: () => this.saved.reload(),
    });
    this.pagesEl = h("div", { class: "qe-pages" });
    this.panel = new FieldPanel({ onApply: () => this.applyPanel(), onDelete: () => this.deleteSelected(), kind });
    const c = this.chrome;
    const main = h("div", { class: "qe-main" }, this.pagesEl, this.panel.el);
    this.root.replaceChildren(h("div", { class: "qe" }, c.bar, c.status, c.conflict, main));
    this.root.classList.add("qe-root");

    const pe = this.pagesEl;
    this.pointer.attach(pe);
    pe.addEventListener("focusin", (e) => {
      const sel = selOf(e.target);
      if (sel && !M.sameSelection(sel, this.sel)) this.select(sel);
    });
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => this.redrawHandles()).observe(pe);
    }
  }

  /** Takes a freshly loaded model (`{model, version, fieldRules}`): fresh pages, no history,
   *  nothing unsaved. */
  setModel({ model, version, fieldRules }) {
    this.text.close(false);
    this.doc = model;
    this.fieldRules = fieldRules;
    this.history.clear();
    this.sel = null;
    this.lastNudge = null;
    this.setMode("select");
    this.saved.adopt(model, version);
    const first = this.pages.length === 0;
    for (const pv of this.pages) pv.dispose();
    this.pages = model.pages.map((page, i) => {
      const pv = new PageView(i, page, first ? this.fallback[i] : null);
      this.pagesEl.append(pv.el);
      return pv;
    });
    this.previews.reset(this.pages);
    this.renderNow(null);
    this.showPanel();
    this.updateToolbar();
    this.previews.schedule(0);
  }

  // -------------------------------------------------------------------------------------
  // Changes, drawing and the status line

  /**
   * Runs `fn(doc)` as one undoable change, redrawing `pages` (0-based; null for all).
   * Nothing is recorded when the model came out the same; changes with the same `merge`
   * key close together are one step. Returns what `fn` returned.
   */
  apply(fn, pages, merge = null) {
    const before = JSON.stringify(this.doc);
    const result = fn(this.doc);
    const after = JSON.stringify(this.doc);
    if (after === before) return result;
    const now = Date.now();
    const merged = merge && this.lastNudge && this.lastNudge.key === merge && now - this.lastNudge.time < NUDGE_MERGE_MS;
    if (!merged) this.history.record(before);
    this.lastNudge = merge ? { key: merge, time: now } : null;
    this.changed(pages, true);
    return result;
  }

  /** After any change of the model: drop a lost selection, redraw, re-preview. */
  changed(pages, now) {
    if (this.sel && !M.selectionExists(this.doc, this.sel)) this.select(null);
    this.saved.setDirty(true);
    if (now) this.renderNow(pages);
    else this.renderSoon(pages);
    this.previews.schedule();
    this.updateToolbar();
  }

  renderNow(pages) {
    const list = pages ? pages : this.pages.map((_, i) => i);
    for (const i of list) {
      const pv = this.pages[i];
      if (pv) pv.render(this.doc, this.sel, { connectFrom: this.diagram.connectFrom });
    }
  }

  /** Redraws at the next frame (drags move faster than screens refresh). */
  renderSoon(pages) {
    for (const i of pages || this.pages.map((_, k) => k)) this.redrawWanted.add(i);
    if (this.redrawFrame) return;
    this.redrawFrame = requestAnimationFrame(() => {
      this.redrawFrame = 0;
      const list = [...this.redrawWanted];
      this.redrawWanted.clear();
      this.renderNow(list);
    });
  }

  redrawHandles() {
    const p = M.selectionPage(this.doc, this.sel);
    if (this.pages[p]) this.pages[p].renderHandles(this.doc, this.sel);
  }

  setStatus(text, kind = "info") {
    this.chrome?.setStatus(text, kind);
  }

  updateToolbar() {
    this.chrome?.updateToolbar({
      selected: !!this.sel,
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
      saving: this.saved.saving,
      mode: this.mode,
    });
  }

  setMode(mode) {
    this.mode = mode;
    if (mode !== "connect") this.diagram.endConnect();
    this.root.classList.toggle("qe-mode-field", mode === "field");
    this.root.classList.toggle("qe-mode-connect", mode === "connect");
    if (mode === "field") this.setStatus("Drag a box on a page to add a field. Press Escape or Add field again to stop.");
    this.updateToolbar();
  }

  // -------------------------------------------------------------------------------------
  // Selection

  select(sel, { focus = false } = {}) {
    if (sel && !M.selectionExists(this.doc, sel)) sel = null;
    const changed = !M.sameSelection(sel, this.sel);
    const before = M.selectionPage(this.doc, this.sel);
    this.sel = sel;
    if (changed) {
      const after = M.selectionPage(this.doc, sel);
      for (const p of new Set([before, after])) if (this.pages[p]) this.pages[p].markSelection(this.doc, sel);
      this.showPanel();
      this.updateToolbar();
    }
    if (focus && sel) {
      const pv = this.pages[M.selectionPage(this.doc, sel)];
      const el = pv && pv.itemFor(sel);
      if (el && document.activeElement !== el) el.focus({ preventScroll: true });
      if (el && focus === "scroll") el.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }

  describe(sel) {
    if (!sel) return "";
    if (sel.kind === "field") return M.fieldLabel(this.doc.fields[sel.index]);
    const hit = M.findShape(this.doc, sel.id);
    return hit ? M.shapeLabel(hit.shape, M.shapeIndex(this.doc.pages[hit.page])) : sel.id;
  }

  /** Shows the panel's form for the selected field (its hint otherwise). */
  showPanel() {
    if (!this.panel) return;
    const sel = this.sel;
    this.panel.show(sel && sel.kind === "field" ? this.doc.fields[sel.index] : null);
  }

  applyPanel() {
    const sel = this.sel;
    if (!sel || sel.kind !== "field") return;
    const values = this.panel.values();
    const page = this.doc.fields[sel.index].page - 1;
    const problem = this.apply((doc) => M.applyField(doc, sel.index, values, this.fieldRules), [page]);
    if (problem) {
      this.panel.showError(problem);
      this.setStatus(`Field not changed: ${problem}`, "error");
      return;
    }
    this.showPanel();
    this.setStatus(`Applied ${this.describe(sel)}.`);
  }

  // -------------------------------------------------------------------------------------
  // Delete, undo and redo

  deleteSelected() {
    const sel = this.sel;
    if (!sel) return;
    const what = this.describe(sel);
    const p = M.selectionPage(this.doc, sel);
    const removed = this.apply((doc) => M.deleteSelection(doc, sel), null);
    if (!removed) return;
    this.select(null);
    const extra = removed.length > 1 ? ` and ${removed.length - 1} attached or contained shape(s)` : "";
    this.setStatus(`Deleted ${what}${extra}.`);
    this.pages[p]?.svg.focus({ preventScroll: true });
  }

  undo() {
    if (this.pointer.dragging) return;
    this.text.close(true);
    const prev = this.history.undo(this.doc);
    if (!prev) return;
    this.restore(prev, "Undone.");
  }

  redo() {
    if (this.pointer.dragging) return;
    this.text.close(true);
    const next = this.history.redo(this.doc);
    if (!next) return;
    this.restore(next, "Redone.");
  }

  restore(doc, message) {
    this.doc = doc;
    this.lastNudge = null;
    const keep = this.sel;
    this.sel = null;
    this.changed(null, true);
    if (keep && M.selectionExists(doc, keep)) this.select(keep);
    this.showPanel();
    this.setStatus(message);
  }
}

const root = globalThis.document?.getElementById("editor");
if (root && root.dataset.id) new Editor(root).start();
