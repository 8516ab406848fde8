#!/usr/bin/env bash
# The command line's whole-process cost (start-up included), against baselines run in the
# same script: the process floor (`quire --version`, no data directory opened) and
# pdftoppm on the same PDF page. Run by `make bench` (after bench.sh set QUIRE_DATA up);
# alone: QUIRE_DATA=<a data directory with plugins installed> bash scripts/bench-cli.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Q=${TARGET_DIR:-target}/release/quire
CORPUS=${QUIRE_CORPUS:-../shared/corpus}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf '# A note\n\nOne paragraph of *Markdown*, converted whole-process.\n' > "$WORK/tiny.md"
PDF=$CORPUS/pdf/pdfjs-annotation-choice-widget.pdf

echo "== quire convert, whole process (median of 15 runs; goal: tiny md -> pdf < 30 ms, pdf page -> png <= pdftoppm)"
# The first run compiles what the cache lacks; it is not timed.
"$Q" convert "$WORK/tiny.md" --to pdf -o "$WORK/out.pdf" 2>/dev/null
"$Q" convert "$PDF" --to png --page 1 --dpi 110 -o "$WORK/out.png" 2>/dev/null
python3 - "$Q" "$WORK" "$PDF" "$CORPUS" <<'PY'
import statistics, subprocess, sys, time
q, work, pdf, corpus = sys.argv[1:5]

def median_ms(cmd):
    times = []
    for _ in range(15):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)

floor = median_ms([q, "--version"])
tiny = median_ms([q, "convert", f"{work}/tiny.md", "--to", "pdf", "-o", f"{work}/out.pdf"])
mermaid = median_ms([q, "convert", f"{corpus}/mermaid/flowchart-code-flow.mmd", "--to", "svg", "-o", f"{work}/out.svg"])
page = median_ms([q, "convert", pdf, "--to", "png", "--page", "1", "--dpi", "110", "-o", f"{work}/out.png"])
poppler = median_ms(["pdftoppm", "-r", "110", "-f", "1", "-l", "1", "-png", pdf, f"{work}/poppler"])
print(f"process floor (quire --version): {floor:.1f} ms")
print(f"tiny Markdown -> PDF: {tiny:.1f} ms ({tiny / floor:.1f}x the floor)")
print(f"mermaid flowchart -> SVG: {mermaid:.1f} ms ({mermaid / floor:.1f}x the floor)")
print(f"PDF page 1 -> PNG at 110 dpi: {page:.1f} ms; pdftoppm {poppler:.1f} ms (quire/pdftoppm {page / poppler:.2f}x)")
PY
