"""The text of a Quire document model (`quire/1`), page by page.

Pure Python with no WIT bindings, so it runs (and is tested) under a plain CPython too:
`python3 -m unittest discover -s plugins/examples/python-text`.

Reading order: the text of each page is the text of its text boxes (and the text inside
nodes, the labels of groups), top to bottom, then left to right for boxes that share a row.
Every loop below walks a list the host already bounded, and the walk over groups keeps an
explicit stack capped at the model's own nesting limit, so a hostile model cannot make this
code loop or recurse without end.
"""

import json
import math

MODEL_VERSION = "quire/1"

# The host's own limits (plugins/sdk/src/validate.rs); a model past them is refused here too.
MAX_MODEL_BYTES = 256 << 20
MAX_PAGES = 10_000
MAX_SHAPES = 500_000
MAX_GROUP_DEPTH = 64
# Text written out, at most; a larger result is `too-large`.
MAX_OUTPUT_CHARS = 64 << 20

DEFAULT_FONT_SIZE = 11.0
DEFAULT_LINE_HEIGHT = 1.2
# Blank lines written for one vertical gap, at most.
MAX_BLANK_LINES = 20

# Two boxes whose tops differ by less than this many points are one row (read left to right).
ROW_TOLERANCE = 2.0

SEPARATORS = {"formfeed": "\f\n", "blank": "\n"}


class ModelProblem(Exception):
    """The request cannot be answered; `kind` names the convert-error case."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


def _number(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ModelProblem("invalid-request", f"{where}: expected a finite number")
    return float(value)


def _line_height(text, where):
    """Points one line of a `Text` object takes: its largest run size times line_height."""
    largest = 0.0
    for i, run in enumerate(text.get("runs", [])):
        largest = max(largest, _number(run.get("size", DEFAULT_FONT_SIZE), f"{where}.runs[{i}].size"))
    factor = _number(text.get("line_height", DEFAULT_LINE_HEIGHT), f"{where}.line_height")
    return largest * factor


def _runs_text(text, where):
    """The plain text of a `Text` object (its runs joined), or None when it has none."""
    if not isinstance(text, dict):
        return None
    runs = text.get("runs", [])
    if not isinstance(runs, list):
        raise ModelProblem("invalid-request", f"{where}.runs: expected a list")
    parts = []
    for i, run in enumerate(runs):
        if not isinstance(run, dict) or not isinstance(run.get("text"), str):
            raise ModelProblem("invalid-request", f"{where}.runs[{i}].text: expected a string")
        parts.append(run["text"])
    joined = "".join(parts)
    return joined if joined.strip() else None


def page_boxes(page, where, budget):
    """(y, x, bottom, line height, text) of every box with text on a page, groups
    descended into.

    `budget` is a one-element list counting the shapes seen in the whole document.
    """
    shapes = page.get("shapes", [])
    if not isinstance(shapes, list):
        raise ModelProblem("invalid-request", f"{where}.shapes: expected a list")
    boxes = []
    # Explicit stack of (shapes, path, depth): no recursion, depth capped.
    stack = [(shapes, f"{where}.shapes", 0)]
    while stack:
        items, at, depth = stack.pop()
        if depth > MAX_GROUP_DEPTH:
            raise ModelProblem("invalid-request", f"{at}: groups nest deeper than {MAX_GROUP_DEPTH}")
        for i, shape in enumerate(items):
            here = f"{at}[{i}]"
            budget[0] += 1
            if budget[0] > MAX_SHAPES:
                raise ModelProblem("too-large", f"more than {MAX_SHAPES} shapes in the document")
            if not isinstance(shape, dict):
                raise ModelProblem("invalid-request", f"{here}: expected an object")
            kind = shape.get("type")
            text = None
            source, source_at = None, here
            if kind == "text":
                source = shape
            elif kind == "node":
                source, source_at = shape.get("text"), f"{here}.text"
            elif kind == "group":
                source, source_at = shape.get("label"), f"{here}.label"
                children = shape.get("children", [])
                if not isinstance(children, list):
                    raise ModelProblem("invalid-request", f"{here}.children: expected a list")
                stack.append((children, f"{here}.children", depth + 1))
            text = _runs_text(source, source_at)
            if text is not None:
                y = _number(shape.get("y"), f"{here}.y")
                x = _number(shape.get("x"), f"{here}.x")
                h = _number(shape.get("h", 0), f"{here}.h")
                boxes.append((y, x, y + h, _line_height(source, source_at), text))
    return boxes


def reading_order(boxes):
    """Sorts boxes top to bottom; boxes whose tops are within ROW_TOLERANCE form one row,
    read left to right. Returns the rows as (top, bottom, line height, texts)."""
    boxes = sorted(boxes, key=lambda b: (b[0], b[1]))
    rows = []
    row = []

    def close():
        texts = [b[4] for b in sorted(row, key=lambda b: b[1])]
        rows.append((row[0][0], max(b[2] for b in row), max(b[3] for b in row), texts))

    for box in boxes:
        if row and box[0] - row[0][0] >= ROW_TOLERANCE:
            close()
            row = []
        row.append(box)
    if row:
        close()
    return rows


def page_text(page, where, budget):
    """The text of one page. A vertical gap between rows becomes blank lines, one for each
    line height of the row below it that fits in the gap (rounded), so the blank lines of
    a plain text file survive a round trip and paragraphs of other documents stay apart."""
    lines = []
    bottom = None
    for top, row_bottom, line_height, texts in reading_order(page_boxes(page, where, budget)):
        if bottom is not None and line_height > 0:
            gap = top - bottom
            blanks = int(gap / line_height + 0.5) if gap > 0 else 0
            lines.extend([""] * min(blanks, MAX_BLANK_LINES))
        # Boxes on one row are separated by a space; a box's own `\n`s stay line breaks.
        lines.append(" ".join(t.rstrip("\n") for t in texts))
        bottom = row_bottom if bottom is None else max(bottom, row_bottom)
    return "\n".join(lines) + ("\n" if lines else "")


def parse_model(model_json):
    if len(model_json) > MAX_MODEL_BYTES:
        raise ModelProblem("too-large", f"the model is larger than {MAX_MODEL_BYTES >> 20} MiB")
    try:
        doc = json.loads(model_json)
    except (ValueError, RecursionError) as e:
        raise ModelProblem("invalid-request", f"the model is not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise ModelProblem("invalid-request", "the model must be a JSON object")
    if doc.get("model") != MODEL_VERSION:
        raise ModelProblem(
            "invalid-request",
            f"model: unknown model version `{doc.get('model')}`; this exporter reads `{MODEL_VERSION}`",
        )
    pages = doc.get("pages")
    if not isinstance(pages, list) or not pages:
        raise ModelProblem("invalid-request", "pages: a document needs at least one page")
    if len(pages) > MAX_PAGES:
        raise ModelProblem("too-large", f"pages: more than {MAX_PAGES} pages")
    for i, page in enumerate(pages):
        if not isinstance(page, dict):
            raise ModelProblem("invalid-request", f"pages[{i}]: expected an object")
    return doc


def document_text(model_json, page=None, separator="formfeed"):
    """The text of the document (or of its 1-based `page`), pages separated by a form feed
    (`separator="formfeed"`) or a blank line (`"blank"`). Returns (text, warnings)."""
    if separator not in SEPARATORS:
        raise ModelProblem(
            "invalid-request",
            f"option page-break: `{separator}` is not one of {', '.join(sorted(SEPARATORS))}",
        )
    doc = parse_model(model_json)
    pages = doc["pages"]
    if page is not None:
        if page < 1 or page > len(pages):
            raise ModelProblem(
                "invalid-request", f"page {page} does not exist; pages run from 1 to {len(pages)}"
            )
        chosen = [(page - 1, pages[page - 1])]
    else:
        chosen = list(enumerate(pages))
    budget = [0]
    texts = []
    size = 0
    empty = 0
    for index, p in chosen:
        text = page_text(p, f"pages[{index}]", budget)
        if not text:
            empty += 1
        size += len(text)
        if size > MAX_OUTPUT_CHARS:
            raise ModelProblem("too-large", f"the text is longer than {MAX_OUTPUT_CHARS} characters")
        texts.append(text)
    warnings = []
    if empty:
        warnings.append(f"{empty} page(s) hold no text (pictures and drawings are not written)")
    return SEPARATORS[separator].join(texts), warnings
