//! Storing blobs beside a collector that removes the ones no row names.
//!
//! Blobs are shared by content: a create may find the bytes it needs already stored and
//! skip writing them, while the collector has just decided that nothing names them. The
//! two sides meet in the database (migrations/*/0004_bounds.sql, 0011):
//!
//! - the collector numbers each collection (`blob_collections.n`) and commits a
//!   **tombstone** for the blob carrying that number, then looks for names and pins; with
//!   none it removes the blob, and marks the tombstone done (kept an hour, then pruned);
//! - a writer makes sure the collector sees it or it sees the collector, by one of two
//!   [`Handshake`]s, chosen by the database.
//!
//! **Committed pins** (Postgres): the writer commits a pin, then looks for a tombstone; with
//! none under way it stores the blob (or finds it stored) and drops the pin in the
//! transaction that names it. Each side writes before it reads, and every step is its own
//! committed statement, so under read committed at least one side sees the other: either
//! the collector sees the pin and keeps the blob, or the writer sees the tombstone, waits
//! for it and stores the blob afresh.
//!
//! **Generations** (SQLite): the writer reads the collection number and the tombstones of
//! its blobs in one snapshot, waits out a collection under way, stores the blobs, and the
//! transaction that names them also checks that no collection of them began since it read
//! the number. SQLite runs write transactions one after another, so that check and the
//! collector's tombstone are ordered: named first, the collector sees the names; tombstone
//! first, the write is refused ([`Refusal::BlobsTaken`]). No pin is committed, so a create
//! is one commit instead of two (issue 32: the pin commit was a third of its serial time).
//! On Postgres a read inside the writer's transaction does not hold the collector back,
//! which is why it keeps the pins.

use std::collections::BTreeSet;
use std::time::Duration;

use sqlx::Row;

use super::script::{Refusal, Script, ScriptError, Statement};
use super::{now, Backend, BlobError, Blobs, Db, Tx};

/// How long a pin holds without its write committing. A write pins after its conversion,
/// so this only has to outlast a few blob uploads and one transaction; a pin left by a
/// crashed host lapses and its blob is collected. A write under generations is held to
/// the same time: a done tombstone is kept this long, so a write that read the collection
/// number less than this ago finds every collection that began since.
const PIN_LIFETIME_SECS: f64 = 3600.0;

/// A tombstone older than this was left by a collector that died between marking and
/// removing; writers and the next sweep mark it done.
const TOMBSTONE_STALE_SECS: f64 = 600.0;

/// How long a writer waits for a collector to finish with a blob before it gives up
/// (503: nothing was changed, try again).
const TOMBSTONE_WAIT: Duration = Duration::from_secs(10);

/// Rows of one pinning statement (three parameters each; SQLite allows 32,766).
const PINS_PER_STATEMENT: usize = 500;

/// The blobs this process's writes under generations have stored and not yet named, each
/// with the number of writes holding it (pins in memory), and the blobs this process is
/// collecting. The two exclude each other: a collector here leaves a held blob alone, and
/// a writer here waits for a collection of its blob to end before it holds it, so writes
/// and collections of one process never meet at the database; only a collector in another
/// process (the CLI) can refuse a write, by the generation check.
#[derive(Debug, Default)]
pub struct InFlight {
    state: std::sync::Mutex<Holds>,
    /// Woken whenever a collection here ends.
    collected: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct Holds {
    held: std::collections::HashMap<String, usize>,
    collecting: BTreeSet<String>,
}

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, Holds> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds `digest`, once no collection of it here is under way.
    async fn hold(&self, digest: &str) -> Result<(), BlobError> {
        let deadline = tokio::time::Instant::now() + TOMBSTONE_WAIT;
        loop {
            // Registered before the look, so an end between the two still wakes it.
            let ended = self.collected.notified();
            {
                let mut state = self.lock();
                if !state.collecting.contains(digest) {
                    *state.held.entry(digest.to_string()).or_default() += 1;
                    return Ok(());
                }
            }
            if tokio::time::timeout_at(deadline, ended).await.is_err() {
                return Err(BlobError::Unavailable(format!(
                    "blob {digest} is being collected"
                )));
            }
        }
    }

    fn let_go(&self, digest: &str) {
        let mut state = self.lock();
        if let Some(n) = state.held.get_mut(digest) {
            *n -= 1;
            if *n == 0 {
                state.held.remove(digest);
            }
        }
    }

    /// Starts collecting `digest` here; `None` while a write here holds it or another
    /// collection here has it.
    fn collect(&self, digest: &str) -> Option<Collecting<'_>> {
        let mut state = self.lock();
        if state.held.contains_key(digest) || !state.collecting.insert(digest.to_string()) {
            return None;
        }
        Some(Collecting {
            in_flight: self,
            digest: digest.to_string(),
        })
    }
}

/// A collection of one blob under way in this process; ends when dropped.
struct Collecting<'a> {
    in_flight: &'a InFlight,
    digest: String,
}

impl Drop for Collecting<'_> {
    fn drop(&mut self) {
        self.in_flight.lock().collecting.remove(&self.digest);
        self.in_flight.collected.notify_waiters();
    }
}

/// How a writer and the collector meet (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handshake {
    /// A pin committed before the blob is stored (any database; Postgres needs it).
    CommittedPins,
    /// The collection number read before the blob is stored, checked where it is named
    /// (SQLite, whose write transactions are serial).
    Generations,
}

impl Handshake {
    pub fn for_database(db: &Db) -> Handshake {
        match db.backend {
            Backend::Sqlite => Handshake::Generations,
            Backend::Postgres => Handshake::CommittedPins,
        }
    }
}

/// The blobs one write is about to name.
#[derive(Debug)]
pub struct Pin {
    id: String,
    digests: BTreeSet<String>,
    /// `None` until the first blob: then the database's own, unless a test chose one.
    handshake: Option<Handshake>,
    /// Under generations: the collection number read before the first blob was stored.
    generation: Option<i64>,
    /// Under generations: where [`Pin::digests`] are held in memory until this is dropped
    /// or abandoned.
    in_flight: Option<std::sync::Arc<InFlight>>,
    /// The memory holds were let go (abandoned): not again when dropped.
    let_go: std::sync::atomic::AtomicBool,
}

impl Drop for Pin {
    fn drop(&mut self) {
        self.let_go();
    }
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
            handshake: None,
            generation: None,
            in_flight: None,
            let_go: Default::default(),
        }
    }

    /// A pin that meets the collector by `handshake` whatever the database.
    pub fn with_handshake(handshake: Handshake) -> Pin {
        let mut pin = Pin::new();
        pin.handshake = Some(handshake);
        pin
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

    /// Pins every `(digest, bytes)` (digests from [`Blobs::digest_of`]), then makes sure
    /// each is stored. Committed pins go in one statement for the whole document, not one
    /// per blob: on SQLite writes take turns.
    pub async fn put_all(
        &mut self,
        db: &Db,
        blobs: &Blobs,
        parts: &[(&str, &[u8])],
    ) -> Result<(), BlobError> {
        // Each digest once, in a stable order.
        let parts: std::collections::BTreeMap<&str, &[u8]> = parts.iter().copied().collect();
        let digests: Vec<&str> = parts.keys().copied().collect();
        let handshake = *self
            .handshake
            .get_or_insert_with(|| Handshake::for_database(db));
        match handshake {
            Handshake::CommittedPins => {
                self.commit_pins(db, &digests).await?;
                // Pinned first, then one look for tombstones over them all: a blob the
                // collector has marked is waited for, the rest are stored at once.
                let (_, marked) = collections_of(db, &digests).await?;
                for digest in marked {
                    wait_for_collector(db, &digest).await?;
                }
            }
            Handshake::Generations => {
                // Held in memory first, so a collector of this process that has not yet
                // looked for names keeps the blobs.
                let in_flight = self.in_flight.get_or_insert_with(|| db.in_flight.clone());
                for digest in &digests {
                    if !self.digests.contains(*digest) {
                        in_flight.hold(digest).await?;
                        self.digests.insert(digest.to_string());
                    }
                }
                // Looked at before anything is stored: a collection that began after this
                // look has a higher number and refuses the write that names the blobs.
                let generation = loop {
                    let (generation, marked) = collections_of(db, &digests).await?;
                    if marked.is_empty() {
                        break generation;
                    }
                    for digest in marked {
                        wait_for_collector(db, &digest).await?;
                    }
                };
                self.generation = Some(self.generation.map_or(generation, |g| g.min(generation)));
            }
        }
        for (digest, bytes) in parts {
            blobs.put_as(digest, bytes).await?;
        }
        Ok(())
    }

    /// Commits a pin on each of `digests` not pinned yet.
    async fn commit_pins(&mut self, db: &Db, digests: &[&str]) -> Result<(), BlobError> {
        let new: Vec<&str> = digests
            .iter()
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
        Ok(())
    }

    /// The statements that end this write's hold on its blobs, for the transaction that
    /// names them, so the names and the end of the hold commit together. They refuse the
    /// write ([`Refusal::BlobsTaken`], see [`Pin::release_failed`]) when the collector may
    /// have taken a blob: a pin lapsed, or a collection of one began after the write looked.
    /// Empty when nothing was pinned.
    pub fn release(&self) -> Vec<Statement> {
        if self.digests.is_empty() {
            return Vec::new();
        }
        match (self.handshake, self.generation) {
            (Some(Handshake::Generations), Some(generation)) => {
                let digests: Vec<&String> = self.digests.iter().collect();
                digests
                    .chunks(PINS_PER_STATEMENT)
                    .enumerate()
                    .map(|(i, chunk)| {
                        // The first also asks whether tombstones newer than the write's
                        // look were pruned (a write older than a pin's lifetime).
                        let pruned = if i == 0 {
                            " + (SELECT COUNT(*) FROM blob_collections WHERE id = 1 AND pruned_through > $1)"
                        } else {
                            ""
                        };
                        let sql = format!(
                            "SELECT (SELECT COUNT(*) FROM blob_tombstones WHERE digest IN {}
                                       AND (done IS NULL OR (removed = 1 AND generation > $1))){pruned}",
                            placeholders_from(2, 1, chunk.len())
                        );
                        let args = std::iter::once(generation.into())
                            .chain(chunk.iter().map(|d| d.as_str().into()))
                            .collect();
                        Statement::count(sql, args).expecting(0, Refusal::BlobsTaken)
                    })
                    .collect()
            }
            _ => vec![Statement::new(
                "DELETE FROM blob_pins WHERE pin = $1",
                vec![self.id.as_str().into()],
            )
            .expecting(self.digests.len() as u64, Refusal::BlobsTaken)],
        }
    }

    /// [`Pin::release`] inside the caller's transaction.
    pub async fn release_in(&self, tx: &mut Tx<'_>) -> Result<(), BlobError> {
        let release = Script {
            statements: self.release(),
        };
        tx.run(&release).await.map_err(|e| self.release_failed(e))
    }

    /// A write that held [`Pin::release`] failed: why, as a blob error when the collector
    /// may have taken its blobs.
    pub fn release_failed(&self, e: ScriptError) -> BlobError {
        match e {
            ScriptError::Refused {
                refusal: Refusal::BlobsTaken,
                changed,
            } => match self.handshake {
                Some(Handshake::Generations) => BlobError::Unavailable(format!(
                    "a collection of {changed} of the {} blobs this write stored began before it committed",
                    self.digests.len()
                )),
                _ => BlobError::Unavailable(format!(
                    "{} of {} blob pins lapsed before the write committed",
                    self.digests.len() as u64 - changed.min(self.digests.len() as u64),
                    self.digests.len()
                )),
            },
            other => BlobError::Other(anyhow::Error::from(other).context("blob pins")),
        }
    }

    /// Lets go of the blobs held in memory, once.
    fn let_go(&self) {
        use std::sync::atomic::Ordering;
        if let Some(in_flight) = &self.in_flight {
            if !self.let_go.swap(true, Ordering::AcqRel) {
                for digest in &self.digests {
                    in_flight.let_go(digest);
                }
            }
        }
    }

    /// The write did not commit: drops the pins and removes the blobs nothing names.
    /// Failures are logged, not returned: the caller is already answering with the
    /// reason its write failed, and the periodic sweep collects what is left.
    pub async fn abandon(&self, db: &Db, blobs: &Blobs) {
        if self.digests.is_empty() {
            return;
        }
        // This write's own holds would keep its blobs from the collection below.
        self.let_go();
        if self.handshake == Some(Handshake::CommittedPins) {
            let dropped = sqlx::query("DELETE FROM blob_pins WHERE pin = $1")
                .bind(&self.id)
                .execute(&db.pool)
                .await;
            if let Err(e) = dropped {
                tracing::warn!("dropping the pins of a failed write: {e}");
                return;
            }
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

/// The collection number and which of `digests` a collection under way holds, looked up
/// in statements of [`PINS_PER_STATEMENT`] digests, the first of which also reads the
/// number: one round trip for a create. The number is read no later than the tombstones:
/// a collection whose tombstone came after it has a higher number, one before it is seen
/// under way or has already removed its blob.
async fn collections_of(db: &Db, digests: &[&str]) -> Result<(i64, BTreeSet<String>), BlobError> {
    const NUMBER: &str = "SELECT n, NULL FROM blob_collections WHERE id = 1";
    let mut generation = None;
    let mut marked = BTreeSet::new();
    let mut chunks: Vec<&[&str]> = digests.chunks(PINS_PER_STATEMENT).collect();
    if chunks.is_empty() {
        chunks.push(&[]);
    }
    for (i, chunk) in chunks.into_iter().enumerate() {
        let tombstones = format!(
            "SELECT NULL, digest FROM blob_tombstones WHERE digest IN {} AND done IS NULL",
            placeholders(1, chunk.len())
        );
        let sql = match (i, chunk.is_empty()) {
            (0, true) => NUMBER.to_string(),
            (0, false) => format!("{NUMBER} UNION ALL {tombstones}"),
            _ => tombstones,
        };
        let mut select = sqlx::query(&sql);
        for digest in chunk {
            select = select.bind(*digest);
        }
        for row in select.fetch_all(&db.pool).await.map_err(database)? {
            if let Some(n) = row.try_get::<Option<i64>, _>(0).map_err(database)? {
                generation = Some(n);
            }
            marked.extend(row.try_get::<Option<String>, _>(1).map_err(database)?);
        }
    }
    let generation = generation.ok_or_else(|| {
        BlobError::Other(anyhow::anyhow!("the blob collection number is missing"))
    })?;
    Ok((generation, marked))
}

/// `rows` parenthesized groups of `width` numbered placeholders, `($1, $2), ($3, $4)`; one
/// group reads as an `IN` list. Numbered by hand: both backends read `$n`, and the `Any`
/// query builder would write `?`, which Postgres does not.
fn placeholders(rows: usize, width: usize) -> String {
    placeholders_from(1, rows, width)
}

/// [`placeholders`] numbered from `$first`.
fn placeholders_from(first: usize, rows: usize, width: usize) -> String {
    (0..rows)
        .map(|row| {
            let group: Vec<String> = (0..width)
                .map(|i| format!("${}", first + row * width + i))
                .collect();
            format!("({})", group.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Waits while a collector holds `digest`. A stale tombstone is marked done.
async fn wait_for_collector(db: &Db, digest: &str) -> Result<(), BlobError> {
    let deadline = tokio::time::Instant::now() + TOMBSTONE_WAIT;
    loop {
        let since: Option<f64> = sqlx::query_scalar(
            "SELECT since FROM blob_tombstones WHERE digest = $1 AND done IS NULL",
        )
        .bind(digest)
        .fetch_optional(&db.pool)
        .await
        .map_err(database)?;
        match since {
            None => return Ok(()),
            Some(t) if t < now() - TOMBSTONE_STALE_SECS => {
                let ended = Statement::new(
                    "UPDATE blob_tombstones SET done = $3, removed = 1 WHERE digest = $1 AND since = $2 AND done IS NULL",
                    vec![digest.into(), t.into(), now().into()],
                );
                db.write(ended.into()).await.map_err(|e| {
                    BlobError::Other(anyhow::Error::from(e).context("a stale tombstone"))
                })?;
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

/// The script that starts a collection of `digest`: the next collection number, and a
/// tombstone carrying it. Refused ([`Refusal::Moved`]) while another collector holds it.
fn tombstone(digest: &str) -> Script {
    let mut script = Script::new();
    script.push(Statement::new(
        "UPDATE blob_collections SET n = n + 1 WHERE id = 1",
        vec![],
    ));
    script.push(
        Statement::new(
            "INSERT INTO blob_tombstones (digest, since, generation)
             VALUES ($1, $2, (SELECT n FROM blob_collections WHERE id = 1))
             ON CONFLICT (digest) DO UPDATE
             SET since = excluded.since, generation = excluded.generation, done = NULL, removed = 0
             WHERE blob_tombstones.done IS NOT NULL",
            vec![digest.into(), now().into()],
        )
        .expecting(1, Refusal::Moved),
    );
    script
}

/// Removes each of `digests` that no row names and no write has pinned. Returns how many
/// were removed.
pub async fn collect(db: &Db, blobs: &Blobs, digests: &[String]) -> anyhow::Result<usize> {
    let mut removed = 0;
    for digest in digests {
        let Some(_collecting) = db.in_flight.collect(digest) else {
            continue; // a write here holds it, or another collection here has it
        };
        match db.write(tombstone(digest)).await {
            Ok(()) => {}
            Err(e) if e.refusal() == Some(Refusal::Moved) => continue, // another collector has it
            Err(e) => return Err(e.into()),
        }
        let outcome = async {
            if in_use(db, digest).await? {
                return Ok(false);
            }
            blobs.remove(digest).await?;
            anyhow::Ok(true)
        }
        .await;
        // Kept, done: a write that looked before this collection began and whose blob
        // it removed (or may have: an error) finds it by its number (see [`Pin::release`])
        // until the sweep prunes it.
        let took = !matches!(outcome, Ok(false));
        db.write(
            Statement::new(
                "UPDATE blob_tombstones SET done = $2, removed = $3 WHERE digest = $1",
                vec![digest.as_str().into(), now().into(), i64::from(took).into()],
            )
            .into(),
        )
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
/// died between storing and committing. Lapsed pins go first, stale tombstones are marked
/// done, and done ones older than a pin's lifetime are pruned: the highest number pruned is
/// kept (`pruned_through`), so a write that looked before it is refused, not trusted.
pub async fn sweep(db: &Db, blobs: &Blobs) -> anyhow::Result<usize> {
    let t = now();
    let mut tidy = Script::new();
    tidy.push(Statement::new(
        "DELETE FROM blob_pins WHERE expires <= $1",
        vec![t.into()],
    ));
    tidy.push(Statement::new(
        "UPDATE blob_tombstones SET done = $1, removed = 1 WHERE done IS NULL AND since < $2",
        vec![t.into(), (t - TOMBSTONE_STALE_SECS).into()],
    ));
    tidy.push(Statement::new(
        "UPDATE blob_collections SET pruned_through = (
             SELECT MAX(generation) FROM (
                 SELECT generation FROM blob_tombstones WHERE done < $1
                 UNION ALL SELECT pruned_through FROM blob_collections WHERE id = 1) kept)
         WHERE id = 1",
        vec![(t - PIN_LIFETIME_SECS).into()],
    ));
    tidy.push(Statement::new(
        "DELETE FROM blob_tombstones WHERE done < $1",
        vec![(t - PIN_LIFETIME_SECS).into()],
    ));
    db.write(tidy).await?;
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
mod tests;
