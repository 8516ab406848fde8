//! What operators and API clients see of the font library (docs/text-engine.md §7).
//!
//! `quire fonts list` and `quire fonts which` are for the operator of this host: they name
//! the files, so that a font that does nothing can be found and fixed. The `fonts` member of
//! GET /api/v1 ([`Summary`]) names none: where a host keeps its fonts is its own business,
//! and its families, scripts and digest are all a client needs to know what its documents
//! will look like.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use quire_fonts::{Class, FaceInfo, Family, Query};
use quire_sdk::metrics::FontFace;
use quire_sdk::FontFamily;
use serde::Serialize;
use unicode_script::UnicodeScript;

use crate::config::Config;
use crate::runtime::FontLibrary;

/// Where a font file was found: in a root `QUIRE_FONTS` named, or in the default set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Origin {
    #[serde(rename = "QUIRE_FONTS")]
    Listed,
    #[serde(rename = "default")]
    Default,
}

impl Origin {
    pub fn label(self) -> &'static str {
        match self {
            Origin::Listed => "QUIRE_FONTS",
            Origin::Default => "default",
        }
    }
}

/// The library of this host, with what operators and clients are shown of it. The library
/// itself is the sandbox's (one open per process); only the summary is kept here.
pub struct Fonts {
    library: Arc<FontLibrary>,
    /// How many of the library's roots, from the front, `QUIRE_FONTS` named.
    listed_roots: usize,
    summary: OnceLock<Arc<Summary>>,
}

/// The library as GET /api/v1 describes it: no paths.
#[derive(Debug)]
pub struct Summary {
    pub digest: String,
    pub families: Vec<Family>,
    pub missing: Vec<String>,
}

/// `quire fonts list`.
#[derive(Debug, Serialize)]
pub struct Listing {
    pub families: Vec<ListedFamily>,
    /// `quire_fonts::Library::digest`: the same on every host with the same font files.
    pub digest: String,
    pub faces: usize,
    /// Scripts of the fallback table no face draws.
    pub missing: Vec<String>,
    pub skipped: Vec<Skipped>,
}

#[derive(Debug, Serialize)]
pub struct ListedFamily {
    pub family: String,
    pub styles: Vec<String>,
    pub scripts: Vec<String>,
    /// Where its files were found (both when `QUIRE_FONTS` adds styles to a default family).
    pub from: Vec<Origin>,
    pub files: Vec<ListedFile>,
}

#[derive(Debug, Serialize)]
pub struct ListedFile {
    pub path: String,
    /// The face's index in its file (a collection, `.ttc`, holds several).
    pub index: u32,
    pub style: &'static str,
    pub from: Origin,
}

#[derive(Debug, Serialize)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

/// What a run of text asks for in `quire fonts which`.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    pub class: Class,
    pub bold: bool,
    pub italic: bool,
    pub lang: &'a str,
}

/// `quire fonts which`: how one character is drawn.
#[derive(Debug, Serialize)]
pub struct Choice {
    #[serde(rename = "char")]
    pub ch: String,
    /// `U+4E2D`.
    pub code: String,
    /// ISO 15924 (`Zyyy` for digits and punctuation, `Zinh` for combining marks).
    pub script: &'static str,
    /// The standard PDF font that has the character, as `BaseFont` names it; the library is
    /// not asked then.
    pub standard: Option<&'static str>,
    /// The library's face, when the standard font lacks the character; none of both means
    /// no installed font has it and a PDF shows `?`.
    pub face: Option<ChosenFace>,
}

#[derive(Debug, Serialize)]
pub struct ChosenFace {
    pub family: String,
    pub style: &'static str,
    pub path: String,
    pub index: u32,
    pub from: Origin,
}

impl Fonts {
    pub fn new(library: Arc<FontLibrary>, listed_roots: usize) -> Fonts {
        Fonts {
            library,
            listed_roots,
            summary: OnceLock::new(),
        }
    }

    /// The configured library on its own, for commands that need neither the database nor
    /// the converters.
    pub fn from_config(config: &Config) -> Fonts {
        Fonts::new(
            FontLibrary::new(config.font_roots.clone(), Some(config.cache_dir.clone())),
            config.font_roots_listed,
        )
    }

    /// The summary, if it was made already: then answering costs nothing.
    pub fn ready_summary(&self) -> Option<Arc<Summary>> {
        self.summary.get().cloned()
    }

    /// The summary, made on first use. Blocking: the first call opens the library unless a
    /// conversion did (0.1 s on a cold disk) and checks every family against every script.
    pub fn summary(&self) -> Arc<Summary> {
        self.summary
            .get_or_init(|| {
                let library = self.library.get();
                Arc::new(Summary {
                    digest: library.digest(),
                    families: library.families(),
                    missing: library.missing_scripts(),
                })
            })
            .clone()
    }

    /// Every family with its files and where they came from. Blocking, like [`Fonts::summary`].
    pub fn listing(&self) -> Listing {
        let library = self.library.get();
        let summary = self.summary();
        let families = summary
            .families
            .iter()
            .map(|family| {
                let key = family_key(&family.name);
                let files: Vec<ListedFile> = (0..library.len() as u32)
                    .filter_map(|face| {
                        let info = library.info(face)?;
                        if family_key(&info.family) != key {
                            return None;
                        }
                        let (path, index) = library.source(face)?;
                        Some(ListedFile {
                            path: path.display().to_string(),
                            index,
                            style: style_label(info),
                            from: self.origin(path),
                        })
                    })
                    .collect();
                let mut from: Vec<Origin> = files.iter().map(|f| f.from).collect();
                from.sort();
                from.dedup();
                ListedFamily {
                    family: family.name.clone(),
                    styles: family.styles.clone(),
                    scripts: family.scripts.clone(),
                    from,
                    files,
                }
            })
            .collect();
        Listing {
            families,
            digest: summary.digest.clone(),
            faces: library.len(),
            missing: summary.missing.clone(),
            skipped: library
                .skipped()
                .iter()
                .map(|(path, reason)| Skipped {
                    path: path.display().to_string(),
                    reason: reason.clone(),
                })
                .collect(),
        }
    }

    /// How each distinct character of `text` (in the order they first appear) is drawn for
    /// a run asking for `asked`, by the rule converters follow
    /// (`quire_sdk::metrics::FontFace::char_width`): the standard PDF font of the style when
    /// it has the character, else the library's face. Control characters are left out;
    /// layout does not draw them.
    pub fn which(&self, text: &str, asked: Asked) -> Vec<Choice> {
        let library = self.library.get();
        let standard = FontFace::new(
            match asked.class {
                Class::Sans => FontFamily::Helvetica,
                Class::Serif => FontFamily::Times,
                Class::Mono => FontFamily::Courier,
            },
            asked.bold,
            asked.italic,
        );
        let query = Query {
            class: asked.class,
            bold: asked.bold,
            italic: asked.italic,
            lang: asked.lang,
        };
        let mut seen = std::collections::HashSet::new();
        text.chars()
            .filter(|&ch| !ch.is_control() && seen.insert(ch))
            .map(|ch| {
                let in_standard = standard.encode(ch).is_some();
                let face = if in_standard {
                    None
                } else {
                    library.map(&query, ch).and_then(|glyph| {
                        let info = library.info(glyph.face)?;
                        let (path, index) = library.source(glyph.face)?;
                        Some(ChosenFace {
                            family: info.family.clone(),
                            style: style_label(info),
                            path: path.display().to_string(),
                            index,
                            from: self.origin(path),
                        })
                    })
                };
                Choice {
                    ch: ch.to_string(),
                    code: format!("U+{:04X}", ch as u32),
                    script: ch.script().short_name(),
                    standard: in_standard.then(|| standard.base_font_name()),
                    face,
                }
            })
            .collect()
    }

    /// The root a file was found under: the first that holds it, since roots are scanned
    /// in order and a file found twice counts at its first place.
    fn origin(&self, path: &Path) -> Origin {
        let roots: &[PathBuf] = self.library.roots();
        match roots.iter().position(|root| path.starts_with(root)) {
            Some(i) if i < self.listed_roots => Origin::Listed,
            _ => Origin::Default,
        }
    }
}

/// The style a face is listed under, as [`Family::styles`] names them (bold from weight 600).
fn style_label(info: &FaceInfo) -> &'static str {
    match (info.weight >= 600, info.italic) {
        (false, false) => "Regular",
        (true, false) => "Bold",
        (false, true) => "Italic",
        (true, true) => "Bold Italic",
    }
}

/// How the library groups faces into families: letters and digits only, without case.
fn family_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A file and face as `quire fonts` prints them: `path#index` for a face of a collection.
pub fn file_label(path: &str, index: u32) -> String {
    let collection = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("ttc") || e.eq_ignore_ascii_case("otc"));
    if collection || index > 0 {
        format!("{path}#{index}")
    } else {
        path.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_labelled_with_their_face_in_a_collection() {
        assert_eq!(file_label("/f/A.ttf", 0), "/f/A.ttf");
        assert_eq!(file_label("/f/CJK.ttc", 0), "/f/CJK.ttc#0");
        assert_eq!(file_label("/f/CJK.TTC", 2), "/f/CJK.TTC#2");
    }

    #[test]
    fn origin_is_the_first_root_holding_the_file() {
        let fonts = Fonts::new(
            FontLibrary::new(
                vec![
                    PathBuf::from("/opt/fonts"),
                    PathBuf::from("/usr/share/fonts/truetype/noto"),
                ],
                None,
            ),
            1,
        );
        assert_eq!(
            fonts.origin(Path::new("/opt/fonts/a/B.ttf")),
            Origin::Listed
        );
        assert_eq!(
            fonts.origin(Path::new("/usr/share/fonts/truetype/noto/N.ttf")),
            Origin::Default
        );
        // Component-wise: /opt/fonts2 is not under /opt/fonts.
        assert_eq!(
            fonts.origin(Path::new("/opt/fonts2/B.ttf")),
            Origin::Default
        );
    }

    #[test]
    fn family_keys_match_the_librarys() {
        assert_eq!(
            family_key("Noto Sans CJK JP"),
            family_key("noto-sans cjk jp")
        );
        assert_ne!(family_key("Noto Sans"), family_key("Noto Serif"));
    }
}
