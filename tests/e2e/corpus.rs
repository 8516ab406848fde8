//! Every corpus file through the real API: it becomes a document, or it gets the
//! contract's error (never a 5xx, never a hang), and what comes out is checked by
//! independent tools (qpdf, pdftotext, the PNG decoder of Python, an XML parser).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::*;
use crate::server::*;

/// The endpoint and Content-Type for a corpus file, by its extension.
fn route(path: &Path) -> Option<(&'static str, &'static str)> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "md" => ("/api/v1/pdfs", "text/markdown"),
        "html" => ("/api/v1/pdfs", "text/html"),
        "png" => ("/api/v1/pdfs", "image/png"),
        "jpg" | "jpeg" => ("/api/v1/pdfs", "image/jpeg"),
        "pdf" => ("/api/v1/pdfs", "application/pdf"),
        "mmd" => ("/api/v1/diagrams", "text/vnd.mermaid"),
        "svg" => ("/api/v1/diagrams", "image/svg+xml"),
        "drawio" | "xml" => ("/api/v1/diagrams", "application/vnd.jgraph.mxfile"),
        "vsdx" | "vsdm" => ("/api/v1/diagrams", "application/vnd.ms-visio.drawing"),
        _ => return None,
    })
}

/// Which importer a Content-Type needs, so a folder whose converter is not built yet
/// fails loudly rather than silently passing.
fn served(s: &Server, t: &str) -> Vec<String> {
    let r = request(
        "GET",
        &format!("{}/plugins", s.admin_base),
        &[("authorization", "Bearer operator-secret-for-tests")],
        None,
    );
    let _ = t;
    r.json()["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["active"] == true)
        .flat_map(|p| {
            p["imports"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn check_pdf(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(format!("{name}.pdf"));
    std::fs::write(&path, bytes).unwrap();
    run_tool(Command::new("qpdf").arg("--check").arg(&path));
    run_tool(
        Command::new("pdftotext")
            .args(["-l", "3"])
            .arg(&path)
            .arg("-"),
    )
}

/// Runs one folder of the corpus; returns (created, refused) counts.
fn run_folder(s: &Server, t: &str, folder: &str) -> (usize, usize) {
    let work = tempfile::tempdir().unwrap();
    let imports = served(s, t);
    let (mut created, mut refused) = (0, 0);
    let mut entries: Vec<_> = std::fs::read_dir(corpus(folder))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let Some((endpoint, content_type)) = route(&path) else {
            continue;
        };
        if folder == "svg" && path.to_string_lossy().ends_with(".ref.png") {
            continue;
        }
        assert!(
            imports.iter().any(|m| m == content_type),
            "no active converter reads {content_type} (for {})",
            path.display()
        );
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let r = s.send_raw(
            "POST",
            t,
            &format!("{endpoint}?title={}", name.replace(' ', "%20")),
            content_type,
            bytes,
        );
        assert!(r.status < 500, "{name}: {} {}", r.status, r.text());
        let body: Value = r.json();
        if r.status != 201 {
            // Only the contract's refusals, each with a sentence.
            assert!(
                [409, 413, 415, 422].contains(&r.status),
                "{name}: {} {}",
                r.status,
                r.text()
            );
            assert!(
                body["detail"].as_str().is_some_and(|d| d.len() > 10),
                "{name}: {body}"
            );
            refused += 1;
            continue;
        }
        created += 1;
        let id = body["document"]["id"].as_str().unwrap();
        assert!(body["document"]["pages"].as_i64().unwrap() >= 1, "{name}");
        let pdf = s.get(t, &format!("/api/v1/documents/{id}.pdf"));
        assert_eq!(pdf.status, 200, "{name}.pdf: {}", pdf.text());
        check_pdf(work.path(), &name, &pdf.body);
        let svg = s.get(t, &format!("/api/v1/documents/{id}.svg?page=1"));
        assert_eq!(svg.status, 200, "{name}.svg: {}", svg.text());
        assert!(svg.text().contains("<svg"), "{name}.svg");
        let png = s.get(t, &format!("/api/v1/documents/{id}.png?page=1&dpi=30"));
        assert_eq!(png.status, 200, "{name}.png: {}", png.text());
        assert!(
            png.body.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{name}.png is not a PNG"
        );
    }
    (created, refused)
}

#[test]
fn markdown_corpus_over_http() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    let (created, refused) = run_folder(s, &t, "markdown");
    assert_eq!(
        (created, refused),
        (10, 0),
        "every Markdown file of the corpus converts"
    );
    // Reading order survives into the PDF's text.
    let md = std::fs::read(corpus("markdown/mermaid-pull-request-template.md")).unwrap();
    let r = s.send_raw("POST", &t, "/api/v1/pdfs", "text/markdown", md);
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
    let work = tempfile::tempdir().unwrap();
    let text = check_pdf(work.path(), "template", &pdf.body);
    let summary = text.find("Summary").expect("heading in the text");
    let checklist = text
        .find("Design Decisions")
        .expect("later heading in the text");
    assert!(summary < checklist, "{text}");
}

#[test]
fn svg_corpus_over_http() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    let (created, _) = run_folder(s, &t, "svg");
    assert!(created >= 14, "created {created}");
}

#[test]
fn drawio_corpus_over_http() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    let (created, _) = run_folder(s, &t, "drawio");
    assert!(created >= 12, "created {created}");
}

#[test]
fn vsdx_corpus_over_http() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    let (created, refused) = run_folder(s, &t, "vsdx");
    assert_eq!((created, refused), (13, 0));
}

#[test]
fn locked_and_damaged_pdfs_get_the_contract_answers() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    let pdf = |name: &str| std::fs::read(corpus(&format!("pdf/{name}"))).unwrap();
    let auth = format!("Bearer {t}");

    // Owner-restricted: 409 with what a program needs to act; ?unlock=1 imports it.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "application/pdf",
        pdf("pdfjs-bug900822-rc4-40bit-owner-only.pdf"),
    );
    assert_eq!(r.status, 409, "{}", r.text());
    let body = r.json();
    assert_eq!(body["locked"], "restrictions");
    assert_eq!(body["opens"], true);
    for k in ["print", "copy", "modify"] {
        assert!(body["allows"][k].is_boolean(), "{body}");
    }
    assert!(body["unlock"].as_str().unwrap().contains("unlock=1"));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs?unlock=1",
        "application/pdf",
        pdf("pdfjs-bug900822-rc4-40bit-owner-only.pdf"),
    );
    assert_eq!(r.status, 201, "{}", r.text());

    // Password: 422 locked=password until the header brings the right one.
    let file = pdf("pdfjs-pr6531-aes256-user-password.pdf");
    let r = s.send_raw("POST", &t, "/api/v1/pdfs", "application/pdf", file.clone());
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.json()["locked"], "password");
    let with = |pw: &str| {
        request(
            "POST",
            &s.url("/api/v1/pdfs?unlock=1"),
            &[("authorization", &auth), ("x-doc-password", pw)],
            Some(("application/pdf", file.clone())),
        )
    };
    assert_eq!(with("qwerty").status, 422);
    let r = with("asdfasdf");
    assert_eq!(r.status, 201, "{}", r.text());

    // Damaged: 422 with a sentence.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "application/pdf",
        pdf("ocrmypdf-invalid-header-only.pdf"),
    );
    assert_eq!(r.status, 422, "{}", r.text());

    // mode=image keeps each page as one picture.
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD
        .encode(pdf("pdfjs-bug1883609-acroform-mixed.pdf"));
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &serde_json::json!({"pdf": b64, "mode": "image"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let doc = &r.json()["document"];
    assert_eq!(doc["shapes"], doc["pages"], "one picture per page: {doc}");
    // The editable import has real text.
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &serde_json::json!({"pdf": b64}));
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let model = s.get(&t, &format!("/api/v1/documents/{id}.json")).json();
    let texts = model["pages"][0]["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["type"] == "text")
        .count();
    assert!(texts > 5, "editable import kept only {texts} text boxes");
}

#[test]
fn html_image_and_pdf_corpus_over_http() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    assert_eq!(run_folder(s, &t, "html"), (10, 0));
    assert_eq!(run_folder(s, &t, "images"), (12, 0));
    // 9 open; 2 locked against changes (409) and 4 needing a password (422) until unlocked;
    // 1 damaged (422).
    assert_eq!(run_folder(s, &t, "pdf"), (9, 7));
}

#[test]
fn mermaid_corpus_over_http() {
    let s = shared();
    let t = s.token(&s.account("enterprise"));
    // 13 flowcharts; the sequence diagram is refused by name.
    assert_eq!(run_folder(s, &t, "mermaid"), (13, 1));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/diagrams",
        "text/vnd.mermaid",
        std::fs::read(corpus("mermaid/not-a-flowchart-sequence.mmd")).unwrap(),
    );
    assert_eq!(r.status, 422);
    assert!(
        r.json()["detail"]
            .as_str()
            .unwrap()
            .contains("sequenceDiagram"),
        "{}",
        r.text()
    );
    let r = s.send_json("POST", &t, "/api/v1/diagrams", &serde_json::json!({"mermaid": "flowchart TD\n  a[Start] --> b{Ok?}\n  b -- yes --> c([Done])\n  subgraph S\n    c\n  end"}));
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let mmd = s.get(&t, &format!("/api/v1/documents/{id}.mmd"));
    assert_eq!(mmd.status, 200, "{}", mmd.text());
    assert_eq!(
        mmd.header("content-type").as_deref(),
        Some("text/vnd.mermaid")
    );
    let shapes: usize = mmd
        .header("x-service-shapes")
        .expect("X-Service-Shapes")
        .parse()
        .unwrap();
    assert!(shapes >= 4, "3 nodes and a subgraph at least: {shapes}");
    assert_eq!(mmd.header("x-service-dropped").as_deref(), Some("0"));
    assert_eq!(
        mmd.header("x-service-loose-connectors").as_deref(),
        Some("0")
    );
    let text = mmd.text();
    assert!(
        text.contains("\nflowchart") && text.contains("subgraph") && text.contains("yes"),
        "{text}"
    );
    let drawio = s.get(&t, &format!("/api/v1/documents/{id}.drawio"));
    assert_eq!(
        drawio.header("content-type").as_deref(),
        Some("application/xml")
    );
    assert!(drawio.text().contains("<mxGraphModel"), "{}", drawio.text());
    // The .drawio file imports back with the same structure.
    let back = s.send_json(
        "POST",
        &t,
        "/api/v1/diagrams",
        &serde_json::json!({"drawio": drawio.text()}),
    );
    assert_eq!(back.status, 201, "{}", back.text());
}
