"""`make fidelity`: every file of the fidelity corpus drawn by Quire and by the tool a user
would otherwise pick, scored, and shown side by side in target/fidelity/report.html.

    python run.py [--corpus fidelity/corpus] [--out target/fidelity] [--only FORMAT ...]
                  [--files LIST] [--quire target/release/quire]

The numbers point; the pictures decide. See fidelity/README.md for what each score means.
"""

import argparse
import concurrent.futures
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import measure
import references

FORMATS = ["markdown", "html", "svg", "mermaid", "drawio", "vsdx", "pdf"]
PAGE_DPI = 72
# Diagrams are small pages with small labels: read at a higher resolution, as scattered text.
DIAGRAMS = {"svg", "mermaid", "drawio", "vsdx"}
OCR_PAGES = 3
MIN_OCR_WORDS = 4


def score_of(text, visible, similarity):
    """0-5: what the file's three fractions weigh together (a missing one is left out)."""
    parts = [(0.35, text), (0.35, visible), (0.30, similarity)]
    known = [(w, v) for w, v in parts if v is not None]
    if not known:
        return None
    return 5 * sum(w * v for w, v in known) / sum(w for w, _ in known)


def quire_pdf(quire: Path, env: dict, src: Path, work: Path) -> Path:
    out = work / "quire.pdf"
    done = subprocess.run(
        [str(quire), "convert", str(src), "--to", "pdf", "-o", str(out)],
        capture_output=True,
        timeout=300,
        env=env,
    )
    if done.returncode != 0 or not out.exists():
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise references.Failed(said[-1] if said else f"exit {done.returncode}")
    return out


def render(side: str, make, out: Path, fmt: str, use_ocr: bool):
    """Runs one side; its PDF's text, page pictures and OCR, or the reason it has none."""
    started = time.monotonic()
    try:
        pdf = make()
    except (references.Missing, references.Failed) as e:
        return {"error": str(e), "missing": isinstance(e, references.Missing)}
    seconds = time.monotonic() - started
    pages = measure.pdf_pages(pdf, out / f"{side}", PAGE_DPI)
    diagram = fmt in DIAGRAMS
    ocr_pages = measure.pdf_pages(pdf, out / f"{side}-ocr", 300 if diagram else 200, OCR_PAGES)
    seen = measure.ocr(ocr_pages, "eng", diagram) if use_ocr else None
    for p in ocr_pages:
        p.unlink()
    return {
        "seconds": seconds,
        "pages": pages,
        "text": measure.pdf_text(pdf),
        "ocr": seen,
    }


def measure_file(src: Path, fmt: str, quire: Path, env: dict, out: Path, use_ocr: bool) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        ours = render("quire", lambda: quire_pdf(quire, env, src, work), out, fmt, use_ocr)
        _, reference_of = references.BY_FORMAT[fmt]
        theirs = render("reference", lambda: reference_of(src, work), out, fmt, use_ocr)
    row = {"file": src.name, "format": fmt, "quire": ours, "reference": theirs}
    if "error" in ours or "error" in theirs:
        row["score"] = 0.0 if "error" in ours and "error" not in theirs else None
        return row
    row["text"] = measure.recall(measure.words(theirs["text"]), measure.words(ours["text"]))
    # Visible text is the reference's text that OCR reads on its pages; a page with a word
    # or two of it (a logo, an icon) is too little to judge by.
    seen = measure.seen_words(theirs["ocr"] or "", theirs["text"])
    if ours["ocr"] is not None and sum(seen.values()) >= MIN_OCR_WORDS:
        row["visible"] = measure.recall(seen, measure.words(ours["ocr"]))
    row["similarity"] = measure.similarity(ours["pages"], theirs["pages"])
    row["score"] = score_of(row.get("text"), row.get("visible"), row["similarity"])
    return row


def fmt_fraction(v):
    return "–" if v is None else f"{v:.2f}"


def write_report(rows: list, out: Path, means: dict):
    def pictures(side, row):
        r = row[side]
        if "error" in r:
            return f"<td class=err>{html.escape(r['error'])}</td>"
        imgs = "".join(
            f'<a href="{html.escape(p.relative_to(out).as_posix())}"><img loading=lazy src="{html.escape(p.relative_to(out).as_posix())}"></a>'
            for p in r["pages"][:2]
        )
        return f"<td>{imgs}<div class=small>{len(r['pages'])} page(s), {r['seconds']:.2f} s</div></td>"

    head = "".join(
        f"<tr><td>{f}</td><td>{m['files']}</td><td>{m['refused']}</td><td>{fmt_fraction(m['text'])}</td>"
        f"<td>{fmt_fraction(m['visible'])}</td><td>{fmt_fraction(m['similarity'])}</td>"
        f"<td><b>{fmt_fraction(m['score'])}</b></td>"
        f"<td>{html.escape(m['reference'])}</td></tr>"
        for f, m in means.items()
    )
    body = "".join(
        f"<tr id=\"{html.escape(r['format'])}-{html.escape(r['file'])}\"><th>{html.escape(r['format'])}/{html.escape(r['file'])}"
        f"<div class=small>text {fmt_fraction(r.get('text'))} · visible {fmt_fraction(r.get('visible'))}"
        f" · similarity {fmt_fraction(r.get('similarity'))} · <b>score {fmt_fraction(r.get('score'))}</b></div></th>"
        f"{pictures('quire', r)}{pictures('reference', r)}</tr>"
        for r in rows
    )
    (out / "report.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Quire fidelity</title><style>"
        "body{font:14px system-ui;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top;text-align:left}"
        "img{max-width:420px;max-height:420px;border:1px solid #999;margin:2px;background:#fff}.small{font-size:12px;color:#555;font-weight:normal}.err{color:#a00;max-width:420px}"
        "</style><h1>Quire against the reference renderers</h1>"
        "<p>Scores are fractions (text: the reference's words in Quire's text layer; visible: what OCR reads on the reference's pages, read on Quire's; similarity: SSIM of the pages), and 0-5 for the weighted score. Look at the pictures.</p>"
        "<table><tr><th>format</th><th>files</th><th>refused by Quire</th><th>text</th><th>visible</th><th>similarity</th><th>score</th><th>reference</th></tr>"
        f"{head}</table><h2>Files</h2><table><tr><th>file</th><th>Quire</th><th>reference</th></tr>{body}</table>"
    )


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="fidelity/corpus")
    ap.add_argument("--out", default="target/fidelity")
    ap.add_argument("--quire", default="target/release/quire")
    ap.add_argument("--plugins", default="target/plugins")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--files", help="a file listing <format>/<name> lines to measure (the regression subset)")
    ap.add_argument("--json", help="also write the rows here")
    ap.add_argument("--no-ocr", action="store_true",
                    help="leave out the visible-text score (where Tesseract is not installed, as in make test)")
    args = ap.parse_args()

    corpus, out = Path(args.corpus), Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    chosen = None
    if args.files:
        chosen = {l.strip() for l in Path(args.files).read_text().splitlines() if l.strip() and not l.startswith("#")}
    data = tempfile.mkdtemp(prefix="quire-fidelity-")
    env = dict(os.environ, QUIRE_DATA=data, QUIRE_PLUGINS_DIR=str(Path(args.plugins).resolve()), QUIRE_LOG="error")

    use_ocr = not args.no_ocr and shutil.which("tesseract") is not None
    jobs = [
        (src, fmt)
        for fmt in FORMATS
        if not args.only or fmt in args.only
        for src in sorted((corpus / fmt).glob("*"))
        if src.is_file() and (chosen is None or f"{fmt}/{src.name}" in chosen)
    ]
    # The first start compiles every converter into the data directory: once, before the
    # files run side by side.
    warm = Path(data) / "warm.md"
    warm.write_text("# warm\n")
    quire_pdf(Path(args.quire), env, warm, Path(data))
    rows = []
    # One file per core: each side's tools are single-threaded most of the time.
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = [
            pool.submit(measure_file, src, fmt, Path(args.quire), env, out / fmt / src.stem, use_ocr)
            for src, fmt in jobs
        ]
        for future in futures:
            row = future.result()
            rows.append(row)
            fmt = row["format"]
            print(f"{fmt}/{row['file']}: score {fmt_fraction(row.get('score'))}"
                  f" (text {fmt_fraction(row.get('text'))}, visible {fmt_fraction(row.get('visible'))},"
                  f" similarity {fmt_fraction(row.get('similarity'))})"
                  + "".join(f"; {side}: {row[side]['error']}" for side in ("quire", "reference") if "error" in row[side]),
                  flush=True)
    shutil.rmtree(data, ignore_errors=True)

    means = {}
    for fmt in FORMATS:
        mine = [r for r in rows if r["format"] == fmt]
        if not mine:
            continue
        means[fmt] = {
            "files": len(mine),
            "refused": sum("error" in r["quire"] for r in mine),
            "text": mean(r.get("text") for r in mine),
            "visible": mean(r.get("visible") for r in mine),
            "similarity": mean(r.get("similarity") for r in mine),
            "score": mean(r.get("score") for r in mine),
            "reference": references.BY_FORMAT[fmt][0]
            + ("" if not any(r["reference"].get("missing") for r in mine) else " (not installed here)"),
        }
    write_report(rows, out, means)
    print(f"\n{'format':10} {'files':>5} {'refused':>7} {'text':>5} {'visible':>7} {'similar':>7} {'score':>5}  reference")
    for fmt, m in means.items():
        print(f"{fmt:10} {m['files']:5} {m['refused']:7} {fmt_fraction(m['text']):>5} {fmt_fraction(m['visible']):>7}"
              f" {fmt_fraction(m['similarity']):>7} {fmt_fraction(m['score']):>5}  {m['reference']}")
    print(f"\nreport: {out / 'report.html'}")
    if args.json:
        plain = [{k: v for k, v in r.items() if k not in ("quire", "reference")}
                 | {"quire_error": r["quire"].get("error"), "reference_error": r["reference"].get("error")}
                 for r in rows]
        Path(args.json).write_text(json.dumps({"rows": plain, "means": means}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
