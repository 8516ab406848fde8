//! People in the browser: one-time sign-in links and the sessions they open.
//!
//! A link is a 256-bit random token, sent to the account's address through the outbox (or
//! printed for an operator by `quire admin account login-link`). It works once, for
//! [`LINK_LIFETIME`], and an account gets at most [`LINKS_PER_HOUR`] of them. Redeeming it
//! opens a session: another random value, kept by the browser in a cookie, with a
//! synchronizer token (`csrf`) that every change made from a page must carry. Only digests
//! of links and session ids are stored.

use sqlx::Row;

use crate::accounts::{self, hash_secret, Account};
use crate::error::{Error, Result};
use crate::mail::{self, Mail};
use crate::page_urls::PageUrls;
use crate::store::{now, Db};

/// How long a sign-in link may wait in a mailbox.
pub const LINK_LIFETIME: f64 = 15.0 * 60.0;
/// Links an account may be sent in an hour: enough for a lost mail or two, too few to
/// flood a mailbox.
pub const LINKS_PER_HOUR: i64 = 5;
/// How long a session lasts after sign-in, whatever is done with it.
pub const SESSION_LIFETIME: f64 = 7.0 * 86_400.0;
/// Sessions one account may hold at once (browsers, devices); the oldest gives way.
const MAX_SESSIONS: i64 = 20;

fn random_token() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

/// A session as a request finds it.
#[derive(Debug, Clone)]
pub struct Session {
    pub account: Account,
    pub csrf: String,
    pub expires: f64,
}

/// A session just opened: `cookie` is what the browser keeps; it is not stored.
pub struct Opened {
    pub cookie: String,
    pub expires: f64,
}

/// A new sign-in link's token for `account_id`, counted against the hourly allowance.
pub async fn issue_link(db: &Db, account_id: &str) -> Result<String> {
    accounts::account(db, account_id).await?;
    let mut tx = db.begin().await?;
    let at = now();
    let recent: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM login_links WHERE account_id = $1 AND created > $2",
    )
    .bind(account_id)
    .bind(at - 3600.0)
    .fetch_one(&mut *tx)
    .await?;
    if recent >= LINKS_PER_HOUR {
        let oldest: f64 = sqlx::query_scalar(
            "SELECT MIN(created) FROM login_links WHERE account_id = $1 AND created > $2",
        )
        .bind(account_id)
        .bind(at - 3600.0)
        .fetch_one(&mut *tx)
        .await?;
        return Err(Error::TooMany {
            detail: format!(
                "{LINKS_PER_HOUR} sign-in links were sent to this account in the last hour; use one of them or wait"
            ),
            retry_after: (oldest + 3600.0 - at).ceil().max(1.0) as u64,
        });
    }
    let token = random_token();
    sqlx::query(
        "INSERT INTO login_links (token_hash, account_id, created, expires) VALUES ($1, $2, $3, $4)",
    )
    .bind(hash_secret(&token))
    .bind(account_id)
    .bind(at)
    .bind(at + LINK_LIFETIME)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Sends a sign-in link to the account with `email`, if there is one. Whether there is
/// is not told to the caller: the page says the same either way.
pub async fn mail_link(db: &Db, urls: &dyn PageUrls, email: &str) -> Result<()> {
    let email = email.trim();
    if email.is_empty() || email.chars().count() > 254 {
        return Ok(());
    }
    let found: Option<String> =
        sqlx::query_scalar("SELECT id FROM accounts WHERE LOWER(email) = LOWER($1)")
            .bind(email)
            .fetch_optional(&db.pool)
            .await?;
    let Some(account_id) = found else {
        return Ok(());
    };
    let token = match issue_link(db, &account_id).await {
        Ok(t) => t,
        // Said nowhere either: a mailbox flooded by a stranger gets nothing more.
        Err(Error::TooMany { .. }) => return Ok(()),
        Err(e) => return Err(e),
    };
    let account = accounts::account(db, &account_id).await?;
    let mut tx = db.begin().await?;
    mail::enqueue(
        &mut tx,
        &account_id,
        Mail {
            to: account.email,
            subject: "Your Quire sign-in link".into(),
            body: format!(
                "Open this link to sign in to Quire:\n\n{}\n\nIt works once, within {} minutes. If you did not ask for it, ignore this mail.\n",
                urls.sign_in(&token),
                (LINK_LIFETIME / 60.0) as i64
            ),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Uses up a sign-in link and opens a session. A link that is unknown, used or expired
/// opens nothing, and which of the three it was is not told.
pub async fn redeem(db: &Db, token: &str) -> Result<Opened> {
    let unusable = || {
        Error::NotFound(
            "this sign-in link is not valid any more (links work once, for 15 minutes); ask for a new one".into(),
        )
    };
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(unusable());
    }
    let at = now();
    let mut tx = db.begin().await?;
    // Marking it used is the claim: of two racing redeems, one changes the row.
    let claimed = sqlx::query(
        "UPDATE login_links SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires > $1",
    )
    .bind(at)
    .bind(hash_secret(token))
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() == 0 {
        return Err(unusable());
    }
    let account_id: String =
        sqlx::query_scalar("SELECT account_id FROM login_links WHERE token_hash = $1")
            .bind(hash_secret(token))
            .fetch_one(&mut *tx)
            .await?;
    // Signing in proves the address is the person's.
    sqlx::query("UPDATE accounts SET email_confirmed = 1 WHERE id = $1")
        .bind(&account_id)
        .execute(&mut *tx)
        .await?;
    let cookie = random_token();
    let expires = at + SESSION_LIFETIME;
    sqlx::query(
        "INSERT INTO sessions (id_hash, account_id, csrf, created, expires) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(hash_secret(&cookie))
    .bind(&account_id)
    .bind(random_token())
    .bind(at)
    .bind(expires)
    .execute(&mut *tx)
    .await?;
    // The oldest sessions past the most an account holds end here.
    sqlx::query(
        "DELETE FROM sessions WHERE account_id = $1 AND id_hash NOT IN
         (SELECT id_hash FROM sessions WHERE account_id = $1 ORDER BY created DESC LIMIT $2)",
    )
    .bind(&account_id)
    .bind(MAX_SESSIONS)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Opened { cookie, expires })
}

/// The live session a cookie names, if any.
pub async fn find(db: &Db, cookie: &str) -> Result<Option<Session>> {
    if cookie.len() != 64 {
        return Ok(None);
    }
    let row = sqlx::query("SELECT account_id, csrf, expires FROM sessions WHERE id_hash = $1")
        .bind(hash_secret(cookie))
        .fetch_optional(&db.pool)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let expires: f64 = row.try_get("expires")?;
    if expires <= now() {
        return Ok(None);
    }
    let account_id: String = row.try_get("account_id")?;
    Ok(Some(Session {
        account: accounts::account(db, &account_id).await?,
        csrf: row.try_get("csrf")?,
        expires,
    }))
}

/// Ends the session a cookie names (sign-out).
pub async fn end(db: &Db, cookie: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
        .bind(hash_secret(cookie))
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Forgets expired sessions and links (housekeeping).
pub async fn purge_expired(db: &Db) -> Result<u64> {
    let at = now();
    let sessions = sqlx::query("DELETE FROM sessions WHERE expires <= $1")
        .bind(at)
        .execute(&db.pool)
        .await?;
    // Links are kept for an hour past their life so the hourly allowance still sees them.
    let links = sqlx::query("DELETE FROM login_links WHERE expires <= $1")
        .bind(at - 3600.0)
        .execute(&db.pool)
        .await?;
    Ok(sessions.rows_affected() + links.rows_affected())
}

/// Whether `sent` is the session's synchronizer token, compared in constant time.
pub fn csrf_matches(session: &Session, sent: &str) -> bool {
    accounts::same_secret(&session.csrf, sent)
}
