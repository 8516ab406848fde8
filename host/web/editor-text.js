// Text in place: a textarea over a text box, node, group label or connector label, applied
// with Ctrl+Enter or by leaving it, dropped with Escape.

import * as M from "./model.js";
import { measureText, textEditor } from "./view.js";

export class TextInPlace {
  /** `editor` is the Editor (editor.js) whose shapes this edits. */
  constructor(editor) {
    this.editor = editor;
    /** The open textarea: `{ta, id, page, original}`, or null. */
    this.editing = null;
  }

  /** Opens the text of shape `id` for editing (ending any other first). */
  start(id) {
    const editor = this.editor;
    this.close(true);
    const hit = M.findShape(editor.doc, id);
    if (!hit || !M.canEditText(hit.shape)) return;
    const shape = hit.shape;
    const pv = editor.pages[hit.page];
    let rect;
    if (shape.type === "group") {
      rect = { ...M.frameOf(shape), h: Math.min(shape.h, 40) }; // the label band at its top
    } else if (M.hasFrame(shape)) {
      rect = M.frameOf(shape);
    } else {
      const pts = M.connectorPoints(M.shapeIndex(editor.doc.pages[hit.page]), shape);
      if (!pts) return;
      const mid = M.midpoint(pts);
      rect = { x: mid.x - 70, y: mid.y - 16, w: 140, h: 32 };
    }
    const label = `Text of ${editor.describe({ kind: "shape", id })} (Ctrl+Enter to apply, Escape to cancel)`;
    const ta = textEditor(pv, rect, shape, label);
    pv.sheet.append(ta);
    this.editing = { ta, id, page: hit.page, original: ta.value };
    ta.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        this.close(false, true);
      } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        e.stopPropagation();
        this.close(true, true);
      }
    });
    ta.addEventListener("blur", () => this.close(true));
    ta.focus();
    ta.select();
  }

  /** Ends text editing: applies the text (`commit`) or drops it; `refocus` goes back to
   *  the shape (keyboard endings; a click elsewhere keeps its own focus). */
  close(commit, refocus = false) {
    const t = this.editing;
    if (!t) return;
    this.editing = null;
    const editor = this.editor;
    const value = t.ta.value;
    t.ta.remove();
    if (commit && value !== t.original) {
      // Text that no longer fits its box grows the box, rather than spilling out of it.
      editor.apply((doc) => M.setShapeText(doc, t.id, value) && M.fitText(doc, t.id, measureText), [t.page]);
      editor.setStatus(`Text of ${editor.describe({ kind: "shape", id: t.id })} changed.`);
    }
    if (refocus) editor.select({ kind: "shape", id: t.id }, { focus: true });
  }
}
