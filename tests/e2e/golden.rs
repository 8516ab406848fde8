//! Golden tests in Typst's style: a corpus file goes through the API, page 1 of its PDF is
//! rendered by pdftoppm, and the picture is compared, with a tolerance, with a reviewed
//! reference in tests/golden/. A case is a `<name>.source` file there naming a corpus file
//! (or, starting with `tests/`, a file of this repository). A second word `png` also
//! compares the document's own PNG export of page 1 with `<name>.export.png`.
//! A missing reference (or QUIRE_BLESS=1) writes the new render there and fails: look at
//! it (the text-* cases beside Chromium's print, `scripts/text-pictures.py`), then commit
//! it. Every case runs; all mismatches are reported together.
//! At 40 dpi a picture catches a changed line break, a lost line or glyph, a page that
//! flows differently; not a regional glyph form or a mark's exact place, which the native
//! tests check (`quire-fonts` run_lang, `quire-pdf` scripts).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::server::*;

/// Where a corpus file goes, by its extension: the endpoint and the media type it is sent as.
fn route_for(file: &str) -> (&'static str, &'static str) {
    let ext = file.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        "md" => ("/api/v1/pdfs", "text/markdown"),
        "html" => ("/api/v1/pdfs", "text/html"),
        "png" => ("/api/v1/pdfs", "image/png"),
        "jpg" => ("/api/v1/pdfs", "image/jpeg"),
        "pdf" => ("/api/v1/pdfs", "application/pdf"),
        "drawio" => ("/api/v1/diagrams", "application/vnd.jgraph.mxfile"),
        "vsdx" => ("/api/v1/diagrams", "application/vnd.ms-visio.drawing"),
        "mmd" => ("/api/v1/diagrams", "text/vnd.mermaid"),
        "svg" => ("/api/v1/diagrams", "image/svg+xml"),
        other => panic!("{file}: no golden route for .{other}"),
    }
}

/// A golden case: `<name>.source` in tests/golden names its input; `<name>.png` is the
/// reviewed render of its PDF's first page, and `<name>.export.png` that of its PNG export
/// when the source asks for one. Adding a case is adding a `.source` file.
struct Case {
    name: String,
    input: PathBuf,
    export_png: bool,
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = std::fs::read_dir(golden_dir())
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(".source")?
                .to_string();
            let source = std::fs::read_to_string(&path).unwrap();
            let mut words = source.split_whitespace();
            let file = words
                .next()
                .unwrap_or_else(|| panic!("{name}.source is empty"));
            let input = if file.starts_with("tests/") {
                crate::common::repo_root().join(file)
            } else {
                corpus(file)
            };
            let export_png = match words.next() {
                None => false,
                Some("png") => true,
                Some(other) => panic!("{name}.source: unknown word {other:?}"),
            };
            Some(Case {
                name,
                input,
                export_png,
            })
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

fn golden_dir() -> PathBuf {
    crate::common::repo_root().join("tests/golden")
}

pub fn gray(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let px: Vec<u8> = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|c| {
            if channels >= 3 {
                ((c[0] as u32 * 3 + c[1] as u32 * 6 + c[2] as u32) / 10) as u8
            } else {
                c[0]
            }
        })
        .collect();
    (info.width, info.height, px)
}

#[test]
fn first_pages_match_their_reviewed_references() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    let work = tempfile::tempdir().unwrap();
    let bless = std::env::var("QUIRE_BLESS").is_ok_and(|v| v == "1");
    // Renders that differ are kept here for a look, whatever the test's outcome.
    let kept_dir = target_dir().join("golden-actual");
    // Only this test's own files: other tests keep theirs in subfolders (pages, fidelity)
    // while this one runs beside them.
    if let Ok(entries) = std::fs::read_dir(&kept_dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 6, "golden cases: {}", cases.len());
    for reference in std::fs::read_dir(golden_dir()).unwrap() {
        let path = reference.unwrap().path();
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(stem) = file.strip_suffix(".export.png") {
            if !cases.iter().any(|c| c.name == stem && c.export_png) {
                failures.push(format!("{file} has no {stem}.source asking for `png`"));
            }
        } else if let Some(stem) = file.strip_suffix(".png") {
            if !cases.iter().any(|c| c.name == stem) {
                failures.push(format!("{file} has no {stem}.source"));
            }
        }
    }
    for case in &cases {
        let name = &case.name;
        let file = case.input.to_str().unwrap();
        let (endpoint, content_type) = route_for(file);
        let r = s.send_raw(
            "POST",
            &t,
            endpoint,
            content_type,
            std::fs::read(&case.input).unwrap(),
        );
        if r.status != 201 {
            failures.push(format!(
                "{name}: {file} answered {}: {}",
                r.status,
                r.text()
            ));
            continue;
        }
        let id = r.json()["document"]["id"].as_str().unwrap().to_string();
        let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf?page=1"));
        if pdf.status != 200 {
            failures.push(format!("{name}: the PDF download answered {}", pdf.status));
            continue;
        }
        let pdf_path = work.path().join(format!("{name}.pdf"));
        std::fs::write(&pdf_path, &pdf.body).unwrap();
        let stem = work.path().join(name);
        run_tool(
            Command::new("pdftoppm")
                .args(["-r", "40", "-gray", "-png", "-singlefile"])
                .arg(&pdf_path)
                .arg(&stem),
        );
        let mut pictures = vec![(format!("{name}.png"), stem.with_extension("png"))];
        if case.export_png {
            let png = s.get(&t, &format!("/api/v1/documents/{id}.png?page=1&dpi=40"));
            if png.status != 200 {
                failures.push(format!("{name}: the PNG download answered {}", png.status));
                continue;
            }
            let actual = work.path().join(format!("{name}.export.png"));
            std::fs::write(&actual, &png.body).unwrap();
            pictures.push((format!("{name}.export.png"), actual));
        }
        for (reference_name, actual) in pictures {
            let reference = golden_dir().join(&reference_name);
            if bless || !reference.exists() {
                std::fs::copy(&actual, &reference).unwrap();
                failures.push(format!(
                    "{reference_name}: reference written to {}; review it and commit",
                    reference.display()
                ));
                continue;
            }
            if let Some(difference) = differs(&actual, &reference) {
                std::fs::create_dir_all(&kept_dir).unwrap();
                let kept = kept_dir.join(&reference_name);
                std::fs::copy(&actual, &kept).unwrap();
                failures.push(format!(
                    "{reference_name}: {difference} (render kept at {})",
                    kept.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// How a render differs from its reference beyond the tolerance (antialiasing and font
/// hinting move a few grey levels), or None.
fn differs(actual: &Path, reference: &Path) -> Option<String> {
    let (aw, ah, a) = gray(actual);
    let (rw, rh, r) = gray(reference);
    if (aw, ah) != (rw, rh) {
        return Some(format!("{aw}x{ah}, reference {rw}x{rh}"));
    }
    let mean = a
        .iter()
        .zip(&r)
        .map(|(x, y)| (*x as f64 - *y as f64).abs())
        .sum::<f64>()
        / a.len() as f64;
    let far = a
        .iter()
        .zip(&r)
        .filter(|(x, y)| (**x as i32 - **y as i32).abs() > 64)
        .count() as f64
        / a.len() as f64;
    (mean > 2.0 || far > 0.01).then(|| {
        format!(
            "mean difference {mean:.2}/255, {:.2}% of pixels far off",
            far * 100.0
        )
    })
}
