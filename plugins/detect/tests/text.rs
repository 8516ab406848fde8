//! Blanks on text pages: documents made by the real Markdown importer, and models with drawn
//! lines and boxes. Where the fields land is checked against where the real PDF exporter
//! draws the underscores, as poppler's `pdftotext -bbox` reads them back.

use std::path::Path;
use std::process::Command;

use quire_sdk::*;

fn markdown(text: &str) -> (Document, Vec<Asset>) {
    let imported = quire_markdown::convert(ImportRequest {
        bytes: text.as_bytes().to_vec(),
        media_type: "text/markdown".into(),
        images: Vec::new(),
        options: vec![("paper".into(), "letter".into())],
    })
    .expect("the Markdown imports");
    (imported.document, imported.assets)
}

fn detect(document: &Document) -> Vec<Field> {
    quire_detect::detect(document, &[], None)
        .expect("detection runs")
        .fields
}

fn by_label<'a>(fields: &'a [Field], label: &str) -> &'a Field {
    fields
        .iter()
        .find(|f| f.label == label)
        .unwrap_or_else(|| panic!("no field labelled {label:?} in {fields:#?}"))
}

/// Words and their boxes (points, origin top left) as poppler reads them from a PDF.
fn pdf_words(pdf: &[u8]) -> Vec<(String, [f64; 4])> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-detect");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("blanks.pdf");
    std::fs::write(&path, pdf).expect("the PDF is written");
    let out = Command::new("pdftotext")
        .args(["-bbox", path.to_str().expect("a UTF-8 path"), "-"])
        .output()
        .expect("pdftotext runs (apt-get install -y poppler-utils)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = String::from_utf8_lossy(&out.stdout).to_string();
    let attr = |s: &str, name: &str| -> f64 {
        let (_, value) = s.split_once(&format!("{name}=\"")).expect("an attribute");
        value
            .split('"')
            .next()
            .expect("a value")
            .parse()
            .expect("a number")
    };
    html.lines()
        .filter(|l| l.trim_start().starts_with("<word "))
        .map(|l| {
            let text = l
                .split('>')
                .nth(1)
                .unwrap_or("")
                .split('<')
                .next()
                .unwrap_or("");
            let b = [
                attr(l, "xMin"),
                attr(l, "yMin"),
                attr(l, "xMax"),
                attr(l, "yMax"),
            ];
            (text.to_string(), b)
        })
        .collect()
}

const FORM: &str = "\
# Application

Name: ________________ Date: __________

Email: ______________________

- [ ] I agree to the terms
- [x] Subscribe to the newsletter

| Question | Answer |
|---|---|
| Phone | |
";

#[test]
fn markdown_blanks_are_found_with_their_labels_and_types() {
    let (document, _) = markdown(FORM);
    let fields = detect(&document);
    let name = by_label(&fields, "Name");
    assert_eq!(name.field_type, FieldType::Text);
    let date = by_label(&fields, "Date");
    assert_eq!(date.field_type, FieldType::Date);
    let email = by_label(&fields, "Email");
    assert_eq!(email.field_type, FieldType::Email);
    let agree = by_label(&fields, "I agree to the terms");
    assert_eq!(agree.field_type, FieldType::Checkbox);
    assert!((agree.frame.w - agree.frame.h).abs() < 1.0, "{agree:?}");
    // The ticked item's `[x]` is an answer already, not a box to offer.
    assert!(fields.iter().all(|f| !f.label.contains("Subscribe")));
    // The empty table cell beside "Phone" is a blank; the filled cells are not.
    let phone = by_label(&fields, "Phone");
    assert_eq!(phone.field_type, FieldType::Text);
    assert_eq!(fields.len(), 5, "{fields:#?}");
    // Keys in reading order: Name and Date share a line, Name first.
    let keys: Vec<(&str, &str)> = fields
        .iter()
        .map(|f| (f.key.as_str(), f.label.as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("field_1", "Name"),
            ("field_2", "Date"),
            ("field_3", "Email"),
            ("field_4", "I agree to the terms"),
            ("field_5", "Phone"),
        ]
    );
    assert!(name.frame.bottom() > date.frame.y && date.frame.bottom() > name.frame.y);
    assert!(date.frame.x > name.frame.right());
    // The Phone blank fills the answer column's cell (as wide as its "Answer" header),
    // beside the word.
    let (header, _) = answer_column(&document);
    assert!(
        (phone.frame.x - header).abs() < 8.0,
        "{phone:?} vs column at {header}"
    );
    assert!(phone.frame.w > 30.0 && phone.frame.h >= 9.0, "{phone:?}");
}

/// Where the table's "Answer" header cell starts, and its width, from the model's nodes.
fn answer_column(document: &Document) -> (f64, f64) {
    let words: Vec<&TextBox> = document.pages[0]
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) if t.text.plain_text() == "Answer" => Some(t),
            _ => None,
        })
        .collect();
    let answer = words.first().expect("the Answer header");
    let cell = document.pages[0]
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Node(n) if n.frame.contains(&answer.frame) => Some(n.frame),
            _ => None,
        })
        .next()
        .expect("the header's cell");
    (cell.x, cell.w)
}

#[test]
fn underscore_fields_lie_where_the_pdf_draws_the_underscores() {
    let (document, assets) = markdown(FORM);
    let fields = detect(&document);
    let pdf = quire_pdf::export_pdf(&ExportRequest {
        document,
        assets,
        media_type: "application/pdf".into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    })
    .expect("the PDF exports");
    let words = pdf_words(&pdf.bytes);
    let underscores: Vec<&[f64; 4]> = words
        .iter()
        .filter(|(t, _)| t.len() >= 3 && t.chars().all(|c| c == '_'))
        .map(|(_, b)| b)
        .collect();
    assert_eq!(underscores.len(), 3, "{words:?}");
    for (label, b) in ["Name", "Date", "Email"].iter().zip(underscores) {
        let f = by_label(&fields, label);
        let r = f.frame;
        assert!(
            (r.x - b[0]).abs() < 0.5 && (r.right() - b[2]).abs() < 0.5,
            "{label}: field {r:?}, poppler {b:?}"
        );
        // The field covers the line of text the underscores are on.
        let middle = (b[1] + b[3]) / 2.0;
        assert!(
            r.y < middle && r.bottom() > middle,
            "{label}: {r:?} vs {b:?}"
        );
        assert!(
            r.y <= b[1] + 1.0 && r.bottom() >= b[3] - 1.5,
            "{label}: {r:?} vs {b:?}"
        );
        assert!(r.h < 20.0, "{label}: {r:?}");
    }
}

fn text_box(id: &str, text: &str, x: f64, y: f64, w: f64) -> Shape {
    Shape::Text(TextBox {
        id: id.into(),
        frame: Rect::new(x, y, w, 14.0),
        text: Text::plain(text, 11.0),
        fill: None,
        stroke: None,
    })
}

fn line(id: &str, x0: f64, x1: f64, y: f64) -> Shape {
    Shape::Path(PathShape {
        shadow: false,
        id: id.into(),
        segments: vec![Segment::MoveTo { x: x0, y }, Segment::LineTo { x: x1, y }],
        fill: None,
        stroke: Some(Stroke::solid(Color::BLACK, 0.75)),
        even_odd: false,
    })
}

fn empty_box(id: &str, frame: Rect) -> Shape {
    Shape::Node(Node {
        shadow: false,
        id: id.into(),
        frame,
        geometry: Geometry::Rect,
        fill: None,
        stroke: Some(Stroke::solid(Color::BLACK, 0.75)),
        text: None,
        classes: Vec::new(),
    })
}

/// A hand-drawn form: a signature line, a line with words already on it, tick boxes,
/// a comment box and a one-line box.
fn drawn_form() -> Document {
    let mut page = Page::new(612.0, 792.0);
    page.shapes = vec![
        text_box("t1", "Signature:", 72.0, 100.0, 60.0),
        line("l1", 140.0, 340.0, 112.0),
        // Words written on a line: it is taken (or it underlines them).
        text_box("t2", "Already filled in", 140.0, 130.0, 200.0),
        line("l2", 140.0, 340.0, 142.0),
        empty_box("b1", Rect::new(72.0, 170.0, 11.0, 11.0)),
        text_box("t3", "Yes", 88.0, 168.5, 40.0),
        empty_box("b2", Rect::new(140.0, 170.0, 11.0, 11.0)),
        text_box("t4", "No", 156.0, 168.5, 40.0),
        text_box("t5", "Comments", 72.0, 200.0, 100.0),
        empty_box("b3", Rect::new(72.0, 216.0, 300.0, 80.0)),
        text_box("t6", "City", 72.0, 312.0, 40.0),
        empty_box("b4", Rect::new(120.0, 310.0, 160.0, 20.0)),
        // A page-sized frame is a border, not a blank.
        empty_box("frame", Rect::new(20.0, 20.0, 572.0, 752.0)),
    ];
    let mut d = Document::new(Kind::Paged);
    d.pages.push(page);
    d
}

#[test]
fn drawn_lines_and_boxes_become_fields() {
    let fields = detect(&drawn_form());
    let sig = by_label(&fields, "Signature");
    assert_eq!(sig.field_type, FieldType::Signature);
    // Just above the line, as wide as it, about a line of handwriting tall.
    assert!((sig.frame.x - 141.0).abs() < 1.0 && (sig.frame.right() - 339.0).abs() < 1.0);
    assert!(
        sig.frame.bottom() <= 112.0 && sig.frame.bottom() > 110.0,
        "{sig:?}"
    );
    assert!((16.0..=20.0).contains(&sig.frame.h), "{sig:?}");
    assert!(fields
        .iter()
        .all(|f| f.frame.y < 125.0 || f.frame.y > 145.0));
    let yes = by_label(&fields, "Yes");
    let no = by_label(&fields, "No");
    for b in [yes, no] {
        assert_eq!(b.field_type, FieldType::Checkbox);
        assert_eq!((b.frame.w, b.frame.h), (11.0, 11.0));
    }
    let comments = by_label(&fields, "Comments");
    assert_eq!(comments.field_type, FieldType::Multiline);
    assert!(comments.frame.w > 290.0 && comments.frame.h > 70.0);
    let city = by_label(&fields, "City");
    assert_eq!(city.field_type, FieldType::Text);
    assert!(city.frame.x > 119.0 && city.frame.right() < 281.0);
    assert_eq!(fields.len(), 5, "{fields:#?}");
}

#[test]
fn existing_fields_are_not_suggested_again_and_pages_are_chosen() {
    let mut d = drawn_form();
    d.fields.push(Field {
        key: "sig".into(),
        field_type: FieldType::Signature,
        label: "Signature".into(),
        required: true,
        page: 1,
        frame: Rect::new(140.0, 94.0, 200.0, 17.0),
        options: Vec::new(),
        value: None,
        look: None,
    });
    let fields = detect(&d);
    assert_eq!(fields.len(), 4);
    assert!(fields.iter().all(|f| f.label != "Signature"));
    assert_eq!(fields[0].key, "field_1");

    let mut two = drawn_form();
    two.pages.insert(0, Page::new(612.0, 792.0));
    let only_second = quire_detect::detect(&two, &[], Some(2)).unwrap().fields;
    assert_eq!(only_second.len(), 5);
    assert!(only_second.iter().all(|f| f.page == 2));
    assert_eq!(only_second[0].key, "field_1");
    assert!(quire_detect::detect(&two, &[], Some(3)).is_err());
}

#[test]
fn hostile_models_do_not_panic() {
    let mut page = Page::new(612.0, 792.0);
    let nan = f64::NAN;
    page.shapes = vec![
        line("l", nan, 300.0, 100.0),
        line("l2", 0.0, f64::INFINITY, 100.0),
        empty_box("b", Rect::new(nan, 10.0, 10.0, 10.0)),
        empty_box("b2", Rect::new(10.0, 10.0, -5.0, 1e300)),
        Shape::Text(TextBox {
            id: "t".into(),
            frame: Rect::new(0.0, 0.0, nan, nan),
            text: Text::plain("___ [ ] ☐", f64::INFINITY),
            fill: None,
            stroke: None,
        }),
        Shape::Path(PathShape {
            shadow: false,
            id: "p".into(),
            segments: vec![Segment::Close, Segment::LineTo { x: 1.0, y: 1.0 }],
            fill: Some(Color::BLACK),
            stroke: None,
            even_odd: false,
        }),
    ];
    let mut d = Document::new(Kind::Paged);
    d.pages.push(page);
    let fields = detect(&d);
    for f in fields {
        let r = f.frame;
        assert!([r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite()), "{f:?}");
    }
    // A picture asset that is not a picture is a warning, not a failure.
    let mut d = Document::new(Kind::Paged);
    let mut p = Page::new(100.0, 100.0);
    p.shapes.push(Shape::Image(Image {
        id: "i".into(),
        frame: Rect::new(0.0, 0.0, 100.0, 100.0),
        asset: "a.png".into(),
        alt: None,
        link: None,
    }));
    d.pages.push(p);
    let junk = Asset {
        name: "a.png".into(),
        media_type: "image/png".into(),
        bytes: b"\x89PNG\r\n\x1a\nnot really".to_vec(),
    };
    let found = quire_detect::detect(&d, &[junk], None).unwrap();
    assert!(found.fields.is_empty());
    assert_eq!(found.warnings.len(), 1, "{:?}", found.warnings);
}

/// A PNG that is only its header: `width x height` grey pixels declared, an empty image
/// data chunk.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(13u32.to_be_bytes());
    png.extend(&ihdr);
    png.extend(crc32(&ihdr).to_be_bytes());
    for chunk in [&b"IDAT"[..], b"IEND"] {
        png.extend(0u32.to_be_bytes());
        png.extend(chunk);
        png.extend(crc32(chunk).to_be_bytes());
    }
    png
}

#[test]
fn huge_pictures_are_skipped_before_they_are_decoded() {
    let mut d = Document::new(Kind::Paged);
    for n in 0..2 {
        let mut p = Page::new(612.0, 792.0);
        p.shapes.push(Shape::Image(Image {
            id: format!("i{n}"),
            frame: Rect::new(0.0, 0.0, 612.0, 792.0),
            asset: format!("p{n}.png"),
            alt: None,
            link: None,
        }));
        d.pages.push(p);
    }
    let asset = |n: u32, bytes: Vec<u8>| Asset {
        name: format!("p{n}.png"),
        media_type: "image/png".into(),
        bytes,
    };
    // Past what one request may decode (a long scan is asked for page by page), and past
    // the largest side decoded at all.
    let assets = [
        asset(0, png_header(12_000, 9_000)),
        asset(1, png_header(30_000, 10)),
    ];
    let found = quire_detect::detect(&d, &assets, None).unwrap();
    assert!(found.fields.is_empty());
    assert_eq!(found.warnings.len(), 2, "{:?}", found.warnings);
    assert!(found.warnings[0].contains("page 1") && found.warnings[0].contains("12000 x 9000"));
    assert!(found.warnings[1].contains("page 2") && found.warnings[1].contains("20000"));
}

#[test]
fn a_page_of_thousands_of_blanks_stays_bounded() {
    let mut page = Page::new(612.0, 14_000.0);
    let mut shapes = vec![Shape::Text(TextBox {
        id: "t".into(),
        frame: Rect::new(20.0, 20.0, 570.0, 13_900.0),
        text: Text::plain("Name ___ ".repeat(40_000), 6.0),
        fill: None,
        stroke: None,
    })];
    for i in 0..5_000 {
        let y = 20.0 + i as f64 * 2.7;
        shapes.push(line(&format!("l{i}"), 40.0, 580.0, y));
    }
    page.shapes = shapes;
    let mut d = Document::new(Kind::Paged);
    d.pages.push(page);
    let start = std::time::Instant::now();
    let found = quire_detect::detect(&d, &[], None).unwrap();
    assert_eq!(found.fields.len(), quire_detect::MAX_FIELDS);
    assert!(found.warnings.iter().any(|w| w.contains("possible blanks")));
    assert!(found.warnings.iter().any(|w| w.contains("first 500")));
    // Generous for an unoptimised test build.
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}
