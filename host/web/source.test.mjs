import assert from "node:assert/strict";
import { test } from "node:test";

import { lineRange, placeOf } from "./source.js";

test("an importer's refusal is placed at its line and column", () => {
  assert.deepEqual(placeOf("line 3, column 7: expected a node after `-->`"), { line: 3, column: 7 });
  assert.equal(placeOf("the text is empty"), null);
});

test("a line is found by its number", () => {
  const text = "flowchart TD\n  A --> B\n  B -->\n";
  assert.deepEqual(lineRange(text, 1), { start: 0, end: 12 });
  assert.equal(text.slice(lineRange(text, 3).start, lineRange(text, 3).end), "  B -->");
  assert.deepEqual(lineRange(text, 9), { start: text.length, end: text.length });
});
