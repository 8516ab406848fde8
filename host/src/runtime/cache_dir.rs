//! The compile cache's directory, as one handle: checked once when opened, then reached only
//! through that handle, by names in it, never through a symbolic link.
//!
//! Compiled code runs as native code, so what may write this directory may run code in the
//! host. It must belong to the host's user and be writable by nobody else; the host refuses
//! to start on any other (a world-writable `QUIRE_CACHE_DIR` let another user plant names
//! in it). Within it, a file is opened only if the name itself is a file (`O_NOFOLLOW`), a
//! temporary is always a new file (`O_EXCL`, 0600), and every check of a file's owner and
//! mode is of the file opened (`fstat`), not of whatever its path names a moment later.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;

pub struct CacheDir {
    path: PathBuf,
    /// The directory opened and checked: every access is relative to it, so renaming or
    /// replacing the path (or a directory above it) afterwards changes nothing.
    #[cfg(unix)]
    dir: File,
}

impl CacheDir {
    /// The directory at `path`, created (0700) if missing; an error, as a sentence for the
    /// operator, if another user owns it or anyone but its owner may write it.
    pub fn open(path: &Path) -> anyhow::Result<CacheDir> {
        create_private_dir(path)
            .with_context(|| format!("creating the compile cache {}", path.display()))?;
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            use std::os::unix::fs::MetadataExt;
            // `path` itself may be a link the operator made (say, to a larger disk): what
            // it names when the host starts is what is checked and then held.
            let dir = rustix::fs::open(
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map(File::from)
            .with_context(|| format!("opening the compile cache {}", path.display()))?;
            let meta = dir.metadata()?;
            let (owner, mode, us) = (meta.uid(), meta.mode() & 0o7777, effective_uid());
            if owner != us || mode & 0o022 != 0 {
                anyhow::bail!(
                    "the compile cache {} (owner uid {owner}, mode {mode:o}) must belong to the user this host runs as (uid {us}) and be writable by nobody else, or another user could plant compiled code that this host would run: give it to this user and `chmod 700` it, or set QUIRE_CACHE_DIR to a directory of this user's",
                    path.display()
                );
            }
            Ok(CacheDir {
                path: path.to_path_buf(),
                dir,
            })
        }
        #[cfg(not(unix))]
        Ok(CacheDir {
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` opened for reading, if it is not a symbolic link (whatever it is, the caller
    /// checks the file opened: its type, owner and mode).
    pub fn open_file(&self, name: &str) -> io::Result<File> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            // Non-blocking: opening a FIFO must not wait for a writer; a regular file's reads
            // are unaffected.
            let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
            Ok(File::from(rustix::fs::openat(
                &self.dir,
                name,
                flags,
                Mode::empty(),
            )?))
        }
        #[cfg(not(unix))]
        File::open(self.path.join(name))
    }

    /// A new file `name`, 0600, for writing; fails if anything (a file, a link, dangling
    /// or not) has that name already, rather than write where someone else chose.
    pub fn create_new(&self, name: &str) -> io::Result<File> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags =
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let mode = Mode::RUSR | Mode::WUSR;
            Ok(File::from(rustix::fs::openat(
                &self.dir, name, flags, mode,
            )?))
        }
        #[cfg(not(unix))]
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    /// Replaces the file `name` with `body`, written whole to a new temporary first; returns
    /// the file written, now under `name`.
    pub fn replace(&self, name: &str, body: &[u8]) -> io::Result<File> {
        use std::io::Write;
        let tmp = temporary(name);
        let mut file = self.create_new(&tmp)?;
        let written = file.write_all(body).and_then(|()| self.rename(&tmp, name));
        if written.is_err() {
            let _ = self.remove(&tmp);
        }
        written.map(|()| file)
    }

    /// Renames `from` to `to`, replacing what `to` named.
    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        #[cfg(unix)]
        {
            Ok(rustix::fs::renameat(&self.dir, from, &self.dir, to)?)
        }
        #[cfg(not(unix))]
        std::fs::rename(self.path.join(from), self.path.join(to))
    }

    /// Links the file `from` (not what it may link to) as `to`; fails if `to` exists.
    pub fn link(&self, from: &str, to: &str) -> io::Result<()> {
        #[cfg(unix)]
        {
            let flags = rustix::fs::AtFlags::empty();
            Ok(rustix::fs::linkat(&self.dir, from, &self.dir, to, flags)?)
        }
        #[cfg(not(unix))]
        std::fs::hard_link(self.path.join(from), self.path.join(to))
    }

    /// Removes the name `name` (a link itself, never its target).
    pub fn remove(&self, name: &str) -> io::Result<()> {
        #[cfg(unix)]
        {
            Ok(rustix::fs::unlinkat(
                &self.dir,
                name,
                rustix::fs::AtFlags::empty(),
            )?)
        }
        #[cfg(not(unix))]
        std::fs::remove_file(self.path.join(name))
    }

    /// The names in the directory (those that are not UTF-8 are none of the cache's).
    pub fn names(&self) -> io::Result<Vec<String>> {
        #[cfg(unix)]
        {
            let mut names = Vec::new();
            for entry in rustix::fs::Dir::read_from(&self.dir)? {
                if let Ok(name) = entry?.file_name().to_str() {
                    if name != "." && name != ".." {
                        names.push(name.to_string());
                    }
                }
            }
            Ok(names)
        }
        #[cfg(not(unix))]
        Ok(std::fs::read_dir(&self.path)?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect())
    }

    /// When the file `name` was last written, if it is a file (not a link).
    pub fn modified(&self, name: &str) -> Option<SystemTime> {
        self.open_file(name).ok()?.metadata().ok()?.modified().ok()
    }
}

/// A name beside `name` no other writer uses: hosts may share the directory, and threads
/// of one host may write the same artifact at once. It is always created new
/// ([`CacheDir::create_new`]), so a name someone made in advance fails the write instead.
pub fn temporary(name: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{name}.tmp{}-{n}", std::process::id())
}

/// Whether `a` and `b` are one file (the same inode of the same device).
pub fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (a.dev(), a.ino()) == (b.dev(), b.ino())
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

/// Whether `e` is the refusal of a symbolic link where a file was to be opened.
pub fn is_link(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

#[cfg(unix)]
pub fn effective_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

#[cfg(unix)]
fn create_private_dir(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
}

#[cfg(not(unix))]
fn create_private_dir(path: &Path) -> io::Result<()> {
    std::fs::create_dir_all(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_temporary_is_never_created_through_a_name_someone_else_made() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let cache = CacheDir::open(dir.path()).unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, b"untouched").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join("linked")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("absent"), dir.path().join("dangling"))
            .unwrap();
        std::fs::write(dir.path().join("planted"), b"").unwrap();
        for name in ["linked", "dangling", "planted"] {
            let err = cache.create_new(name).expect_err(name);
            assert_eq!(err.kind(), io::ErrorKind::AlreadyExists, "{name}: {err}");
        }
        assert_eq!(std::fs::read(&victim).unwrap(), b"untouched");
        assert!(!outside.path().join("absent").exists());
        // A name of its own: a new file only this user may read or write.
        cache.create_new("fresh").unwrap();
        let mode = std::fs::metadata(dir.path().join("fresh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }

    #[test]
    fn files_are_opened_by_their_own_name_only() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let cache = CacheDir::open(dir.path()).unwrap();
        std::fs::write(outside.path().join("blob"), b"code").unwrap();
        std::os::unix::fs::symlink(outside.path().join("blob"), dir.path().join("a")).unwrap();
        let err = cache.open_file("a").err().unwrap();
        assert!(is_link(&err), "{err}");
        assert!(cache.modified("a").is_none());
        std::fs::write(dir.path().join("f"), b"ours").unwrap();
        assert!(cache.open_file("f").is_ok() && cache.modified("f").is_some());
    }

    #[test]
    fn the_directory_held_is_the_one_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        let cache = CacheDir::open(&path).unwrap();
        // The path now names another directory: the handle still reaches the first.
        std::fs::rename(&path, dir.path().join("moved")).unwrap();
        std::fs::create_dir(&path).unwrap();
        cache.create_new("x").unwrap();
        assert!(dir.path().join("moved/x").exists());
        assert!(!path.join("x").exists());
    }
}
