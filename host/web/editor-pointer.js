// The pointer on the pages: select, move, resize, draw a new field, pick the far end of a
// connector, and double-click to edit text. A drag changes the model as it goes and is one
// step of undo when it ends; a cancelled drag puts the model back.

import * as M from "./model.js";
import { selOf } from "./view.js";

/** How far (CSS pixels) a pointer moves before a press becomes a drag. */
const DRAG_PX = 3;
/** The size of a field placed by a click, or by a drag too small to mean a box. */
const CLICKED_FIELD = { w: 144, h: 20 };
const SMALLEST_DRAWN_FIELD = 8;

/** Half a point: drags move in steps a pointer can hit. */
const half = (v) => Math.round(v * 2) / 2;

export class PointerGestures {
  /** `editor` is the Editor (editor.js) whose pages this listens on. */
  constructor(editor) {
    this.editor = editor;
    /** The drag under way (move, resize or draw), or null. */
    this.drag = null;
  }

  /** Listens on `pagesEl`, the element holding the page views (and on the window, where
   *  a drag may end). */
  attach(pagesEl) {
    pagesEl.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    pagesEl.addEventListener("pointermove", (e) => this.onPointerMove(e));
    addEventListener("pointerup", (e) => this.onPointerUp(e, false));
    addEventListener("pointercancel", (e) => this.onPointerUp(e, true));
    pagesEl.addEventListener("dblclick", (e) => this.onDoubleClick(e));
  }

  get dragging() {
    return this.drag !== null;
  }

  pageOf(e) {
    const svg = e.target.closest && e.target.closest("svg.overlay");
    return svg ? this.editor.pages[Number(svg.dataset.page) - 1] : null;
  }

  onPointerDown(e) {
    const editor = this.editor;
    const pv = this.pageOf(e);
    if (!pv || e.button !== 0 || this.drag) return;
    editor.text.close(true);
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
    if (editor.mode === "connect") {
      if (sel && sel.kind === "shape") editor.diagram.connectTo(sel.id);
      else {
        editor.setMode("select");
        editor.setStatus("Connect cancelled.");
      }
      return;
    }
    if (handle && editor.sel) {
      begin({ kind: "resize", handle: handle.dataset.handle, sel: editor.sel, orig: M.selectionFrame(editor.doc, editor.sel) });
      return;
    }
    if (editor.mode === "field" && !(sel && sel.kind === "field")) {
      editor.select(null);
      begin({ kind: "draw", now: pt });
      return;
    }
    if (!sel) {
      editor.select(null);
      pv.svg.focus({ preventScroll: true });
      return;
    }
    editor.select(sel, { focus: true });
    const orig = M.selectionFrame(editor.doc, sel);
    if (orig) begin({ kind: "move", sel, orig, applied: { x: 0, y: 0 } }, item);
  }

  onPointerMove(e) {
    const editor = this.editor;
    const d = this.drag;
    if (!d || e.pointerId !== d.pointer) return;
    const pt = d.pv.toPage(e.clientX, e.clientY);
    if (!pt) return;
    if (!d.started) {
      if (Math.hypot(e.clientX - d.sx, e.clientY - d.sy) < DRAG_PX) return;
      d.started = true;
      if (d.kind !== "draw") d.before = JSON.stringify(editor.doc);
    }
    const dx = half(pt.x - d.start.x);
    const dy = half(pt.y - d.start.y);
    if (d.kind === "draw") {
      d.now = pt;
      d.pv.showDraft(this.draftRect(d));
      return;
    }
    let moved;
    if (d.kind === "resize") {
      moved = M.resizeSelection(editor.doc, d.sel, d.orig, d.handle, dx, dy);
    } else if (d.sel.kind === "field") {
      moved = M.setFieldFrame(editor.doc, d.sel.index, { ...d.orig, x: d.orig.x + dx, y: d.orig.y + dy });
    } else {
      moved = M.moveShape(editor.doc, d.sel.id, dx - d.applied.x, dy - d.applied.y);
      d.applied = { x: dx, y: dy };
    }
    if (moved) editor.changed([d.pv.index], false);
  }

  /** The box a field drawing covers now, inside its page. */
  draftRect(d) {
    const page = this.editor.doc.pages[d.pv.index];
    const [x0, x1] = [half(d.start.x), half(d.now.x)].sort((a, b) => a - b);
    const [y0, y1] = [half(d.start.y), half(d.now.y)].sort((a, b) => a - b);
    const r = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    return M.clampRect(r, page.width, page.height);
  }

  onPointerUp(e, cancelled) {
    const editor = this.editor;
    const d = this.drag;
    if (!d || e.pointerId !== d.pointer) return;
    this.drag = null;
    if (d.captor.hasPointerCapture(e.pointerId)) d.captor.releasePointerCapture(e.pointerId);
    if (d.kind === "draw") {
      d.pv.showDraft(null);
      if (cancelled) return;
      let r = this.draftRect(d);
      if (!d.started || r.w < SMALLEST_DRAWN_FIELD || r.h < SMALLEST_DRAWN_FIELD) {
        r = { x: Math.round(d.start.x), y: Math.round(d.start.y), ...CLICKED_FIELD };
      }
      const index = editor.apply((doc) => M.addField(doc, { page: d.pv.index + 1, ...r }), [d.pv.index]);
      editor.select({ kind: "field", index }, { focus: true });
      editor.setStatus(`Added ${editor.describe(editor.sel)}. Name it in the field panel.`);
      editor.panel.focusKey();
      return;
    }
    if (!d.started) return;
    if (cancelled) {
      editor.doc = JSON.parse(d.before);
      editor.changed(null, true);
      return;
    }
    if (JSON.stringify(editor.doc) !== d.before) {
      editor.history.record(d.before);
      editor.lastNudge = null;
      editor.updateToolbar();
    }
    editor.renderNow([d.pv.index]);
  }

  onDoubleClick(e) {
    const editor = this.editor;
    const sel = selOf(e.target);
    if (!sel || editor.mode !== "select") return;
    e.preventDefault();
    if (sel.kind === "shape") editor.text.start(sel.id);
    else editor.panel.focusKey();
  }
}
