//! SQLite's writes of this host on one thread of their own, committed in groups.
//!
//! Through sqlx every statement is a hand-off to its connection's thread and back: a write
//! of seven statements held the write turn for about half a millisecond, nearly all of it
//! threads waking each other, and creates could not go faster than one turn after another.
//! Here a whole [`Script`] runs where the connection lives (microseconds per statement,
//! prepared statements kept), and the scripts that queued while one group committed go
//! together in the next: one `BEGIN`/`COMMIT` for the group, each script in a savepoint of
//! its own so a refused one is rolled back alone. A caller is answered only after the
//! commit that holds its script, so nothing answered is lost to a kill.
//!
//! The writer takes the host's write turn ([`super::Db::write_turn`]) for each group, so it
//! never meets the host's other writers at SQLite's lock, where they would sleep in steps.

use std::path::Path;
use std::sync::mpsc;
use std::sync::Arc;

use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};
use rusqlite::Connection;

use super::script::{Measure, Script, ScriptError, Value};
use crate::metrics::{Serial, SerialSection};

/// The most scripts one commit takes: enough to amortize it, few enough that the first
/// caller of a group is not kept waiting long for the last.
const MOST_PER_GROUP: usize = 64;

/// Scripts committed between two nudges to the checkpointer.
const JOBS_PER_CHECKPOINT: usize = 256;

/// WAL pages at which the writer checkpoints in its own turn: only when the checkpointer
/// cannot catch up under a steady stream of writes (SQLite's default is 1,000).
pub(super) const WRITER_CHECKPOINT_PAGES: i64 = 16_000;

/// Prepared statements the writer keeps: every statement text a script uses, with room
/// for the pin inserts, whose text varies with their number of rows.
const STATEMENT_CACHE: usize = 64;

type Answer = tokio::sync::oneshot::Sender<Result<(), ScriptError>>;

struct Job {
    script: Script,
    answer: Answer,
}

/// The sending end of the writer thread's queue; the thread ends when the last is dropped.
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Opens a writing connection to the (already migrated) database at `path` and starts
    /// the thread that serves it. `turn` is the host's write turn; it is waited for on
    /// `runtime` at most `patience`.
    pub fn start(
        path: &Path,
        turn: Arc<tokio::sync::Mutex<()>>,
        patience: std::time::Duration,
    ) -> anyhow::Result<Writer> {
        let connection = open(path, patience)?;
        connection.pragma_update(None, "wal_autocheckpoint", WRITER_CHECKPOINT_PAGES)?;
        let checkpoints = open(path, patience)?;
        let runtime = tokio::runtime::Handle::current();
        let (jobs, queue) = mpsc::channel();
        let (nudge, nudged) = mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("quire-sqlite-checkpoint".into())
            .spawn(move || checkpoint(checkpoints, nudged))?;
        std::thread::Builder::new()
            .name("quire-sqlite-writer".into())
            .spawn(move || serve(connection, queue, turn, runtime, patience, nudge))?;
        Ok(Writer { jobs })
    }

    /// Runs `script` as its own write; returns once it has committed (or failed).
    pub async fn write(&self, script: Script) -> Result<(), ScriptError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Job { script, answer })
            .map_err(|_| sqlx::Error::WorkerCrashed)?;
        answered.await.map_err(|_| sqlx::Error::WorkerCrashed)?
    }
}

fn open(path: &Path, patience: std::time::Duration) -> rusqlite::Result<Connection> {
    use rusqlite::OpenFlags;
    let connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // The pool's settings (see `Db::open`): the same durability and checks for every writer.
    connection.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    // A group's savepoints keep the pages they change in a statement journal: in memory,
    // not a temporary file written during the write turn.
    connection.pragma_update(None, "temp_store", "MEMORY")?;
    // Another process (the CLI) may hold SQLite's lock for a moment.
    connection.busy_timeout(patience)?;
    connection.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // Creates touch pages all over the id indexes: keep more of them than the default 2 MiB.
    connection.pragma_update(None, "cache_size", -32_768)?;
    Ok(connection)
}

/// Copies committed pages from the WAL into the database file beside the writer (SQLite
/// lets one checkpoint run alongside writes), each time the writer nudges: copying and
/// syncing them inside the write turn took an eighth of it. The writer's own, rarer
/// checkpoint ([`WRITER_CHECKPOINT_PAGES`]) lets the WAL start over under a steady load,
/// where this one never catches up with the newest page.
fn checkpoint(connection: Connection, nudged: mpsc::Receiver<()>) {
    while nudged.recv().is_ok() {
        if let Err(e) = connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::debug!("checkpointing the database: {e}");
        }
    }
}

fn serve(
    connection: Connection,
    queue: mpsc::Receiver<Job>,
    turn: Arc<tokio::sync::Mutex<()>>,
    runtime: tokio::runtime::Handle,
    patience: std::time::Duration,
    nudge: mpsc::SyncSender<()>,
) {
    let mut since_checkpoint = 0;
    while let Ok(first) = queue.recv() {
        let taken = runtime
            .block_on(async { tokio::time::timeout(patience, turn.clone().lock_owned()).await });
        let mut group = vec![first];
        // Everything that queued while this thread waited goes in the same commit.
        while group.len() < MOST_PER_GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let Ok(turn) = taken else {
            for job in group {
                let _ = job.answer.send(Err(sqlx::Error::PoolTimedOut.into()));
            }
            continue;
        };
        let held = SerialSection::on_this_thread(Serial::WriteTurn);
        let outcomes = commit_group(&connection, &group);
        drop((held, turn));
        since_checkpoint += group.len();
        if since_checkpoint >= JOBS_PER_CHECKPOINT {
            since_checkpoint = 0;
            // Full: a checkpoint is already due, this nudge is not needed.
            let _ = nudge.try_send(());
        }
        for (job, outcome) in group.into_iter().zip(outcomes) {
            // A caller that stopped waiting (a client hung up) finds its write committed
            // or not, like one whose answer was lost on the way: nothing is half-done.
            let _ = job.answer.send(outcome);
        }
    }
}

/// Runs every job's script in one transaction; each job's outcome, in order.
fn commit_group(connection: &Connection, group: &[Job]) -> Vec<Result<(), ScriptError>> {
    match try_group(connection, group) {
        Ok(outcomes) => outcomes,
        Err(e) => {
            if !connection.is_autocommit() {
                let _ = connection.execute_batch("ROLLBACK");
            }
            group.iter().map(|_| Err(copy(&e).into())).collect()
        }
    }
}

/// The outcome of each job, or the error that failed the whole group (nothing committed).
fn try_group(
    connection: &Connection,
    group: &[Job],
) -> rusqlite::Result<Vec<Result<(), ScriptError>>> {
    control(connection, "BEGIN IMMEDIATE")?;
    let mut outcomes = Vec::with_capacity(group.len());
    if let [alone] = group {
        let outcome = run(connection, &alone.script);
        if outcome.is_err() {
            if !connection.is_autocommit() {
                control(connection, "ROLLBACK")?;
            }
            return Ok(vec![outcome]);
        }
        outcomes.push(outcome);
    } else {
        for job in group {
            control(connection, "SAVEPOINT job")?;
            let outcome = run(connection, &job.script);
            if let Err(ScriptError::Sqlite(e)) = &outcome {
                // Some errors (a full disk, I/O) end the transaction itself: then the
                // jobs before this one are gone too.
                if connection.is_autocommit() {
                    return Err(copy(e));
                }
            }
            if outcome.is_err() {
                control(connection, "ROLLBACK TO job")?;
            }
            control(connection, "RELEASE job")?;
            outcomes.push(outcome);
        }
    }
    control(connection, "COMMIT")?;
    Ok(outcomes)
}

/// Runs one of the transaction's own statements, prepared once.
fn control(connection: &Connection, sql: &str) -> rusqlite::Result<()> {
    connection.prepare_cached(sql)?.raw_execute()?;
    Ok(())
}

/// Runs each statement of `script`, binding `$n` to its n-th value as sqlx does.
fn run(connection: &Connection, script: &Script) -> Result<(), ScriptError> {
    for statement in &script.statements {
        let mut prepared = connection.prepare_cached(&statement.sql)?;
        for index in 1..=prepared.parameter_count() {
            let number = prepared
                .parameter_name(index)
                .and_then(|name| name.strip_prefix('$'))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(index);
            let value =
                statement
                    .args
                    .get(number - 1)
                    .ok_or(rusqlite::Error::InvalidParameterCount(
                        number,
                        statement.args.len(),
                    ))?;
            prepared.raw_bind_parameter(index, value)?;
        }
        let changed = match statement.measure {
            Measure::Changes => prepared.raw_execute()? as u64,
            Measure::Count => {
                let mut rows = prepared.raw_query();
                let counted: i64 = match rows.next()? {
                    Some(row) => row.get(0)?,
                    None => 0,
                };
                counted.max(0) as u64
            }
        };
        statement.check(changed)?;
    }
    Ok(())
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(v) => ValueRef::Integer(*v),
            Value::Real(v) => ValueRef::Real(*v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
        }))
    }
}

/// The same error again, for every job of a failed group (rusqlite's errors are not Clone).
fn copy(e: &rusqlite::Error) -> rusqlite::Error {
    match e {
        rusqlite::Error::SqliteFailure(code, message) => {
            rusqlite::Error::SqliteFailure(*code, message.clone())
        }
        other => rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(other.to_string()),
        ),
    }
}

#[cfg(test)]
mod tests;
