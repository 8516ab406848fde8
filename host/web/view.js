// Drawing: the page picture (the server's SVG) with an SVG overlay of hit boxes, connector
// lines, field boxes and selection handles. Overlay coordinates are page points.

import {
  HANDLES,
  connectorPoints,
  fieldLabel,
  hasFrame,
  plainText,
  sameSelection,
  selectionFrame,
  shapeIndex,
  shapeLabel,
  textOf,
  walk,
} from "./model.js";

const SVG = "http://www.w3.org/2000/svg";

/** An HTML element: `h("button", {type: "button", class: "x"}, "Save")`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

export function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) set(el, k, v);
  return el;
}

/** Sets an attribute only when it differs (drags redraw often). */
function set(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const v = String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}

/** The selection an overlay element stands for, or null. */
export function selOf(el) {
  const item = el && el.closest && el.closest(".qe-item");
  if (!item) return null;
  if (item.dataset.shapeId !== undefined) return { kind: "shape", id: item.dataset.shapeId };
  return { kind: "field", index: Number(item.dataset.fieldIndex) };
}

/** Shows (class) and tells (aria-selected) whether an overlay item is selected. */
function mark(el, selected) {
  el.classList.toggle("selected", selected);
  set(el, "aria-selected", String(selected));
}

function pointsAttr(points) {
  return points.map((p) => `${+p.x.toFixed(2)},${+p.y.toFixed(2)}`).join(" ");
}

/** Puts `items` ([{key, make, update}]) into `layer` in order, reusing elements by key so a
 *  focused element survives a redraw. */
function reconcile(layer, keyed, items) {
  const wanted = new Set();
  let ref = layer.firstChild;
  for (const item of items) {
    wanted.add(item.key);
    let el = keyed.get(item.key);
    if (!el) {
      el = item.make();
      el.dataset.key = item.key;
      keyed.set(item.key, el);
    }
    item.update(el);
    if (el === ref) ref = ref.nextSibling;
    else layer.insertBefore(el, ref);
  }
  for (const [key, el] of keyed) {
    if (!wanted.has(key)) {
      el.remove();
      keyed.delete(key);
    }
  }
}

/** One page: its picture, and the overlay the editor works on. */
export class PageView {
  constructor(index, page, fallbackSrc) {
    this.index = index;
    this.layers = {};
    this.keyed = { groups: new Map(), connectors: new Map(), shapes: new Map(), fields: new Map() };
    this.pictureUrl = null;

    this.img = h("img", { class: "qe-picture", alt: `Page ${index + 1}`, draggable: "false" });
    if (fallbackSrc) this.img.src = fallbackSrc;
    this.svg = s("svg", { class: "overlay", "data-page": index + 1, tabindex: -1, role: "listbox", "aria-label": `Page ${index + 1}: shapes and fields` });
    this.turn = s("g", { class: "qe-turn" });
    for (const name of ["groups", "connectors", "shapes", "fields", "handles"]) {
      this.layers[name] = s("g", { class: `qe-layer qe-${name}` });
      this.turn.append(this.layers[name]);
    }
    this.draft = s("rect", { class: "qe-draft", visibility: "hidden" });
    this.turn.append(this.draft);
    this.svg.append(this.turn);
    this.sheet = h("div", { class: "qe-sheet" }, this.img, this.svg);
    this.el = h("section", { class: "qe-page", "aria-label": `Page ${index + 1}` }, this.sheet);
    this.setSize(page);
  }

  /** Sizes the overlay as the exporter does: a quarter turn swaps the shown sides. */
  setSize(page) {
    const w = page.width;
    const hgt = page.height;
    const rotate = (((page.rotate || 0) % 360) / 90 | 0) * 90;
    const quarter = rotate % 180 === 90;
    const sw = quarter ? hgt : w;
    const sh = quarter ? w : hgt;
    set(this.svg, "viewBox", `0 0 ${sw} ${sh}`);
    this.sheet.style.aspectRatio = `${sw} / ${sh}`;
    const turn = {
      90: `translate(${hgt} 0) rotate(90)`,
      180: `translate(${w} ${hgt}) rotate(180)`,
      270: `translate(0 ${w}) rotate(270)`,
    }[rotate];
    set(this.turn, "transform", turn || null);
  }

  /** Shows a new picture (a `blob:` URL) and lets the old one go. */
  setPicture(url) {
    const old = this.pictureUrl;
    this.pictureUrl = url;
    this.img.src = url;
    if (old) URL.revokeObjectURL(old);
  }

  dispose() {
    if (this.pictureUrl) URL.revokeObjectURL(this.pictureUrl);
    this.pictureUrl = null;
    this.el.remove();
  }

  /** A pointer position as page points, or null before layout. */
  toPage(clientX, clientY) {
    const m = this.turn.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** Page points as pixels relative to the sheet: the bounding box of the turned rect. */
  toSheet(rect) {
    const m = this.turn.getScreenCTM();
    const box = this.sheet.getBoundingClientRect();
    if (!m) return { left: 0, top: 0, width: 100, height: 30 };
    const corners = [
      [rect.x, rect.y],
      [rect.x + rect.w, rect.y],
      [rect.x, rect.y + rect.h],
      [rect.x + rect.w, rect.y + rect.h],
    ].map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
    const xs = corners.map((c) => c.x);
    const ys = corners.map((c) => c.y);
    const left = Math.min(...xs) - box.left;
    const top = Math.min(...ys) - box.top;
    return { left, top, width: Math.max(...xs) - box.left - left, height: Math.max(...ys) - box.top - top };
  }

  /** Screen pixels per page point (1 before layout). */
  scale() {
    const m = this.turn.getScreenCTM();
    const k = m ? Math.hypot(m.a, m.b) : 0;
    return k > 0 ? k : 1;
  }

  /** The overlay element of a selection, if it is on this page. */
  itemFor(sel) {
    if (!sel) return null;
    const key = sel.kind === "field" ? `f:${sel.index}` : `s:${sel.id}`;
    for (const map of Object.values(this.keyed)) if (map.has(key)) return map.get(key);
    return null;
  }

  /** Redraws the overlay for `doc` with `sel` selected. */
  render(doc, sel, opts = {}) {
    const page = doc.pages[this.index];
    if (!page) return;
    this.setSize(page);
    const index = shapeIndex(page);
    const groups = [];
    const connectors = [];
    const shapes = [];
    for (const { shape } of walk(page.shapes)) {
      if (shape.type === "group") groups.push(shape);
      else if (shape.type === "connector") connectors.push(shape);
      else if (hasFrame(shape)) shapes.push(shape);
    }
    const frameItem = (shape) => ({
      key: `s:${shape.id}`,
      make: () =>
        s("rect", {
          class: `qe-item qe-hit qe-${shape.type}`,
          tabindex: 0,
          role: "option",
          "data-shape-id": shape.id,
          "data-type": shape.type,
        }),
      update: (el) => {
        set(el, "x", shape.x);
        set(el, "y", shape.y);
        set(el, "width", Math.max(0, shape.w));
        set(el, "height", Math.max(0, shape.h));
        set(el, "aria-label", shapeLabel(shape, index));
        mark(el, sameSelection(sel, { kind: "shape", id: shape.id }));
        el.classList.toggle("connect-from", opts.connectFrom === shape.id);
      },
    });
    reconcile(this.layers.groups, this.keyed.groups, groups.map(frameItem));
    reconcile(this.layers.shapes, this.keyed.shapes, shapes.map(frameItem));

    const lines = [];
    for (const c of connectors) {
      const points = connectorPoints(index, c);
      if (!points) continue;
      lines.push({
        key: `s:${c.id}`,
        make: () => {
          const g = s("g", {
            class: "qe-item qe-connector",
            tabindex: 0,
            role: "option",
            "data-shape-id": c.id,
            "data-type": "connector",
          });
          g.append(s("polyline", { class: "qe-connector-hit" }), s("polyline", { class: "qe-connector-line" }));
          return g;
        },
        update: (g) => {
          const pts = pointsAttr(points);
          for (const line of g.children) set(line, "points", pts);
          set(g, "aria-label", shapeLabel(c, index));
          mark(g, sameSelection(sel, { kind: "shape", id: c.id }));
        },
      });
    }
    reconcile(this.layers.connectors, this.keyed.connectors, lines);

    const fields = [];
    (doc.fields || []).forEach((f, i) => {
      if (f.page !== this.index + 1) return;
      fields.push({
        key: `f:${i}`,
        make: () => {
          const g = s("g", { class: "qe-item qe-field", tabindex: 0, role: "option" });
          g.append(s("rect", { class: "qe-field-box" }), s("text", { class: "qe-field-key" }));
          return g;
        },
        update: (g) => {
          set(g, "data-field-key", f.key);
          set(g, "data-field-index", i);
          set(g, "aria-label", fieldLabel(f));
          const [box, label] = g.children;
          set(box, "x", f.x);
          set(box, "y", f.y);
          set(box, "width", f.w);
          set(box, "height", f.h);
          const size = Math.max(4, Math.min(10, f.h * 0.7));
          set(label, "x", f.x + 2);
          set(label, "y", f.y + Math.min(f.h, size) - 1);
          set(label, "font-size", +size.toFixed(2));
          if (label.textContent !== f.key) label.textContent = f.key;
          mark(g, sameSelection(sel, { kind: "field", index: i }));
          g.classList.toggle("required", !!f.required);
        },
      });
    });
    reconcile(this.layers.fields, this.keyed.fields, fields);
    this.renderHandles(doc, sel);
  }

  /** The selection outline and its eight handles (only on the page of the selection). */
  renderHandles(doc, sel) {
    const layer = this.layers.handles;
    layer.replaceChildren();
    const el = this.itemFor(sel);
    if (!el) return;
    const r = selectionFrame(doc, sel);
    if (!r) return;
    const k = 1 / this.scale();
    const size = 9 * k;
    layer.append(s("rect", { class: "qe-outline", x: r.x, y: r.y, width: r.w, height: r.h }));
    const xs = { w: r.x, n: r.x + r.w / 2, s: r.x + r.w / 2, e: r.x + r.w };
    const ys = { n: r.y, w: r.y + r.h / 2, e: r.y + r.h / 2, s: r.y + r.h };
    for (const handle of HANDLES) {
      const x = handle.length === 2 ? xs[handle[1]] : xs[handle];
      const y = ys[handle[0]];
      layer.append(
        s("rect", {
          class: `qe-handle qe-handle-${handle}`,
          "data-handle": handle,
          x: x - size / 2,
          y: y - size / 2,
          width: size,
          height: size,
        }),
      );
    }
  }

  /** Marks which item is selected without redrawing anything else. */
  markSelection(doc, sel) {
    for (const map of Object.values(this.keyed)) {
      for (const el of map.values()) mark(el, sameSelection(sel, selOf(el)));
    }
    this.renderHandles(doc, sel);
  }

  showDraft(rect) {
    if (!rect) {
      set(this.draft, "visibility", "hidden");
      return;
    }
    set(this.draft, "visibility", null);
    set(this.draft, "x", rect.x);
    set(this.draft, "y", rect.y);
    set(this.draft, "width", rect.w);
    set(this.draft, "height", rect.h);
  }
}

const FONTS = {
  helvetica: "Helvetica, Arial, sans-serif",
  times: '"Times New Roman", Times, serif',
  courier: '"Courier New", Courier, monospace',
};

let measuring = null;

/** The width of `text` in page units, in `run`'s font and size, as the browser measures
 *  the nearest font it has (close enough to grow a box that would overflow). */
export function measureText(text, run) {
  measuring ??= document.createElement("canvas").getContext("2d");
  const family = FONTS[run.font] || FONTS.helvetica;
  measuring.font = `${run.italic ? "italic " : ""}${run.bold ? "bold " : ""}${run.size || 12}px ${family}`;
  return measuring.measureText(text).width;
}

/**
 * A textarea over `rect` (page points) of page view `pv`, holding the shape's text in the
 * first run's font, size and colour. Styles are set through the CSSOM, which the page's
 * `style-src 'self'` allows (style attributes it would not).
 */
export function textEditor(pv, rect, shape, label) {
  const text = textOf(shape);
  const run = (text && text.runs && text.runs[0]) || {};
  const box = pv.toSheet(rect);
  const ta = h("textarea", { class: "qe-textedit", "aria-label": label, spellcheck: "true" });
  ta.value = plainText(text);
  const st = ta.style;
  st.left = `${box.left}px`;
  st.top = `${box.top}px`;
  st.width = `${Math.max(box.width, 100)}px`;
  st.height = `${Math.max(box.height, 32)}px`;
  st.fontSize = `${Math.max(8, (run.size || 12) * pv.scale())}px`;
  st.fontFamily = FONTS[run.font] || FONTS.helvetica;
  st.fontWeight = run.bold ? "bold" : "normal";
  st.fontStyle = run.italic ? "italic" : "normal";
  st.textAlign = (text && text.align) || (shape.type === "text" ? "left" : "center");
  if (typeof run.color === "string") st.color = run.color.slice(0, 7);
  return ta;
}
