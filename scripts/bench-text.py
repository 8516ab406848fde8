#!/usr/bin/env python3
"""Text in every script (issue 26), whole-process times in one run:

- a page of Chinese text (the zh-Hans extract of tests/text four times, ~2,600 Han
  characters) from HTML to PDF: `quire convert` against `chromium --print-to-pdf`, with
  both PDFs' sizes and the sandbox's peak memory;
- Latin Markdown from the corpus (12 and 31 pages) to PDF with the font library against
  without one (QUIRE_FONTS_DEFAULTS=false): what the text engine costs text the standard
  fonts draw.

Medians of repeated runs (the Latin pairs interleaved); compare the ratios, not the milliseconds.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
QUIRE = os.path.join(TARGET, "release", "quire")
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "markdown")


def median_ms(cmd, env, n):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        run = subprocess.run(cmd, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        if run.returncode != 0:
            sys.exit(f"{cmd[0]} failed: {run.stderr.decode(errors='replace')}")
    return statistics.median(times) * 1000, run


def interleaved_medians_ms(cmd, env_a, env_b, n):
    """Alternates the two set-ups run by run, so a slow spell of the machine falls on both."""
    median_ms(cmd, env_a, 1)
    median_ms(cmd, env_b, 1)
    a, b = [], []
    for _ in range(n):
        a.append(median_ms(cmd, env_a, 1)[0])
        b.append(median_ms(cmd, env_b, 1)[0])
    return statistics.median(a), statistics.median(b)


def main():
    work = tempfile.mkdtemp()
    env = dict(os.environ, QUIRE_DATA=os.path.join(work, "data"), QUIRE_LOG="error")
    env.setdefault("QUIRE_PLUGINS_DIR", os.path.join(TARGET, "plugins"))
    page = os.path.join(work, "zh.html")
    with open(os.path.join(ROOT, "tests", "text", "zh-Hans.html"), encoding="utf-8") as f:
        head, rest = f.read().split("<body>", 1)
    inner = rest.rsplit("</body>", 1)[0]
    with open(page, "w", encoding="utf-8") as f:
        f.write(f"{head}<body>{inner * 4}</body></html>")
    han = 4 * sum(1 for c in inner if "\u4e00" <= c <= "\u9fff")

    print("== text in every script (whole process, medians)")
    ours = os.path.join(work, "q.pdf")
    convert = [QUIRE, "convert", page, "--to", "pdf", "-o", ours]
    median_ms(convert, env, 1)  # compiles nothing later: the first run fills the cache
    q, run = median_ms(convert, env, 15)
    peak = run.stderr.decode(errors="replace").strip().splitlines()[-1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser:
        theirs = os.path.join(work, "c.pdf")
        c, _ = median_ms(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
             "--disable-background-networking", f"--print-to-pdf={theirs}", "file://" + page],
            env, 5)
        print(f"Chinese HTML page ({han} Han characters) -> PDF: quire {q:.1f} ms, chromium "
              f"{c:.1f} ms: {c / q:.1f}x faster (goal >= 20x); PDF {os.path.getsize(ours)} B vs "
              f"{os.path.getsize(theirs)} B")
    else:
        print(f"Chinese HTML page ({han} Han characters) -> PDF: quire {q:.1f} ms (no chromium)")
    print(f"  {peak}")

    bare = dict(env, QUIRE_FONTS="", QUIRE_FONTS_DEFAULTS="false")
    for name in ("ocrmypdf-advanced.md", "resvg-CHANGELOG.md"):
        src = os.path.join(CORPUS, name)
        out = os.path.join(work, "latin.pdf")
        cmd = [QUIRE, "convert", src, "--to", "pdf", "-o", out]
        without, with_fonts = interleaved_medians_ms(cmd, bare, env, 25)
        print(f"{name} -> PDF: {with_fonts:.1f} ms with the font library, {without:.1f} ms "
              f"without: {with_fonts / without:.2f}x (goal <= 1.2x)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
