//! Helpers shared by the integration tests.
#![allow(dead_code)]

use quire_sdk::{Asset, Document, ImportRequest, Imported, Shape, TextBox};

pub fn corpus() -> std::path::PathBuf {
    quire_sdk::corpus_dir().join("html")
}

pub fn request(bytes: impl Into<Vec<u8>>) -> ImportRequest {
    ImportRequest::new(bytes, "text/html")
}

pub fn import(html: &str) -> Imported {
    quire_html::convert(request(html)).expect("the HTML converts")
}

pub fn import_with(html: &str, images: Vec<Asset>) -> Imported {
    let mut r = request(html);
    r.images = images;
    quire_html::convert(r).expect("the HTML converts")
}

/// Every text box's text, in page and placement order, one entry per box.
pub fn texts(doc: &Document) -> Vec<String> {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t.text.plain_text()),
            _ => None,
        })
        .collect()
}

/// All words of the model in order.
pub fn words(doc: &Document) -> Vec<String> {
    texts(doc).iter().flat_map(|t| split_words(t)).collect()
}

/// Words as letters and digits only, so punctuation and spacing do not matter.
pub fn split_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `needle`'s words appear one after the other somewhere in `hay`.
pub fn contains_run(hay: &[String], needle: &[String]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

/// Panics unless the words of `paragraph` appear consecutively in the model.
pub fn assert_paragraph(doc: &Document, paragraph: &str) {
    let all = words(doc);
    let want = split_words(paragraph);
    assert!(
        contains_run(&all, &want),
        "the words of {paragraph:?} are not in the model in order"
    );
}

pub fn all_text(doc: &Document) -> String {
    texts(doc).join("\n")
}

/// The document's text boxes, in order.
pub fn boxes(doc: &Document) -> Vec<&TextBox> {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// The text box holding exactly `text` (a table cell, a paragraph).
pub fn text_box<'d>(doc: &'d Document, text: &str) -> &'d TextBox {
    boxes(doc)
        .into_iter()
        .find(|b| b.text.plain_text() == text)
        .unwrap_or_else(|| panic!("no box {text:?} in {:?}", texts(doc)))
}
