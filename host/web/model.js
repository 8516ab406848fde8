// Pure operations on the Quire document model (`quire/1`), shared by the editor and its
// tests. No DOM here: everything takes a plain JSON document and changes it in place.
//
// Units are PDF points, origin at the top left of each page, y down. Shapes are tagged by
// `type`; text, image, node and group carry a flattened frame `x, y, w, h`. Form fields
// live in `doc.fields` with a 1-based `page`.

export const FIELD_TYPES = [
  "text",
  "multiline",
  "email",
  "number",
  "date",
  "checkbox",
  "radio",
  "select",
  "list",
  "signature",
];
const CHOOSING = new Set(["radio", "select", "list"]);
const FRAMED = new Set(["text", "image", "node", "group"]);

/** Smallest width and height a resize leaves, in points. */
export const MIN_SIZE = 4;
export const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];

/** Rounds to a thousandth of a point, so drags leave no 0.30000000000000004 behind. */
export function round(v) {
  const r = Math.round(v * 1000) / 1000;
  return r === 0 ? 0 : r; // no -0
}

export function isChoosing(type) {
  return CHOOSING.has(type);
}

export function hasFrame(shape) {
  return !!shape && FRAMED.has(shape.type);
}

export function frameOf(obj) {
  return { x: obj.x, y: obj.y, w: obj.w, h: obj.h };
}

export function center(r) {
  return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
}

export function intersects(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

// ---------------------------------------------------------------------------------------
// Walking and finding shapes

/** Depth-first over shapes and the children of groups: `{shape, list, index, parent}`. */
export function* walk(shapes, parent = null) {
  if (!Array.isArray(shapes)) return;
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i];
    yield { shape, list: shapes, index: i, parent };
    if (shape && shape.type === "group") yield* walk(shape.children, shape);
  }
}

/** Where shape `id` is: `{shape, list, index, parent, page}` (page 0-based), or null. */
export function findShape(doc, id) {
  for (let p = 0; p < doc.pages.length; p++) {
    for (const hit of walk(doc.pages[p].shapes)) {
      if (hit.shape.id === id) return { ...hit, page: p };
    }
  }
  return null;
}

/** Every shape of one page by id. */
export function shapeIndex(page) {
  const map = new Map();
  for (const { shape } of walk(page.shapes)) map.set(shape.id, shape);
  return map;
}

export function shapeIds(doc) {
  const ids = new Set();
  for (const page of doc.pages) for (const { shape } of walk(page.shapes)) ids.add(shape.id);
  return ids;
}

/** `prefix` + the smallest counter no shape uses as id. */
export function uniqueId(doc, prefix) {
  const ids = shapeIds(doc);
  let n = 1;
  while (ids.has(prefix + n)) n++;
  return prefix + n;
}

// ---------------------------------------------------------------------------------------
// Text

/** The `Text` object a shape shows (the text box itself, a node's text, a label), or null. */
export function textOf(shape) {
  switch (shape && shape.type) {
    case "text":
      return shape;
    case "node":
      return shape.text || null;
    case "group":
    case "connector":
      return shape.label || null;
    default:
      return null;
  }
}

export function plainText(text) {
  if (!text || !Array.isArray(text.runs)) return "";
  return text.runs.map((r) => r.text || "").join("");
}

export function canEditText(shape) {
  return !!shape && ["text", "node", "group", "connector"].includes(shape.type);
}

/**
 * Replaces the text of a text box, node, group label or connector label with one run that
 * keeps the first run's style (`\n` breaks lines). Empty text removes a node's text and a
 * label; a text box keeps one empty run so its style survives. Returns whether it changed.
 */
export function setShapeText(doc, id, value) {
  const hit = findShape(doc, id);
  if (!hit || !canEditText(hit.shape)) return false;
  const shape = hit.shape;
  const text = String(value).replace(/\r\n?/g, "\n");
  const current = textOf(shape);
  if (current && plainText(current) === text && (current.runs || []).length <= 1) return false;
  const style = current && current.runs && current.runs[0] ? { ...current.runs[0] } : { size: 12 };
  const run = { ...style, text };
  if (shape.type === "text") {
    shape.runs = [run];
    return true;
  }
  const key = shape.type === "node" ? "text" : "label";
  if (text === "") {
    if (!current) return false;
    delete shape[key];
    return true;
  }
  if (current) {
    current.runs = [run];
  } else {
    const middle = shape.type !== "group";
    shape[key] = {
      runs: [run],
      align: middle ? "center" : "left",
      valign: middle ? "middle" : "top",
      line_height: 1.2,
    };
  }
  return true;
}

/** The share of a node's width and height its text may use, by outline (as the
 *  exporters' `geometry::text_area` lays text out; other outlines are near enough). */
const TEXT_SHARE = { ellipse: 0.7, circle: 0.7, double_circle: 0.7, diamond: 0.5 };
/** The padding between a node's outline and its text (`geometry::TEXT_PAD`). */
const TEXT_PAD = 4;

/** How many lines `line` takes wrapped at `room` wide, word by word as the exporters wrap. */
function wrappedLines(line, room, width) {
  const words = line.split(/\s+/).filter(Boolean);
  const space = width(" ");
  let lines = 1;
  let used = 0;
  for (const word of words) {
    const w = width(word);
    if (used > 0 && used + space + w > room + 1e-9) {
      lines += 1;
      used = w;
    } else {
      used += (used > 0 ? space : 0) + w;
    }
  }
  return lines;
}

/**
 * Grows a text box or node whose text no longer fits, so the exporters draw it inside:
 * they wrap lines at the box's width and let the rest run below it. The box gets taller
 * for the lines the text now takes (and a node wider for a word longer than it); a node
 * grows around its centre, so its connectors stay put, a text box downwards. `measure(s,
 * run)` is the width of `s` in page units in the run's font. Returns whether it grew.
 */
export function fitText(doc, id, measure) {
  const hit = findShape(doc, id);
  if (!hit || (hit.shape.type !== "text" && hit.shape.type !== "node")) return false;
  const shape = hit.shape;
  const text = textOf(shape);
  if (!text || !Array.isArray(text.runs) || text.runs.length === 0) return false;
  const run = text.runs[0];
  const size = run.size || 12;
  const lineHeight = size * (text.line_height || 1.2);
  const isNode = shape.type === "node";
  const share = isNode ? TEXT_SHARE[shape.geometry] || 1 : 1;
  const pad = isNode ? TEXT_PAD : 0;
  const lines = plainText(text).split("\n");
  const words = lines.flatMap((l) => l.split(/\s+/)).filter(Boolean);
  const widestWord = Math.max(0, ...words.map((word) => measure(word, run)));
  const w = Math.max(shape.w, (widestWord + 2 * pad) / share);
  const room = Math.max(1, w * share - 2 * pad);
  const count = lines.reduce((n, line) => n + wrappedLines(line, room, (t) => measure(t, run)), 0);
  const h = Math.max(shape.h, (count * lineHeight + 2 * pad) / share);
  if (w <= shape.w + 0.01 && h <= shape.h + 0.01) return false;
  if (isNode) {
    shape.x = round(shape.x - (w - shape.w) / 2);
    shape.y = round(shape.y - (h - shape.h) / 2);
  }
  shape.w = round(w);
  shape.h = round(h);
  return true;
}

// ---------------------------------------------------------------------------------------
// Moving and resizing shapes

function translate(shape, dx, dy) {
  if (hasFrame(shape)) {
    shape.x = round(shape.x + dx);
    shape.y = round(shape.y + dy);
  }
  if (shape.type === "group") {
    // A group's children are drawn inside its box: they go with it. Connectors are placed
    // by their ends (attached ends follow their shapes; loose points stay put).
    for (const child of shape.children || []) translate(child, dx, dy);
  } else if (shape.type === "path" && Array.isArray(shape.segments)) {
    for (const s of shape.segments) {
      for (const [kx, ky] of [["x", "y"], ["x1", "y1"], ["x2", "y2"]]) {
        if (typeof s[kx] === "number") s[kx] = round(s[kx] + dx);
        if (typeof s[ky] === "number") s[ky] = round(s[ky] + dy);
      }
    }
  }
}

/**
 * Moves a framed shape (a group with everything inside it) by `dx, dy` points. Connectors
 * are never touched: an end attached with `shape` follows by itself. Returns whether it moved.
 */
export function moveShape(doc, id, dx, dy) {
  const hit = findShape(doc, id);
  if (!hit || !hasFrame(hit.shape) || (!dx && !dy)) return false;
  translate(hit.shape, dx, dy);
  return true;
}

/**
 * The rectangle `rect` becomes when handle `handle` (nw, n, ne, e, se, s, sw, w) is dragged
 * by `dx, dy`. The opposite edges stay; no side gets smaller than `min`.
 */
export function resizeRect(rect, handle, dx, dy, min = MIN_SIZE) {
  let left = rect.x;
  let top = rect.y;
  let right = rect.x + rect.w;
  let bottom = rect.y + rect.h;
  if (handle.includes("w")) left = Math.min(left + dx, right - min);
  if (handle.includes("e")) right = Math.max(right + dx, left + min);
  if (handle.includes("n")) top = Math.min(top + dy, bottom - min);
  if (handle.includes("s")) bottom = Math.max(bottom + dy, top + min);
  return { x: round(left), y: round(top), w: round(right - left), h: round(bottom - top) };
}

/** Sets a framed shape's box (a group's children keep theirs). */
export function setShapeFrame(doc, id, rect) {
  const hit = findShape(doc, id);
  if (!hit || !hasFrame(hit.shape)) return false;
  const s = hit.shape;
  const next = { x: round(rect.x), y: round(rect.y), w: round(rect.w), h: round(rect.h) };
  if (s.x === next.x && s.y === next.y && s.w === next.w && s.h === next.h) return false;
  Object.assign(s, next);
  return true;
}

// ---------------------------------------------------------------------------------------
// Adding and deleting shapes

/** Removes every shape (at any depth) that `pred` accepts; returns the removed shapes. */
function removeWhere(shapes, pred) {
  const removed = [];
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i];
    if (pred(s)) {
      removed.push(...shapes.splice(i, 1));
    } else if (s.type === "group" && Array.isArray(s.children)) {
      removed.push(...removeWhere(s.children, pred));
    }
  }
  return removed;
}

/**
 * Deletes shape `id` (a group with its children) and every connector attached to what went.
 * Returns the ids removed, the shape's own first.
 */
export function deleteShape(doc, id) {
  const hit = findShape(doc, id);
  if (!hit) return [];
  hit.list.splice(hit.index, 1);
  const removed = [];
  for (const { shape } of walk([hit.shape])) removed.push(shape.id);
  const gone = new Set(removed);
  const attached = (s) =>
    s.type === "connector" &&
    ((s.from && gone.has(s.from.shape)) || (s.to && gone.has(s.to.shape)));
  // A connector may be attached to a connector: repeat until nothing else goes.
  for (;;) {
    const more = doc.pages.flatMap((p) => removeWhere(p.shapes, attached));
    if (more.length === 0) break;
    for (const s of more) {
      for (const { shape } of walk([s])) {
        gone.add(shape.id);
        removed.push(shape.id);
      }
    }
  }
  return removed;
}

/** A place on `page` where a `w`x`h` box overlaps no framed shape, or a fallback spot. */
export function freeSpot(page, w, h, margin = 24, gap = 12) {
  const boxes = [];
  for (const { shape } of walk(page.shapes)) if (hasFrame(shape)) boxes.push(frameOf(shape));
  const stepX = Math.max(16, page.width / 40);
  const stepY = Math.max(16, page.height / 40);
  for (let y = margin; y + h <= page.height - margin; y += stepY) {
    for (let x = margin; x + w <= page.width - margin; x += stepX) {
      const r = { x: x - gap, y: y - gap, w: w + 2 * gap, h: h + 2 * gap };
      if (!boxes.some((b) => intersects(r, b))) return { x: round(x), y: round(y) };
    }
  }
  const n = boxes.length % 10;
  return {
    x: round(Math.max(0, Math.min(margin + n * 16, page.width - w))),
    y: round(Math.max(0, Math.min(margin + n * 16, page.height - h))),
  };
}

/** Adds a rounded 120x48 node reading "New node" at a free spot of page `page` (0-based). */
export function addNode(doc, { page = 0, text = "New node", w = 120, h = 48, x, y } = {}) {
  const pg = doc.pages[page];
  if (!pg) throw new Error(`there is no page ${page + 1}`);
  const spot = x === undefined || y === undefined ? freeSpot(pg, w, h) : { x, y };
  const id = uniqueId(doc, "n");
  pg.shapes = pg.shapes || [];
  pg.shapes.push({
    type: "node",
    id,
    x: spot.x,
    y: spot.y,
    w,
    h,
    geometry: "rounded",
    text: { runs: [{ text, size: 12 }], align: "center", valign: "middle", line_height: 1.2 },
  });
  return id;
}

/**
 * Adds an arrow from shape `from` to shape `to` (both on one page), attached by id so it
 * follows them. Returns the connector's id; throws with a sentence when it cannot.
 */
export function addConnector(doc, from, to, head = "arrow") {
  if (from === to) throw new Error("choose another node to connect to");
  const a = findShape(doc, from);
  const b = findShape(doc, to);
  if (!a || !b) throw new Error("both ends must be shapes of this document");
  if (a.page !== b.page) throw new Error("a connector joins shapes on the same page");
  const id = uniqueId(doc, "c");
  doc.pages[a.page].shapes.push({
    type: "connector",
    id,
    from: { shape: from },
    to: { shape: to, head },
  });
  return id;
}

/** Where a connector end lies now: the centre of its shape, else its point. */
export function endPoint(index, end) {
  if (!end) return null;
  if (end.shape) {
    const s = index.get(end.shape);
    if (hasFrame(s)) return center(s);
  }
  return end.point && Number.isFinite(end.point.x) ? { x: end.point.x, y: end.point.y } : null;
}

/** Where the line from the middle of `frame` toward `toward` leaves the frame: an
 *  overlay line stops at a node's edge instead of cutting through its text. */
export function toEdge(frame, toward) {
  const c = center(frame);
  const dx = toward.x - c.x;
  const dy = toward.y - c.y;
  const sx = dx === 0 ? Infinity : frame.w / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : frame.h / 2 / Math.abs(dy);
  const t = Math.min(sx, sy, 1);
  return { x: c.x + dx * t, y: c.y + dy * t };
}

/** The overlay line of a connector: from end, waypoints, to end, each end attached to a
 *  shape cut at that shape's edge; null when an end is lost. */
export function connectorPoints(index, c) {
  const a = endPoint(index, c.from);
  const b = endPoint(index, c.to);
  if (!a || !b) return null;
  const points = [a, ...(Array.isArray(c.waypoints) ? c.waypoints : []), b];
  const frameAt = (end) => {
    const s = end && end.shape ? index.get(end.shape) : null;
    return hasFrame(s) ? frameOf(s) : null;
  };
  const first = frameAt(c.from);
  const last = frameAt(c.to);
  const n = points.length;
  const start = first ? toEdge(first, points[1]) : points[0];
  const end = last ? toEdge(last, points[n - 2]) : points[n - 1];
  return [start, ...points.slice(1, n - 1), end];
}

/** The middle of a polyline (by length). */
export function midpoint(points) {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  let left = total / 2;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const d = Math.hypot(b.x - a.x, b.y - a.y);
    if (d >= left && d > 0) return { x: a.x + ((b.x - a.x) * left) / d, y: a.y + ((b.y - a.y) * left) / d };
    left -= d;
  }
  return points[0];
}

// ---------------------------------------------------------------------------------------
// Form fields

/** Keeps `rect` inside a `pw`x`ph` page: no larger than the page, then moved inside. */
export function clampRect(rect, pw, ph, min = MIN_SIZE) {
  const w = Math.min(Math.max(rect.w, Math.min(min, pw)), pw);
  const h = Math.min(Math.max(rect.h, Math.min(min, ph)), ph);
  const x = Math.min(Math.max(rect.x, 0), pw - w);
  const y = Math.min(Math.max(rect.y, 0), ph - h);
  return { x: round(x), y: round(y), w: round(w), h: round(h) };
}

function pageOfField(doc, field) {
  return doc.pages[(field.page | 0) - 1] || null;
}

/** `field_<n>` with the smallest n no field uses. */
export function unusedFieldKey(doc) {
  const used = new Set((doc.fields || []).map((f) => f.key));
  let n = 1;
  while (used.has(`field_${n}`)) n++;
  return `field_${n}`;
}

/** Lines of a textarea as options: trimmed, blank lines dropped, repeats dropped. */
export function parseOptions(text) {
  const seen = new Set();
  const out = [];
  for (const line of String(text || "").split(/\r?\n/)) {
    const o = line.trim();
    if (o && !seen.has(o)) {
      seen.add(o);
      out.push(o);
    }
  }
  return out;
}

/**
 * Adds a field box, clamped inside its page, with defaults for what is left out (key
 * `field_<n>`, type text). Returns its index in `doc.fields`.
 */
export function addField(doc, spec) {
  const page = spec.page || 1;
  const pg = doc.pages[page - 1];
  if (!pg) throw new Error(`there is no page ${page}`);
  const type = FIELD_TYPES.includes(spec.type) ? spec.type : "text";
  const field = {
    key: spec.key || unusedFieldKey(doc),
    type,
    label: spec.label || "",
    required: !!spec.required,
    page,
    ...clampRect({ x: spec.x, y: spec.y, w: spec.w, h: spec.h }, pg.width, pg.height),
  };
  if (isChoosing(type)) field.options = spec.options && spec.options.length ? [...spec.options] : ["Option 1"];
  doc.fields = doc.fields || [];
  doc.fields.push(field);
  return doc.fields.length - 1;
}

/**
 * Keeps a resized box inside a `pw`x`ph` page by stopping the edges that crossed it (a move
 * shifts the whole box instead: see clampRect). The opposite edges stay where they are.
 */
export function clampEdges(rect, pw, ph, min = MIN_SIZE) {
  let left = Math.max(rect.x, 0);
  let top = Math.max(rect.y, 0);
  let right = Math.min(rect.x + rect.w, pw);
  let bottom = Math.min(rect.y + rect.h, ph);
  if (right - left < min) [left, right] = right >= min ? [right - min, right] : [left, Math.min(left + min, pw)];
  if (bottom - top < min) [top, bottom] = bottom >= min ? [bottom - min, bottom] : [top, Math.min(top + min, ph)];
  return clampRect({ x: left, y: top, w: right - left, h: bottom - top }, pw, ph, min);
}

/** Sets field `index`'s box, clamped inside its page. Returns whether it changed. */
export function setFieldFrame(doc, index, rect) {
  const f = doc.fields && doc.fields[index];
  const pg = f && pageOfField(doc, f);
  if (!pg) return false;
  const next = clampRect(rect, pg.width, pg.height);
  if (f.x === next.x && f.y === next.y && f.w === next.w && f.h === next.h) return false;
  Object.assign(f, next);
  return true;
}

export function moveField(doc, index, dx, dy) {
  const f = doc.fields && doc.fields[index];
  if (!f) return false;
  return setFieldFrame(doc, index, { x: f.x + dx, y: f.y + dy, w: f.w, h: f.h });
}

export function deleteField(doc, index) {
  if (!doc.fields || index < 0 || index >= doc.fields.length) return null;
  const [gone] = doc.fields.splice(index, 1);
  if (doc.fields.length === 0) delete doc.fields;
  return gone;
}

/**
 * The server's rules for a field, from the `field_rules` that GET /d/{id}/model sends
 * (read from the API's schema of a placed field), so the editor takes the fields the server
 * takes and no others: `{key: {pattern, maxLength}, labelMax, optionsMax}`. The key's
 * pattern is a JSON Schema pattern (it may match anywhere in the key); lengths count
 * characters (code points), as JSON Schema and the server do. Null when `field_rules` is
 * not such a set of rules.
 */
export function fieldRules(sent) {
  const { key, label, options } = sent || {};
  const { pattern, max_length: maxLength } = key || {};
  const labelMax = label?.max_length;
  const optionsMax = options?.max_items;
  if (typeof pattern !== "string" || ![maxLength, labelMax, optionsMax].every(Number.isInteger)) return null;
  try {
    return { key: { pattern: new RegExp(pattern, "u"), maxLength }, labelMax, optionsMax };
  } catch {
    return null; // not a pattern this browser reads
  }
}

/** What is wrong with `key` under `rule` (fieldRules(…).key), as a sentence, or null. */
export function keyProblem(key, rule) {
  const k = key || "";
  if (!rule.pattern.test(k)) {
    if (!k.trim()) return "The key is required and must not be empty.";
    return `The key does not follow the server's rule for keys (the pattern ${rule.pattern.source}).`;
  }
  if ([...k].length > rule.maxLength) return `The key is longer than ${rule.maxLength} characters.`;
  return null;
}

/** What is wrong with the panel's values for field `index`, as a sentence, or null.
 *  `rules` are the server's (fieldRules). */
export function fieldProblem(doc, index, values, rules) {
  const { key, type, label, options } = values;
  const badKey = keyProblem(key, rules.key);
  if (badKey) return badKey;
  if (!FIELD_TYPES.includes(type)) return `Unknown field type “${type}”.`;
  if ([...(label || "")].length > rules.labelMax) return `The label is longer than ${rules.labelMax} characters.`;
  const opts = options || [];
  if (isChoosing(type) && opts.length === 0) return `A ${type} field needs at least one option (one per line).`;
  if (opts.length > rules.optionsMax) return `A field offers at most ${rules.optionsMax} options.`;
  const old = doc.fields[index];
  if (old && key !== old.key) {
    // Joining another question: the boxes of one key ask the same thing.
    const other = doc.fields.find((f, i) => i !== index && f.key === key);
    if (other) {
      const same = other.type === type && (!isChoosing(type) || sameList(other.options || [], opts));
      if (!same) {
        return `Key “${key}” is already a ${other.type} question on page ${other.page}; use the same type and options, or another key.`;
      }
    }
  }
  return null;
}

function sameList(a, b) {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Applies the panel's values (key, type, label, required, options) to field `index`, the
 * field checked against the server's `rules` (fieldRules). Other boxes of the same key
 * follow a change of type and options (one key is one question). Returns an error
 * sentence, or null when applied.
 */
export function applyField(doc, index, values, rules) {
  const f = doc.fields && doc.fields[index];
  if (!f) return "That field no longer exists.";
  const options = isChoosing(values.type) ? values.options || [] : [];
  const problem = fieldProblem(doc, index, { ...values, options }, rules);
  if (problem) return problem;
  const sameKey = values.key === f.key;
  const targets = [f];
  if (sameKey) doc.fields.forEach((g, i) => i !== index && g.key === f.key && targets.push(g));
  f.key = values.key;
  f.label = values.label || "";
  f.required = !!values.required;
  for (const t of targets) {
    t.type = values.type;
    if (options.length) t.options = [...options];
    else delete t.options;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Selections: `{kind: "shape", id}` or `{kind: "field", index}`; null (or undefined) when
// nothing is selected

/**
 * Whether two selections name the same thing. Nothing selected is the same as nothing
 * selected (so clearing an empty selection is no change), and never the same as a shape or
 * field (so no item is marked selected when nothing is).
 */
export function sameSelection(a, b) {
  if (!a || !b) return !a && !b;
  if (a.kind !== b.kind) return false;
  return a.kind === "field" ? a.index === b.index : a.id === b.id;
}

export function selectionExists(doc, sel) {
  if (!sel) return false;
  if (sel.kind === "field") return !!(doc.fields && doc.fields[sel.index]);
  return !!findShape(doc, sel.id);
}

/** The 0-based page a selection is on, or -1. */
export function selectionPage(doc, sel) {
  if (!sel) return -1;
  if (sel.kind === "field") {
    const f = doc.fields && doc.fields[sel.index];
    return f ? f.page - 1 : -1;
  }
  const hit = findShape(doc, sel.id);
  return hit ? hit.page : -1;
}

/** The box of a selection (framed shape or field), or null. */
export function selectionFrame(doc, sel) {
  if (!sel) return null;
  if (sel.kind === "field") {
    const f = doc.fields && doc.fields[sel.index];
    return f ? frameOf(f) : null;
  }
  const hit = findShape(doc, sel.id);
  return hit && hasFrame(hit.shape) ? frameOf(hit.shape) : null;
}

/** Moves the selection by `dx, dy` (arrow keys); fields stay inside their page. */
export function nudge(doc, sel, dx, dy) {
  if (!sel) return false;
  if (sel.kind === "field") return moveField(doc, sel.index, dx, dy);
  return moveShape(doc, sel.id, dx, dy);
}

/** Sets the selection's box: a field is clamped inside its page. */
export function setSelectionFrame(doc, sel, rect) {
  if (!sel) return false;
  if (sel.kind === "field") return setFieldFrame(doc, sel.index, rect);
  return setShapeFrame(doc, sel.id, rect);
}

/**
 * Resizes the selection from its box `orig` by dragging `handle` by `dx, dy`. A field's
 * dragged edges stop at its page's edges.
 */
export function resizeSelection(doc, sel, orig, handle, dx, dy) {
  if (!sel || !orig) return false;
  let r = resizeRect(orig, handle, dx, dy);
  if (sel.kind === "field") {
    const f = doc.fields && doc.fields[sel.index];
    const pg = f && pageOfField(doc, f);
    if (!pg) return false;
    r = clampEdges(r, pg.width, pg.height);
  }
  return setSelectionFrame(doc, sel, r);
}

/** Grows or shrinks the selection from its bottom right corner (Alt+arrows). */
export function resizeBy(doc, sel, dw, dh) {
  return resizeSelection(doc, sel, selectionFrame(doc, sel), "se", dw, dh);
}

/** Deletes the selection; returns the shape ids removed (a field gives `[]`), or null. */
export function deleteSelection(doc, sel) {
  if (!sel) return null;
  if (sel.kind === "field") return deleteField(doc, sel.index) ? [] : null;
  const removed = deleteShape(doc, sel.id);
  return removed.length ? removed : null;
}

/** How an overlay item introduces itself to assistive technology: "node: Start". */
export function shapeLabel(shape, index) {
  const short = (s) => {
    const one = String(s || "").replace(/\s+/g, " ").trim();
    return one.length > 60 ? one.slice(0, 59) + "…" : one;
  };
  const text = short(plainText(textOf(shape)));
  if (shape.type === "image") return `image: ${short(shape.alt) || shape.id}`;
  if (shape.type === "connector") {
    if (text) return `connector: ${text}`;
    const name = (end) => {
      if (!end) return "?";
      if (end.shape) {
        const s = index && index.get(end.shape);
        return (s && short(plainText(textOf(s)))) || end.shape;
      }
      return "point";
    };
    return `connector: ${name(shape.from)} → ${name(shape.to)}`;
  }
  return `${shape.type}: ${text || shape.id}`;
}

export function fieldLabel(field) {
  return `field: ${field.key}`;
}

// ---------------------------------------------------------------------------------------
// Undo and redo: snapshots of the whole model, as JSON text

export class History {
  /** At most `limit` steps back, and at most `maxChars` of snapshots in all. */
  constructor(limit = 200, maxChars = 100_000_000) {
    this.limit = limit;
    this.maxChars = maxChars;
    this.undoStack = [];
    this.redoStack = [];
  }

  get canUndo() {
    return this.undoStack.length > 0;
  }

  get canRedo() {
    return this.redoStack.length > 0;
  }

  /** Remembers the model as it was before a change (a document or its JSON). */
  record(before) {
    this.undoStack.push(typeof before === "string" ? before : JSON.stringify(before));
    this.redoStack.length = 0;
    this.trim();
  }

  /** The model one step back (a fresh object), given the current one; null when none. */
  undo(current) {
    if (!this.canUndo) return null;
    this.redoStack.push(JSON.stringify(current));
    return JSON.parse(this.undoStack.pop());
  }

  redo(current) {
    if (!this.canRedo) return null;
    this.undoStack.push(JSON.stringify(current));
    return JSON.parse(this.redoStack.pop());
  }

  clear() {
    this.undoStack.length = 0;
    this.redoStack.length = 0;
  }

  trim() {
    while (this.undoStack.length > this.limit) this.undoStack.shift();
    let size = 0;
    for (const s of this.undoStack) size += s.length;
    for (const s of this.redoStack) size += s.length;
    while (size > this.maxChars && this.undoStack.length > 1) size -= this.undoStack.shift().length;
  }
}
