//! Golden tests in Typst's style: a corpus file goes through the API, page 1 of its PDF is
//! rendered by pdftoppm, and the picture is compared, with a tolerance, with a reviewed
//! reference in tests/golden/. A missing reference (or QUIRE_BLESS=1) writes the new
//! render there and fails: look at it, then commit it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::server::*;

const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "markdown-getting-started",
        "markdown/pdfjs-getting-started.md",
        "/api/v1/pdfs",
        "text/markdown",
    ),
    (
        "html-ietf-draft",
        "html/readability-ietf-draft.html",
        "/api/v1/pdfs",
        "text/html",
    ),
    (
        "image-palette",
        "images/pngsuite-basn3p04-4bit-palette.png",
        "/api/v1/pdfs",
        "image/png",
    ),
    (
        "pdf-acroform-mixed",
        "pdf/pdfjs-bug1883609-acroform-mixed.pdf",
        "/api/v1/pdfs",
        "application/pdf",
    ),
    (
        "drawio-uml-activity",
        "drawio/uml-activity.drawio",
        "/api/v1/diagrams",
        "application/vnd.jgraph.mxfile",
    ),
    (
        "vsdx-basic-flowchart",
        "vsdx/aspose-basic-flowchart.vsdx",
        "/api/v1/diagrams",
        "application/vnd.ms-visio.drawing",
    ),
];

fn golden_dir() -> PathBuf {
    crate::common::repo_root().join("tests/golden")
}

fn gray(path: &Path) -> (u32, u32, Vec<u8>) {
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
    let mut failures = Vec::new();
    for (name, file, endpoint, content_type) in CASES {
        let r = s.send_raw(
            "POST",
            &t,
            endpoint,
            content_type,
            std::fs::read(corpus(file)).unwrap(),
        );
        assert_eq!(r.status, 201, "{name}: {}", r.text());
        let id = r.json()["document"]["id"].as_str().unwrap().to_string();
        let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf?page=1"));
        assert_eq!(pdf.status, 200, "{name}");
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
            let kept = work.path().join(format!("{name}.actual.png"));
            std::fs::copy(&actual, &kept).unwrap();
            failures.push(format!("{name}: mean difference {mean:.2}/255, {:.2}% of pixels far off (render kept at {})", far * 100.0, kept.display()));
            std::mem::forget(work);
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
