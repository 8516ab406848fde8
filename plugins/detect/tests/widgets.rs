//! Text pages with real form layouts: two corpus PDFs whose form fields sit on drawn boxes.
//! With the PDF's own fields taken out of the imported model, detection must find the boxes
//! those fields occupy (the fields are the truth, made by the forms' authors), label them
//! with the words beside them, and suggest nothing once the fields are back.

use quire_sdk::{Document, Field, FieldType, ImportRequest};

fn import(name: &str) -> Document {
    let path = quire_sdk::corpus_dir().join("pdf").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    quire_pdf::import_pdf(ImportRequest {
        bytes,
        media_type: "application/pdf".into(),
        images: Vec::new(),
        options: Vec::new(),
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"))
    .document
}

fn holds(a: &Field, b: &Field) -> bool {
    let c = b.frame.center();
    a.page == b.page
        && c.x >= a.frame.x
        && c.x <= a.frame.right()
        && c.y >= a.frame.y
        && c.y <= a.frame.bottom()
}

/// (widgets found, detections on a widget, detections).
fn against_widgets(name: &str) -> (usize, usize, usize, Vec<Field>) {
    let mut document = import(name);
    let widgets = std::mem::take(&mut document.fields);
    assert!(widgets.len() >= 15, "{name}: {} widgets", widgets.len());
    let found = quire_detect::detect(&document, &[], None).unwrap().fields;
    let hit = |a: &Field, b: &Field| holds(a, b) || holds(b, a);
    let recalled = widgets
        .iter()
        .filter(|w| found.iter().any(|f| hit(w, f)))
        .count();
    let precise = found
        .iter()
        .filter(|f| widgets.iter().any(|w| hit(w, f)))
        .count();
    println!(
        "{name}: {recalled} of {} widgets found, {precise} of {} detections on one",
        widgets.len(),
        found.len()
    );
    // With the fields in place there is nothing left to suggest.
    document.fields = widgets.clone();
    let again = quire_detect::detect(&document, &[], None).unwrap().fields;
    assert!(again.len() <= 1, "{name}: {again:#?}");
    (recalled, precise, widgets.len(), found)
}

#[test]
fn the_acroform_boxes_are_found_and_labelled() {
    let (recalled, precise, total, found) = against_widgets("pdfjs-bug1883609-acroform-mixed.pdf");
    assert!(recalled + 1 >= total, "{recalled} of {total}");
    assert_eq!(precise, found.len());
    for (label, kind) in [
        ("Given Name", FieldType::Text),
        ("Family Name", FieldType::Text),
        ("Postcode", FieldType::Text),
        ("City", FieldType::Text),
        ("Driving License", FieldType::Checkbox),
        ("Deutsch", FieldType::Checkbox),
        ("Latin", FieldType::Checkbox),
    ] {
        let f = found
            .iter()
            .find(|f| f.label == label)
            .unwrap_or_else(|| panic!("no {label:?} in {found:#?}"));
        assert_eq!(f.field_type, kind, "{label}");
    }
}

#[test]
fn the_sf424_boxes_are_found() {
    let (recalled, precise, total, found) = against_widgets("pypdf-sf424-page2-orphan-widgets.pdf");
    assert!(recalled + 2 >= total, "{recalled} of {total}");
    assert_eq!(precise, found.len());
    // The tall boxes are multi-line; the digit boxes of the CFDA number are small squares.
    assert!(
        found
            .iter()
            .filter(|f| f.field_type == FieldType::Multiline)
            .count()
            >= 3
    );
    assert!(
        found
            .iter()
            .filter(|f| f.field_type == FieldType::Checkbox)
            .count()
            >= 5
    );
}
