//! Forms over HTTP, black-box: endpoints 8-22 with their refusals, the AcroForm checked by
//! pypdf, qpdf and pdftoppm, answers and their filled copies, the CSV read back by
//! Python's csv module. The suite runs on SQLite and on Postgres.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::*;
use crate::server::*;

pub const FORM_MD: &str = "# Membership application\n\nPlease answer every question marked with a star.\n\nName: ______________________\n\nEmail: ______________________\n\n";

/// Boxes of every type; `name` sits in two places (one question, two boxes) and the
/// radio group has a box per option.
pub fn sample_fields() -> Value {
    json!([
        {"key": "name", "type": "text", "label": "Full name", "required": true, "page": 1, "x": 72, "y": 150, "w": 220, "h": 20},
        {"key": "email", "type": "email", "label": "Email", "required": true, "page": 1, "x": 72, "y": 180, "w": 220, "h": 20},
        {"key": "age", "type": "number", "label": "Age", "page": 1, "x": 72, "y": 210, "w": 80, "h": 20},
        {"key": "born", "type": "date", "label": "Date of birth", "page": 1, "x": 180, "y": 210, "w": 110, "h": 20},
        {"key": "agree", "type": "checkbox", "label": "I agree to the rules", "required": true, "page": 1, "x": 72, "y": 240, "w": 14, "h": 14},
        {"key": "plan", "type": "radio", "label": "Plan", "page": 1, "x": 72, "y": 270, "w": 14, "h": 14, "options": ["basic", "full"]},
        {"key": "plan", "type": "radio", "label": "Plan", "page": 1, "x": 140, "y": 270, "w": 14, "h": 14, "options": ["basic", "full"]},
        {"key": "size", "type": "select", "label": "Shirt size", "page": 1, "x": 72, "y": 300, "w": 120, "h": 20, "options": ["S", "M", "L"]},
        {"key": "days", "type": "list", "label": "Days", "page": 1, "x": 72, "y": 330, "w": 120, "h": 50, "options": ["Mon", "Tue", "Wed"]},
        {"key": "notes", "type": "multiline", "label": "Notes", "page": 1, "x": 72, "y": 390, "w": 300, "h": 60},
        {"key": "sign", "type": "signature", "label": "Signature", "page": 1, "x": 72, "y": 470, "w": 200, "h": 30},
        {"key": "name", "type": "text", "label": "Full name", "required": true, "page": 1, "x": 320, "y": 700, "w": 220, "h": 20}
    ])
}

pub fn good_answers() -> Value {
    json!({
        "name": "Ann \"Nan\" Example, Jr.",
        "email": "ann@example.org",
        "age": 42,
        "born": "1984-02-29",
        "agree": true,
        "plan": "full",
        "size": "M",
        "days": ["Mon", "Wed"],
        "notes": "line one\nline two",
        "sign": "Ann Example"
    })
}

pub fn create_form(s: &Server, t: &str, title: &str) -> Value {
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/forms",
        &json!({"markdown": FORM_MD, "title": title, "fields": sample_fields()}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["form"].clone()
}

fn pdf_fields_script() -> PathBuf {
    crate::common::repo_root().join("plugins/pdf/tests/forms_fields.py")
}

/// What pypdf reads from a PDF's interactive form.
pub fn pypdf_read(pdf: &[u8]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("form.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = run_tool(Command::new("python3").arg(pdf_fields_script()).arg(&path));
    serde_json::from_str(&out).unwrap()
}

fn qpdf_check(pdf: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("form.pdf");
    std::fs::write(&path, pdf).unwrap();
    run_tool(Command::new("qpdf").arg("--check").arg(&path));
}

/// Dark pixels inside a box given in points from the top left, on page 1 drawn at 72 dpi.
pub fn ink_in_box(pdf: &[u8], x: f64, y: f64, w: f64, h: f64) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("form.pdf");
    std::fs::write(&path, pdf).unwrap();
    let prefix = dir.path().join("page");
    run_tool(
        Command::new("pdftoppm")
            .args(["-r", "72", "-f", "1", "-l", "1", "-png", "-singlefile"])
            .arg(&path)
            .arg(&prefix),
    );
    let file = std::fs::File::open(dir.path().join("page.png")).unwrap();
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let mut dark = 0;
    for py in y as usize..(y + h) as usize {
        for px in x as usize..(x + w) as usize {
            if px >= info.width as usize || py >= info.height as usize {
                continue;
            }
            let i = (py * info.width as usize + px) * channels;
            let lum = buf[i..i + channels.min(3)]
                .iter()
                .map(|&v| v as u32)
                .sum::<u32>()
                / channels.min(3) as u32;
            if lum < 160 {
                dark += 1;
            }
        }
    }
    dark
}

/// Every check of the forms suite, on one server.
pub fn suite(s: &Server) {
    let a = s.account("pro");
    let t = s.token(&a);
    let form = create_and_read(s, &t);
    let id = form["id"].as_str().unwrap().to_string();
    acroform_export(s, &t, &id);
    field_refusals(s, &t, &id);
    place_fields(s, &t);
    answers_and_copies(s, &t);
    closing_and_once(s, &t);
    csv_columns(s, &t);
    replace_keeps_answers(s, &t);
    shares(s, &a, &t);
    isolation(s, &t, &id);
}

fn create_and_read(s: &Server, t: &str) -> Value {
    let form = create_form(s, t, "Membership");
    let id = form["id"].as_str().unwrap();
    assert_eq!(id.len(), 32);
    assert_eq!(form["version"], 2);
    assert_eq!(form["kind"], "pdf");
    assert_eq!(form["your_role"], "owner");
    assert_eq!(form["title"], "Membership");
    assert!(form["pages"].as_i64().unwrap() >= 1);
    let f = &form["form"];
    assert_eq!(
        f["count"], 10,
        "two boxes of `name` and `plan` are one question each"
    );
    assert_eq!(f["open"], true);
    assert_eq!(f["responses"], 0);
    let fields = f["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 10);
    assert_eq!(fields.iter().filter(|q| q["key"] == "name").count(), 1);
    let name = &fields[0];
    assert_eq!(name["key"], "name");
    assert_eq!(name["type"], "text");
    assert_eq!(name["label"], "Full name");
    assert_eq!(name["required"], true);
    assert_eq!(name["page"], 1);
    assert!(
        name.get("x").is_none(),
        "the schema listing has no geometry"
    );
    let plan = fields.iter().find(|q| q["key"] == "plan").unwrap();
    assert_eq!(plan["options"], json!(["basic", "full"]));
    let links = &form["links"];
    assert_eq!(
        links["fields"],
        s.url(&format!("/api/v1/forms/{id}/fields"))
    );
    assert_eq!(
        links["responses"],
        s.url(&format!("/api/v1/forms/{id}/responses"))
    );
    assert_eq!(
        links["csv"],
        s.url(&format!("/api/v1/forms/{id}/responses.csv"))
    );
    assert_eq!(links["pdf"], s.url(&format!("/api/v1/documents/{id}.pdf")));

    // GET one, the schema endpoint and the list agree.
    let one = s.get(t, &format!("/api/v1/forms/{id}"));
    assert_eq!(one.status, 200, "{}", one.text());
    assert_eq!(one.json()["form"]["form"]["fields"], f["fields"]);
    let schema = s.get(t, &format!("/api/v1/forms/{id}/fields")).json();
    assert_eq!(schema["ok"], true);
    assert_eq!(schema["fields"], f["fields"]);
    assert_eq!(
        schema["form"],
        json!({"count": 10, "open": true, "responses": 0})
    );
    let list = s.get(t, "/api/v1/forms?limit=1").json();
    assert!(list["total"].as_i64().unwrap() >= 1);
    let row = &list["forms"][0];
    assert_eq!(row["id"], id);
    assert_eq!(row["fields"], 10);
    assert_eq!(row["open"], true);
    assert_eq!(row["responses"], 0);
    assert!(
        row.get("shapes").is_none(),
        "form list rows carry no shape count"
    );
    for bad in ["limit=0", "limit=201", "state=ajar"] {
        let r = s.get(t, &format!("/api/v1/forms?{bad}"));
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
    }
    // A form is also an ordinary document.
    assert_eq!(s.get(t, &format!("/api/v1/documents/{id}")).status, 200);
    form
}

fn acroform_export(s: &Server, t: &str, id: &str) {
    let pdf = s.get(t, &format!("/api/v1/documents/{id}.pdf"));
    assert_eq!(pdf.status, 200);
    qpdf_check(&pdf.body);
    let read = pypdf_read(&pdf.body);
    let fields = &read["fields"];
    let ft = |k: &str| fields[k]["/FT"].as_str().unwrap_or("?").to_string();
    let ff = |k: &str| fields[k]["/Ff"].as_i64().unwrap_or(0);
    assert_eq!(fields.as_object().unwrap().len(), 10, "{read}");
    for k in ["name", "email", "age", "born", "notes"] {
        assert_eq!(ft(k), "/Tx", "{k}");
    }
    assert_eq!(ft("agree"), "/Btn");
    assert_eq!(ft("plan"), "/Btn");
    assert_eq!(ft("size"), "/Ch");
    assert_eq!(ft("days"), "/Ch");
    assert_eq!(ft("sign"), "/Sig");
    assert_ne!(ff("notes") & (1 << 12), 0, "multiline flag");
    assert_ne!(ff("plan") & (1 << 15), 0, "radio flag");
    assert_ne!(ff("size") & (1 << 17), 0, "combo flag");
    assert_eq!(ff("days") & (1 << 17), 0, "a list box is no combo");
    assert_ne!(ff("name") & 2, 0, "required flag");
    assert_eq!(fields["name"]["kids"], 2, "one field, a widget per box");
    assert_eq!(fields["size"]["/Opt"], json!(["S", "M", "L"]));
    // Every widget has its normal appearance; buttons have on and off states.
    let widgets = read["pages"][0].as_array().unwrap();
    assert_eq!(widgets.len(), 12);
    for w in widgets {
        assert!(w["states"].is_array(), "{w}");
        if w["name"] == "agree" || w["name"] == "plan" {
            let states = w["states"].as_array().unwrap();
            assert!(states.contains(&json!("/Off")) && states.len() == 2, "{w}");
        }
    }
    // pdftoppm draws the boxes.
    assert!(
        ink_in_box(&pdf.body, 72.0, 150.0, 220.0, 20.0) > 50,
        "text box border"
    );
    assert!(
        ink_in_box(&pdf.body, 72.0, 240.0, 14.0, 14.0) > 10,
        "checkbox border"
    );
    assert_eq!(
        ink_in_box(&pdf.body, 400.0, 250.0, 100.0, 100.0),
        0,
        "blank paper stays blank"
    );
}

fn field_refusals(s: &Server, t: &str, id: &str) {
    let base = json!({"key": "k", "type": "text", "page": 1, "x": 10, "y": 10, "w": 50, "h": 20});
    let put = |fields: Value| {
        s.send_json(
            "PUT",
            t,
            &format!("/api/v1/forms/{id}/fields"),
            &json!({"fields": fields}),
        )
    };
    // Shape errors and boxes that do not fit this document are all 400 naming the member
    // (the contract's 422 is for files).
    let cases: Vec<(Value, &str, u16)> = vec![
        (
            json!([base.clone(), {"key": "x", "type": "colour", "page": 1, "x": 1, "y": 1, "w": 5, "h": 5}]),
            "fields[1].type",
            400,
        ),
        (
            json!([{"key": "x", "page": 1, "x": 600, "y": 10, "w": 50, "h": 20}]),
            "fields[0]",
            400,
        ),
        (
            json!([{"key": "x", "page": 9, "x": 1, "y": 1, "w": 5, "h": 5}]),
            "fields[0].page",
            400,
        ),
        (
            json!([{"key": "x", "page": 0, "x": 1, "y": 1, "w": 5, "h": 5}]),
            "fields[0].page",
            400,
        ),
        (
            json!([{"key": "", "page": 1, "x": 1, "y": 1, "w": 5, "h": 5}]),
            "fields[0].key",
            400,
        ),
        (
            json!([{"key": "x", "type": "select", "page": 1, "x": 1, "y": 1, "w": 5, "h": 5}]),
            "fields[0].options",
            400,
        ),
        (
            json!([{"key": "x", "page": 1, "x": 1, "y": 1, "w": 5}]),
            "fields[0].h",
            400,
        ),
        (
            json!([{"key": "x", "page": 1, "x": 1, "y": 1, "w": 5, "h": 5, "colour": "red"}]),
            "fields[0].colour",
            400,
        ),
        (Value::Array(vec![base.clone(); 501]), "fields", 400),
        (json!("nope"), "fields", 400),
    ];
    for (fields, named, status) in cases {
        let r = put(fields);
        assert_eq!(r.status, status, "{named}: {}", r.text());
        let body = r.json();
        assert_eq!(body["ok"], false);
        assert_eq!(body["field"], named, "{body}");
        assert!(body["detail"].as_str().unwrap().contains(named), "{body}");
    }
    // Nothing was changed by the refusals.
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}")).json()["form"]["version"],
        2
    );
    // Creating with a bad field is refused the same way, and no form is left behind.
    let before = s.get(t, "/api/v1/forms").json()["total"].clone();
    let r = s.send_json("POST", t, "/api/v1/forms", &json!({"markdown": "x", "fields": [{"key": "a", "type": "nope", "page": 1, "x": 1, "y": 1, "w": 5, "h": 5}]}));
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["field"], "fields[0].type");
    assert_eq!(s.get(t, "/api/v1/forms").json()["total"], before);
    // No source is the documents' 400.
    let r = s.send_json("POST", t, "/api/v1/forms", &json!({"fields": []}));
    assert_eq!(r.status, 400);
}

fn place_fields(s: &Server, t: &str) {
    // Raw bytes create a form too.
    let r = s.send_raw(
        "POST",
        t,
        "/api/v1/forms?title=Raw%20form",
        "text/markdown",
        FORM_MD.as_bytes().to_vec(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"].clone();
    let id = form["id"].as_str().unwrap();
    assert_eq!(form["title"], "Raw form");
    assert_eq!(form["form"]["count"], 0);
    let first = json!([{"key": "a", "type": "text", "label": "A", "page": 1, "x": 72, "y": 100, "w": 100, "h": 20}]);
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": first}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let body = r.json();
    assert_eq!(body["count"], 1);
    assert_eq!(body["fields"][0]["x"], 72.0);
    assert_eq!(body["fields"][0]["h"], 20.0);
    let more = json!([{"key": "b", "type": "checkbox", "label": "B", "page": 1, "x": 72, "y": 130, "w": 12, "h": 12}]);
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": more, "keep": true}),
    );
    let body = r.json();
    assert_eq!(body["count"], 2, "{body}");
    assert_eq!(body["fields"].as_array().unwrap().len(), 2);
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": more}),
    );
    assert_eq!(r.json()["count"], 1, "without keep the fields are replaced");
    let form = s.get(t, &format!("/api/v1/forms/{id}")).json()["form"].clone();
    assert_eq!(form["version"], 5, "each placement is a new version");
    assert_eq!(form["form"]["fields"][0]["key"], "b");
    // If-Match guards placements like replaces.
    let r = crate::server::request(
        "PUT",
        &s.url(&format!("/api/v1/forms/{id}/fields")),
        &[
            ("authorization", &format!("Bearer {t}")),
            ("if-match", "\"2\""),
        ],
        Some((
            "application/json",
            serde_json::to_vec(&json!({"fields": more})).unwrap(),
        )),
    );
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(r.json()["version"], 5);
}

fn submit(s: &Server, t: &str, id: &str, body: Value) -> crate::server::Resp {
    s.send_json("POST", t, &format!("/api/v1/forms/{id}/responses"), &body)
}

fn answers_and_copies(s: &Server, t: &str) {
    let form = create_form(s, t, "Answers");
    let id = form["id"].as_str().unwrap();
    // Every rule refuses with the field named, and nothing is stored.
    let mut cases: Vec<(Value, &str)> = Vec::new();
    let with = |k: &str, v: Value| {
        let mut a = good_answers();
        a[k] = v;
        a
    };
    let mut missing = good_answers();
    missing.as_object_mut().unwrap().remove("name");
    cases.push((missing, "answers.name"));
    cases.push((with("email", json!("not-an-address")), "answers.email"));
    cases.push((with("age", json!("forty")), "answers.age"));
    cases.push((with("born", json!("1985-02-29")), "answers.born"));
    cases.push((with("agree", json!("yes")), "answers.agree"));
    cases.push((with("agree", json!(false)), "answers.agree"));
    cases.push((with("plan", json!("gold")), "answers.plan"));
    cases.push((with("days", json!(["Mon", "Sun"])), "answers.days"));
    cases.push((with("zzz", json!("?")), "answers.zzz"));
    // Answers that break the form's rules are 400 naming the answer, as is a body without
    // them.
    for (answers, named) in cases {
        let r = submit(s, t, id, json!({"answers": answers}));
        assert_eq!(r.status, 400, "{named}: {}", r.text());
        assert_eq!(r.json()["field"], named);
    }
    assert_eq!(submit(s, t, id, json!({})).status, 400);
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}/responses")).json()["total"],
        0
    );

    // A good answer: 200, via api, the claim recorded.
    let r = submit(
        s,
        t,
        id,
        json!({"answers": good_answers(), "as": "ann@example.org"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let resp = r.json()["response"].clone();
    assert_eq!(resp["via"], "api");
    assert_eq!(resp["from"], "ann@example.org");
    assert!(resp["submitted"].as_f64().unwrap() > 1.7e9);
    let copy = resp["document"].as_str().unwrap().to_string();
    let second = submit(
        s,
        t,
        id,
        json!({"answers": {"name": "Bob", "email": "bob@example.org", "agree": true}}),
    )
    .json()["response"]
        .clone();
    assert!(second["from"].is_null());

    // The list: newest first, totals, schema, values with booleans.
    let list = s.get(t, &format!("/api/v1/forms/{id}/responses")).json();
    assert_eq!(list["total"], 2);
    assert_eq!(list["fields"].as_array().unwrap().len(), 10);
    let rows = list["responses"].as_array().unwrap();
    assert_eq!(rows[0]["id"], second["id"]);
    let ann = &rows[1];
    assert_eq!(ann["doc_id"], id);
    assert_eq!(ann["respondent"], "ann@example.org");
    assert_eq!(ann["via"], "api");
    assert_eq!(ann["document"], copy);
    assert_eq!(ann["values"]["agree"], true);
    assert_eq!(ann["values"]["age"], 42);
    assert_eq!(ann["values"]["days"], json!(["Mon", "Wed"]));
    assert!(ann["summary"]
        .as_str()
        .unwrap()
        .contains("Ann \"Nan\" Example"));
    assert!(ann["submitted_at"].as_f64().is_some());
    let page = s
        .get(t, &format!("/api/v1/forms/{id}/responses?limit=1&offset=1"))
        .json();
    assert_eq!(page["total"], 2);
    assert_eq!(page["responses"][0]["id"], ann["id"]);
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}/responses?limit=1001"))
            .status,
        400
    );
    let form_now = s.get(t, &format!("/api/v1/forms/{id}")).json();
    assert_eq!(form_now["form"]["form"]["responses"], 2);

    // One response, in the single form's names.
    let rid = ann["id"].as_str().unwrap();
    let one = s
        .get(t, &format!("/api/v1/forms/{id}/responses/{rid}"))
        .json()["response"]
        .clone();
    assert_eq!(one["from"], "ann@example.org");
    assert_eq!(one["via"], "api");
    assert_eq!(one["document"], copy);
    assert_eq!(one["answers"], ann["values"]);
    assert!(one["submitted"].as_f64().is_some());
    assert_eq!(
        s.get(
            t,
            &format!("/api/v1/forms/{id}/responses/{}", "0".repeat(32))
        )
        .status,
        404
    );

    // The filled copy is an ordinary document whose PDF carries the answers.
    let doc = s.get(t, &format!("/api/v1/documents/{copy}"));
    assert_eq!(doc.status, 200);
    let pdf = s.get(t, &format!("/api/v1/documents/{copy}.pdf"));
    qpdf_check(&pdf.body);
    let read = pypdf_read(&pdf.body);
    assert_eq!(read["fields"]["name"]["/V"], "Ann \"Nan\" Example, Jr.");
    assert_eq!(read["fields"]["email"]["/V"], "ann@example.org");
    assert_eq!(read["fields"]["plan"]["/V"], "/full");
    assert_eq!(read["fields"]["agree"]["/V"], "/Yes");
    assert_eq!(read["fields"]["size"]["/V"], "M");
    // Frozen: changing the form does not change the copy.
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": [{"key": "other", "page": 1, "x": 10, "y": 10, "w": 50, "h": 20}]}),
    );
    assert_eq!(r.status, 200);
    let model = s.get(t, &format!("/api/v1/documents/{copy}.json")).json();
    let keys: Vec<&str> = model["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["key"].as_str().unwrap())
        .collect();
    assert!(
        keys.contains(&"name") && !keys.contains(&"other"),
        "{keys:?}"
    );

    // DELETE: the copy is binned unless keepDocument=1.
    let r = s.send_json(
        "DELETE",
        t,
        &format!("/api/v1/forms/{id}/responses/{rid}"),
        &json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"ok": true, "deleted": rid, "binned": copy})
    );
    assert_eq!(s.get(t, &format!("/api/v1/documents/{copy}")).status, 404);
    let rid2 = second["id"].as_str().unwrap();
    let copy2 = second["document"].as_str().unwrap();
    let r = s.send_json(
        "DELETE",
        t,
        &format!("/api/v1/forms/{id}/responses/{rid2}?keepDocument=1"),
        &json!({}),
    );
    assert_eq!(r.json()["binned"], Value::Null);
    assert_eq!(s.get(t, &format!("/api/v1/documents/{copy2}")).status, 200);
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}/responses")).json()["total"],
        0
    );
    assert_eq!(
        s.send_json(
            "DELETE",
            t,
            &format!("/api/v1/forms/{id}/responses/{rid2}"),
            &json!({})
        )
        .status,
        404
    );
}

fn closing_and_once(s: &Server, t: &str) {
    let form = create_form(s, t, "Once");
    let id = form["id"].as_str().unwrap();
    let patch = |body: Value| s.send_json("PATCH", t, &format!("/api/v1/forms/{id}"), &body);
    let r = patch(json!({"multiple": false, "confirm": "See you there."}));
    assert_eq!(r.status, 200, "{}", r.text());
    // The contract's shape, `{ok, form: {count, open, multiple, confirm, responses}}`, and
    // the form row's own `form` member alike.
    for f in [r.json()["form"].clone(), r.json()["form"]["form"].clone()] {
        assert_eq!(f["multiple"], false, "{f}");
        assert_eq!(f["confirm"], "See you there.");
        assert_eq!(f["open"], true);
        assert_eq!(f["count"], 10);
        assert_eq!(f["responses"], 0);
    }
    assert_eq!(patch(json!({"open": "no"})).status, 400);
    assert_eq!(patch(json!({"colour": "red"})).status, 400);

    // One answer per person: `as` is required, a second answer from the same person is 409.
    let r = submit(s, t, id, json!({"answers": good_answers()}));
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["field"], "as");
    assert_eq!(
        submit(
            s,
            t,
            id,
            json!({"answers": good_answers(), "as": "Cy@example.org"})
        )
        .status,
        200
    );
    let r = submit(
        s,
        t,
        id,
        json!({"answers": good_answers(), "as": "cy@example.org"}),
    );
    assert_eq!(r.status, 409, "{}", r.text());

    // Closed: new answers refused, the form and its schema still readable; reopen works.
    let r = patch(json!({"open": false}));
    assert_eq!(r.json()["form"]["form"]["open"], false);
    let r = submit(
        s,
        t,
        id,
        json!({"answers": good_answers(), "as": "dee@example.org"}),
    );
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(s.get(t, &format!("/api/v1/forms/{id}/fields")).status, 200);
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}")).json()["form"]["form"]["open"],
        false
    );
    let closed = s.get(t, "/api/v1/forms?state=closed").json();
    assert!(closed["forms"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["id"] == id));
    assert!(
        !s.get(t, "/api/v1/forms?state=open&limit=200").json()["forms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["id"] == id)
    );
    patch(json!({"open": true}));
    assert_eq!(
        submit(
            s,
            t,
            id,
            json!({"answers": good_answers(), "as": "dee@example.org"})
        )
        .status,
        200
    );
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}/responses")).json()["total"],
        2
    );
}

/// Parses CSV with Python's csv module: an independent reader of our quoting.
fn python_csv(text: &str) -> Vec<Vec<String>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    std::fs::write(&path, text).unwrap();
    let out = run_tool(Command::new("python3").args([
        "-c",
        "import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))",
    ]).arg(&path));
    serde_json::from_str(&out).unwrap()
}

fn csv_columns(s: &Server, t: &str) {
    let form = create_form(s, t, "Sheet");
    let id = form["id"].as_str().unwrap();
    submit(
        s,
        t,
        id,
        json!({"answers": good_answers(), "as": "ann@example.org"}),
    );
    // A question added later (placed first in the array) goes after the earlier columns.
    let mut fields = sample_fields();
    fields.as_array_mut().unwrap().insert(0, json!({"key": "zeta", "label": "Added later", "page": 1, "x": 300, "y": 100, "w": 100, "h": 20}));
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": fields}),
    );
    assert_eq!(r.status, 200);
    submit(
        s,
        t,
        id,
        json!({"answers": {"name": "=SUM(A1)", "email": "b@example.org", "agree": true, "zeta": "z"}}),
    );
    let r = s.get(t, &format!("/api/v1/forms/{id}/responses.csv"));
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/csv"));
    let rows = python_csv(&r.text());
    assert_eq!(
        rows[0],
        [
            "submitted",
            "from",
            "name",
            "email",
            "age",
            "born",
            "agree",
            "plan",
            "size",
            "days",
            "notes",
            "sign",
            "zeta"
        ]
    );
    assert_eq!(rows.len(), 3);
    let ann = &rows[1];
    assert_eq!(ann[1], "ann@example.org");
    assert_eq!(ann[2], "Ann \"Nan\" Example, Jr.");
    assert_eq!(ann[6], "yes");
    assert_eq!(ann[9], "Mon; Wed");
    assert_eq!(ann[10], "line one\nline two");
    assert_eq!(ann[12], "", "an unanswered question still has its column");
    assert!(ann[0].ends_with('Z') && ann[0].len() == 20, "{}", ann[0]);
    assert_eq!(rows[2][2], "'=SUM(A1)", "a formula is defused");
    assert_eq!(rows[2][12], "z");
}

fn replace_keeps_answers(s: &Server, t: &str) {
    let form = create_form(s, t, "Replaced");
    let id = form["id"].as_str().unwrap();
    submit(s, t, id, json!({"answers": good_answers()}));
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}"),
        &json!({"markdown": "# New text\n\nSame questions.", "title": "Replaced v2"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let f = r.json()["form"].clone();
    assert_eq!(f["version"], 3);
    assert_eq!(f["title"], "Replaced v2");
    assert_eq!(f["form"]["responses"], 1);
    assert_eq!(f["form"]["count"], 10, "fields that still fit are kept");
    let r = s.send_json("PUT", t, &format!("/api/v1/forms/{id}"), &json!({"markdown": "# Fewer", "fields": [{"key": "only", "page": 1, "x": 10, "y": 10, "w": 50, "h": 20}]}));
    assert_eq!(r.json()["form"]["form"]["count"], 1);
    assert_eq!(
        s.get(t, &format!("/api/v1/forms/{id}/responses")).json()["total"],
        1
    );
    // Replaced as a plain document, it stays the same form.
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/pdfs/{id}"),
        &json!({"markdown": "# Via pdfs"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["document"]["version"], 5);
    let f = s.get(t, &format!("/api/v1/forms/{id}")).json()["form"].clone();
    assert_eq!(f["form"]["count"], 1);
    assert_eq!(f["form"]["fields"][0]["key"], "only");
}

fn shares(s: &Server, a: &Account, t: &str) {
    let form = create_form(s, t, "Shared");
    let id = form["id"].as_str().unwrap();
    let path = format!("/api/v1/forms/{id}/shares");
    // The account's own address must be confirmed first.
    let r = s.send_json("POST", t, &path, &json!({"email": "friend@example.org"}));
    assert_eq!(r.status, 403, "{}", r.text());
    s.cli(&["admin", "account", "confirm-email", &a.id]);
    assert_eq!(
        s.send_json("POST", t, &path, &json!({"email": "not an address"}))
            .status,
        400
    );
    assert_eq!(s.send_json("POST", t, &path, &json!({})).status, 400);
    let r = s.send_json("POST", t, &path, &json!({"email": "friend@example.org"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let shares = r.json()["shares"].clone();
    assert_eq!(shares.as_array().unwrap().len(), 1);
    assert_eq!(shares[0]["email"], "friend@example.org");
    assert_eq!(shares[0]["mode"], "fill");
    assert!(shares[0]["added"].as_f64().is_some());
    s.send_json("POST", t, &path, &json!({"email": "second@example.org"}));
    let listed = s.get(t, &path).json();
    assert_eq!(listed["shares"].as_array().unwrap().len(), 2);
    let r = s.send_json(
        "DELETE",
        t,
        &format!("{path}?email=friend@example.org"),
        &json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["shares"].as_array().unwrap().len(), 1);
    assert_eq!(
        s.send_json(
            "DELETE",
            t,
            &format!("{path}?email=friend@example.org"),
            &json!({})
        )
        .status,
        404
    );
    assert_eq!(s.send_json("DELETE", t, &path, &json!({})).status, 400);
    // Without SMTP the invitations wait in the outbox.
    let outbox = s.cli_json(&["admin", "outbox", "--json"]);
    let mail = outbox["mail"].as_array().unwrap();
    assert!(
        mail.iter().any(|m| m["recipient"] == "friend@example.org"),
        "{outbox}"
    );
}

fn isolation(s: &Server, t: &str, id: &str) {
    let other = s.account("pro");
    let ot = s.token(&other);
    for path in [
        format!("/api/v1/forms/{id}"),
        format!("/api/v1/forms/{id}/fields"),
        format!("/api/v1/forms/{id}/responses"),
        format!("/api/v1/forms/{id}/responses.csv"),
        format!("/api/v1/forms/{id}/shares"),
    ] {
        assert_eq!(s.get(&ot, &path).status, 404, "{path}");
    }
    assert_eq!(
        submit(s, &ot, id, json!({"answers": good_answers()})).status,
        404
    );
    // A plain document is not a form.
    let doc = s
        .send_json("POST", t, "/api/v1/pdfs", &json!({"markdown": "x"}))
        .json()["document"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(s.get(t, &format!("/api/v1/forms/{doc}")).status, 404);
    // A read-only token cannot answer.
    let c = s.cli_json(&[
        "admin",
        "credential",
        "create",
        "--account",
        &other.id,
        "--scopes",
        "documents:read",
        "--json",
    ]);
    let ro = s.token(&Account {
        id: other.id.clone(),
        client_id: c["client_id"].as_str().unwrap().into(),
        secret: c["client_secret"].as_str().unwrap().into(),
    });
    assert_eq!(
        s.send_json("POST", &ro, "/api/v1/forms", &json!({"markdown": "x"}))
            .status,
        403
    );
    assert_eq!(s.get(t, &format!("/api/v1/forms/{id}")).status, 200);
    // PATCH is in the surface's write list.
    let surface = s.get(t, "/api/v1").json();
    assert!(surface["write"]
        .as_array()
        .unwrap()
        .contains(&json!("PATCH /api/v1/forms/{id}")));
    assert!(surface["read"]
        .as_array()
        .unwrap()
        .contains(&json!("GET /api/v1/forms/{id}/responses.csv")));
    // A wrong method on a form route is 405 with Allow.
    let r = s.send_json("POST", t, &format!("/api/v1/forms/{id}/fields"), &json!({}));
    assert_eq!(r.status, 405);
    assert!(r.header("allow").unwrap().contains("PUT"));
}

#[test]
fn forms_on_sqlite() {
    suite(shared());
}

#[test]
fn forms_on_postgres() {
    let Some(url) = postgres_database() else {
        return;
    };
    let s = Server::start_with_db(Some(url), &[]);
    suite(&s);
}

/// Detection over HTTP: blanks on a text page get the words beside them as labels with
/// `detect: true`; /suggest returns the same blanks without labels; a scanned form (a
/// picture, no text) gets its ruled blanks and tick boxes.
#[test]
fn detection_over_http() {
    use base64::Engine as _;
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let md = "# Sign-up\n\nName: ______________________\n\nCity: ______________________\n";
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": md, "detect": true}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"].clone();
    let id = form["id"].as_str().unwrap();
    let fields = form["form"]["fields"].as_array().unwrap().clone();
    assert_eq!(fields.len(), 2, "{fields:?}");
    assert_eq!(fields[0]["key"], "field_1");
    assert_eq!(fields[1]["key"], "field_2");
    assert!(
        fields[0]["label"].as_str().unwrap().contains("Name"),
        "{fields:?}"
    );
    assert!(
        fields[1]["label"].as_str().unwrap().contains("City"),
        "{fields:?}"
    );

    // Blanks the form already has a field on are not suggested again.
    let again = s.get(&t, &format!("/api/v1/forms/{id}/suggest")).json();
    assert_eq!(again["fields"], json!([]), "{again}");

    // The same page without detection: /suggest finds the blanks, placing nothing.
    let r = s.send_json("POST", &t, "/api/v1/forms", &json!({"markdown": md}));
    let id = r.json()["form"]["id"].as_str().unwrap().to_string();
    let id = id.as_str();
    let sug = s.get(&t, &format!("/api/v1/forms/{id}/suggest")).json();
    let sug = sug["fields"].as_array().unwrap();
    assert_eq!(sug.len(), 2);
    assert_eq!(
        s.get(&t, &format!("/api/v1/forms/{id}")).json()["form"]["form"]["count"],
        0
    );
    for f in sug {
        assert_eq!(f["label"], "", "a suggestion has no label: {f}");
        assert!(f.get("required").is_none(), "{f}");
        assert_eq!(f["page"], 1);
        assert!(
            f["w"].as_f64().unwrap() > 50.0 && f["h"].as_f64().unwrap() > 5.0,
            "{f}"
        );
    }
    assert!(sug[0]["y"].as_f64().unwrap() < sug[1]["y"].as_f64().unwrap());
    assert!(sug[0]["key"].as_str().unwrap().starts_with("field_"));
    assert_eq!(
        s.get(&t, &format!("/api/v1/forms/{id}/suggest?page=1"))
            .json()["fields"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        s.get(&t, &format!("/api/v1/forms/{id}/suggest?page=2"))
            .status,
        400
    );
    assert_eq!(
        s.get(&t, &format!("/api/v1/forms/{id}/suggest?page=0"))
            .status,
        400
    );
    // Suggestions placed with keep become questions of their own (keys do not collide).
    let r = s.send_json(
        "PUT",
        &t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": sug, "keep": true}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["count"], 2);

    // A scanned paper form: a picture with no text layer.
    let png = std::fs::read(corpus("images/form-employment-application.png")).unwrap();
    let image = base64::engine::general_purpose::STANDARD.encode(png);
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"image": image, "detect": true, "title": "Scan"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"].clone();
    let fields = form["form"]["fields"].as_array().unwrap();
    assert!(
        fields.len() >= 8,
        "blanks found on the scan: {}",
        fields.len()
    );
    for f in fields {
        assert_eq!(f["label"], "", "no text, so no label: {f}");
        assert!(
            [
                "text",
                "multiline",
                "checkbox",
                "date",
                "email",
                "signature"
            ]
            .contains(&f["type"].as_str().unwrap()),
            "{f}"
        );
    }
    // Its PDF carries them as a real form.
    let id = form["id"].as_str().unwrap();
    let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
    qpdf_check(&pdf.body);
    assert_eq!(
        pypdf_read(&pdf.body)["fields"].as_object().unwrap().len(),
        fields.len()
    );
}

/// A fillable PDF uploaded as a form keeps its questions, and answers fill them.
#[test]
fn a_fillable_pdf_keeps_its_form() {
    use base64::Engine as _;
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let bytes = std::fs::read(corpus("pdf/pdfjs-bug1883609-acroform-mixed.pdf")).unwrap();
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/forms?title=Imported",
        "application/pdf",
        bytes.clone(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"].clone();
    assert_eq!(form["form"]["count"], 17);
    let id = form["id"].as_str().unwrap();
    let fields = form["form"]["fields"].as_array().unwrap();
    let checkbox = fields
        .iter()
        .find(|f| f["type"] == "checkbox")
        .expect("a checkbox");
    let text = fields
        .iter()
        .find(|f| f["type"] == "text" && !f["key"].as_str().unwrap().contains('.'))
        .expect("a text field");
    let answers = json!({checkbox["key"].as_str().unwrap(): true, text["key"].as_str().unwrap(): "from the API"});
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{id}/responses"),
        &json!({"answers": answers}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let copy = r.json()["response"]["document"]
        .as_str()
        .unwrap()
        .to_string();
    let read = pypdf_read(&s.get(&t, &format!("/api/v1/documents/{copy}.pdf")).body);
    assert_eq!(
        read["fields"][text["key"].as_str().unwrap()]["/V"],
        "from the API"
    );
    // The same file through JSON with the image mode keeps the form too.
    let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"pdf": b64, "mode": "image"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["form"]["form"]["count"], 17);
}

/// A box a fraction of a point past the page edge is placed, and the document's own model,
/// read back as `.json`, is taken again as a `model` source: one placement rule for both.
#[test]
fn a_field_at_the_edge_round_trips_through_the_model() {
    let s = shared();
    let t = &s.token(&s.account("pro"));
    let form = create_form(s, t, "Edge");
    let id = form["id"].as_str().unwrap();
    let page_width = form["pages"][0]["width"]
        .as_f64()
        .or_else(|| {
            s.get(t, &format!("/api/v1/documents/{id}.json")).json()["pages"][0]["width"].as_f64()
        })
        .expect("the page's width");
    let edge = json!([{"key": "edge", "type": "text", "label": "Edge", "page": 1,
        "x": page_width - 100.0, "y": 100, "w": 100.4, "h": 20}]);
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": edge}),
    );
    assert_eq!(
        r.status,
        200,
        "0.4 pt past the edge is rounding: {}",
        r.text()
    );
    let model = s.get(t, &format!("/api/v1/documents/{id}.json")).json();
    assert!(model.to_string().contains("\"edge\""), "{model}");
    let again = s.send_json("POST", t, "/api/v1/forms", &json!({"model": model}));
    assert_eq!(again.status, 201, "the model reads back: {}", again.text());
    // Past the tolerance the placement is refused (and the model check refuses it too, see
    // quire_sdk::validate's tests).
    let far = json!([{"key": "far", "type": "text", "label": "Far", "page": 1,
        "x": page_width - 100.0, "y": 100, "w": 101, "h": 20}]);
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/forms/{id}/fields"),
        &json!({"fields": far}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("lies outside page 1"), "{}", r.text());
}
