// Quire's in-browser editor. The page (`GET /d/{id}`) holds
//   <section id="editor" data-id data-kind data-version data-csrf data-pages>…fallback…</section>
// and loads this module; it replaces the fallback with a toolbar, the pages (the server's
// SVG picture of each page under an SVG overlay to select, move, resize and edit on), a
// field panel and a status line. Model operations live in model.js, drawing in view.js.

import * as M from "./model.js";
import { FieldPanel, PageView, h, measureText, selOf, textEditor } from "./view.js";

const DEBOUNCE_MS = 150;
const PREVIEWS_AT_ONCE = 2;
const NUDGE_MERGE_MS = 1000;

/** The `detail` of an error answer, whatever shape it came in. */
async function detailOf(res) {
  try {
    const text = await res.text();
    try {
      const data = JSON.parse(text);
      if (data && typeof data.detail === "string") return data.detail;
    } catch {
      /* not JSON */
    }
    return text.trim().slice(0, 300) || `${res.status} ${res.statusText}`;
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}

function isTyping(el) {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag !== "input") return false;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(el.type);
}

function sameSel(a, b) {
  if (!a || !b) return a === b;
  return a.kind === b.kind && (a.kind === "field" ? a.index === b.index : a.id === b.id);
}

class Editor {
  constructor(root) {
    this.root = root;
    this.docId = root.dataset.id;
    this.csrf = root.dataset.csrf || "";
    this.base = `/d/${encodeURIComponent(this.docId)}`;
    this.version = Number(root.dataset.version) || 0;
    this.doc = null;
    this.sel = null;
    this.mode = "select"; // select | connect | field
    this.connectFrom = null;
    this.history = new M.History(200);
    this.savedJson = "";
    this.dirty = false;
    this.saving = false;
    this.pages = [];
    this.drag = null;
    this.textEdit = null;
    this.lastNudge = null;
    this.renderWanted = new Set();
    this.renderFrame = 0;
    // Previews: per page, the page JSON last asked for, request counters and the newest
    // answer shown; `generation` tells answers for a reloaded model apart.
    this.preview = { timer: 0, inflight: 0, wanted: new Map(), sent: [], seq: [], shown: [], generation: 0 };
    this.visible = new Set();
    this.fallback = [...root.querySelectorAll("img")].map((img) => img.src);
    this.title = document.title;
  }

  // -------------------------------------------------------------------------------------
  // Loading and the frame of the UI

  async start() {
    const data = await this.fetchModel();
    if (!data) return;
    this.buildUi(this.root.dataset.kind || data.model.kind);
    this.setModel(data.model, data.version);
    addEventListener("beforeunload", (e) => {
      if (this.dirty) {
        e.preventDefault();
        e.returnValue = true; // browsers before the preventDefault() way
      }
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    document.body.dataset.editorReady = "1";
  }

  async fetchModel() {
    let problem;
    try {
      const res = await fetch(`${this.base}/model`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (res.ok) {
        const data = await res.json();
        if (data && data.model && Array.isArray(data.model.pages) && data.model.pages.length) return data;
        problem = "the server sent a model without pages";
      } else {
        problem = await detailOf(res);
      }
    } catch (err) {
      problem = `the server could not be reached (${err.message})`;
    }
    if (this.status) {
      this.setStatus(`Could not load the document: ${problem}`, "error");
    } else {
      // Keep the server's pictures; say why there is no editor.
      this.root.prepend(h("p", { id: "editor-status", role: "status", "aria-live": "polite", class: "qe-status", "data-kind": "error", text: `The editor could not start: ${problem}` }));
    }
    return null;
  }

  buildUi(kind) {
    const button = (label, onClick, extra = {}) => {
      const b = h("button", { type: "button", class: "qe-button", ...extra, text: label });
      b.addEventListener("click", onClick);
      return b;
    };
    this.kind = kind;
    const b = (this.buttons = {});
    if (this.kind === "diagram") {
      b.addNode = button("Add node", () => this.addNode());
      b.connect = button("Connect", () => this.toggleConnect(), { "aria-pressed": "false" });
    }
    b.addField = button("Add field", () => this.setMode(this.mode === "field" ? "select" : "field"), { "aria-pressed": "false" });
    b.del = button("Delete", () => this.deleteSelected());
    b.undo = button("Undo", () => this.undo(), { "aria-keyshortcuts": "Control+Z" });
    b.redo = button("Redo", () => this.redo(), { "aria-keyshortcuts": "Control+Y" });
    b.save = button("Save", () => this.save(), { "aria-keyshortcuts": "Control+S", class: "qe-button qe-save" });
    this.toolbar = h("div", { role: "toolbar", "aria-label": "Editor tools", class: "qe-toolbar" }, ...Object.values(b));
    this.toolbar.addEventListener("keydown", (e) => this.onToolbarKey(e));
    this.dirtyMark = h("span", { class: "qe-dirty", hidden: true, text: "• Unsaved changes" });
    this.status = h("p", { id: "editor-status", class: "qe-status", role: "status", "aria-live": "polite" });
    this.conflictText = h("p", { class: "qe-conflict-text" });
    const reload = button("Reload", () => this.reload());
    this.conflict = h("div", { id: "editor-conflict", class: "qe-conflict", role: "alert", hidden: true }, this.conflictText, reload);
    this.pagesEl = h("div", { class: "qe-pages" });
    this.panel = new FieldPanel({ onApply: () => this.applyPanel(), onDelete: () => this.deleteSelected(), kind: this.kind });
    const bar = h("div", { class: "qe-bar" }, this.toolbar, this.dirtyMark);
    const main = h("div", { class: "qe-main" }, this.pagesEl, this.panel.el);
    this.root.replaceChildren(h("div", { class: "qe" }, bar, this.status, this.conflict, main));
    this.root.classList.add("qe-root");

    const pe = this.pagesEl;
    pe.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    pe.addEventListener("pointermove", (e) => this.onPointerMove(e));
    addEventListener("pointerup", (e) => this.onPointerUp(e, false));
    addEventListener("pointercancel", (e) => this.onPointerUp(e, true));
    pe.addEventListener("dblclick", (e) => this.onDoubleClick(e));
    pe.addEventListener("focusin", (e) => {
      const sel = selOf(e.target);
      if (sel && !sameSel(sel, this.sel)) this.select(sel);
    });
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => this.redrawHandles()).observe(pe);
    }
    if (typeof IntersectionObserver === "function") {
      this.observer = new IntersectionObserver(
        (entries) => {
          for (const en of entries) {
            const i = Number(en.target.dataset.index);
            if (en.isIntersecting) this.visible.add(i);
            else this.visible.delete(i);
          }
          this.schedulePreview(30);
        },
        { rootMargin: "400px 0px" },
      );
    }
  }

  /** Takes a freshly loaded model: fresh pages, no history, nothing unsaved. */
  setModel(model, version) {
    this.closeText(false);
    this.doc = model;
    this.version = version;
    this.root.dataset.version = String(version);
    this.history.clear();
    this.sel = null;
    this.lastNudge = null;
    this.setMode("select");
    this.savedJson = JSON.stringify(model);
    this.setDirty(false);
    const first = this.pages.length === 0;
    for (const pv of this.pages) pv.dispose();
    if (this.observer) this.observer.disconnect();
    this.visible.clear();
    const pr = this.preview;
    pr.generation++;
    pr.wanted.clear();
    pr.sent = [];
    pr.seq = [];
    pr.shown = [];
    this.pages = model.pages.map((page, i) => {
      const pv = new PageView(i, page, first ? this.fallback[i] : null);
      pv.el.dataset.index = String(i);
      this.pagesEl.append(pv.el);
      if (this.observer) this.observer.observe(pv.el);
      else this.visible.add(i);
      return pv;
    });
    // Which pages show now, without waiting for the observer's first report: previews are
    // pending from the first moment, so "no data-preview-pending" means drawn.
    for (const pv of this.pages) {
      const r = pv.el.getBoundingClientRect();
      if (r.bottom >= -400 && r.top <= innerHeight + 400) this.visible.add(pv.index);
    }
    this.renderNow(null);
    this.showPanel();
    this.updateToolbar();
    this.schedulePreview(0);
  }

  // -------------------------------------------------------------------------------------
  // Changes, drawing and the status line

  /**
   * Runs `fn(doc)` as one undoable change, redrawing `pages` (0-based; null for all).
   * Nothing is recorded when the model came out the same. Returns what `fn` returned.
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
    this.setDirty(true);
    if (now) this.renderNow(pages);
    else this.renderSoon(pages);
    this.schedulePreview();
    this.updateToolbar();
  }

  renderNow(pages) {
    const list = pages ? pages : this.pages.map((_, i) => i);
    for (const i of list) {
      const pv = this.pages[i];
      if (pv) pv.render(this.doc, this.sel, { connectFrom: this.connectFrom });
    }
  }

  /** Redraws at the next frame (drags move faster than screens refresh). */
  renderSoon(pages) {
    for (const i of pages || this.pages.map((_, k) => k)) this.renderWanted.add(i);
    if (this.renderFrame) return;
    this.renderFrame = requestAnimationFrame(() => {
      this.renderFrame = 0;
      const list = [...this.renderWanted];
      this.renderWanted.clear();
      this.renderNow(list);
    });
  }

  redrawHandles() {
    const p = M.selectionPage(this.doc, this.sel);
    if (this.pages[p]) this.pages[p].renderHandles(this.doc, this.sel);
  }

  setStatus(text, kind = "info") {
    if (!this.status) return;
    this.status.textContent = text;
    this.status.dataset.kind = kind;
  }

  setDirty(dirty) {
    this.dirty = dirty;
    if (this.dirtyMark) this.dirtyMark.hidden = !dirty;
    document.title = dirty ? `• ${this.title}` : this.title;
  }

  updateToolbar() {
    const b = this.buttons;
    if (!b) return;
    b.del.disabled = !this.sel;
    b.undo.disabled = !this.history.canUndo;
    b.redo.disabled = !this.history.canRedo;
    b.save.disabled = this.saving;
    if (b.connect) b.connect.setAttribute("aria-pressed", String(this.mode === "connect"));
    b.addField.setAttribute("aria-pressed", String(this.mode === "field"));
  }

  setMode(mode) {
    this.mode = mode;
    if (mode !== "connect" && this.connectFrom) {
      this.connectFrom = null;
      this.renderNow(null);
    }
    this.root.classList.toggle("qe-mode-field", mode === "field");
    this.root.classList.toggle("qe-mode-connect", mode === "connect");
    if (mode === "field") this.setStatus("Drag a box on a page to add a field. Press Escape or Add field again to stop.");
    this.updateToolbar();
  }

  // -------------------------------------------------------------------------------------
  // Selection

  select(sel, { focus = false } = {}) {
    if (sel && !M.selectionExists(this.doc, sel)) sel = null;
    const changed = !sameSel(sel, this.sel);
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

  // -------------------------------------------------------------------------------------
  // Pointer: select, move, resize, draw fields, connect

  pageOf(e) {
    const svg = e.target.closest && e.target.closest("svg.overlay");
    return svg ? this.pages[Number(svg.dataset.page) - 1] : null;
  }

  onPointerDown(e) {
    const pv = this.pageOf(e);
    if (!pv || e.button !== 0 || this.drag) return;
    this.closeText(true);
    const pt = pv.toPage(e.clientX, e.clientY);
    if (!pt) return;
    const handle = e.target.closest("[data-handle]");
    const item = e.target.closest(".qe-item");
    const sel = item ? selOf(item) : null;
    e.preventDefault();
    // Moves capture the pointer on the item itself, so click and dblclick still reach it;
    // resizes and drawing on the <svg>, which outlives the redrawn handles.
    const begin = (d, captor = pv.svg) => {
      this.drag = { pv, start: pt, sx: e.clientX, sy: e.clientY, pointer: e.pointerId, started: false, captor, ...d };
      captor.setPointerCapture(e.pointerId);
    };
    if (this.mode === "connect") {
      if (sel && sel.kind === "shape") this.connectTo(sel.id);
      else {
        this.setMode("select");
        this.setStatus("Connect cancelled.");
      }
      return;
    }
    if (handle && this.sel) {
      begin({ kind: "resize", handle: handle.dataset.handle, sel: this.sel, orig: M.selectionFrame(this.doc, this.sel) });
      return;
    }
    if (this.mode === "field" && !(sel && sel.kind === "field")) {
      this.select(null);
      begin({ kind: "draw", now: pt });
      return;
    }
    if (!sel) {
      this.select(null);
      pv.svg.focus({ preventScroll: true });
      return;
    }
    this.select(sel, { focus: true });
    const orig = M.selectionFrame(this.doc, sel);
    if (orig) begin({ kind: "move", sel, orig, applied: { x: 0, y: 0 } }, item);
  }

  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointer) return;
    const pt = d.pv.toPage(e.clientX, e.clientY);
    if (!pt) return;
    if (!d.started) {
      if (Math.hypot(e.clientX - d.sx, e.clientY - d.sy) < 3) return;
      d.started = true;
      if (d.kind !== "draw") d.before = JSON.stringify(this.doc);
    }
    const half = (v) => Math.round(v * 2) / 2;
    const dx = half(pt.x - d.start.x);
    const dy = half(pt.y - d.start.y);
    if (d.kind === "draw") {
      d.now = pt;
      d.pv.showDraft(this.draftRect(d));
      return;
    }
    let moved;
    if (d.kind === "resize") {
      moved = M.resizeSelection(this.doc, d.sel, d.orig, d.handle, dx, dy);
    } else if (d.sel.kind === "field") {
      moved = M.setFieldFrame(this.doc, d.sel.index, { ...d.orig, x: d.orig.x + dx, y: d.orig.y + dy });
    } else {
      moved = M.moveShape(this.doc, d.sel.id, dx - d.applied.x, dy - d.applied.y);
      d.applied = { x: dx, y: dy };
    }
    if (moved) this.changed([d.pv.index], false);
  }

  draftRect(d) {
    const page = this.doc.pages[d.pv.index];
    const half = (v) => Math.round(v * 2) / 2;
    const [x0, x1] = [half(d.start.x), half(d.now.x)].sort((a, b) => a - b);
    const [y0, y1] = [half(d.start.y), half(d.now.y)].sort((a, b) => a - b);
    const r = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    return M.clampRect(r, page.width, page.height);
  }

  onPointerUp(e, cancelled) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointer) return;
    this.drag = null;
    if (d.captor.hasPointerCapture(e.pointerId)) d.captor.releasePointerCapture(e.pointerId);
    if (d.kind === "draw") {
      d.pv.showDraft(null);
      if (cancelled) return;
      let r = this.draftRect(d);
      if (!d.started || r.w < 8 || r.h < 8) r = { x: Math.round(d.start.x), y: Math.round(d.start.y), w: 144, h: 20 };
      const index = this.apply((doc) => M.addField(doc, { page: d.pv.index + 1, ...r }), [d.pv.index]);
      this.select({ kind: "field", index }, { focus: true });
      this.setStatus(`Added ${this.describe(this.sel)}. Name it in the field panel.`);
      this.panel.focusKey();
      return;
    }
    if (!d.started) return;
    if (cancelled) {
      this.doc = JSON.parse(d.before);
      this.changed(null, true);
      return;
    }
    if (JSON.stringify(this.doc) !== d.before) {
      this.history.record(d.before);
      this.lastNudge = null;
      this.updateToolbar();
    }
    this.renderNow([d.pv.index]);
  }

  onDoubleClick(e) {
    const sel = selOf(e.target);
    if (!sel || this.mode !== "select") return;
    e.preventDefault();
    if (sel.kind === "shape") this.openText(sel.id);
    else this.panel.focusKey();
  }

  // -------------------------------------------------------------------------------------
  // Keyboard

  onKey(e) {
    if (!this.doc || e.defaultPrevented || e.isComposing) return;
    const key = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    if (ctrl && !e.altKey && lower === "s") {
      e.preventDefault();
      this.save();
      return;
    }
    const t = e.target;
    if (isTyping(t)) return;
    if (t !== document.body && t !== document.documentElement && !this.root.contains(t)) return;
    if (t.closest && t.closest(".qe-panel, .qe-conflict")) return;
    const inToolbar = !!(t.closest && t.closest("[role=toolbar]"));
    if (ctrl && !e.altKey && (lower === "z" || lower === "y")) {
      e.preventDefault();
      if (lower === "y" || e.shiftKey) this.redo();
      else this.undo();
      return;
    }
    if (ctrl) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (key === "Escape") {
      if (this.mode !== "select") {
        this.setMode("select");
        this.setStatus("Back to selecting.");
      } else if (this.sel) {
        const el = this.pages[M.selectionPage(this.doc, this.sel)]?.itemFor(this.sel);
        this.select(null);
        if (el && document.activeElement === el) el.blur();
      }
    } else if ((key === "Delete" || key === "Backspace") && this.sel && !e.altKey) {
      e.preventDefault();
      this.deleteSelected();
    } else if (arrows[key] && !inToolbar && this.sel) {
      e.preventDefault();
      const step = e.shiftKey ? 10 : 1;
      const [ux, uy] = arrows[key];
      const p = M.selectionPage(this.doc, this.sel);
      const what = `${e.altKey ? "size" : "move"}:${JSON.stringify(this.sel)}`;
      if (e.altKey) this.apply((doc) => M.resizeBy(doc, this.sel, ux * step, uy * step), [p], what);
      else this.apply((doc) => M.nudge(doc, this.sel, ux * step, uy * step), [p], what);
      this.redrawHandles();
    } else if ((key === "Enter" || key === "F2") && t.closest && t.closest(".qe-item")) {
      e.preventDefault();
      const sel = selOf(t);
      if (this.mode === "connect" && sel.kind === "shape") this.connectTo(sel.id);
      else if (sel.kind === "shape") this.openText(sel.id);
      else this.panel.focusKey();
    }
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

  // -------------------------------------------------------------------------------------
  // Toolbar actions

  addNode() {
    this.setMode("select");
    const id = this.apply((doc) => M.addNode(doc, { page: 0 }), [0]);
    this.select({ kind: "shape", id }, { focus: "scroll" });
    this.setStatus(`Added node ${id}. Press Enter to edit its text.`);
  }

  toggleConnect() {
    if (this.mode === "connect") {
      this.setMode("select");
      this.setStatus("Connect cancelled.");
      return;
    }
    const hit = this.sel && this.sel.kind === "shape" ? M.findShape(this.doc, this.sel.id) : null;
    if (!hit || hit.shape.type !== "node") {
      this.setStatus("Select a node first, then press Connect and click the node to connect it to.", "error");
      return;
    }
    this.setMode("connect");
    this.connectFrom = hit.shape.id;
    this.renderNow([hit.page]);
    this.setStatus(`Connect: click (or Tab to and press Enter on) the node to connect ${this.describe(this.sel)} to. Escape cancels.`);
  }

  connectTo(id) {
    const from = this.connectFrom;
    const hit = M.findShape(this.doc, id);
    if (!hit || hit.shape.type !== "node" || id === from) {
      this.setStatus("Choose another node to connect to, or press Escape.", "error");
      return;
    }
    try {
      const cid = this.apply((doc) => M.addConnector(doc, from, id), [hit.page]);
      this.setMode("select");
      this.select({ kind: "shape", id: cid }, { focus: true });
      this.setStatus(`Connected: ${this.describe(this.sel)}.`);
    } catch (err) {
      this.setStatus(`Cannot connect: ${err.message}.`, "error");
    }
  }

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
    if (this.drag) return;
    this.closeText(true);
    const prev = this.history.undo(this.doc);
    if (!prev) return;
    this.restore(prev, "Undone.");
  }

  redo() {
    if (this.drag) return;
    this.closeText(true);
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

  // -------------------------------------------------------------------------------------
  // Text in place

  openText(id) {
    this.closeText(true);
    const hit = M.findShape(this.doc, id);
    if (!hit || !M.canEditText(hit.shape)) return;
    const shape = hit.shape;
    const pv = this.pages[hit.page];
    let rect;
    if (shape.type === "group") {
      rect = { ...M.frameOf(shape), h: Math.min(shape.h, 40) }; // the label band at its top
    } else if (M.hasFrame(shape)) {
      rect = M.frameOf(shape);
    } else {
      const pts = M.connectorPoints(M.shapeIndex(this.doc.pages[hit.page]), shape);
      if (!pts) return;
      const mid = M.midpoint(pts);
      rect = { x: mid.x - 70, y: mid.y - 16, w: 140, h: 32 };
    }
    const label = `Text of ${this.describe({ kind: "shape", id })} (Ctrl+Enter to apply, Escape to cancel)`;
    const ta = textEditor(pv, rect, shape, label);
    pv.sheet.append(ta);
    this.textEdit = { ta, id, page: hit.page, original: ta.value };
    ta.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        this.closeText(false, true);
      } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        e.stopPropagation();
        this.closeText(true, true);
      }
    });
    ta.addEventListener("blur", () => this.closeText(true));
    ta.focus();
    ta.select();
  }

  /** Ends text editing: applies the text (`commit`) or drops it; `refocus` goes back to
   *  the shape (keyboard endings; a click elsewhere keeps its own focus). */
  closeText(commit, refocus = false) {
    const t = this.textEdit;
    if (!t) return;
    this.textEdit = null;
    const value = t.ta.value;
    t.ta.remove();
    if (commit && value !== t.original) {
      // Text that no longer fits its box grows the box, rather than spilling out of it.
      this.apply((doc) => M.setShapeText(doc, t.id, value) && M.fitText(doc, t.id, measureText), [t.page]);
      this.setStatus(`Text of ${this.describe({ kind: "shape", id: t.id })} changed.`);
    }
    if (refocus) this.select({ kind: "shape", id: t.id }, { focus: true });
  }

  // -------------------------------------------------------------------------------------
  // The field panel

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
    const problem = this.apply((doc) => M.applyField(doc, sel.index, values), [page]);
    if (problem) {
      this.panel.showError(problem);
      this.setStatus(`Field not changed: ${problem}`, "error");
      return;
    }
    this.showPanel();
    this.setStatus(`Applied ${this.describe(sel)}.`);
  }

  // -------------------------------------------------------------------------------------
  // Previews: the server draws each changed, visible page; newest answer wins

  schedulePreview(delay = DEBOUNCE_MS) {
    const pr = this.preview;
    clearTimeout(pr.timer);
    pr.timer = setTimeout(() => {
      pr.timer = 0;
      this.flushPreviews();
    }, delay);
    this.syncPending();
  }

  flushPreviews() {
    const pr = this.preview;
    const json = JSON.stringify(this.doc);
    if (this.dirty && json === this.savedJson) this.setDirty(false);
    for (const i of [...this.visible].sort((a, b) => a - b)) {
      const page = this.doc.pages[i];
      if (!page) continue;
      const sig = JSON.stringify(page);
      if (pr.sent[i] !== sig) {
        pr.sent[i] = sig;
        pr.wanted.set(i, json);
      }
    }
    this.pumpPreviews();
    this.syncPending();
  }

  pumpPreviews() {
    const pr = this.preview;
    while (pr.inflight < PREVIEWS_AT_ONCE && pr.wanted.size) {
      const [i, body] = pr.wanted.entries().next().value;
      pr.wanted.delete(i);
      this.requestPreview(i, body);
    }
  }

  async requestPreview(i, body) {
    const pr = this.preview;
    const generation = pr.generation;
    const seq = (pr.seq[i] = (pr.seq[i] || 0) + 1);
    const current = () => generation === pr.generation && seq > (pr.shown[i] || 0);
    pr.inflight++;
    this.syncPending();
    try {
      const res = await fetch(`${this.base}/preview?page=${i + 1}`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": this.csrf, Accept: "image/svg+xml" },
        body,
      });
      if (!res.ok) {
        const detail = await detailOf(res);
        if (current()) {
          pr.sent[i] = undefined; // try again after the next change
          this.setStatus(`Page ${i + 1} cannot be drawn: ${detail}`, "preview-error");
        }
        return;
      }
      const blob = await res.blob();
      if (!current()) return; // an older answer arriving after a newer one
      const url = URL.createObjectURL(blob.type === "image/svg+xml" ? blob : new Blob([blob], { type: "image/svg+xml" }));
      const img = new Image();
      img.src = url;
      try {
        await img.decode();
      } catch {
        /* shown anyway; the <img> reports its own failure */
      }
      if (!current() || !this.pages[i]) {
        URL.revokeObjectURL(url);
        return;
      }
      pr.shown[i] = seq;
      this.pages[i].setPicture(url);
      if (this.status.dataset.kind === "preview-error") this.setStatus("");
    } catch (err) {
      if (current()) {
        pr.sent[i] = undefined;
        this.setStatus(`Page ${i + 1} preview failed: ${err.message}`, "preview-error");
      }
    } finally {
      pr.inflight--;
      this.pumpPreviews();
      this.syncPending();
    }
  }

  /** `data-preview-pending` on #editor while a preview is waited for or in flight. */
  syncPending() {
    const pr = this.preview;
    const pending = pr.inflight > 0 || pr.wanted.size > 0 || !!pr.timer;
    if (pending) this.root.setAttribute("data-preview-pending", "");
    else this.root.removeAttribute("data-preview-pending");
  }

  // -------------------------------------------------------------------------------------
  // Saving and conflicts

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
    this.closeText(true);
    if (!this.doc || this.saving) return;
    const json = JSON.stringify(this.doc);
    if (json === this.savedJson) {
      this.setDirty(false);
      this.setStatus(`No unsaved changes (version ${this.version}).`);
      return;
    }
    this.saving = true;
    this.updateToolbar();
    this.setStatus("Saving…");
    try {
      const res = await fetch(`${this.base}/model`, {
        method: "PUT",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRF-Token": this.csrf,
          "If-Match": `"${this.version}"`,
        },
        body: json,
      });
      if (res.ok) {
        const data = await res.json();
        this.version = data.version;
        this.root.dataset.version = String(data.version);
        this.savedJson = json;
        this.setDirty(JSON.stringify(this.doc) !== json);
        this.conflict.hidden = true;
        const warnings = Array.isArray(data.warnings) ? data.warnings.filter(Boolean) : [];
        this.setStatus(`Saved version ${data.version}${warnings.length ? `. Note: ${warnings.join(" ")}` : ""}`);
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
        this.conflictText.textContent = `Not saved: ${detail}${now} Your edits are still here. Reload fetches the saved document and drops them.`;
        this.conflict.hidden = false;
        this.setStatus("Not saved: the document was changed elsewhere.", "error");
      } else {
        const detail = await detailOf(res);
        this.setStatus(`Not saved: ${detail}`, "error");
      }
    } catch (err) {
      this.setStatus(`Not saved: the server could not be reached (${err.message}). Your edits are kept.`, "error");
    } finally {
      this.saving = false;
      this.updateToolbar();
    }
  }

  async reload() {
    if (this.dirty && !confirm("Reload the saved document? Your unsaved changes here will be lost.")) return;
    this.setStatus("Reloading…");
    const data = await this.fetchModel();
    if (!data) return;
    this.setModel(data.model, data.version);
    this.conflict.hidden = true;
    this.setStatus(`Reloaded version ${data.version}.`);
  }
}

const root = document.getElementById("editor");
if (root && root.dataset.id) {
  const editor = new Editor(root);
  editor.start();
}
