// Tests of the editor's pure model operations (model.js), no browser needed:
//   node --test host/web/
import { test } from "node:test";
import assert from "node:assert/strict";

import * as M from "./model.js";

/** A diagram: nodes a and b joined by connector c1, a group g holding node inner. */
function diagram() {
  return {
    model: "quire/1",
    kind: "diagram",
    pages: [
      {
        width: 600,
        height: 400,
        shapes: [
          {
            type: "node",
            id: "a",
            x: 10,
            y: 20,
            w: 100,
            h: 40,
            geometry: "rect",
            text: { runs: [{ text: "Start", size: 14, bold: true, font: "times", color: "#ff0000" }], align: "center", valign: "middle", line_height: 1.2 },
          },
          { type: "node", id: "b", x: 300, y: 20, w: 100, h: 40 },
          { type: "connector", id: "c1", from: { shape: "a" }, to: { shape: "b", head: "arrow" }, waypoints: [{ x: 200, y: 5 }] },
          { type: "connector", id: "loose", from: { point: { x: 1, y: 2 } }, to: { shape: "b" } },
          {
            type: "group",
            id: "g",
            x: 50,
            y: 150,
            w: 300,
            h: 200,
            label: { runs: [{ text: "Lane", size: 10 }], align: "left", valign: "top", line_height: 1.2 },
            children: [
              { type: "node", id: "inner", x: 60, y: 200, w: 80, h: 30 },
              { type: "text", id: "t", x: 70, y: 300, w: 100, h: 20, runs: [{ text: "Note", size: 9, italic: true }], align: "left", valign: "top", line_height: 1.2 },
              { type: "path", id: "p", segments: [{ op: "move_to", x: 60, y: 160 }, { op: "cubic_to", x1: 61, y1: 161, x2: 62, y2: 162, x: 63, y: 163 }, { op: "close" }] },
              { type: "connector", id: "c2", from: { shape: "inner" }, to: { shape: "t" } },
            ],
          },
        ],
      },
      { width: 200, height: 100, shapes: [{ type: "node", id: "far", x: 0, y: 0, w: 10, h: 10 }] },
    ],
  };
}

/** A one-page PDF form with two fields. */
function form() {
  return {
    model: "quire/1",
    kind: "pdf",
    pages: [
      { width: 612, height: 792, shapes: [] },
      { width: 300, height: 200, shapes: [] },
    ],
    fields: [
      { key: "name", type: "text", label: "Name", required: true, page: 1, x: 72, y: 100, w: 200, h: 20 },
      { key: "colour", type: "radio", label: "Colour", required: false, page: 1, x: 72, y: 140, w: 12, h: 12, options: ["Red", "Blue"] },
    ],
  };
}

const shape = (doc, id) => M.findShape(doc, id).shape;

// --- moving and resizing ---------------------------------------------------------------

test("moveShape moves a node's frame and keeps its size", () => {
  const doc = diagram();
  assert.equal(M.moveShape(doc, "a", 15, -5), true);
  assert.deepEqual(M.frameOf(shape(doc, "a")), { x: 25, y: 15, w: 100, h: 40 });
});

test("moving a node keeps connectors attached and leaves loose points and waypoints alone", () => {
  const doc = diagram();
  const before = JSON.stringify(shape(doc, "c1"));
  const loose = JSON.stringify(shape(doc, "loose"));
  M.moveShape(doc, "b", 50, 60);
  assert.equal(JSON.stringify(shape(doc, "c1")), before);
  assert.equal(JSON.stringify(shape(doc, "loose")), loose);
  assert.equal(shape(doc, "c1").to.shape, "b");
  // The overlay line follows b, and stops at the edges of both nodes (never over their
  // text): a leaves at its right edge toward the waypoint, b is reached at its top edge.
  const pts = M.connectorPoints(M.shapeIndex(doc.pages[0]), shape(doc, "c1"));
  assert.deepEqual(pts[0], { x: 110, y: 27.5 });
  assert.deepEqual(pts[1], { x: 200, y: 5 });
  const end = pts[pts.length - 1];
  assert.equal(end.y, 80);
  assert.ok(Math.abs(end.x - (400 - (200 * 20) / 95)) < 1e-9, JSON.stringify(end));
  // A line between two nodes side by side runs only in the gap between them.
  const gap = M.toEdge({ x: 0, y: 0, w: 100, h: 40 }, { x: 300, y: 20 });
  assert.deepEqual(gap, { x: 100, y: 20 });
  assert.deepEqual(M.toEdge({ x: 0, y: 0, w: 100, h: 40 }, { x: 50, y: 20 }), { x: 50, y: 20 });
});

test("moving a group moves its children's own frames and paths, not its connectors", () => {
  const doc = diagram();
  const c2 = JSON.stringify(shape(doc, "c2"));
  M.moveShape(doc, "g", 10, 20);
  assert.deepEqual(M.frameOf(shape(doc, "g")), { x: 60, y: 170, w: 300, h: 200 });
  assert.deepEqual(M.frameOf(shape(doc, "inner")), { x: 70, y: 220, w: 80, h: 30 });
  assert.deepEqual(M.frameOf(shape(doc, "t")), { x: 80, y: 320, w: 100, h: 20 });
  assert.deepEqual(shape(doc, "p").segments[1], { op: "cubic_to", x1: 71, y1: 181, x2: 72, y2: 182, x: 73, y: 183 });
  assert.equal(JSON.stringify(shape(doc, "c2")), c2);
  // Nothing outside the group moved.
  assert.deepEqual(M.frameOf(shape(doc, "a")), { x: 10, y: 20, w: 100, h: 40 });
});

test("a shape inside a group moves alone", () => {
  const doc = diagram();
  M.moveShape(doc, "inner", 5, 5);
  assert.deepEqual(M.frameOf(shape(doc, "inner")), { x: 65, y: 205, w: 80, h: 30 });
  assert.deepEqual(M.frameOf(shape(doc, "g")), { x: 50, y: 150, w: 300, h: 200 });
});

test("moves round away float noise and connectors cannot be moved", () => {
  const doc = diagram();
  M.moveShape(doc, "a", 0.1, 0.2);
  M.moveShape(doc, "a", 0.2, 0.1);
  assert.equal(shape(doc, "a").x, 10.3);
  assert.equal(shape(doc, "a").y, 20.3);
  assert.equal(M.moveShape(doc, "c1", 5, 5), false);
  assert.equal(M.moveShape(doc, "nope", 5, 5), false);
});

test("resizeRect drags each handle and keeps the opposite edges", () => {
  const r = { x: 100, y: 100, w: 50, h: 40 };
  assert.deepEqual(M.resizeRect(r, "se", 10, 20), { x: 100, y: 100, w: 60, h: 60 });
  assert.deepEqual(M.resizeRect(r, "nw", 10, 20), { x: 110, y: 120, w: 40, h: 20 });
  assert.deepEqual(M.resizeRect(r, "n", 99, -10), { x: 100, y: 90, w: 50, h: 50 });
  assert.deepEqual(M.resizeRect(r, "e", -5, 99), { x: 100, y: 100, w: 45, h: 40 });
  assert.deepEqual(M.resizeRect(r, "w", -10, 0), { x: 90, y: 100, w: 60, h: 40 });
  assert.deepEqual(M.resizeRect(r, "sw", 5, 5), { x: 105, y: 100, w: 45, h: 45 });
  assert.deepEqual(M.resizeRect(r, "ne", 5, 5), { x: 100, y: 105, w: 55, h: 35 });
});

test("resizing never goes below 4 pt and never flips", () => {
  const r = { x: 100, y: 100, w: 50, h: 40 };
  assert.deepEqual(M.resizeRect(r, "se", -500, -500), { x: 100, y: 100, w: 4, h: 4 });
  assert.deepEqual(M.resizeRect(r, "nw", 500, 500), { x: 146, y: 136, w: 4, h: 4 });
  const doc = diagram();
  assert.equal(M.setShapeFrame(doc, "a", M.resizeRect(M.frameOf(shape(doc, "a")), "s", 0, -100)), true);
  assert.equal(shape(doc, "a").h, M.MIN_SIZE);
});

// --- adding and deleting ----------------------------------------------------------------

test("addNode adds a rounded 120x48 'New node' with an unused id at a free spot of page 1", () => {
  const doc = diagram();
  const id = M.addNode(doc);
  assert.equal(id, "n1");
  const n = shape(doc, id);
  assert.equal(M.findShape(doc, id).page, 0);
  assert.equal(n.type, "node");
  assert.equal(n.geometry, "rounded");
  assert.deepEqual([n.w, n.h], [120, 48]);
  assert.equal(M.plainText(n.text), "New node");
  const frames = [];
  for (const { shape: s } of M.walk(doc.pages[0].shapes)) if (M.hasFrame(s) && s.id !== id) frames.push(s);
  assert.ok(!frames.some((f) => M.intersects(f, n)), "the new node overlaps nothing");
  assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.w <= 600 && n.y + n.h <= 400);
  // Ids stay unique, whatever shapes already use.
  doc.pages[1].shapes.push({ type: "node", id: "n2", x: 0, y: 0, w: 1, h: 1 });
  assert.equal(M.addNode(doc), "n3");
});

test("addConnector attaches both ends by id with an arrow head", () => {
  const doc = diagram();
  const id = M.addConnector(doc, "a", "inner");
  const c = shape(doc, id);
  assert.deepEqual(c, { type: "connector", id, from: { shape: "a" }, to: { shape: "inner", head: "arrow" } });
  assert.ok(!["c1", "c2"].includes(id));
  assert.throws(() => M.addConnector(doc, "a", "a"));
  assert.throws(() => M.addConnector(doc, "a", "far"), /same page/);
  assert.throws(() => M.addConnector(doc, "a", "missing"));
});

test("deleting a node deletes the connectors attached to it, and only those", () => {
  const doc = diagram();
  const removed = M.deleteShape(doc, "b");
  assert.deepEqual(removed.sort(), ["b", "c1", "loose"]);
  assert.equal(M.findShape(doc, "b"), null);
  assert.equal(M.findShape(doc, "c1"), null);
  assert.ok(M.findShape(doc, "a"));
  assert.ok(M.findShape(doc, "c2"));
});

test("deleting a group deletes its children and connectors attached to them anywhere", () => {
  const doc = diagram();
  M.addConnector(doc, "a", "inner");
  const removed = M.deleteShape(doc, "g");
  for (const id of ["g", "inner", "t", "p", "c2", "c3"]) assert.ok(removed.includes(id), id);
  assert.ok(M.findShape(doc, "c1"), "c1 joins a and b, which stay");
});

test("deleting a connector leaves its nodes", () => {
  const doc = diagram();
  assert.deepEqual(M.deleteShape(doc, "c1"), ["c1"]);
  assert.ok(M.findShape(doc, "a") && M.findShape(doc, "b"));
  assert.deepEqual(M.deleteShape(doc, "c1"), []);
});

test("a connector attached to a deleted connector goes too", () => {
  const doc = diagram();
  doc.pages[0].shapes.push({ type: "connector", id: "meta", from: { shape: "c1" }, to: { point: { x: 0, y: 0 } } });
  const removed = M.deleteShape(doc, "a");
  assert.deepEqual(removed.sort(), ["a", "c1", "meta"]);
});

// --- text --------------------------------------------------------------------------------

test("setShapeText replaces a node's runs with one run keeping the first run's style", () => {
  const doc = diagram();
  shape(doc, "a").text.runs.push({ text: " more", size: 8 });
  assert.equal(M.setShapeText(doc, "a", "Begin\nhere"), true);
  assert.deepEqual(shape(doc, "a").text.runs, [{ text: "Begin\nhere", size: 14, bold: true, font: "times", color: "#ff0000" }]);
  assert.equal(shape(doc, "a").text.align, "center");
});

test("setShapeText edits text boxes, group labels and connector labels", () => {
  const doc = diagram();
  M.setShapeText(doc, "t", "Changed\r\nnote");
  assert.deepEqual(shape(doc, "t").runs, [{ text: "Changed\nnote", size: 9, italic: true }]);
  M.setShapeText(doc, "g", "Swimlane");
  assert.equal(M.plainText(shape(doc, "g").label), "Swimlane");
  assert.equal(shape(doc, "g").label.runs[0].size, 10);
  M.setShapeText(doc, "c1", "yes");
  assert.equal(M.plainText(shape(doc, "c1").label), "yes");
  M.setShapeText(doc, "b", "B");
  assert.equal(M.plainText(shape(doc, "b").text), "B");
  // Empty text drops a label rather than leaving an empty one.
  assert.equal(M.setShapeText(doc, "c1", ""), true);
  assert.equal(shape(doc, "c1").label, undefined);
  assert.equal(M.setShapeText(doc, "t", "Changed\nnote"), false, "same text is no change");
  assert.equal(M.setShapeText(doc, "p", "paths have no text"), false);
});

// --- fields -----------------------------------------------------------------------------

test("addField fills defaults, picks an unused key and clamps the box inside its page", () => {
  const doc = form();
  doc.fields.push({ key: "field_1", type: "text", label: "", required: false, page: 1, x: 0, y: 0, w: 10, h: 10 });
  const i = M.addField(doc, { page: 2, x: 250, y: -30, w: 100, h: 20 });
  const f = doc.fields[i];
  assert.equal(f.key, "field_2");
  assert.equal(f.type, "text");
  assert.equal(f.page, 2);
  assert.equal(f.options, undefined);
  assert.deepEqual(M.frameOf(f), { x: 200, y: 0, w: 100, h: 20 });
  assert.throws(() => M.addField(doc, { page: 3, x: 0, y: 0, w: 10, h: 10 }));
});

test("clampRect keeps boxes inside the page, shrinking those larger than it", () => {
  assert.deepEqual(M.clampRect({ x: -5, y: 790, w: 50, h: 20 }, 612, 792), { x: 0, y: 772, w: 50, h: 20 });
  assert.deepEqual(M.clampRect({ x: 10, y: 10, w: 1000, h: 2 }, 612, 792), { x: 0, y: 10, w: 612, h: 4 });
  assert.deepEqual(M.clampRect({ x: 600, y: 10, w: 50, h: 20 }, 612, 792), { x: 562, y: 10, w: 50, h: 20 });
});

test("moving a field keeps it inside its page", () => {
  const doc = form();
  assert.equal(M.moveField(doc, 0, 10000, -10000), true);
  assert.deepEqual(M.frameOf(doc.fields[0]), { x: 412, y: 0, w: 200, h: 20 });
  assert.equal(M.moveField(doc, 0, 1, -1), false, "already in the corner");
  M.setFieldFrame(doc, 0, { x: 10, y: 10, w: 5000, h: 20 });
  assert.deepEqual(M.frameOf(doc.fields[0]), { x: 0, y: 10, w: 612, h: 20 });
});

test("resizing a field past the page edge stops that edge and keeps the opposite one", () => {
  const doc = form(); // field 0: x 72, y 100, 200 x 20 on a 612 x 792 page
  const sel = { kind: "field", index: 0 };
  const orig = M.frameOf(doc.fields[0]);
  assert.equal(M.resizeSelection(doc, sel, orig, "nw", -5000, -5000), true);
  assert.deepEqual(M.frameOf(doc.fields[0]), { x: 0, y: 0, w: 272, h: 120 });
  M.resizeSelection(doc, sel, orig, "se", 5000, 5000);
  assert.deepEqual(M.frameOf(doc.fields[0]), { x: 72, y: 100, w: 540, h: 692 });
  M.resizeSelection(doc, sel, orig, "e", -5000, 0);
  assert.deepEqual(M.frameOf(doc.fields[0]), { x: 72, y: 100, w: 4, h: 20 });
  // Alt+arrows grow from the bottom right and stop at the page edge too.
  const f = form();
  f.fields[0].x = 600;
  f.fields[0].w = 10;
  M.resizeBy(f, sel, 10, 0);
  assert.deepEqual(M.frameOf(f.fields[0]), { x: 600, y: 100, w: 12, h: 20 });
  // Shapes are not clamped.
  const d = diagram();
  M.resizeSelection(d, { kind: "shape", id: "a" }, M.frameOf(shape(d, "a")), "nw", -50, -50);
  assert.deepEqual(M.frameOf(shape(d, "a")), { x: -40, y: -30, w: 150, h: 90 });
});

test("clampEdges keeps the minimum size at the page edge", () => {
  assert.deepEqual(M.clampEdges({ x: 700, y: 10, w: 20, h: 20 }, 612, 792), { x: 608, y: 10, w: 4, h: 20 });
  assert.deepEqual(M.clampEdges({ x: -50, y: -50, w: 20, h: 20 }, 612, 792), { x: 0, y: 0, w: 4, h: 4 });
});

/** The field rules as GET /d/{id}/model sends them today (the server's schema of a placed
 *  field); the tests feed them in as the editor does. */
const SENT_RULES = { key: { pattern: "\\S", max_length: 200 }, label: { max_length: 2000 }, options: { max_items: 500 } };
const RULES = M.fieldRules(SENT_RULES);
const KEY_RULE = RULES.key;
const keyRule = (pattern, maxLength) => M.fieldRules({ ...SENT_RULES, key: { pattern, max_length: maxLength } })?.key ?? null;

test("applyField edits key, type, label, required and options", () => {
  const doc = form();
  const err = M.applyField(doc, 0, { key: "full.name", type: "select", label: "Full name", required: false, options: ["A", "B"] }, RULES);
  assert.equal(err, null);
  assert.deepEqual(doc.fields[0], {
    key: "full.name",
    type: "select",
    label: "Full name",
    required: false,
    page: 1,
    x: 72,
    y: 100,
    w: 200,
    h: 20,
    options: ["A", "B"],
  });
  // A type that chooses nothing carries no options.
  assert.equal(M.applyField(doc, 0, { key: "full.name", type: "email", label: "", required: true, options: ["A"] }, RULES), null);
  assert.equal(doc.fields[0].options, undefined);
  assert.equal(doc.fields[0].type, "email");
});

test("applyField refuses bad keys, choosing types without options and clashing questions", () => {
  const doc = form();
  const before = JSON.stringify(doc);
  const base = { key: "ok", type: "text", label: "", required: false, options: [] };
  for (const key of ["", "   ", "x".repeat(201)]) {
    assert.match(M.applyField(doc, 0, { ...base, key }, RULES), /key/i, key);
  }
  assert.equal(JSON.stringify(doc), before);
  assert.match(M.applyField(doc, 0, { ...base, type: "radio", options: [] }, RULES), /option/);
  assert.match(M.applyField(doc, 0, { ...base, type: "nonsense" }, RULES), /type/);
  assert.match(M.applyField(doc, 0, { ...base, key: "colour" }, RULES), /already a radio question/);
  assert.equal(M.applyField(doc, 0, { ...base, key: "colour", type: "radio", options: ["Red", "Blue"] }, RULES), null);
  assert.notEqual(JSON.stringify(doc), before);
});

test("a field key follows the server's rule, not a stricter one of the editor's", () => {
  // Keys the server's placed-field schema takes: any text with a non-space in it, up to
  // 200 characters counted as the server counts them (code points, not UTF-16 units).
  for (const key of ["1abc", "has space", "a/b", "_x", "Name (as on your passport)", "名前", "x".repeat(200), "😀".repeat(200)]) {
    assert.equal(M.keyProblem(key, KEY_RULE), null, key);
  }
  assert.match(M.keyProblem("", KEY_RULE), /required/);
  assert.match(M.keyProblem(" \t", KEY_RULE), /required/);
  assert.match(M.keyProblem("x".repeat(201), KEY_RULE), /longer than 200/);
  assert.match(M.keyProblem("😀".repeat(201), KEY_RULE), /longer than 200/);
  // Another rule from the server is followed as sent: the pattern is not anchored.
  const digits = keyRule("^[0-9]+$", 3);
  assert.equal(M.keyProblem("123", digits), null);
  assert.match(M.keyProblem("12a", digits), /pattern \^\[0-9\]\+\$/);
  assert.ok(M.keyProblem("1234", digits));
  assert.equal(M.keyProblem("a1", keyRule("[0-9]", 3)), null);
  assert.equal(M.fieldRules(undefined), null);
  assert.equal(M.fieldRules(null), null);
  assert.equal(keyRule("\\S", undefined), null);
  assert.equal(keyRule("(", 3), null);
  assert.equal(M.fieldRules({ key: SENT_RULES.key, label: SENT_RULES.label }), null);
});

test("a label and a field's options follow the server's limits, counted as the server counts", () => {
  const doc = form();
  const base = { key: "ok", type: "text", label: "", required: false, options: [] };
  // 2000 characters, though 4000 UTF-16 units: the server takes it.
  assert.equal(M.applyField(doc, 0, { ...base, label: "😀".repeat(2000) }, RULES), null);
  assert.match(M.applyField(doc, 0, { ...base, label: "x".repeat(2001) }, RULES), /longer than 2000/);
  const many = (n) => Array.from({ length: n }, (_, i) => `option ${i}`);
  assert.equal(M.applyField(doc, 0, { ...base, type: "select", options: many(500) }, RULES), null);
  assert.match(M.applyField(doc, 0, { ...base, type: "select", options: many(501) }, RULES), /at most 500/);
  const strict = M.fieldRules({ ...SENT_RULES, label: { max_length: 3 }, options: { max_items: 1 } });
  assert.match(M.applyField(doc, 0, { ...base, label: "four" }, strict), /longer than 3/);
  assert.match(M.applyField(doc, 0, { ...base, type: "select", options: ["a", "b"] }, strict), /at most 1/);
});

test("changing the type of a question changes every box of its key", () => {
  const doc = form();
  doc.fields.push({ key: "colour", type: "radio", label: "", required: false, page: 2, x: 0, y: 0, w: 12, h: 12, options: ["Red", "Blue"] });
  assert.equal(M.applyField(doc, 1, { key: "colour", type: "select", label: "Colour", required: false, options: ["Green"] }, RULES), null);
  assert.deepEqual(doc.fields.map((f) => [f.type, f.options]), [["text", undefined], ["select", ["Green"]], ["select", ["Green"]]]);
});

test("deleteField removes the box and drops an empty fields list", () => {
  const doc = form();
  assert.equal(M.deleteField(doc, 0).key, "name");
  assert.deepEqual(doc.fields.map((f) => f.key), ["colour"]);
  assert.equal(M.deleteField(doc, 5), null);
  M.deleteField(doc, 0);
  assert.equal("fields" in doc, false);
});

test("parseOptions reads one option a line, trimmed, without blanks or repeats", () => {
  assert.deepEqual(M.parseOptions(" Yes \r\n\nNo\nYes\n  "), ["Yes", "No"]);
  assert.deepEqual(M.parseOptions(""), []);
});

test("unusedFieldKey picks the first free field_<n>", () => {
  const doc = form();
  assert.equal(M.unusedFieldKey(doc), "field_1");
  doc.fields[0].key = "field_1";
  assert.equal(M.unusedFieldKey(doc), "field_2");
  assert.equal(M.unusedFieldKey({ pages: [] }), "field_1");
});

// --- keyboard ---------------------------------------------------------------------------

test("nudge moves shapes and fields; fields stop at the page edge", () => {
  const doc = diagram();
  assert.equal(M.nudge(doc, { kind: "shape", id: "a" }, 1, 0), true);
  assert.equal(M.nudge(doc, { kind: "shape", id: "a" }, 0, -10), true);
  assert.deepEqual(M.frameOf(shape(doc, "a")), { x: 11, y: 10, w: 100, h: 40 });
  const f = form();
  f.fields[0].x = 405;
  assert.equal(M.nudge(f, { kind: "field", index: 0 }, 10, 0), true);
  assert.equal(f.fields[0].x, 412);
  assert.equal(M.nudge(f, { kind: "field", index: 0 }, 10, 0), false);
  assert.equal(M.nudge(doc, null, 1, 1), false);
});

test("resizeBy grows from the bottom right and keeps the minimum size", () => {
  const doc = diagram();
  M.resizeBy(doc, { kind: "shape", id: "a" }, 10, -100);
  assert.deepEqual(M.frameOf(shape(doc, "a")), { x: 10, y: 20, w: 110, h: 4 });
});

test("sameSelection: a shape by id, a field by index, nothing only as nothing", () => {
  const shape = (id) => ({ kind: "shape", id });
  const field = (index) => ({ kind: "field", index });
  assert.equal(M.sameSelection(shape("a"), shape("a")), true);
  assert.equal(M.sameSelection(shape("a"), shape("b")), false);
  assert.equal(M.sameSelection(field(0), field(0)), true);
  assert.equal(M.sameSelection(field(0), field(1)), false);
  // A shape and a field never match, even where an id and an index would.
  assert.equal(M.sameSelection({ kind: "shape", id: 0 }, field(0)), false);
  assert.equal(M.sameSelection(field(0), { kind: "shape", index: 0 }), false);
  // Clearing no selection is no change; nothing never marks an item selected.
  assert.equal(M.sameSelection(null, null), true);
  assert.equal(M.sameSelection(null, undefined), true);
  assert.equal(M.sameSelection(null, shape("a")), false);
  assert.equal(M.sameSelection(field(0), undefined), false);
});

test("selections: page, frame, existence, delete", () => {
  const doc = diagram();
  assert.equal(M.selectionPage(doc, { kind: "shape", id: "far" }), 1);
  assert.equal(M.selectionFrame(doc, { kind: "shape", id: "c1" }), null);
  assert.equal(M.selectionExists(doc, { kind: "shape", id: "nope" }), false);
  assert.deepEqual(M.deleteSelection(doc, { kind: "shape", id: "a" }).sort(), ["a", "c1"]);
  const f = form();
  assert.deepEqual(M.deleteSelection(f, { kind: "field", index: 1 }), []);
  assert.equal(M.deleteSelection(f, { kind: "field", index: 1 }), null);
});

test("labels for assistive technology name the type and the text", () => {
  const doc = diagram();
  const index = M.shapeIndex(doc.pages[0]);
  assert.equal(M.shapeLabel(shape(doc, "a"), index), "node: Start");
  assert.equal(M.shapeLabel(shape(doc, "b"), index), "node: b");
  assert.equal(M.shapeLabel(shape(doc, "c1"), index), "connector: Start → b");
  assert.equal(M.shapeLabel(shape(doc, "g"), index), "group: Lane");
  assert.equal(M.fieldLabel(form().fields[0]), "field: name");
});

// --- undo and redo ----------------------------------------------------------------------

test("undo and redo walk the snapshots; a new change clears redo", () => {
  const h = new M.History();
  let doc = diagram();
  h.record(doc);
  M.moveShape(doc, "a", 100, 0);
  h.record(doc);
  M.deleteShape(doc, "b");
  assert.equal(h.canUndo, true);
  assert.equal(h.canRedo, false);

  doc = h.undo(doc);
  assert.ok(M.findShape(doc, "b"), "b is back");
  assert.equal(shape(doc, "a").x, 110);
  doc = h.undo(doc);
  assert.equal(shape(doc, "a").x, 10);
  assert.equal(h.undo(doc), null, "nothing more to undo");

  doc = h.redo(doc);
  assert.equal(shape(doc, "a").x, 110);
  assert.equal(h.canRedo, true);
  h.record(doc);
  M.moveShape(doc, "a", 1, 0);
  assert.equal(h.canRedo, false);
  assert.equal(h.redo(doc), null);
});

test("undo snapshots are copies: later edits do not change them", () => {
  const h = new M.History();
  const doc = diagram();
  h.record(doc);
  M.setShapeText(doc, "a", "Changed");
  const back = h.undo(doc);
  assert.equal(M.plainText(back.pages[0].shapes[0].text), "Start");
  assert.notEqual(back, doc);
});

test("history is bounded", () => {
  const h = new M.History(200);
  const doc = { model: "quire/1", kind: "pdf", pages: [{ width: 1, height: 1, shapes: [] }], n: 0 };
  for (let i = 0; i < 250; i++) {
    doc.n = i;
    h.record(doc);
  }
  assert.equal(h.undoStack.length, 200);
  let cur = { ...doc, n: 250 };
  let steps = 0;
  for (let back; (back = h.undo(cur)); steps++) cur = back;
  assert.equal(steps, 200);
  assert.equal(cur.n, 50, "the oldest snapshots were dropped");
  const small = new M.History(200, 50);
  for (let i = 0; i < 10; i++) small.record("x".repeat(20));
  assert.ok(small.undoStack.length <= 3);
});

test("text that no longer fits grows its box: a node around its centre, a text box down", () => {
  const doc = diagram();
  // Every character is 6 units wide in this measure.
  const measure = (s) => s.length * 6;
  // "Start" fits a 100 x 40 node: nothing moves.
  assert.equal(M.fitText(doc, "a", measure), false);
  // Four lines of 14 px text need 4 x 16.8 + 8 = 75.2 units: taller, around the centre.
  M.setShapeText(doc, "a", "one\ntwo\nthree\nfour");
  assert.equal(M.fitText(doc, "a", measure), true);
  const a = shape(doc, "a");
  assert.deepEqual(M.frameOf(a), { x: 10, y: 2.4, w: 100, h: 75.2 });
  assert.deepEqual(M.center(a), { x: 60, y: 40 });
  // A word longer than the node widens it.
  M.setShapeText(doc, "a", "Supercalifragilistic");
  assert.equal(M.fitText(doc, "a", measure), true);
  assert.equal(shape(doc, "a").w, 128);
  // A text box keeps its top and wraps at its width, word by word: 3 lines of 12 x 1.2.
  const text = { type: "text", id: "t2", x: 0, y: 100, w: 60, h: 10, runs: [{ text: "", size: 12 }] };
  doc.pages[0].shapes.push(text);
  M.setShapeText(doc, "t2", "aaaaaa bbbbbb cccccc");
  assert.equal(M.fitText(doc, "t2", measure), true);
  assert.deepEqual(M.frameOf(shape(doc, "t2")), { x: 0, y: 100, w: 60, h: 43.2 });
});
