//! Daily call allowance, counted per account per UTC day in the database, so every host
//! sharing the database shares one allowance and concurrent calls never overspend it;
//! hosts take it in blocks (`Allowance`) so that a call costs no database write.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::metrics::{Serial, SerialSection};
use crate::store::{now, Db};

/// The UTC day of a Unix time, as YYYY-MM-DD.
pub fn utc_day(unix: f64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(unix.floor() as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .date();
    format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

/// Whole seconds from `unix` to the next midnight UTC (at least 1).
pub fn seconds_to_midnight(unix: f64) -> u64 {
    let into_day = unix.rem_euclid(86400.0);
    ((86400.0 - into_day).ceil() as u64).max(1)
}

/// The calls a host takes from the database at once, to begin with.
const BLOCK: i64 = 64;
/// The most it takes at once: a host that spends a block within its lease takes twice as
/// many next time, so a busy account costs a host a write or two a second, not one per
/// 64 calls (those writes queued every other call of the account behind them).
const MOST_AT_ONCE: i64 = 1 << 16;
/// How long a host keeps a lease before it gives back what it did not use.
pub const LEASE_LIFE: Duration = Duration::from_secs(1);

/// Calls this host took from an account's allowance in the database and has not spent yet.
#[derive(Debug)]
struct Lease {
    day: String,
    /// The allowance it was taken under: a plan change ends it at the next call.
    limit: Option<i64>,
    /// Calls it was granted, and how many of them are not spent.
    size: i64,
    left: i64,
    taken: Instant,
}

impl Lease {
    /// How many calls to ask for after this lease: twice as many when it was spent before
    /// it aged, as many when it was spent, the first block otherwise.
    fn next_size(&self) -> i64 {
        match self.left {
            0 if self.taken.elapsed() < LEASE_LIFE => (self.size * 2).min(MOST_AT_ONCE),
            0 => self.size,
            _ => BLOCK,
        }
    }
}

/// The daily allowance, counted in blocks: a host takes a block of calls from the usage
/// row in one transaction and counts it down in memory, so a read costs no database
/// write. Blocks grow with a host's pace (see [`MOST_AT_ONCE`]) and shrink near the end
/// of an allowance (a sixteenth of what is left, down to one call), so the last calls of
/// a day are counted one by one, in the database, exactly as before. A host gives back what it did not use when its lease is a second
/// old, before it reports usage, and when it stops; so usage read on the host that
/// served the calls is exact, and another host's unspent block is back within a second.
/// What a killed host held stays spent: a crash can cost an account at most one block,
/// never give it more calls than its plan.
#[derive(Debug, Default)]
pub struct Allowance {
    leases: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<Lease>>>>>,
}

impl Allowance {
    fn slot(&self, account_id: &str) -> Arc<tokio::sync::Mutex<Option<Lease>>> {
        self.leases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(account_id.to_string())
            .or_default()
            .clone()
    }

    /// Counts one call against the account's allowance (`None`: unlimited, counted for
    /// the record). Refused once the allowance is spent, with the seconds to midnight.
    pub async fn count_call(&self, db: &Db, account_id: &str, allowed: Option<i64>) -> Result<()> {
        let t = now();
        let day = utc_day(t);
        let slot = self.slot(account_id);
        let mut lease = slot.lock().await;
        let _serial = SerialSection::enter(Serial::Allowance);
        if let Some(l) = lease.as_mut().filter(|l| {
            l.day == day && l.limit == allowed && l.left > 0 && l.taken.elapsed() < LEASE_LIFE
        }) {
            l.left -= 1;
            return Ok(());
        }
        let wanted = lease.as_ref().map_or(BLOCK, Lease::next_size);
        let granted = renew(db, account_id, &day, allowed, wanted, lease.take()).await?;
        if granted == 0 {
            return Err(Error::AllowanceSpent {
                allowed: allowed.unwrap_or(0),
                retry_after: seconds_to_midnight(t),
            });
        }
        *lease = Some(Lease {
            day,
            limit: allowed,
            size: granted,
            left: granted - 1,
            taken: Instant::now(),
        });
        Ok(())
    }

    /// Gives back the account's unspent calls, so the usage row counts only calls made.
    pub async fn release(&self, db: &Db, account_id: &str) -> Result<()> {
        let slot = self.slot(account_id);
        let mut lease = slot.lock().await;
        if let Some(l) = lease.take() {
            give_back(db, account_id, &l).await?;
        }
        Ok(())
    }

    /// Gives back every lease older than `age` (all of them with `Duration::ZERO`, when
    /// the server stops), and forgets accounts that hold none.
    pub async fn release_older_than(&self, db: &Db, age: Duration) -> Result<()> {
        let slots: Vec<(String, Arc<tokio::sync::Mutex<Option<Lease>>>)> = self
            .leases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (account_id, slot) in slots {
            let mut lease = slot.lock().await;
            if lease.as_ref().is_some_and(|l| l.taken.elapsed() >= age) {
                if let Some(l) = lease.take() {
                    give_back(db, &account_id, &l).await?;
                }
            }
            if lease.is_none() {
                drop(lease);
                let mut map = self.leases.lock().unwrap_or_else(|p| p.into_inner());
                // Only if no call picked the slot up meanwhile.
                if map
                    .get(&account_id)
                    .is_some_and(|s| Arc::strong_count(s) == 2)
                {
                    map.remove(&account_id);
                }
            }
        }
        Ok(())
    }
}

/// How many calls a new lease takes when `base` calls are counted.
fn block(base: i64, allowed: Option<i64>, wanted: i64) -> i64 {
    match allowed {
        None => wanted,
        Some(limit) if base >= limit => 0,
        Some(limit) => ((limit - base) / 16).clamp(1, wanted),
    }
}

async fn give_back(db: &Db, account_id: &str, lease: &Lease) -> Result<()> {
    if lease.left > 0 {
        sqlx::query("UPDATE usage SET calls = calls - $1 WHERE account_id = $2 AND day = $3")
            .bind(lease.left)
            .bind(account_id)
            .bind(&lease.day)
            .execute(&db.pool)
            .await?;
    }
    Ok(())
}

/// Gives back what `old` did not use and takes a new block, in one transaction (the row
/// is locked from the first UPDATE on, so no other host moves the count in between).
/// Returns the calls granted, 0 when the allowance is spent.
async fn renew(
    db: &Db,
    account_id: &str,
    day: &str,
    allowed: Option<i64>,
    wanted: i64,
    old: Option<Lease>,
) -> Result<i64> {
    if allowed.is_some_and(|limit| limit <= 0) {
        if let Some(old) = &old {
            give_back(db, account_id, old).await?;
        }
        return Ok(0);
    }
    let mut tx = db.begin().await?;
    if let Some(old) = old.filter(|o| o.left > 0) {
        sqlx::query("UPDATE usage SET calls = calls - $1 WHERE account_id = $2 AND day = $3")
            .bind(old.left)
            .bind(account_id)
            .bind(&old.day)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query(
        "INSERT INTO usage (account_id, day, calls) VALUES ($1, $2, 0)
         ON CONFLICT (account_id, day) DO NOTHING",
    )
    .bind(account_id)
    .bind(day)
    .execute(&mut *tx)
    .await?;
    let base: i64 = sqlx::query_scalar(
        "UPDATE usage SET calls = calls WHERE account_id = $1 AND day = $2 RETURNING calls",
    )
    .bind(account_id)
    .bind(day)
    .fetch_one(&mut *tx)
    .await?;
    let granted = block(base, allowed, wanted);
    if granted > 0 {
        sqlx::query("UPDATE usage SET calls = calls + $1 WHERE account_id = $2 AND day = $3")
            .bind(granted)
            .bind(account_id)
            .bind(day)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(granted)
}

pub async fn calls_today(db: &Db, account_id: &str) -> Result<i64> {
    let calls: Option<i64> =
        sqlx::query_scalar("SELECT calls FROM usage WHERE account_id = $1 AND day = $2")
            .bind(account_id)
            .bind(utc_day(now()))
            .fetch_optional(&db.pool)
            .await?;
    Ok(calls.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_shrink_to_one_call_near_the_end() {
        assert_eq!(block(0, None, BLOCK), BLOCK);
        assert_eq!(block(0, Some(100_000), BLOCK), BLOCK);
        assert_eq!(block(0, Some(160), BLOCK), 10);
        assert_eq!(block(95, Some(100), BLOCK), 1);
        assert_eq!(block(99, Some(100), BLOCK), 1);
        assert_eq!(block(100, Some(100), BLOCK), 0);
        assert_eq!(block(150, Some(100), BLOCK), 0);
        // However many a busy host asks for.
        assert_eq!(block(0, None, MOST_AT_ONCE), MOST_AT_ONCE);
        assert_eq!(block(0, Some(1_600), MOST_AT_ONCE), 100);
        assert_eq!(block(99, Some(100), MOST_AT_ONCE), 1);
    }

    #[test]
    fn a_busy_lease_asks_for_more_and_an_idle_one_for_the_first_block() {
        let lease = |size, left, age| Lease {
            day: "2026-11-28".into(),
            limit: None,
            size,
            left,
            taken: Instant::now() - age,
        };
        let young = Duration::ZERO;
        let old = LEASE_LIFE * 2;
        assert_eq!(lease(64, 0, young).next_size(), 128);
        assert_eq!(lease(MOST_AT_ONCE, 0, young).next_size(), MOST_AT_ONCE);
        assert_eq!(lease(4096, 0, old).next_size(), 4096, "spent, but slowly");
        assert_eq!(lease(4096, 3, old).next_size(), BLOCK, "not spent");
    }

    #[test]
    fn days_and_midnights_are_utc() {
        assert_eq!(utc_day(0.0), "1970-01-01");
        assert_eq!(utc_day(1_795_305_600.0 - 0.5), "2026-11-21");
        assert_eq!(utc_day(1_795_305_600.0), "2026-11-22");
        assert_eq!(seconds_to_midnight(1_795_305_600.0 - 10.0), 10);
        assert_eq!(seconds_to_midnight(1_795_305_600.0), 86400);
    }
}
