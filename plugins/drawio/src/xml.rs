//! draw.io XML is read into the element tree shared with the Visio importer.

pub use quire_xml::{parse, Element, XmlError};
