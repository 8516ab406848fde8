//! Helpers shared by the end-to-end tests: building requests, running the PDF tools,
//! reading rendered pixels. The tools come from Debian's `qpdf` and `poppler-utils`;
//! `make test` installs them. PDFs and renders stay in `target/tmp/quire-pdf/`.

#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

use quire_sdk::*;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/images");

pub fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-pdf");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    dir
}

/// Runs an external tool, failing the test with a clear message when it is not installed.
pub fn tool(name: &str, args: &[&str]) -> std::process::Output {
    Command::new(name).args(args).output().unwrap_or_else(|e| {
        panic!(
            "`{name}` could not be run ({e}). These tests need qpdf and poppler-utils: \
             `apt-get install -y qpdf poppler-utils` (make test installs them)"
        )
    })
}

pub fn asset(name: &str, file: &str, media_type: &str) -> Asset {
    let path = format!("{CORPUS}/{file}");
    Asset {
        name: name.into(),
        media_type: media_type.into(),
        bytes: std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
    }
}

pub fn request(document: Document, assets: Vec<Asset>) -> ExportRequest {
    ExportRequest::new(document, assets, "application/pdf")
}

/// Exports, writes `name.pdf`, and checks the structure with qpdf.
pub fn export_checked(req: &ExportRequest, name: &str) -> (PathBuf, Exported) {
    let names: Vec<&str> = req.assets.iter().map(|a| a.name.as_str()).collect();
    quire_sdk::validate::check(&req.document, names).expect("the test model is valid");
    let out = quire_pdf::export_pdf(req).expect("export");
    assert_eq!(out.media_type, "application/pdf");
    let path = out_dir().join(format!("{name}.pdf"));
    std::fs::write(&path, &out.bytes).unwrap();
    let check = tool("qpdf", &["--check", path.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "qpdf --check {name}.pdf failed:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    (path, out)
}

pub fn text_of(path: &Path, page: Option<u32>) -> String {
    let mut args = vec![];
    let p = page.map(|p| p.to_string());
    if let Some(p) = &p {
        args.extend(["-f", p.as_str(), "-l", p.as_str()]);
    }
    args.extend([path.to_str().unwrap(), "-"]);
    let out = tool("pdftotext", &args);
    assert!(
        out.status.success(),
        "pdftotext: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// pdfinfo's report with runs of spaces squashed, so lines compare as "Pages: 2".
pub fn pdfinfo(args: &[&str]) -> String {
    let out = tool("pdfinfo", args);
    assert!(
        out.status.success(),
        "pdfinfo: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that `words` appear in `text` in this order.
pub fn assert_in_order(text: &str, words: &[&str]) {
    let mut rest = text;
    for w in words {
        match rest.split_once(w) {
            Some((_, after)) => rest = after,
            None => {
                let from = text.len() - rest.len();
                panic!("`{w}` missing (or out of order) after byte {from} of:\n{text}")
            }
        }
    }
}

/// A rendered page as RGB pixels.
pub struct Raster {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

impl Raster {
    pub fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// Renders one page with pdftoppm: a PNG to look at, and a PPM to read pixels from.
pub fn render(path: &Path, page: u32, dpi: u32) -> Raster {
    let stem = path.with_extension("");
    let prefix = format!("{}-p{page}", stem.display());
    let (p, r) = (page.to_string(), dpi.to_string());
    let pdf = path.to_str().unwrap();
    // With no format option pdftoppm writes PPM.
    for format in [&["-png"][..], &[]] {
        let mut args = vec!["-r", &r, "-f", &p, "-l", &p, "-singlefile"];
        args.extend_from_slice(format);
        args.extend([pdf, &prefix]);
        let out = tool("pdftoppm", &args);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "pdftoppm {format:?} page {page}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let ppm = std::fs::read(format!("{prefix}.ppm")).expect("pdftoppm wrote a PPM");
    // Binary PPM: "P6\n<w> <h>\n255\n" then RGB bytes.
    let mut fields = Vec::new();
    let mut pos = 0;
    while fields.len() < 4 {
        while ppm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let start = pos;
        while !ppm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        fields.push(String::from_utf8_lossy(&ppm[start..pos]).into_owned());
    }
    let (width, height) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    Raster {
        width,
        height,
        rgb: ppm[pos + 1..].to_vec(),
    }
}

pub fn run(text: &str, font: FontFamily, size: f64) -> Run {
    Run {
        font,
        ..Run::plain(text, size)
    }
}

pub fn text_box(id: &str, frame: Rect, runs: Vec<Run>, align: Align) -> Shape {
    Shape::Text(TextBox {
        id: id.into(),
        frame,
        text: Text {
            runs,
            align,
            ..Text::default_layout()
        },
        fill: None,
        stroke: None,
    })
}
