//! Storing blobs beside a collector that removes the ones no row names.
//!
//! Blobs are shared by content: a create may find the bytes it needs already stored and
//! skip writing them, while the collector has just decided that nothing names them. The
//! two sides meet in the database (see migrations/*/0004_blob_pins.sql):
//!
//! - a writer commits a **pin** for a blob, then looks for a tombstone; with none it stores
//!   the blob (or finds it stored) and drops the pin in the transaction that names it;
//! - the collector commits a **tombstone** for a blob, then looks for names and pins; with
//!   none it removes the blob and then the tombstone.
//!
//! Each side writes before it reads, and every step is its own committed statement, so
//! (under SQLite's single writer and Postgres's read committed alike) at least one side
//! sees the other: either the collector sees the pin and keeps the blob, or the writer sees
//! the tombstone, waits for it to go and stores the blob afresh.

use std::collections::BTreeSet;
use std::time::Duration;

use sqlx::Row;

use super::script::{Refusal, ScriptError, Statement};
use super::{now, BlobError, Blobs, Db, Tx};

/// How long a pin holds without its write committing. A write pins after its conversion,
/// so this only has to outlast a few blob uploads and one transaction; a pin left by a
/// crashed host lapses and its blob is collected.
const PIN_LIFETIME_SECS: f64 = 3600.0;

/// A tombstone older than this was left by a collector that died between marking and
/// removing; writers and the next sweep clear it.
const TOMBSTONE_STALE_SECS: f64 = 600.0;

/// How long a writer waits for a collector to finish with a blob before it gives up
/// (503: nothing was changed, try again).
const TOMBSTONE_WAIT: Duration = Duration::from_secs(10);

/// Rows of one pinning statement (three parameters each; SQLite allows 32,766).
const PINS_PER_STATEMENT: usize = 500;

/// The blobs one write is about to name.
#[derive(Debug)]
pub struct Pin {
    id: String,
    digests: BTreeSet<String>,
}

impl Default for Pin {
    fn default() -> Self {
        Self::new()
    }
}

impl Pin {
    pub fn new() -> Pin {
        Pin {
            id: format!("{:032x}", rand::random::<u128>()),
            digests: BTreeSet::new(),
        }
    }

    /// The digests pinned so far.
    pub fn digests(&self) -> impl Iterator<Item = &str> {
        self.digests.iter().map(String::as_str)
    }

    /// Pins `bytes` and makes sure they are stored; returns their digest.
    pub async fn put(&mut self, db: &Db, blobs: &Blobs, bytes: &[u8]) -> Result<String, BlobError> {
        let digest = Blobs::digest_of(bytes).await;
        self.put_all(db, blobs, &[(&digest, bytes)]).await?;
        Ok(digest)
    }

    /// Pins every `(digest, bytes)` (digests from [`Blobs::digest_of`]) in one committed
    /// statement, then makes sure each is stored. One write transaction for a whole
    /// document, not one per blob: on SQLite writes take turns.
    pub async fn put_all(
        &mut self,
        db: &Db,
        blobs: &Blobs,
        parts: &[(&str, &[u8])],
    ) -> Result<(), BlobError> {
        // Each digest once, in a stable order.
        let parts: std::collections::BTreeMap<&str, &[u8]> = parts.iter().copied().collect();
        let new: Vec<&str> = parts
            .keys()
            .copied()
            .filter(|d| !self.digests.contains(*d))
            .collect();
        let expires = now() + PIN_LIFETIME_SECS;
        for chunk in new.chunks(PINS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO blob_pins (pin, digest, expires) VALUES {} ON CONFLICT DO NOTHING",
                placeholders(chunk.len(), 3)
            );
            let args = chunk
                .iter()
                .flat_map(|digest| [self.id.as_str().into(), (*digest).into(), expires.into()])
                .collect();
            db.write(Statement::new(sql, args).into())
                .await
                .map_err(|e| BlobError::Other(anyhow::Error::from(e).context("blob pins")))?;
            self.digests.extend(chunk.iter().map(|d| d.to_string()));
        }
        // Pinned first, then one look for tombstones over them all: a blob the collector
        // has marked is waited for, the rest are stored at once.
        let digests: Vec<&str> = parts.keys().copied().collect();
        let marked = tombstoned(db, &digests).await?;
        for (digest, bytes) in parts {
            if marked.contains(digest) {
                wait_for_collector(db, digest).await?;
            }
            blobs.put_as(digest, bytes).await?;
        }
        Ok(())
    }

    /// The statement that drops the pins in the write that names the blobs, so the names
    /// and the end of the pins commit together. It refuses the write
    /// ([`Refusal::PinsLapsed`], see [`Pin::release_failed`]) when a pin lapsed and the
    /// collector may have taken its blob. `None` when nothing was pinned.
    pub fn release(&self) -> Option<Statement> {
        (!self.digests.is_empty()).then(|| {
            Statement::new(
                "DELETE FROM blob_pins WHERE pin = $1",
                vec![self.id.as_str().into()],
            )
            .expecting(self.digests.len() as u64, Refusal::PinsLapsed)
        })
    }

    /// [`Pin::release`] inside the caller's transaction.
    pub async fn release_in(&self, tx: &mut Tx<'_>) -> Result<(), BlobError> {
        match self.release() {
            Some(release) => tx
                .run(&release.into())
                .await
                .map_err(|e| self.release_failed(e)),
            None => Ok(()),
        }
    }

    /// A write that held [`Pin::release`] failed: why, as a blob error when the pins had
    /// lapsed.
    pub fn release_failed(&self, e: ScriptError) -> BlobError {
        match e {
            ScriptError::Refused {
                refusal: Refusal::PinsLapsed,
                changed,
            } => BlobError::Unavailable(format!(
                "{} of {} blob pins lapsed before the write committed",
                self.digests.len() as u64 - changed.min(self.digests.len() as u64),
                self.digests.len()
            )),
            other => BlobError::Other(anyhow::Error::from(other).context("blob pins")),
        }
    }

    /// The write did not commit: drops the pins and removes the blobs nothing names.
    /// Failures are logged, not returned: the caller is already answering with the
    /// reason its write failed, and the periodic sweep collects what is left.
    pub async fn abandon(&self, db: &Db, blobs: &Blobs) {
        if self.digests.is_empty() {
            return;
        }
        let dropped = sqlx::query("DELETE FROM blob_pins WHERE pin = $1")
            .bind(&self.id)
            .execute(&db.pool)
            .await;
        if let Err(e) = dropped {
            tracing::warn!("dropping the pins of a failed write: {e}");
            return;
        }
        let digests: Vec<String> = self.digests.iter().cloned().collect();
        if let Err(e) = collect(db, blobs, &digests).await {
            tracing::warn!("collecting the blobs of a failed write: {e}");
        }
    }
}

fn database(e: sqlx::Error) -> BlobError {
    BlobError::Other(anyhow::Error::from(e).context("blob pins"))
}

/// Which of `digests` carry a collector's tombstone, looked up in statements of
/// [`PINS_PER_STATEMENT`] digests.
async fn tombstoned(db: &Db, digests: &[&str]) -> Result<BTreeSet<String>, BlobError> {
    let mut marked = BTreeSet::new();
    for chunk in digests.chunks(PINS_PER_STATEMENT) {
        let sql = format!(
            "SELECT digest FROM blob_tombstones WHERE digest IN {}",
            placeholders(1, chunk.len())
        );
        let mut select = sqlx::query_scalar::<_, String>(&sql);
        for digest in chunk {
            select = select.bind(*digest);
        }
        marked.extend(select.fetch_all(&db.pool).await.map_err(database)?);
    }
    Ok(marked)
}

/// `rows` parenthesized groups of `width` numbered placeholders, `($1, $2), ($3, $4)`; one
/// group reads as an `IN` list. Numbered by hand: both backends read `$n`, and the `Any`
/// query builder would write `?`, which Postgres does not.
fn placeholders(rows: usize, width: usize) -> String {
    (0..rows)
        .map(|row| {
            let group: Vec<String> = (1..=width)
                .map(|i| format!("${}", row * width + i))
                .collect();
            format!("({})", group.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Waits while a collector holds `digest`. A stale tombstone is cleared.
async fn wait_for_collector(db: &Db, digest: &str) -> Result<(), BlobError> {
    let deadline = tokio::time::Instant::now() + TOMBSTONE_WAIT;
    loop {
        let since: Option<f64> =
            sqlx::query_scalar("SELECT since FROM blob_tombstones WHERE digest = $1")
                .bind(digest)
                .fetch_optional(&db.pool)
                .await
                .map_err(database)?;
        match since {
            None => return Ok(()),
            Some(t) if t < now() - TOMBSTONE_STALE_SECS => {
                sqlx::query("DELETE FROM blob_tombstones WHERE digest = $1 AND since = $2")
                    .bind(digest)
                    .bind(t)
                    .execute(&db.pool)
                    .await
                    .map_err(database)?;
            }
            Some(_) if tokio::time::Instant::now() >= deadline => {
                return Err(BlobError::Unavailable(format!(
                    "blob {digest} is being collected"
                )))
            }
            Some(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Removes each of `digests` that no row names and no write has pinned. Returns how many
/// were removed.
pub async fn collect(db: &Db, blobs: &Blobs, digests: &[String]) -> anyhow::Result<usize> {
    let mut removed = 0;
    for digest in digests {
        let marked = sqlx::query(
            "INSERT INTO blob_tombstones (digest, since) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(digest)
        .bind(now())
        .execute(&db.pool)
        .await?;
        if marked.rows_affected() == 0 {
            continue; // another collector has it
        }
        let outcome = async {
            if in_use(db, digest).await? {
                return Ok(false);
            }
            blobs.remove(digest).await?;
            anyhow::Ok(true)
        }
        .await;
        sqlx::query("DELETE FROM blob_tombstones WHERE digest = $1")
            .bind(digest)
            .execute(&db.pool)
            .await?;
        if outcome? {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Whether a row names `digest` or a live pin holds it.
async fn in_use(db: &Db, digest: &str) -> sqlx::Result<bool> {
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM document_versions WHERE model_blob = $1)
              + (SELECT COUNT(*) FROM document_versions WHERE source_blob = $1)
              + (SELECT COUNT(*) FROM document_assets WHERE blob = $1)
              + (SELECT COUNT(*) FROM plugin_versions WHERE digest = $1)
              + (SELECT COUNT(*) FROM blob_pins WHERE (digest = $1 OR digest = '*') AND expires > $2) AS n",
    )
    .bind(digest)
    .bind(now())
    .fetch_one(&db.pool)
    .await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

/// Every blob a row names.
pub async fn named(db: &Db) -> sqlx::Result<BTreeSet<String>> {
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT model_blob FROM document_versions
         UNION SELECT source_blob FROM document_versions WHERE source_blob IS NOT NULL
         UNION SELECT blob FROM document_assets
         UNION SELECT digest FROM plugin_versions",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().collect())
}

/// A pin on every blob at once (the digest `*`): while a backup copies the blobs its
/// snapshot names, no collector removes any. It lapses like any pin if its holder dies.
pub struct HoldAll {
    pin: String,
}

impl HoldAll {
    const LIFETIME_SECS: f64 = 6.0 * 3600.0;

    pub async fn take(db: &Db) -> sqlx::Result<HoldAll> {
        let pin = format!("hold-{:032x}", rand::random::<u128>());
        sqlx::query("INSERT INTO blob_pins (pin, digest, expires) VALUES ($1, '*', $2)")
            .bind(&pin)
            .bind(now() + Self::LIFETIME_SECS)
            .execute(&db.pool)
            .await?;
        Ok(HoldAll { pin })
    }

    pub async fn release(self, db: &Db) {
        let released = sqlx::query("DELETE FROM blob_pins WHERE pin = $1")
            .bind(&self.pin)
            .execute(&db.pool)
            .await;
        if let Err(e) = released {
            tracing::warn!("releasing the backup's hold on blobs (it lapses by itself): {e}");
        }
    }

    /// Drops every hold in `db` (a snapshot that caught one).
    pub async fn clear(db: &Db) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM blob_pins WHERE digest = '*'")
            .execute(&db.pool)
            .await?;
        Ok(())
    }
}

/// Collects every blob in the store that nothing names: the leftovers of writes that
/// died between storing and committing. Lapsed pins and stale tombstones go first.
pub async fn sweep(db: &Db, blobs: &Blobs) -> anyhow::Result<usize> {
    sqlx::query("DELETE FROM blob_pins WHERE expires <= $1")
        .bind(now())
        .execute(&db.pool)
        .await?;
    sqlx::query("DELETE FROM blob_tombstones WHERE since < $1")
        .bind(now() - TOMBSTONE_STALE_SECS)
        .execute(&db.pool)
        .await?;
    let stored = blobs.list().await?;
    let mut unnamed = Vec::new();
    for digest in stored {
        if !in_use(db, &digest).await? {
            unnamed.push(digest);
        }
    }
    collect(db, blobs, &unnamed).await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn open() -> (tempfile::TempDir, Db, Blobs) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(None, dir.path()).await.unwrap();
        let blobs = Blobs::open_dir(&dir.path().join("blobs")).unwrap();
        (dir, db, blobs)
    }

    /// Names `digest` the way a committed plugin version does.
    async fn name(db: &Db, pin: &Pin, digest: &str, version: usize) {
        let mut tx = db.begin().await.unwrap();
        sqlx::query("INSERT INTO plugin_versions (name, version, digest, info, installed_at) VALUES ('p', $1, $2, '{}', 0)")
            .bind(version.to_string())
            .bind(digest)
            .execute(&mut *tx)
            .await
            .unwrap();
        pin.release_in(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
    }

    #[tokio::test]
    async fn the_sweep_takes_only_what_nothing_names_or_pins() {
        let (_dir, db, blobs) = open().await;
        let orphan = blobs.put(b"left by a write that died").await.unwrap();
        let mut pinned = Pin::new();
        let in_flight = pinned.put(&db, &blobs, b"about to be named").await.unwrap();
        let mut done = Pin::new();
        let named = done.put(&db, &blobs, b"named").await.unwrap();
        name(&db, &done, &named, 1).await;

        assert_eq!(sweep(&db, &blobs).await.unwrap(), 1);
        assert!(!blobs.exists(&orphan).await.unwrap());
        assert!(blobs.exists(&in_flight).await.unwrap());
        assert!(blobs.exists(&named).await.unwrap());

        pinned.abandon(&db, &blobs).await;
        assert!(
            !blobs.exists(&in_flight).await.unwrap(),
            "an abandoned write leaves nothing"
        );
        assert!(blobs.exists(&named).await.unwrap());
    }

    #[tokio::test]
    async fn a_hold_on_every_blob_keeps_the_collector_off_until_released() {
        let (_dir, db, blobs) = open().await;
        let orphan = blobs.put(b"nothing names me").await.unwrap();
        let hold = HoldAll::take(&db).await.unwrap();
        assert_eq!(sweep(&db, &blobs).await.unwrap(), 0);
        assert_eq!(
            collect(&db, &blobs, std::slice::from_ref(&orphan))
                .await
                .unwrap(),
            0
        );
        assert!(blobs.exists(&orphan).await.unwrap());
        hold.release(&db).await;
        assert_eq!(sweep(&db, &blobs).await.unwrap(), 1);
        assert!(!blobs.exists(&orphan).await.unwrap());
    }

    #[tokio::test]
    async fn a_lapsed_pin_fails_the_write_instead_of_naming_a_collected_blob() {
        let (_dir, db, blobs) = open().await;
        let mut pin = Pin::new();
        let digest = pin.put(&db, &blobs, b"slow write").await.unwrap();
        sqlx::query("UPDATE blob_pins SET expires = 0")
            .execute(&db.pool)
            .await
            .unwrap();
        assert_eq!(sweep(&db, &blobs).await.unwrap(), 1);
        let mut tx = db.begin().await.unwrap();
        assert!(matches!(
            pin.release_in(&mut tx).await,
            Err(BlobError::Unavailable(_))
        ));
        drop(tx);
        assert!(!blobs.exists(&digest).await.unwrap());
    }

    #[test]
    fn placeholders_number_rows_and_lists() {
        assert_eq!(placeholders(2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(placeholders(1, 3), "($1, $2, $3)");
    }

    #[tokio::test]
    async fn a_whole_write_is_pinned_at_once_and_released_whole() {
        let (_dir, db, blobs) = open().await;
        let many: Vec<Vec<u8>> = (0..PINS_PER_STATEMENT + 3)
            .map(|i| format!("asset {i}").into_bytes())
            .collect();
        let mut digests = Vec::new();
        for bytes in &many {
            digests.push(Blobs::digest_of(bytes).await);
        }
        // The first part twice: one pin, stored once.
        let parts: Vec<(&str, &[u8])> = std::iter::once((digests[0].as_str(), &many[0][..]))
            .chain(
                digests
                    .iter()
                    .map(String::as_str)
                    .zip(many.iter().map(|b| &b[..])),
            )
            .collect();
        let mut pin = Pin::new();
        pin.put_all(&db, &blobs, &parts).await.unwrap();
        let pinned: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blob_pins WHERE pin = $1")
            .bind(&pin.id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(pinned, many.len() as i64);
        for d in &digests {
            assert!(blobs.exists(d).await.unwrap(), "{d} not stored");
        }
        // Nothing names them yet, but the pins keep the collector off.
        assert_eq!(sweep(&db, &blobs).await.unwrap(), 0);
        let mut tx = db.begin().await.unwrap();
        pin.release_in(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(sweep(&db, &blobs).await.unwrap(), many.len());
    }

    /// A collector and writers reusing the same bytes, interleaved by the scheduler: every
    /// committed name must find its blob. With "check for names, then remove" and no pins,
    /// a writer that found the blob stored between the check and the removal named a blob
    /// that was then deleted.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_blob_being_collected_is_never_lost_to_a_write_reusing_it() {
        let (_dir, db, blobs) = open().await;
        let bytes = b"shared by every write".to_vec();
        for round in 0..60 {
            let mut seed = Pin::new();
            let digest = seed.put(&db, &blobs, &bytes).await.unwrap();
            seed.abandon(&db, &blobs).await; // unnamed: the collector may take it
            if round % 2 == 0 {
                blobs.put(&bytes).await.unwrap();
            }
            let collector = {
                let (db, blobs, d) = (db.clone(), blobs.clone(), digest.clone());
                tokio::spawn(async move { collect(&db, &blobs, &[d]).await.unwrap() })
            };
            let writer = {
                let (db, blobs, bytes) = (db.clone(), blobs.clone(), bytes.clone());
                tokio::spawn(async move {
                    let mut pin = Pin::new();
                    let d = pin.put(&db, &blobs, &bytes).await.unwrap();
                    name(&db, &pin, &d, round).await;
                })
            };
            collector.await.unwrap();
            writer.await.unwrap();
            assert!(
                blobs.get(&digest).await.is_ok(),
                "round {round}: a committed name lost its blob"
            );
            sqlx::query("DELETE FROM plugin_versions")
                .execute(&db.pool)
                .await
                .unwrap();
        }
    }
}
