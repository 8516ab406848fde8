//! Content-addressed blobs (sources, models, assets, plugins), named by the sha256 of their
//! bytes, in one of two stores chosen by `QUIRE_BLOBS`:
//!
//! - a directory (the default, `$QUIRE_DATA/blobs`) opened with cap-std, so nothing outside
//!   it is reachable through this handle. A blob is written to a temporary file, synced and
//!   renamed into place: a crash never leaves half a blob under its name.
//! - an S3-compatible bucket (`s3://BUCKET[/PREFIX]`, see [`super::s3`]), which every host
//!   of a cluster shares. An S3 PUT is atomic: an object is whole or absent.
//!
//! Either way a blob is durable before any row that names it commits, and every read checks
//! the bytes against their name. The directory does blocking I/O and the S3 client is a
//! blocking one, so both run on tokio's blocking pool, never on the async executor.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use cap_std::ambient_authority;
use cap_std::fs::Dir;
use sha2::{Digest, Sha256};

use super::blob::{valid_digest, BlobError};
use super::s3::S3Store;

/// Where blobs live (`QUIRE_BLOBS`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlobLocation {
    Dir(PathBuf),
    S3 { bucket: String, prefix: String },
}

impl BlobLocation {
    /// Reads `QUIRE_BLOBS`: `s3://BUCKET[/PREFIX]`, a directory path, or nothing for
    /// `default_dir`.
    pub fn parse(value: Option<&str>, default_dir: &Path) -> anyhow::Result<BlobLocation> {
        let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) else {
            return Ok(BlobLocation::Dir(default_dir.to_path_buf()));
        };
        if let Some(rest) = v.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            anyhow::ensure!(
                !bucket.is_empty()
                    && bucket
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b)),
                "QUIRE_BLOBS={v}: the bucket name must be letters, digits, '-', '.' or '_'"
            );
            let prefix = prefix.trim_matches('/');
            return Ok(BlobLocation::S3 {
                bucket: bucket.to_string(),
                prefix: if prefix.is_empty() {
                    String::new()
                } else {
                    format!("{prefix}/")
                },
            });
        }
        anyhow::ensure!(
            !v.contains("://"),
            "QUIRE_BLOBS={v}: give a directory or s3://BUCKET[/PREFIX]"
        );
        Ok(BlobLocation::Dir(PathBuf::from(
            v.strip_prefix("file://").unwrap_or(v),
        )))
    }
}

impl std::fmt::Display for BlobLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlobLocation::Dir(p) => write!(f, "{}", p.display()),
            BlobLocation::S3 { bucket, prefix } => {
                write!(f, "s3://{bucket}/{}", prefix.trim_end_matches('/'))
            }
        }
    }
}

#[derive(Clone)]
pub struct Blobs {
    store: Arc<Store>,
}

enum Store {
    Dir(DirStore),
    S3(Box<S3Store>),
}

impl Blobs {
    /// Opens the store `location` names; for S3 the `AWS_*` variables say how to reach it.
    pub fn open(location: &BlobLocation) -> anyhow::Result<Blobs> {
        let store = match location {
            BlobLocation::Dir(path) => Store::Dir(DirStore::open(path)?),
            BlobLocation::S3 { bucket, prefix } => Store::S3(Box::new(
                S3Store::from_env(bucket, prefix).context("configuring the S3 store")?,
            )),
        };
        Ok(Blobs {
            store: Arc::new(store),
        })
    }

    /// A directory store (tests, the CLI's `--to` of a migration).
    pub fn open_dir(path: &Path) -> anyhow::Result<Blobs> {
        Self::open(&BlobLocation::Dir(path.to_path_buf()))
    }

    /// The sha256 digest (hex) naming `bytes`.
    pub fn digest(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    fn check(digest: &str) -> Result<(), BlobError> {
        if valid_digest(digest) {
            Ok(())
        } else {
            Err(BlobError::BadDigest(digest.chars().take(80).collect()))
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Store) -> Result<T, BlobError> + Send + 'static,
    ) -> Result<T, BlobError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || work(&store))
            .await
            .map_err(|e| BlobError::Other(anyhow::anyhow!("blob worker: {e}")))?
    }

    /// The digest of `bytes`, hashed off the async executor when they are large.
    pub async fn digest_of(bytes: &[u8]) -> String {
        if bytes.len() < 64 << 10 {
            return Self::digest(bytes);
        }
        let owned = bytes.to_vec();
        match tokio::task::spawn_blocking(move || Self::digest(&owned)).await {
            Ok(d) => d,
            Err(_) => Self::digest(bytes),
        }
    }

    /// Stores `bytes` under `digest`, which the caller computed from them with
    /// [`Blobs::digest_of`]. Idempotent.
    pub(super) async fn put_as(&self, digest: &str, bytes: &[u8]) -> Result<(), BlobError> {
        Self::check(digest)?;
        let owned = bytes.to_vec();
        let d = digest.to_string();
        self.blocking(move |s| match s {
            Store::Dir(dir) => dir.put(&d, &owned),
            Store::S3(s3) => s3.put(&d, owned),
        })
        .await
    }

    /// Stores `bytes` and returns their digest. Idempotent.
    pub async fn put(&self, bytes: &[u8]) -> Result<String, BlobError> {
        let owned = bytes.to_vec();
        self.blocking(move |s| {
            let digest = Self::digest(&owned);
            match s {
                Store::Dir(dir) => dir.put(&digest, &owned)?,
                Store::S3(s3) => s3.put(&digest, owned)?,
            }
            Ok(digest)
        })
        .await
    }

    /// The bytes named `digest`, checked against it.
    pub async fn get(&self, digest: &str) -> Result<Vec<u8>, BlobError> {
        Self::check(digest)?;
        let d = digest.to_string();
        // Hashing a large blob takes milliseconds: it runs with the read, off the executor.
        self.blocking(move |s| {
            let bytes = match s {
                Store::Dir(dir) => dir.get(&d)?,
                Store::S3(s3) => s3.get(&d)?,
            };
            if Self::digest(&bytes) != d {
                return Err(BlobError::Corrupt(d));
            }
            Ok(bytes)
        })
        .await
    }

    pub async fn exists(&self, digest: &str) -> Result<bool, BlobError> {
        if !valid_digest(digest) {
            return Ok(false);
        }
        let d = digest.to_string();
        self.blocking(move |s| match s {
            Store::Dir(dir) => Ok(dir.exists(&d)),
            Store::S3(s3) => s3.exists(&d),
        })
        .await
    }

    pub async fn remove(&self, digest: &str) -> Result<(), BlobError> {
        Self::check(digest)?;
        let d = digest.to_string();
        self.blocking(move |s| match s {
            Store::Dir(dir) => dir.remove(&d),
            Store::S3(s3) => s3.remove(&d),
        })
        .await
    }

    /// Every digest in the store (for migrations and consistency checks).
    pub async fn list(&self) -> Result<Vec<String>, BlobError> {
        self.blocking(|s| match s {
            Store::Dir(dir) => dir.list(),
            Store::S3(s3) => s3.list(),
        })
        .await
    }

    /// Cheap check that the store answers (startup and readiness).
    pub async fn ping(&self) -> Result<(), BlobError> {
        self.blocking(|s| match s {
            Store::Dir(_) => Ok(()),
            Store::S3(s3) => s3.ping(),
        })
        .await
    }
}

/// The directory store.
struct DirStore {
    dir: Dir,
}

impl DirStore {
    fn open(path: &Path) -> anyhow::Result<DirStore> {
        std::fs::create_dir_all(path.join("tmp"))
            .with_context(|| format!("creating the blob directory {}", path.display()))?;
        let dir = Dir::open_ambient_dir(path, ambient_authority())
            .with_context(|| format!("opening the blob directory {}", path.display()))?;
        Ok(DirStore { dir })
    }

    fn rel_path(digest: &str) -> String {
        format!("{}/{}", &digest[..2], &digest[2..])
    }

    fn put(&self, digest: &str, bytes: &[u8]) -> Result<(), BlobError> {
        let rel = Self::rel_path(digest);
        if self.dir.exists(&rel) {
            return Ok(());
        }
        self.dir.create_dir_all(&digest[..2])?;
        let tmp = format!("tmp/{}-{}", &digest[..16], rand::random::<u64>());
        let written = (|| {
            let mut file = self.dir.create(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            drop(file);
            self.dir.rename(&tmp, &self.dir, &rel)
        })();
        if let Err(e) = written {
            // A part-written file on a full disk would only make it fuller.
            let _ = self.dir.remove_file(&tmp);
            return Err(e.into());
        }
        // The rename is durable once the directory entry is; sync the parent.
        if let Ok(parent) = self.dir.open_dir(&digest[..2]) {
            if let Ok(f) = parent.open(".") {
                let _ = f.sync_all();
            }
        }
        Ok(())
    }

    fn get(&self, digest: &str) -> Result<Vec<u8>, BlobError> {
        match self.dir.read(Self::rel_path(digest)) {
            Ok(bytes) => Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(BlobError::Missing(digest.to_string()))
            }
            Err(e) => Err(BlobError::Other(
                anyhow::Error::from(e).context(format!("reading blob {digest}")),
            )),
        }
    }

    fn exists(&self, digest: &str) -> bool {
        self.dir.exists(Self::rel_path(digest))
    }

    fn remove(&self, digest: &str) -> Result<(), BlobError> {
        match self.dir.remove_file(Self::rel_path(digest)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }

    fn list(&self) -> Result<Vec<String>, BlobError> {
        let mut out = Vec::new();
        for entry in self.dir.entries()? {
            let entry = entry?;
            let prefix = entry.file_name().to_string_lossy().into_owned();
            if prefix.len() != 2 || !entry.file_type()?.is_dir() {
                continue;
            }
            for inner in self.dir.open_dir(&prefix)?.entries()? {
                let name = format!("{prefix}{}", inner?.file_name().to_string_lossy());
                if valid_digest(&name) {
                    out.push(name);
                }
            }
        }
        out.sort();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stores_by_digest_and_detects_corruption() {
        let tmp = tempfile::tempdir().unwrap();
        let blobs = Blobs::open_dir(tmp.path()).unwrap();
        let d = blobs.put(b"hello").await.unwrap();
        assert_eq!(
            d,
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        );
        assert_eq!(blobs.put(b"hello").await.unwrap(), d);
        assert_eq!(blobs.get(&d).await.unwrap(), b"hello");
        assert_eq!(blobs.list().await.unwrap(), vec![d.clone()]);
        std::fs::write(tmp.path().join(&d[..2]).join(&d[2..]), b"jello").unwrap();
        assert!(matches!(blobs.get(&d).await, Err(BlobError::Corrupt(_))));
        assert!(matches!(
            blobs.get("../../etc/passwd").await,
            Err(BlobError::BadDigest(_))
        ));
        blobs.remove(&d).await.unwrap();
        assert!(matches!(blobs.get(&d).await, Err(BlobError::Missing(_))));
        assert!(!blobs.exists(&d).await.unwrap());
    }

    #[test]
    fn reads_the_location_setting() {
        let dflt = Path::new("/data/blobs");
        assert_eq!(
            BlobLocation::parse(None, dflt).unwrap(),
            BlobLocation::Dir(dflt.into())
        );
        assert_eq!(
            BlobLocation::parse(Some("s3://quire"), dflt).unwrap(),
            BlobLocation::S3 {
                bucket: "quire".into(),
                prefix: String::new()
            }
        );
        assert_eq!(
            BlobLocation::parse(Some("s3://quire/a/b/"), dflt).unwrap(),
            BlobLocation::S3 {
                bucket: "quire".into(),
                prefix: "a/b/".into()
            }
        );
        assert_eq!(
            BlobLocation::parse(Some("/srv/blobs"), dflt).unwrap(),
            BlobLocation::Dir("/srv/blobs".into())
        );
        assert!(BlobLocation::parse(Some("s3://"), dflt).is_err());
        assert!(BlobLocation::parse(Some("gs://x"), dflt).is_err());
    }
}
