//! Domain errors: what went wrong, in the service's own terms. Only `api::error` turns
//! them into HTTP.

use crate::runtime::ConversionError;
use crate::store::{BlobError, ScriptError};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed; the sentence says what the operation takes.
    #[error("{0}")]
    Invalid(String),
    /// One named part of the request is wrong (a field of a form, an answer).
    #[error("{field}: {detail}")]
    InvalidField { field: String, detail: String },
    /// One named part of a well-formed request does not fit the thing it is about (a box
    /// outside its page, an answer to a question the form does not ask).
    #[error("{field}: {detail}")]
    Unfit { field: String, detail: String },
    #[error("{0}")]
    NotFound(String),
    /// The thing asked for exists but its state refuses the request (a closed form, a
    /// second answer where one is allowed).
    #[error("{0}")]
    Conflict(String),
    /// The account may not do this until it has done something else first (confirm its
    /// email address).
    #[error("{0}")]
    Forbidden(String),
    /// A versioned update found another version than it expected.
    #[error("the document is at version {current}, not {expected}; fetch it again and retry")]
    VersionConflict { current: i64, expected: i64 },
    /// The plan does not include what was asked.
    #[error("{0}")]
    PlanRequired(String),
    #[error("the file is {size} bytes; the {plan} plan takes files up to {limit} bytes")]
    FileTooLarge { size: u64, limit: i64, plan: String },
    #[error(
        "this would use {needed} bytes of storage; {left} of the account's {quota} bytes are left"
    )]
    StorageFull { needed: i64, left: i64, quota: i64 },
    #[error("the daily allowance of {allowed} calls is spent; it resets at midnight UTC")]
    AllowanceSpent { allowed: i64, retry_after: u64 },
    /// Too many of one kind of request in a while (invitations per day); the caller may
    /// try again after `retry_after` seconds.
    #[error("{detail}")]
    TooMany { detail: String, retry_after: u64 },
    /// Something the service depends on (the blob store) is down for now; the caller
    /// should try again shortly. Nothing was changed.
    #[error("{0}")]
    Unavailable(String),
    /// The server's own storage has no room (its disk, not the account's quota).
    #[error("{0}")]
    ServerFull(String),
    #[error(transparent)]
    Conversion(#[from] ConversionError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        if database_unreachable(&e) {
            tracing::warn!("database: {e}");
            return Error::Unavailable(
                "the database is not answering; nothing was changed, try again shortly".into(),
            );
        }
        Error::Internal(e.into())
    }
}

/// Whether `e` says the database could not be reached or went away (a restart, a failover,
/// a full pool), as opposed to a statement it refused: the request may succeed later.
pub fn database_unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        // Postgres: connection exceptions (08xxx), shutting down or starting (57P01-57P03).
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|c| c.starts_with("08") || matches!(&*c, "57P01" | "57P02" | "57P03")),
        _ => false,
    }
}

impl From<ScriptError> for Error {
    /// A script's database errors; a [`Refusal`](crate::store::Refusal) its caller did not
    /// turn into its own answer is a fault of that caller.
    fn from(e: ScriptError) -> Self {
        match e {
            ScriptError::Database(e) => e.into(),
            other => script_outage(&other).unwrap_or_else(|| Error::Internal(other.into())),
        }
    }
}

/// What the caller is told when a script stopped because the database could not take it
/// now (unreachable, busy, locked) or has no room: `None` for any other error, a fault.
/// Also asked of a script error found deep in an error chain (a blob pin write).
pub fn script_outage(e: &ScriptError) -> Option<Error> {
    match e {
        ScriptError::Database(db) if database_unreachable(db) => {
            tracing::warn!("database: {db}");
            Some(Error::Unavailable(
                "the database is not answering; nothing was changed, try again shortly".into(),
            ))
        }
        ScriptError::Sqlite(e) => match e.sqlite_error_code()? {
            rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked => {
                tracing::warn!("database: {e}");
                Some(Error::Unavailable(
                    "the database is busy; nothing was changed, try again shortly".into(),
                ))
            }
            rusqlite::ErrorCode::DiskFull => {
                tracing::error!("database: {e}");
                Some(Error::ServerFull(
                    "the server's storage is full; nothing was changed, try again later".into(),
                ))
            }
            _ => None,
        },
        _ => None,
    }
}

impl From<BlobError> for Error {
    fn from(e: BlobError) -> Self {
        match e {
            BlobError::Unavailable(detail) => {
                tracing::warn!("blob store: {detail}");
                Error::Unavailable(
                    "the blob store is not answering; nothing was changed, try again shortly"
                        .into(),
                )
            }
            BlobError::Full(detail) => {
                tracing::error!("blob store full: {detail}");
                Error::ServerFull(
                    "the server's storage is full; nothing was changed, try again later".into(),
                )
            }
            other => Error::Internal(other.into()),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where a JSON reading error is, as `fields[0].h`: serde's path of the value at fault,
/// under `root` (the member the text was, "" for a whole body), and for a missing member
/// the member itself rather than the object it is missing from.
pub fn json_error_path(e: &serde_path_to_error::Error<serde_json::Error>, root: &str) -> String {
    let at = e.path().to_string();
    let at = at.trim_start_matches('.');
    let mut path = match (root.is_empty(), at.is_empty()) {
        (true, _) => at.to_string(),
        (false, true) => root.to_string(),
        (false, false) if at.starts_with('[') => format!("{root}{at}"),
        (false, false) => format!("{root}.{at}"),
    };
    let message = e.inner().to_string();
    if let Some(missing) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
    {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(missing);
    }
    path
}
