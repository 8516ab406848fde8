"""What the fidelity harness measures on two renders of one file: words, OCR, pictures.

Every score is a fraction in [0, 1]:
- text: how much of the reference's text (its PDF's text layer) Quire's text layer holds;
- visible: how much of what OCR reads on the reference's pages it reads on Quire's pages
  (text painted under a fill, white on white or off the page is in the text layer, not here);
- similarity: the structural similarity (SSIM) of the pages, page by page, Quire's page
  scaled to the reference's size; a page one side lacks counts 0.
"""

import collections
import unicodedata
import re
import subprocess
from pathlib import Path

import numpy as np
from PIL import Image

MAX_PAGES = 5
WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Scripts written without spaces: each character is a word of its own.
UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f]")


def words(text: str) -> collections.Counter:
    """The words of `text`, lower case, as a multiset; 1-letter Latin words are noise.
    Compatibility forms count as what they stand for (NFKC: the mathematical italic 𝑥 a
    formula renderer writes is x, a superscript ² is 2, the ligature ﬁ is fi), so two
    renderers that spell one text differently read the same."""
    out = collections.Counter()
    for w in WORD.findall(unicodedata.normalize("NFKC", text).lower()):
        if UNSPACED.search(w):
            out.update(UNSPACED.findall(w))
            rest = UNSPACED.sub(" ", w).split()
            out.update(r for r in rest if len(r) > 1)
        elif len(w) > 1:
            out[w] += 1
    return out


def recall(reference: collections.Counter, candidate: collections.Counter):
    """The share of the reference's words (with repeats) the candidate holds; None when the
    reference has none, so an empty picture does not score as perfect."""
    total = sum(reference.values())
    if total == 0:
        return None
    found = sum(min(n, candidate[w]) for w, n in reference.items())
    return found / total


def seen_words(ocr_text: str, layer_text: str) -> collections.Counter:
    """The words OCR read on a page that its text layer holds, each at most as often as the
    layer holds it. OCR reads dashed borders, hatching and icons as short "words" ("ee",
    "we", "mm") that differ from one drawing of a line to the next; counting them would
    score two pictures of the same dashed box as different text."""
    layer = words(layer_text)
    return collections.Counter(
        {w: min(n, layer[w]) for w, n in words(ocr_text).items() if layer[w] > 0}
    )


def pdf_text(pdf: Path) -> str:
    done = subprocess.run(
        ["pdftotext", "-l", str(MAX_PAGES), "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        timeout=120,
    )
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""


def pdf_pages(pdf: Path, out_prefix: Path, dpi: int, last: int = MAX_PAGES) -> list[Path]:
    """The first pages of `pdf` (up to `last`) as PNG files `<prefix>-N.png`."""
    subprocess.run(
        ["pdftoppm", "-png", "-r", str(dpi), "-l", str(last), str(pdf), str(out_prefix)],
        capture_output=True,
        timeout=300,
    )
    return sorted(
        out_prefix.parent.glob(out_prefix.name + "-*.png"),
        key=lambda p: int(p.stem.rsplit("-", 1)[1]),
    )


def ocr(pages: list[Path], languages: str, sparse: bool) -> str:
    """What Tesseract reads on `pages`. `sparse` (page segmentation 11) finds the scattered
    labels of a diagram, which the default layout analysis misses."""
    text = []
    for page in pages:
        done = subprocess.run(
            ["tesseract", str(page), "-", "-l", languages, "--psm", "11" if sparse else "3"],
            capture_output=True,
            timeout=300,
        )
        text.append(done.stdout.decode("utf-8", "replace"))
    return "\n".join(text)


def _gray(path: Path, size=None) -> np.ndarray:
    with Image.open(path) as im:
        im = im.convert("L")
        if size is not None and im.size != size:
            im = im.resize(size, Image.Resampling.LANCZOS)
        return np.asarray(im, dtype=np.float64)


def _box_mean(a: np.ndarray, r: int) -> np.ndarray:
    """The mean over a (2r+1)^2 window at every pixel, edges clamped (integral image)."""
    p = np.pad(a, r + 1, mode="edge")
    s = p.cumsum(0).cumsum(1)
    n = 2 * r + 1
    return (s[n:, n:] - s[:-n, n:] - s[n:, :-n] + s[:-n, :-n])[: a.shape[0], : a.shape[1]] / (n * n)


def ssim(a: np.ndarray, b: np.ndarray, r: int = 3) -> float:
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = _box_mean(a, r), _box_mean(b, r)
    va = _box_mean(a * a, r) - ma * ma
    vb = _box_mean(b * b, r) - mb * mb
    cov = _box_mean(a * b, r) - ma * mb
    s = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(s.mean())


def similarity(quire: list[Path], reference: list[Path]) -> float:
    """Mean SSIM over the pages either side has (at most MAX_PAGES), Quire's pages scaled
    to the reference's; a page missing on one side scores 0."""
    n = max(len(quire), len(reference))
    if n == 0:
        return 0.0
    total = 0.0
    for q, r in zip(quire, reference):
        ref = _gray(r)
        total += max(0.0, ssim(_gray(q, (ref.shape[1], ref.shape[0])), ref))
    return total / n
