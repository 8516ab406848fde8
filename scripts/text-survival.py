#!/usr/bin/env python3
"""How much of the text in every script survives into Quire's PDFs, beside Chromium's print.

For each file of tests/text (the preamble and articles 1-3 of the Universal Declaration of
Human Rights in 22 languages, as HTML with lang/dir and as Markdown with front matter
`lang`), converts it to PDF with `quire convert` (and the HTML with `chromium
--print-to-pdf`), reads the PDF back with `pdftotext`, and counts the source's characters
(whitespace aside) that come back: a multiset intersection, so the order pdftotext gives
right-to-left text in does not matter. Prints one row per language and the rows' mean.

This is issue 26's measure, not a test yet: run it before and after a change of the text
engine. Needs a built quire (`make build`), pdftotext and, for the baseline, chromium.

    QUIRE_DATA=$(mktemp -d) python3 scripts/text-survival.py [--no-chromium] [LANG ...]
"""

import collections
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXT = os.path.join(ROOT, "tests", "text")
QUIRE = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "quire")


def source_text(path):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    if path.endswith(".md"):
        raw = re.sub(r"\A---\n.*?\n---\n", "", raw, flags=re.S)
        return re.sub(r"^#+ ", "", raw, flags=re.M)
    body = raw.split("<body>", 1)[-1]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def counted(text):
    return collections.Counter(c for c in text if not c.isspace())


def survival(source, pdf):
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True, check=True
    ).stdout.decode("utf-8", "replace")
    want, got = counted(source), counted(out)
    kept = sum(min(n, got[c]) for c, n in want.items())
    return 100.0 * kept / max(1, sum(want.values()))


def quire_pdf(src, pdf):
    run = subprocess.run([QUIRE, "convert", src, "--to", "pdf", "-o", pdf], capture_output=True)
    return run.returncode == 0


def chromium_pdf(src, pdf):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        return False
    run = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={pdf}", "file://" + src],
        capture_output=True, timeout=120,
    )
    return run.returncode == 0 and os.path.exists(pdf)


def main(argv):
    with_chromium = "--no-chromium" not in argv
    langs = [a for a in argv if not a.startswith("--")] or sorted(
        f[:-5] for f in os.listdir(TEXT) if f.endswith(".html")
    )
    work = tempfile.mkdtemp()
    rows = []
    print(f"{'lang':8} {'quire html':>11} {'quire md':>9} {'chromium':>9}")
    for lang in langs:
        row = [lang]
        for ext in ("html", "md"):
            src = os.path.join(TEXT, f"{lang}.{ext}")
            pdf = os.path.join(work, f"{lang}-{ext}.pdf")
            row.append(survival(source_text(src), pdf) if quire_pdf(src, pdf) else None)
        src = os.path.join(TEXT, f"{lang}.html")
        pdf = os.path.join(work, f"{lang}-chromium.pdf")
        row.append(
            survival(source_text(src), pdf) if with_chromium and chromium_pdf(src, pdf) else None
        )
        rows.append(row)
        cells = ["failed" if v is None else f"{v:.1f}%" for v in row[1:]]
        print(f"{lang:8} {cells[0]:>11} {cells[1]:>9} {cells[2]:>9}", flush=True)
    for i, name in enumerate(["quire html", "quire md", "chromium"], start=1):
        values = [r[i] for r in rows if r[i] is not None]
        if values:
            print(f"mean {name}: {sum(values) / len(values):.1f}% over {len(values)} files")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
