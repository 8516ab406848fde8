import assert from "node:assert/strict";
import { test } from "node:test";

import { datePattern, drawingValue, strokesOf } from "./form.js";

test("a drawing is posted rounded, and nothing when nothing is drawn", () => {
  assert.equal(drawingValue(300, 100, []), "");
  assert.equal(drawingValue(300, 100, [[]]), "");
  const posted = JSON.parse(drawingValue(300.04, 100, [[[1.04, 2.06], [3, 4]]]));
  assert.deepEqual(posted, { width: 300, height: 100, strokes: [[1, 2.1, 3, 4]] });
});

test("a drawing sent back is scaled to the pad it is drawn on again", () => {
  const value = JSON.stringify({ width: 200, height: 50, strokes: [[10, 20, 30, 40]] });
  assert.deepEqual(strokesOf(value, 400), [[[20, 40], [60, 80]]]);
  assert.deepEqual(strokesOf("not json", 400), []);
});

test("the date hint follows the locale's order", () => {
  assert.equal(datePattern("en-US"), "mm/dd/yyyy");
  assert.equal(datePattern("en-GB"), "dd/mm/yyyy");
  assert.equal(datePattern("de-DE"), "dd.mm.yyyy");
  assert.equal(datePattern("ja-JP"), "yyyy/mm/dd");
});
