//! Golden tests in Typst's style: a corpus file goes through the API, page 1 of its PDF is
//! rendered by pdftoppm, and the picture is compared, with a tolerance, with a reviewed
//! reference in tests/golden/. A case is a `<name>.source` file there naming a corpus file.
//! A missing reference (or QUIRE_BLESS=1) writes the new render there and fails: look at
//! it, then commit it. Every case runs; all mismatches are reported together.

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

/// The cases: every `<name>.source` in tests/golden names a corpus file; `<name>.png` is
/// its reviewed reference. Adding a case is adding a `.source` file.
fn cases() -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = std::fs::read_dir(golden_dir())
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(".source")?
                .to_string();
            let source = std::fs::read_to_string(&path).unwrap().trim().to_string();
            Some((name, source))
        })
        .collect();
    cases.sort();
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
    let _ = std::fs::remove_dir_all(&kept_dir);
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 6, "golden cases: {cases:?}");
    for reference in std::fs::read_dir(golden_dir()).unwrap() {
        let path = reference.unwrap().path();
        if let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".png"))
        {
            if !cases.iter().any(|(name, _)| name == stem) {
                failures.push(format!("{stem}.png has no {stem}.source"));
            }
        }
    }
    for (name, file) in &cases {
        let (endpoint, content_type) = route_for(file);
        let r = s.send_raw(
            "POST",
            &t,
            endpoint,
            content_type,
            std::fs::read(corpus(file)).unwrap(),
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
        let actual = stem.with_extension("png");
        let reference = golden_dir().join(format!("{name}.png"));
        if bless || !reference.exists() {
            std::fs::copy(&actual, &reference).unwrap();
            failures.push(format!(
                "{name}: reference written to {}; review it and commit",
                reference.display()
            ));
            continue;
        }
        let (aw, ah, a) = gray(&actual);
        let (rw, rh, r) = gray(&reference);
        if (aw, ah) != (rw, rh) {
            failures.push(format!("{name}: {aw}x{ah}, reference {rw}x{rh}"));
            continue;
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
        if mean > 2.0 || far > 0.01 {
            std::fs::create_dir_all(&kept_dir).unwrap();
            let kept = kept_dir.join(format!("{name}.png"));
            std::fs::copy(&actual, &kept).unwrap();
            failures.push(format!("{name}: mean difference {mean:.2}/255, {:.2}% of pixels far off (render kept at {})", far * 100.0, kept.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
