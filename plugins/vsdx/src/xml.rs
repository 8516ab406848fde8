//! Visio parts are read into the element tree shared with the draw.io importer.

pub use quire_xml::{Element, XmlError};

/// Elements whose text belongs to the surrounding text: a `<fld>` shows a field's value
/// where it stands in the shape's text.
const INLINE: [&str; 1] = ["fld"];

pub fn parse(text: &str) -> Result<Element, XmlError> {
    quire_xml::parse_with_inline(text, &INLINE)
}
