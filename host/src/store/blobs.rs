//! Content-addressed blobs (sources, models, assets, plugins) in a directory opened with
//! cap-std: nothing outside it is reachable through this handle. A blob is written to a
//! temporary file, synced and renamed into place, so a crash never leaves half a blob under
//! its name, and the blob is durable before any row that names it commits.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use cap_std::ambient_authority;
use cap_std::fs::Dir;
use sha2::{Digest, Sha256};

#[derive(Clone)]
pub struct Blobs {
    dir: Arc<Dir>,
}

impl Blobs {
    pub fn open(path: &Path) -> anyhow::Result<Blobs> {
        std::fs::create_dir_all(path.join("tmp"))
            .with_context(|| format!("creating the blob directory {}", path.display()))?;
        let dir = Dir::open_ambient_dir(path, ambient_authority())
            .with_context(|| format!("opening the blob directory {}", path.display()))?;
        Ok(Blobs { dir: Arc::new(dir) })
    }

    /// The sha256 digest (hex) naming `bytes`.
    pub fn digest(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    fn rel_path(digest: &str) -> String {
        format!("{}/{}", &digest[..2], &digest[2..])
    }

    fn valid_digest(digest: &str) -> bool {
        digest.len() == 64
            && digest
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    }

    /// Stores `bytes` and returns their digest. Idempotent.
    pub fn put(&self, bytes: &[u8]) -> anyhow::Result<String> {
        let digest = Self::digest(bytes);
        let rel = Self::rel_path(&digest);
        if self.dir.exists(&rel) {
            return Ok(digest);
        }
        self.dir.create_dir_all(&digest[..2])?;
        let tmp = format!("tmp/{}-{}", &digest[..16], rand::random::<u64>());
        let mut file = self.dir.create(&tmp).context("creating a temporary blob")?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        self.dir
            .rename(&tmp, &self.dir, &rel)
            .context("moving the blob into place")?;
        // The rename is durable once the directory entry is; sync the parent.
        if let Ok(parent) = self.dir.open_dir(&digest[..2]) {
            if let Ok(f) = parent.open(".") {
                let _ = f.sync_all();
            }
        }
        Ok(digest)
    }

    pub fn get(&self, digest: &str) -> anyhow::Result<Vec<u8>> {
        anyhow::ensure!(Self::valid_digest(digest), "not a blob digest: {digest}");
        let bytes = self
            .dir
            .read(Self::rel_path(digest))
            .with_context(|| format!("reading blob {digest}"))?;
        anyhow::ensure!(Self::digest(&bytes) == digest, "blob {digest} is corrupt");
        Ok(bytes)
    }

    pub fn exists(&self, digest: &str) -> bool {
        Self::valid_digest(digest) && self.dir.exists(Self::rel_path(digest))
    }

    pub fn remove(&self, digest: &str) -> anyhow::Result<()> {
        anyhow::ensure!(Self::valid_digest(digest), "not a blob digest: {digest}");
        match self.dir.remove_file(Self::rel_path(digest)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_by_digest_and_detects_corruption() {
        let tmp = std::env::temp_dir().join(format!("quire-blobs-{}", rand::random::<u64>()));
        let blobs = Blobs::open(&tmp).unwrap();
        let d = blobs.put(b"hello").unwrap();
        assert_eq!(
            d,
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        );
        assert_eq!(blobs.put(b"hello").unwrap(), d);
        assert_eq!(blobs.get(&d).unwrap(), b"hello");
        std::fs::write(tmp.join(&d[..2]).join(&d[2..]), b"jello").unwrap();
        assert!(blobs.get(&d).is_err());
        assert!(blobs.get("../../etc/passwd").is_err());
        std::fs::remove_dir_all(tmp).unwrap();
    }
}
