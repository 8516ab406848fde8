//! Backups of an embedded installation (SQLite and its blob store) while it serves, and
//! their restore into a fresh data directory.
//!
//! A backup directory holds `quire.db` (a snapshot made with SQLite's `VACUUM INTO`, one
//! transaction-consistent copy), `blobs/` (every blob that snapshot names, each checked
//! against its digest) and `backup.json` (what was copied). The snapshot comes first and
//! the blobs after it, so the collector must not remove a blob the snapshot names while
//! the copy runs: the backup holds a pin on every blob (see pins.rs) from before the
//! snapshot until the copy is done.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{json, Value};

use super::{now, pins, Backend, Blobs, Db};

const DATABASE: &str = super::SQLITE_FILE;
const MANIFEST: &str = "backup.json";

/// What a backup or a restore copied.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Copied {
    pub dir: PathBuf,
    pub blobs: usize,
    /// Blobs already in the target from an earlier run (skipped).
    pub already_there: usize,
    pub bytes: u64,
    pub database_bytes: u64,
}

/// Writes a consistent copy of the installation `db`/`blobs` serve into `dir` (created if
/// missing). Running it again into the same directory replaces the snapshot and copies
/// only blobs that are new.
pub async fn backup(db: &Db, blobs: &Blobs, dir: &Path) -> anyhow::Result<Copied> {
    anyhow::ensure!(
        db.backend == Backend::Sqlite,
        "`quire admin backup` copies the embedded SQLite database; a Postgres installation \
         backs up with pg_dump (and its blob store with the store's own tools, README \"Backups\")"
    );
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let dir = &std::path::absolute(dir)?;
    let hold = pins::HoldAll::take(db).await?;
    let outcome = copy_out(db, blobs, dir).await;
    hold.release(db).await;
    outcome
}

async fn copy_out(db: &Db, blobs: &Blobs, dir: &Path) -> anyhow::Result<Copied> {
    let snapshot = dir.join(format!("{DATABASE}.partial"));
    let _ = std::fs::remove_file(&snapshot);
    sqlx::query("VACUUM INTO $1")
        .bind(snapshot.to_str().context("the backup path is not UTF-8")?)
        .execute(&db.pool)
        .await
        .context("snapshotting the database")?;
    let copy = Db::open(Some(&sqlite_url(&snapshot)), dir).await?;
    // The snapshot caught the backup's own hold; a restored installation must not keep it.
    pins::HoldAll::clear(&copy).await?;
    let named = pins::named(&copy).await?;
    copy.pool.close().await;
    let target = Blobs::open_dir(&dir.join("blobs"))?;
    let (copied, already_there, bytes) = copy_blobs(blobs, &target, &named).await?;
    std::fs::rename(&snapshot, dir.join(DATABASE)).context("moving the snapshot in place")?;
    let database_bytes = std::fs::metadata(dir.join(DATABASE))?.len();
    let manifest = json!({
        "made": now(),
        "quire": env!("CARGO_PKG_VERSION"),
        "blobs": named.len(),
        "database_bytes": database_bytes,
    });
    std::fs::write(dir.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?)?;
    Ok(Copied {
        dir: dir.to_path_buf(),
        blobs: copied + already_there,
        already_there,
        bytes,
        database_bytes,
    })
}

/// Brings the backup in `dir` back into `data_dir` (whose database must not exist yet)
/// and the blob store `blobs`, then checks that every blob the database names arrived.
pub async fn restore(dir: &Path, data_dir: &Path, blobs: &Blobs) -> anyhow::Result<Copied> {
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(dir.join(MANIFEST))
            .with_context(|| format!("{} is not a Quire backup (no {MANIFEST})", dir.display()))?,
    )
    .context("reading the backup's manifest")?;
    let source_db = dir.join(DATABASE);
    anyhow::ensure!(source_db.is_file(), "{} has no {DATABASE}", dir.display());
    let target_db = data_dir.join(DATABASE);
    anyhow::ensure!(
        !target_db.exists(),
        "{} already holds a database; restore into a fresh data directory (QUIRE_DATA)",
        data_dir.display()
    );
    super::open_data_dir(data_dir)?;
    let (dir, data_dir) = (&std::path::absolute(dir)?, &std::path::absolute(data_dir)?);
    let partial = data_dir.join(format!("{DATABASE}.restoring"));
    std::fs::copy(&source_db, &partial).context("copying the database")?;
    let restored = Db::open(Some(&sqlite_url(&partial)), data_dir).await?;
    let named = pins::named(&restored).await?;
    restored.pool.close().await;
    let source = Blobs::open_dir(&dir.join("blobs"))?;
    let (copied, already_there, bytes) = copy_blobs(&source, blobs, &named).await?;
    std::fs::rename(&partial, &target_db).context("moving the database in place")?;
    tracing::info!(
        "restored the backup made {} with {} blobs",
        manifest["made"],
        named.len()
    );
    Ok(Copied {
        dir: data_dir.to_path_buf(),
        blobs: copied + already_there,
        already_there,
        bytes,
        database_bytes: std::fs::metadata(&target_db)?.len(),
    })
}

fn sqlite_url(path: &Path) -> String {
    format!("sqlite://{}?mode=rw", path.display())
}

/// Copies each of `digests` from `from` to `to`, checking each against its name; a blob
/// `from` lacks is an error (the backup would be missing data). Returns (copied, already
/// there, bytes copied).
async fn copy_blobs(
    from: &Blobs,
    to: &Blobs,
    digests: &BTreeSet<String>,
) -> anyhow::Result<(usize, usize, u64)> {
    let (mut copied, mut present, mut bytes) = (0, 0, 0u64);
    for digest in digests {
        if to.exists(digest).await? {
            present += 1;
            continue;
        }
        let data = from
            .get(digest)
            .await
            .with_context(|| format!("reading blob {digest}"))?;
        let written = to.put(&data).await?;
        anyhow::ensure!(&written == digest, "blob {digest} changed on the way");
        bytes += data.len() as u64;
        copied += 1;
    }
    Ok((copied, present, bytes))
}
