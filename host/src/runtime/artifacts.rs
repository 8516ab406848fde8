//! The compile cache on disk: machine code this host produced, sealed so it never loads
//! code it did not produce, and opened without reading it whole when the seal allows.
//!
//! Each artifact `NAME.cwasm` (exactly what wasmtime serialized, so it can be mapped
//! in place) has a sidecar `NAME.seal` of two keyed BLAKE3 MACs under the host's cache key:
//! - the *content* MAC over the name and every byte of the artifact;
//! - the *stamp* MAC over the name and the file's identity as the kernel keeps it (device,
//!   inode, size, modification and change times).
//!
//! Two checks stand between a file and the engine. The file must be owned by this
//! process's user and writable by nobody else: only this user (who could as well alter the
//! running process) can change it, before or after the check. And it must carry this
//! host's seal: an artifact from another installation, a copied data directory, a file
//! renamed to another component's name or damaged on disk is never loaded. When the stamp
//! still matches, the file is mapped without hashing its megabytes (what makes a one-off
//! `quire convert` start at once); any rewrite or replacement moves the change time, which
//! no process can set back, and the next open hashes the file whole again.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

const SEAL_LEN: usize = 64;
/// The cache's sealing key, 64 hex digits, readable by this user alone.
const KEY_FILE: &str = "seal.key";

/// A verified artifact, ready to be deserialized.
pub enum Artifact {
    /// The stamp matched: the open file itself, to be mapped in place.
    Sealed(File),
    /// The stamp did not (a copied or restored file, a seal from a racing writer): the
    /// bytes were read and their content MAC checked, so these bytes are the ones to use.
    Read(Vec<u8>),
}

/// Why a cached artifact was not used; the caller compiles afresh and replaces it.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("not cached")]
    Missing,
    #[error("its file may be written by another user (owner or mode)")]
    Exposed,
    #[error("its seal is missing or does not match its bytes")]
    BadSeal,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub struct ArtifactCache {
    dir: PathBuf,
    key: [u8; 32],
}

impl ArtifactCache {
    /// A cache under a given key (the tests' way to play two installations).
    #[cfg(test)]
    fn new(dir: PathBuf, key: [u8; 32]) -> ArtifactCache {
        ArtifactCache { dir, key }
    }

    /// The cache in `dir`, created if need be, with the key kept beside its artifacts: the
    /// installations that share a directory (`QUIRE_CACHE_DIR`) share its key, so what one
    /// compiled the others load, and a directory copied from elsewhere brings nothing the
    /// seal of this one vouches for unless its key came too.
    pub fn open_dir(dir: PathBuf) -> anyhow::Result<ArtifactCache> {
        create_private_dir(&dir)
            .with_context(|| format!("creating the compile cache {}", dir.display()))?;
        let key = load_or_create_key(&dir.join(KEY_FILE))?;
        Ok(ArtifactCache { dir, key })
    }

    fn paths(&self, name: &str) -> (PathBuf, PathBuf) {
        (
            self.dir.join(format!("{name}.cwasm")),
            self.dir.join(format!("{name}.seal")),
        )
    }

    /// The artifact `name`, if it is in the cache and sealed by this host.
    pub fn open(&self, name: &str) -> Result<Artifact, Refusal> {
        let (path, seal_path) = self.paths(name);
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Refusal::Missing),
            Err(e) => return Err(e.into()),
        };
        let meta = file.metadata()?;
        if !meta.is_file() || !private_to_us(&meta) {
            return Err(Refusal::Exposed);
        }
        let seal = read_seal(&seal_path).ok_or(Refusal::BadSeal)?;
        let (content_mac, stamp_mac) = seal.split_at(32);
        if let Some(stamp) = self.stamp(name, &meta) {
            if constant_time_eq(&stamp, stamp_mac) {
                return Ok(Artifact::Sealed(file));
            }
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.read_to_end(&mut bytes)?;
        if !constant_time_eq(self.content(name, &bytes).as_bytes(), content_mac) {
            return Err(Refusal::BadSeal);
        }
        // Genuine but re-stamped since (copied, restored, touched): seal it as it is now so
        // the next start maps it without reading. Failing that only costs the next start.
        if let Err(e) = self.write_seal(name, &seal_path, content_mac, &file) {
            tracing::debug!("compiled artifact {name} not re-sealed: {e:#}");
        }
        Ok(Artifact::Read(bytes))
    }

    /// Removes what no host of this build opens again, once it is `grace` old: artifacts
    /// named for an engine not in `engines` (the compatibility hashes of this build's
    /// engines: an earlier build compiled the others), and the temporary files of writers
    /// that died. A host of another build sharing the directory compiles what it still
    /// needs again. Returns how many files were removed.
    pub fn prune(&self, engines: &[String], grace: std::time::Duration) -> std::io::Result<usize> {
        let now = std::time::SystemTime::now();
        let mut removed = 0;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let file_name = entry.file_name();
            let Some(file_name) = file_name.to_str() else {
                continue;
            };
            let stale = match file_name.split_once(".tmp") {
                Some((written, _)) => {
                    artifact_engine(written).is_some()
                        || [KEY_FILE, "plugin-files"].contains(&written)
                }
                None => artifact_engine(file_name)
                    .is_some_and(|engine| !engines.iter().any(|e| e == engine)),
            };
            let old_enough = || {
                entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| now.duration_since(t).ok())
                    .is_some_and(|age| age >= grace)
            };
            if stale && old_enough() && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Stores `body` as artifact `name`, replacing any earlier one.
    pub fn store(&self, name: &str, body: &[u8]) -> std::io::Result<()> {
        let (path, seal_path) = self.paths(name);
        let tmp = temporary(&path);
        let result = (|| {
            let mut file = create_private(&tmp)?;
            file.write_all(body)?;
            std::fs::rename(&tmp, &path)?;
            // The rename changed the inode's change time: stamp the file as it is now.
            let content = self.content(name, body);
            self.write_seal(name, &seal_path, content.as_bytes(), &file)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    fn write_seal(
        &self,
        name: &str,
        seal_path: &Path,
        content_mac: &[u8],
        file: &File,
    ) -> std::io::Result<()> {
        let meta = file.metadata()?;
        let mut seal = Vec::with_capacity(SEAL_LEN);
        seal.extend_from_slice(content_mac);
        // Where the kernel keeps no stamp, the seal holds zeros and every open hashes.
        let stamp = self.stamp(name, &meta).unwrap_or([0; 32]);
        seal.extend_from_slice(&stamp);
        let tmp = temporary(seal_path);
        let written = create_private(&tmp)
            .and_then(|mut f| f.write_all(&seal))
            .and_then(|()| std::fs::rename(&tmp, seal_path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    fn content(&self, name: &str, body: &[u8]) -> blake3::Hash {
        let mut h = blake3::Hasher::new_keyed(&self.key);
        h.update(b"quire artifact content\0");
        h.update(name.as_bytes());
        h.update(b"\0");
        h.update(body);
        h.finalize()
    }

    #[cfg(unix)]
    fn stamp(&self, name: &str, meta: &std::fs::Metadata) -> Option<[u8; 32]> {
        use std::os::unix::fs::MetadataExt;
        let mut h = blake3::Hasher::new_keyed(&self.key);
        h.update(b"quire artifact stamp\0");
        h.update(name.as_bytes());
        h.update(b"\0");
        for n in [
            meta.dev(),
            meta.ino(),
            meta.size(),
            meta.mtime() as u64,
            meta.mtime_nsec() as u64,
            meta.ctime() as u64,
            meta.ctime_nsec() as u64,
        ] {
            h.update(&n.to_le_bytes());
        }
        Some(*h.finalize().as_bytes())
    }

    #[cfg(not(unix))]
    fn stamp(&self, _name: &str, _meta: &std::fs::Metadata) -> Option<[u8; 32]> {
        None
    }
}

/// The engine an artifact's or seal's file name (`DIGEST-ENGINE.cwasm`, `.seal`) names. Any
/// other name is not ours: pruning leaves it alone, whatever else the directory holds.
fn artifact_engine(file_name: &str) -> Option<&str> {
    let stem = file_name
        .strip_suffix(".cwasm")
        .or_else(|| file_name.strip_suffix(".seal"))?;
    let (digest, engine) = stem.split_once('-')?;
    let hex = |s: &str, len| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hex(digest, 64) && hex(engine, 16)).then_some(engine)
}

/// The key in `path`, or a new one written there if there is none. Several hosts may start
/// on one directory at once: a key is written whole under a temporary name, then linked
/// into place only if no other got there first, and then that one is used.
fn load_or_create_key(path: &Path) -> anyhow::Result<[u8; 32]> {
    // Each round ends with a key unless another writer raced this one; eight races in a
    // row mean something else keeps writing there.
    for _ in 0..8 {
        match File::open(path) {
            Ok(file) => match read_key(path, file)? {
                Some(key) => return Ok(key),
                // The cache is disposable: under a new key its artifacts are recompiled.
                None => {
                    tracing::warn!(
                        "{} is not a compile cache key (64 hex digits): replacing it",
                        path.display()
                    );
                    match std::fs::remove_file(path) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                            return Err(e).with_context(|| format!("removing {}", path.display()))
                        }
                        _ => continue,
                    }
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
        let key: [u8; 32] = rand::random();
        let tmp = temporary(path);
        let linked = create_private(&tmp)
            .and_then(|mut f| {
                f.write_all(hex::encode(key).as_bytes())?;
                f.sync_all()
            })
            .and_then(|()| std::fs::hard_link(&tmp, path));
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => return Ok(key),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("writing the key {}", path.display())),
        }
    }
    bail!(
        "the compile cache key {} keeps changing under this host",
        path.display()
    )
}

/// The key in `file`, or none if it holds no key; an error if another user may touch it.
fn read_key(path: &Path, mut file: File) -> anyhow::Result<Option<[u8; 32]>> {
    let meta = file.metadata()?;
    if !meta.is_file() || !secret_to_us(&meta) {
        bail!(
            "the compile cache key {} may be read or written by another user: make it this user's with mode 600, or remove it (the cache then recompiles)",
            path.display()
        );
    }
    let mut text = Vec::new();
    (&mut file)
        .take(128)
        .read_to_end(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    let mut key = [0u8; 32];
    Ok(hex::decode_to_slice(text.trim_ascii(), &mut key)
        .ok()
        .map(|()| key))
}

fn read_seal(path: &Path) -> Option<[u8; SEAL_LEN]> {
    let mut seal = [0u8; SEAL_LEN];
    let mut f = File::open(path).ok()?;
    f.read_exact(&mut seal).ok()?;
    // A longer file is not a seal we wrote.
    matches!(f.read(&mut [0u8; 1]), Ok(0)).then_some(seal)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    subtle::ConstantTimeEq::ct_eq(a, b).into()
}

/// A name beside `path` no other writer uses: hosts may share the directory, and threads
/// of one host may write the same artifact at once.
fn temporary(path: &Path) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".tmp{}-{n}", std::process::id()));
    PathBuf::from(name)
}

#[cfg(unix)]
fn create_private(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn create_private(path: &Path) -> std::io::Result<File> {
    File::create(path)
}

#[cfg(unix)]
fn create_private_dir(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
}

#[cfg(not(unix))]
fn create_private_dir(path: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(path)
}

/// Owned by this process's user, and neither readable nor writable by anyone else.
fn secret_to_us(meta: &std::fs::Metadata) -> bool {
    ours_without(meta, 0o077)
}

/// Owned by this process's user and writable by nobody else.
fn private_to_us(meta: &std::fs::Metadata) -> bool {
    ours_without(meta, 0o022)
}

/// Owned by this process's user, with none of the permission bits in `denied`.
#[cfg(unix)]
fn ours_without(meta: &std::fs::Metadata, denied: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.uid() == rustix::process::geteuid().as_raw() && meta.mode() & denied == 0
}

#[cfg(not(unix))]
fn ours_without(_meta: &std::fs::Metadata, _denied: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(dir: &Path, key: u8) -> ArtifactCache {
        ArtifactCache::new(dir.to_path_buf(), [key; 32])
    }

    fn opened(c: &ArtifactCache, name: &str) -> Result<(&'static str, Vec<u8>), String> {
        match c.open(name) {
            Ok(Artifact::Sealed(mut f)) => {
                let mut bytes = Vec::new();
                f.read_to_end(&mut bytes).unwrap();
                Ok(("sealed", bytes))
            }
            Ok(Artifact::Read(bytes)) => Ok(("read", bytes)),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn a_stored_artifact_opens_by_its_stamp_without_being_read() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1);
        c.store("a", b"machine code").unwrap();
        assert_eq!(opened(&c, "a"), Ok(("sealed", b"machine code".to_vec())));
        assert_eq!(opened(&c, "b"), Err("not cached".into()));
    }

    #[test]
    fn a_copied_artifact_is_hashed_once_then_sealed_again() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1);
        c.store("a", b"machine code").unwrap();
        let path = dir.path().join("a.cwasm");
        let copy = dir.path().join("copy");
        std::fs::copy(&path, &copy).unwrap();
        std::fs::rename(&copy, &path).unwrap();
        assert_eq!(opened(&c, "a"), Ok(("read", b"machine code".to_vec())));
        assert_eq!(opened(&c, "a"), Ok(("sealed", b"machine code".to_vec())));
    }

    #[test]
    fn rewritten_bytes_of_the_same_size_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1);
        c.store("a", b"machine code").unwrap();
        let path = dir.path().join("a.cwasm");
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        // File times advance with the kernel's coarse clock: let it tick once.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, b"evil payload").unwrap();
        // Setting the modification time back does not help: the change time moved.
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        assert_eq!(opened(&c, "a"), Err(Refusal::BadSeal.to_string()));
    }

    #[test]
    fn another_hosts_artifact_or_another_names_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        cache(dir.path(), 2).store("a", b"machine code").unwrap();
        assert_eq!(
            opened(&cache(dir.path(), 1), "a"),
            Err(Refusal::BadSeal.to_string())
        );
        let c = cache(dir.path(), 1);
        c.store("b", b"other code").unwrap();
        for ext in ["cwasm", "seal"] {
            std::fs::copy(
                dir.path().join(format!("b.{ext}")),
                dir.path().join(format!("a.{ext}")),
            )
            .unwrap();
        }
        assert_eq!(opened(&c, "a"), Err(Refusal::BadSeal.to_string()));
    }

    #[test]
    fn pruning_removes_other_engines_artifacts_and_dead_writers_files_once_old() {
        let dir = tempfile::tempdir().unwrap();
        let c = ArtifactCache::open_dir(dir.path().to_path_buf()).unwrap();
        let digest = "ab".repeat(32);
        let (current, earlier) = ("0123456789abcdef", "fedcba9876543210");
        c.store(&format!("{digest}-{current}"), b"ours").unwrap();
        c.store(&format!("{digest}-{earlier}"), b"an older build's")
            .unwrap();
        let dead_writer = format!("{digest}-{current}.cwasm.tmp7-0");
        // Files the cache did not write (the directory may hold others): left alone.
        let others = ["plugin-files.tsv", "notes.tmp", "a-b.cwasm", "x.seal"];
        for name in [dead_writer.as_str()].iter().chain(&others) {
            std::fs::write(dir.path().join(name), b"bytes").unwrap();
        }
        let files = || {
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            names.sort();
            names
        };
        let engines = [current.to_string()];
        let day = std::time::Duration::from_secs(86_400);
        assert_eq!(c.prune(&engines, day).unwrap(), 0, "nothing is a day old");
        assert_eq!(c.prune(&engines, std::time::Duration::ZERO).unwrap(), 3);
        let mut kept = vec![
            format!("{digest}-{current}.cwasm"),
            format!("{digest}-{current}.seal"),
            KEY_FILE.to_string(),
        ];
        kept.extend(others.iter().map(|o| o.to_string()));
        kept.sort();
        assert_eq!(files(), kept);
        let name = format!("{digest}-{current}");
        assert_eq!(opened(&c, &name), Ok(("sealed", b"ours".to_vec())));
    }

    #[test]
    fn caches_opened_on_one_directory_share_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let first = ArtifactCache::open_dir(dir.path().join("cache")).unwrap();
        first.store("a", b"machine code").unwrap();
        let second = ArtifactCache::open_dir(dir.path().join("cache")).unwrap();
        assert_eq!(
            opened(&second, "a"),
            Ok(("sealed", b"machine code".to_vec()))
        );
        let elsewhere = ArtifactCache::open_dir(dir.path().join("other")).unwrap();
        assert_ne!(elsewhere.key, first.key);
    }

    #[test]
    fn hosts_starting_together_on_a_new_directory_agree_on_one_key() {
        let dir = tempfile::tempdir().unwrap();
        let keys: Vec<[u8; 32]> = std::thread::scope(|s| {
            let opening: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        ArtifactCache::open_dir(dir.path().to_path_buf())
                            .unwrap()
                            .key
                    })
                })
                .collect();
            opening.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_key_others_may_read_is_refused_and_a_damaged_one_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let first = ArtifactCache::open_dir(dir.path().to_path_buf()).unwrap();
        first.store("a", b"machine code").unwrap();
        let key = dir.path().join(KEY_FILE);
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = ArtifactCache::open_dir(dir.path().to_path_buf())
            .err()
            .unwrap();
        assert!(err.to_string().contains("another user"), "{err:#}");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(&key, b"\xff not a key").unwrap();
        let replaced = ArtifactCache::open_dir(dir.path().to_path_buf()).unwrap();
        assert_ne!(replaced.key, first.key);
        // What the old key sealed is refused, and compiled again by the caller.
        assert_eq!(opened(&replaced, "a"), Err(Refusal::BadSeal.to_string()));
    }

    #[cfg(unix)]
    #[test]
    fn an_artifact_others_may_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1);
        c.store("a", b"machine code").unwrap();
        let path = dir.path().join("a.cwasm");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert_eq!(opened(&c, "a"), Err(Refusal::Exposed.to_string()));
    }
}
