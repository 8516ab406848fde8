//! Scanning the font roots and reading what matching needs from each face.
//!
//! Walking the roots (directories and metadata) is apart from reading the files it finds, so
//! that a library opened from its index ([`crate::cache`]) walks and reads nothing more.
//! Files are memory-mapped, and only the small tables (`name`, `OS/2`, `head`, `hhea`, `post`,
//! `maxp`, and the headers of `cmap`) are touched while indexing. The `cmap` subtable and `hmtx`
//! are located once and looked up in the map on demand, so the outlines (15 MB of `CFF ` in a
//! CJK collection) are never paged in until a subset asks for them.

use std::fs::File as FsFile;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use memmap2::Mmap;
use read_fonts::tables::cmap::{CmapSubtable, PlatformId};
use read_fonts::tables::os2::SelectionFlags;
use read_fonts::types::{NameId, Tag};
use read_fonts::{FileRef, FontData, FontRead, FontRef, TableProvider};

use crate::FaceInfo;

/// Directories below a root that are still scanned: deep enough for Debian's
/// `fonts/truetype/<package>` layout, shallow enough that a root of `/` is not a crawl.
const MAX_DEPTH: usize = 4;

/// One font file of the library, mapped on first use: a library opened from its index
/// ([`crate::cache`]) maps only the files a document draws with.
pub(crate) struct FontFile {
    /// Kept for error messages and so that operators can find the file.
    pub path: PathBuf,
    /// The file name alone: the digest must not depend on where a host keeps its fonts.
    pub name: String,
    pub size: u64,
    /// Shared, so a shaper can hold the face's bytes (`harfrust` wants an owned source).
    /// `None` once mapping failed or found another size than the index's: the ranges the
    /// index holds are not this file's, and its faces have no glyphs until the next scan.
    map: OnceLock<Option<Arc<Mmap>>>,
}

impl FontFile {
    /// A file whose faces came from the index: not opened yet.
    pub fn unmapped(path: PathBuf, size: u64) -> FontFile {
        FontFile {
            name: file_name(&path),
            path,
            size,
            map: OnceLock::new(),
        }
    }

    /// The file's bytes, mapped on the first call; `None` if it can no longer be mapped
    /// as it was indexed.
    pub fn data(&self) -> Option<&Arc<Mmap>> {
        self.map
            .get_or_init(|| {
                let file = FsFile::open(&self.path).ok()?;
                let size = file.metadata().ok()?.len();
                (size == self.size).then(|| map(&file).ok()).flatten()
            })
            .as_ref()
    }

    pub fn is_mapped(&self) -> bool {
        self.map.get().is_some_and(Option::is_some)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn map(file: &FsFile) -> std::io::Result<Arc<Mmap>> {
    // SAFETY: font files are operator-trusted and, like compiled artifacts, replaced by
    // rename, never rewritten in place, so the mapped bytes do not change under us. A
    // read-only map keeps 150 MB of fonts out of memory until pages are actually read.
    let map = unsafe { Mmap::map(file) }?;
    // Lookups jump between tables: without this, each fault reads ahead a large part of the
    // file, and indexing ~300 files would page in most of them.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Random);
    Ok(Arc::new(map))
}

/// Where a face's character map lives in its file.
#[derive(Clone, Debug)]
pub(crate) struct CmapLoc {
    /// The subtable, from its header to the end of the `cmap` table.
    pub range: Range<usize>,
    /// A (3,0) symbol subtable: codes are looked up again at U+F000 + code.
    pub symbol: bool,
}

/// One indexed face: its public description plus what `map` and `subset` need.
pub(crate) struct Face {
    pub info: FaceInfo,
    pub file: usize,
    pub index: u32,
    pub cmap: Option<CmapLoc>,
    pub hmtx: Range<usize>,
    pub num_h_metrics: u16,
    pub num_glyphs: u16,
    pub bold: bool,
}

impl Face {
    pub fn regular(&self) -> bool {
        !self.bold && !self.info.italic
    }

    /// The nominal glyph of `ch`, or `None` for none or .notdef.
    pub fn glyph(&self, data: &[u8], ch: u32) -> Option<u16> {
        let loc = self.cmap.as_ref()?;
        let table = CmapSubtable::read(FontData::new(data.get(loc.range.clone())?)).ok()?;
        let gid = table.map_codepoint(ch).or_else(|| {
            (loc.symbol && ch <= 0xFF)
                .then(|| table.map_codepoint(0xF000 + ch))
                .flatten()
        })?;
        let gid = u16::try_from(gid.to_u32()).ok()?;
        (gid != 0 && gid < self.num_glyphs).then_some(gid)
    }

    /// The advance of `gid` in font units: glyphs past the last long metric repeat its advance.
    pub fn advance(&self, data: &[u8], gid: u16) -> u16 {
        let i = usize::from(gid.min(self.num_h_metrics.saturating_sub(1)));
        let Some(at) = self.hmtx.start.checked_add(4 * i) else {
            return 0;
        };
        match at.checked_add(2) {
            Some(end) if end <= self.hmtx.end => data
                .get(at..end)
                .map_or(0, |b| u16::from_be_bytes([b[0], b[1]])),
            _ => 0,
        }
    }
}

/// A font file the walk found, as its metadata says: what the index is keyed by.
pub(crate) struct Walked {
    pub path: PathBuf,
    pub stamp: Stamp,
}

/// What tells a file's contents changed without reading them. The change time is there
/// because a chmod that lets the host read a file it could not moves nothing else, and
/// because, unlike the modification time, no tool sets it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub size: u64,
    /// Nanoseconds since the epoch (negative before it); 0 where the platform keeps none.
    pub mtime: i128,
    pub ctime: i128,
}

impl Stamp {
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        use std::time::UNIX_EPOCH;
        let mtime = match meta.modified() {
            Ok(t) => match t.duration_since(UNIX_EPOCH) {
                Ok(d) => d.as_nanos() as i128,
                Err(e) => -(e.duration().as_nanos() as i128),
            },
            Err(_) => 0,
        };
        #[cfg(unix)]
        let ctime = {
            use std::os::unix::fs::MetadataExt;
            i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec())
        };
        #[cfg(not(unix))]
        let ctime = 0;
        Stamp {
            size: meta.len(),
            mtime,
            ctime,
        }
    }
}

/// The font files below the roots, in library order, and what could not be walked.
pub(crate) struct Walk {
    pub files: Vec<Walked>,
    /// Each with the number of files walked before it, so that a library opened from the
    /// index lists them in the same order, among the files' own reasons, as a scan does.
    pub skipped: Vec<(usize, PathBuf, String)>,
}

/// What one file gave: its faces (`file` not yet set) and why anything in it was left out.
#[derive(Default)]
pub(crate) struct Read {
    pub faces: Vec<Face>,
    pub skipped: Vec<String>,
    pub map: Option<Arc<Mmap>>,
    /// How many faces it gave, once they are moved into the library.
    pub kept: usize,
    /// The file opened, which may be newer than the one the walk saw.
    pub stamp: Option<Stamp>,
}

/// What a scan found.
pub(crate) struct Scan {
    pub files: Vec<FontFile>,
    pub faces: Vec<Face>,
    pub skipped: Vec<(PathBuf, String)>,
}

/// Walks the roots in order; each root's files in sorted path order; a file reached twice
/// (through two roots or a symlink) counts once, at its first place. Reads directories
/// and metadata only.
pub(crate) fn walk_roots(roots: &[PathBuf]) -> Walk {
    let mut walk = Walk {
        files: Vec::new(),
        skipped: Vec::new(),
    };
    let mut seen = Seen::default();
    for root in roots {
        let mut paths = Vec::new();
        let mut skipped = Vec::new();
        match std::fs::metadata(root) {
            Ok(meta) if meta.is_dir() => walk_dir(root, 0, &mut paths, &mut skipped),
            // A file named on its own is taken whatever its extension: the operator chose it.
            Ok(meta) if meta.is_file() => paths.push((root.clone(), meta)),
            Ok(_) => skipped.push((root.clone(), "neither a file nor a directory".into())),
            Err(e) => skipped.push((root.clone(), format!("cannot read: {e}"))),
        }
        let before = walk.files.len();
        walk.skipped
            .extend(skipped.into_iter().map(|(p, why)| (before, p, why)));
        paths.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, meta) in paths {
            if seen.first(&path, &meta) {
                walk.files.push(Walked {
                    path,
                    stamp: Stamp::of(&meta),
                });
            }
        }
    }
    walk
}

/// The files kept so far, to tell a file reached a second time: the same file is the same
/// canonical path. Resolving every path costs a `readlink` per component of it (1,700 calls
/// for the Debian fonts), so paths are resolved only when they share
/// an inode with one kept before; a hard link, another path to the same inode, stays a file
/// of its own, as its canonical path is its own.
#[derive(Default)]
struct Seen {
    #[cfg(unix)]
    by_inode: std::collections::HashMap<(u64, u64), Vec<PathBuf>>,
    #[cfg(not(unix))]
    canonical: std::collections::HashSet<PathBuf>,
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Seen {
    #[cfg(unix)]
    fn first(&mut self, path: &Path, meta: &std::fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        let kept = self.by_inode.entry((meta.dev(), meta.ino())).or_default();
        if !kept.is_empty() {
            let key = canonical(path);
            if kept.iter().any(|k| canonical(k) == key) {
                return false;
            }
        }
        kept.push(path.to_path_buf());
        true
    }

    #[cfg(not(unix))]
    fn first(&mut self, path: &Path, _meta: &std::fs::Metadata) -> bool {
        self.canonical.insert(canonical(path))
    }
}

/// Opens and reads every file of the walk: the library as today's files make it, and what
/// each file gave, for the index.
pub(crate) fn scan_walk(walk: &Walk) -> (Scan, Vec<Read>) {
    let mut reads: Vec<Read> = walk.files.iter().map(|w| read_file(&w.path)).collect();
    let mut files = Vec::new();
    let mut faces = Vec::new();
    for (walked, read) in walk.files.iter().zip(&mut reads) {
        let file_index = files.len();
        if !read.faces.is_empty() {
            files.push(FontFile {
                name: file_name(&walked.path),
                path: walked.path.clone(),
                size: read.stamp.map_or(walked.stamp.size, |s| s.size),
                map: OnceLock::from(read.map.take()),
            });
        }
        for face in &mut read.faces {
            face.file = file_index;
        }
        read.kept = read.faces.len();
        faces.append(&mut read.faces);
    }
    let skipped = ordered_skips(walk, |i| &reads[i].skipped);
    let scan = Scan {
        files,
        faces,
        skipped,
    };
    (scan, reads)
}

/// The walk's reasons and the files' own (`of(i)` for the i-th file walked), in the order a
/// scan meets them: a root's directories before its files.
pub(crate) fn ordered_skips<'a>(
    walk: &Walk,
    of: impl Fn(usize) -> &'a [String],
) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut walk_skips = walk.skipped.iter().peekable();
    for (i, walked) in walk.files.iter().enumerate() {
        while let Some((_, path, why)) = walk_skips.next_if(|(at, ..)| *at <= i) {
            out.push((path.clone(), why.clone()));
        }
        for why in of(i) {
            out.push((walked.path.clone(), why.clone()));
        }
    }
    out.extend(walk_skips.map(|(_, p, why)| (p.clone(), why.clone())));
    out
}

fn walk_dir(
    dir: &Path,
    depth: usize,
    out: &mut Vec<(PathBuf, std::fs::Metadata)>,
    skipped: &mut Vec<(PathBuf, String)>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            skipped.push((dir.to_path_buf(), format!("cannot read directory: {e}")));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                walk_dir(&path, depth + 1, out, skipped);
            }
        } else if has_font_extension(&path) {
            // Symlinks are followed to files only: a link to a directory could loop. Others
            // are looked up in the directory already open, not again from the root.
            let meta = if kind.is_symlink() {
                std::fs::metadata(&path)
            } else {
                entry.metadata()
            };
            if let Some(meta) = meta.ok().filter(|m| m.is_file()) {
                out.push((path, meta));
            }
        }
    }
}

fn has_font_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["ttf", "otf", "ttc", "otc"].contains(&e.to_ascii_lowercase().as_str()))
}

fn read_file(path: &Path) -> Read {
    let mut read = Read::default();
    let file = match FsFile::open(path) {
        Ok(file) => file,
        Err(e) => {
            read.skipped.push(format!("cannot open: {e}"));
            return read;
        }
    };
    read.stamp = file.metadata().ok().map(|m| Stamp::of(&m));
    let size = read.stamp.map_or(0, |s| s.size);
    if size < 12 {
        read.skipped
            .push(format!("{size} bytes: too short for a font"));
        return read;
    }
    let map = match map(&file) {
        Ok(map) => map,
        Err(e) => {
            read.skipped.push(format!("cannot map: {e}"));
            return read;
        }
    };
    let fonts: Vec<_> = match FileRef::new(&map) {
        Ok(file) => file.fonts().collect(),
        Err(e) => {
            read.skipped.push(format!("not a font: {e}"));
            return read;
        }
    };
    for (index, font) in fonts.into_iter().enumerate() {
        let index = index as u32;
        let face = font
            .map_err(|e| e.to_string())
            .and_then(|font| read_face(&map, &font, 0, index));
        match face {
            Ok(face) => read.faces.push(face),
            Err(e) => read.skipped.push(format!("face {index}: {e}")),
        }
    }
    if !read.faces.is_empty() {
        read.map = Some(map);
    }
    read
}

fn read_face(data: &[u8], font: &FontRef, file: usize, index: u32) -> Result<Face, String> {
    let has = |tag: &[u8; 4]| font.table_data(Tag::new(tag)).is_some();
    let cff = has(b"CFF ");
    if !cff && !has(b"glyf") {
        return Err(if has(b"CFF2") {
            "CFF2 outlines: cannot be embedded".into()
        } else {
            "no glyf or CFF outlines (bitmap-only): cannot be embedded".into()
        });
    }
    if !cff && !has(b"loca") {
        return Err("glyf without loca".into());
    }
    let err = |table: &'static str| move |e: read_fonts::ReadError| format!("{table}: {e}");
    let head = font.head().map_err(err("head"))?;
    let hhea = font.hhea().map_err(err("hhea"))?;
    let maxp = font.maxp().map_err(err("maxp"))?;
    let name = font.name().map_err(err("name"))?;
    let os2 = font.os2().ok();
    let post = font.post().ok();
    let hmtx = font.table_data(Tag::new(b"hmtx")).ok_or("no hmtx table")?;
    let num_glyphs = maxp.num_glyphs();
    let num_h_metrics = hhea.number_of_h_metrics();
    if num_glyphs == 0 || num_h_metrics == 0 {
        return Err("no glyphs or no horizontal metrics".into());
    }
    if hmtx.len() < 4 * usize::from(num_h_metrics) {
        return Err("hmtx shorter than hhea says".into());
    }

    let family = name_string(&name, NameId::TYPOGRAPHIC_FAMILY_NAME)
        .or_else(|| name_string(&name, NameId::FAMILY_NAME))
        .ok_or("no family name")?;
    let postscript_name = name_string(&name, NameId::POSTSCRIPT_NAME).unwrap_or_default();
    let mac = head.mac_style().bits();
    let weight = match os2.as_ref().map(|t| t.us_weight_class()) {
        Some(w) if w > 0 => w,
        _ if mac & 1 != 0 => 700,
        _ => 400,
    };
    let italic = match &os2 {
        Some(t) => t
            .fs_selection()
            .intersects(SelectionFlags::ITALIC | SelectionFlags::OBLIQUE),
        None => mac & 2 != 0,
    };
    let monospace = post.as_ref().is_some_and(|p| p.is_fixed_pitch() != 0)
        // PANOSE Latin text, proportion "monospaced".
        || os2
            .as_ref()
            .is_some_and(|t| t.panose_10().first() == Some(&2) && t.panose_10().get(3) == Some(&9));
    let ascent = hhea.ascender().to_i16();
    let cap_height = os2
        .as_ref()
        .and_then(|t| t.s_cap_height())
        .filter(|&c| c > 0)
        // Fonts older than OS/2 version 2 do not say; 70% of the ascent is the usual guess.
        .unwrap_or((i32::from(ascent) * 7 / 10) as i16);

    let info = FaceInfo {
        family,
        postscript_name,
        weight,
        italic,
        monospace,
        units_per_em: head.units_per_em(),
        ascent,
        descent: hhea.descender().to_i16(),
        cap_height,
        italic_angle: post.as_ref().map_or(0.0, |p| p.italic_angle().to_f32()),
        bbox: [head.x_min(), head.y_min(), head.x_max(), head.y_max()],
        cff,
        notdef_advance: hmtx
            .as_bytes()
            .get(..2)
            .map_or(0, |b| u16::from_be_bytes([b[0], b[1]])),
    };
    Ok(Face {
        bold: weight >= 600,
        info,
        file,
        index,
        cmap: find_cmap(data, font),
        hmtx: offset_in(data, hmtx.as_bytes()),
        num_h_metrics,
        num_glyphs,
    })
}

/// The byte range `part` occupies in `base` (both borrowed from the same map).
fn offset_in(base: &[u8], part: &[u8]) -> Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(base.as_ptr() as usize);
    start..start + part.len()
}

/// The Unicode subtable to look characters up in: full-repertoire ones before BMP ones, and a
/// symbol subtable only when there is nothing else (it is for fonts like Wingdings).
fn find_cmap(data: &[u8], font: &FontRef) -> Option<CmapLoc> {
    let cmap = font.cmap().ok()?;
    let cmap_bytes = cmap.offset_data().as_bytes();
    let cmap_end = offset_in(data, cmap_bytes).end;
    const PREFERENCE: [(u16, u16); 9] = [
        (3, 10),
        (0, 6),
        (0, 4),
        (3, 1),
        (0, 3),
        (0, 2),
        (0, 1),
        (0, 0),
        (3, 0),
    ];
    let records = cmap.encoding_records();
    for (platform, encoding) in PREFERENCE {
        for record in records {
            let platform_id = match record.platform_id() {
                PlatformId::Unicode => 0,
                PlatformId::Windows => 3,
                _ => continue,
            };
            if platform_id != platform || record.encoding_id() != encoding {
                continue;
            }
            let Ok(sub) = record.subtable(cmap.offset_data()) else {
                continue;
            };
            if !matches!(
                sub,
                CmapSubtable::Format4(_)
                    | CmapSubtable::Format6(_)
                    | CmapSubtable::Format10(_)
                    | CmapSubtable::Format12(_)
                    | CmapSubtable::Format13(_)
                    | CmapSubtable::Format0(_)
            ) {
                continue;
            }
            let start = offset_in(data, sub.offset_data().as_bytes()).start;
            return Some(CmapLoc {
                range: start..cmap_end.max(start),
                symbol: (platform, encoding) == (3, 0),
            });
        }
    }
    None
}

/// A name-table string, English (Windows 0x409, then Mac English) first, else the first
/// Unicode one.
fn name_string(name: &read_fonts::tables::name::Name, id: NameId) -> Option<String> {
    let data = name.string_data();
    let records = name.name_record();
    let rank = |r: &read_fonts::tables::name::NameRecord| match (r.platform_id(), r.language_id()) {
        (3, 0x409) => 0,
        (3, _) | (0, _) => 1,
        (1, 0) => 2,
        _ => 3,
    };
    let best = records
        .iter()
        .filter(|r| r.name_id() == id && rank(r) < 3)
        .min_by_key(|r| rank(r))?;
    let s: String = best.string(data).ok()?.chars().collect();
    let s = s.trim().to_string();
    (!s.is_empty()).then_some(s)
}
