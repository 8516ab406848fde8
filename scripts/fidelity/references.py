"""The tool a user would otherwise pick, per input format, each drawing the file as a PDF.

Every reference runs offline, as Quire does: nothing a file links to is fetched (Chromium
gets no network; pandoc is told not to fetch).
"""

import json
import lzma
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CHROMIUM = os.environ.get("QUIRE_CHROMIUM", "/usr/bin/chromium")
# What Chromium needs to start headless here and make no connection of its own.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
]


class Missing(Exception):
    """The reference tool is not installed here (`make fidelity-deps` installs them)."""


class Failed(Exception):
    """The reference tool ran and drew nothing."""


def _run(cmd, timeout=180, **kw):
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        raise Failed(f"{Path(cmd[0]).name} took over {timeout} s")
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
        raise Failed(f"{Path(cmd[0]).name} failed: {said[-1] if said else done.returncode}")
    return done


def _need(tool: str) -> str:
    found = shutil.which(tool) if not os.path.isabs(tool) else (tool if os.path.exists(tool) else None)
    if not found:
        raise Missing(f"{tool} is not installed")
    return found


def chromium_pdf(html: Path, out: Path, work: Path) -> Path:
    _need(CHROMIUM)
    profile = work / "chromium-profile"
    _run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--no-pdf-header-footer",
         f"--print-to-pdf={out}", html.resolve().as_uri()],
        timeout=120,
    )
    shutil.rmtree(profile, ignore_errors=True)
    if not out.exists():
        raise Failed("Chromium printed nothing")
    return out


def html(src: Path, work: Path) -> Path:
    return chromium_pdf(src, work / "reference.pdf", work)


def markdown(src: Path, work: Path) -> Path:
    pandoc = _need("pandoc")
    page = work / "pandoc.html"
    # Pandoc's own standalone page, as a reader of Markdown would print it; GitHub's flavour
    # with the front matter a README may carry.
    _run([pandoc, "-f", "gfm+yaml_metadata_block", "-t", "html5", "-s",
          "--metadata", f"pagetitle={src.stem}", "-o", str(page), str(src)])
    return chromium_pdf(page, work / "reference.pdf", work)


def svg(src: Path, work: Path) -> Path:
    out = work / "reference.pdf"
    _run([_need("rsvg-convert"), "-f", "pdf", "-o", str(out), str(src)])
    return out


def mermaid(src: Path, work: Path) -> Path:
    mmdc = HERE / "node/node_modules/.bin/mmdc"
    if not mmdc.exists():
        raise Missing("mermaid-cli is not installed")
    _need(CHROMIUM)
    config = work / "puppeteer.json"
    config.write_text(json.dumps({"executablePath": CHROMIUM, "args": CHROMIUM_FLAGS[1:]}))
    out = work / "reference.pdf"
    _run([str(mmdc), "-i", str(src), "-o", str(out), "--pdfFit", "-p", str(config), "-q"], timeout=180)
    return out


def vsdx(src: Path, work: Path) -> Path:
    soffice = _need("soffice")
    profile = (work / "lo-profile").resolve()
    _run([soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless",
          "--convert-to", "pdf", "--outdir", str(work), str(src)], timeout=300)
    shutil.rmtree(profile, ignore_errors=True)
    made = work / (src.stem + ".pdf")
    if not made.exists():
        raise Failed("LibreOffice wrote no PDF")
    return made.rename(work / "reference.pdf")


def pdf(src: Path, work: Path) -> Path:
    # The page as its own file draws it (pdftoppm renders both sides the same way).
    out = work / "reference.pdf"
    shutil.copyfile(src, out)
    return out


def _drawio_viewer(cache: Path) -> tuple[Path, Path]:
    """The viewer script and the stencil libraries it asks for, unpacked once into `cache`:
    the viewer from its vendored copy (scripts/fidelity/drawio-viewer), the libraries from
    the very file the converter embeds, so both sides draw the same stencil definitions."""
    viewer = cache / "viewer-static.min.js"
    stencils = cache / "stencils"
    packed = ROOT / "plugins/drawio/stencils/stencils.bin"
    stamp = cache / "stencils.stamp"
    if not viewer.exists():
        cache.mkdir(parents=True, exist_ok=True)
        viewer.write_bytes(lzma.decompress((HERE / "drawio-viewer/viewer-static.min.js.xz").read_bytes()))
    if not stamp.exists() or stamp.read_text() != str(packed.stat().st_mtime_ns):
        shutil.rmtree(stencils, ignore_errors=True)
        for package, shapes in unpack_stencils(packed.read_bytes()).items():
            # `mxgraph.cisco.routers` is asked for as stencils/cisco/routers.xml.
            out = stencils.joinpath(*package.split(".")[1:]).with_suffix(".xml")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(b'<shapes name="' + package.encode() + b'">' + b"".join(shapes) + b"</shapes>")
        stamp.write_text(str(packed.stat().st_mtime_ns))
    return viewer, stencils


def unpack_stencils(packed: bytes) -> dict:
    """Library name -> its shapes' XML, from the layout scripts/drawio-stencils.py writes."""
    if packed[:4] != b"QST2":
        raise Failed("the packed stencils are not in the layout this harness reads")
    shapes, chunks = struct.unpack_from("<II", packed, 4)
    at = 12 + 16 * shapes
    inflated = []
    for i in range(chunks):
        offset, length, _ = struct.unpack_from("<III", packed, at + 12 * i)
        inflated.append(zlib.decompress(packed[offset:offset + length], -15))
    libraries = {}
    for i in range(shapes):
        name_at, name_len, chunk, start, length = struct.unpack_from("<IHHII", packed, 12 + 16 * i)
        name = packed[name_at:name_at + name_len].decode()
        libraries.setdefault(name.rsplit(".", 1)[0], []).append(inflated[chunk][start:start + length])
    return libraries


def drawio(src: Path, work: Path) -> Path:
    _need(CHROMIUM)
    if not (HERE / "node/node_modules/puppeteer-core").exists():
        raise Missing("puppeteer-core (with mermaid-cli) is not installed")
    viewer, stencils = _drawio_viewer(ROOT / "target/fidelity/drawio-viewer")
    done = _run(["node", str(HERE / "drawio-viewer/draw.mjs"), str(viewer), str(stencils),
                 str(src), str(work / "viewer")], timeout=180, cwd=ROOT)
    pages = [str(work / f"viewer-{i + 1}.pdf") for i in range(int(done.stdout.decode().strip() or 0))]
    if not pages:
        raise Failed("the draw.io viewer drew no page")
    out = work / "reference.pdf"
    _run([_need("qpdf"), "--empty", "--pages", *pages, "--", str(out)])
    return out


BY_FORMAT = {
    "html": ("Chromium", html),
    "markdown": ("pandoc + Chromium", markdown),
    "svg": ("rsvg-convert", svg),
    "mermaid": ("mermaid-cli", mermaid),
    "vsdx": ("LibreOffice Draw", vsdx),
    "pdf": ("the PDF itself", pdf),
    "drawio": ("draw.io viewer", drawio),
}
