//! Detection on the corpus's scanned forms, scored against hand-made truth
//! (`tests/truth/*.json`, blanks a person would fill, in page points after import). The
//! table of precision and recall is printed (`cargo test -p quire-detect -- --nocapture`);
//! the floors below sit a little under what was measured, so a regression fails.

#[path = "common/score.rs"]
#[allow(dead_code)]
mod score;

use quire_sdk::{ExportRequest, Rect, Shape};
use score::{Case, CASES};

/// (file, precision floor, recall floor); measured when they were set in the comments.
const FLOORS: &[(&str, f64, f64)] = &[
    ("employment-application", 0.65, 0.75),     // 0.71, 0.79
    ("verification-of-employment", 0.58, 0.80), // 0.64, 0.86
    ("vaccination-card", 0.42, 0.78),           // 0.47, 0.82
    ("cms1500-claim", 0.73, 0.73),              // 0.78, 0.77
    ("patient-intake-photo", 0.76, 0.83),       // 0.82, 0.87
    // The same photo on a /Rotate 90 page, stored sideways: read as displayed, it scores
    // as the upright photo does (0.58, 0.35 when the page was read unrotated).
    ("scanned-form-patient-intake.pdf", 0.76, 0.83), // 0.82, 0.87
];
const OVERALL: (f64, f64) = (0.70, 0.78); // 0.73, 0.81

#[test]
fn scanned_forms_meet_their_precision_and_recall() {
    let scores: Vec<score::Score> = CASES.iter().map(score::score).collect();
    println!("{}", score::table(&scores));
    for s in &scores {
        let &(_, p, r) = FLOORS
            .iter()
            .find(|f| f.0 == s.name)
            .unwrap_or_else(|| panic!("no floor for {}", s.name));
        assert!(
            s.precision() >= p && s.recall() >= r,
            "{}: precision {:.2} (floor {p}), recall {:.2} (floor {r})",
            s.name,
            s.precision(),
            s.recall()
        );
        // Tick boxes are told from text blanks: nearly every match agrees on which it is.
        assert!(
            s.kind_agrees + 2 >= s.matched,
            "{}: {} of {} matches agree on tick box or not",
            s.name,
            s.kind_agrees,
            s.matched
        );
    }
    let sum = |f: fn(&score::Score) -> usize| scores.iter().map(f).sum::<usize>() as f64;
    let (p, r) = (
        sum(|s| s.matched) / sum(|s| s.found),
        sum(|s| s.matched) / sum(|s| s.truth),
    );
    assert!(p >= OVERALL.0 && r >= OVERALL.1, "overall {p:.2} / {r:.2}");
}

fn case(name: &str) -> &'static Case {
    CASES.iter().find(|c| c.name == name).expect("a case")
}

/// The PDF wraps the photo's JPEG in a /Rotate 90 page whose frame (792 x 594) holds the
/// pixels as stored: viewers turn the page, not the picture, and the importer sets the EXIF
/// orientation (6) to 1 so the exporters and detection agree. Detection reads the picture
/// turned by the page's rotation, as displayed, and gives its blanks in the unrotated page,
/// so they lie on the photo's blanks turned back to the stored pixels, not on the upright
/// photo squashed into the frame; and there are as many as on the photo.
#[test]
fn the_scanned_pdf_finds_the_photos_blanks_on_its_stored_pixels() {
    let (photo, photo_assets) = score::import(case("patient-intake-photo"));
    let (pdf, pdf_assets) = score::import(case("scanned-form-patient-intake.pdf"));
    assert_eq!(pdf.pages[0].rotate, 90);
    let frame = |d: &quire_sdk::Document| match &d.pages[0].shapes[0] {
        Shape::Image(i) => i.frame,
        other => panic!("expected the picture, got {other:?}"),
    };
    let (fp, fd) = (frame(&photo), frame(&pdf));
    // The photo stands portrait, the PDF's frame holds the same pixels landscape.
    assert!(fp.h > fp.w && fd.w > fd.h, "{fp:?} {fd:?}");
    let a = quire_detect::detect(&photo, &photo_assets, None)
        .unwrap()
        .fields;
    let b = quire_detect::detect(&pdf, &pdf_assets, None)
        .unwrap()
        .fields;
    assert!(a.len() >= 25, "{}", a.len());
    let onto_frame = |r: Rect, sideways: bool| {
        let (r, (pw, ph)) = if sideways {
            (score::unturn_exif6(r, fp.w), (fp.h, fp.w))
        } else {
            (r, (fp.w, fp.h))
        };
        let (sx, sy) = (fd.w / pw, fd.h / ph);
        Rect::new(fd.x + r.x * sx, fd.y + r.y * sy, r.w * sx, r.h * sy)
    };
    let lying_on = |sideways: bool| {
        b.iter()
            .filter(|f| {
                a.iter()
                    .any(|p| score::matches(&onto_frame(p.frame, sideways), &f.frame))
            })
            .count()
    };
    let (stored, squashed) = (lying_on(true), lying_on(false));
    // Keys follow reading order as displayed: the n-th blank of the PDF is the photo's n-th.
    let in_order = a
        .iter()
        .zip(&b)
        .filter(|(p, f)| score::matches(&onto_frame(p.frame, true), &f.frame))
        .count();
    println!("{in_order} of {} in the photo's order", b.len());
    assert!(in_order * 10 >= b.len() * 9, "{in_order} of {}", b.len());
    println!(
        "PDF: {} blanks, {stored} on the photo's turned back, {squashed} on it squashed",
        b.len()
    );
    assert!(
        b.len() + 3 >= a.len() && b.len() <= a.len() + 3,
        "{} {}",
        b.len(),
        a.len()
    );
    assert!(
        stored * 10 >= b.len() * 9 && stored >= 2 * squashed.max(1),
        "{stored} of {} blanks lie on the photo's blanks turned back, {squashed} on the \
         upright photo squashed",
        b.len()
    );
}

#[test]
fn scanned_answer_has_the_contract_shape() {
    let (document, assets) = score::import(case("patient-intake-photo"));
    let out = quire_detect::export(&ExportRequest {
        document,
        assets,
        media_type: quire_detect::MEDIA_TYPE.into(),
        page: Some(1),
        dpi: None,
        options: Vec::new(),
    })
    .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.bytes).unwrap();
    let fields = json["fields"].as_array().unwrap();
    assert!(fields.len() >= 25);
    for (n, f) in fields.iter().enumerate() {
        let o = f.as_object().unwrap();
        let keys: Vec<&str> = o.keys().map(String::as_str).collect();
        let mut want = ["h", "key", "label", "page", "type", "w", "x", "y"];
        want.sort();
        let mut got = keys.clone();
        got.sort();
        assert_eq!(got, want);
        assert_eq!(o["key"], format!("field_{}", n + 1));
        assert_eq!(o["page"], 1);
        // No OCR: a scan's blanks have no label.
        assert_eq!(o["label"], "");
        assert!(["text", "multiline", "checkbox"].contains(&o["type"].as_str().unwrap()));
        let (x, y) = (o["x"].as_f64().unwrap(), o["y"].as_f64().unwrap());
        let (w, h) = (o["w"].as_f64().unwrap(), o["h"].as_f64().unwrap());
        assert!(x >= 0.0 && y >= 0.0 && w > 0.0 && h > 0.0);
        assert!(x + w <= 3024.01 && y + h <= 4032.01);
    }
    // Reading order: rows go down the page.
    let ys: Vec<f64> = fields.iter().map(|f| f["y"].as_f64().unwrap()).collect();
    assert!(ys.first() < ys.last());
}
