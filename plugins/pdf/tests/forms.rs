//! Form fields end to end: every one of the ten types exported as an AcroForm, read back by
//! pypdf (names, types, flags, values, widgets per page), checked by qpdf, and rendered by
//! poppler to see that every box and every filled-in value is drawn.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use quire_sdk::*;
use serde_json::{json, Value};

const A4: (f64, f64) = (595.0, 842.0);

/// Field flag bits (PDF 32000 tables 226, 228, 230, 232).
const REQUIRED: i64 = 1 << 1;
const MULTILINE: i64 = 1 << 12;
const NO_TOGGLE_TO_OFF: i64 = 1 << 14;
const RADIO: i64 = 1 << 15;
const COMBO: i64 = 1 << 17;
const DO_NOT_SPELL_CHECK: i64 = 1 << 22;

fn field(key: &str, ty: FieldType, page: u32, frame: Rect) -> Field {
    Field {
        key: key.into(),
        field_type: ty,
        label: String::new(),
        required: false,
        page,
        frame,
        options: Vec::new(),
        value: None,
        look: None,
    }
}

fn labelled(mut f: Field, label: &str, required: bool) -> Field {
    f.label = label.into();
    f.required = required;
    f
}

fn with_options(mut f: Field, options: &[&str]) -> Field {
    f.options = options.iter().map(|s| s.to_string()).collect();
    f
}

/// A two-page form with all ten types: `initials` has a box on each page, `size` one box per
/// option, `contact` and `again` one box for all their options.
fn form_document() -> Document {
    let mut doc = Document::new(Kind::Paged);
    doc.title = Some("Quire form test".into());
    let mut p1 = Page::new(A4.0, A4.1);
    let mut p2 = Page::new(A4.0, A4.1);
    let caption = |id: &str, y: f64, s: &str| {
        text_box(
            id,
            Rect::new(30.0, y, 68.0, 20.0),
            vec![run(s, FontFamily::Helvetica, 9.0)],
            Align::Left,
        )
    };
    for (i, (y, s)) in [
        (80.0, "Name"),
        (110.0, "About"),
        (180.0, "Email"),
        (210.0, "Age"),
        (240.0, "Birthday"),
        (270.0, "I agree"),
        (300.0, "Size S M L"),
        (330.0, "Contact"),
        (390.0, "Country"),
        (420.0, "Colours"),
        (490.0, "Signature"),
    ]
    .into_iter()
    .enumerate()
    {
        p1.shapes.push(caption(&format!("c{i}"), y, s));
    }
    p2.shapes.push(caption("n", 100.0, "Notes"));
    doc.pages = vec![p1, p2];

    let r = Rect::new;
    doc.fields = vec![
        labelled(
            field("name", FieldType::Text, 1, r(100.0, 80.0, 250.0, 20.0)),
            "Full name",
            true,
        ),
        labelled(
            field("bio", FieldType::Multiline, 1, r(100.0, 110.0, 300.0, 60.0)),
            "About you",
            false,
        ),
        labelled(
            field("email", FieldType::Email, 1, r(100.0, 180.0, 250.0, 20.0)),
            "Email address",
            true,
        ),
        field("age", FieldType::Number, 1, r(100.0, 210.0, 80.0, 20.0)),
        field("birthday", FieldType::Date, 1, r(100.0, 240.0, 100.0, 20.0)),
        labelled(
            field("agree", FieldType::Checkbox, 1, r(100.0, 270.0, 14.0, 14.0)),
            "I agree to the terms",
            true,
        ),
        with_options(
            field("size", FieldType::Radio, 1, r(100.0, 300.0, 14.0, 14.0)),
            &["S", "M", "L"],
        ),
        with_options(
            field("size", FieldType::Radio, 1, r(140.0, 300.0, 14.0, 14.0)),
            &["S", "M", "L"],
        ),
        with_options(
            field("size", FieldType::Radio, 1, r(180.0, 300.0, 14.0, 14.0)),
            &["S", "M", "L"],
        ),
        labelled(
            with_options(
                field("contact", FieldType::Radio, 1, r(100.0, 330.0, 120.0, 48.0)),
                &["Email", "Phone", "Post"],
            ),
            "How to reach you",
            true,
        ),
        with_options(
            field(
                "country",
                FieldType::Select,
                1,
                r(100.0, 390.0, 150.0, 20.0),
            ),
            &["France", "Germany", "Spain"],
        ),
        with_options(
            field("colours", FieldType::List, 1, r(100.0, 420.0, 150.0, 50.0)),
            &["Red", "Green", "Blue", "Yellow"],
        ),
        labelled(
            field(
                "sign",
                FieldType::Signature,
                1,
                r(100.0, 490.0, 200.0, 40.0),
            ),
            "Signature",
            true,
        ),
        labelled(
            field("initials", FieldType::Text, 1, r(450.0, 780.0, 60.0, 20.0)),
            "Initials",
            false,
        ),
        labelled(
            field("initials", FieldType::Text, 2, r(450.0, 780.0, 60.0, 20.0)),
            "Initials",
            false,
        ),
        field(
            "notes",
            FieldType::Multiline,
            2,
            r(100.0, 100.0, 300.0, 80.0),
        ),
        with_options(
            field("again", FieldType::Radio, 2, r(100.0, 200.0, 300.0, 16.0)),
            &["Yes", "No", "Maybe"],
        ),
    ];
    doc
}

/// The same form as a filled copy: an answer for every field (on the first box of each key).
fn filled_document() -> Document {
    let mut doc = form_document();
    let answers = [
        ("name", json!("Ada Lovelace")),
        (
            "bio",
            json!("Mathematician and writer, known for her notes on the Analytical Engine, which hold the first published algorithm."),
        ),
        ("email", json!("ada@example.com")),
        ("age", json!(36)),
        ("birthday", json!("1815-12-10")),
        ("agree", json!(true)),
        ("size", json!("M")),
        ("contact", json!("Phone")),
        ("country", json!("Germany")),
        ("colours", json!("Blue")),
        ("sign", json!("Ada Lovelace")),
        ("initials", json!("AL")),
        ("notes", json!("Bring the Difference Engine plans — ü and 中")),
        ("again", json!("Maybe")),
    ];
    for (key, value) in answers {
        let f = doc
            .fields
            .iter_mut()
            .find(|f| f.key == key)
            .expect("the key is in the form");
        f.value = Some(value);
    }
    doc
}

/// What pypdf reads from the PDF at `path`, through tests/forms_fields.py.
fn pypdf_read(path: &Path) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/forms_fields.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(path)
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 could not be run ({e}); these tests need Python 3 with pypdf: `pip install pypdf`")
        });
    if out.status.code() == Some(3) {
        panic!("pypdf is not installed: `pip install pypdf` (make test installs it)");
    }
    assert!(
        out.status.success(),
        "pypdf could not read {}:\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}

fn flags(fields: &Value, name: &str) -> i64 {
    fields[name]["/Ff"].as_i64().unwrap_or(0)
}

/// The widgets on one page (0-based) named `name`.
fn widgets<'v>(read: &'v Value, page: usize, name: &str) -> Vec<&'v Value> {
    read["pages"][page]
        .as_array()
        .expect("pages")
        .iter()
        .filter(|w| w["name"] == name)
        .collect()
}

#[test]
fn every_field_type_is_a_real_acroform_field() {
    let (path, out) = export_checked(&request(form_document(), vec![]), "form-empty");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let read = pypdf_read(&path);
    let fields = &read["fields"];

    let mut names: Vec<&str> = fields
        .as_object()
        .expect("fields")
        .keys()
        .map(String::as_str)
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "again", "age", "agree", "bio", "birthday", "colours", "contact", "country", "email",
            "initials", "name", "notes", "sign", "size"
        ]
    );
    let expect = [
        ("name", "/Tx", REQUIRED),
        ("bio", "/Tx", MULTILINE),
        ("email", "/Tx", REQUIRED | DO_NOT_SPELL_CHECK),
        ("age", "/Tx", DO_NOT_SPELL_CHECK),
        ("birthday", "/Tx", DO_NOT_SPELL_CHECK),
        ("agree", "/Btn", REQUIRED),
        ("size", "/Btn", RADIO | NO_TOGGLE_TO_OFF),
        ("contact", "/Btn", REQUIRED | RADIO | NO_TOGGLE_TO_OFF),
        ("country", "/Ch", COMBO),
        ("colours", "/Ch", 0),
        ("sign", "/Sig", REQUIRED),
        ("initials", "/Tx", 0),
        ("notes", "/Tx", MULTILINE),
        ("again", "/Btn", RADIO | NO_TOGGLE_TO_OFF),
    ];
    for (name, ft, ff) in expect {
        assert_eq!(fields[name]["/FT"], ft, "type of {name}");
        assert_eq!(flags(fields, name), ff, "flags of {name}");
        assert!(fields[name].get("/V").is_none(), "{name} has no value yet");
    }
    assert_eq!(fields["name"]["/TU"], "Full name");
    assert_eq!(fields["contact"]["/TU"], "How to reach you");
    assert_eq!(
        fields["country"]["/Opt"],
        json!(["France", "Germany", "Spain"])
    );
    assert_eq!(
        fields["colours"]["/Opt"],
        json!(["Red", "Green", "Blue", "Yellow"])
    );
    assert_eq!(
        fields["initials"]["kids"], 2,
        "one field, a widget per page"
    );
    assert_eq!(fields["size"]["kids"], 3);
    assert_eq!(fields["contact"]["kids"], 3, "one widget per option");

    let form = &read["acroform"];
    assert_eq!(form["fields"], 14);
    assert_eq!(form["da"], "/Helv 0 Tf 0 g");
    assert_eq!(form["fonts"], json!(["/Helv", "/ZaDb"]));

    // Widgets: on the right pages, printable, each with a normal appearance.
    assert_eq!(read["pages"][0].as_array().unwrap().len(), 16);
    assert_eq!(read["pages"][1].as_array().unwrap().len(), 5);
    assert_eq!(widgets(&read, 0, "initials").len(), 1);
    assert_eq!(widgets(&read, 1, "initials").len(), 1);
    assert_eq!(widgets(&read, 1, "again").len(), 3);
    for page in read["pages"].as_array().unwrap() {
        for w in page.as_array().unwrap() {
            assert!(w["states"].is_array(), "appearance of {w}");
            assert_eq!(w["print"], true, "{w}");
            assert_eq!(w["page_ref"], true, "{w}");
        }
    }
    let agree = widgets(&read, 0, "agree");
    assert_eq!(agree[0]["states"], json!(["/Off", "/Yes"]));
    assert_eq!(agree[0]["as"], "/Off");
    let size_states: Vec<&Value> = widgets(&read, 0, "size")
        .iter()
        .map(|w| &w["states"])
        .collect();
    assert_eq!(
        size_states,
        [
            &json!(["/Off", "/S"]),
            &json!(["/M", "/Off"]),
            &json!(["/L", "/Off"])
        ]
    );
    // The one-box radio: three widgets dividing the box, stacked (it is 48 points tall).
    let contact = widgets(&read, 0, "contact");
    let rects: Vec<Vec<f64>> = contact
        .iter()
        .map(|w| serde_json::from_value(w["rect"].clone()).unwrap())
        .collect();
    assert_eq!(rects[0], [100.0, A4.1 - 346.0, 220.0, A4.1 - 330.0]);
    assert_eq!(rects[2], [100.0, A4.1 - 378.0, 220.0, A4.1 - 362.0]);
    assert_eq!(contact[1]["states"], json!(["/Off", "/Phone"]));
    // A flat box lays its options side by side.
    let again = widgets(&read, 1, "again");
    let x0: Vec<f64> = again
        .iter()
        .map(|w| w["rect"][0].as_f64().unwrap())
        .collect();
    assert_eq!(x0, [100.0, 200.0, 300.0]);
    for w in widgets(&read, 0, "name") {
        assert_eq!(w["states"], json!(["stream"]));
    }
}

#[test]
fn a_filled_copy_carries_every_value() {
    let (path, out) = export_checked(&request(filled_document(), vec![]), "form-filled");
    assert_eq!(
        out.warnings,
        ["characters the fonts at hand cannot draw were replaced: 中 (drawn as ?)"]
    );
    let read = pypdf_read(&path);
    let fields = &read["fields"];
    let values = [
        ("name", json!("Ada Lovelace")),
        ("email", json!("ada@example.com")),
        ("age", json!("36")),
        ("birthday", json!("1815-12-10")),
        ("agree", json!("/Yes")),
        ("size", json!("/M")),
        ("contact", json!("/Phone")),
        ("country", json!("Germany")),
        ("colours", json!("Blue")),
        ("initials", json!("AL")),
        // The value keeps what the appearance cannot draw.
        (
            "notes",
            json!("Bring the Difference Engine plans — ü and 中"),
        ),
        ("again", json!("/Maybe")),
    ];
    for (name, v) in values {
        assert_eq!(fields[name]["/V"], v, "value of {name}");
    }
    assert!(fields["bio"]["/V"]
        .as_str()
        .unwrap()
        .starts_with("Mathematician"));
    assert!(
        fields["sign"].get("/V").is_none(),
        "a typed name is drawn, not passed off as a signature"
    );
    let states = |page, name| -> Vec<Value> {
        widgets(&read, page, name)
            .iter()
            .map(|w| w["as"].clone())
            .collect()
    };
    assert_eq!(states(0, "agree"), [json!("/Yes")]);
    assert_eq!(
        states(0, "size"),
        [json!("/Off"), json!("/M"), json!("/Off")]
    );
    assert_eq!(
        states(0, "contact"),
        [json!("/Off"), json!("/Phone"), json!("/Off")]
    );
    assert_eq!(
        states(1, "again"),
        [json!("/Off"), json!("/Off"), json!("/Maybe")]
    );
}

/// The pixels of a PDF rectangle `[x1, y1, x2, y2]` on a page rendered at `dpi`, shrunk by
/// `inset` pixels so anti-aliased edges do not count.
fn pixels_in(r: &Raster, rect: &Value, dpi: f64, inset: usize) -> Vec<[u8; 3]> {
    let k = dpi / 72.0;
    let px = |i: usize| rect[i].as_f64().unwrap() * k;
    let (x1, x2) = (
        px(0).ceil() as usize + inset,
        px(2).floor() as usize - inset,
    );
    let top = (A4.1 * k - px(3)).ceil() as usize + inset;
    let bottom = (A4.1 * k - px(1)).floor() as usize - inset;
    let mut out = Vec::new();
    for y in top..bottom.min(r.height) {
        for x in x1..x2.min(r.width) {
            out.push(r.at(x, y));
        }
    }
    out
}

fn dark(p: &[u8; 3]) -> bool {
    p.iter().map(|&c| c as u32).sum::<u32>() < 3 * 110
}

#[test]
fn every_box_is_drawn_and_every_value_shows() {
    let (empty_path, _) = export_checked(&request(form_document(), vec![]), "form-render-empty");
    let (filled_path, _) =
        export_checked(&request(filled_document(), vec![]), "form-render-filled");
    let read = pypdf_read(&empty_path);
    let read_filled = pypdf_read(&filled_path);
    for page in [1u32, 2] {
        let empty = render(&empty_path, page, 60);
        let filled = render(&filled_path, page, 60);
        let on_page = |r: &Value| r["pages"][page as usize - 1].as_array().unwrap().clone();
        for (w, wf) in on_page(&read).iter().zip(on_page(&read_filled).iter()) {
            let name = w["name"].as_str().unwrap();
            assert_eq!(w["rect"], wf["rect"], "the same widgets in the same order");
            let before = pixels_in(&empty, &w["rect"], 60.0, 1);
            let after = pixels_in(&filled, &w["rect"], 60.0, 1);
            assert!(!before.is_empty(), "{name} is at least a few pixels");
            let white = before.iter().filter(|p| **p == [255, 255, 255]).count();
            assert!(
                white * 2 < before.len(),
                "{name} on page {page}: {white} of {} pixels white in the empty form",
                before.len()
            );
            // Every widget of a field with a value looks different once filled, except the
            // radio options left unchosen.
            let unchosen = wf["as"] == "/Off";
            let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
            if unchosen {
                assert_eq!(changed, 0, "{name}: unchosen option redrawn");
            } else {
                assert!(changed > 4, "{name} on page {page}: the value is not drawn");
                let dark_before = before.iter().filter(|p| dark(p)).count();
                let dark_after = after.iter().filter(|p| dark(p)).count();
                assert!(
                    dark_after > dark_before || name == "colours",
                    "{name}: {dark_before} -> {dark_after} dark pixels"
                );
            }
        }
    }
}

#[test]
fn a_one_page_export_carries_that_pages_fields_only() {
    let mut req = request(filled_document(), vec![]);
    req.page = Some(2);
    let (path, _) = export_checked(&req, "form-page-2");
    let read = pypdf_read(&path);
    let mut names: Vec<&String> = read["fields"].as_object().unwrap().keys().collect();
    names.sort_unstable();
    assert_eq!(names, ["again", "initials", "notes"]);
    assert_eq!(read["fields"]["initials"]["kids"], 1);
    assert_eq!(read["fields"]["initials"]["/V"], "AL");
    assert_eq!(read["acroform"]["fields"], 3);
    assert_eq!(read["pages"].as_array().unwrap().len(), 1);
    assert_eq!(read["pages"][0].as_array().unwrap().len(), 5);
}

#[test]
fn boxes_off_the_page_are_cut_or_left_out() {
    let mut doc = form_document();
    doc.fields = vec![
        field(
            "half",
            FieldType::Text,
            1,
            Rect::new(545.0, 10.0, 100.0, 20.0),
        ),
        field(
            "gone",
            FieldType::Text,
            1,
            Rect::new(700.0, 10.0, 100.0, 20.0),
        ),
        field(
            "nowhere",
            FieldType::Checkbox,
            9,
            Rect::new(10.0, 10.0, 10.0, 10.0),
        ),
        field(
            "nan",
            FieldType::Text,
            1,
            Rect::new(f64::NAN, 10.0, 10.0, 10.0),
        ),
    ];
    // The model check refuses these; the exporter must still cope with them.
    let out = quire_pdf::export_pdf(&request(doc, vec![])).expect("export");
    let path = out_dir().join("form-off-page.pdf");
    std::fs::write(&path, &out.bytes).unwrap();
    let check = tool("qpdf", &["--check", path.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let read = pypdf_read(&path);
    let names: Vec<&String> = read["fields"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["half"]);
    assert_eq!(
        read["pages"][0][0]["rect"],
        json!([545.0, 812.0, 595.0, 832.0])
    );
}

#[test]
fn without_fields_there_is_no_acroform_and_output_is_stable() {
    let mut doc = form_document();
    doc.fields.clear();
    let (path, _) = export_checked(&request(doc, vec![]), "form-none");
    assert_eq!(pypdf_read(&path)["acroform"], Value::Null);
    let a = quire_pdf::export_pdf(&request(filled_document(), vec![])).unwrap();
    let b = quire_pdf::export_pdf(&request(filled_document(), vec![])).unwrap();
    assert!(a.bytes == b.bytes, "the same form gives the same bytes");
}

#[test]
fn huge_option_lists_stay_bounded() {
    let mut doc = form_document();
    let many: Vec<String> = (0..100_000).map(|i| format!("choice {i}")).collect();
    let mut radio = field(
        "crowd",
        FieldType::Radio,
        1,
        Rect::new(10.0, 10.0, 200.0, 100.0),
    );
    radio.options = many.clone();
    radio.value = Some(json!("choice 99999"));
    let mut list = field(
        "long",
        FieldType::List,
        1,
        Rect::new(300.0, 10.0, 200.0, 100.0),
    );
    list.options = many;
    list.value = Some(json!(["choice 5", "choice 99998"]));
    // Options that cannot all be states: empty, `Off`, repeated.
    let odd = with_options(
        field(
            "odd",
            FieldType::Radio,
            2,
            Rect::new(10.0, 10.0, 200.0, 60.0),
        ),
        &["", "Off", "a", "a"],
    );
    doc.fields = vec![radio, list, odd];
    let started = std::time::Instant::now();
    let (path, _) = export_checked(&request(doc, vec![]), "form-huge");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let read = pypdf_read(&path);
    // 100 points cannot hold 100,000 one-point rows: the radio has no visible option.
    assert!(read["fields"].get("crowd").is_none());
    assert_eq!(
        read["fields"]["long"]["/V"],
        json!(["choice 5", "choice 99998"])
    );
    assert_eq!(
        read["fields"]["long"]["/Ff"],
        1 << 21,
        "several answers: multiple choice"
    );
    let odd: Vec<&Value> = widgets(&read, 1, "odd")
        .iter()
        .map(|w| &w["states"])
        .collect();
    assert_eq!(
        odd,
        [
            &json!(["/Off", "/option1"]),
            &json!(["/Off", "/option2"]),
            &json!(["/Off", "/a"]),
            &json!(["/Off", "/option4"])
        ]
    );
}
