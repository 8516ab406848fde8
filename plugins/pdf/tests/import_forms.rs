//! The importer reads a PDF's interactive form into the model's `fields`, checked against
//! pypdf (tests/forms_widgets.py lists every widget with its field's inherited entries):
//! one box per widget with the field's fully qualified name as key, the type its `/FT` and
//! flags say, `/Opt` display texts or radio on-states as options, `/V` as value, and the
//! widget's `/Rect` converted to top-left page coordinates. Round trip: the exporter writes
//! the fields back and pypdf reads the same names, types and values.
//!
//! Tools: python3 with pypdf, qpdf, poppler-utils (`make test` installs them).

mod import_support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use import_support::*;
use quire_sdk::*;
use serde_json::{json, Value};

const ORACLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/forms_widgets.py");

const MIXED: &str = "pdfjs-bug1883609-acroform-mixed.pdf";
const CHOICE: &str = "pdfjs-annotation-choice-widget.pdf";
const BUTTON: &str = "pdfjs-annotation-button-widget.pdf";
const ORPHANS: &str = "pypdf-sf424-page2-orphan-widgets.pdf";
const ENCRYPTED: &str = "pdfjs-issue9972-aes128-owner-only-acroform.pdf";

/// Field flag bits (PDF 32000 tables 221 to 230), spelled out again here so the test does
/// not borrow the importer's reading of them.
const HIDDEN: i64 = 2;
const NO_VIEW: i64 = 32;

/// pypdf's view of a PDF's form (see forms_widgets.py).
fn oracle(path: &str) -> Value {
    let out = tool("python3", &[ORACLE, path]);
    assert!(
        out.status.success(),
        "forms_widgets.py {path} failed (pypdf is needed: pip install pypdf):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("forms_widgets.py prints JSON")
}

/// One box as pypdf's data says it must come out.
#[derive(Debug, Clone)]
struct Expected {
    key: String,
    ty: FieldType,
    page: u32,
    frame: Rect,
    options: Vec<String>,
    value: Option<Value>,
    /// `/MK /BC` and `/BG` as the model's 0-255 RGB (grey and CMYK converted).
    border: Option<[u8; 3]>,
    background: Option<[u8; 3]>,
}

/// A box's border and background colours.
type BoxLook = (Option<[u8; 3]>, Option<[u8; 3]>);

/// A `/MK` colour's components as RGB bytes: grey, RGB, or CMYK; none for an empty array.
fn rgb_of(v: &Value) -> Option<[u8; 3]> {
    let c: Vec<f64> = v.as_array()?.iter().map(|x| x.as_f64().unwrap()).collect();
    let b = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    match c[..] {
        [g] => Some([b(g); 3]),
        [r, g, bl] => Some([b(r), b(g), b(bl)]),
        [c, m, y, k] => Some([
            b((1.0 - c) * (1.0 - k)),
            b((1.0 - m) * (1.0 - k)),
            b((1.0 - y) * (1.0 - k)),
        ]),
        _ => None,
    }
}

fn text_of(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// `/Opt` as (export, display) pairs.
fn opt_pairs(opt: &Value) -> Vec<(String, String)> {
    opt.as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|o| match o {
                    Value::Array(pair) => {
                        let export = text_of(pair.first()?)?;
                        let display = pair.get(1).and_then(text_of).unwrap_or(export.clone());
                        Some((export, display))
                    }
                    other => text_of(other).map(|t| (t.clone(), t)),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn displays(pairs: &[(String, String)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, d) in pairs {
        let d = d.trim();
        if !d.is_empty() && !out.iter().any(|o| o == d) {
            out.push(d.to_string());
        }
    }
    out
}

/// The model type of a widget's field from its `/FT` and `/Ff`; `None` for push buttons
/// and widgets of no known type.
fn type_of(w: &Value) -> Option<FieldType> {
    let ff = w["ff"].as_i64().unwrap_or(0);
    match w["ft"].as_str()? {
        "Tx" if ff & (1 << 12) != 0 => Some(FieldType::Multiline),
        "Tx" => Some(FieldType::Text),
        "Btn" if ff & (1 << 16) != 0 => None,
        "Btn" if ff & (1 << 15) != 0 => Some(FieldType::Radio),
        "Btn" => Some(FieldType::Checkbox),
        "Ch" if displays(&opt_pairs(&w["opt"])).is_empty() => Some(FieldType::Text),
        "Ch" if ff & (1 << 17) != 0 => Some(FieldType::Select),
        "Ch" => Some(FieldType::List),
        "Sig" => Some(FieldType::Signature),
        _ => None,
    }
}

/// The value a widget's field carries, read the way the model stores it.
fn value_of(w: &Value, ty: FieldType, options: &[String]) -> Option<Value> {
    let v = &w["v"];
    let pairs = opt_pairs(&w["opt"]);
    let display = |s: &str| {
        pairs
            .iter()
            .find(|(e, _)| e.trim() == s.trim())
            .map(|(_, d)| d.trim().to_string())
            .filter(|d| options.contains(d))
            .or_else(|| options.iter().find(|o| o.as_str() == s.trim()).cloned())
    };
    match ty {
        FieldType::Checkbox => v.as_str().map(|s| json!(s != "Off")),
        FieldType::Radio => v
            .as_str()
            .filter(|s| options.iter().any(|o| o == s))
            .map(|s| json!(s)),
        FieldType::Select => v.as_str().and_then(display).map(Value::String),
        FieldType::List => {
            let items: Vec<String> = match v {
                Value::Array(a) => a
                    .iter()
                    .filter_map(|s| s.as_str())
                    .filter_map(display)
                    .collect(),
                Value::String(s) => display(s).into_iter().collect(),
                _ => Vec::new(),
            };
            match items.len() {
                0 => None,
                1 => Some(json!(items[0])),
                _ => Some(json!(items)),
            }
        }
        FieldType::Signature => None,
        _ => v.as_str().filter(|s| !s.is_empty()).map(|s| json!(s)),
    }
}

/// Every shown widget of a question type, as a model box: the `/Rect` made top-left
/// relative to the page's crop box (pages of the tested files are not rotated), cut to it.
fn expected(oracle: &Value) -> Vec<Expected> {
    let pages = oracle["pages"].as_array().unwrap();
    let widgets = oracle["widgets"].as_array().unwrap();
    // Radio options: the on-states of the group's widgets, in order.
    let mut radio: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for w in widgets {
        if type_of(w) == Some(FieldType::Radio)
            && w["flags"].as_i64().unwrap() & (HIDDEN | NO_VIEW) == 0
        {
            let name = w["name"].as_str().unwrap().to_string();
            let on = w["on"].as_str().unwrap_or("?").to_string();
            radio.entry(name).or_default().push(on);
        }
    }
    let mut out = Vec::new();
    for w in widgets {
        let Some(ty) = type_of(w) else { continue };
        if w["flags"].as_i64().unwrap() & (HIDDEN | NO_VIEW) != 0 {
            continue;
        }
        let page = w["page"].as_u64().unwrap() as u32;
        let p = &pages[page as usize - 1];
        assert_eq!(p["rotate"], 0, "the expected boxes assume unrotated pages");
        let crop: Vec<f64> = p["crop"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let r: Vec<f64> = w["rect"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let (x0, x1) = (r[0].min(r[2]), r[0].max(r[2]));
        let (y0, y1) = (r[1].min(r[3]), r[1].max(r[3]));
        let left = (x0 - crop[0]).max(0.0);
        let right = (x1 - crop[0]).min(crop[2] - crop[0]);
        let top = (crop[3] - y1).max(0.0);
        let bottom = (crop[3] - y0).min(crop[3] - crop[1]);
        if right - left < 1.0 || bottom - top < 1.0 {
            continue;
        }
        let name = w["name"].as_str().unwrap().to_string();
        let options = match ty {
            FieldType::Radio => radio[&name].clone(),
            FieldType::Select | FieldType::List => displays(&opt_pairs(&w["opt"])),
            _ => Vec::new(),
        };
        out.push(Expected {
            value: value_of(w, ty, &options),
            key: name,
            ty,
            page,
            frame: Rect::new(left, top, right - left, bottom - top),
            options,
            border: rgb_of(&w["bc"]),
            background: rgb_of(&w["bg"]),
        });
    }
    out
}

fn near(a: &Rect, b: &Rect, tolerance: f64) -> bool {
    (a.x - b.x).abs() <= tolerance
        && (a.y - b.y).abs() <= tolerance
        && (a.w - b.w).abs() <= tolerance
        && (a.h - b.h).abs() <= tolerance
}

/// Every box the model has is one pypdf's widgets call for, and the other way round.
fn assert_matches_pypdf(file: &str, path: &str, fields: &[Field]) {
    let want = expected(&oracle(path));
    assert_eq!(
        fields.len(),
        want.len(),
        "{file}: {} boxes, pypdf lists {} widgets of questions\nmodel: {:#?}\npypdf: {want:#?}",
        fields.len(),
        want.len(),
        fields.iter().map(|f| &f.key).collect::<Vec<_>>()
    );
    let mut used = vec![false; fields.len()];
    for e in &want {
        let found = fields.iter().enumerate().position(|(i, f)| {
            !used[i] && f.key == e.key && f.page == e.page && near(&f.frame, &e.frame, 0.01)
        });
        let Some(i) = found else {
            panic!("{file}: no box for {e:#?}\nmodel: {fields:#?}");
        };
        used[i] = true;
        let f = &fields[i];
        assert_eq!(f.field_type, e.ty, "{file}: type of `{}`", e.key);
        assert_eq!(f.options, e.options, "{file}: options of `{}`", e.key);
        assert_eq!(f.value, e.value, "{file}: value of `{}`", e.key);
        // The box keeps its own border and background.
        let look = f.look.expect("an imported box keeps its look");
        let rgb = |c: Option<quire_sdk::Color>| c.map(|c| [c.r, c.g, c.b]);
        assert_eq!(rgb(look.border), e.border, "{file}: border of `{}`", e.key);
        assert_eq!(
            rgb(look.background),
            e.background,
            "{file}: background of `{}`",
            e.key
        );
        assert!(
            !f.label.trim().is_empty(),
            "{file}: `{}` has no label",
            e.key
        );
    }
}

/// Questions (distinct keys) by type.
fn census(fields: &[Field]) -> BTreeMap<&'static str, usize> {
    let mut seen = BTreeSet::new();
    let mut out = BTreeMap::new();
    for f in fields {
        if seen.insert(f.key.as_str()) {
            *out.entry(f.field_type.as_str()).or_default() += 1;
        }
    }
    out
}

fn questions(fields: &[Field]) -> usize {
    fields
        .iter()
        .map(|f| f.key.as_str())
        .collect::<BTreeSet<_>>()
        .len()
}

fn field<'a>(fields: &'a [Field], key: &str) -> &'a Field {
    fields.iter().find(|f| f.key == key).unwrap_or_else(|| {
        panic!(
            "no field `{key}` in {:?}",
            fields.iter().map(|f| &f.key).collect::<Vec<_>>()
        )
    })
}

fn valid(imported: &Imported, what: &str) {
    let names: Vec<&str> = imported.assets.iter().map(|a| a.name.as_str()).collect();
    if let Err(e) = validate::check(&imported.document, names) {
        panic!("{what}: the model is invalid: {e}");
    }
}

#[test]
fn a_typical_form_reads_like_pypdf_reads_it() {
    let imported = import_corpus(MIXED, &[]);
    valid(&imported, MIXED);
    let fields = &imported.document.fields;
    assert_matches_pypdf(MIXED, &corpus_path(MIXED), fields);
    assert_eq!(questions(fields), 17);
    // The "List Box" fields carry the combo flag: pypdf and every viewer show drop-downs.
    assert_eq!(
        census(fields),
        BTreeMap::from([("checkbox", 6), ("select", 3), ("text", 8)])
    );
    assert!(fields.iter().all(|f| f.page == 1));
    assert_eq!(
        field(fields, "Height Formatted Field").value,
        Some(json!("150"))
    );
    assert_eq!(
        field(fields, "Language 2 Check Box").value,
        Some(json!(true))
    );
    assert_eq!(
        field(fields, "Language 3 Check Box").value,
        Some(json!(false))
    );
    assert_eq!(field(fields, "Gender List Box").options, ["Man", "Woman"]);
    assert_eq!(
        field(fields, "Favourite Colour List Box").value,
        Some(json!("Red"))
    );
    assert_eq!(field(fields, "Country Combo Box").options.len(), 28);
    // /TU is the label; without one, the name is.
    assert_eq!(field(fields, "Given Name Text Box").label, "First name");
    assert_eq!(field(fields, "City Text Box").label, "City Text Box");
    // Given Name's /Rect is [165.7 453.7 315.7 467.9] on an 842 pt tall page.
    assert!(near(
        &field(fields, "Given Name Text Box").frame,
        &Rect::new(165.7, 374.1, 150.0, 14.2),
        0.01
    ));
}

#[test]
fn hybrid_xfa_forms_use_their_acroform() {
    let imported = import_corpus(CHOICE, &[]);
    valid(&imported, CHOICE);
    let fields = &imported.document.fields;
    assert_matches_pypdf(CHOICE, &corpus_path(CHOICE), fields);
    assert_eq!(census(fields), BTreeMap::from([("list", 3), ("select", 2)]));
    let key = |k: &str| format!("formulier1[0].#subform[0].{k}");
    assert_eq!(
        field(fields, &key("Vervolgkeuzelijst1[0]")).value,
        Some(json!("Dolor"))
    );
    assert_eq!(
        field(fields, &key("Keuzelijst1[0]")).value,
        Some(json!("Sit"))
    );
    assert_eq!(
        field(fields, &key("Keuzelijst2[0]")).value,
        Some(json!(["Ipsum", "Amet", "Consectetur", "Elit"]))
    );
    assert_eq!(
        field(fields, &key("Keuzelijst3[0]")).options,
        [
            "Lorem",
            "Ipsum",
            "Dolor",
            "Sit",
            "Amet",
            "Consectetur",
            "Adipiscing",
            "Elit"
        ]
    );
    assert_eq!(
        field(fields, &key("Keuzelijst3[0]")).label,
        "List box, read-only"
    );

    let imported = import_corpus(BUTTON, &[]);
    valid(&imported, BUTTON);
    let fields = &imported.document.fields;
    assert_matches_pypdf(BUTTON, &corpus_path(BUTTON), fields);
    assert_eq!(
        census(fields),
        BTreeMap::from([("checkbox", 3), ("radio", 3)])
    );
    assert_eq!(fields.len(), 9, "each radio group has two boxes");
    let group = key("LijstKeuzerondje[0]");
    let boxes: Vec<&Field> = fields.iter().filter(|f| f.key == group).collect();
    assert_eq!(boxes.len(), 2);
    for b in &boxes {
        assert_eq!(b.options, ["0", "1"]);
        assert_eq!(b.value, Some(json!("1")));
    }
    // Box i is option i: the second box is the one whose on state is "1".
    assert!(boxes[0].frame.x < boxes[1].frame.x);
    assert_eq!(
        field(fields, &key("Selectievakje3[0]")).value,
        Some(json!(true))
    );
}

#[test]
fn orphan_widgets_without_an_acroform_are_read() {
    let imported = import_corpus(ORPHANS, &[]);
    valid(&imported, ORPHANS);
    let fields = &imported.document.fields;
    assert_matches_pypdf(ORPHANS, &corpus_path(ORPHANS), fields);
    // 20 widgets: three push buttons (no question) and 17 fields.
    assert_eq!(questions(fields), 17);
    assert_eq!(
        census(fields),
        BTreeMap::from([("multiline", 4), ("select", 3), ("text", 10)])
    );
    assert_eq!(
        field(fields, "FederalAgencyName").value,
        Some(json!(
            "U.S. Department of Interior, Fish and Wildlife Service"
        ))
    );
    // The blank first entry of /Opt is no option to choose.
    assert_eq!(field(fields, "ApplicantType1").options.len(), 15);
    assert_eq!(field(fields, "ApplicantType1").options[0], "A. State");
    // Names come from the /Parent chain; a digit alone says nothing, so the label is the
    // whole name.
    assert_eq!(field(fields, "cfda.2").label, "cfda 2");
    assert!(
        !imported.warnings.iter().any(|w| w.contains("form")),
        "{:?}",
        imported.warnings
    );
}

#[test]
fn encrypted_forms_come_out_decrypted() {
    let path = corpus_path(ENCRYPTED);
    // pypdf reads the file decrypted itself (owner-only: the empty user password opens it).
    for mode in ["editable", "image"] {
        let imported = import_corpus(ENCRYPTED, &[("unlock", "1"), ("mode", mode)]);
        valid(&imported, ENCRYPTED);
        let fields = &imported.document.fields;
        assert_matches_pypdf(ENCRYPTED, &path, fields);
        assert_eq!(census(fields), BTreeMap::from([("text", 6)]), "{mode}");
        assert_eq!(field(fields, "B SLEEP RITUALS").label, "B. SLEEP RITUALS");
    }
    // Redrawn from the original bytes: hayro decrypts the strings itself.
    let redrawn = import_corpus(ENCRYPTED, &[("unlock", "rebuild")]);
    let keys: BTreeSet<&str> = redrawn
        .document
        .fields
        .iter()
        .map(|f| f.key.as_str())
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "B SLEEP RITUALS",
            "C SLEEP SCHEDULE",
            "D STRATEGIC NAPPING",
            "how much",
            "undefined",
            "what"
        ])
    );
}

#[test]
fn pictured_pages_get_the_same_fields() {
    for file in [MIXED, ORPHANS, BUTTON] {
        let editable = import_corpus(file, &[]);
        let pictured = import_corpus(file, &[("mode", "image")]);
        valid(&pictured, file);
        assert_eq!(editable.document.fields, pictured.document.fields, "{file}");
    }
}

/// Runs a small pypdf script that writes a changed copy of a corpus file.
fn derive(file: &str, name: &str, script: &str) -> String {
    let out_path = out_dir().join(format!("{name}.pdf"));
    let program = format!(
        "import sys\nfrom pypdf import PdfReader, PdfWriter, Transformation\n\
         from pypdf.generic import ArrayObject, FloatObject, NameObject, NumberObject, RectangleObject\n\
         w = PdfWriter(clone_from=PdfReader(sys.argv[1]))\npage = w.pages[0]\n{script}\n\
         w.write(sys.argv[2])\n"
    );
    let out = tool(
        "python3",
        &[
            "-c",
            &program,
            &corpus_path(file),
            out_path.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out_path.to_string_lossy().into_owned()
}

#[test]
fn boxes_follow_the_crop_box_and_are_cut_to_it() {
    // A crop box that starts right of the text boxes' left edge and misses two check boxes.
    let path = derive(
        MIXED,
        "mixed.cropped",
        "page.cropbox = RectangleObject([170, 50, 560, 780])",
    );
    let imported = import(read(&path), &[]).unwrap();
    valid(&imported, "cropped");
    let fields = &imported.document.fields;
    assert_matches_pypdf("cropped", &path, fields);
    let page = &imported.document.pages[0];
    assert_eq!((page.width, page.height), (390.0, 730.0));
    assert_eq!(
        questions(fields),
        15,
        "Language 1 and 2 lie left of the crop box"
    );
    // [165.7 453.7 315.7 467.9]: cut at x = 170, 780 - 467.9 from the top.
    assert!(near(
        &field(fields, "Given Name Text Box").frame,
        &Rect::new(0.0, 312.1, 145.7, 14.2),
        0.01
    ));
}

#[test]
fn boxes_of_a_page_turned_upright_turn_with_it() {
    // The content and the widgets turned a quarter in page space (x, y) -> (842 - y, x),
    // with /Rotate 90 so that the page shows as before. The importer turns it upright to
    // keep its text editable; the boxes must land where they did on the original.
    let path = derive(
        MIXED,
        "mixed.turned",
        "H = float(page.mediabox.height); W = float(page.mediabox.width)\n\
         page.add_transformation(Transformation((0, 1, -1, 0, H, 0)))\n\
         page.mediabox = RectangleObject([0, 0, H, W]); page.cropbox = RectangleObject([0, 0, H, W])\n\
         page[NameObject('/Rotate')] = NumberObject(90)\n\
         for a in page['/Annots']:\n    a = a.get_object(); r = [float(v) for v in a['/Rect']]\n    \
         a[NameObject('/Rect')] = ArrayObject([FloatObject(H - r[3]), FloatObject(r[0]), FloatObject(H - r[1]), FloatObject(r[2])])",
    );
    let turned = import(read(&path), &[]).unwrap();
    valid(&turned, "turned");
    assert!(
        turned.warnings.iter().any(|w| w.contains("turned upright")),
        "{:?}",
        turned.warnings
    );
    let page = &turned.document.pages[0];
    assert_eq!((page.width, page.height, page.rotate), (595.0, 842.0, 0));
    let original = import_corpus(MIXED, &[]);
    assert_eq!(turned.document.fields.len(), original.document.fields.len());
    for (a, b) in turned.document.fields.iter().zip(&original.document.fields) {
        assert_eq!(a.key, b.key);
        assert!(
            near(&a.frame, &b.frame, 0.05),
            "{}: {:?} vs {:?}",
            a.key,
            a.frame,
            b.frame
        );
    }

    // Left rotated (mode=image keeps /Rotate): the boxes stay in unrotated page space, where
    // pypdf's /Rect is.
    let pictured = import(read(&path), &[("mode", "image")]).unwrap();
    valid(&pictured, "turned, pictured");
    let page = &pictured.document.pages[0];
    assert_eq!((page.width, page.height, page.rotate), (842.0, 595.0, 90));
    let f = field(&pictured.document.fields, "Given Name Text Box");
    // /Rect [842-467.9, 165.7, 842-453.7, 315.7] in a 595 pt tall media box.
    assert!(
        near(&f.frame, &Rect::new(374.1, 279.3, 14.2, 150.0), 0.01),
        "{:?}",
        f.frame
    );
}

/// Names, model types and values of an exported PDF's form, read back by pypdf.
fn read_back(path: &Path) -> BTreeMap<String, (FieldType, Option<Value>)> {
    let form = oracle(path.to_str().unwrap());
    let mut out = BTreeMap::new();
    for w in form["widgets"].as_array().unwrap() {
        let ty = type_of(w).expect("every exported widget is a question");
        let options = match ty {
            FieldType::Select | FieldType::List => displays(&opt_pairs(&w["opt"])),
            _ => Vec::new(),
        };
        let name = w["name"].as_str().unwrap().to_string();
        let value = match ty {
            // The exporter names radio states after the options.
            FieldType::Radio => w["v"].as_str().filter(|s| *s != "Off").map(|s| json!(s)),
            _ => value_of(w, ty, &options),
        };
        out.insert(name, (ty, value));
    }
    // pypdf's own field list agrees on the names.
    let listed: BTreeSet<String> = form["fields"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, f)| !f["ft"].is_null())
        .map(|(n, _)| n.clone())
        .collect();
    assert_eq!(listed, out.keys().cloned().collect());
    out
}

#[test]
fn forms_survive_export_and_read_back() {
    for file in [MIXED, CHOICE, BUTTON, ORPHANS, ENCRYPTED] {
        let imported = import_corpus(file, &[("unlock", "1")]);
        let stem = file.trim_end_matches(".pdf");
        let path = export_checked(&imported, &format!("{stem}.form-roundtrip"));
        let back = read_back(&path);
        let mut model: BTreeMap<String, (FieldType, Option<Value>)> = BTreeMap::new();
        for f in &imported.document.fields {
            model
                .entry(f.key.clone())
                .or_insert((f.field_type, f.value.clone()));
        }
        assert_eq!(back, model, "{file}: pypdf reads another form back");
        // As many widgets as boxes.
        let widgets = oracle(path.to_str().unwrap())["widgets"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(widgets, imported.document.fields.len(), "{file}");
        // Each box keeps its own border and background, as pypdf reads the written /MK.
        let mut written: Vec<BoxLook> = expected(&oracle(path.to_str().unwrap()))
            .into_iter()
            .map(|e| (e.border, e.background))
            .collect();
        let rgb = |c: Option<quire_sdk::Color>| c.map(|c| [c.r, c.g, c.b]);
        let mut kept: Vec<BoxLook> = imported
            .document
            .fields
            .iter()
            .map(|f| {
                let look = f.look.unwrap();
                (rgb(look.border), rgb(look.background))
            })
            .collect();
        written.sort();
        kept.sort();
        assert_eq!(written, kept, "{file}: the boxes' own looks");
    }
}

#[test]
fn every_corpus_pdf_gives_a_valid_model_in_both_modes() {
    let mut names: Vec<String> = std::fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf"))
        .collect();
    names.sort();
    let mut with_forms = Vec::new();
    for file in &names {
        for mode in ["editable", "image"] {
            let mut options = vec![("unlock", "1"), ("mode", mode)];
            if let Some(pw) = password_of(file) {
                options.push(("password", pw));
            }
            let Ok(imported) = import(read(&corpus_path(file)), &options) else {
                continue;
            };
            valid(&imported, &format!("{file} ({mode})"));
            if mode == "editable" && !imported.document.fields.is_empty() {
                with_forms.push((file.as_str(), questions(&imported.document.fields)));
            }
        }
    }
    assert_eq!(
        with_forms,
        [
            (BUTTON, 6),
            (CHOICE, 5),
            (MIXED, 17),
            ("pdfjs-checkbox-no-appearance.pdf", 2),
            (ENCRYPTED, 6),
            (ORPHANS, 17),
        ]
    );
}

/// A PDF written object by object, with a correct cross-reference table.
fn pdf(objects: &[String]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for o in offsets {
        out.extend(format!("{o:010} 00000 n \n").bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

#[test]
fn malformed_forms_never_panic_or_break_the_model() {
    // 1 catalog, 2 pages, 3 page, 4 a field whose /Kids include itself and a widget with a
    // broken /Rect, 5 that widget, 6 a choice with nonsense /Opt, 7 its widget (off the
    // page), 8-9 an orphan whose /Parent chain is a loop, 10 a hidden widget, 11 a radio
    // widget with no appearance, 12 a zero-area widget, 13 a signature.
    let objects: Vec<String> = [
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 6 0 R 4 0 R 99 0 R (x) 11 0 R 12 0 R 13 0 R] >> >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [5 0 R 7 0 R 8 0 R 10 0 R 11 0 R 12 0 R 13 0 R 5 0 R << /Subtype /Widget /Rect [0 0 10 10] >>] >>",
        "<< /T (loop) /FT /Tx /Ff -1 /Kids [4 0 R 5 0 R] >>",
        "<< /Subtype /Widget /Parent 4 0 R /Rect [10 10 /x 20] >>",
        "<< /T <FEFF00630068> /FT /Ch /Opt [[1 2] (a) << /x 1 >> [(b)] [] (a)] /V [(a) 7] /Kids [7 0 R] >>",
        "<< /Subtype /Widget /Parent 6 0 R /Rect [150 150 400 190] >>",
        "<< /Subtype /Widget /Parent 9 0 R /Rect [10 100 60 120] >>",
        "<< /T (ring) /FT /Tx /Parent 9 0 R /V (v) >>",
        "<< /Subtype /Widget /T (hidden) /FT /Tx /F 2 /Rect [10 10 50 30] >>",
        "<< /Subtype /Widget /T (r) /FT /Btn /Ff 32768 /V /Nope /Rect [60 10 70 20] /AP << /N 5 >> >>",
        "<< /Subtype /Widget /T (flat) /FT /Tx /Rect [80 80 80 120] >>",
        "<< /Subtype /Widget /T (sig) /FT /Sig /V << /Type /Sig >> /Rect [100 10 190 40] >>",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let imported = import(pdf(&objects), &[]).unwrap();
    valid(&imported, "malformed");
    let fields = &imported.document.fields;
    let keys: Vec<&str> = fields.iter().map(|f| f.key.as_str()).collect();
    // The loop's widget has no readable /Rect, the hidden and flat ones are left out.
    assert_eq!(keys, ["ch", "ring", "r", "sig"], "{fields:#?}");
    let ch = field(fields, "ch");
    assert_eq!(
        (ch.field_type, ch.options.as_slice()),
        (FieldType::List, &["a".to_string(), "b".to_string()][..])
    );
    assert_eq!(ch.value, Some(json!("a")));
    // Cut to the page: x from 150 to 200, y from 10 (200 - 190) to 50.
    assert_eq!(ch.frame, Rect::new(150.0, 10.0, 50.0, 40.0));
    assert_eq!(field(fields, "ring").value, Some(json!("v")));
    let r = field(fields, "r");
    assert_eq!(
        (r.field_type, r.options.as_slice(), &r.value),
        (FieldType::Radio, &["option1".to_string()][..], &None)
    );
    assert_eq!(field(fields, "sig").value, None);
}

#[test]
fn widgets_past_the_cap_are_left_out_quickly() {
    // 6,000 widgets: a radio group of 1,000 buttons that all call their on state `Yes`,
    // then a text field with 5,000 boxes.
    let (radios, n) = (1_000, 6_000);
    let refs = |range: std::ops::Range<usize>| -> String {
        range
            .map(|i| format!("{} 0 R", i + 6))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R] >> >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Annots [{}] >>",
            refs(0..n)
        ),
        format!(
            "<< /T (choose) /FT /Btn /Ff 32768 /Kids [{}] >>",
            refs(0..radios)
        ),
        format!("<< /T (many) /FT /Tx /Kids [{}] >>", refs(radios..n)),
    ];
    for i in 0..n {
        let (x, y) = ((i % 50) as f64 * 12.0, (i / 50) as f64 * 6.0);
        let (parent, look) = if i < radios {
            (4, "/AP << /N << /Yes 1 0 R /Off 1 0 R >> >>")
        } else {
            (5, "")
        };
        objects.push(format!(
            "<< /Subtype /Widget /Parent {parent} 0 R {look} /Rect [{x} {y} {} {}] >>",
            x + 10.0,
            y + 5.0
        ));
    }
    let started = Instant::now();
    let imported = import(pdf(&objects), &[]).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    valid(&imported, "many widgets");
    let fields = &imported.document.fields;
    let radio: Vec<&Field> = fields.iter().filter(|f| f.key == "choose").collect();
    assert_eq!(radio.len(), 500);
    assert_eq!(radio[0].options.len(), 500);
    assert_eq!(radio[0].options[..3], ["Yes", "Yes (2)", "Yes (3)"]);
    assert_eq!(fields.iter().filter(|f| f.key == "many").count(), 4_000);
    for expected in ["1000 were left out", "500 radio buttons were left out"] {
        assert!(
            imported.warnings.iter().any(|w| w.contains(expected)),
            "{expected}: {:?}",
            imported.warnings
        );
    }
}

#[test]
fn inherited_options_cannot_multiply_memory() {
    // A parent with 2,000 options of 1,000 bytes (2 MB) and 100 list fields under it: read
    // in full, every field would copy the options, 200 MB from a 2 MB file.
    let n = 100;
    let option = "x".repeat(996);
    let opts: Vec<String> = (0..2000).map(|i| format!("({option}{i:04})")).collect();
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 5)).collect();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Annots [{}] >>",
            kids.join(" ")
        ),
        format!(
            "<< /T (p) /FT /Ch /Opt [{}] /Kids [{}] >>",
            opts.join(" "),
            kids.join(" ")
        ),
    ];
    for i in 0..n {
        let y = i as f64 * 7.0;
        objects.push(format!(
            "<< /Subtype /Widget /T (f{i}) /Parent 4 0 R /Rect [10 {y} 200 {}] >>",
            y + 6.0
        ));
    }
    let started = Instant::now();
    let imported = import(pdf(&objects), &[]).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    valid(&imported, "large options");
    let count = questions(&imported.document.fields);
    assert!(count > 0 && count < n, "{count} fields");
    // The host takes at most 500 options a question.
    assert!(imported
        .document
        .fields
        .iter()
        .all(|f| f.options.len() == 500));
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.contains("larger than the importer reads")),
        "{:?}",
        imported.warnings
    );
}

#[test]
fn boxes_repeating_large_options_are_bounded() {
    // One list field of 500 options of 1,000 bytes with 3,000 widgets: each box repeats
    // the options, 1.5 GB of model from a 1 MB file if nothing stopped it.
    let n = 3_000;
    let option = "y".repeat(996);
    let opts: Vec<String> = (0..500).map(|i| format!("({option}{i:04})")).collect();
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 5)).collect();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Annots [{}] >>",
            kids.join(" ")
        ),
        format!(
            "<< /T (big) /FT /Ch /Opt [{}] /Kids [{}] >>",
            opts.join(" "),
            kids.join(" ")
        ),
    ];
    for i in 0..n {
        let (x, y) = ((i % 50) as f64 * 12.0, (i / 50) as f64 * 12.0);
        objects.push(format!(
            "<< /Subtype /Widget /Parent 4 0 R /Rect [{x} {y} {} {}] >>",
            x + 10.0,
            y + 10.0
        ));
    }
    let started = Instant::now();
    let imported = import(pdf(&objects), &[]).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    valid(&imported, "repeated options");
    let boxes = imported.document.fields.len();
    assert!(boxes > 10 && boxes < 100, "{boxes} boxes");
    assert!(
        imported.warnings.iter().any(|w| w.contains("MiB of text")),
        "{:?}",
        imported.warnings
    );
}
