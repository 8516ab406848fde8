//! The host's font library: the operator's font files, indexed once, so that converters can
//! be handed glyphs, metrics and subsets without ever being handed a file
//! (docs/text-engine.md §3.3 and §7). It runs natively in the host, never in wasm, and parses
//! only operator-trusted font files.
//!
//! # How a character finds its face ([`Library::map`])
//!
//! This is the behaviour operators see; `quire fonts which` (docs/text-engine.md §7) is meant
//! to explain documents by it.
//!
//! 1. The script of the character is its Unicode Script property. Script-neutral characters
//!    (Common, Inherited and unassigned: digits, punctuation, symbols, combining marks) try
//!    the Latin chain of the query's class first, then the chains of the scripts listed in
//!    their Script_Extensions (Han first, so that `。` follows the CJK rules below), then,
//!    when the lang is Chinese, Japanese or Korean or the character is a full-width form or
//!    CJK punctuation (U+3000-U+303F, U+FF00-U+FFEF; `，` has no Script_Extensions), the Han
//!    chain, then the symbols chain.
//! 2. Each script has a chain of families, tried in order:
//!
//!    | Script | Sans | Serif | Mono |
//!    |---|---|---|---|
//!    | Latn, Grek, Cyrl, neutral | Liberation Sans, Noto Sans | Liberation Serif, Noto Serif | Liberation Mono, Noto Sans Mono |
//!    | Hebr | Noto Sans Hebrew, Liberation Sans | Noto Serif Hebrew, Liberation Serif, Noto Sans Hebrew | Liberation Mono, Noto Sans Hebrew |
//!    | Arab | Noto Sans Arabic, Noto Naskh Arabic | (lang `ur`: Noto Nastaliq Urdu,) Noto Naskh Arabic, Noto Sans Arabic | as Sans |
//!    | Hani, Hira, Kana, Hang, Bopo | Noto Sans CJK *R* | Noto Serif CJK *R* | Noto Sans Mono CJK *R* |
//!    | any other script *S* | Noto Sans *S*, Noto Serif *S* | Noto Serif *S*, Noto Sans *S* | as Sans |
//!    | symbols (neutral characters the chains above lack) | Noto Sans Symbols, Noto Sans Symbols2, Noto Sans Math, Symbola | same | same |
//!
//!    *S* is the script's Unicode name with spaces for underscores (`Devanagari`,
//!    `Old Italic`), so new Noto families need no code; Tibetan, Tangut, Dogra... exist only
//!    as Noto Serif and are found through the second step. Family names are compared without
//!    case, spaces or punctuation.
//!
//!    *R*, the CJK region, comes from the query's lang: `ja*` JP, `ko*` KR, `yue*`, `zh-HK`,
//!    `zh-MO` HK, `zh-Hant`, `zh-TW` TC, other `zh*` SC. Without one of those: kana JP,
//!    Hangul KR, everything else SC. The other four regions follow in the chain (SC, TC, HK,
//!    JP, KR order) for the few characters one region lacks.
//! 3. Within a family, the face whose style is closest: exact bold and italic, else the same
//!    boldness upright, else Regular, else any; weight 600 and above counts as bold. When two
//!    faces have the same family and style, the one found first wins, and roots are scanned
//!    in the order given, so a family in `QUIRE_FONTS` shadows the same family in the
//!    default directories.
//! 4. A face must really have the character (a nonzero glyph in its cmap); a chain face that
//!    lacks it is passed over, the family's other styles are not tried.
//! 5. Last resort ("cover"): the first face in library order whose cmap has the character,
//!    Regular faces before the others. `None` when no face has it: the caller draws .notdef.

mod cache;
mod index;
mod native;
pub use native::install_default_library;
mod outline;
mod select;
mod shape;
mod slim;
mod subset;
mod words;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};
use unicode_script::{Script, UnicodeScript};

use index::{Face, FontFile};
pub use words::word_breaks;

/// The generic family, a face's description and a shaped glyph are the SDK's types
/// (`quire_sdk::fonts`): the library serves the SDK natively as the host serves components.
pub use quire_sdk::fonts::{Class, FaceInfo, ShapedGlyph as Shaped};

/// What a run of text asks for. `lang` (BCP 47, "" when unknown) matters because Han
/// characters are drawn differently in Japan, Korea, mainland China, Taiwan and Hong Kong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Query<'a> {
    pub class: Class,
    pub bold: bool,
    pub italic: bool,
    pub lang: &'a str,
}

/// A glyph as layout needs it: which face to embed, which glyph to draw, and how far to
/// advance (hmtx, font units) without parsing the face again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    pub face: u32,
    pub gid: u16,
    pub advance: u16,
}

/// One row of `quire fonts list` and of `GET /api/v1`'s fonts: operators check by it that a
/// host has the fonts their documents need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    pub name: String,
    /// Among "Regular", "Bold", "Italic", "Bold Italic", in that order.
    pub styles: Vec<String>,
    /// ISO 15924 codes of the fallback table's scripts (plus `Zsym` symbols and `Zmth` math)
    /// of which the family has at least 90% of a sample of basic letters.
    pub scripts: Vec<String>,
}

/// A library opened by [`Library::open_with_index`], and the index to store if the one
/// given was not used.
pub struct Indexed {
    library: Library,
    /// Why the stored index was not used; empty when it was.
    miss: String,
    /// When it was not: the index of the files as read, or why there is none to store.
    fresh: Option<Result<Vec<u8>, String>>,
}

impl Indexed {
    /// The library, after `store` was handed the new index if there is one (to be kept
    /// under [`Library::index_name`] for the next open); what it answers is only reported.
    pub fn finish(self, store: impl FnOnce(&[u8]) -> Result<(), String>) -> (Library, IndexUse) {
        let why = self.miss;
        let state = match self.fresh {
            None => IndexUse::Reused,
            Some(Ok(body)) => match store(&body) {
                Ok(()) => IndexUse::Written { why },
                Err(error) => IndexUse::Unwritten { why, error },
            },
            Some(Err(error)) => IndexUse::Unwritten { why, error },
        };
        (self.library, state)
    }
}

/// What became of the index when opening the library, for the caller's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexUse {
    /// No index asked for: every file was read.
    Off,
    /// The index matched: no font file was opened.
    Reused,
    /// It did not (`why`): every file was read and the index written anew.
    Written { why: String },
    /// It did not, and the new one could not be written: the next open reads every file
    /// again.
    Unwritten { why: String, error: String },
}

impl std::fmt::Display for IndexUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexUse::Off => write!(f, "no index"),
            IndexUse::Reused => write!(f, "index reused"),
            IndexUse::Written { why } => write!(f, "index rebuilt ({why})"),
            IndexUse::Unwritten { why, error } => {
                write!(f, "files read ({why}); index not written: {error}")
            }
        }
    }
}

/// The operator's fonts, indexed once and shared by every call: it is `Send + Sync` and never
/// changes after `open`, so that a call sees one consistent library.
pub struct Library {
    files: Vec<FontFile>,
    faces: Vec<Face>,
    /// [`select::family_key`] -> faces, in library order: a family lookup is one hash, not a
    /// scan of 300 faces per character.
    by_family: HashMap<String, Vec<u32>>,
    /// Regular faces first, then the others, each in library order.
    cover_order: Vec<u32>,
    skipped: Vec<(PathBuf, String)>,
    families: OnceLock<Vec<Family>>,
    /// One per face, filled on the face's first shaping.
    shapers: Vec<shape::ShaperCache>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library")
            .field("faces", &self.faces.len())
            .field("files", &self.files.len())
            .field("skipped", &self.skipped.len())
            .finish()
    }
}

impl Library {
    /// Scans files and directories (recursively, at most 4 directory levels below a root;
    /// extensions .ttf .otf .ttc .otc, any case; symlinks followed to files, not to
    /// directories), in a deterministic order: each root's files sorted by path, roots in
    /// the order given, so earlier roots win ties. A file named directly is taken whatever its
    /// extension. Faces that fail to parse, and faces that cannot be embedded (CFF2, or no
    /// outlines at all such as the CBDT colour emoji), are left out and listed in
    /// [`Library::skipped`] with the reason, as are missing roots, so operators see why a
    /// font they installed is not used. Files are memory-mapped and only their small tables
    /// are read.
    pub fn open(roots: &[PathBuf]) -> Library {
        Library::from_scan(index::scan_walk(&index::walk_roots(roots)).0)
    }

    /// As [`Library::open`], with the index kept in `cache_dir` (made, 0700, if missing)
    /// under [`Library::index_name`]: when it matches the files the walk finds (their
    /// paths, sizes, modification and change times, and this build), no font file is opened
    /// until a face is used. Otherwise the files are read as by `open` and the index is
    /// written anew; a failure to read or write it is reported, never an error of opening.
    /// The index is only taken from a file of this user's that nobody else may write, not
    /// reached through a link; `cache_dir` itself is the caller's to check. `None`: no
    /// index, as `open`.
    pub fn open_indexed(roots: &[PathBuf], cache_dir: Option<&Path>) -> (Library, IndexUse) {
        let Some(dir) = cache_dir else {
            return (Library::open(roots), IndexUse::Off);
        };
        let name = Library::index_name(roots);
        let stored = cache::read(dir, &name);
        Library::open_with_index(roots, stored.as_deref().map_err(String::as_str))
            .finish(|body| cache::write(dir, &name, body).map_err(|e| e.to_string()))
    }

    /// The library from the index `stored` (its bytes, or why the caller has none), for
    /// callers that keep the index themselves, as the host does in its compile cache; see
    /// [`Library::open_indexed`] and [`Indexed::finish`].
    pub fn open_with_index(roots: &[PathBuf], stored: Result<&[u8], &str>) -> Indexed {
        let walk = index::walk_roots(roots);
        let miss = match stored.map(|bytes| cache::load(&walk, bytes)) {
            Ok(Ok(scan)) => {
                return Indexed {
                    library: Library::from_scan(scan),
                    miss: String::new(),
                    fresh: None,
                }
            }
            Ok(Err(why)) => why,
            Err(why) => why.to_string(),
        };
        let (scan, reads) = index::scan_walk(&walk);
        let fresh = cache::encode(&walk, &reads, &scan.faces);
        Indexed {
            library: Library::from_scan(scan),
            miss,
            fresh: Some(fresh),
        }
    }

    /// The name of the index file of `roots`: one per set of roots, so that commands with
    /// other roots sharing a directory do not take turns replacing it.
    pub fn index_name(roots: &[PathBuf]) -> String {
        cache::file_name(roots)
    }

    /// How many font files are mapped so far: after a reused index, only those of the faces
    /// used.
    pub fn mapped_files(&self) -> usize {
        self.files.iter().filter(|f| f.is_mapped()).count()
    }

    fn from_scan(scan: index::Scan) -> Library {
        let mut by_family: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, face) in scan.faces.iter().enumerate() {
            by_family
                .entry(select::family_key(&face.info.family))
                .or_default()
                .push(i as u32);
        }
        let mut cover_order: Vec<u32> = (0..scan.faces.len() as u32).collect();
        cover_order.sort_by_key(|&i| !scan.faces[i as usize].regular());
        let shapers = scan.faces.iter().map(|_| Default::default()).collect();
        Library {
            shapers,
            files: scan.files,
            faces: scan.faces,
            by_family,
            cover_order,
            skipped: scan.skipped,
            families: OnceLock::new(),
        }
    }

    /// The Debian directories of `fonts-liberation2`, `fonts-noto-core`, `fonts-noto-mono`
    /// and `fonts-noto-cjk`, which docs/text-engine.md §7 installs, plus
    /// `fonts-ancient-scripts`'s if present. The first three are returned even when absent, so
    /// that [`Library::skipped`] names the missing package's directory.
    pub fn default_roots() -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = [
            "/usr/share/fonts/truetype/liberation2",
            "/usr/share/fonts/truetype/noto",
            "/usr/share/fonts/opentype/noto",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let ancient = Path::new("/usr/share/fonts/truetype/ancient-scripts");
        if ancient.is_dir() {
            roots.push(ancient.to_path_buf());
        }
        roots
    }

    /// The number of faces; face ids are `0..len()`.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    /// No faces: every character maps to `None` and documents fall back to .notdef boxes.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The face's description, `None` for an id this library did not hand out.
    pub fn info(&self, face: u32) -> Option<&FaceInfo> {
        self.faces.get(face as usize).map(|f| &f.info)
    }

    /// The file a face comes from and its index in it, for `quire fonts list` (operators
    /// must find the file to fix or remove it). Never for converters or the API: where the
    /// host keeps its fonts is host-local.
    pub fn source(&self, face: u32) -> Option<(&Path, u32)> {
        let f = self.faces.get(face as usize)?;
        Some((&self.files[f.file].path, f.index))
    }

    /// The face and glyph that draw `ch` for this query, by the rules of the crate
    /// documentation, or None when no face of the library has it. Cheap enough to call once
    /// per distinct character; caching per (query, char) is the caller's.
    pub fn map(&self, q: &Query, ch: char) -> Option<Glyph> {
        let script = ch.script();
        if let Some(g) = self.try_chain(&select::chain(script, q), q, ch) {
            return Some(g);
        }
        if matches!(script, Script::Common | Script::Inherited | Script::Unknown) {
            for s in select::extension_scripts(ch) {
                if let Some(g) = self.try_chain(&select::chain(s, q), q, ch) {
                    return Some(g);
                }
            }
            if select::wants_cjk(q.lang, ch) {
                if let Some(g) = self.try_chain(&select::chain(Script::Han, q), q, ch) {
                    return Some(g);
                }
            }
            if let Some(g) = self.try_chain(&select::symbols(), q, ch) {
                return Some(g);
            }
        }
        self.cover_order.iter().find_map(|&f| self.glyph_in(f, ch))
    }

    /// `text` shaped with `face` (see the `shape` module): glyphs left to right, clusters as
    /// byte offsets into `text`; empty when the face cannot be shaped with.
    pub fn shape(&self, face: u32, text: &str, rtl: bool, lang: &str) -> Vec<Shaped> {
        let (Some(f), Some(cache)) = (
            self.faces.get(face as usize),
            self.shapers.get(face as usize),
        ) else {
            return Vec::new();
        };
        let Some(data) = self.files[f.file].data() else {
            return Vec::new();
        };
        shape::shape(cache, data, f.index, text, rtl, lang)
    }

    /// A subset of `face` holding .notdef and `glyphs` (original glyph ids, each at most once,
    /// no .notdef), where glyphs[i] becomes glyph id i+1, so that the caller's glyph ids are
    /// simply positions in its list. For a TrueType (glyf) face: a whole TrueType font file
    /// (composite glyphs' components are appended after the listed glyphs), without hinting
    /// (`slim`); for a CFF face:
    /// the bare CID-keyed CFF table of the subset, as PDF's FontFile3 /CIDFontType0C wants it.
    pub fn subset(&self, face: u32, glyphs: &[u16]) -> Result<Vec<u8>, String> {
        let f = self
            .faces
            .get(face as usize)
            .ok_or_else(|| format!("no face {face}"))?;
        let file = &self.files[f.file];
        let data = file.data().ok_or_else(|| {
            format!(
                "{} face {}: the file changed since the library was opened",
                file.name, f.index
            )
        })?;
        subset::subset(data, f.index, f.info.cff, f.num_glyphs, glyphs)
            .map(|font| match f.info.cff {
                true => font,
                false => slim::slim(font, &f.info.family),
            })
            // The file name, not the path: the message may reach a converter, and where the
            // host keeps its fonts is none of its business.
            .map_err(|e| format!("{} face {}: {e}", file.name, f.index))
    }

    /// The outlines of `glyphs` of `face` as SVG path data in font units, y up (see the
    /// `outline` module): one string per glyph, empty for a glyph with no outline or an id
    /// past the face's glyphs. Empty altogether for an id this library did not hand out.
    pub fn outlines(&self, face: u32, glyphs: &[u16]) -> Vec<String> {
        let Some(f) = self.faces.get(face as usize) else {
            return Vec::new();
        };
        match self.files[f.file].data() {
            Some(data) => outline::outlines(data, f.index, glyphs),
            None => vec![String::new(); glyphs.len()],
        }
    }

    /// One row per family, sorted by name, for operators to see what documents can use.
    /// Computed on first use (a few thousand cmap lookups) and kept.
    pub fn families(&self) -> Vec<Family> {
        self.families
            .get_or_init(|| self.compute_families())
            .clone()
    }

    /// The scripts of the fallback table (ISO 15924, with `Zsym` and `Zmth`) that the library
    /// as a whole cannot draw (less than 90% of the sample in all faces together): `quire
    /// serve` warns about each, since their text would come out as boxes. Symbols are spread
    /// over several families, so this is not the same as "no family lists it".
    pub fn missing_scripts(&self) -> Vec<String> {
        let all: Vec<u32> = (0..self.faces.len() as u32).collect();
        select::SAMPLES
            .iter()
            .filter(|sample| !self.covers(&all, sample))
            .map(|s| s.code.to_string())
            .collect()
    }

    /// sha256 (hex) over the file name, size and face index of every face in library order:
    /// hosts with the same fonts lay out the same, and this lets operators and the cluster test
    /// check that they do, without exposing paths.
    pub fn digest(&self) -> String {
        let mut hash = Sha256::new();
        for face in &self.faces {
            let file = &self.files[face.file];
            hash.update((file.name.len() as u64).to_be_bytes());
            hash.update(file.name.as_bytes());
            hash.update(file.size.to_be_bytes());
            hash.update(face.index.to_be_bytes());
        }
        hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Files, faces and roots left out, each with the reason: `quire fonts list` shows them so
    /// that a font that silently did nothing can be explained.
    pub fn skipped(&self) -> &[(PathBuf, String)] {
        &self.skipped
    }

    fn glyph_in(&self, face: u32, ch: char) -> Option<Glyph> {
        let f = &self.faces[face as usize];
        let data = self.files[f.file].data()?;
        let gid = f.glyph(data, ch as u32)?;
        Some(Glyph {
            face,
            gid,
            advance: f.advance(data, gid),
        })
    }

    /// The first family of the chain whose best-styled face has `ch`.
    fn try_chain<S: AsRef<str>>(&self, chain: &[S], q: &Query, ch: char) -> Option<Glyph> {
        chain.iter().find_map(|name| {
            let faces = self.by_family.get(&select::family_key(name.as_ref()))?;
            let best = faces.iter().copied().min_by_key(|&i| {
                let f = &self.faces[i as usize];
                (
                    select::style_rank(f.bold, f.info.italic, f.info.weight, q),
                    i,
                )
            })?;
            self.glyph_in(best, ch)
        })
    }

    /// Whether `faces` together have at least 90% of the sample. It stops at the first miss
    /// past 10%: most families fail most scripts on their first characters.
    fn covers(&self, faces: &[u32], sample: &select::Sample) -> bool {
        let allowed = sample.chars().count() / 10;
        let mut missed = 0;
        sample.chars().filter_map(char::from_u32).all(|ch| {
            if !faces.iter().any(|&i| self.glyph_in(i, ch).is_some()) {
                missed += 1;
            }
            missed <= allowed
        })
    }

    fn compute_families(&self) -> Vec<Family> {
        let mut families: Vec<Family> = self
            .by_family
            .values()
            .map(|faces| {
                let first = &self.faces[faces[0] as usize];
                let mut styles = Vec::new();
                for (bold, italic, label) in [
                    (false, false, "Regular"),
                    (true, false, "Bold"),
                    (false, true, "Italic"),
                    (true, true, "Bold Italic"),
                ] {
                    if faces.iter().any(|&i| {
                        let f = &self.faces[i as usize];
                        f.bold == bold && f.info.italic == italic
                    }) {
                        styles.push(label.to_string());
                    }
                }
                let scripts = select::SAMPLES
                    .iter()
                    .filter(|sample| self.covers(faces, sample))
                    .map(|sample| sample.code.to_string())
                    .collect();
                Family {
                    name: first.info.family.clone(),
                    styles,
                    scripts,
                }
            })
            .collect();
        families.sort_by(|a, b| {
            a.name
                .to_lowercase()
                .cmp(&b.name.to_lowercase())
                .then_with(|| a.name.cmp(&b.name))
        });
        families
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn library_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<super::Library>();
    }
}
