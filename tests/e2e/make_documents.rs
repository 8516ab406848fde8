//! Making documents from the pages: the New form on the Documents page and Replace on a
//! document, which go through the API's own create and replace. Over plain HTTP (the form
//! as it posts without scripts) and in Chromium (a file dropped on the page, progress,
//! the refusal's words, the new version shown after a save).

use std::process::Command;

use serde_json::{json, Value};

use crate::browser::chromium;
use crate::common::{corpus, run_tool};
use crate::pages::{browse, csrf_of, login_link, plain_agent, sign_in};
use crate::server::*;

/// A `multipart/form-data` body with one file part (and text parts), as a browser's form
/// sends it.
fn multipart(
    file_name: &str,
    file_type: &str,
    bytes: &[u8],
    texts: &[(&str, &str)],
) -> (String, Vec<u8>) {
    let boundary = format!("----quire{}", rand_hex());
    let mut body = Vec::new();
    for (name, value) in texts {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: {file_type}\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Posts an upload from a page: the session cookie, the form's body, extra headers; no
/// redirect is followed.
fn post_upload(
    url: &str,
    cookie: &str,
    headers: &[(&str, &str)],
    (content_type, body): (String, Vec<u8>),
) -> Resp {
    let mut b = ureq::http::Request::builder()
        .method("POST")
        .uri(url)
        .header("cookie", format!("quire_session={cookie}"))
        .header("content-type", content_type);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let mut r = plain_agent()
        .run(b.body(body).unwrap())
        .unwrap_or_else(|e| panic!("POST {url}: {e}"));
    Resp {
        status: r.status().as_u16(),
        headers: r.headers().clone(),
        body: r.body_mut().read_to_vec().unwrap(),
    }
}

#[test]
fn a_file_posted_from_the_documents_page_becomes_a_document() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let (cookie, _) = sign_in(s, &a.id);
    let page = browse("GET", &s.url("/documents"), Some(&cookie), None).text();
    // The form as it posts without scripts: the token rides in its action.
    let at = page.find("action=\"/documents?_csrf=").expect("a New form");
    let action = &page[at + "action=\"".len()..];
    let action = action[..action.find('"').unwrap()].replace("&amp;", "&");
    assert!(page.contains("accept=\"") && page.contains(".md") && page.contains(".drawio"));
    let csrf = csrf_of(&page);

    let markdown = b"Notes before the title.\n\n# Trip report\n\nWe went north.\n";
    let r = post_upload(
        &s.url(&action),
        &cookie,
        &[("accept", "text/html")],
        multipart("trip.md", "text/markdown", markdown, &[]),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let location = r.header("location").unwrap();
    let id = location
        .strip_prefix("/d/")
        .and_then(|rest| rest.split('?').next())
        .expect("sent to the new document")
        .to_string();
    let shown = browse("GET", &s.url(&location), Some(&cookie), None).text();
    assert!(
        shown.contains("Made “Trip report” from your file."),
        "{shown}"
    );
    // The API sees the same document: named by its heading, the Markdown kept as its source.
    let doc = s.get(&t, &format!("/api/v1/documents/{id}")).json();
    assert_eq!(doc["document"]["title"], "Trip report", "{doc}");
    assert_eq!(doc["document"]["kind"], "pdf");

    // A diagram file makes a diagram; without a title of its own it takes the file's name.
    let drawio = std::fs::read(corpus("drawio/background-page.drawio")).unwrap();
    let r = post_upload(
        &s.url("/documents"),
        &cookie,
        &[("x-csrf-token", &csrf), ("accept", "application/json")],
        multipart(
            "Office plan.drawio",
            "application/octet-stream",
            &drawio,
            &[],
        ),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let made = r.json();
    assert_eq!(made["document"]["kind"], "diagram", "{made}");
    assert_eq!(made["document"]["title"], "Office plan", "{made}");
    assert!(made["open"].as_str().unwrap().starts_with("/d/"), "{made}");

    // Without the token, or with another's, nothing is made.
    let before = s.get(&t, "/api/v1/documents").json()["total"].clone();
    for headers in [vec![], vec![("x-csrf-token", "wrong")]] {
        let r = post_upload(
            &s.url("/documents"),
            &cookie,
            &headers,
            multipart("x.md", "text/markdown", b"# x", &[]),
        );
        assert_eq!(r.status, 403, "{}", r.text());
    }
    let r = post_upload(
        &s.url("/documents?_csrf=wrong"),
        &cookie,
        &[],
        multipart("x.md", "text/markdown", b"# x", &[]),
    );
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(s.get(&t, "/api/v1/documents").json()["total"], before);

    // A file no converter reads is refused in the API's own words.
    let api = {
        let (content_type, body) =
            multipart("notes.xyz", "application/x-unknown", b"\x00\x01", &[]);
        s.send_raw("POST", &t, "/api/v1/pdfs", &content_type, body)
    };
    let r = post_upload(
        &s.url("/documents"),
        &cookie,
        &[("x-csrf-token", &csrf), ("accept", "application/json")],
        multipart("notes.xyz", "application/x-unknown", b"\x00\x01", &[]),
    );
    assert_eq!(r.status, api.status, "{}", r.text());
    assert_eq!(r.status, 415);
    assert_eq!(r.json()["detail"], api.json()["detail"]);

    // Replace: a new version, against the version the page showed.
    let replaced = post_upload(
        &s.url(&format!("/d/{id}/replace")),
        &cookie,
        &[
            ("x-csrf-token", &csrf),
            ("accept", "application/json"),
            ("if-match", "\"2\""),
        ],
        multipart(
            "trip.md",
            "text/markdown",
            b"# Trip report\n\nWe went south.\n",
            &[],
        ),
    );
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    assert_eq!(replaced.json()["document"]["version"], 3);
    let stale = post_upload(
        &s.url(&format!("/d/{id}/replace")),
        &cookie,
        &[
            ("x-csrf-token", &csrf),
            ("accept", "application/json"),
            ("if-match", "\"2\""),
        ],
        multipart("trip.md", "text/markdown", b"# Trip report\n\nNo.\n", &[]),
    );
    assert_eq!(stale.status, 409, "{}", stale.text());
    let text = s.get(&t, &format!("/api/v1/documents/{id}.json")).text();
    assert!(text.contains("south"), "{text}");
}

#[test]
fn a_markdown_file_dropped_on_the_page_becomes_a_pdf_in_chromium() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let shots = tempfile::tempdir().unwrap();
    let config = json!({
        "chromium": chromium(),
        "base": s.base,
        "link": login_link(s, &a.id),
        "shots": shots.path(),
        "dropped": {
            "name": "field-notes.md",
            "type": "text/markdown",
            "text": "# Field notes\n\nThe river was high on Tuesday.\n\n- heron\n- kingfisher\n",
        },
        "replacement": {
            "name": "field-notes.md",
            "type": "text/markdown",
            "text": "# Field notes\n\nThe river was low on Friday.\n",
        },
        "refused": {"name": "photo.heic", "type": "image/heic", "text": "not a picture"},
    });
    let seen = crate::browser::run_script("make.mjs", &config);
    // The one refusal is the 415 this test asks for (nothing else is missing: the pages
    // name their icon, so the browser asks for no /favicon.ico).
    assert_eq!(seen["refused"], json!(["415 /documents"]), "{seen}");
    let errors: Vec<&Value> = seen["consoleErrors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| !e.as_str().unwrap_or("").contains("status of 415"))
        .collect();
    assert!(errors.is_empty(), "{seen}");

    // While the file is over the page, the page says it may be dropped there.
    assert_eq!(seen["dropHint"], "Drop the file to upload it", "{seen}");
    // The drop made the document and opened it, named by its heading.
    let id = seen["documentId"]
        .as_str()
        .expect("a document opened")
        .to_string();
    assert_eq!(seen["heading"], "Field notes", "{seen}");
    assert!(
        seen["notice"]
            .as_str()
            .unwrap()
            .contains("Made “Field notes”"),
        "{seen}"
    );
    let doc = s.get(&t, &format!("/api/v1/documents/{id}")).json();
    assert_eq!(doc["document"]["title"], "Field notes");

    // Its PDF, downloaded from the page, holds the text.
    let pdf = std::path::Path::new(seen["download"].as_str().unwrap());
    let bytes = std::fs::read(pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
    let text = run_tool(Command::new("pdftotext").arg(pdf).arg("-"));
    assert!(text.contains("The river was high on Tuesday."), "{text}");
    assert!(text.contains("kingfisher"), "{text}");

    // A replacement chosen with the button: version 3 in the page's header and history.
    assert!(
        seen["replaceNotice"]
            .as_str()
            .unwrap()
            .contains("Saved version 3"),
        "{seen}"
    );
    assert!(
        seen["metaAfterReplace"]
            .as_str()
            .unwrap()
            .contains("version 3"),
        "{seen}"
    );
    let md = s.get(&t, &format!("/api/v1/documents/{id}.json")).text();
    assert!(md.contains("low on Friday"), "{md}");

    // A file no converter reads: the API's words, shown as an alert, and nothing made.
    let refusal = seen["refusal"].as_str().unwrap();
    assert!(refusal.contains("cannot be read"), "{seen}");
    assert_eq!(seen["refusalRole"], "alert");
    assert_eq!(s.get(&t, "/api/v1/documents").json()["total"], 1);

    // A pressed Add field stays readable under the pointer that pressed it.
    assert_eq!(seen["addFieldPressed"], "true", "{seen}");
    let pressed = seen["addFieldContrast"].as_f64().unwrap();
    assert!(pressed >= 4.5, "pressed Add field contrast {pressed}");
    // The button's words are readable on its colour.
    let contrast = seen["newButtonContrast"].as_f64().unwrap();
    assert!(contrast >= 4.5, "New document button contrast {contrast}");
}

#[test]
fn a_mermaid_source_edited_beside_its_drawing_is_previewed_then_saved_in_chromium() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let made = s.send_json(
        "POST",
        &t,
        "/api/v1/diagrams",
        &json!({"mermaid": "flowchart TD\n  A[Start] --> B[Finish]", "title": "Launch"}),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let id = made.json()["document"]["id"].as_str().unwrap().to_string();
    let shots = tempfile::tempdir().unwrap();
    let config = json!({
        "chromium": chromium(),
        "base": s.base,
        "link": login_link(s, &a.id),
        "document": id,
        "shots": shots.path(),
    });
    let seen = crate::browser::run_script("source.mjs", &config);
    assert_eq!(
        seen["sourceText"], "flowchart TD\n  A[Start] --> B[Finish]",
        "{seen}"
    );
    assert_eq!(seen["label"], "mermaid");
    // The drawing changed as the text did, before anything was saved.
    assert_eq!(seen["previewHasNewNode"], true, "{seen}");
    assert_eq!(seen["versionBeforeSave"], 2, "{seen}");
    assert_eq!(seen["storedHasNewNode"], false, "{seen}");
    // A broken line is named, and the button selects it.
    let problem = seen["problem"].as_str().unwrap();
    assert!(
        problem.starts_with("Line 4, column 8: expected a node id"),
        "{seen}"
    );
    assert_eq!(seen["invalid"], "true");
    assert_eq!(seen["selectedLine"], "  C -->", "{seen}");
    // Mended, drawn again, saved as version 3 through the API's replace.
    assert_eq!(seen["mendedHasNewNode"], true, "{seen}");
    assert_eq!(seen["problemHidden"], true, "{seen}");
    assert!(
        seen["notice"].as_str().unwrap().contains("Saved version 3"),
        "{seen}"
    );
    let model = s.get(&t, &format!("/api/v1/documents/{id}.json")).text();
    assert!(model.contains("Celebrate"), "{model}");
    let doc = s.get(&t, &format!("/api/v1/documents/{id}")).json();
    assert_eq!(doc["document"]["version"], 3, "{doc}");
    // The only refusals are the previews of the broken text (422).
    for refused in seen["refused"].as_array().unwrap() {
        assert!(
            refused.as_str().unwrap().ends_with("/source/preview"),
            "{seen}"
        );
    }
    crate::editor::compare_with_references(shots.path(), &["source"]);

    // A document not made from text has no source page; a stale save is a 409.
    let picture = s.send_json(
        "POST",
        &t,
        "/api/v1/diagrams",
        &json!({"model": {"model": "quire/1", "kind": "diagram", "pages": [{"width": 100, "height": 100, "shapes": []}]}}),
    );
    let pid = picture.json()["document"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (cookie, _) = sign_in(s, &a.id);
    let none = browse(
        "GET",
        &s.url(&format!("/d/{pid}/source")),
        Some(&cookie),
        None,
    );
    assert_eq!(none.status, 404, "{}", none.text());
    let page = browse(
        "GET",
        &s.url(&format!("/d/{id}/source")),
        Some(&cookie),
        None,
    )
    .text();
    let csrf = csrf_of(&page);
    let stale = browse(
        "POST",
        &s.url(&format!("/d/{id}/source")),
        Some(&cookie),
        Some(&[
            ("_csrf", &csrf),
            ("format", "mermaid"),
            ("version", "2"),
            ("text", "flowchart TD\n  X --> Y"),
        ]),
    );
    assert_eq!(stale.status, 409, "{}", stale.text());
    // Without scripts the form posts the text, and the page goes to the new version.
    let saved = browse(
        "POST",
        &s.url(&format!("/d/{id}/source")),
        Some(&cookie),
        Some(&[
            ("_csrf", &csrf),
            ("format", "mermaid"),
            ("version", "3"),
            ("text", "flowchart TD\n  X[Ready] --> Y[Steady]"),
        ]),
    );
    assert_eq!(saved.status, 303, "{}", saved.text());
    let model = s.get(&t, &format!("/api/v1/documents/{id}.json")).text();
    assert!(model.contains("Steady"), "{model}");

    // Markdown has its source page too; its preview is the text as it would be drawn.
    let report = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"markdown": "# Field notes\n\nThe river was high.\n"}),
    );
    let rid = report.json()["document"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let page = browse(
        "GET",
        &s.url(&format!("/d/{rid}/source")),
        Some(&cookie),
        None,
    )
    .text();
    assert!(page.contains("The river was high."), "{page}");
    assert!(
        page.contains("<label for=\"source\">Markdown</label>"),
        "{page}"
    );
    let preview = post_upload(
        &s.url(&format!("/d/{rid}/source/preview?page=1")),
        &cookie,
        &[("x-csrf-token", &csrf), ("accept", "application/json")],
        (
            "application/json".to_string(),
            json!({"markdown": "# Field notes\n\nThe river was low on Friday.\n"})
                .to_string()
                .into_bytes(),
        ),
    );
    assert_eq!(preview.status, 200, "{}", preview.text());
    assert_eq!(preview.header("x-quire-pages").as_deref(), Some("1"));
    let svg = preview.text();
    assert!(svg.contains("<svg") && svg.contains("Friday"), "{svg}");
    // Nothing was stored by the preview.
    let stored = s.get(&t, &format!("/api/v1/documents/{rid}.json")).text();
    assert!(!stored.contains("Friday"), "{stored}");
}

/// A document's page offers the downloads its kind fits, as the exporters say: no mermaid
/// or draw.io file of a Markdown report. The API still serves them (the contract lists a
/// `mermaid` link for every document).
#[test]
fn a_document_page_offers_only_the_downloads_that_fit_its_kind() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let (cookie, _) = sign_in(s, &a.id);
    let made = |path: &str, body: Value| -> String {
        let r = s.send_json("POST", &t, path, &body);
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["document"]["id"].as_str().unwrap().to_string()
    };
    let offered = |id: &str| -> Vec<String> {
        let page = browse("GET", &s.url(&format!("/d/{id}")), Some(&cookie), None).text();
        let downloads = &page[page.find("class=\"downloads\"").expect("a downloads list")..];
        let downloads = &downloads[..downloads.find("</nav>").unwrap()];
        downloads
            .split(&format!("href=\"/d/{id}/download/"))
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    };
    let report = made(
        "/api/v1/pdfs",
        json!({"markdown": "# Field notes\n\nHigh water.\n"}),
    );
    let diagram = made(
        "/api/v1/diagrams",
        json!({"mermaid": "flowchart LR\n  a[One] --> b[Two]"}),
    );
    assert_eq!(offered(&report), ["json", "pdf", "png", "svg"]);
    assert_eq!(
        offered(&diagram),
        ["drawio", "json", "mmd", "pdf", "png", "svg"]
    );
    let r = s.get(&t, &format!("/api/v1/documents/{report}.mmd"));
    assert_eq!(r.status, 200, "{}", r.text());
}
