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
//!
//! Both checks are of the file opened, in a directory only this user may write
//! ([`CacheDir`]): a name that is a link, to an uploaded blob say, is never followed, and
//! no file is written where a name already stood.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use super::cache_dir::{is_link, same_file, temporary, CacheDir};

const SEAL_LEN: usize = 64;
/// The cache's sealing key, 64 hex digits, readable by this user alone.
const KEY_FILE: &str = "seal.key";
/// The most a sealed file of host state ([`ArtifactCache::read_sealed`]) may hold.
const SEALED_MAX: u64 = 16 << 20;

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
    #[error("its name is a link, or its file may be written by another user (owner or mode)")]
    Exposed,
    #[error("its seal is missing or does not match its bytes")]
    BadSeal,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub struct ArtifactCache {
    dir: CacheDir,
    key: [u8; 32],
}

impl ArtifactCache {
    /// A cache under a given key (the tests' way to play two installations).
    #[cfg(test)]
    fn new(dir: PathBuf, key: [u8; 32]) -> ArtifactCache {
        let dir = CacheDir::open(&dir).unwrap();
        ArtifactCache { dir, key }
    }

    /// The cache in `dir`, created if need be, with the key kept beside its artifacts: the
    /// installations that share a directory (`QUIRE_CACHE_DIR`) share its key, so what one
    /// compiled the others load, and a directory copied from elsewhere brings nothing the
    /// seal of this one vouches for unless its key came too. An error if the directory is
    /// not this user's alone to write ([`CacheDir::open`]).
    pub fn open_dir(dir: PathBuf) -> anyhow::Result<ArtifactCache> {
        let dir = CacheDir::open(&dir)?;
        let key = load_or_create_key(&dir)?;
        Ok(ArtifactCache { dir, key })
    }

    fn names(name: &str) -> (String, String) {
        (format!("{name}.cwasm"), format!("{name}.seal"))
    }

    /// The artifact `name`, if it is in the cache and sealed by this host.
    pub fn open(&self, name: &str) -> Result<Artifact, Refusal> {
        let (file_name, seal_name) = Self::names(name);
        let mut file = self.open_ours(&file_name)?.ok_or(Refusal::Missing)?;
        let meta = file.metadata()?;
        let seal = read_seal(&self.dir, &seal_name).ok_or(Refusal::BadSeal)?;
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
        if let Err(e) = self.write_seal(name, &seal_name, content_mac, &file) {
            tracing::debug!("compiled artifact {name} not re-sealed: {e:#}");
        }
        Ok(Artifact::Read(bytes))
    }

    /// The file `name` opened, if there is one: a file (no link) this user owns and nobody
    /// else may write, as the descriptor shows, whatever the name names by now.
    fn open_ours(&self, name: &str) -> Result<Option<File>, Refusal> {
        let file = match self.dir.open_file(name) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if is_link(&e) => return Err(Refusal::Exposed),
            Err(e) => return Err(e.into()),
        };
        let meta = file.metadata()?;
        if !meta.is_file() || !private_to_us(&meta) {
            return Err(Refusal::Exposed);
        }
        Ok(Some(file))
    }

    /// A file of host state kept beside the artifacts, if this host's key sealed it. What
    /// a file says may decide how code runs (`plugin-files.tsv`: which converters run
    /// without fuel), so one this host did not write counts as none: a refusal, for the
    /// caller to log before it goes on without.
    pub fn read_sealed(&self, name: &str) -> Result<Option<Vec<u8>>, Refusal> {
        let Some(file) = self.open_ours(name)? else {
            return Ok(None);
        };
        let mut text = Vec::new();
        file.take(SEALED_MAX).read_to_end(&mut text)?;
        let (mac, body) = text.split_at_checked(65).ok_or(Refusal::BadSeal)?;
        let mut expected = hex::encode(self.sealed_mac(name, body).as_bytes()).into_bytes();
        expected.push(b'\n');
        if !constant_time_eq(mac, &expected) {
            return Err(Refusal::BadSeal);
        }
        Ok(Some(body.to_vec()))
    }

    /// Replaces the file `name` with `body`, sealed (64 hex digits of its MAC and a newline
    /// before it), for [`ArtifactCache::read_sealed`].
    pub fn write_sealed(&self, name: &str, body: &[u8]) -> std::io::Result<()> {
        let mut text = hex::encode(self.sealed_mac(name, body).as_bytes()).into_bytes();
        text.push(b'\n');
        text.extend_from_slice(body);
        self.replace(name, &text).map(drop)
    }

    fn sealed_mac(&self, name: &str, body: &[u8]) -> blake3::Hash {
        let mut h = blake3::Hasher::new_keyed(&self.key);
        h.update(b"quire sealed file\0");
        h.update(name.as_bytes());
        h.update(b"\0");
        h.update(body);
        h.finalize()
    }

    /// Removes what no host of this build opens again, once it is `grace` old: artifacts
    /// named for an engine not in `engines` (the compatibility hashes of this build's
    /// engines: an earlier build compiled the others), and the temporary files of writers
    /// that died. A host of another build sharing the directory compiles what it still
    /// needs again. Returns how many files were removed.
    pub fn prune(&self, engines: &[String], grace: std::time::Duration) -> std::io::Result<usize> {
        let now = std::time::SystemTime::now();
        let mut removed = 0;
        for file_name in self.dir.names()? {
            let stale = match file_name.split_once(".tmp") {
                // `plugin-files`: the list's temporaries as earlier builds named them.
                Some((written, _)) => {
                    artifact_engine(written).is_some()
                        || [KEY_FILE, "plugin-files.tsv", "plugin-files"].contains(&written)
                        || written.starts_with("fonts-index-")
                }
                None => artifact_engine(&file_name)
                    .is_some_and(|engine| !engines.iter().any(|e| e == engine)),
            };
            let old_enough = || {
                self.dir
                    .modified(&file_name)
                    .and_then(|t| now.duration_since(t).ok())
                    .is_some_and(|age| age >= grace)
            };
            if stale && old_enough() && self.dir.remove(&file_name).is_ok() {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Stores `body` as artifact `name`, replacing any earlier one.
    pub fn store(&self, name: &str, body: &[u8]) -> std::io::Result<()> {
        let (file_name, seal_name) = Self::names(name);
        let file = self.replace(&file_name, body)?;
        // The rename changed the inode's change time: stamp the file as it is now.
        let content = self.content(name, body);
        self.write_seal(name, &seal_name, content.as_bytes(), &file)
    }

    fn replace(&self, name: &str, body: &[u8]) -> std::io::Result<File> {
        self.dir.replace(name, body)
    }

    fn write_seal(
        &self,
        name: &str,
        seal_name: &str,
        content_mac: &[u8],
        file: &File,
    ) -> std::io::Result<()> {
        let meta = file.metadata()?;
        let mut seal = Vec::with_capacity(SEAL_LEN);
        seal.extend_from_slice(content_mac);
        // Where the kernel keeps no stamp, the seal holds zeros and every open hashes.
        let stamp = self.stamp(name, &meta).unwrap_or([0; 32]);
        seal.extend_from_slice(&stamp);
        self.replace(seal_name, &seal).map(drop)
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

/// The key in `dir`, or a new one written there if there is none. Several hosts may start
/// on one directory at once: a key is written whole under a new temporary name, then linked
/// into place only if no other got there first, and then that one is used.
fn load_or_create_key(dir: &CacheDir) -> anyhow::Result<[u8; 32]> {
    let path = dir.path().join(KEY_FILE);
    // Each round ends with a key unless another writer raced this one; eight races in a
    // row mean something else keeps writing there.
    for _ in 0..8 {
        match dir.open_file(KEY_FILE) {
            Ok(file) => match read_key(&path, file)? {
                Some(key) => return Ok(key),
                // The cache is disposable: under a new key its artifacts are recompiled.
                None => {
                    tracing::warn!(
                        "{} is not a compile cache key (64 hex digits): replacing it",
                        path.display()
                    );
                    match dir.remove(KEY_FILE) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                            return Err(e).with_context(|| format!("removing {}", path.display()))
                        }
                        _ => continue,
                    }
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) if is_link(&e) => bail!(
                "the compile cache key {} is a symbolic link: this host uses only a key written there in place; remove the link (the cache then recompiles)",
                path.display()
            ),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
        let key: [u8; 32] = rand::random();
        let tmp = temporary(KEY_FILE);
        let mut file = dir
            .create_new(&tmp)
            .with_context(|| format!("creating {}", dir.path().join(&tmp).display()))?;
        let linked = file
            .write_all(hex::encode(key).as_bytes())
            .and_then(|()| file.sync_all())
            .and_then(|()| file.metadata())
            .and_then(|written| dir.link(&tmp, KEY_FILE).map(|()| written));
        let _ = dir.remove(&tmp);
        match linked {
            Ok(written) => match linked_key(dir, &written, key)? {
                Some(key) => return Ok(key),
                None => continue,
            },
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("writing the key {}", path.display())),
        }
    }
    bail!(
        "the compile cache key {} keeps changing under this host",
        path.display()
    )
}

/// `key`, once the key file in place is checked to be the file `written` (this host's,
/// 0600, holding `key`); none if another writer's replaced it since, to be read again.
/// The link only names what was written: a name that is not that file is not trusted.
fn linked_key(
    dir: &CacheDir,
    written: &std::fs::Metadata,
    key: [u8; 32],
) -> anyhow::Result<Option<[u8; 32]>> {
    let path = dir.path().join(KEY_FILE);
    let file = match dir.open_file(KEY_FILE) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound || is_link(&e) => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if !same_file(&file.metadata()?, written) {
        return Ok(None);
    }
    Ok(read_key(&path, file)?.filter(|k| *k == key))
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

/// The seal `name`, if it is a file (not a link) of exactly a seal's length. Whose it is
/// matters not: its MACs vouch for it, or it is refused.
fn read_seal(dir: &CacheDir, name: &str) -> Option<[u8; SEAL_LEN]> {
    let mut seal = [0u8; SEAL_LEN];
    let mut f = dir.open_file(name).ok()?;
    f.read_exact(&mut seal).ok()?;
    // A longer file is not a seal we wrote.
    matches!(f.read(&mut [0u8; 1]), Ok(0)).then_some(seal)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    subtle::ConstantTimeEq::ct_eq(a, b).into()
}

/// Owned by this process's user, and neither readable nor writable by anyone else.
fn secret_to_us(meta: &std::fs::Metadata) -> bool {
    ours_without(meta, 0o077)
}

/// Owned by this process's user and writable by nobody else.
pub(super) fn private_to_us(meta: &std::fs::Metadata) -> bool {
    ours_without(meta, 0o022)
}

/// Owned by this process's user, with none of the permission bits in `denied`.
#[cfg(unix)]
fn ours_without(meta: &std::fs::Metadata, denied: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.uid() == super::cache_dir::effective_uid() && meta.mode() & denied == 0
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
        let dead_font_writer = "fonts-index-0123456789abcdef.json.tmp7-1";
        // Files the cache did not write (the directory may hold others): left alone, and so
        // is the font library's index.
        let others = [
            "plugin-files.tsv",
            "notes.tmp",
            "a-b.cwasm",
            "x.seal",
            "fonts-index-0123456789abcdef.json",
        ];
        for name in [dead_writer.as_str(), dead_font_writer]
            .iter()
            .chain(&others)
        {
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
        assert_eq!(c.prune(&engines, std::time::Duration::ZERO).unwrap(), 4);
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

    #[cfg(unix)]
    #[test]
    fn a_cache_directory_another_user_owns_or_may_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        ArtifactCache::open_dir(path.clone()).unwrap();
        let refused = |why: &str| {
            let err = ArtifactCache::open_dir(path.clone())
                .err()
                .unwrap_or_else(|| panic!("a cache directory {why} was used"));
            let err = format!("{err:#}");
            assert!(err.contains(&path.display().to_string()), "{err}");
            assert!(err.contains("chmod 700"), "{err}");
            err
        };
        for mode in [0o777, 0o1777, 0o775, 0o757] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            let err = refused(&format!("of mode {mode:o}"));
            assert!(err.contains(&format!("mode {mode:o}")), "{err}");
        }
        // Others may list it: the key is 0600 and an artifact is not secret.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        ArtifactCache::open_dir(path.clone()).unwrap();
        // As root (the tests' user here) the directory can be given to another user.
        if std::os::unix::fs::chown(&path, Some(65534), None).is_ok() {
            let err = refused("of another user");
            assert!(err.contains("uid 65534"), "{err}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_new_cache_directory_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data/cache");
        ArtifactCache::open_dir(path.clone()).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "{mode:o}");
    }

    /// What another user who could write the directory did: plant a link to a file this
    /// user owns (an uploaded blob) under an artifact's name, and seal it with a key it read.
    #[cfg(unix)]
    #[test]
    fn an_artifact_or_seal_reached_through_a_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1);
        let blob = outside.path().join("blob");
        std::fs::write(&blob, b"planted code").unwrap();
        std::os::unix::fs::symlink(&blob, dir.path().join("a.cwasm")).unwrap();
        let mut seal = c.content("a", b"planted code").as_bytes().to_vec();
        seal.extend(c.stamp("a", &std::fs::metadata(&blob).unwrap()).unwrap());
        std::fs::write(dir.path().join("a.seal"), &seal).unwrap();
        assert_eq!(opened(&c, "a"), Err(Refusal::Exposed.to_string()));

        // A genuine seal moved elsewhere and linked back is no seal either.
        c.store("b", b"machine code").unwrap();
        let moved = outside.path().join("b.seal");
        std::fs::rename(dir.path().join("b.seal"), &moved).unwrap();
        std::os::unix::fs::symlink(&moved, dir.path().join("b.seal")).unwrap();
        assert_eq!(opened(&c, "b"), Err(Refusal::BadSeal.to_string()));
    }

    #[cfg(unix)]
    #[test]
    fn a_key_reached_through_a_link_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let elsewhere = outside.path().join("key");
        std::fs::write(&elsewhere, hex::encode([7u8; 32])).unwrap();
        std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.path().join(KEY_FILE)).unwrap();
        let err = ArtifactCache::open_dir(dir.path().to_path_buf())
            .err()
            .expect("a key reached through a link was used");
        assert!(format!("{err:#}").contains("link"), "{err:#}");
    }

    /// Another user who could write the directory created the key's temporary names before
    /// the host: as links to a file of the host's user, and as files of its own it could
    /// read the key from once the host wrote it there.
    #[cfg(unix)]
    #[test]
    fn the_key_is_never_written_into_a_file_someone_else_created() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, b"untouched").unwrap();
        let key = dir.path().join(KEY_FILE);
        let planted: Vec<PathBuf> = (0..1024)
            .map(|n| {
                let name = format!("{}.tmp{}-{n}", key.display(), std::process::id());
                let path = PathBuf::from(name);
                if n % 2 == 0 {
                    std::os::unix::fs::symlink(&victim, &path).unwrap();
                } else {
                    std::fs::write(&path, b"").unwrap();
                    // As root (the tests' user here), make it another user's.
                    let _ = std::os::unix::fs::chown(&path, Some(65534), None);
                }
                path
            })
            .collect();
        // Refusing to start is as good as a key nobody else holds: only the leak matters.
        let _ = ArtifactCache::open_dir(dir.path().to_path_buf());
        assert_eq!(std::fs::read(&victim).unwrap(), b"untouched");
        for path in planted.iter().filter(|p| p.is_file() && !p.is_symlink()) {
            assert_eq!(std::fs::read(path).unwrap(), b"", "{}", path.display());
        }
        if let Ok(meta) = std::fs::symlink_metadata(&key) {
            assert!(meta.is_file() && secret_to_us(&meta), "{meta:?}");
        }
    }

    /// After linking its key into place a host reads it back: what the name holds must be
    /// the file it wrote, still its own and private, else that key is not used.
    #[cfg(unix)]
    #[test]
    fn a_new_key_is_used_only_if_the_file_in_place_is_the_one_written() {
        let dir = tempfile::tempdir().unwrap();
        let c = ArtifactCache::open_dir(dir.path().to_path_buf()).unwrap();
        let path = dir.path().join(KEY_FILE);
        let written = std::fs::metadata(&path).unwrap();
        assert_eq!(linked_key(&c.dir, &written, c.key).unwrap(), Some(c.key));
        // Another file in its place, even with the same key, this user's and 0600.
        std::fs::copy(&path, dir.path().join("copy")).unwrap();
        std::fs::rename(dir.path().join("copy"), &path).unwrap();
        assert_eq!(linked_key(&c.dir, &written, c.key).unwrap(), None);
        // The file written, but another user's by now (as root, the tests' user here).
        let written = std::fs::metadata(&path).unwrap();
        if std::os::unix::fs::chown(&path, Some(65534), None).is_ok() {
            let err = linked_key(&c.dir, &written, c.key).err().unwrap();
            assert!(err.to_string().contains("another user"), "{err:#}");
        }
    }

    #[test]
    fn host_state_is_read_back_only_under_its_own_seal() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1);
        let name = "plugin-files.tsv";
        let body = b"/plugins/a.wasm\t1\t2\tdigest\n";
        assert!(matches!(c.read_sealed(name), Ok(None)));
        c.write_sealed(name, body).unwrap();
        assert_eq!(c.read_sealed(name).unwrap(), Some(body.to_vec()));
        // Another host's key, or the seal of another name: refused.
        assert!(matches!(
            cache(dir.path(), 2).read_sealed(name),
            Err(Refusal::BadSeal)
        ));
        std::fs::copy(dir.path().join(name), dir.path().join("other")).unwrap();
        assert!(matches!(c.read_sealed("other"), Err(Refusal::BadSeal)));
        // A line added, or the list as earlier builds wrote it (unsealed): refused.
        let path = dir.path().join(name);
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(b"/plugins/b.wasm\t1\t2\tuploaded\n");
        std::fs::write(&path, &text).unwrap();
        assert!(matches!(c.read_sealed(name), Err(Refusal::BadSeal)));
        std::fs::write(&path, body).unwrap();
        assert!(matches!(c.read_sealed(name), Err(Refusal::BadSeal)));
    }
}
