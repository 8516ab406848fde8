//! The host's font library, for the characters the standard-14 fonts cannot draw.
//!
//! Latin text keeps the standard-14 metrics (so every stored layout stays as it is); any
//! other character (Czech `ř`, Greek, Arabic, CJK, `☑`) is measured and drawn with the face
//! of the operator's library that has it. Font programs stay on the host: a component asks
//! it which face and glyph draw a character (`fonts.map`), for the face's metrics
//! (`fonts.info`) and, when exporting a PDF, for a subset of the glyphs it drew
//! (`fonts.subset`). Natively (tests, tools) a library may be installed with
//! [`install`]; without one such characters measure and draw as `?`, as before.
//!
//! Answers are kept for the length of the call: a component instance lives for one call,
//! and natively the library is fixed for the process.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::face::FontFace;
pub use crate::face::Lang;
use crate::model::FontFamily;

/// The generic family a run asks the library for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    Sans,
    Serif,
    Mono,
}

/// What a run asks the library for: its generic family and style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Style {
    pub class: Class,
    pub bold: bool,
    pub italic: bool,
}

impl Style {
    /// The library style standing in for a standard-14 face: Helvetica is sans, Times is
    /// serif, Courier is mono; Symbol and ZapfDingbats have no style of their own.
    pub fn of(face: FontFace) -> Style {
        let (class, styled) = match face.family {
            FontFamily::Helvetica => (Class::Sans, true),
            FontFamily::Times => (Class::Serif, true),
            FontFamily::Courier => (Class::Mono, true),
            FontFamily::Symbol | FontFamily::ZapfDingbats => (Class::Sans, false),
        };
        Style {
            class,
            bold: styled && face.bold,
            italic: styled && face.italic,
        }
    }
}

/// A glyph of a library face as the library answers it: advance in font units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawGlyph {
    pub face: u32,
    pub gid: u16,
    pub advance: u16,
}

/// A glyph of a library face, with its advance in 1/1000 em as layout measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LibraryGlyph {
    pub face: u32,
    pub gid: u16,
    pub width: f64,
}

/// What a PDF's font descriptor needs of a face (lengths in font units).
#[derive(Debug, Clone, PartialEq)]
pub struct FaceInfo {
    pub family: String,
    pub postscript_name: String,
    pub weight: u16,
    pub italic: bool,
    pub monospace: bool,
    pub units_per_em: u16,
    pub ascent: i16,
    pub descent: i16,
    pub cap_height: i16,
    pub italic_angle: f32,
    pub bbox: [i16; 4],
    /// CFF outlines: a subset is a bare CFF program (PDF FontFile3), else a TrueType file.
    pub cff: bool,
    /// Advance of glyph 0, the .notdef box drawn for a character no face has.
    pub notdef_advance: u16,
}

/// A glyph of shaped text, in font units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapedGlyph {
    pub gid: u16,
    /// Byte offset in the shaped text of the first character the glyph stands for.
    pub cluster: u32,
    pub advance: i32,
    pub x_offset: i32,
    pub y_offset: i32,
}

/// A font library: the host's through the `fonts` import, or one installed natively.
pub trait FontLibrary {
    /// For each character of `text`, the face and glyph that draw it in `style` for text
    /// in language `lang` (BCP 47 or empty).
    fn map(&self, style: Style, lang: &str, text: &str) -> Vec<Option<RawGlyph>>;
    fn info(&self, face: u32) -> Option<FaceInfo>;
    /// `text` shaped with `face`, glyphs left to right.
    fn shape(&self, face: u32, text: &str, rtl: bool, lang: &str) -> Vec<ShapedGlyph>;
    /// A program with .notdef and `glyphs`, `glyphs[i]` becoming glyph i + 1.
    fn subset(&self, face: u32, glyphs: &[u16]) -> Result<Vec<u8>, String>;
    /// The outline of each of `glyphs` as SVG path data in font units, y up; an empty
    /// string for a glyph without one.
    fn outlines(&self, face: u32, glyphs: &[u16]) -> Vec<String>;
    /// The byte offsets of `text` (Thai, Lao, Khmer or Myanmar, written without spaces
    /// between words) where a line may break, found with the library's dictionaries, from 0
    /// to `text.len()`; empty when the library has none (the default) or will not answer.
    fn word_breaks(&self, text: &str) -> Vec<u32> {
        let _ = text;
        Vec::new()
    }
}

#[cfg(not(target_arch = "wasm32"))]
static NATIVE: std::sync::OnceLock<Box<dyn FontLibrary + Send + Sync>> = std::sync::OnceLock::new();

/// Installs the library native code (tests, tools) measures and draws with; the first one
/// installed stays for the process. Components use the host's and need none.
#[cfg(not(target_arch = "wasm32"))]
pub fn install(library: Box<dyn FontLibrary + Send + Sync>) {
    let _ = NATIVE.set(library);
}

fn with_library<T>(f: impl FnOnce(&dyn FontLibrary) -> T) -> Option<T> {
    #[cfg(target_arch = "wasm32")]
    {
        #[cfg(feature = "guest")]
        return Some(f(&host::HostLibrary));
        #[cfg(not(feature = "guest"))]
        return None;
    }
    #[cfg(not(target_arch = "wasm32"))]
    NATIVE.get().map(|lib| f(lib.as_ref()))
}

#[derive(Default)]
struct Cache {
    /// The document's language, which every answer below depends on.
    lang: String,
    glyphs: HashMap<(Style, Lang, char), Option<LibraryGlyph>>,
    faces: HashMap<u32, Option<FaceInfo>>,
    /// Importers and exporters lay the same words out, and a word recurs: shaped once.
    shaped: HashMap<(u32, bool, Lang, String), Rc<Vec<ShapedGlyph>>>,
    /// A glyph recurs on every line: its outline is asked for once.
    outlines: HashMap<(u32, u16), Rc<str>>,
    /// Word boundaries of runs of Thai, Lao, Khmer or Myanmar text.
    words: HashMap<String, Option<Rc<Vec<u32>>>>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// Sets the language of the text laid out from now on (the document's `lang`; empty when
/// unknown), which picks e.g. Japanese or Chinese glyph forms. The glue sets it from the
/// model before an export; an importer sets it once it has read the source's language. A
/// tag of another shape counts as none.
pub fn set_lang(lang: &str) {
    let lang = if crate::validate::is_language_tag(lang) {
        lang
    } else {
        ""
    };
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.lang != lang {
            // Answers for another language may differ: ask again.
            *c = Cache {
                lang: lang.to_string(),
                ..Cache::default()
            };
        }
    });
}

/// The tag the library is asked with for `lang`: the run's, else the document's (empty
/// when unknown).
fn tag_of(lang: Lang) -> Rc<str> {
    lang.own_tag().unwrap_or_else(|| current_lang().into())
}

fn current_lang() -> String {
    CACHE.with(|c| c.borrow().lang.clone())
}

/// Whether the library is asked about `ch` at all: control characters and invisible
/// format characters draw nothing.
fn wanted(ch: char) -> bool {
    !ch.is_control() && !is_invisible(ch)
}

/// Zero-width non-joiner and joiner: they choose between joined and separate forms (Persian
/// half-spaces, Indic half forms), so they belong to the word being shaped.
pub fn is_joiner(ch: char) -> bool {
    matches!(ch, '\u{200C}' | '\u{200D}')
}

/// Format characters that steer shaping or bidi and have no glyph of their own (joiners,
/// marks of direction, isolates, the byte order mark): they measure and draw as nothing.
pub fn is_invisible(ch: char) -> bool {
    matches!(ch as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF)
}

/// The combining diacritics of letters (acute, grave, tilde, hook above, dot below ... as in
/// decomposed Vietnamese, and their extensions): the letter and its marks are one cluster.
/// Marks for symbols (U+20D0..) and half marks are left out: the faces that have them (math,
/// symbols) may lack the letter, which would then become a box.
pub fn is_combining_mark(ch: char) -> bool {
    matches!(ch as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF)
}

/// How many marks after a letter [`face_lead`] looks at: bounds the work of a hostile run of
/// marks.
pub const MARKS_PER_CLUSTER: usize = 8;

/// The character that picks the face drawing the character `at` of `chars`, or none when
/// the run's standard face draws it. A letter the standard face encodes is drawn by it
/// unless combining marks follow that it does not encode: then the letter goes with its
/// marks to the library face of the first such mark, so base and marks are shaped as one
/// cluster (a lone mark would be shaped on a dotted circle). The layout measures and every
/// export draws by this one rule.
pub fn face_lead(face: FontFace, chars: &[char], at: usize) -> Option<char> {
    let ch = *chars.get(at)?;
    if face.encode(ch).is_none() {
        return Some(ch);
    }
    if ch.is_whitespace() {
        return None;
    }
    chars[at + 1..]
        .iter()
        .take_while(|c| is_combining_mark(**c))
        .take(MARKS_PER_CLUSTER)
        .find(|c| face.encode(**c).is_none())
        .copied()
}

/// Looks up, in one call to the library, every character of `text` that `face` cannot
/// encode and that is not known yet, so the layout's character-by-character measuring
/// finds them cached.
pub fn prefetch(face: FontFace, text: &str) {
    let style = Style::of(face);
    let lang = face.lang;
    let missing: String = CACHE.with(|c| {
        let c = c.borrow();
        let mut seen = std::collections::HashSet::new();
        text.chars()
            .filter(|&ch| {
                wanted(ch)
                    && face.encode(ch).is_none()
                    && !c.glyphs.contains_key(&(style, lang, ch))
                    && seen.insert(ch)
            })
            .collect()
    });
    if missing.is_empty() {
        return;
    }
    let tag = tag_of(lang);
    let Some(answers) = with_library(|lib| lib.map(style, &tag, &missing)) else {
        return;
    };
    for (ch, raw) in missing.chars().zip(answers) {
        let glyph = raw.and_then(scaled);
        CACHE.with(|c| c.borrow_mut().glyphs.insert((style, lang, ch), glyph));
    }
}

/// The glyphs of the library's metric-compatible face (Liberation Sans, Serif or Mono for
/// Helvetica, Times and Courier, in the run's weight and slant) that draw `text`, every
/// character of which `face` encodes: what a PDF embeds so that its standard fonts are
/// embedded too. `None` when there is no library, the library lacks that face or one of the
/// characters, and for Symbol and ZapfDingbats, which have no such face: the text is then
/// shown in the standard font, referenced. One call to the library, not cached: an export
/// asks once per font.
pub fn metric_compatible_glyphs(face: FontFace, text: &str) -> Option<Vec<LibraryGlyph>> {
    let family = match face.family {
        FontFamily::Helvetica => "Liberation Sans",
        FontFamily::Times => "Liberation Serif",
        FontFamily::Courier => "Liberation Mono",
        FontFamily::Symbol | FontFamily::ZapfDingbats => return None,
    };
    let answers = with_library(|lib| lib.map(Style::of(face), "", text))?;
    let mut chosen: Option<u32> = None;
    let mut glyphs = Vec::with_capacity(answers.len());
    for raw in answers {
        let raw = raw?;
        match chosen {
            Some(f) if f != raw.face => return None,
            Some(_) => {}
            None => {
                let info = info(raw.face)?;
                let bold = info.weight >= 600;
                if info.family != family || bold != face.bold || info.italic != face.italic {
                    return None;
                }
                chosen = Some(raw.face);
            }
        }
        glyphs.push(scaled(raw)?);
    }
    Some(glyphs)
}

/// The library glyph that draws `ch` for a run in `face` (in the face's language), when
/// the face itself cannot.
pub fn glyph(face: FontFace, ch: char) -> Option<LibraryGlyph> {
    if !wanted(ch) {
        return None;
    }
    let style = Style::of(face);
    let key = (style, face.lang, ch);
    if let Some(known) = CACHE.with(|c| c.borrow().glyphs.get(&key).copied()) {
        return known;
    }
    let mut buf = [0u8; 4];
    let tag = tag_of(face.lang);
    let raw = with_library(|lib| lib.map(style, &tag, ch.encode_utf8(&mut buf)))?;
    let glyph = raw.into_iter().next().flatten().and_then(scaled);
    CACHE.with(|c| c.borrow_mut().glyphs.insert(key, glyph));
    glyph
}

/// The .notdef glyph (glyph 0, a visible box) of the face that draws Latin text for a run
/// in `face`: what a character no installed font has is drawn as, at that box's width.
pub fn notdef(face: FontFace) -> Option<LibraryGlyph> {
    let latin = glyph(face, 'A')?;
    let info = info(latin.face)?;
    Some(LibraryGlyph {
        face: latin.face,
        gid: 0,
        width: f64::from(info.notdef_advance) * 1000.0 / f64::from(info.units_per_em.max(1)),
    })
}

/// The glyph with its advance in 1/1000 em (none for a face the library cannot describe).
fn scaled(raw: RawGlyph) -> Option<LibraryGlyph> {
    let upem = info(raw.face)?.units_per_em;
    if upem == 0 {
        return None;
    }
    Some(LibraryGlyph {
        face: raw.face,
        gid: raw.gid,
        width: f64::from(raw.advance) * 1000.0 / f64::from(upem),
    })
}

/// The metrics of library face `face`.
pub fn info(face: u32) -> Option<FaceInfo> {
    if let Some(known) = CACHE.with(|c| c.borrow().faces.get(&face).cloned()) {
        return known;
    }
    let answer = with_library(|lib| lib.info(face)).flatten();
    CACHE.with(|c| c.borrow_mut().faces.insert(face, answer.clone()));
    answer
}

/// `text` shaped with library face `face` by the rules of `lang` (glyphs left to right; an
/// RTL run reversed), empty without a library or when the face cannot shape.
pub fn shape(face: u32, text: &str, rtl: bool, lang: Lang) -> Rc<Vec<ShapedGlyph>> {
    let key = (face, rtl, lang, text.to_string());
    if let Some(known) = CACHE.with(|c| c.borrow().shaped.get(&key).cloned()) {
        return known;
    }
    let tag = tag_of(lang);
    let glyphs = Rc::new(with_library(|lib| lib.shape(face, text, rtl, &tag)).unwrap_or_default());
    CACHE.with(|c| c.borrow_mut().shaped.insert(key, glyphs.clone()));
    glyphs
}

/// Where lines may break inside `text`, a run of Thai, Lao, Khmer or Myanmar characters
/// (line break class SA), which separate words with no space: the byte offsets, from 0 to
/// `text.len()`, of the word boundaries the library's dictionaries find. `None` without a
/// library or an answer (the call's budget is spent); asked once per distinct run.
pub fn word_breaks(text: &str) -> Option<Rc<Vec<u32>>> {
    if let Some(known) = CACHE.with(|c| c.borrow().words.get(text).cloned()) {
        return known;
    }
    let answer = with_library(|lib| lib.word_breaks(text))
        .filter(|b| is_boundary_list(text, b))
        .map(Rc::new);
    CACHE.with(|c| {
        c.borrow_mut()
            .words
            .insert(text.to_string(), answer.clone())
    });
    answer
}

/// An answer layout can use: rising character boundaries of `text`, from 0 to its end.
fn is_boundary_list(text: &str, breaks: &[u32]) -> bool {
    breaks.first() == Some(&0)
        && breaks.last().map(|&b| b as usize) == Some(text.len())
        && breaks.windows(2).all(|w| w[0] < w[1])
        && breaks.iter().all(|&b| text.is_char_boundary(b as usize))
}

/// Whether `ch` belongs to a script whose glyphs depend on their neighbours (joining,
/// conjuncts, reordered or stacked marks), or is a combining mark or joiner: such text is
/// shaped. Latin, Greek, Cyrillic and CJK are drawn glyph for character, which is what
/// their standard and CJK fonts expect, and keeps them off the slower path.
pub fn needs_shaping(ch: char) -> bool {
    matches!(ch as u32,
        0x0300..=0x036F       // combining diacritical marks
        | 0x0591..=0x05FF     // Hebrew (points and cantillation)
        | 0x0600..=0x08FF     // Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, Arabic Extended
        | 0x0900..=0x0DFF     // Devanagari .. Sinhala
        | 0x0E00..=0x0FFF     // Thai, Lao, Tibetan
        | 0x1000..=0x109F     // Myanmar
        | 0x1780..=0x18AF     // Khmer, Mongolian
        | 0x1A00..=0x1AFF     // Buginese, Tai Tham, combining marks extended
        | 0x1B00..=0x1BFF     // Balinese, Sundanese, Batak
        | 0x1DC0..=0x1DFF     // combining marks supplement
        | 0x200C..=0x200D     // ZWNJ, ZWJ
        | 0x20D0..=0x20FF     // combining marks for symbols
        | 0xA800..=0xA8FF     // Syloti Nagri .. Devanagari Extended
        | 0xA980..=0xA9FF     // Javanese
        | 0xFB1D..=0xFDFF     // Hebrew and Arabic presentation forms
        | 0xFE20..=0xFE2F     // combining half marks
        | 0xFE70..=0xFEFF     // Arabic presentation forms B
        | 0x11000..=0x11FFF   // Brahmi and the other historic Indic scripts
    )
}

/// Whether `ch` is strongly right-to-left (Hebrew, Arabic, Syriac, Thaana, NKo ...) or a
/// bidi control: a paragraph without one is laid out left to right with no bidi pass.
pub fn is_rtl(ch: char) -> bool {
    matches!(ch as u32,
        0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF
        | 0x200F | 0x202B | 0x202E | 0x2067)
}

/// An embeddable subset of `face` holding `glyphs` (glyph i + 1 of the subset is
/// `glyphs[i]`).
pub fn subset(face: u32, glyphs: &[u16]) -> Result<Vec<u8>, String> {
    with_library(|lib| lib.subset(face, glyphs))
        .unwrap_or_else(|| Err("no font library is installed".to_string()))
}

/// The outlines of `glyphs` of library face `face` as SVG path data in font units, y up
/// (empty for a glyph without one, and for all of them without a library), asking the
/// library once for those not known yet.
pub fn outlines(face: u32, glyphs: &[u16]) -> Vec<Rc<str>> {
    let mut wanted: Vec<u16> = CACHE.with(|c| {
        let c = c.borrow();
        glyphs
            .iter()
            .copied()
            .filter(|&g| !c.outlines.contains_key(&(face, g)))
            .collect()
    });
    wanted.sort_unstable();
    wanted.dedup();
    if !wanted.is_empty() {
        let paths = with_library(|lib| lib.outlines(face, &wanted)).unwrap_or_default();
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            for (i, &g) in wanted.iter().enumerate() {
                let path: Rc<str> = paths.get(i).map_or("", String::as_str).into();
                c.outlines.insert((face, g), path);
            }
        });
    }
    CACHE.with(|c| {
        let c = c.borrow();
        glyphs
            .iter()
            .map(|g| {
                c.outlines
                    .get(&(face, *g))
                    .cloned()
                    .unwrap_or_else(|| "".into())
            })
            .collect()
    })
}

#[cfg(all(feature = "guest", target_arch = "wasm32"))]
mod host {
    use super::*;
    use crate::bindings::quire::converter::fonts as wit;

    /// The host's library, through the component's `fonts` import.
    pub struct HostLibrary;

    impl FontLibrary for HostLibrary {
        fn map(&self, style: Style, lang: &str, text: &str) -> Vec<Option<RawGlyph>> {
            let query = wit::Query {
                class: match style.class {
                    Class::Sans => wit::Class::Sans,
                    Class::Serif => wit::Class::Serif,
                    Class::Mono => wit::Class::Mono,
                },
                bold: style.bold,
                italic: style.italic,
                lang: lang.to_string(),
            };
            wit::lookup(&query, text)
                .into_iter()
                .map(|g| {
                    g.map(|g| RawGlyph {
                        face: g.face,
                        gid: g.gid,
                        advance: g.advance,
                    })
                })
                .collect()
        }

        fn info(&self, face: u32) -> Option<FaceInfo> {
            wit::info(face).map(|i| FaceInfo {
                family: i.family,
                postscript_name: i.postscript_name,
                weight: i.weight,
                italic: i.italic,
                monospace: i.monospace,
                units_per_em: i.units_per_em,
                ascent: i.ascent,
                descent: i.descent,
                cap_height: i.cap_height,
                italic_angle: i.italic_angle,
                bbox: [i.bbox.0, i.bbox.1, i.bbox.2, i.bbox.3],
                cff: i.cff,
                notdef_advance: i.notdef_advance,
            })
        }

        fn subset(&self, face: u32, glyphs: &[u16]) -> Result<Vec<u8>, String> {
            wit::subset(face, glyphs)
        }

        fn outlines(&self, face: u32, glyphs: &[u16]) -> Vec<String> {
            wit::outlines(face, glyphs)
        }

        fn word_breaks(&self, text: &str) -> Vec<u32> {
            wit::word_breaks(text)
        }

        fn shape(&self, face: u32, text: &str, rtl: bool, lang: &str) -> Vec<ShapedGlyph> {
            wit::shape(face, text, rtl, lang)
                .into_iter()
                .map(|g| ShapedGlyph {
                    gid: g.gid,
                    cluster: g.cluster,
                    advance: g.advance,
                    x_offset: g.x_offset,
                    y_offset: g.y_offset,
                })
                .collect()
        }
    }
}
