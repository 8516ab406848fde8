#!/usr/bin/env bash
# Big documents, whole process through `quire convert`, each against a peer run on the
# same file in the same script, with the peak memory of the host process (max RSS) and of
# the sandboxed calls (the converters' linear memory, capped by the plan's limit):
# - a 300-page Markdown book (the CommonMark spec twice and two more corpus files) -> PDF,
#   against WeasyPrint on pandoc's HTML of the same book;
# - a 200-page PDF (eight real corpus PDFs, 25 times each, joined by qpdf): import, import
#   plus export, and page 100 as PNG, against pdftotext, qpdf and pdftoppm.
# Run by `make bench` (after bench.sh set QUIRE_DATA up); alone:
# QUIRE_DATA=<a data directory with plugins installed> bash scripts/bench-big.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Q=${TARGET_DIR:-target}/release/quire
CORPUS=${QUIRE_CORPUS:-../shared/corpus}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

md=$CORPUS/markdown
cat "$md/commonmark-spec.md" "$md/commonmark-spec.md" "$md/resvg-CHANGELOG.md" \
  "$md/mermaid-flowchart-syntax.md" "$md/mermaid-flowchart-syntax.md" > "$WORK/book.md"
parts=()
for _ in $(seq 25); do
  for f in ocrmypdf-ccitt-scan ocrmypdf-livecycle-xfa pdfjs-annotation-button-widget \
    pdfjs-annotation-choice-widget pdfjs-bug1883609-acroform-mixed pdfjs-checkbox-no-appearance \
    pypdf-sf424-page2-orphan-widgets scanned-form-patient-intake; do
    parts+=("$CORPUS/pdf/$f.pdf")
  done
done
qpdf --empty --pages "${parts[@]}" -- "$WORK/big.pdf"
# The first run compiles what the cache lacks; it is not timed.
"$Q" convert "$WORK/big.pdf" --to png --page 1 --dpi 30 -o "$WORK/warm.png" 2>/dev/null
if command -v weasyprint >/dev/null && command -v pandoc >/dev/null; then
  pandoc --standalone --metadata title=Book "$WORK/book.md" -o "$WORK/book.html"
fi

echo "== big documents, whole process (median of 3 runs; host max RSS; sandbox peak vs its 512 MiB cap)"
python3 - "$Q" "$WORK" <<'PY'
import os, re, statistics, subprocess, sys, time
q, work = sys.argv[1:3]

def run(cmd):
    """Wall time (s), max RSS (MiB) and stderr of one process."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{cmd[0]} failed: {err}")
    return wall, usage.ru_maxrss / 1024, err

def measure(cmd, runs=3):
    results = [run(cmd) for _ in range(runs)]
    wall = statistics.median(r[0] for r in results)
    rss = max(r[1] for r in results)
    peaks = [float(m) for m in re.findall(r"peak memory ([0-9.]+) MiB", results[-1][2])]
    return wall, rss, max(peaks, default=0.0)

def show(name, quire, peer_name, peer):
    wall, rss, peak = quire
    line = f"{name}: {wall * 1000:.0f} ms, host {rss:.0f} MiB, sandbox peak {peak:.0f} MiB"
    if peer is not None:
        line += f"; {peer_name} {peer[0] * 1000:.0f} ms, {peer[1]:.0f} MiB (quire/{peer_name.split()[0]} {wall / peer[0]:.3g}x)"
    print(line)

book, pdf = f"{work}/book.md", f"{work}/big.pdf"
tiny = f"{work}/tiny.md"
open(tiny, "w").write("# A note\n\nOne paragraph.\n")
base = measure([q, "convert", tiny, "--to", "pdf", "-o", f"{work}/tiny.pdf"])
print(f"baseline, one-paragraph Markdown -> PDF: {base[0] * 1000:.0f} ms, host {base[1]:.0f} MiB")

quire_book = measure([q, "convert", book, "--to", "pdf", "-o", f"{work}/book.pdf"])
pages = subprocess.run(["qpdf", "--show-npages", f"{work}/book.pdf"], capture_output=True, text=True).stdout.strip()
peer = None
if os.path.exists(f"{work}/book.html"):
    peer = measure(["weasyprint", f"{work}/book.html", f"{work}/book-weasy.pdf"], runs=1)
show(f"Markdown book ({pages} pages) -> PDF", quire_book, "weasyprint (pandoc's HTML)", peer)

show("200-page PDF -> model (import)", measure([q, "convert", pdf, "--to", "json", "-o", f"{work}/big.json"]),
     "pdftotext", measure(["pdftotext", "-q", pdf, f"{work}/big.txt"]))
show("200-page PDF -> PDF (import + export)", measure([q, "convert", pdf, "--to", "pdf", "-o", f"{work}/big2.pdf"]),
     "qpdf (rewrite)", measure(["qpdf", pdf, f"{work}/big-qpdf.pdf"]))
show("200-page PDF, page 100 -> PNG at 110 dpi", measure([q, "convert", pdf, "--to", "png", "--page", "100", "--dpi", "110", "-o", f"{work}/p100.png"]),
     "pdftoppm", measure(["pdftoppm", "-q", "-r", "110", "-f", "100", "-l", "100", "-png", pdf, f"{work}/poppler"]))
PY
