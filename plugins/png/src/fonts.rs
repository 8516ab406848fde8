//! The fonts every PNG is drawn with, embedded because the sandbox has no system fonts.
//!
//! Liberation Sans, Serif and Mono (SIL OFL 1.1, `fonts/LICENSE`) have the advance widths of
//! Helvetica, Times and Courier, so text rasterised here takes exactly the room the SDK
//! layout measured with the standard-14 metrics, and lines break where the PDF breaks them.

use std::sync::Arc;

use resvg::usvg::fontdb::{Database, Source};

macro_rules! font {
    ($file:literal) => {
        include_bytes!(concat!("../fonts/", $file)) as &'static [u8]
    };
}

/// Regular, bold, italic and bold italic of each family.
const FONTS: [&[u8]; 12] = [
    font!("LiberationSans-Regular.ttf"),
    font!("LiberationSans-Bold.ttf"),
    font!("LiberationSans-Italic.ttf"),
    font!("LiberationSans-BoldItalic.ttf"),
    font!("LiberationSerif-Regular.ttf"),
    font!("LiberationSerif-Bold.ttf"),
    font!("LiberationSerif-Italic.ttf"),
    font!("LiberationSerif-BoldItalic.ttf"),
    font!("LiberationMono-Regular.ttf"),
    font!("LiberationMono-Bold.ttf"),
    font!("LiberationMono-Italic.ttf"),
    font!("LiberationMono-BoldItalic.ttf"),
];

pub const SANS: &str = "Liberation Sans";
pub const SERIF: &str = "Liberation Serif";
pub const MONO: &str = "Liberation Mono";

/// A font database holding only the embedded fonts, with every generic family mapped to one
/// of them. usvg falls back to the generic `serif` for a family it cannot find, so with
/// these mappings no text is ever drawn with a font that is not there (which would make it
/// vanish).
pub fn database() -> Database {
    let mut db = Database::new();
    for bytes in FONTS {
        // Borrowed from the binary, not copied: the database only reads the tables.
        db.load_font_source(Source::Binary(Arc::new(bytes)));
    }
    db.set_sans_serif_family(SANS);
    db.set_serif_family(SERIF);
    db.set_monospace_family(MONO);
    db.set_cursive_family(SANS);
    db.set_fantasy_family(SANS);
    db
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::usvg::fontdb::{Family, Query, Style, Weight};

    #[test]
    fn every_family_and_style_resolves_to_its_own_face() {
        let db = database();
        assert_eq!(db.len(), 12);
        let mut seen = std::collections::HashSet::new();
        for family in [SANS, SERIF, MONO] {
            for (weight, style) in [
                (Weight::NORMAL, Style::Normal),
                (Weight::BOLD, Style::Normal),
                (Weight::NORMAL, Style::Italic),
                (Weight::BOLD, Style::Italic),
            ] {
                let id = db
                    .query(&Query {
                        families: &[Family::Name(family)],
                        weight,
                        style,
                        ..Query::default()
                    })
                    .unwrap_or_else(|| panic!("{family} {weight:?} {style:?}"));
                let face = db.face(id).unwrap();
                assert_eq!(face.weight, weight, "{family}");
                assert_eq!(face.style, style, "{family}");
                assert!(seen.insert(id));
            }
        }
        for generic in [Family::Serif, Family::SansSerif, Family::Monospace] {
            assert!(db
                .query(&Query {
                    families: &[generic],
                    ..Query::default()
                })
                .is_some());
        }
    }
}
