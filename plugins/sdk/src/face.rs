//! The face a run is set in: one of the standard 14 fonts plus the run's language.
//!
//! Both the standard-14 metrics ([`metrics`](crate::metrics)) and the host's font library
//! ([`fonts`](crate::fonts)) are asked about a face; the face itself knows neither.

use std::cell::RefCell;
use std::rc::Rc;

use crate::model::{FontFamily, Run};

/// One of the 14 standard fonts: a family plus bold/italic, and the language of the text
/// set in it, which picks the library face for the characters the standard font lacks.
///
/// Symbol and ZapfDingbats have no bold or italic cut; the flags are ignored for them.
/// Two faces that differ only in `lang` are the same standard font ([`standard`](Self::standard)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FontFace {
    pub family: FontFamily,
    pub bold: bool,
    pub italic: bool,
    /// The run's language ([`Run::lang`]); [`Lang::DOCUMENT`] for the document's.
    pub lang: Lang,
}

impl FontFace {
    /// The fourteen distinct fonts, in the order of the PDF specification's list.
    pub const ALL: [FontFace; 14] = [
        FontFace::new(FontFamily::Times, false, false),
        FontFace::new(FontFamily::Times, true, false),
        FontFace::new(FontFamily::Times, false, true),
        FontFace::new(FontFamily::Times, true, true),
        FontFace::new(FontFamily::Helvetica, false, false),
        FontFace::new(FontFamily::Helvetica, true, false),
        FontFace::new(FontFamily::Helvetica, false, true),
        FontFace::new(FontFamily::Helvetica, true, true),
        FontFace::new(FontFamily::Courier, false, false),
        FontFace::new(FontFamily::Courier, true, false),
        FontFace::new(FontFamily::Courier, false, true),
        FontFace::new(FontFamily::Courier, true, true),
        FontFace::new(FontFamily::Symbol, false, false),
        FontFace::new(FontFamily::ZapfDingbats, false, false),
    ];

    pub const fn new(family: FontFamily, bold: bool, italic: bool) -> Self {
        FontFace {
            family,
            bold,
            italic,
            lang: Lang::DOCUMENT,
        }
    }

    /// The face a run is drawn in, in the run's language.
    pub fn of_run(run: &Run) -> Self {
        FontFace {
            lang: Lang::of(run.lang.as_deref()),
            ..FontFace::new(run.font, run.bold, run.italic)
        }
    }

    /// The standard font alone, without the language (what a PDF names once however many
    /// languages are set in it).
    pub const fn standard(self) -> Self {
        FontFace::new(self.family, self.bold, self.italic)
    }

    /// PostScript name as PDF's BaseFont wants it, e.g. `Helvetica-BoldOblique`.
    pub fn base_font_name(self) -> &'static str {
        use FontFamily::*;
        match (self.family, self.bold, self.italic) {
            (Helvetica, false, false) => "Helvetica",
            (Helvetica, true, false) => "Helvetica-Bold",
            (Helvetica, false, true) => "Helvetica-Oblique",
            (Helvetica, true, true) => "Helvetica-BoldOblique",
            (Times, false, false) => "Times-Roman",
            (Times, true, false) => "Times-Bold",
            (Times, false, true) => "Times-Italic",
            (Times, true, true) => "Times-BoldItalic",
            (Courier, false, false) => "Courier",
            (Courier, true, false) => "Courier-Bold",
            (Courier, false, true) => "Courier-Oblique",
            (Courier, true, true) => "Courier-BoldOblique",
            (Symbol, _, _) => "Symbol",
            (ZapfDingbats, _, _) => "ZapfDingbats",
        }
    }

    /// Whether the font is drawn with WinAnsiEncoding (the twelve text fonts) rather than its
    /// built-in encoding (Symbol, ZapfDingbats). PDF writers put `/Encoding /WinAnsiEncoding`
    /// only on the former.
    pub fn uses_winansi(self) -> bool {
        !matches!(self.family, FontFamily::Symbol | FontFamily::ZapfDingbats)
    }
}

/// The language a run's text is set in, for the library: the document's, or a run's own
/// ([`Run::lang`](crate::Run::lang)) kept as a small number so that [`FontFace`] stays a
/// cheap key. Tags are remembered for the process (a component's lives for one call), at
/// most [`Lang::MAX`] of them; a tag past that, or one of another shape, counts as the
/// document's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Lang(u16);

thread_local! {
    static LANGS: RefCell<Vec<Rc<str>>> = const { RefCell::new(Vec::new()) };
}

impl Lang {
    /// The document's language ([`set_lang`](crate::fonts::set_lang)).
    pub const DOCUMENT: Lang = Lang(0);
    /// How many distinct run languages are told apart.
    pub const MAX: usize = 256;

    /// The language of a run with `lang` (none: the document's).
    pub fn of(lang: Option<&str>) -> Lang {
        let Some(tag) = lang.filter(|l| crate::validate::is_language_tag(l)) else {
            return Lang::DOCUMENT;
        };
        LANGS.with(|langs| {
            let mut langs = langs.borrow_mut();
            if let Some(i) = langs.iter().position(|l| &**l == tag) {
                return Lang(i as u16 + 1);
            }
            if langs.len() >= Lang::MAX {
                return Lang::DOCUMENT;
            }
            langs.push(tag.into());
            Lang(langs.len() as u16)
        })
    }

    /// The run's own tag; `None` for the document's language (which only the library
    /// cache knows).
    pub(crate) fn own_tag(self) -> Option<Rc<str>> {
        let i = self.0.checked_sub(1)?;
        LANGS.with(|l| l.borrow().get(usize::from(i)).cloned())
    }
}
