//! `multipart/form-data` uploads as users coming from Gotenberg and Stirling-PDF send them:
//! `curl -F file=@report.pdf`, checked with curl itself against a real server.

use std::process::Command;

use serde_json::Value;

use crate::common::{corpus, run_tool};
use crate::forms::sample_fields;
use crate::server::*;

/// `curl -F ...` to `path`; returns (status, body as JSON).
fn curl_form(s: &Server, token: &str, method: &str, path: &str, parts: &[&str]) -> (u16, Value) {
    let mut cmd = Command::new("curl");
    cmd.args(["-s", "-X", method, "-w", "\n%{http_code}", "-H"])
        .arg(format!("Authorization: Bearer {token}"));
    for part in parts {
        cmd.arg("-F").arg(part);
    }
    cmd.arg(s.url(path));
    let out = run_tool(&mut cmd);
    let (body, status) = out.trim_end().rsplit_once('\n').expect("status line");
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    (status.parse().unwrap(), json)
}

fn file(rel: &str) -> String {
    format!("file=@{}", corpus(rel).display())
}

#[test]
fn curl_f_file_creates_documents_of_every_kind() {
    let s = shared();
    let t = &s.token(&s.account("pro"));

    // A PDF, named by its part's Content-Type (curl guesses none: octet-stream) and name.
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/pdfs",
        &[&file("pdf/pdfjs-checkbox-no-appearance.pdf")],
    );
    assert_eq!(status, 201, "{r}");
    assert_eq!(r["document"]["kind"], "pdf");

    // Mermaid by file name, with a title part.
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/diagrams",
        &[&file("mermaid/circle-cross-edges.mmd"), "title=Crossing"],
    );
    assert_eq!(status, 201, "{r}");
    assert_eq!(r["document"]["kind"], "diagram");
    assert_eq!(r["document"]["title"], "Crossing");

    // A Visio drawing with an explicit part type, a draw.io file by extension.
    let vsdx = format!(
        "file=@{};type=application/vnd.ms-visio.drawing",
        corpus("vsdx/vsdx-test11-rotate.vsdx").display()
    );
    let (status, r) = curl_form(s, t, "POST", "/api/v1/diagrams", &[&vsdx]);
    assert_eq!(status, 201, "{r}");
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/diagrams",
        &[&file("drawio/background-page.drawio")],
    );
    assert_eq!(status, 201, "{r}");
    // Named by the file it came in, as nothing in it names a title.
    assert_eq!(r["document"]["title"], "background-page");

    // A source part by its contract name, sent as text rather than a file.
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/pdfs",
        &["markdown=# Typed in\n\nNo file."],
    );
    assert_eq!(status, 201, "{r}");
    let id = r["document"]["id"].as_str().unwrap().to_string();
    let version = r["document"]["version"].as_i64().unwrap();
    let model = s.get(t, &format!("/api/v1/documents/{id}.json")).json();
    assert!(model.to_string().contains("Typed in"), "{model}");

    // Replace through PUT with a new file.
    let (status, r) = curl_form(
        s,
        t,
        "PUT",
        &format!("/api/v1/pdfs/{id}"),
        &[&file("markdown/pdfjs-getting-started.md")],
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["document"]["version"], version + 1);
    assert_eq!(r["document"]["id"], id.as_str());
}

#[test]
fn markdown_with_side_images_and_a_form_with_fields() {
    let s = shared();
    let t = &s.token(&s.account("pro"));
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("report.md");
    std::fs::write(&md, "# Report\n\n![the chart](chart.png)\n").unwrap();
    let png = corpus("images/pngsuite-basn3p04-4bit-palette.png");
    let chart = dir.path().join("chart.png");
    std::fs::copy(&png, &chart).unwrap();
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/pdfs",
        &[
            &format!("file=@{}", md.display()),
            &format!("images=@{}", chart.display()),
        ],
    );
    assert_eq!(status, 201, "{r}");
    let id = r["document"]["id"].as_str().unwrap();
    let model = s.get(t, &format!("/api/v1/documents/{id}.json")).json();
    assert!(
        model.to_string().contains("\"type\":\"image\""),
        "the side image is drawn: {model}"
    );

    let fields = sample_fields().to_string();
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/forms",
        &[
            &format!("file=@{};type=text/markdown", md.display()),
            &format!("images=@{}", chart.display()),
            &format!("fields={fields}"),
        ],
    );
    assert_eq!(status, 201, "{r}");
    let placed = r["form"]["form"]["fields"]
        .as_array()
        .expect("the form's fields");
    assert!(
        placed.iter().any(|f| f["key"] == "email") && placed.iter().any(|f| f["key"] == "notes"),
        "the fields part is placed: {r}"
    );
}

/// An SVG beside a Markdown file is drawn as vectors: its label is text of the PDF (pdftotext
/// reads it), and the PDF holds no picture (pdfimages lists none), where it used to be
/// left out for its alt text.
#[test]
fn markdown_with_an_svg_picture_draws_it_with_its_text() {
    let s = shared();
    let t = &s.token(&s.account("pro"));
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("readme.md");
    std::fs::write(
        &md,
        "# Readme\n\n![Architecture](diagram.svg)\n\nThe end.\n",
    )
    .unwrap();
    let svg = dir.path().join("diagram.svg");
    std::fs::write(
        &svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120">
  <rect x="10" y="30" width="120" height="60" rx="8" fill="#e3f2fd" stroke="#1565c0"/>
  <text x="70" y="65" text-anchor="middle" font-family="sans-serif" font-size="14">Gateway</text>
  <path d="M130 60 H190" stroke="#333" stroke-width="2"/>
  <rect x="190" y="30" width="120" height="60" rx="8" fill="#e8f5e9" stroke="#2e7d32"/>
  <text x="250" y="65" text-anchor="middle" font-family="sans-serif" font-size="14">Converters</text>
</svg>"##,
    )
    .unwrap();
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/pdfs",
        &[
            &format!("file=@{}", md.display()),
            &format!("images=@{}", svg.display()),
        ],
    );
    assert_eq!(status, 201, "{r}");
    let id = r["document"]["id"].as_str().unwrap();
    let pdf = s.get(t, &format!("/api/v1/documents/{id}.pdf"));
    assert_eq!(pdf.status, 200);
    let path = dir.path().join("readme.pdf");
    std::fs::write(&path, &pdf.body).unwrap();
    let text = run_tool(Command::new("pdftotext").arg(&path).arg("-"));
    // pdftotext orders words by where they stand, not by the model: compare them as a set.
    let mut words: Vec<&str> = text.split_whitespace().collect();
    words.sort_unstable();
    assert_eq!(
        words,
        ["Converters", "Gateway", "Readme", "The", "end."],
        "{text}"
    );
    let images = run_tool(Command::new("pdfimages").arg("-list").arg(&path));
    assert_eq!(
        images.lines().count(),
        2,
        "no picture, only shapes:\n{images}"
    );
}

#[test]
fn multipart_mistakes_are_named() {
    let s = shared();
    let t = &s.token(&s.account("pro"));
    let pdf = file("pdf/pdfjs-checkbox-no-appearance.pdf");
    let cases: &[(&[&str], u16, &str)] = &[
        (&[&pdf, &pdf], 400, "one file part"),
        (&[&pdf, "colour=blue"], 400, "unknown part `colour`"),
        (&["title=Nothing else"], 400, "no file part"),
        (
            &["file=@/etc/hostname;filename=notes.xyz"],
            415,
            "not known from its name",
        ),
    ];
    for (parts, want, says) in cases {
        let (status, r) = curl_form(s, t, "POST", "/api/v1/pdfs", parts);
        assert_eq!(status, *want, "{parts:?}: {r}");
        assert_eq!(r["ok"], false);
        let error = r["detail"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{parts:?}: {error}");
    }
    // A file past the plan's limit is refused as a raw body would be.
    let big = tempfile::NamedTempFile::new().unwrap();
    let usage = s.get(t, "/api/v1/usage").json();
    let max_file = usage["storage"]["largest_file"]
        .as_u64()
        .expect("usage names the largest file");
    std::fs::write(big.path(), vec![b'a'; max_file as usize + 1]).unwrap();
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/pdfs",
        &[&format!(
            "file=@{};type=text/markdown",
            big.path().display()
        )],
    );
    assert_eq!(status, 413, "{r}");
}

/// draw.io saves diagrams as `.xml` too, and clients send them as generic XML: the root
/// element (`<mxfile>`, or an SVG's `<svg>`) says which importer reads them.
#[test]
fn xml_files_are_read_by_their_root_element() {
    let s = shared();
    let t = &s.token(&s.account("pro"));
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("process.xml");
    std::fs::copy(corpus("drawio/bpmn-example.drawio"), &saved).unwrap();
    let (status, r) = curl_form(
        s,
        t,
        "POST",
        "/api/v1/diagrams",
        &[&format!("file=@{}", saved.display())],
    );
    assert_eq!(status, 201, "{r}");
    assert_eq!(r["document"]["kind"], "diagram");

    let svg = std::fs::read(corpus("svg/resvg-entity-reference.svg")).unwrap();
    let r = s.send_raw("POST", t, "/api/v1/diagrams", "application/xml", svg);
    assert_eq!(r.status, 201, "{}", r.text());
    let drawio = std::fs::read(corpus("drawio/bpmn-example.drawio")).unwrap();
    let r = s.send_raw("POST", t, "/api/v1/diagrams", "text/xml", drawio);
    assert_eq!(r.status, 201, "{}", r.text());

    // XML of neither kind is refused with the formats that are read.
    let r = s.send_raw(
        "POST",
        t,
        "/api/v1/diagrams",
        "application/xml",
        b"<rss/>".to_vec(),
    );
    assert_eq!(r.status, 415, "{}", r.text());
}
