// The public form page's one script (public.rs). Without it the page works as plain HTML:
// a signature is a typed name, a date a date box. With it:
// - each signature question gets a pad to draw on with a finger, pen or mouse; the strokes
//   travel as `d.<key>` (JSON {width, height, strokes}) beside the typed name;
// - the date hint names the order the browser's date box shows (mm/dd/yyyy in the US,
//   dd/mm/yyyy in much of the world), which only the browser knows.

/** Points closer than this (in CSS pixels) to the last one kept add nothing to the ink. */
const MIN_STEP = 1.5;
/** The server keeps at most 5000 points; the pad stops taking ink there. */
const MOST_POINTS = 5000;

/** A stroke's points, rounded to a tenth of a pixel, as the server keeps them. */
export function flat(points) {
  return points.flatMap(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
}

/** What the pad posts: empty when nothing is drawn. */
export function drawingValue(width, height, strokes) {
  const kept = strokes.filter((s) => s.length > 0);
  if (kept.length === 0) return "";
  return JSON.stringify({
    width: Math.round(width * 10) / 10,
    height: Math.round(height * 10) / 10,
    strokes: kept.map(flat),
  });
}

/** The strokes of a posted drawing, scaled to a pad of `width` (a page sent back after
 *  a problem keeps what was drawn, even if the window changed size). */
export function strokesOf(value, width) {
  try {
    const drawing = JSON.parse(value);
    const scale = width / drawing.width;
    return drawing.strokes.map((s) => {
      const points = [];
      for (let i = 0; i + 1 < s.length; i += 2) points.push([s[i] * scale, s[i + 1] * scale]);
      return points;
    });
  } catch {
    return [];
  }
}

/** The order a date box shows its parts in, e.g. "mm/dd/yyyy", for a locale. */
export function datePattern(locale) {
  const parts = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(new Date(2026, 0, 31));
  const names = { year: "yyyy", month: "mm", day: "dd" };
  return parts.map((p) => names[p.type] ?? p.value).join("");
}

function signaturePad(box) {
  const canvas = box.querySelector("canvas");
  const input = box.querySelector("input[type=hidden]");
  const context = canvas.getContext("2d");
  let strokes = [];
  let current = null;
  let size = { width: 0, height: 0 };

  const points = () => strokes.reduce((n, s) => n + s.length, 0);
  const paint = () => {
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.lineWidth = 2;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#1a237e";
    for (const stroke of strokes) {
      context.beginPath();
      stroke.forEach(([x, y], i) => (i === 0 ? context.moveTo(x, y) : context.lineTo(x, y)));
      if (stroke.length === 1) context.lineTo(stroke[0][0] + 0.5, stroke[0][1]);
      context.stroke();
    }
  };
  const save = () => {
    input.value = drawingValue(size.width, size.height, strokes);
  };
  // The canvas is drawn at the screen's own pixel density, in CSS pixel units.
  const fit = () => {
    const rect = canvas.getBoundingClientRect();
    if (rect.width === 0) return;
    if (size.width && rect.width !== size.width) {
      const scale = rect.width / size.width;
      strokes = strokes.map((s) => s.map(([x, y]) => [x * scale, y * scale]));
    }
    size = { width: rect.width, height: rect.height };
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(rect.width * ratio);
    canvas.height = Math.round(rect.height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    paint();
  };
  const at = (event) => {
    const rect = canvas.getBoundingClientRect();
    const x = Math.min(Math.max(event.clientX - rect.left, 0), rect.width);
    const y = Math.min(Math.max(event.clientY - rect.top, 0), rect.height);
    return [x, y];
  };

  canvas.addEventListener("pointerdown", (event) => {
    if (points() >= MOST_POINTS) return;
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    current = [at(event)];
    strokes.push(current);
    paint();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!current || points() >= MOST_POINTS) return;
    const [x, y] = at(event);
    const [lx, ly] = current[current.length - 1];
    if (Math.hypot(x - lx, y - ly) < MIN_STEP) return;
    current.push([x, y]);
    paint();
  });
  const end = () => {
    if (!current) return;
    current = null;
    save();
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  box.querySelector("[data-clear]").addEventListener("click", () => {
    strokes = [];
    save();
    paint();
  });

  box.hidden = false;
  const hint = box.parentElement.querySelector("[data-typed-hint]");
  if (hint) hint.hidden = true;
  fit();
  if (input.value) {
    strokes = strokesOf(input.value, size.width);
    paint();
  }
  new ResizeObserver(fit).observe(canvas);
}

function dateHints() {
  const pattern = datePattern(navigator.language);
  for (const hint of document.querySelectorAll("[data-date-hint]")) {
    const input = hint.parentElement.querySelector("input");
    // A browser without a date box shows a text box, which takes the server's own order.
    const text =
      input && input.type === "date"
        ? `Type it as ${pattern}, or pick it from the calendar.`
        : "Write it year-month-day, e.g. 2026-01-31.";
    hint.textContent = text;
  }
}

if (globalThis.document) {
  document.querySelectorAll("[data-signature]").forEach(signaturePad);
  dateHints();
}
