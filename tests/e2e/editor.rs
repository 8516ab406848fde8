//! The account holder's side in a real browser, JavaScript on: Debian's chromium through
//! playwright-core (tests/browser/editor.mjs) signs in with a printed link and works the
//! pages and the editor; every edit is then read back from the exports by independent
//! means (the .mmd text, the .drawio XML, pypdf on the PDF's AcroForm). Screenshots of the
//! main pages are compared with reviewed references in tests/golden/pages.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::browser::chromium;
use crate::common::target_dir;
use crate::server::*;

fn create(s: &Server, token: &str, endpoint: &str, body: Value) -> String {
    let r = s.send_json("POST", token, endpoint, &body);
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["document"]["id"].as_str().unwrap().to_string()
}

fn model(s: &Server, token: &str, id: &str) -> Value {
    let r = s.get(token, &format!("/api/v1/documents/{id}.json"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// The shape whose text is `text`, anywhere on the pages.
fn shape_with_text<'a>(model: &'a Value, text: &str) -> &'a Value {
    fn walk<'a>(shapes: &'a [Value], text: &str) -> Option<&'a Value> {
        for s in shapes {
            let runs = s["text"]["runs"].as_array();
            if runs.is_some_and(|r| r.iter().any(|run| run["text"] == text)) {
                return Some(s);
            }
            if let Some(found) = s["children"].as_array().and_then(|c| walk(c, text)) {
                return Some(found);
            }
        }
        None
    }
    model["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|p| walk(p["shapes"].as_array().unwrap(), text))
        .unwrap_or_else(|| panic!("no shape says {text}: {model}"))
}

/// Fraction of pixels whose gray levels differ by more than a rendering wobble.
fn differing(a: &Path, b: &Path) -> Result<f64, String> {
    let (wa, ha, pa) = crate::golden::gray(a);
    let (wb, hb, pb) = crate::golden::gray(b);
    if (wa, ha) != (wb, hb) {
        return Err(format!("{wa}x{ha} against {wb}x{hb}"));
    }
    let off = pa
        .iter()
        .zip(&pb)
        .filter(|(x, y)| x.abs_diff(**y) > 32)
        .count();
    Ok(off as f64 / pa.len() as f64)
}

/// The pixels the connectors' guide lines draw (where `guides-shown.png` and
/// `guides-hidden.png` differ), and how many of them lie inside one of `nodes` (boxes in
/// CSS pixels of the page, 1.5 px in from their edges, where a node's border is).
fn guide_pixels(shots: &Path, nodes: &Value) -> (usize, usize) {
    let (w, h, shown) = crate::golden::gray(&shots.join("guides-shown.png"));
    let (w2, h2, hidden) = crate::golden::gray(&shots.join("guides-hidden.png"));
    assert_eq!((w, h), (w2, h2));
    let boxes: Vec<[f64; 4]> = nodes
        .as_array()
        .expect("node boxes")
        .iter()
        .map(|b| {
            let f = |k: &str| b[k].as_f64().unwrap();
            [
                f("x") + 1.5,
                f("y") + 1.5,
                f("x") + f("w") - 1.5,
                f("y") + f("h") - 1.5,
            ]
        })
        .collect();
    assert!(!boxes.is_empty(), "no nodes measured");
    let mut drawn = 0;
    let mut over_nodes = 0;
    for (i, (a, b)) in shown.iter().zip(&hidden).enumerate() {
        if a.abs_diff(*b) <= 16 {
            continue;
        }
        drawn += 1;
        let (x, y) = ((i % w as usize) as f64 + 0.5, (i / w as usize) as f64 + 0.5);
        if boxes
            .iter()
            .any(|b| x > b[0] && x < b[2] && y > b[1] && y < b[3])
        {
            over_nodes += 1;
        }
    }
    (drawn, over_nodes)
}

/// The `x`, `y` of the geometry of the cell with `id` in a .drawio file.
fn cell_position(xml: &str, id: &str) -> (f64, f64) {
    let at = xml
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no cell {id}: {xml}"));
    let geometry = &xml[at..][xml[at..].find("<mxGeometry").unwrap()..];
    let tag = &geometry[..geometry.find('>').unwrap()];
    let attr = |name: &str| -> f64 {
        let key = format!(" {name}=\"");
        tag.find(&key)
            .map(|i| {
                let v = &tag[i + key.len()..];
                v[..v.find('"').unwrap()].parse().unwrap()
            })
            .unwrap_or(0.0)
    };
    (attr("x"), attr("y"))
}

fn pages_golden_dir() -> PathBuf {
    crate::common::repo_root().join("tests/golden/pages")
}

#[test]
fn an_account_holder_edits_in_chromium() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let markdown = create(
        s,
        &t,
        "/api/v1/pdfs",
        json!({"markdown": "# Quarterly planning\n\nPlease sign below.", "title": "Quarterly planning"}),
    );
    let mermaid = create(
        s,
        &t,
        "/api/v1/diagrams",
        json!({"mermaid": "flowchart TD\n  A[Start] --> B[Finish]", "title": "Flow"}),
    );
    let dragged = create(
        s,
        &t,
        "/api/v1/diagrams",
        json!({"mermaid": "flowchart LR\n  P[Left] --> Q[Right]", "title": "Pair"}),
    );
    let conflict = create(
        s,
        &t,
        "/api/v1/pdfs",
        json!({"markdown": "# Conflict me\n\nText.", "title": "Conflict me"}),
    );
    let binned = create(
        s,
        &t,
        "/api/v1/pdfs",
        json!({"markdown": "# Bin me\n\nText.", "title": "Bin me"}),
    );
    let flow = model(s, &t, &mermaid);
    let start = shape_with_text(&flow, "Start")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let flow_ids: Vec<Value> = flow["pages"][0]["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|shape| shape["id"].clone())
        .collect();
    let before = model(s, &t, &dragged);
    let left = shape_with_text(&before, "Left").clone();
    let left_id = left["id"].as_str().unwrap().to_string();

    let drawio_before = s
        .get(&t, &format!("/api/v1/documents/{dragged}.drawio"))
        .text();

    let shots = tempfile::tempdir().unwrap();
    let link = crate::pages::login_link(s, &a.id);
    let config = json!({
        "chromium": chromium(),
        "base": s.base,
        "link": link,
        "token": t,
        "shots": shots.path(),
        "search": "quarterly",
        "mermaid": {"id": mermaid, "node": start, "label": "Begin here", "shapes": flow_ids},
        "drawio": {"id": dragged, "node": left_id, "dx": 60, "dy": 90},
        "markdown": {"id": markdown, "key": "signed_by"},
        "conflict": {"id": conflict},
        "bin": {"id": binned, "title": "Bin me"},
    });
    let seen = crate::browser::run_script("editor.mjs", &config);

    assert_eq!(seen["afterSignIn"], "/documents");
    assert_eq!(seen["found"], json!(["Quarterly planning"]), "{seen}");
    let thumbs = seen["thumbnails"].as_array().unwrap();
    assert_eq!(thumbs.len(), 5);
    assert!(
        thumbs.iter().all(|w| w.as_i64().unwrap() > 50),
        "{thumbs:?}"
    );

    // The renamed label is in the mermaid text.
    assert!(
        seen["mermaidSave"]
            .as_str()
            .unwrap()
            .contains("Saved version 3"),
        "{seen}"
    );
    assert!(
        seen["metaAfterSave"]
            .as_str()
            .unwrap()
            .contains("version 3"),
        "{seen}"
    );
    assert_eq!(seen["versionsAfterSave"], 2, "{seen}");
    assert!(
        seen["diagramHint"]
            .as_str()
            .unwrap()
            .starts_with("Select a node"),
        "{seen}"
    );
    let guides = &seen["guidePointsInsideNodes"];
    assert!(guides["points"].as_u64().unwrap() >= 2, "{guides}");
    let (drawn, over_nodes) = guide_pixels(shots.path(), &seen["nodeBoxes"]);
    assert!(drawn >= 10, "the guide lines drew {drawn} pixels");
    assert_eq!(
        over_nodes, 0,
        "{over_nodes} guide-line pixels lie inside nodes"
    );
    assert_eq!(guides["inside"], 0, "guide lines cross nodes: {guides}");
    // Three long lines grow their node instead of spilling out of it, around its centre;
    // undo puts it back.
    let growth = &seen["textGrowth"];
    let (before, after) = (&growth["before"], &growth["after"]);
    let f = |v: &Value, k: &str| v[k].as_f64().unwrap();
    assert!(f(after, "h") > f(before, "h") * 1.5, "{growth}");
    assert!(f(after, "w") >= f(before, "w"), "{growth}");
    let middle = |v: &Value| (f(v, "x") + f(v, "w") / 2.0, f(v, "y") + f(v, "h") / 2.0);
    let (mb, ma) = (middle(before), middle(after));
    assert!(
        (mb.0 - ma.0).abs() < 1.0 && (mb.1 - ma.1).abs() < 1.0,
        "{growth}"
    );
    assert_eq!(&seen["textGrowthUndone"], before, "{seen}");
    let mmd = s
        .get(&t, &format!("/api/v1/documents/{mermaid}.mmd"))
        .text();
    assert!(mmd.contains("Begin here"), "{mmd}");
    assert!(!mmd.contains("Start"), "{mmd}");

    // A node added and connected, deleted with its connector; undo and redo follow.
    let n = seen["shapesBefore"].as_i64().unwrap();
    assert!(seen["newNode"].is_string(), "{seen}");
    assert_eq!(seen["shapesAdded"], n + 1, "{seen}");
    assert_eq!(seen["shapesConnected"], n + 2, "{seen}");
    assert_eq!(seen["shapesDeleted"], n, "{seen}");
    assert_eq!(seen["shapesUndone"], n + 2, "{seen}");
    assert_eq!(seen["shapesRedone"], n, "{seen}");

    // The dragged node moved; its connector is still attached to it in the .drawio.
    assert!(
        seen["drawioSave"]
            .as_str()
            .unwrap()
            .contains("Saved version 3"),
        "{seen}"
    );
    let after = model(s, &t, &dragged);
    let moved = shape_with_text(&after, "Left");
    let dx = moved["x"].as_f64().unwrap() - left["x"].as_f64().unwrap();
    let dy = moved["y"].as_f64().unwrap() - left["y"].as_f64().unwrap();
    assert!(dx > 10.0 && dy > 10.0, "moved by {dx}, {dy}");
    let drawio = s
        .get(&t, &format!("/api/v1/documents/{dragged}.drawio"))
        .text();
    assert!(
        drawio.contains(&format!("source=\"{left_id}\"")),
        "the edge still starts at the node: {drawio}"
    );
    // In the .drawio the node moved by as much as in the model, against its partner.
    let right_id = shape_with_text(&after, "Right")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let gap = |xml: &str| {
        let (lx, ly) = cell_position(xml, &left_id);
        let (rx, ry) = cell_position(xml, &right_id);
        (lx - rx, ly - ry)
    };
    let (gx0, gy0) = gap(&drawio_before);
    let (gx1, gy1) = gap(&drawio);
    assert!(
        ((gx1 - gx0) - dx).abs() < 1.0 && ((gy1 - gy0) - dy).abs() < 1.0,
        "moved by ({}, {}) in the .drawio, ({dx}, {dy}) in the model",
        gx1 - gx0,
        gy1 - gy0
    );

    // The field drawn on the Markdown document is in the PDF's AcroForm.
    assert_eq!(seen["fieldBoxes"], 1);
    assert!(
        seen["markdownSave"]
            .as_str()
            .unwrap()
            .contains("Saved version 3"),
        "{seen}"
    );
    let pdf = s.get(&t, &format!("/api/v1/documents/{markdown}.pdf"));
    assert_eq!(pdf.status, 200);
    let read = crate::forms::pypdf_read(&pdf.body);
    assert_eq!(read["fields"]["signed_by"]["/FT"], "/Tx", "{read}");
    assert_eq!(read["fields"]["signed_by"]["/TU"], "Your name", "{read}");

    // Made a form on its page, then closed there: the API agrees.
    assert!(
        seen["formNotice"].as_str().unwrap().contains("now a form"),
        "{seen}"
    );
    assert_eq!(seen["formQuestions"], json!(["Your name"]));
    assert!(
        seen["formState"].as_str().unwrap().contains("closed"),
        "{seen}"
    );
    let form = s.get(&t, &format!("/api/v1/forms/{markdown}")).json();
    assert_eq!(form["form"]["form"]["open"], false, "{form}");

    // A save against a document changed elsewhere shows the conflict; nothing is lost.
    assert_eq!(seen["elsewhereStatus"], 200);
    assert_eq!(seen["conflictShown"], true, "{seen}");
    let now = model(s, &t, &conflict);
    assert!(
        now.to_string().contains("Changed elsewhere"),
        "the other change stands"
    );

    // Binned and restored.
    assert!(seen["binnedNotice"].as_str().unwrap().contains("Bin me"));
    let offset = seen["binRowOffset"].as_f64().unwrap();
    assert!(
        offset <= 2.0,
        "the bin row's text sits {offset} px off its buttons' middle"
    );
    assert!(seen["restoredNotice"]
        .as_str()
        .unwrap()
        .contains("Restored"));
    assert_eq!(
        s.get(&t, &format!("/api/v1/documents/{binned}")).status,
        200
    );

    // The credential shown once gets a token.
    let r = s.token_response(
        seen["clientId"].as_str().unwrap(),
        seen["clientSecret"].as_str().unwrap(),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.text());

    // The endpoint added on the page is the account's, its secret shown once.
    assert!(
        seen["webhookSecret"]
            .as_str()
            .unwrap()
            .starts_with("whsec_"),
        "{seen}"
    );
    let hooks = s.get(&t, "/api/v1/webhooks").json();
    assert_eq!(
        hooks["webhooks"][0]["url"],
        "https://hooks.example.org/quire"
    );
    assert_eq!(hooks["webhooks"][0]["events"], json!(["document.created"]));

    assert_eq!(seen["apiStatus"], 401);
    assert_eq!(seen["noCsrfStatus"], 403);

    // Failed loads the test caused on purpose (the 409) are logged by Chromium; anything
    // else the pages' scripts complain about is a defect.
    let complaints: Vec<&Value> = seen["consoleErrors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m.as_str().unwrap_or("").contains("Failed to load resource"))
        .collect();
    assert!(complaints.is_empty(), "{complaints:?}");

    // A report is offered what fits a page of text, not mermaid or draw.io files.
    assert_eq!(
        seen["markdownDownloads"],
        json!([".json", ".pdf", ".png", ".svg"])
    );

    // Screenshots against their reviewed references.
    compare_with_references(
        shots.path(),
        &[
            "documents",
            "document",
            "editor",
            "form",
            "bin",
            "credentials",
            "webhooks",
            "forms",
            "usage",
        ],
    );
}

/// Compares the screenshots `<name>.png` in `shots` with their reviewed references in
/// tests/golden/pages (a copy of each stays in target/golden-actual/pages to look at). A
/// missing reference, or QUIRE_BLESS=1, writes it and fails: look at it, then commit it.
pub fn compare_with_references(shots: &Path, names: &[&str]) {
    let bless = std::env::var("QUIRE_BLESS").is_ok_and(|v| v == "1");
    let kept = target_dir().join("golden-actual/pages");
    let _ = std::fs::create_dir_all(&kept);
    let mut failures = Vec::new();
    for name in names {
        let actual = shots.join(format!("{name}.png"));
        let reference = pages_golden_dir().join(format!("{name}.png"));
        std::fs::copy(&actual, kept.join(format!("{name}.png"))).unwrap();
        if bless || !reference.exists() {
            std::fs::create_dir_all(pages_golden_dir()).unwrap();
            std::fs::copy(&actual, &reference).unwrap();
            failures.push(format!("{name}: reference written; review it and commit"));
            continue;
        }
        match differing(&actual, &reference) {
            Ok(f) if f <= 0.01 => {}
            Ok(f) => failures.push(format!(
                "{name}: {:.2}% of pixels differ from {} (kept in {})",
                f * 100.0,
                reference.display(),
                kept.display()
            )),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
