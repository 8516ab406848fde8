//! The font a viewer types new answers in, when the form is not in Western European.
//!
//! A viewer that regenerates a field's appearance after an edit (Acrobat, PDFium, pypdf,
//! pdftk) draws what is typed in the `/DA` font, taken from the AcroForm's `/DR`. Named
//! Helvetica can only encode WinAnsi: a Cyrillic name typed into it comes out as `?` or
//! blank. So when the form's own text (labels, options, answers, the page text around
//! them) holds characters Helvetica lacks, `/DA` names a library face that has them,
//! embedded with more than the glyphs the document drew: every letter of the small
//! alphabetic blocks those characters come from (the whole Cyrillic block for a Russian
//! form), plus ASCII and Latin-1 where the face has them. Large blocks (CJK ideographs,
//! Hangul syllables) keep only the characters the document uses, or the subset would be
//! megabytes: a Japanese form can be answered in kana, and in the kanji it already shows.
//!
//! The glyphs are added to the face's font as the page text uses it, so one embedded
//! subset serves both. Viewers draw typed text glyph by glyph, without shaping: Arabic
//! typed into a viewer stays unjoined, as it does in every viewer's own fonts.

use quire_sdk::fonts::{self, LibraryGlyph};
use quire_sdk::metrics::{winansi, FontFace};
use quire_sdk::{Document, FontFamily, Shape};

use crate::export::library_fonts::LibraryFonts;
use crate::export::resources::Resources;

/// Text of the document read for its scripts: enough for any real form's labels and page.
const MAX_SCANNED_BYTES: usize = 1 << 20;
/// Characters the typing font may hold beyond what the document drew (a dozen small blocks).
const MAX_TYPING_CHARS: usize = 4096;
/// Characters asked which face draws them, to choose the typing font.
const MAX_VOTERS: usize = 512;
/// Blocks small enough to embed whole, for the letters a person may type next.
const WHOLE_BLOCKS: [(u32, u32); 22] = [
    (0x0100, 0x024F), // Latin Extended-A and -B
    (0x0370, 0x03FF), // Greek
    (0x0400, 0x052F), // Cyrillic and its supplement
    (0x0530, 0x058F), // Armenian
    (0x0590, 0x05FF), // Hebrew
    (0x0600, 0x06FF), // Arabic
    (0x0900, 0x097F), // Devanagari
    (0x0980, 0x09FF), // Bengali
    (0x0A00, 0x0A7F), // Gurmukhi
    (0x0A80, 0x0AFF), // Gujarati
    (0x0B80, 0x0BFF), // Tamil
    (0x0C00, 0x0C7F), // Telugu
    (0x0C80, 0x0CFF), // Kannada
    (0x0D00, 0x0D7F), // Malayalam
    (0x0E00, 0x0E7F), // Thai
    (0x10A0, 0x10FF), // Georgian
    (0x1200, 0x137F), // Ethiopic
    (0x1E00, 0x1EFF), // Latin Extended Additional (Vietnamese)
    (0x3000, 0x303F), // CJK symbols and punctuation
    (0x3040, 0x30FF), // Hiragana and Katakana
    (0x3130, 0x318F), // Hangul compatibility jamo
    (0xFF00, 0xFFEF), // Half- and full-width forms
];

const HELVETICA: FontFace = FontFace::new(FontFamily::Helvetica, false, false);

/// The library font viewers should type in: its registry index, or `None` when the form's
/// text is all WinAnsi (named Helvetica serves) or no library face draws it.
pub fn typing_font(doc: &Document, res: &mut Resources) -> Option<usize> {
    let used = foreign_chars(doc);
    let face = most_used_face(&used)?;
    let info = fonts::info(face)?;
    let wanted = typing_chars(&used);
    // Separated by spaces, each character is shaped on its own: the isolated form a viewer
    // draws, not a joined one.
    let mut text = String::with_capacity(wanted.len() * 4);
    let mut starts = Vec::with_capacity(wanted.len());
    for ch in &wanted {
        starts.push(text.len() as u32);
        text.push(*ch);
        text.push(' ');
    }
    let upem = f64::from(info.units_per_em.max(1));
    let mut index = None;
    let shaped = fonts::shape(face, &text, false, fonts::Lang::DOCUMENT);
    for (i, g) in shaped.iter().enumerate() {
        let Ok(at) = starts.binary_search(&g.cluster) else {
            continue; // a space
        };
        let one_glyph = shaped
            .get(i + 1)
            .is_none_or(|next| next.cluster != g.cluster)
            && (i == 0 || shaped[i - 1].cluster != g.cluster);
        if g.gid == 0 || !one_glyph {
            continue;
        }
        let glyph = LibraryGlyph {
            face,
            gid: g.gid,
            width: f64::from(g.advance) * 1000.0 / upem,
        };
        let (font, _) = res.library_glyph(glyph, &wanted[at].to_string());
        index = Some(font);
    }
    index
}

/// The library face that draws most of the letters of `used` (of the first
/// [`MAX_VOTERS`]): the face of the form's script, not of a stray symbol.
fn most_used_face(used: &[char]) -> Option<u32> {
    let mut votes: Vec<(u32, usize)> = Vec::new();
    // Only letters vote: a form whose one foreign character is `☐` is typed in Helvetica.
    for &ch in used.iter().filter(|ch| ch.is_alphabetic()).take(MAX_VOTERS) {
        let Some(glyph) = fonts::glyph(HELVETICA, ch) else {
            continue;
        };
        match votes.iter_mut().find(|(face, _)| *face == glyph.face) {
            Some((_, n)) => *n += 1,
            None => votes.push((glyph.face, 1)),
        }
    }
    // The first face to reach the highest count wins a tie.
    let best = votes.iter().map(|(_, n)| *n).max()?;
    votes
        .iter()
        .find(|(_, n)| *n == best)
        .map(|(face, _)| *face)
}

/// `/DA` font name of library font `index`, as the page resources name it.
pub fn name(index: usize) -> String {
    LibraryFonts::name(index)
}

/// The distinct characters of the form's text Helvetica cannot encode, in order of first
/// appearance: field labels, options and answers first, then the pages' text.
fn foreign_chars(doc: &Document) -> Vec<char> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut budget = MAX_SCANNED_BYTES;
    let mut scan = |text: &str| {
        for ch in text.chars() {
            let Some(left) = budget.checked_sub(ch.len_utf8()) else {
                return;
            };
            budget = left;
            if winansi(ch).is_none()
                && !ch.is_control()
                && !fonts::is_invisible(ch)
                && seen.insert(ch)
            {
                out.push(ch);
            }
        }
    };
    for field in &doc.fields {
        scan(&field.label);
        field.options.iter().for_each(|o| scan(o));
        if let Some(serde_json::Value::String(value)) = &field.value {
            scan(value);
        }
    }
    for shape in doc.pages.iter().flat_map(|p| &p.shapes) {
        if let Shape::Text(text) = shape {
            text.text.runs.iter().for_each(|r| scan(&r.text));
        }
    }
    out
}

/// What the typing font should hold: ASCII and Latin-1, each small block `used` touches
/// whole, and the rest of `used` as it is, at most [`MAX_TYPING_CHARS`].
fn typing_chars(used: &[char]) -> Vec<char> {
    let mut set = std::collections::BTreeSet::new();
    set.extend((' '..='~').chain('\u{A0}'..='\u{FF}'));
    for &ch in used {
        match WHOLE_BLOCKS
            .iter()
            .find(|(lo, hi)| (*lo..=*hi).contains(&(ch as u32)))
        {
            Some(&(lo, hi)) => set.extend((lo..=hi).filter_map(char::from_u32)),
            None => {
                set.insert(ch);
            }
        }
        if set.len() >= MAX_TYPING_CHARS {
            break;
        }
    }
    set.into_iter().take(MAX_TYPING_CHARS).collect()
}
