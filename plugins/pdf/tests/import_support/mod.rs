//! Helpers of the importer tests: importing corpus files, the independent text oracle
//! (qpdf decrypts, poppler's pdftotext extracts), exporting a model back and checking it
//! with qpdf, and coarse picture comparison of pdftoppm renders.
//!
//! Tools: Debian's `qpdf` and `poppler-utils` (`make test` installs them).

#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

use quire_sdk::*;

pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/pdf");
pub const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Passwords of the corpus files, from the corpus's SOURCES.md.
pub const PASSWORDS: &[(&str, &str)] = &[
    ("pdfjs-issue21579-r5-unicode-password.pdf", "pässwört"),
    ("pdfjs-pr6531-aes256-user-password.pdf", "asdfasdf"),
    ("pypdf-r4-aes-user-password.pdf", "asdfzxcv"),
    ("pypdf-r6-both-passwords.pdf", "foo"),
];

pub fn password_of(file: &str) -> Option<&'static str> {
    PASSWORDS.iter().find(|(f, _)| *f == file).map(|(_, p)| *p)
}

pub fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-pdf-import");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    dir
}

pub fn corpus_path(file: &str) -> String {
    format!("{CORPUS}/{file}")
}

pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs an external tool, failing with a clear message when it is not installed.
pub fn tool(name: &str, args: &[&str]) -> std::process::Output {
    Command::new(name).args(args).output().unwrap_or_else(|e| {
        panic!(
            "`{name}` could not be run ({e}). These tests need qpdf and poppler-utils: \
             `apt-get install -y qpdf poppler-utils` (make test installs them)"
        )
    })
}

pub fn import(bytes: Vec<u8>, options: &[(&str, &str)]) -> Result<Imported, ConvertError> {
    quire_pdf::import_pdf(ImportRequest {
        bytes,
        media_type: "application/pdf".into(),
        images: Vec::new(),
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    })
}

/// Imports a corpus file with its password (and any other options), panicking on failure.
pub fn import_corpus(file: &str, extra: &[(&str, &str)]) -> Imported {
    let mut options: Vec<(&str, &str)> = extra.to_vec();
    if let Some(pw) = password_of(file) {
        options.push(("password", pw));
    }
    import(read(&corpus_path(file)), &options)
        .unwrap_or_else(|e| panic!("{file} with {options:?}: {e:?}"))
}

/// Every text box of the document, in model order, one per line.
pub fn model_text(doc: &Document) -> String {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t.text.plain_text()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// pdftotext's text of `path`, after qpdf has removed any encryption (pdftotext refuses
/// files whose owner forbids copying).
pub fn oracle_text(path: &str, password: Option<&str>) -> String {
    let plain = out_dir().join(format!(
        "{}.decrypted.pdf",
        Path::new(path).file_name().unwrap().to_string_lossy()
    ));
    let pw = password.map(|p| format!("--password={p}"));
    let mut args = vec!["--decrypt"];
    if let Some(pw) = &pw {
        args.push(pw);
    }
    args.extend([path, plain.to_str().unwrap()]);
    let out = tool("qpdf", &args);
    assert!(
        out.status.success() || out.status.code() == Some(3),
        "qpdf --decrypt {path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    pdftotext(&plain)
}

pub fn pdftotext(path: &Path) -> String {
    let out = tool("pdftotext", &[path.to_str().unwrap(), "-"]);
    assert!(
        out.status.success(),
        "pdftotext {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Lower-case words of letters and digits.
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Letters and digits only, lower case: compares texts whatever their spacing (pdftotext
/// splits letter-spaced words, `T es t`; the importer may join what it splits).
pub fn letters(text: &str) -> Vec<char> {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Length of the longest common subsequence: how much of `a` appears in `b` in order.
pub fn lcs<A: PartialEq<B>, B>(a: &[A], b: &[B]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Share of the oracle's sequence found, in order, in ours.
pub fn in_order<A: PartialEq<B>, B>(oracle: &[A], ours: &[B]) -> f64 {
    if oracle.is_empty() {
        return 1.0;
    }
    lcs(oracle, ours) as f64 / oracle.len() as f64
}

/// Checks the model, exports it with the crate's own exporter, writes `name.pdf` and runs
/// `qpdf --check` on it.
pub fn export_checked(imported: &Imported, name: &str) -> PathBuf {
    let names: Vec<&str> = imported.assets.iter().map(|a| a.name.as_str()).collect();
    if let Err(e) = quire_sdk::validate::check(&imported.document, names) {
        panic!("{name}: the imported model is not valid: {e}");
    }
    let out = quire_pdf::export_pdf(&ExportRequest {
        document: imported.document.clone(),
        assets: imported.assets.clone(),
        media_type: "application/pdf".into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    })
    .unwrap_or_else(|e| panic!("{name}: export failed: {e:?}"));
    let path = out_dir().join(format!("{name}.pdf"));
    std::fs::write(&path, &out.bytes).unwrap();
    let check = tool("qpdf", &["--check", path.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "qpdf --check {name}.pdf failed:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    path
}

/// A page rendered by pdftoppm as grey levels; the PNG beside it is there to look at.
pub struct Grey {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

pub fn render_grey(pdf: &Path, page: u32, dpi: u32, stem: &str) -> Grey {
    let prefix = out_dir().join(stem);
    let (p, r) = (page.to_string(), dpi.to_string());
    for format in [&["-png"][..], &["-gray"]] {
        let mut args = vec!["-r", &r, "-f", &p, "-l", &p, "-singlefile"];
        args.extend_from_slice(format);
        args.extend([pdf.to_str().unwrap(), prefix.to_str().unwrap()]);
        let out = tool("pdftoppm", &args);
        assert!(
            out.status.success(),
            "pdftoppm {}: {}",
            pdf.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let pgm = read(&format!("{}.pgm", prefix.display()));
    // Binary PGM: "P5\n<w> <h>\n255\n" then one byte a pixel.
    let mut fields = Vec::new();
    let mut pos = 0;
    while fields.len() < 4 {
        while pgm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let start = pos;
        while !pgm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..pos]).into_owned());
    }
    Grey {
        width: fields[1].parse().unwrap(),
        height: fields[2].parse().unwrap(),
        pixels: pgm[pos + 1..].to_vec(),
    }
}

impl Grey {
    /// Ink (darkness, 0 to 1) of each cell of a `cols` x `rows` grid.
    pub fn ink(&self, cols: usize, rows: usize) -> Vec<f64> {
        let mut out = vec![0.0; cols * rows];
        let mut count = vec![0usize; cols * rows];
        for y in 0..self.height {
            for x in 0..self.width {
                let cell = (y * rows / self.height) * cols + x * cols / self.width;
                out[cell] += f64::from(255 - self.pixels[y * self.width + x]) / 255.0;
                count[cell] += 1;
            }
        }
        for (v, n) in out.iter_mut().zip(count) {
            *v /= n.max(1) as f64;
        }
        out
    }
}

/// Mean difference of ink between two renders of the same page size, cell by cell.
pub fn ink_difference(a: &Grey, b: &Grey, cols: usize, rows: usize) -> f64 {
    let (ia, ib) = (a.ink(cols, rows), b.ink(cols, rows));
    ia.iter().zip(&ib).map(|(x, y)| (x - y).abs()).sum::<f64>() / ia.len() as f64
}

/// Mean ink of a render: how much of the page is drawn at all.
pub fn mean_ink(g: &Grey) -> f64 {
    g.pixels
        .iter()
        .map(|&p| f64::from(255 - p) / 255.0)
        .sum::<f64>()
        / g.pixels.len() as f64
}
