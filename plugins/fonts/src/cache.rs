//! The library's index on disk: what a scan read from every face, keyed by the files it read,
//! so that a process can open the library by walking the roots (directories and metadata)
//! without opening a font file.
//!
//! The key is a digest of the walk (every file's path, size, modification and change times,
//! in library order), of this format and of the source of the code that reads faces and
//! writes this: a build that reads faces differently never takes an index another build
//! wrote, even at the same crate version. Whatever the index says is bounds-checked when
//! used (`Face::glyph` and `Face::advance` slice with `get`), and ranges past the file's
//! indexed size make the whole index count as corrupt; a file found at another size when it
//! is first mapped has no glyphs ([`crate::index::FontFile::data`]).

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::index::{CmapLoc, Face, FontFile, Read, Scan, Walk};
use crate::FaceInfo;

/// Bumped when the layout below changes meaning without changing the source hashed below
/// (never, so far: kept so that a reader can tell on purpose).
const FORMAT: u32 = 1;
/// An index larger than this is not one this code wrote (a few hundred KB for every font
/// of a Debian desktop).
const MAX_INDEX: u64 = 32 << 20;

/// FNV-1a, evaluated at compile time: the identity of the code whose output is stored.
const fn fnv1a(bytes: &[u8], mut hash: u64) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x100_0000_01b3);
        i += 1;
    }
    hash
}
const SOURCE: u64 = fnv1a(
    include_bytes!("cache.rs"),
    fnv1a(include_bytes!("index.rs"), 0xcbf2_9ce4_8422_2325),
);

#[derive(Serialize, Deserialize)]
struct Stored {
    key: String,
    /// One per file walked, in walk order, whether or not it gave a face.
    files: Vec<StoredFile>,
}

#[derive(Serialize, Deserialize)]
struct StoredFile {
    skipped: Vec<String>,
    faces: Vec<StoredFace>,
}

#[derive(Serialize, Deserialize)]
struct StoredFace {
    index: u32,
    family: String,
    postscript_name: String,
    weight: u16,
    italic: bool,
    monospace: bool,
    units_per_em: u16,
    ascent: i16,
    descent: i16,
    cap_height: i16,
    italic_angle: f32,
    bbox: [i16; 4],
    cff: bool,
    notdef_advance: u16,
    /// Start, end, and whether it is a symbol subtable.
    cmap: Option<(usize, usize, bool)>,
    hmtx: (usize, usize),
    num_h_metrics: u16,
    num_glyphs: u16,
    bold: bool,
}

/// The index file of a set of roots: its own per set, so that hosts or commands with other
/// roots sharing a cache directory do not replace each other's index on every start.
pub(crate) fn file_name(roots: &[PathBuf]) -> String {
    let mut hash = Sha256::new();
    for root in roots {
        let bytes = path_bytes(root);
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(&bytes);
    }
    let digest = hash.finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("fonts-index-{hex}.json")
}

fn path_bytes(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned().into_bytes()
    }
}

fn key(walk: &Walk) -> String {
    let mut hash = Sha256::new();
    hash.update(FORMAT.to_be_bytes());
    hash.update(env!("CARGO_PKG_VERSION").as_bytes());
    hash.update(b"\0");
    hash.update(SOURCE.to_be_bytes());
    hash.update((walk.files.len() as u64).to_be_bytes());
    for file in &walk.files {
        let bytes = path_bytes(&file.path);
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(&bytes);
        hash.update(file.stamp.size.to_be_bytes());
        hash.update(file.stamp.mtime.to_be_bytes());
        hash.update(file.stamp.ctime.to_be_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The library the index describes, if it was written for exactly these files; else why not.
pub(crate) fn load(walk: &Walk, bytes: &[u8]) -> Result<Scan, String> {
    let stored: Stored =
        serde_json::from_slice(bytes).map_err(|e| format!("unreadable index: {e}"))?;
    if stored.key != key(walk) {
        return Err("the font files (or this build) changed since it was written".into());
    }
    if stored.files.len() != walk.files.len() {
        return Err("corrupt index: another number of files".into());
    }
    let mut files = Vec::new();
    let mut faces = Vec::new();
    for (walked, file) in walk.files.iter().zip(&stored.files) {
        if file.faces.is_empty() {
            continue;
        }
        let size = usize::try_from(walked.stamp.size).unwrap_or(usize::MAX);
        let within = |(start, end): (usize, usize)| start <= end && end <= size;
        for face in &file.faces {
            if !within(face.hmtx) || !face.cmap.is_none_or(|(s, e, _)| within((s, e))) {
                return Err("corrupt index: a range past the end of its file".into());
            }
            faces.push(face_of(face, files.len()));
        }
        files.push(FontFile::unmapped(walked.path.clone(), walked.stamp.size));
    }
    let skipped = crate::index::ordered_skips(walk, |i| &stored.files[i].skipped);
    Ok(Scan {
        files,
        faces,
        skipped,
    })
}

fn face_of(f: &StoredFace, file: usize) -> Face {
    Face {
        info: FaceInfo {
            family: f.family.clone(),
            postscript_name: f.postscript_name.clone(),
            weight: f.weight,
            italic: f.italic,
            monospace: f.monospace,
            units_per_em: f.units_per_em,
            ascent: f.ascent,
            descent: f.descent,
            cap_height: f.cap_height,
            italic_angle: f.italic_angle,
            bbox: f.bbox,
            cff: f.cff,
            notdef_advance: f.notdef_advance,
        },
        file,
        index: f.index,
        cmap: f.cmap.map(|(start, end, symbol)| CmapLoc {
            range: start..end,
            symbol,
        }),
        hmtx: f.hmtx.0..f.hmtx.1,
        num_h_metrics: f.num_h_metrics,
        num_glyphs: f.num_glyphs,
        bold: f.bold,
    }
}

/// The index of what a scan of `walk` read (`reads`, one per file, and the faces they
/// gave, in order), or why there is none: a file that changed between the walk and its reading would
/// be stored under the key of the file it no longer is.
pub(crate) fn encode(walk: &Walk, reads: &[Read], faces: &[Face]) -> Result<Vec<u8>, String> {
    let mut files = Vec::with_capacity(reads.len());
    let mut at = 0;
    for (walked, read) in walk.files.iter().zip(reads) {
        if read.stamp.is_some_and(|s| s != walked.stamp) {
            return Err(format!(
                "{} changed while it was read",
                walked.path.display()
            ));
        }
        let kept = faces.get(at..at + read.kept).ok_or("faces miscounted")?;
        at += read.kept;
        files.push(StoredFile {
            skipped: read.skipped.clone(),
            faces: kept.iter().map(stored_face).collect(),
        });
    }
    let stored = Stored {
        key: key(walk),
        files,
    };
    serde_json::to_vec(&stored).map_err(|e| e.to_string())
}

fn stored_face(f: &Face) -> StoredFace {
    let i = &f.info;
    StoredFace {
        index: f.index,
        family: i.family.clone(),
        postscript_name: i.postscript_name.clone(),
        weight: i.weight,
        italic: i.italic,
        monospace: i.monospace,
        units_per_em: i.units_per_em,
        ascent: i.ascent,
        descent: i.descent,
        cap_height: i.cap_height,
        italic_angle: i.italic_angle,
        bbox: i.bbox,
        cff: i.cff,
        notdef_advance: i.notdef_advance,
        cmap: f
            .cmap
            .as_ref()
            .map(|c| (c.range.start, c.range.end, c.symbol)),
        hmtx: (f.hmtx.start, f.hmtx.end),
        num_h_metrics: f.num_h_metrics,
        num_glyphs: f.num_glyphs,
        bold: f.bold,
    }
}

/// The index `name` in `dir`, if it is a file of this user's that nobody else may write
/// (and not a link to one): anyone else could otherwise tell the library what its faces are.
pub(crate) fn read(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    let path = dir.join(name);
    // Non-blocking: a FIFO planted under the name must not hang the opening.
    #[cfg(unix)]
    let opened = rustix::fs::open(
        &path,
        rustix::fs::OFlags::RDONLY
            | rustix::fs::OFlags::NOFOLLOW
            | rustix::fs::OFlags::NONBLOCK
            | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .map(File::from)
    .map_err(std::io::Error::from);
    #[cfg(not(unix))]
    let opened = File::open(&path);
    let file = match opened {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err("none stored".into()),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() || !private(&meta) {
        return Err("not a file of this user's that only it may write".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_INDEX)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    Ok(bytes)
}

#[cfg(unix)]
fn private(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.mode() & 0o022 == 0 && meta.uid() == rustix::process::geteuid().as_raw()
}

#[cfg(not(unix))]
fn private(_meta: &std::fs::Metadata) -> bool {
    true
}

/// Replaces `name` in `dir` (made, 0700, if missing) with `body`: written whole to a new
/// file (exclusive creation, 0600, so no name someone else made is written through) and
/// renamed into place, so a reader sees the old index or the new one.
pub(crate) fn write(dir: &Path, name: &str, body: &[u8]) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)?;
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!("{name}.tmp{}-{n}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file: File = options.open(&tmp)?;
    let written = file
        .write_all(body)
        .and_then(|()| std::fs::rename(&tmp, dir.join(name)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
