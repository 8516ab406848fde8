// Tests of layout.js under Node (no component needed):
// node --test plugins/examples/js-plain/
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  COLUMNS,
  ROWS,
  MAX_INPUT_BYTES,
  ConvertProblem,
  importText,
  printable,
  wrap,
} from "./layout.js";

const enc = new TextEncoder();
const run = (text, options = []) => JSON.parse(importText(enc.encode(text), options).json);
const texts = (page) => page.shapes.map((s) => s.runs[0].text);

test("geometry: 80 columns, 60 rows", () => {
  assert.equal(COLUMNS, 80);
  assert.equal(ROWS, 60);
});

test("wraps at the last space that fits, else between characters", () => {
  assert.deepEqual(wrap("a".repeat(85)), ["a".repeat(80), "aaaaa"]);
  const words = "hello world ".repeat(10).trimEnd();
  for (const piece of wrap(words)) assert.ok(piece.length <= 80 && !piece.startsWith(" "));
  assert.deepEqual(wrap("  " + "x".repeat(80)), ["  " + "x".repeat(78), "xx"]);
  // Characters outside the BMP count as two columns and are never cut in half.
  const emoji = wrap("😀".repeat(81));
  assert.deepEqual(emoji.map((p) => p.length), [80, 80, 2]);
  assert.deepEqual(wrap("a" + "😀".repeat(40)).map((p) => p.length), [79, 2]);
});

test("tabs expand to stops of 8, control characters are dropped", () => {
  assert.deepEqual(printable("a\tbc\td\u0001e"), { text: "a       bc      de", dropped: 1 });
});

test("one box per paragraph, blank lines are space, a form feed starts a page", () => {
  const model = run("one\ntwo\n\nthree\r\n\ffour", [["title", "Notes"]]);
  assert.equal(model.model, "quire/1");
  assert.equal(model.title, "Notes");
  assert.equal(model.pages.length, 2);
  assert.deepEqual(texts(model.pages[0]), ["one\ntwo", "three"]);
  const [a, b] = model.pages[0].shapes;
  assert.equal(a.y, 56.7);
  assert.equal(a.h, 24);
  assert.equal(b.y, 56.7 + 36);
  assert.equal(a.runs[0].font, "courier");
  assert.equal(a.runs[0].size, 10);
  assert.deepEqual(texts(model.pages[1]), ["four"]);
});

test("a paragraph running past the page continues on the next one", () => {
  const model = run("line\n".repeat(130));
  assert.equal(model.pages.length, 3);
  assert.deepEqual(model.pages.map((p) => p.shapes[0].h), [720, 720, 120]);
  const ids = model.pages.flatMap((p) => p.shapes.map((s) => s.id));
  assert.equal(new Set(ids).size, ids.length);
});

test("an empty file is one empty page", () => {
  assert.deepEqual(run("").pages, [{ width: 595.28, height: 841.89, shapes: [] }]);
});

test("refuses non-UTF-8, binary and oversized input", () => {
  const refuse = (bytes, tag, words) => {
    assert.throws(
      () => importText(bytes, []),
      (e) => e instanceof ConvertProblem && e.tag === tag && e.val.includes(words),
    );
  };
  refuse(new Uint8Array([0x61, 0x0a, 0x62, 0xff]), "damaged", "offset 3, line 2");
  refuse(enc.encode("a\0b"), "unsupported", "NUL");
  refuse(new Uint8Array(MAX_INPUT_BYTES + 1), "too-large", "at most");
});

test("more pages than the host accepts is too-large", () => {
  assert.throws(
    () => importText(enc.encode("\f".repeat(10000)), []),
    (e) => e.tag === "too-large" && e.val.includes("10000 pages"),
  );
});

test("a model too long to return within the fuel budget is too-large", () => {
  const line = '"'.repeat(79) + "\n";
  const text = line.repeat(Math.floor(9e6 / line.length));
  assert.throws(
    () => importText(enc.encode(text), []),
    (e) => e.tag === "too-large" && e.val.includes("split the file"),
  );
});
