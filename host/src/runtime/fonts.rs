//! The `fonts` interface converters import (`quire:converter/fonts@1.1.0`): the operator's
//! font library, served glyph by glyph.
//!
//! Font programs stay on the host (ARCHITECTURE.md). A converter asks which face and glyph
//! draw a character and what the face's metrics are, and for an embeddable subset of the
//! glyphs it drew; it never sees a font file, so a 17 MB CJK collection is not copied into
//! every call. Only trusted inputs are parsed here (the operator's files and glyph ids);
//! the untrusted text is only looked up character by character, within a budget per call.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use quire_fonts::{Class, IndexUse, Library, Query};

use super::bindings::quire::converter::fonts as wit;
use super::cache_dir::{is_link, CacheDir};

/// Characters one call may have looked up: a 64 MiB model of CJK text holds about 20
/// million, but the layout asks for each distinct character once per style.
const MAX_MAPPED_CHARS: usize = 4 << 20;
/// Subsets one call may ask for (one per face an export draws with) and the glyphs in
/// them all: a subset of a CJK face costs milliseconds per thousand glyphs.
const MAX_SUBSETS: usize = 256;
const MAX_SUBSET_GLYPHS: usize = 200_000;
/// Outlines one call may ask for, and the path data they may add up to: a page of CJK text
/// draws a few thousand distinct glyphs of about a kilobyte each.
const MAX_OUTLINES: usize = 200_000;
const MAX_OUTLINE_BYTES: usize = 64 << 20;

/// The most an index file may hold (the index of every font of a desktop is a few hundred KB).
const MAX_INDEX: u64 = 32 << 20;

/// The font library of this host. It is opened once, on a thread of its own as soon as the
/// host starts (see [`FontLibrary::open_in_background`]) or by the first call that needs
/// it, whichever comes first: even Latin text needs it, for the faces the standard fonts
/// are embedded with, and the walk of a few hundred font files should overlap the loading
/// of the converters rather than follow it.
pub struct FontLibrary {
    roots: Vec<PathBuf>,
    /// Where the library's index is kept: the compile cache, whose directory is checked
    /// for owner and mode like the artifacts beside it.
    cache_dir: Option<PathBuf>,
    opened: OnceLock<Library>,
}

impl FontLibrary {
    /// The library made of `roots` (files or directories, earlier ones winning), with its
    /// index in `cache_dir` if given (see [`Library::open_indexed`]): opening then walks
    /// the roots without reading a font file while the files stay as indexed.
    pub fn new(roots: Vec<PathBuf>, cache_dir: Option<PathBuf>) -> Arc<FontLibrary> {
        Arc::new(FontLibrary {
            roots,
            cache_dir,
            opened: OnceLock::new(),
        })
    }

    /// The Debian directories `make run` installs fonts into.
    pub fn default_roots() -> Vec<PathBuf> {
        Library::default_roots()
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Starts opening the library on a thread of its own; [`FontLibrary::get`] waits for it.
    pub fn open_in_background(self: &Arc<Self>) {
        let library = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("font-library".into())
            .spawn(move || {
                library.get();
            });
        if let Err(e) = spawned {
            // Not fatal: the first call that draws text opens it instead.
            tracing::warn!("cannot open the font library in the background: {e}");
        }
    }

    pub fn get(&self) -> &Library {
        self.opened.get_or_init(|| {
            let started = Instant::now();
            let (library, index) = self.open();
            tracing::info!(
                "font library: {} faces in {:?} ({index}), {} files skipped",
                library.len(),
                started.elapsed(),
                library.skipped().len()
            );
            for (path, why) in library.skipped() {
                tracing::warn!("font {} left out: {why}", path.display());
            }
            library
        })
    }

    /// The library, through its index in the cache directory when there is one. The index
    /// is read and written as the artifacts are: through the directory's checked handle, a
    /// file of this user's that nobody else may write and not a link, replaced by a new
    /// file (exclusive, 0600) renamed into place.
    fn open(&self) -> (Library, IndexUse) {
        let Some(path) = &self.cache_dir else {
            return (Library::open(&self.roots), IndexUse::Off);
        };
        let dir = match CacheDir::open(path) {
            Ok(dir) => dir,
            Err(e) => {
                let index = IndexUse::Unwritten {
                    why: "the cache directory is refused".into(),
                    error: format!("{e:#}"),
                };
                return (Library::open(&self.roots), index);
            }
        };
        let name = Library::index_name(&self.roots);
        let stored = read_index(&dir, &name);
        Library::open_with_index(&self.roots, stored.as_deref().map_err(String::as_str)).finish(
            |body| {
                dir.replace(&name, body)
                    .map(drop)
                    .map_err(|e| format!("{}: {e}", dir.path().join(&name).display()))
            },
        )
    }
}

/// The index file `name`, or why it is not used.
fn read_index(dir: &CacheDir, name: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = match dir.open_file(name) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err("none stored".into()),
        Err(e) if is_link(&e) => return Err("its name is a link".into()),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() || !super::artifacts::private_to_us(&meta) {
        return Err("not a file of this user's that only it may write".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_INDEX)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    Ok(bytes)
}

/// What one call has taken from the library so far.
#[derive(Default)]
pub struct FontUse {
    mapped_chars: usize,
    subsets: usize,
    subset_glyphs: usize,
    outlines: usize,
    outline_bytes: usize,
}

/// The library and this call's use of it, kept in the call's store.
pub struct CallFonts {
    library: Arc<FontLibrary>,
    used: FontUse,
}

impl CallFonts {
    pub fn new(library: Arc<FontLibrary>) -> CallFonts {
        CallFonts {
            library,
            used: FontUse::default(),
        }
    }

    pub fn map(&mut self, q: wit::Query, text: String) -> Vec<Option<wit::Glyph>> {
        let chars = text.chars().count();
        self.used.mapped_chars = self.used.mapped_chars.saturating_add(chars);
        if self.used.mapped_chars > MAX_MAPPED_CHARS {
            // Past the budget every character is "no font has it": the converter draws
            // its missing-glyph box and warns, and the call still ends.
            return vec![None; chars];
        }
        let query = Query {
            class: match q.class {
                wit::Class::Sans => Class::Sans,
                wit::Class::Serif => Class::Serif,
                wit::Class::Mono => Class::Mono,
            },
            bold: q.bold,
            italic: q.italic,
            lang: if q.lang.len() <= 35 { &q.lang } else { "" },
        };
        let library = self.library.get();
        guarded(
            || {
                text.chars()
                    .map(|ch| {
                        library.map(&query, ch).map(|g| wit::Glyph {
                            face: g.face,
                            gid: g.gid,
                            advance: g.advance,
                        })
                    })
                    .collect()
            },
            vec![None; chars],
        )
    }

    pub fn shape(&mut self, face: u32, text: String, rtl: bool, lang: String) -> Vec<wit::Shaped> {
        // Shaping costs more per character than a lookup, and the same budget bounds both.
        self.used.mapped_chars = self
            .used
            .mapped_chars
            .saturating_add(text.chars().count().saturating_mul(4));
        if self.used.mapped_chars > MAX_MAPPED_CHARS {
            return Vec::new();
        }
        let lang = if lang.len() <= 35 { lang.as_str() } else { "" };
        let library = self.library.get();
        guarded(
            || {
                library
                    .shape(face, &text, rtl, lang)
                    .into_iter()
                    .map(|g| wit::Shaped {
                        gid: g.gid,
                        cluster: g.cluster,
                        advance: g.advance,
                        x_offset: g.x_offset,
                        y_offset: g.y_offset,
                    })
                    .collect()
            },
            Vec::new(),
        )
    }

    pub fn info(&mut self, face: u32) -> Option<wit::FaceInfo> {
        let info = self.library.get().info(face)?;
        Some(wit::FaceInfo {
            family: info.family.clone(),
            postscript_name: info.postscript_name.clone(),
            weight: info.weight,
            italic: info.italic,
            monospace: info.monospace,
            units_per_em: info.units_per_em,
            ascent: info.ascent,
            descent: info.descent,
            cap_height: info.cap_height,
            italic_angle: info.italic_angle,
            bbox: (info.bbox[0], info.bbox[1], info.bbox[2], info.bbox[3]),
            cff: info.cff,
            notdef_advance: info.notdef_advance,
        })
    }

    pub fn subset(&mut self, face: u32, glyphs: Vec<u16>) -> Result<Vec<u8>, String> {
        self.used.subsets += 1;
        self.used.subset_glyphs = self.used.subset_glyphs.saturating_add(glyphs.len());
        if self.used.subsets > MAX_SUBSETS || self.used.subset_glyphs > MAX_SUBSET_GLYPHS {
            return Err(format!(
                "this conversion asked for more than {MAX_SUBSETS} font subsets or \
                 {MAX_SUBSET_GLYPHS} glyphs"
            ));
        }
        let library = self.library.get();
        guarded(
            || library.subset(face, &glyphs),
            Err("the font could not be subset".to_string()),
        )
    }

    pub fn outlines(&mut self, face: u32, glyphs: Vec<u16>) -> Vec<String> {
        self.used.outlines = self.used.outlines.saturating_add(glyphs.len());
        if self.used.outlines > MAX_OUTLINES || self.used.outline_bytes > MAX_OUTLINE_BYTES {
            // Past the budget the glyphs are drawn as nothing; the text layer keeps them.
            return Vec::new();
        }
        let library = self.library.get();
        let paths = guarded(|| library.outlines(face, &glyphs), Vec::new());
        let bytes: usize = paths.iter().map(String::len).sum();
        self.used.outline_bytes = self.used.outline_bytes.saturating_add(bytes);
        paths
    }

    /// Word boundaries of a run of Thai, Lao, Khmer or Myanmar (ICU's dictionaries): byte
    /// offsets into `text` from 0 to its length. Its characters count against the budget
    /// lookups share; past it the answer is empty and the converter breaks between clusters.
    /// Needs no font, so it does not open the library.
    pub fn word_breaks(&mut self, text: String) -> Vec<u32> {
        self.used.mapped_chars = self.used.mapped_chars.saturating_add(text.chars().count());
        if self.used.mapped_chars > MAX_MAPPED_CHARS {
            return Vec::new();
        }
        guarded(|| quire_fonts::word_breaks(&text), Vec::new())
    }
}

/// Runs `f`, answering `fallback` if it panics: a font file the operator installed may be
/// damaged in a way the parsers did not foresee, and that must fail one lookup, not the
/// worker.
fn guarded<T>(f: impl FnOnce() -> T, fallback: T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        tracing::error!("a font lookup panicked; answered as if no font had the glyph");
        fallback
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    const LIBERATION: &str = "/usr/share/fonts/truetype/liberation2";

    #[test]
    fn the_index_is_kept_in_the_cache_directory_and_never_through_a_link() {
        assert!(
            std::path::Path::new(LIBERATION).is_dir(),
            "{LIBERATION} is missing: install fonts-liberation2"
        );
        let cache = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let path = cache.path().join("cache");
        let fonts = FontLibrary::new(vec![PathBuf::from(LIBERATION)], Some(path.clone()));
        let (first, state) = fonts.open();
        assert!(matches!(state, IndexUse::Written { .. }), "{state:?}");
        let name = Library::index_name(fonts.roots());
        let (again, state) = fonts.open();
        assert_eq!(state, IndexUse::Reused);
        assert_eq!(again.mapped_files(), 0);
        assert_eq!(again.digest(), first.digest());

        // A name that is a link: not read, and replaced rather than written through.
        let victim = outside.path().join("victim");
        std::fs::write(&victim, b"untouched").unwrap();
        std::fs::remove_file(path.join(&name)).unwrap();
        std::os::unix::fs::symlink(&victim, path.join(&name)).unwrap();
        let (_, state) = fonts.open();
        assert!(matches!(state, IndexUse::Written { .. }), "{state:?}");
        assert_eq!(std::fs::read(&victim).unwrap(), b"untouched");
        assert_eq!(fonts.open().1, IndexUse::Reused);

        // One other users may write is not taken.
        use std::os::unix::fs::PermissionsExt;
        let index = path.join(&name);
        std::fs::set_permissions(&index, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(matches!(fonts.open().1, IndexUse::Written { .. }));
        let mode = std::fs::metadata(&index).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
}
