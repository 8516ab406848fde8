//! Accounts, plans, API credentials and access tokens (OAuth 2.0 client credentials).
//!
//! Secrets and tokens are 256-bit random values stored as sha256 digests. A token's scopes
//! are re-intersected with its credential's current scopes on every call, so narrowing or
//! revoking a credential takes effect on tokens already issued.

use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::error::{Error, Result};
use crate::store::memo::{ChangesSeen, Memo};
use crate::store::{now, Db};

pub const READ: &str = "documents:read";
pub const WRITE: &str = "documents:write";
pub const ALL_SCOPES: [&str; 2] = [READ, WRITE];
pub const TOKEN_LIFETIME: i64 = 3600;
pub const OLD_SECRET_GRACE: f64 = 24.0 * 3600.0;

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Plan {
    pub name: String,
    pub api: bool,
    pub daily_calls: Option<i64>,
    pub storage_quota: Option<i64>,
    pub max_file: i64,
    pub max_credentials: i64,
    pub sharing: bool,
    pub forms: bool,
}

impl Plan {
    /// Forms are part of the plan, like everything else: an operator can leave them out.
    pub fn require_forms(&self) -> Result<()> {
        if self.forms {
            Ok(())
        } else {
            Err(Error::PlanRequired(format!(
                "the {} plan does not include forms",
                self.name
            )))
        }
    }
}

#[derive(Debug, Clone)]
pub struct Account {
    pub id: String,
    pub email: String,
    pub email_confirmed: bool,
    pub retention_days: i64,
    /// As of the read that made this value: a principal's account may be remembered across
    /// calls (see [`KnownTokens`]), so quota checks read the database's figure.
    pub storage_used: i64,
    pub plan: Plan,
}

/// Who is calling: the account, through which credential, with which scopes.
#[derive(Debug, Clone)]
pub struct Principal {
    pub account: Account,
    pub client_id: String,
    pub scopes: Vec<String>,
}

impl Principal {
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// Why a bearer token does not open the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error("this call needs an access token: send `Authorization: Bearer <ACCESS_TOKEN>`")]
    Missing,
    #[error("a signed-in browser session does not reach the API; software sends `Authorization: Bearer <ACCESS_TOKEN>` from a credential")]
    BrowserSession,
    #[error(
        "the access token is not valid or has expired (tokens last one hour); ask for a new token"
    )]
    Invalid,
    #[error("the credential behind this token was revoked; ask for a new token with a current credential")]
    Revoked,
    #[error("the account's {0} plan does not include API access; the API needs the Pro or Enterprise plan")]
    PlanLapsed(String),
}

/// Why the token endpoint refuses (RFC 6749 section 5.2 names).
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("{0}")]
    InvalidRequest(String),
    #[error("the client id or secret is wrong, or the credential was revoked")]
    InvalidClient,
    #[error("only the client_credentials grant is issued")]
    UnsupportedGrantType,
    #[error("the account's {0} plan does not include API access; the API needs the Pro or Enterprise plan")]
    PlanRequired(String),
    /// The service could not issue one (the database, usually): the caller did nothing
    /// wrong. The error is classified as every other request's is: an outage is
    /// [`Error::Unavailable`], which the client may retry.
    #[error("the token could not be issued because the service failed; try again")]
    Service(Error),
}

impl From<sqlx::Error> for TokenError {
    fn from(e: sqlx::Error) -> Self {
        TokenError::Service(e.into())
    }
}

pub struct IssuedToken {
    pub access_token: String,
    pub expires_in: i64,
    pub scope: String,
}

pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::fill(&mut buf[..]);
    hex::encode(buf)
}

/// Keeps the known scopes of a space-separated list, in canonical order.
pub fn parse_scopes(s: &str) -> Vec<String> {
    let asked: Vec<&str> = s.split_whitespace().collect();
    ALL_SCOPES
        .iter()
        .filter(|k| asked.contains(k))
        .map(|k| k.to_string())
        .collect()
}

fn plan_from_row(row: &sqlx::any::AnyRow, prefix: &str) -> std::result::Result<Plan, sqlx::Error> {
    let col = |c: &str| format!("{prefix}{c}");
    Ok(Plan {
        name: row.try_get(col("name").as_str())?,
        api: row.try_get::<i64, _>(col("api").as_str())? != 0,
        daily_calls: row.try_get(col("daily_calls").as_str())?,
        storage_quota: row.try_get(col("storage_quota").as_str())?,
        max_file: row.try_get(col("max_file").as_str())?,
        max_credentials: row.try_get(col("max_credentials").as_str())?,
        sharing: row.try_get::<i64, _>(col("sharing").as_str())? != 0,
        forms: row.try_get::<i64, _>(col("forms").as_str())? != 0,
    })
}

const ACCOUNT_COLUMNS: &str = "a.id, a.email, a.email_confirmed, a.retention_days, a.storage_used,
    p.name AS p_name, p.api AS p_api, p.daily_calls AS p_daily_calls, p.storage_quota AS p_storage_quota,
    p.max_file AS p_max_file, p.max_credentials AS p_max_credentials, p.sharing AS p_sharing, p.forms AS p_forms";

fn account_from_row(row: &sqlx::any::AnyRow) -> std::result::Result<Account, sqlx::Error> {
    Ok(Account {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        email_confirmed: row.try_get::<i64, _>("email_confirmed")? != 0,
        retention_days: row.try_get("retention_days")?,
        storage_used: row.try_get("storage_used")?,
        plan: plan_from_row(row, "p_")?,
    })
}

pub async fn plan(db: &Db, name: &str) -> Result<Plan> {
    let row = sqlx::query(
        "SELECT name AS p_name, api AS p_api, daily_calls AS p_daily_calls, storage_quota AS p_storage_quota,
                max_file AS p_max_file, max_credentials AS p_max_credentials, sharing AS p_sharing, forms AS p_forms
         FROM plans WHERE name = $1",
    )
    .bind(name)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else {
        let names: Vec<String> = sqlx::query_scalar("SELECT name FROM plans ORDER BY name")
            .fetch_all(&db.pool)
            .await?;
        return Err(Error::NotFound(format!(
            "no plan named `{name}`; the plans are {}",
            names.join(", ")
        )));
    };
    Ok(plan_from_row(&row, "p_")?)
}

/// The plans that include the API, by name: plans are rows an operator may add or change.
pub async fn api_plans(db: &Db) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT name FROM plans WHERE api <> 0 ORDER BY name")
            .fetch_all(&db.pool)
            .await?,
    )
}

/// What `set_plan_limits` changes: `None` leaves a value as it is; `Some(None)` removes a
/// limit.
#[derive(Debug, Default)]
pub struct PlanChange {
    pub daily_calls: Option<Option<i64>>,
    pub storage_quota: Option<Option<i64>>,
    pub max_file: Option<i64>,
    pub sharing: Option<bool>,
    pub forms: Option<bool>,
}

/// Changes a plan's limits and what it includes.
pub async fn set_plan_limits(db: &Db, name: &str, change: PlanChange) -> Result<Plan> {
    let PlanChange {
        daily_calls,
        storage_quota,
        max_file,
        sharing,
        forms,
    } = change;
    let mut p = plan(db, name).await?;
    if let Some(v) = sharing {
        p.sharing = v;
    }
    if let Some(v) = forms {
        p.forms = v;
    }
    if let Some(v) = daily_calls {
        p.daily_calls = v;
    }
    if let Some(v) = storage_quota {
        p.storage_quota = v;
    }
    if let Some(v) = max_file {
        p.max_file = v;
    }
    sqlx::query(
        "UPDATE plans SET daily_calls = $1, storage_quota = $2, max_file = $3, sharing = $4, forms = $5 WHERE name = $6",
    )
    .bind(p.daily_calls)
    .bind(p.storage_quota)
    .bind(p.max_file)
    .bind(i64::from(p.sharing))
    .bind(i64::from(p.forms))
    .bind(name)
    .execute(&db.pool)
    .await?;
    Ok(p)
}

/// Whether any account exists (a fresh installation is told how to make the first).
pub async fn any_account(db: &Db) -> Result<bool> {
    let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM accounts LIMIT 1")
        .fetch_optional(&db.pool)
        .await?;
    Ok(found.is_some())
}

pub async fn create_account(db: &Db, email: &str, plan_name: &str) -> Result<String> {
    if !email.contains('@') || email.len() > 254 {
        return Err(Error::Invalid(format!("`{email}` is not an email address")));
    }
    plan(db, plan_name).await?;
    let id = crate::store::new_id();
    sqlx::query("INSERT INTO accounts (id, email, plan, created) VALUES ($1, $2, $3, $4)")
        .bind(&id)
        .bind(email)
        .bind(plan_name)
        .bind(now())
        .execute(&db.pool)
        .await
        .map_err(|e| match e {
            sqlx::Error::Database(d) if d.is_unique_violation() => {
                Error::Invalid(format!("an account with the email {email} exists already"))
            }
            e => e.into(),
        })?;
    Ok(id)
}

pub async fn account(db: &Db, id: &str) -> Result<Account> {
    let row = sqlx::query(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("no account {id}")))?;
    Ok(account_from_row(&row)?)
}

/// How many accounts `quire admin account list` prints at most.
pub const LIST_LIMIT: i64 = 10_000;

/// Accounts, oldest first (at most [`LIST_LIMIT`]), those whose email contains `email` when
/// it is given.
pub async fn list(db: &Db, email: Option<&str>) -> Result<Vec<Account>> {
    // A substring test both databases have, rather than LIKE: the text is matched as it
    // is, `%` and `_` included. Every email contains the empty text.
    let email = email.filter(|e| !e.is_empty());
    let filter = match email {
        None => "",
        Some(_) => "WHERE replace(lower(a.email), lower($1), '') <> lower(a.email)",
    };
    let sql = format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.name = a.plan {filter}
         ORDER BY a.created, a.id LIMIT {LIST_LIMIT}"
    );
    let mut query = sqlx::query(&sql);
    if let Some(email) = email {
        query = query.bind(email);
    }
    let rows = query.fetch_all(&db.pool).await?;
    rows.iter()
        .map(account_from_row)
        .collect::<std::result::Result<_, _>>()
        .map_err(Error::from)
}

/// The account with id or email `key`.
pub async fn find(db: &Db, key: &str) -> Result<Account> {
    let row = sqlx::query(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.name = a.plan
         WHERE a.id = $1 OR lower(a.email) = lower($1)"
    ))
    .bind(key)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("no account with the id or email {key}")))?;
    Ok(account_from_row(&row)?)
}

pub async fn set_plan(db: &Db, id: &str, plan_name: &str) -> Result<()> {
    plan(db, plan_name).await?;
    let done = sqlx::query("UPDATE accounts SET plan = $1 WHERE id = $2")
        .bind(plan_name)
        .bind(id)
        .execute(&db.pool)
        .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no account {id}")));
    }
    Ok(())
}

pub async fn confirm_email(db: &Db, id: &str) -> Result<()> {
    let done = sqlx::query("UPDATE accounts SET email_confirmed = 1 WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no account {id}")));
    }
    Ok(())
}

/// A new credential; the secret is returned once and stored only as a digest.
pub async fn create_credential(
    db: &Db,
    account_id: &str,
    scopes: &str,
    name: &str,
) -> Result<(String, String)> {
    let name = credential_name(name)?;
    let acct = account(db, account_id).await?;
    let scopes = parse_scopes(scopes);
    if scopes.is_empty() {
        return Err(Error::Invalid(format!(
            "scopes must include {} or {}",
            READ, WRITE
        )));
    }
    let live: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM credentials WHERE account_id = $1 AND revoked = 0",
    )
    .bind(account_id)
    .fetch_one(&db.pool)
    .await?;
    if live >= acct.plan.max_credentials {
        return Err(Error::Invalid(format!(
            "the account has {live} credentials, the most its plan allows; revoke one first"
        )));
    }
    let client_id = format!("qc_{}", random_hex(12));
    let secret = format!("qs_{}", random_hex(32));
    sqlx::query(
        "INSERT INTO credentials (client_id, account_id, secret_hash, scopes, created, name) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&client_id)
    .bind(account_id)
    .bind(hash_secret(&secret))
    .bind(scopes.join(" "))
    .bind(now())
    .bind(&name)
    .execute(&db.pool)
    .await?;
    Ok((client_id, secret))
}

/// The longest name a credential may have.
pub const MAX_CREDENTIAL_NAME: usize = 100;

/// A credential's name as given, trimmed; one line of at most [`MAX_CREDENTIAL_NAME`]
/// characters (it is shown in lists), or none.
fn credential_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.chars().count() > MAX_CREDENTIAL_NAME {
        return Err(Error::Invalid(format!(
            "a credential's name has at most {MAX_CREDENTIAL_NAME} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::Invalid(
            "a credential's name is one line of text".into(),
        ));
    }
    Ok(name.to_string())
}

/// When each credential was last used, written to the database at most once every
/// [`USE_RECORDED_EVERY`] seconds per credential (and per host), so an API call does not
/// cost a write.
#[derive(Default)]
pub struct CredentialUse {
    /// Read by every call, written once per credential every few minutes: a shared read
    /// lets calls on every core pass together.
    recorded: std::sync::RwLock<std::collections::HashMap<String, f64>>,
}

/// How stale a credential's "last used" may be.
pub const USE_RECORDED_EVERY: f64 = 300.0;
/// Credentials tracked before the memory of recent writes starts again (a bound, not a
/// cache size that matters: forgetting only costs one more write).
const USES_TRACKED: usize = 10_000;

impl CredentialUse {
    /// Records that `client_id` was used now, in the background when it is time to.
    pub fn note(&self, db: &Db, client_id: &str) {
        let at = now();
        let recent = |last: Option<&f64>| last.is_some_and(|last| at - last < USE_RECORDED_EVERY);
        {
            let recorded = self.recorded.read().unwrap_or_else(|e| e.into_inner());
            if recent(recorded.get(client_id)) {
                return;
            }
        }
        {
            let mut recorded = self.recorded.write().unwrap_or_else(|e| e.into_inner());
            if recent(recorded.get(client_id)) {
                return;
            }
            if recorded.len() >= USES_TRACKED {
                recorded.clear();
            }
            recorded.insert(client_id.to_string(), at);
        }
        let db = db.clone();
        let client_id = client_id.to_string();
        tokio::spawn(async move {
            let done = sqlx::query("UPDATE credentials SET last_used = $1 WHERE client_id = $2")
                .bind(at)
                .bind(&client_id)
                .execute(&db.pool)
                .await;
            if let Err(e) = done {
                tracing::warn!("recording the use of credential {client_id} failed: {e}");
            }
        });
    }
}

/// A credential as its account's page lists it (never its secret).
#[derive(Debug, Clone)]
pub struct CredentialRow {
    pub client_id: String,
    /// What the account holder called it (empty when unnamed).
    pub name: String,
    /// When a token was last issued to it or an API call made with one (to within
    /// [`USE_RECORDED_EVERY`]); `None` when never.
    pub last_used: Option<f64>,
    pub scopes: Vec<String>,
    pub created: f64,
    pub revoked: bool,
    /// Until when the secret before the last rotation still works.
    pub old_secret_until: Option<f64>,
}

/// The account's credentials, live ones first, newest first.
pub async fn credentials(db: &Db, account_id: &str) -> Result<Vec<CredentialRow>> {
    let rows = sqlx::query(
        "SELECT client_id, name, last_used, scopes, created, revoked, old_secret_expires FROM credentials
         WHERE account_id = $1 ORDER BY revoked, created DESC LIMIT 1000",
    )
    .bind(account_id)
    .fetch_all(&db.pool)
    .await?;
    let at = now();
    rows.iter()
        .map(|r| {
            let scopes: String = r.try_get("scopes")?;
            let old: Option<f64> = r.try_get("old_secret_expires")?;
            Ok(CredentialRow {
                client_id: r.try_get("client_id")?,
                name: r.try_get("name")?,
                last_used: r.try_get("last_used")?,
                scopes: parse_scopes(&scopes),
                created: r.try_get("created")?,
                revoked: r.try_get::<i64, _>("revoked")? != 0,
                old_secret_until: old.filter(|t| *t > at),
            })
        })
        .collect::<std::result::Result<_, sqlx::Error>>()
        .map_err(Error::from)
}

/// `client_id` if it is the account's: anyone else's credential is "not found".
pub async fn own_credential(db: &Db, account_id: &str, client_id: &str) -> Result<()> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM credentials WHERE client_id = $1 AND account_id = $2")
            .bind(client_id)
            .bind(account_id)
            .fetch_optional(&db.pool)
            .await?;
    found
        .map(|_| ())
        .ok_or_else(|| Error::NotFound(format!("no credential {client_id}")))
}

/// A new secret; the old one stays valid for 24 hours.
pub async fn rotate_secret(db: &Db, client_id: &str) -> Result<String> {
    let secret = format!("qs_{}", random_hex(32));
    let done = sqlx::query(
        "UPDATE credentials SET old_secret_hash = secret_hash, old_secret_expires = $1, secret_hash = $2
         WHERE client_id = $3 AND revoked = 0",
    )
    .bind(now() + OLD_SECRET_GRACE)
    .bind(hash_secret(&secret))
    .bind(client_id)
    .execute(&db.pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no live credential {client_id}")));
    }
    Ok(secret)
}

/// Revokes at once: the credential and every token issued from it stop working.
pub async fn revoke(db: &Db, client_id: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    let done = sqlx::query(
        "UPDATE credentials SET revoked = 1, old_secret_hash = NULL WHERE client_id = $1",
    )
    .bind(client_id)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no credential {client_id}")));
    }
    sqlx::query("DELETE FROM tokens WHERE client_id = $1")
        .bind(client_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

pub async fn set_scopes(db: &Db, client_id: &str, scopes: &str) -> Result<Vec<String>> {
    let scopes = parse_scopes(scopes);
    if scopes.is_empty() {
        return Err(Error::Invalid(format!(
            "scopes must include {} or {}",
            READ, WRITE
        )));
    }
    let done = sqlx::query("UPDATE credentials SET scopes = $1 WHERE client_id = $2")
        .bind(scopes.join(" "))
        .bind(client_id)
        .execute(&db.pool)
        .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no credential {client_id}")));
    }
    Ok(scopes)
}

/// The client credentials grant. Asking for more scope than the credential holds is
/// ignored, not refused; asking for less narrows the token.
pub async fn issue_token(
    db: &Db,
    client_id: &str,
    secret: &str,
    scope: Option<&str>,
) -> std::result::Result<IssuedToken, TokenError> {
    let row = sqlx::query(&format!(
        "SELECT c.secret_hash, c.old_secret_hash, c.old_secret_expires, c.scopes, c.revoked, {ACCOUNT_COLUMNS}
         FROM credentials c JOIN accounts a ON a.id = c.account_id JOIN plans p ON p.name = a.plan
         WHERE c.client_id = $1"
    ))
    .bind(client_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(TokenError::InvalidClient)?;
    let given = hash_secret(secret);
    let current: String = row.try_get("secret_hash")?;
    let old: Option<String> = row.try_get("old_secret_hash")?;
    let old_expires: Option<f64> = row.try_get("old_secret_expires")?;
    let revoked = row.try_get::<i64, _>("revoked")? != 0;
    let old_ok =
        old.is_some_and(|old| same_secret(&given, &old)) && old_expires.is_some_and(|t| t > now());
    if revoked || !(same_secret(&given, &current) || old_ok) {
        return Err(TokenError::InvalidClient);
    }
    let account = account_from_row(&row)?;
    if !account.plan.api {
        return Err(TokenError::PlanRequired(account.plan.name));
    }
    let held = parse_scopes(&row.try_get::<String, _>("scopes")?);
    let granted: Vec<String> = match scope {
        Some(s) if !s.trim().is_empty() => {
            let asked = parse_scopes(s);
            held.iter().filter(|h| asked.contains(h)).cloned().collect()
        }
        _ => held,
    };
    if granted.is_empty() {
        return Err(TokenError::InvalidRequest(
            "none of the requested scopes is held by this credential".into(),
        ));
    }
    let token = format!("qt_{}", random_hex(32));
    sqlx::query(
        "INSERT INTO tokens (token_hash, client_id, scopes, expires) VALUES ($1, $2, $3, $4)",
    )
    .bind(hash_secret(&token))
    .bind(client_id)
    .bind(granted.join(" "))
    .bind(now() + TOKEN_LIFETIME as f64)
    .execute(&db.pool)
    .await?;
    Ok(IssuedToken {
        access_token: token,
        expires_in: TOKEN_LIFETIME,
        scope: granted.join(" "),
    })
}

/// Compares secrets (or their hashes) in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    subtle::ConstantTimeEq::ct_eq(a.as_bytes(), b.as_bytes()).into()
}

/// Resolves a bearer token, checking expiry, revocation, scopes and the plan, in one query.
pub async fn authenticate(
    db: &Db,
    known: &KnownTokens,
    seen: ChangesSeen,
    token: &str,
) -> std::result::Result<Principal, AuthenticateError> {
    let token_hash = hash_secret(token);
    let ChangesSeen(serial) = seen;
    if let Some(serial) = serial {
        if let Some((principal, expires)) = known.0.get(&token_hash, serial) {
            if expires > now() {
                return Ok(principal);
            }
        }
    }
    let (principal, expires) = look_up_token(db, &token_hash).await?;
    if let Some(serial) = serial {
        known
            .0
            .put(token_hash, serial, (principal.clone(), expires));
    }
    Ok(principal)
}

/// Tokens that opened the API, remembered with their principal and expiry (see
/// `store::memo`): a revoked credential, a changed plan or scope, an account's change
/// raises the change serial, and the next call checks the database again.
pub struct KnownTokens(Memo<String, (Principal, f64)>);

/// Tokens remembered per host: a bound, not a size that matters (forgetting costs a read).
const TOKENS_REMEMBERED: usize = 20_000;

impl Default for KnownTokens {
    fn default() -> Self {
        KnownTokens(Memo::new(TOKENS_REMEMBERED))
    }
}

async fn look_up_token(
    db: &Db,
    token_hash: &str,
) -> std::result::Result<(Principal, f64), AuthenticateError> {
    let row = sqlx::query(&format!(
        "SELECT t.scopes AS token_scopes, t.expires, c.client_id, c.scopes AS credential_scopes, c.revoked, {ACCOUNT_COLUMNS}
         FROM tokens t JOIN credentials c ON c.client_id = t.client_id
         JOIN accounts a ON a.id = c.account_id JOIN plans p ON p.name = a.plan
         WHERE t.token_hash = $1"
    ))
    .bind(token_hash)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(AuthError::Invalid)?;
    if row.try_get::<i64, _>("revoked")? != 0 {
        return Err(AuthError::Revoked.into());
    }
    let expires = row.try_get::<f64, _>("expires")?;
    if expires <= now() {
        return Err(AuthError::Invalid.into());
    }
    let account = account_from_row(&row)?;
    if !account.plan.api {
        return Err(AuthError::PlanLapsed(account.plan.name).into());
    }
    let held = parse_scopes(&row.try_get::<String, _>("credential_scopes")?);
    let scopes = parse_scopes(&row.try_get::<String, _>("token_scopes")?)
        .into_iter()
        .filter(|s| held.contains(s))
        .collect();
    let principal = Principal {
        account,
        client_id: row.try_get("client_id")?,
        scopes,
    };
    Ok((principal, expires))
}

#[derive(Debug, thiserror::Error)]
pub enum AuthenticateError {
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Drops tokens that expired more than a day ago.
pub async fn purge_expired_tokens(db: &Db) -> Result<u64> {
    let done = sqlx::query("DELETE FROM tokens WHERE expires < $1")
        .bind(now() - 86400.0)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected())
}
