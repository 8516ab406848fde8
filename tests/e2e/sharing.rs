//! Sharing a form and answering it as people do: the owner copies the link (and has a QR
//! code and, where the operator allows it, an embed snippet); a respondent on a phone
//! answers with the form first and signs with a finger; the drawn signature is ink in the
//! filled copy. Over HTTP for the rules, in Chromium for the person.

use serde_json::{json, Value};

use crate::browser::chromium;
use crate::forms::{create_form, good_answers, ink_in_box, sample_fields, FORM_MD};
use crate::pages::{browse, login_link, sign_in};
use crate::server::*;

/// The sample form's signature box, in points from the page's top left.
const SIGN_BOX: (f64, f64, f64, f64) = (72.0, 470.0, 200.0, 30.0);

fn drawing() -> Value {
    json!({"width": 300, "height": 100, "strokes": [
        [20, 80, 60, 20, 100, 80, 140, 20, 180, 80, 220, 20, 260, 80],
        [30, 90, 270, 90]
    ]})
}

/// The filled copy of the newest response, as a PDF and as its model.
fn newest_copy(s: &Server, t: &str, form: &str) -> (Value, Vec<u8>, Value) {
    let list = s.get(t, &format!("/api/v1/forms/{form}/responses")).json();
    let response = list["responses"][0].clone();
    let copy = response["document"]
        .as_str()
        .expect("a filled copy")
        .to_string();
    let pdf = s.get(t, &format!("/api/v1/documents/{copy}.pdf"));
    assert_eq!(pdf.status, 200, "{}", pdf.text());
    let model = s.get(t, &format!("/api/v1/documents/{copy}.json")).json();
    (response, pdf.body, model)
}

fn assert_signed_in_ink(model: &Value, pdf: &[u8]) {
    let model = model.get("document").unwrap_or(model);
    let fields = model["fields"].as_array().cloned().unwrap_or_default();
    assert!(
        fields.iter().all(|f| f["key"] != "sign"),
        "the signed box is ink now, not a field: {fields:?}"
    );
    let ink: Vec<&Value> = model["pages"][0]["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["type"] == "path" && s["id"].as_str().unwrap_or("").starts_with("signature"))
        .collect();
    assert_eq!(ink.len(), 1, "one path of ink: {model}");
    // Kept to look at: the ink where the box was.
    let kept = crate::common::target_dir().join("golden-actual");
    let _ = std::fs::create_dir_all(&kept);
    let _ = std::fs::write(kept.join("signed-copy.pdf"), pdf);
    let (x, y, w, h) = SIGN_BOX;
    let dark = ink_in_box(pdf, x, y, w, h);
    assert!(
        dark > 60,
        "the signature box of the filled copy holds {dark} dark pixels"
    );
}

#[test]
fn a_drawn_signature_sent_through_the_api_is_ink_in_the_filled_copy() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let form = create_form(s, &t, "Signed by hand");
    let id = form["id"].as_str().unwrap();
    let mut answers = good_answers();
    answers["sign"] = drawing();
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{id}/responses"),
        &json!({"answers": answers, "as": "hand@example.org"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let (response, pdf, model) = newest_copy(s, &t, id);
    let rid = response["id"].as_str().unwrap();
    let one = s
        .get(&t, &format!("/api/v1/forms/{id}/responses/{rid}"))
        .json();
    assert_eq!(one["response"]["answers"]["sign"], drawing(), "{one}");
    assert_signed_in_ink(&model, &pdf);
    let csv = s
        .get(&t, &format!("/api/v1/forms/{id}/responses.csv"))
        .text();
    assert!(csv.contains("(drawn signature)"), "{csv}");

    // Drawings that are not drawings are refused, each with a reason, like any answer of
    // the wrong shape; nothing is kept.
    for (bad, says) in [
        (
            json!({"width": 0, "height": 10, "strokes": [[1, 1]]}),
            "width",
        ),
        (
            json!({"width": 30, "height": 10, "strokes": [[1, 1, 2]]}),
            "even count",
        ),
        (
            json!({"width": 30, "height": 10, "strokes": [[1, "x"]]}),
            "pair of numbers",
        ),
        (
            json!({"width": 30, "height": 10, "strokes": [vec![1; 10_002]]}),
            "5000 points",
        ),
        (
            json!({"picture": "data:image/png;base64,AAAA"}),
            "typed name or a drawing",
        ),
    ] {
        let mut answers = good_answers();
        answers["sign"] = bad;
        let r = s.send_json(
            "POST",
            &t,
            &format!("/api/v1/forms/{id}/responses"),
            &json!({"answers": answers}),
        );
        assert_eq!(r.status, 400, "{}", r.text());
        assert!(r.text().contains(says), "{says}: {}", r.text());
    }
    let list = s.get(&t, &format!("/api/v1/forms/{id}/responses")).json();
    assert_eq!(list["total"], 1, "{list}");
}

#[test]
fn framing_the_form_page_is_allowed_only_for_the_sites_the_operator_lists() {
    let s = Server::start(&[(
        "QUIRE_FRAME_ANCESTORS",
        "https://intranet.example.com, https://*.example.org",
    )]);
    let a = s.account("pro");
    let t = s.token(&a);
    let form = create_form(&s, &t, "Embedded");
    let id = form["id"].as_str().unwrap();
    let page = request("GET", &s.url(&format!("/f/{id}")), &[], None);
    assert_eq!(page.status, 200);
    let policy = page.header("content-security-policy").unwrap();
    assert!(
        policy.contains("frame-ancestors https://intranet.example.com https://*.example.org"),
        "{policy}"
    );
    assert_eq!(
        page.header("x-frame-options"),
        None,
        "a listed site may frame it"
    );
    // Everything else is framed by no one.
    for path in ["/documents", "/healthz", "/signin"] {
        let r = request("GET", &s.url(path), &[], None);
        assert_eq!(
            r.header("x-frame-options").as_deref(),
            Some("DENY"),
            "{path}"
        );
    }
    // The owner's page offers the snippet and names the sites.
    let (cookie, _) = sign_in(&s, &a.id);
    let owner = browse("GET", &s.url(&format!("/forms/{id}")), Some(&cookie), None).text();
    assert!(owner.contains("Copy snippet"), "{owner}");
    assert!(
        owner.contains(&format!("&lt;iframe src=&quot;{}/f/{id}&quot;", s.base)),
        "{owner}"
    );
    assert!(
        owner.contains("<code>https://*.example.org</code>"),
        "{owner}"
    );

    // A setting that is not a list of origins stops the server with its reason.
    let data = tempfile::tempdir().unwrap();
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("serve")
        .env("QUIRE_DATA", data.path())
        .env("QUIRE_ADDR", "127.0.0.1:0")
        .env("QUIRE_ADMIN_ADDR", "127.0.0.1:0")
        .env("QUIRE_FRAME_ANCESTORS", "https://example.com; script-src *")
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("QUIRE_FRAME_ANCESTORS"), "{said}");
}

#[test]
fn a_form_shared_by_its_link_is_answered_on_a_phone_with_a_drawn_signature() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    // A document with fields placed on it (its model sent back with them), which the
    // browser makes a form.
    let made = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"markdown": FORM_MD, "title": "Phone sign-up"}),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let id = made.json()["document"]["id"].as_str().unwrap().to_string();
    let id = id.as_str();
    let mut model = s.get(&t, &format!("/api/v1/documents/{id}.json")).json();
    model["fields"] = sample_fields();
    let placed = s.send_json(
        "PUT",
        &t,
        &format!("/api/v1/pdfs/{id}"),
        &json!({"model": model, "title": "Phone sign-up"}),
    );
    assert_eq!(placed.status, 200, "{}", placed.text());
    let shots = tempfile::tempdir().unwrap();
    let config = json!({
        "chromium": chromium(),
        "base": s.base,
        "link": login_link(s, &a.id),
        "form": id,
        "shots": shots.path(),
    });
    let seen = crate::browser::run_script("share.mjs", &config);
    assert!(
        seen["consoleErrors"].as_array().unwrap().is_empty(),
        "{seen}"
    );
    assert_eq!(seen["refused"], json!([]), "{seen}");

    // The owner made it a form from the document's page, then: the responses line at the top, the link copied, a QR code, no snippet
    // on a server that allows no framing.
    assert!(
        seen["summary"]
            .as_str()
            .unwrap()
            .contains("No responses yet"),
        "{seen}"
    );
    assert_eq!(seen["summaryAboveTheFold"], true);
    assert_eq!(seen["clipboard"], format!("{}/f/{id}", s.base), "{seen}");
    assert_eq!(seen["copyButtonAfter"], 1, "the button says it copied");
    assert!(seen["qrWidth"].as_u64().unwrap() >= 200, "{seen}");
    assert_eq!(seen["embedOff"], 1, "{seen}");

    // The phone: the form comes first and fits the width; the date hint says what the
    // box shows.
    assert_eq!(seen["formFirst"], true, "{seen}");
    assert!(
        seen["sideways"].as_f64().unwrap() <= 0.0,
        "no sideways scrolling: {seen}"
    );
    assert!(seen["questionsWidth"].as_f64().unwrap() <= 390.0, "{seen}");
    assert_eq!(seen["dateInputType"], "date");
    assert!(
        seen["dateHint"].as_str().unwrap().contains("mm/dd/yyyy"),
        "{seen}"
    );
    assert_eq!(seen["padShown"], true);
    // Two strokes drawn with a finger, and the pad shows them.
    let strokes = seen["drawing"]["strokes"].as_array().unwrap();
    assert_eq!(strokes.len(), 2, "{seen}");
    assert!(strokes[0].as_array().unwrap().len() >= 20, "{seen}");
    assert!(seen["padInk"].as_u64().unwrap() > 500, "{seen}");
    assert_eq!(seen["sentStatus"], 200, "{seen}");
    assert!(
        seen["summaryAfter"]
            .as_str()
            .unwrap()
            .starts_with("1 response"),
        "{seen}"
    );

    // The signature is ink in the filled copy, where the box was.
    let (response, pdf, model) = newest_copy(s, &t, id);
    assert_eq!(response["respondent"], "phone@example.org", "{response}");
    assert_signed_in_ink(&model, &pdf);
    assert_eq!(seen["responseSignature"], "(drawn signature)", "{seen}");
    crate::editor::compare_with_references(
        shots.path(),
        &["form-share", "form-phone", "response", "form-public"],
    );
}
