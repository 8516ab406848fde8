// A diagram's own tools: Add node, and Connect (select a node, press Connect, then click or
// press Enter on the node to join it to; Escape cancels).

import * as M from "./model.js";

export class DiagramTools {
  /** `editor` is the Editor (editor.js) whose diagram this changes. */
  constructor(editor) {
    this.editor = editor;
    /** The node a connector starts from while in connect mode, or null. */
    this.connectFrom = null;
  }

  addNode() {
    const editor = this.editor;
    editor.setMode("select");
    const id = editor.apply((doc) => M.addNode(doc, { page: 0 }), [0]);
    editor.select({ kind: "shape", id }, { focus: "scroll" });
    editor.setStatus(`Added node ${id}. Press Enter to edit its text.`);
  }

  toggleConnect() {
    const editor = this.editor;
    if (editor.mode === "connect") {
      editor.setMode("select");
      editor.setStatus("Connect cancelled.");
      return;
    }
    const sel = editor.sel;
    const hit = sel && sel.kind === "shape" ? M.findShape(editor.doc, sel.id) : null;
    if (!hit || hit.shape.type !== "node") {
      editor.setStatus("Select a node first, then press Connect and click the node to connect it to.", "error");
      return;
    }
    editor.setMode("connect");
    this.connectFrom = hit.shape.id;
    editor.renderNow([hit.page]);
    editor.setStatus(`Connect: click (or Tab to and press Enter on) the node to connect ${editor.describe(sel)} to. Escape cancels.`);
  }

  connectTo(id) {
    const editor = this.editor;
    const from = this.connectFrom;
    const hit = M.findShape(editor.doc, id);
    if (!hit || hit.shape.type !== "node" || id === from) {
      editor.setStatus("Choose another node to connect to, or press Escape.", "error");
      return;
    }
    try {
      const cid = editor.apply((doc) => M.addConnector(doc, from, id), [hit.page]);
      editor.setMode("select");
      editor.select({ kind: "shape", id: cid }, { focus: true });
      editor.setStatus(`Connected: ${editor.describe(editor.sel)}.`);
    } catch (err) {
      editor.setStatus(`Cannot connect: ${err.message}.`, "error");
    }
  }

  /** Leaving connect mode: the node it started from is no longer marked. */
  endConnect() {
    if (!this.connectFrom) return;
    this.connectFrom = null;
    this.editor.renderNow(null);
  }
}
