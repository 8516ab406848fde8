//! Reads that cost no database round trip: rows remembered in memory together with the
//! database's change serial, and trusted only while that serial has not moved.
//!
//! The serial is `cache_serial.n`, which triggers raise in the same transaction as any
//! update or delete of a remembered table (tokens, credentials, accounts, plans,
//! documents), whoever writes: this host, another host, or the CLI. So a change is seen by
//! the first read after it commits, everywhere, without any writer having to know what is
//! remembered. Inserts do not raise it: only rows that exist are remembered.
//!
//! On SQLite the serial is read in this thread, on a read-only connection of its own
//! (microseconds, no hand-off to sqlx's connection thread, no lock shared between threads).
//! Where it cannot be read that cheaply (Postgres, or a failed read) nothing is remembered
//! and every read goes to the database, as before.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;

/// The change serial one request read when it began (`None`: remember nothing). Rows
/// remembered at it hold everything committed before the request arrived.
#[derive(Clone, Copy, Debug)]
pub struct ChangesSeen(pub Option<i64>);

/// How a host learns the current change serial.
#[derive(Clone, Debug)]
pub struct ChangeSerial {
    sqlite: Option<SqliteSerial>,
}

#[derive(Clone, Debug)]
struct SqliteSerial {
    /// Tells apart the databases one process opens (tests open many).
    database: u64,
    path: PathBuf,
}

/// Per thread: one read-only connection per database file. A handful of databases at most
/// in a server; a test process that opens more starts over rather than hold them all.
const READERS_PER_THREAD: usize = 8;

thread_local! {
    static READERS: RefCell<Vec<(u64, rusqlite::Connection)>> = const { RefCell::new(Vec::new()) };
}

impl ChangeSerial {
    /// Nothing is remembered: every read asks the database.
    pub fn none() -> ChangeSerial {
        ChangeSerial { sqlite: None }
    }

    pub fn sqlite(path: PathBuf) -> ChangeSerial {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ChangeSerial {
            sqlite: Some(SqliteSerial {
                database: NEXT.fetch_add(1, Ordering::Relaxed),
                path,
            }),
        }
    }

    /// The serial now, or `None` when it cannot be known cheaply (then remember nothing).
    pub fn current(&self) -> Option<i64> {
        let source = self.sqlite.as_ref()?;
        READERS.with(|cell| {
            let mut readers = cell.borrow_mut();
            let at = match readers.iter().position(|(id, _)| *id == source.database) {
                Some(at) => at,
                None => {
                    if readers.len() >= READERS_PER_THREAD {
                        readers.clear();
                    }
                    readers.push((source.database, source.open().ok()?));
                    readers.len() - 1
                }
            };
            let read = readers[at]
                .1
                .prepare_cached("SELECT n FROM cache_serial WHERE id = 1")
                .and_then(|mut statement| statement.query_row([], |row| row.get::<_, i64>(0)));
            match read {
                Ok(serial) => Some(serial),
                Err(e) => {
                    // A moved or replaced file (a restore) gets a new connection next time.
                    tracing::debug!("reading the change serial: {e}");
                    readers.swap_remove(at);
                    None
                }
            }
        })
    }
}

impl SqliteSerial {
    fn open(&self) -> rusqlite::Result<rusqlite::Connection> {
        use rusqlite::OpenFlags;
        let connection = rusqlite::Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // A checkpoint can hold the WAL index for a moment; wait for it rather than fail.
        connection.busy_timeout(std::time::Duration::from_millis(200))?;
        Ok(connection)
    }
}

/// Values remembered under the change serial they were read at. Sharded, so threads
/// reading different keys do not queue on one lock; bounded, so no caller can grow it
/// without limit (a full shard forgets what an older serial left, then everything).
pub struct Memo<K, V> {
    shards: Box<[Shard<K, V>]>,
    per_shard: usize,
    hasher: std::collections::hash_map::RandomState,
}

/// Values by key, each with the serial it was read at.
type Shard<K, V> = RwLock<HashMap<K, (i64, V)>>;

const SHARDS: usize = 16;

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// Remembers at most about `capacity` values.
    pub fn new(capacity: usize) -> Memo<K, V> {
        Memo {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            per_shard: capacity.div_ceil(SHARDS).max(1),
            hasher: Default::default(),
        }
    }

    fn shard(&self, key: &K) -> &Shard<K, V> {
        &self.shards[self.hasher.hash_one(key) as usize % SHARDS]
    }

    /// The value remembered for `key` if it was read at `serial`.
    pub fn get(&self, key: &K, serial: i64) -> Option<V> {
        let shard = self.shard(key).read().unwrap_or_else(|e| e.into_inner());
        match shard.get(key) {
            Some((at, value)) if *at == serial => Some(value.clone()),
            _ => None,
        }
    }

    /// Remembers `value`, read from the database after the serial was `serial`: a change
    /// that commits between the two raises the serial, so the value is not trusted again.
    pub fn put(&self, key: K, serial: i64, value: V) {
        let mut shard = self.shard(&key).write().unwrap_or_else(|e| e.into_inner());
        if shard.len() >= self.per_shard && !shard.contains_key(&key) {
            shard.retain(|_, (at, _)| *at == serial);
            if shard.len() >= self.per_shard {
                shard.clear();
            }
        }
        shard.insert(key, (serial, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{self, AuthError, AuthenticateError, KnownTokens};
    use crate::documents::KnownDocuments;
    use crate::store::Db;

    /// Whatever another process (the CLI, another host) commits is seen by the next read,
    /// and what nothing changed is not read again.
    #[tokio::test]
    async fn remembered_rows_follow_every_writer() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(None, dir.path()).await.unwrap();
        // A second pool on the same file, as `quire admin` opens it.
        let cli = Db::open(None, dir.path()).await.unwrap();
        let account = accounts::create_account(&db, "memo@example.org", "pro")
            .await
            .unwrap();
        let (client_id, secret) =
            accounts::create_credential(&db, &account, "documents:read documents:write", "")
                .await
                .unwrap();
        let token = accounts::issue_token(&db, &client_id, &secret, None)
            .await
            .unwrap()
            .access_token;
        let known = KnownTokens::default();
        let seen = || ChangesSeen(db.changes.current());
        assert!(seen().0.is_some(), "SQLite's serial is read in this thread");
        let call = || async { accounts::authenticate(&db, &known, seen(), &token).await };
        assert_eq!(call().await.unwrap().account.storage_used, 0);

        // A column nothing remembered depends on changes no serial: the call is not read again.
        let used = "UPDATE accounts SET storage_used = 99 WHERE id = $1";
        sqlx::query(used)
            .bind(&account)
            .execute(&cli.pool)
            .await
            .unwrap();
        assert_eq!(call().await.unwrap().account.storage_used, 0, "remembered");

        accounts::set_plan(&cli, &account, "enterprise")
            .await
            .unwrap();
        let principal = call().await.unwrap();
        assert_eq!(principal.account.plan.name, "enterprise");
        assert_eq!(principal.account.storage_used, 99, "read again");

        // Revoking deletes the credential's tokens.
        accounts::revoke(&cli, &client_id).await.unwrap();
        assert!(matches!(
            call().await,
            Err(AuthenticateError::Auth(AuthError::Invalid))
        ));

        let insert = "INSERT INTO documents (id, account_id, kind, title, version, pages, shapes, created, updated)
                      VALUES ('d1', $1, 'pdf', 'First', 1, 1, 0, 0, 0)";
        sqlx::query(insert)
            .bind(&account)
            .execute(&db.pool)
            .await
            .unwrap();
        let documents = KnownDocuments::default();
        let read = || async { documents.get(&db, seen(), &account, "d1").await };
        assert_eq!(read().await.unwrap().title, "First");
        let rename = "UPDATE documents SET title = 'Second', version = 2 WHERE id = 'd1'";
        sqlx::query(rename).execute(&cli.pool).await.unwrap();
        let row = read().await.unwrap();
        assert_eq!((row.title.as_str(), row.version), ("Second", 2));
        let bin = "UPDATE documents SET binned_at = 1 WHERE id = 'd1'";
        sqlx::query(bin).execute(&cli.pool).await.unwrap();
        assert!(read().await.is_err(), "a binned document is not found");
    }

    #[test]
    fn a_value_is_trusted_only_at_the_serial_it_was_read_at() {
        let memo: Memo<&str, i32> = Memo::new(64);
        memo.put("a", 7, 1);
        assert_eq!(memo.get(&"a", 7), Some(1));
        assert_eq!(memo.get(&"a", 8), None, "a newer serial");
        assert_eq!(memo.get(&"b", 7), None);
    }

    #[test]
    fn a_full_memo_forgets_instead_of_growing() {
        let memo: Memo<u32, u32> = Memo::new(SHARDS * 4);
        for key in 0..10_000 {
            memo.put(key, 1, key);
        }
        let held: usize = memo.shards.iter().map(|s| s.read().unwrap().len()).sum();
        assert!(held <= SHARDS * 4, "{held}");
        assert_eq!(memo.get(&9_999, 1), Some(9_999), "the newest is kept");
    }
}
