//! Daily call allowance, counted per account per UTC day in the database, so every host
//! sharing the database shares one allowance and concurrent calls never overspend it.

use sqlx::Row;

use crate::error::{Error, Result};
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

/// Counts one call against the account's allowance, atomically: the increment only
/// happens while the count is under the limit, so 50 racing calls at the edge spend
/// exactly what is left and the rest are refused.
pub async fn count_call(db: &Db, account_id: &str, allowed: Option<i64>) -> Result<i64> {
    let t = now();
    let day = utc_day(t);
    let spent = || Error::AllowanceSpent {
        allowed: allowed.unwrap_or(0),
        retry_after: seconds_to_midnight(t),
    };
    let row = match allowed {
        Some(limit) if limit <= 0 => return Err(spent()),
        Some(limit) => {
            sqlx::query(
                "INSERT INTO usage (account_id, day, calls) VALUES ($1, $2, 1)
                 ON CONFLICT (account_id, day) DO UPDATE SET calls = usage.calls + 1
                 WHERE usage.calls < $3 RETURNING calls",
            )
            .bind(account_id)
            .bind(&day)
            .bind(limit)
            .fetch_optional(&db.pool)
            .await?
        }
        None => {
            sqlx::query(
                "INSERT INTO usage (account_id, day, calls) VALUES ($1, $2, 1)
                 ON CONFLICT (account_id, day) DO UPDATE SET calls = usage.calls + 1 RETURNING calls",
            )
            .bind(account_id)
            .bind(&day)
            .fetch_optional(&db.pool)
            .await?
        }
    };
    match row {
        Some(r) => Ok(r.try_get("calls")?),
        None => Err(spent()),
    }
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
    fn days_and_midnights_are_utc() {
        assert_eq!(utc_day(0.0), "1970-01-01");
        assert_eq!(utc_day(1_795_305_600.0 - 0.5), "2026-11-21");
        assert_eq!(utc_day(1_795_305_600.0), "2026-11-22");
        assert_eq!(seconds_to_midnight(1_795_305_600.0 - 10.0), 10);
        assert_eq!(seconds_to_midnight(1_795_305_600.0), 86400);
    }
}
