#!/usr/bin/env python3
"""Pictures of the text corpus for a look by eye: for each tests/text/<lang>.html, page 1 of
Quire's PDF (rendered by pdftoppm), Quire's own PNG export, and page 1 of Chromium's print
of the same file, side by side in target/text-pictures/<lang>-{quire,quire-png,chromium}.png.

The golden test (tests/e2e/golden.rs, the text-* cases) keeps Quire's pictures as reviewed
references; this script is how they are put beside Chromium's before a reference is
blessed. Usage: python3 scripts/text-pictures.py [lang ...] (default: every language).
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
QUIRE = os.path.join(TARGET, "release", "quire")
DPI = os.environ.get("QUIRE_PICTURE_DPI", "60")


def run(cmd, env=None):
    done = subprocess.run(cmd, env=env, capture_output=True)
    if done.returncode != 0:
        sys.exit(f"{cmd[0]} failed: {done.stderr.decode(errors='replace')}")


def main():
    texts = os.path.join(ROOT, "tests", "text")
    langs = sys.argv[1:] or sorted(f[:-5] for f in os.listdir(texts) if f.endswith(".html"))
    out = os.path.join(TARGET, "text-pictures")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp()
    env = dict(os.environ, QUIRE_DATA=os.path.join(work, "data"), QUIRE_LOG="error")
    env.setdefault("QUIRE_PLUGINS_DIR", os.path.join(TARGET, "plugins"))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    for lang in langs:
        page = os.path.join(texts, f"{lang}.html")
        ours = os.path.join(work, "q.pdf")
        run([QUIRE, "convert", page, "--to", "pdf", "-o", ours], env)
        run(["pdftoppm", "-r", DPI, "-f", "1", "-l", "1", "-png", "-singlefile", ours,
             os.path.join(out, f"{lang}-quire")])
        run([QUIRE, "convert", page, "--to", "png", "--page", "1", "--dpi", DPI, "-o",
             os.path.join(out, f"{lang}-quire-png.png")], env)
        if browser:
            theirs = os.path.join(work, "c.pdf")
            run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                 "--no-pdf-header-footer", "--disable-background-networking",
                 f"--print-to-pdf={theirs}", "file://" + page], env)
            run(["pdftoppm", "-r", DPI, "-f", "1", "-l", "1", "-png", "-singlefile", theirs,
                 os.path.join(out, f"{lang}-chromium")])
        print(f"{lang}: {out}/{lang}-*.png")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
