//! Persistence: the database (SQLite by default, Postgres for several hosts) and the
//! content-addressed blob store. Every other module reaches storage through here.

pub mod backup;
mod blob;
mod blobs;
pub mod memo;
mod pins;
mod s3;
pub mod script;
mod writer;

pub use blob::BlobError;
pub use blobs::{BlobLocation, Blobs};
pub use pins::{collect, sweep, Pin};
pub use script::{Refusal, Script, ScriptError, Statement, Value};

use std::path::Path;
use std::str::FromStr;

use anyhow::Context;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

/// Creates the data directory readable by this user only (it holds the database, the
/// blobs and the operator token), and narrows an existing one to that.
/// The embedded database's file in the data directory.
pub const SQLITE_FILE: &str = "quire.db";

pub fn open_data_dir(path: &Path) -> anyhow::Result<()> {
    let context = || format!("creating the data directory {}", path.display());
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path)
            .with_context(context)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))
            .with_context(context)?;
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(path).with_context(context)?;
    Ok(())
}

/// Which database the pool speaks to. The SQL itself is portable (no statement branches on
/// it); the pool settings and how a write transaction begins do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A write transaction on the service database. On SQLite it also holds this host's write
/// gate until it commits, rolls back or is dropped.
pub struct Tx<'c> {
    // Declared first so that on drop the rollback is queued before the gate opens.
    inner: sqlx::Transaction<'c, sqlx::Any>,
    _gate: Option<WriteGuard>,
    /// A row lock other writers queue on, counted from when it was taken (Postgres).
    _serial: Option<crate::metrics::SerialSection>,
}

impl Tx<'_> {
    /// Counts the rest of this transaction as `section`'s serial time: from a row lock
    /// every other writer of that row waits for, to the end. On SQLite the write turn
    /// already counts the whole transaction.
    pub fn serial_until_end(&mut self, section: crate::metrics::Serial) {
        if self._gate.is_none() && self._serial.is_none() {
            self._serial = Some(crate::metrics::SerialSection::enter(section));
        }
    }

    pub async fn commit(self) -> sqlx::Result<()> {
        self.inner.commit().await
    }

    pub async fn rollback(self) -> sqlx::Result<()> {
        self.inner.rollback().await
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl std::ops::DerefMut for Tx<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.inner
    }
}

/// This host's turn to write to SQLite (see [`Db::write_turn`]), held until dropped. How
/// long it was held is this host's serial work (`metrics::Serial::WriteTurn`).
pub struct WriteGuard {
    _held: crate::metrics::SerialSection,
    _turn: tokio::sync::OwnedMutexGuard<()>,
}

/// How long a write waits for its turn before it answers "busy" (503): as long as SQLite's
/// own busy timeout, which it then also has to pass.
const WRITE_TURN_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A new row id: 32 random hexadecimal characters (128 bits), opaque to clients.
/// This process, as the holder of claims on outbox rows (mail, webhook deliveries), so a
/// host that stops gives back only its own.
pub fn claimant() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| format!("{:016x}", rand::random::<u64>()))
}

pub fn new_id() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

/// A new row id that sorts by creation: 48 bits of Unix milliseconds, then 80 random bits,
/// as 32 hexadecimal characters like [`new_id`]. Rows made one after another land at the
/// right edge of their id indexes, so a group of creates changes a few shared pages
/// instead of one page per row (the ids of documents; 80 random bits stay unguessable).
pub fn new_ordered_id() -> String {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let mut id = rand::random::<[u8; 16]>();
    id[..6].copy_from_slice(&millis.to_be_bytes()[2..]);
    hex::encode(id)
}

#[derive(Clone)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
    /// SQLite's writers of this host, one at a time (see [`Db::write_turn`]).
    writers: Option<std::sync::Arc<tokio::sync::Mutex<()>>>,
    /// SQLite: the thread that runs [`Db::write`]'s scripts, grouped (see [`writer`]).
    writer: Option<std::sync::Arc<writer::Writer>>,
    /// What remembered rows are checked against (see [`memo`]).
    pub changes: memo::ChangeSerial,
    /// Blobs this process's writes have stored and not yet named (see [`pins`]).
    in_flight: std::sync::Arc<pins::InFlight>,
}

impl Db {
    /// Opens `url`, or the embedded SQLite database in `data_dir` when `url` is `None`,
    /// and brings the schema up to date.
    pub async fn open(url: Option<&str>, data_dir: &Path) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let url = match url {
            Some(u) => u.to_string(),
            None => format!("sqlite://{}?mode=rwc", data_dir.join(SQLITE_FILE).display()),
        };
        let backend = if url.starts_with("postgres") {
            Backend::Postgres
        } else if url.starts_with("sqlite") {
            Backend::Sqlite
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite:// or postgres://");
        };
        let options = AnyConnectOptions::from_str(&url).context("reading the database URL")?;
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 8 } else { 16 })
            // Fail fast while a database server is away (a restart): 503 in seconds, not
            // a request hanging for half a minute. SQLite is a file; its waits are for the
            // write lock under load, which the default patience suits.
            .acquire_timeout(std::time::Duration::from_secs(match backend {
                Backend::Postgres => 5,
                Backend::Sqlite => 30,
            }))
            // sqlx pings a connection before each use by default: on SQLite that is a
            // round trip to the connection's thread for a file that cannot go away, as
            // dear as the query itself. A Postgres connection can die with its server, so
            // there the ping stays (a dead one is replaced, not handed to a request).
            .test_before_acquire(backend == Backend::Postgres)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the one writer; the busy timeout makes
                        // writers queue instead of failing under contention.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        // The writer thread's checkpoint threshold (see `writer`): below
                        // it, the checkpointer's work is not redone inside a write turn.
                        conn.execute(
                            format!(
                                "PRAGMA wal_autocheckpoint = {}",
                                writer::WRITER_CHECKPOINT_PAGES
                            )
                            .as_str(),
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .with_context(|| format!("opening the database {}", redact(&url)))?;
        match backend {
            Backend::Sqlite => sqlx::migrate!("../migrations/sqlite").run(&pool).await,
            Backend::Postgres => sqlx::migrate!("../migrations/postgres").run(&pool).await,
        }
        .context("migrating the database")?;
        let writers: Option<std::sync::Arc<tokio::sync::Mutex<()>>> =
            (backend == Backend::Sqlite).then(Default::default);
        let file = match backend {
            Backend::Sqlite => sqlite_file(&url)?,
            Backend::Postgres => None,
        };
        let changes = file
            .clone()
            .map(memo::ChangeSerial::sqlite)
            .unwrap_or_else(memo::ChangeSerial::none);
        // An in-memory database is one per connection: its writes stay on the pool.
        let writer = match (&file, &writers) {
            (Some(file), Some(turn)) => Some(std::sync::Arc::new(
                writer::Writer::start(file, turn.clone(), WRITE_TURN_WAIT)
                    .context("starting the database writer")?,
            )),
            _ => None,
        };
        Ok(Db {
            pool,
            backend,
            writers,
            writer,
            changes,
            in_flight: Default::default(),
        })
    }

    /// Begins a transaction that will write. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`): a deferred transaction that reads first cannot upgrade to a
    /// writer once another connection has committed, and fails with "database is locked"
    /// whatever the busy timeout; an immediate one waits its turn instead.
    ///
    /// The begin runs in a task of its own. sqlx's SQLite driver runs a custom `BEGIN`,
    /// then awaits once more before it makes the `Transaction` that would roll it back; a
    /// caller dropped in between (a client that hangs up mid-create) returned the pooled
    /// connection inside an open write transaction: it held SQLite's write lock, so every
    /// other write waited, and each later begin on it failed with "begin_with at non-zero
    /// transaction depth" (sqlx issue 3932). Run to its end, a begin either hands over its
    /// transaction or drops it, which rolls back.
    pub async fn begin(&self) -> sqlx::Result<Tx<'static>> {
        let gate = self.write_turn().await?;
        let pool = self.pool.clone();
        let backend = self.backend;
        let inner = tokio::spawn(async move {
            match backend {
                Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
                Backend::Postgres => pool.begin().await,
            }
        })
        .await
        .map_err(|e| {
            tracing::error!("beginning a transaction: {e}");
            sqlx::Error::WorkerCrashed
        })??;
        Ok(Tx {
            inner,
            _gate: gate,
            _serial: None,
        })
    }

    /// A write transaction whose rows in `table` become visible in the order of their ids,
    /// for readers that poll `MAX(id)`: on Postgres an id is taken at insert, not at commit,
    /// so such transactions queue on a lock of the table that readers do not wait for;
    /// SQLite's `BEGIN IMMEDIATE` already lets one writer in at a time.
    pub async fn begin_in_id_order(&self, table: &'static str) -> sqlx::Result<Tx<'static>> {
        let mut tx = self.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query(&format!("LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE"))
                .execute(&mut *tx)
                .await?;
        }
        Ok(tx)
    }

    /// Runs `script` as one write transaction of its own, committed before this returns.
    /// On SQLite the writer thread runs it, in a group with the writes queued beside it;
    /// elsewhere it runs in a transaction of the pool. Never call it while holding a
    /// transaction or the write turn: the writer waits for that turn.
    pub async fn write(&self, script: Script) -> Result<(), ScriptError> {
        if let Some(writer) = &self.writer {
            return writer.write(script).await;
        }
        let mut tx = self.begin().await?;
        tx.run(&script).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Waits for this host's turn to write; hold the guard over one write outside a
    /// transaction ([`Db::begin`] takes it itself). SQLite has one writer at a time, and a
    /// connection that finds the lock taken sleeps in growing steps (1, 2, 5, 10, 25,
    /// 50 ms...) before it looks again: under a few concurrent creates that made the slowest
    /// hundredth wait tens of milliseconds for a lock that had been free for most of them.
    /// Queued here instead, a writer starts the moment the previous one is done. Postgres
    /// takes row locks, not one lock: no turn (`None`). Other processes (the CLI) still meet
    /// the busy timeout. Never take a turn while holding one: it would wait out its
    /// deadline (503).
    pub async fn write_turn(&self) -> sqlx::Result<Option<WriteGuard>> {
        let Some(writers) = &self.writers else {
            return Ok(None);
        };
        let turn = tokio::time::timeout(WRITE_TURN_WAIT, writers.clone().lock_owned())
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)?;
        Ok(Some(WriteGuard {
            _held: crate::metrics::SerialSection::enter(crate::metrics::Serial::WriteTurn),
            _turn: turn,
        }))
    }
}

/// The file a `sqlite:` URL opens; `None` for an in-memory database.
fn sqlite_file(url: &str) -> anyhow::Result<Option<std::path::PathBuf>> {
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)
        .with_context(|| format!("reading the database URL {}", redact(url)))?;
    let file = options.get_filename();
    Ok((file != Path::new(":memory:") && !file.as_os_str().is_empty()).then(|| file.to_path_buf()))
}

fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => format!("{}://***{}", &url[..s], &url[at..]),
        _ => url.to_string(),
    }
}

/// Unix time in seconds, fractional.
pub fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way a transaction ends gives the turn back: a leaked turn would make the
    /// next write wait out its deadline and answer 503.
    #[tokio::test]
    async fn a_transaction_gives_the_write_turn_back_however_it_ends() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(None, dir.path()).await.unwrap();
        let write = |key: &'static str| {
            sqlx::query("INSERT INTO settings (key, value) VALUES ($1, 'v')").bind(key)
        };
        let mut tx = db.begin().await.unwrap();
        write("committed").execute(&mut *tx).await.unwrap();
        // While one is open, no other write of this host gets its turn.
        assert!(db.writers.as_ref().unwrap().try_lock().is_err());
        tx.commit().await.unwrap();

        let mut tx = db.begin().await.unwrap();
        write("rolled back").execute(&mut *tx).await.unwrap();
        tx.rollback().await.unwrap();

        let mut tx = db.begin().await.unwrap();
        write("dropped").execute(&mut *tx).await.unwrap();
        drop(tx);

        let turn = db.write_turn().await.unwrap();
        assert!(turn.is_some(), "SQLite writers take turns");
        drop(turn);
        let mut tx = db.begin().await.unwrap();
        let kept: Vec<String> = sqlx::query_scalar("SELECT key FROM settings WHERE value = 'v'")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(kept, ["committed"]);
    }

    /// A caller dropped while its transaction begins (a client hanging up mid-create)
    /// leaves no connection inside an open transaction, holding SQLite's write lock.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_begin_dropped_half_way_leaves_no_transaction_open() {
        use std::future::Future;
        use std::task::Poll;
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(None, dir.path()).await.unwrap();
        // Another process's pool: it meets a leaked write lock as a busy database.
        let other = Db::open(None, dir.path()).await.unwrap();
        // Dropped after each number of steps, so one of them lands between sqlx's `BEGIN`
        // and the transaction it would make.
        for steps in 1..8 {
            let mut begin = Box::pin(db.begin());
            for _ in 0..steps {
                let ready =
                    std::future::poll_fn(|cx| Poll::Ready(begin.as_mut().poll(cx).is_ready()))
                        .await;
                if ready {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            drop(begin);
            let key = format!("after {steps} steps");
            let write = async {
                let mut tx = other.begin().await?;
                sqlx::query("INSERT INTO settings (key, value) VALUES ($1, 'v')")
                    .bind(&key)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await
            };
            let done = tokio::time::timeout(std::time::Duration::from_secs(3), write).await;
            assert!(matches!(done, Ok(Ok(()))), "{key}: {done:?}");
            for _ in 0..8 {
                db.begin().await.unwrap().rollback().await.unwrap();
            }
        }
    }
}
