// The editor's keys, anywhere on the page: Ctrl+S saves, Ctrl+Z/Ctrl+Y (Ctrl+Shift+Z) undo
// and redo, Escape steps back (out of a mode, then out of the selection), Delete removes the
// selection, arrows move it (Shift: by 10, Alt: resize), Enter or F2 edits a shape's text
// or the field's key. Keys typed into a box or the field panel are left to them.

import * as M from "./model.js";
import { selOf } from "./view.js";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Whether `el` takes typed text (a key pressed there is not the editor's). */
function isTyping(el) {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag !== "input") return false;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(el.type);
}

/** Handles keydown `e` for `editor` (the Editor of editor.js). */
export function onEditorKey(editor, e) {
  if (!editor.doc || e.defaultPrevented || e.isComposing) return;
  const key = e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (ctrl && !e.altKey && lower === "s") {
    e.preventDefault();
    editor.saved.save();
    return;
  }
  const t = e.target;
  if (isTyping(t)) return;
  if (t !== document.body && t !== document.documentElement && !editor.root.contains(t)) return;
  if (t.closest && t.closest(".qe-panel, .qe-conflict")) return;
  const inToolbar = !!(t.closest && t.closest("[role=toolbar]"));
  if (ctrl && !e.altKey && (lower === "z" || lower === "y")) {
    e.preventDefault();
    if (lower === "y" || e.shiftKey) editor.redo();
    else editor.undo();
    return;
  }
  if (ctrl) return;
  if (key === "Escape") {
    if (editor.mode !== "select") {
      editor.setMode("select");
      editor.setStatus("Back to selecting.");
    } else if (editor.sel) {
      const el = editor.pages[M.selectionPage(editor.doc, editor.sel)]?.itemFor(editor.sel);
      editor.select(null);
      if (el && document.activeElement === el) el.blur();
    }
  } else if ((key === "Delete" || key === "Backspace") && editor.sel && !e.altKey) {
    e.preventDefault();
    editor.deleteSelected();
  } else if (ARROWS[key] && !inToolbar && editor.sel) {
    e.preventDefault();
    const step = e.shiftKey ? 10 : 1;
    const [ux, uy] = ARROWS[key];
    const p = M.selectionPage(editor.doc, editor.sel);
    // Repeated presses within a moment are one step of undo.
    const what = `${e.altKey ? "size" : "move"}:${JSON.stringify(editor.sel)}`;
    if (e.altKey) editor.apply((doc) => M.resizeBy(doc, editor.sel, ux * step, uy * step), [p], what);
    else editor.apply((doc) => M.nudge(doc, editor.sel, ux * step, uy * step), [p], what);
    editor.redrawHandles();
  } else if ((key === "Enter" || key === "F2") && t.closest && t.closest(".qe-item")) {
    e.preventDefault();
    const sel = selOf(t);
    if (editor.mode === "connect" && sel.kind === "shape") editor.diagram.connectTo(sel.id);
    else if (sel.kind === "shape") editor.text.start(sel.id);
    else editor.panel.focusKey();
  }
}
