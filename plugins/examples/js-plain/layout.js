// Plain text laid out as pages of the Quire document model (`quire/1`).
//
// Pure JavaScript with no WIT bindings, so it runs (and is tested) under Node too:
// `node --test plugins/examples/js-plain/`.
//
// Page: A4 (595.28 x 841.89 pt), 56.7 pt margins. Text: Courier 10 pt, line height 1.2
// (12 pt a line). Courier is monospaced, 0.6 em a character, so a line holds
// floor(481.88 / 6) = 80 characters and a page floor(728.49 / 12) = 60 lines.
//
// One text box per paragraph (lines between blank lines), its lines joined with `\n`, a
// hard break in the model. A line longer than 80 characters is wrapped here (at the last
// space that fits, else between characters), so every exporter draws exactly these lines.
// A paragraph that would run past the bottom margin is cut and continues in a new box at
// the top of the next page. A form feed (U+000C) starts a new page. Blank lines take a
// line of space and no box.
//
// Why paragraphs and not one box a line: the model leaves the component as one JSON
// string, and ComponentizeJS's generated bindings measure a returned string with a
// JavaScript loop over its UTF-16 units (about 2,800 fuel units each). Per-line boxes
// spend ~230 characters of JSON on every line; per-paragraph boxes keep the JSON close to
// the size of the text itself, which is what lets ~9.5 MB of prose fit the host's fuel
// (see MAX_MODEL_CHARS).
//
// Every loop walks the input once or a piece of it (the input is capped at MAX_INPUT_BYTES),
// and the page and shape counts are capped at the host's own limits. The heavy lifting is
// left to native string built-ins: see `clean`.

export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const MARGIN = 56.7;
export const FONT_SIZE = 10;
export const LINE_HEIGHT = 1.2;
export const CHAR_WIDTH = 0.6 * FONT_SIZE; // Courier: 600/1000 em for every glyph
export const LINE_STEP = FONT_SIZE * LINE_HEIGHT;
export const TAB_STOP = 8;

const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const COLUMNS = Math.floor(CONTENT_WIDTH / CHAR_WIDTH + 1e-9);
export const ROWS = Math.floor((PAGE_HEIGHT - 2 * MARGIN) / LINE_STEP + 1e-9);

export const MAX_INPUT_BYTES = 10 * 1024 * 1024;
// Longest model JSON returned, in UTF-16 code units. ComponentizeJS's bindings measure a
// returned string with a JavaScript loop (about 2,800 fuel units a code unit in this host),
// so 13 million units cost about 36e9 of the host's 50e9 fuel a call, leaving room for the
// rest of the import. Ordinary text makes about 1.3 units of JSON a byte; text full of `"`
// or `\` (escaped as two) can pass this before MAX_INPUT_BYTES does.
export const MAX_MODEL_CHARS = 13000000;
// The host's limits (plugins/sdk/src/validate.rs).
export const MAX_PAGES = 10000;
export const MAX_SHAPES = 500000;

/** Why the import did not happen: `tag` is the convert-error case, `val` its sentence. */
export class ConvertProblem extends Error {
  constructor(tag, val) {
    super(val);
    this.tag = tag;
    this.val = val;
  }
}

const BLANK = /^ *$/;

const round = (v) => Math.round(v * 100) / 100;

/** Decodes UTF-8 strictly (a BOM is dropped); throws `damaged` on an invalid sequence. */
export function decode(bytes) {
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new ConvertProblem(
      "too-large",
      `the text is ${bytes.length} bytes; this importer reads at most ${MAX_INPUT_BYTES} bytes (10 MiB)`,
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (e) {
    throw new ConvertProblem(
      "damaged",
      `the text is not valid UTF-8 (${firstBadByte(bytes)}); save it as UTF-8 and try again`,
    );
  }
}

/**
 * Where the first invalid UTF-8 sequence is, as a sentence fragment. A binary search over
 * prefixes decoded by the engine (streaming, so a sequence cut by the prefix is no error):
 * about 24 native decodes for 10 MiB, instead of a JavaScript loop over every byte.
 */
function firstBadByte(bytes) {
  const fails = (m) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, m), { stream: true });
      return false;
    } catch (e) {
      return true;
    }
  };
  let lo = 0; // prefix of lo bytes decodes
  let hi = bytes.length; // prefix of hi bytes fails (the caller saw the whole input fail)
  if (!fails(hi)) return "a sequence cut short at the end";
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fails(mid)) hi = mid;
    else lo = mid;
  }
  const line = new TextDecoder("utf-8").decode(bytes.subarray(0, lo)).split("\n").length;
  return `byte 0x${bytes[hi - 1].toString(16).padStart(2, "0")} at offset ${hi - 1}, line ${line}`;
}

// Control characters other than tab, line feed and form feed (kept for `layout`),
// including C1 controls and the Unicode line/paragraph separators: dropped.
const CONTROLS = /[\u0000-\u0008\u000b\u000d-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * The whole text made printable in a few passes of the engine's string built-ins: line
 * ends made `\n` (CRLF and CR too), other control characters dropped. Returns
 * `{ text, dropped }`.
 *
 * Inside a component the engine interprets JavaScript (there is no JIT in wasm), so a
 * JavaScript loop over characters costs thousands of wasm instructions a character against
 * the host's fuel budget (50e9 a call), and even a regular expression run once per line
 * costs tens of thousands. Native passes over the whole text cost a few instructions a
 * character: they do the work here, and the per-line loop in `layout` stays short.
 */
export function clean(text) {
  let out = text;
  if (out.indexOf("\r") !== -1) out = out.replace(/\r\n?/g, "\n");
  const before = out.length;
  out = out.replace(CONTROLS, "");
  return { text: out, dropped: before - out.length };
}

/** A line with its tabs expanded to stops of 8 columns. */
export function expandTabs(line) {
  const cells = line.split("\t");
  let out = cells[0];
  let col = columnCount(out);
  for (let k = 1; k < cells.length; k++) {
    const pad = TAB_STOP - (col % TAB_STOP);
    out += " ".repeat(pad) + cells[k];
    col += pad + columnCount(cells[k]);
  }
  return out;
}

/** A single line made printable (for tests and callers with one line). */
export function printable(line) {
  const { text, dropped } = clean(line);
  return { text: text.indexOf("\t") === -1 ? text : expandTabs(text), dropped };
}

const NON_SPACE = /[^ ]/g;

/**
 * Columns a string takes, counted in UTF-16 units: a character outside the BMP (an emoji)
 * counts as two. That wraps such lines a little early but never too late (exporters draw
 * it as one Courier cell, or a replacement mark), and it keeps the count native: counting
 * code points would go through the engine's self-hosted iterators, which run interpreted
 * and cost thousands of fuel units a character inside a component.
 */
function columnCount(s) {
  return s.length;
}

/**
 * Wraps one printable line at `width` columns: at the last space that fits (the spaces
 * there are dropped), else between characters (never inside a surrogate pair). Leading
 * spaces of the line are kept. Returns the pieces, at least one.
 */
export function wrap(line, width = COLUMNS) {
  const pieces = [];
  const n = line.length;
  let start = 0;
  // Each pass consumes at least one unit, so this ends after at most n passes. Searches
  // look only at a window of width + 1 units (native slice and lastIndexOf), so a line
  // costs in proportion to its length, whatever it holds.
  while (n - start > width) {
    // A space right after the first `width` units means they fit exactly.
    const window = line.slice(start, start + width + 1);
    let k = window.lastIndexOf(" ");
    // Back to the start of that run of spaces (at most `width` steps).
    while (k > 0 && window.charCodeAt(k - 1) === 32) k--;
    if (k <= 0) {
      // No space to break at (or only the line's indentation): break between characters.
      let end = start + width;
      const last = line.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff && width > 1) end -= 1;
      pieces.push(line.slice(start, end));
      start = end;
    } else {
      pieces.push(line.slice(start, start + k));
      NON_SPACE.lastIndex = start + k;
      const next = NON_SPACE.exec(line);
      start = next ? next.index : n;
    }
  }
  if (start < n || pieces.length === 0) pieces.push(line.slice(start));
  return pieces;
}

function textBox(id, row, lines) {
  return {
    type: "text",
    id,
    x: MARGIN,
    y: round(MARGIN + row * LINE_STEP),
    w: round(CONTENT_WIDTH),
    h: round(lines.length * LINE_STEP),
    runs: [{ text: lines.join("\n"), font: "courier", size: FONT_SIZE }],
    // align "left", valign "top" and line_height 1.2 are the model's defaults: left out,
    // every character of JSON costs fuel on the way out (see MAX_MODEL_CHARS).
  };
}

/**
 * Lays `text` out as a model document. Returns `{ model, warnings }`, `model` being the
 * JSON object (not yet serialized).
 */
export function layout(text, title) {
  const pages = [];
  let shapes = [];
  let row = 0; // next free line on the current page
  let para = []; // lines of the paragraph being gathered, not yet placed
  let paraRow = 0; // its first line
  let boxes = 0;
  let wrapped = 0;
  let dropped = 0;

  const flush = () => {
    if (para.length === 0) return;
    boxes += 1;
    if (boxes > MAX_SHAPES) {
      throw new ConvertProblem("too-large", `the text needs more than ${MAX_SHAPES} text boxes`);
    }
    shapes.push(textBox(`t${boxes}`, paraRow, para));
    para = [];
  };
  const newPage = () => {
    flush();
    pages.push({ width: PAGE_WIDTH, height: PAGE_HEIGHT, shapes });
    if (pages.length >= MAX_PAGES) {
      throw new ConvertProblem("too-large", `the text needs more than ${MAX_PAGES} pages`);
    }
    shapes = [];
    row = 0;
  };
  const addLine = (piece) => {
    if (row >= ROWS) newPage();
    if (para.length === 0) paraRow = row;
    para.push(piece);
    row += 1;
  };

  const cleaned = clean(text);
  dropped = cleaned.dropped;
  const hasTabs = cleaned.text.indexOf("\t") !== -1;

  // A form feed starts a new page: the text is cut into page runs first.
  const runs = cleaned.text.indexOf("\f") === -1 ? [cleaned.text] : cleaned.text.split("\f");
  for (let r = 0; r < runs.length; r++) {
    if (r > 0) newPage();
    const lines = runs[r].split("\n");
    // A form feed alone on its line, or a final line break, makes no line of its own.
    let first = 0;
    let end = lines.length;
    if (r > 0 && end > 1 && lines[0] === "") first = 1;
    if (end - first > 1 && lines[end - 1] === "") end -= 1;
    for (let i = first; i < end; i++) {
      let line = lines[i];
      if (hasTabs && line.indexOf("\t") !== -1) line = expandTabs(line);
      if (line.length === 0 || (line.charCodeAt(0) === 32 && line.trim() === "")) {
        // A blank line ends the paragraph and takes a line of space.
        flush();
        if (row >= ROWS) newPage();
        row += 1;
      } else if (line.length <= COLUMNS) {
        // At most 80 UTF-16 units is at most 80 columns.
        addLine(line);
      } else {
        const pieces = wrap(line);
        if (pieces.length > 1) wrapped += 1;
        for (const piece of pieces) addLine(piece);
      }
    }
  }
  flush();
  pages.push({ width: PAGE_WIDTH, height: PAGE_HEIGHT, shapes });

  const warnings = [];
  if (wrapped > 0) {
    warnings.push(`${wrapped} line(s) longer than ${COLUMNS} characters were wrapped`);
  }
  if (dropped > 0) {
    warnings.push(`${dropped} control character(s) were dropped`);
  }
  const model = { model: "quire/1", kind: "pdf" };
  if (title) model.title = title;
  model.pages = pages;
  return { model, warnings };
}

/** Bytes in, model JSON text out. */
export function importText(bytes, options) {
  let title = null;
  for (const [name, value] of options) {
    if (name === "title") {
      title = value.trim() || null;
    }
  }
  const text = decode(bytes);
  if (text.indexOf("\0") !== -1) {
    throw new ConvertProblem(
      "unsupported",
      "the file holds NUL characters: it looks like a binary file, not plain text",
    );
  }
  const { model, warnings } = layout(text, title);
  const json = JSON.stringify(model);
  if (json.length > MAX_MODEL_CHARS) {
    throw new ConvertProblem(
      "too-large",
      `this text makes a model of ${json.length} characters of JSON; this importer returns at most ${MAX_MODEL_CHARS}: split the file`,
    );
  }
  return { json, warnings };
}
