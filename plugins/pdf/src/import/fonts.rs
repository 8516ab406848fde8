//! Which of the standard 14 faces stands in for a font of the source PDF.
//!
//! The model draws text only with the standard fonts, so every source font is mapped to the
//! nearest family (Helvetica, Times, Courier, Symbol, ZapfDingbats) plus bold and italic.
//! The name decides where it can (`ABCDEF+Arial-BoldMT` is Helvetica bold); the font
//! descriptor's flags and weight help when the name says nothing.
//!
//! hayro tells a glyph's font name only for TrueType and CID fonts. For Type 1 fonts (every
//! LaTeX document, every non-embedded standard font) the glyph run is matched against the
//! fonts of the page's resources by advance widths: a run whose glyph widths agree with one
//! font's `/Widths` was shown with that font. When nothing matches, the widths are compared
//! with the standard fonts' own metrics and the closest face wins.

use hayro_interpret::hayro_syntax::object::{Array, Dict, Name, Stream};
use hayro_interpret::hayro_syntax::page::Resources;
use quire_sdk::metrics::FontFace;
use quire_sdk::FontFamily;

/// Font descriptor flags (PDF 32000-1, table 121).
const FLAG_FIXED_PITCH: u32 = 1 << 0;
const FLAG_SERIF: u32 = 1 << 1;
const FLAG_ITALIC: u32 = 1 << 6;
const FLAG_FORCE_BOLD: u32 = 1 << 18;

/// Fonts looked at per page: resources of nested forms can repeat without end.
const MAX_FONTS: usize = 256;
const MAX_FORM_DEPTH: usize = 4;
/// Glyph widths compared per run; more adds nothing but time.
const MAX_SAMPLES: usize = 48;
/// Widths in 1/1000 em that count as equal (PDF writers round).
const WIDTH_TOLERANCE: f32 = 0.6;

/// What a font's name and descriptor say about it, all optional.
#[derive(Debug, Clone, Default)]
pub struct FontTraits<'n> {
    pub name: Option<&'n str>,
    pub flags: Option<u32>,
    pub weight: Option<u32>,
    pub italic_angle: Option<f32>,
    pub serif: Option<bool>,
    pub monospace: Option<bool>,
}

/// The nearest standard face for a font, from its name first and its descriptor second.
pub fn face_for(traits: &FontTraits<'_>) -> FontFace {
    let raw = traits.name.unwrap_or("");
    // Subset fonts are named `ABCDEF+RealName`.
    let name = match raw.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => rest,
        _ => raw,
    };
    let lower = name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let flags = traits.flags.unwrap_or(0);

    let family = if has(&["symbol"]) && !has(&["sans", "serif"]) {
        FontFamily::Symbol
    } else if has(&["dingbat"]) {
        FontFamily::ZapfDingbats
    } else if has(MONO) {
        FontFamily::Courier
    } else if has(SANS) {
        FontFamily::Helvetica
    } else if has(SERIF) {
        FontFamily::Times
    } else if flags & FLAG_FIXED_PITCH != 0 || traits.monospace == Some(true) {
        FontFamily::Courier
    } else if flags & FLAG_SERIF != 0 || traits.serif == Some(true) {
        FontFamily::Times
    } else {
        FontFamily::Helvetica
    };
    let bold = has(BOLD)
        || urw_style(&lower).is_some_and(|(weight, _)| weight == "medi")
        || traits.weight.is_some_and(|w| w >= 600)
        || flags & FLAG_FORCE_BOLD != 0;
    let italic = has(ITALIC)
        || lower.ends_with("-it")
        || urw_style(&lower).is_some_and(|(_, slanted)| slanted)
        || lower.ends_with(",italic")
        || flags & FLAG_ITALIC != 0
        || traits.italic_angle.is_some_and(|a| a.abs() > 1.0);
    FontFace::new(family, bold, italic)
}

const MONO: &[&str] = &[
    "courier",
    "nimbusmon",
    "mono",
    "consol",
    "cmtt",
    "typewriter",
    "menlo",
    "inconsolata",
    "lucidaconsole",
    "andalemono",
    "fixed",
];
const SANS: &[&str] = &[
    "sans",
    "arial",
    "helvetica",
    "calibri",
    "verdana",
    "tahoma",
    "segoe",
    "frutiger",
    "univers",
    "futura",
    "gill",
    "myriad",
    "lucida",
    "trebuchet",
    "cmss",
    "franklin",
    "avenir",
    "roboto",
    "nimbussan",
    "arimo",
    "candara",
    "corbel",
    "geneva",
    "optima",
    "source",
    "noto",
    "ubuntu",
    "lato",
    "inter",
    "fira",
];
const SERIF: &[&str] = &[
    "times",
    "serif",
    "roman",
    "georgia",
    "garamond",
    "cambria",
    "book",
    "minion",
    "palatino",
    "century",
    "baskerville",
    "bodoni",
    "caslon",
    "charter",
    "utopia",
    "cmr",
    "cmbx",
    "cmti",
    "cmsl",
    "cmmi",
    "lmroman",
    "nimbusrom",
    "palladio",
    "tinos",
    "sabon",
    "janson",
    "goudy",
    "plantin",
    "bembo",
    "constantia",
    "mincho",
    "song",
    "stix",
    "tex",
    "cmb",
];
const BOLD: &[&str] = &[
    "bold", "black", "heavy", "semibold", "demi", "cmbx", "cmb10", "-bd", "_bd", "medium",
];
const ITALIC: &[&str] = &[
    "italic", "oblique", "inclined", "slanted", "cmti", "cmsl", "cmmi", "kursiv",
];

/// The weight and slant of URW's cuts of the standard fonts (TeX Live's Times, Helvetica,
/// Courier): the part after the last `-` is a weight (`Regu`, `Medi`, `Bold`, `Ligh`,
/// `Demi`, `Book`, or none) with `Ital` or `Obli` after it for a slanted cut
/// (`NimbusRomNo9L-MediItal`, `NimbusMonL-ReguObli`, `URWPalladioL-Ital`). `None` for other
/// names (`DS-Digital`, `Foo-Media`).
fn urw_style(lower: &str) -> Option<(&str, bool)> {
    let (_, style) = lower.rsplit_once('-')?;
    ["regu", "medi", "bold", "ligh", "demi", "book", ""]
        .into_iter()
        .find_map(|weight| match style.strip_prefix(weight)? {
            "" if !weight.is_empty() => Some((weight, false)),
            "ital" | "obli" => Some((weight, true)),
            _ => None,
        })
}

/// One font of a page's resources, with what its glyph widths look like.
#[derive(Debug, Clone)]
struct Candidate {
    face: FontFace,
    first_char: u32,
    widths: Vec<f32>,
    /// A standard font without `/Widths`: its widths are the face's own metrics.
    standard_metrics: bool,
}

impl Candidate {
    fn width(&self, code: u32, ch: Option<char>) -> Option<f32> {
        if self.standard_metrics {
            return ch.map(|c| self.face.char_width(c) as f32);
        }
        let i = code.checked_sub(self.first_char)? as usize;
        self.widths.get(i).copied()
    }
}

/// A glyph of a run as the matcher sees it: its character code, advance in 1/1000 em, and
/// the character it stands for.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub code: u32,
    pub advance: f32,
    pub ch: Option<char>,
}

/// The fonts of one page (its resources and those of the forms it draws), to tell which one
/// showed a glyph run.
#[derive(Debug, Default)]
pub struct FontIndex {
    candidates: Vec<Candidate>,
    last: Option<usize>,
}

impl FontIndex {
    pub fn for_resources(resources: &Resources<'_>) -> Self {
        let mut index = FontIndex::default();
        index.collect(resources.fonts.clone(), &resources.x_objects, 0);
        index
    }

    fn collect(&mut self, fonts: Dict<'_>, x_objects: &Dict<'_>, depth: usize) {
        for key in fonts.keys() {
            if self.candidates.len() >= MAX_FONTS {
                return;
            }
            if let Some(font) = fonts.get::<Dict<'_>>(key.as_ref()) {
                if let Some(c) = candidate(&font) {
                    self.candidates.push(c);
                }
            }
        }
        if depth >= MAX_FORM_DEPTH {
            return;
        }
        for key in x_objects.keys() {
            if self.candidates.len() >= MAX_FONTS {
                return;
            }
            let Some(stream) = x_objects.get::<Stream<'_>>(key.as_ref()) else {
                continue;
            };
            let Some(res) = stream.dict().get::<Dict<'_>>(b"Resources".as_slice()) else {
                continue;
            };
            let fonts = res.get::<Dict<'_>>(b"Font".as_slice()).unwrap_or_default();
            let forms = res
                .get::<Dict<'_>>(b"XObject".as_slice())
                .unwrap_or_default();
            self.collect(fonts, &forms, depth + 1);
        }
    }

    /// The face of the font whose widths agree with every sampled glyph, preferring the font
    /// matched last (a page usually shows many runs in one font). The second value says
    /// whether fonts that differ only in slant fit as well (Helvetica and Helvetica-Oblique
    /// share their widths), so that the glyphs' shapes must decide.
    pub fn match_widths(&mut self, samples: &[Sample]) -> Option<(FontFace, bool)> {
        let samples = &samples[..samples.len().min(MAX_SAMPLES)];
        if samples.is_empty() {
            return None;
        }
        let fits = |c: &Candidate| {
            samples.iter().all(|s| {
                c.width(s.code, s.ch)
                    .is_some_and(|w| (w - s.advance).abs() <= WIDTH_TOLERANCE)
            })
        };
        let chosen = match self.last.filter(|&i| fits(&self.candidates[i])) {
            Some(i) => i,
            None => self.candidates.iter().position(fits)?,
        };
        self.last = Some(chosen);
        let face = self.candidates[chosen].face;
        let slant_unsure = self.candidates.iter().any(|c| {
            c.face.family == face.family
                && c.face.bold == face.bold
                && c.face.italic != face.italic
                && fits(c)
        });
        Some((face, slant_unsure))
    }
}

fn candidate(font: &Dict<'_>) -> Option<Candidate> {
    let subtype = font.get::<Name<'_>>(b"Subtype".as_slice())?;
    if !matches!(subtype.as_ref(), b"Type1" | b"MMType1" | b"TrueType") {
        return None;
    }
    let base = font.get::<Name<'_>>(b"BaseFont".as_slice());
    let descriptor = font.get::<Dict<'_>>(b"FontDescriptor".as_slice());
    let traits = FontTraits {
        name: base.as_ref().map(|n| n.as_str()),
        flags: descriptor
            .as_ref()
            .and_then(|d| d.get::<u32>(b"Flags".as_slice())),
        weight: descriptor
            .as_ref()
            .and_then(|d| d.get::<f32>(b"FontWeight".as_slice()))
            .map(|w| w as u32),
        italic_angle: descriptor
            .as_ref()
            .and_then(|d| d.get::<f32>(b"ItalicAngle".as_slice())),
        ..FontTraits::default()
    };
    let face = face_for(&traits);
    match font.get::<Array<'_>>(b"Widths".as_slice()) {
        Some(widths) => Some(Candidate {
            face,
            first_char: font.get::<u32>(b"FirstChar".as_slice()).unwrap_or(0),
            widths: widths.iter::<f32>().take(256).collect(),
            standard_metrics: false,
        }),
        // Only the standard 14 may omit their widths.
        None => Some(Candidate {
            face,
            first_char: 0,
            widths: Vec::new(),
            standard_metrics: true,
        }),
    }
}

/// The standard text face whose widths come closest to the run's, for fonts nothing else
/// identifies. Needs a few distinct characters to say anything.
pub fn closest_by_metrics(samples: &[Sample]) -> Option<FontFace> {
    let usable: Vec<(char, f32)> = samples
        .iter()
        .filter_map(|s| s.ch.map(|c| (c, s.advance)))
        .filter(|(c, a)| c.is_ascii_graphic() && *a > 0.0)
        .take(MAX_SAMPLES)
        .collect();
    if usable.len() < 3 {
        return None;
    }
    FontFace::ALL[..12]
        .iter()
        .map(|face| {
            let err: f32 = usable
                .iter()
                .map(|(c, a)| (face.char_width(*c) as f32 - a).abs())
                .sum();
            (err / usable.len() as f32, *face)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, face)| face)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> FontFace {
        face_for(&FontTraits {
            name: Some(name),
            ..FontTraits::default()
        })
    }

    #[test]
    fn names_map_to_the_nearest_family_and_style() {
        use FontFamily::*;
        let cases = [
            ("ABCDEF+ArialMT", Helvetica, false, false),
            ("Arial-BoldItalicMT", Helvetica, true, true),
            ("TimesNewRomanPS-BoldMT", Times, true, false),
            ("Times-Italic", Times, false, true),
            ("CourierNewPSMT", Courier, false, false),
            ("XYZABC+CMBX12", Times, true, false),
            ("CMTT10", Courier, false, false),
            ("CMSS10", Helvetica, false, false),
            ("MinionPro-It", Times, false, true),
            ("DejaVuSans-Oblique", Helvetica, false, true),
            ("LiberationSerif", Times, false, false),
            ("Symbol", Symbol, false, false),
            ("ZapfDingbats", ZapfDingbats, false, false),
            ("Constantia,Bold", Times, true, false),
            ("LucidaSansUnicode", Helvetica, false, false),
            ("TACTGM+NimbusRomNo9L-Medi", Times, true, false),
            ("NimbusRomNo9L-ReguItal", Times, false, true),
            ("NimbusRomNo9L-MediItal", Times, true, true),
            ("NimbusSanL-Regu", Helvetica, false, false),
            ("URWPalladioL-Ital", Times, false, true),
            ("DS-Digital", Helvetica, false, false),
            ("NimbusMonL-ReguObli", Courier, false, true),
            ("Garamond-Media", Times, false, false),
        ];
        for (name, family, bold, italic) in cases {
            let face = named(name);
            assert_eq!(
                (face.family, face.bold, face.italic),
                (family, bold, italic),
                "{name}"
            );
        }
    }

    #[test]
    fn descriptor_flags_decide_when_the_name_is_opaque() {
        let face = face_for(&FontTraits {
            name: Some("F12"),
            flags: Some(FLAG_SERIF | FLAG_ITALIC),
            weight: Some(700),
            ..FontTraits::default()
        });
        assert_eq!(face, FontFace::new(FontFamily::Times, true, true));
        let face = face_for(&FontTraits {
            name: Some("F3"),
            flags: Some(FLAG_FIXED_PITCH),
            ..FontTraits::default()
        });
        assert_eq!(face.family, FontFamily::Courier);
        // A name that says what it is wins over flags that say otherwise (subset fonts
        // often look fixed-pitch to a program that reads only the glyphs they kept).
        let face = face_for(&FontTraits {
            name: Some("Arial,Bold"),
            monospace: Some(true),
            ..FontTraits::default()
        });
        assert_eq!(face.family, FontFamily::Helvetica);
    }

    #[test]
    fn metrics_tell_times_from_helvetica_and_courier() {
        let sample = |face: FontFace, text: &str| -> Vec<Sample> {
            text.chars()
                .map(|c| Sample {
                    code: c as u32,
                    advance: face.char_width(c) as f32,
                    ch: Some(c),
                })
                .collect()
        };
        let text = "The quick brown fox jumps";
        for face in &FontFace::ALL[..12] {
            let found = closest_by_metrics(&sample(*face, text)).unwrap();
            // Oblique and bold Courier cuts share their widths with the upright ones, so
            // only the family and the widths can be asked for.
            assert_eq!(found.family, face.family, "{face:?}");
            assert_eq!(found.text_width(text, 10.0), face.text_width(text, 10.0));
        }
        let times_bold = FontFace::new(FontFamily::Times, true, false);
        assert_eq!(
            closest_by_metrics(&sample(times_bold, text)),
            Some(times_bold)
        );
        assert_eq!(closest_by_metrics(&sample(FontFace::ALL[0], "ab")), None);
    }
}
