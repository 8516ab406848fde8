//! The library as the SDK's `FontLibrary`, for converters run natively (tests, tools): the
//! same answers the host's `fonts` import gives a component.

use quire_sdk::fonts::{FaceInfo, FontLibrary, RawGlyph, ShapedGlyph, Style};

use crate::{Library, Query};

/// Opens the default font directories and installs them as the SDK's library, as the host
/// does for a component: for converters run natively (tests, tools). Panics with the
/// install step when the default fonts are missing.
pub fn install_default_library() {
    let library = Library::open(&Library::default_roots());
    assert!(
        library.len() > 100,
        "the default fonts are missing: `make fonts` installs them ({:?})",
        library.skipped()
    );
    quire_sdk::fonts::install(Box::new(library));
}

impl FontLibrary for Library {
    fn map(&self, style: Style, lang: &str, text: &str) -> Vec<Option<RawGlyph>> {
        let q = Query {
            class: style.class,
            bold: style.bold,
            italic: style.italic,
            lang,
        };
        text.chars()
            .map(|c| {
                Library::map(self, &q, c).map(|g| RawGlyph {
                    face: g.face,
                    gid: g.gid,
                    advance: g.advance,
                })
            })
            .collect()
    }

    fn info(&self, face: u32) -> Option<FaceInfo> {
        Library::info(self, face).cloned()
    }

    fn shape(&self, face: u32, text: &str, rtl: bool, lang: &str) -> Vec<ShapedGlyph> {
        Library::shape(self, face, text, rtl, lang)
    }

    fn subset(&self, face: u32, glyphs: &[u16]) -> Result<Vec<u8>, String> {
        Library::subset(self, face, glyphs)
    }

    fn outlines(&self, face: u32, glyphs: &[u16]) -> Vec<String> {
        Library::outlines(self, face, glyphs)
    }

    fn word_breaks(&self, text: &str) -> Vec<u32> {
        crate::word_breaks(text)
    }
}
