//! Every refusal the service gives: one type, one `IntoResponse`, so each domain error maps
//! to its contract status code in exactly one place.

use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use quire_sdk::ConvertError;
use serde_json::{json, Map, Value};

use crate::error::Error;
use crate::runtime::{CallError, ConversionError, QueueError, RegistryError};
use crate::store::{BlobError, ScriptError};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: String,
    /// Fields a program acts on (e.g. `locked`, `allows`), beside `ok` and `detail`.
    /// Boxed: an ordered map is large and most refusals carry none.
    pub extra: Box<Map<String, Value>>,
    pub headers: Vec<(HeaderName, String)>,
}

impl ApiError {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        ApiError {
            status,
            detail: detail.into(),
            extra: Box::default(),
            headers: Vec::new(),
        }
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    pub fn header(mut self, name: HeaderName, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, detail)
    }
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, detail)
    }
    pub fn internal(e: impl std::fmt::Display) -> Self {
        tracing::error!("internal error: {e}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the service failed to complete this request; nothing was changed",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = Map::new();
        body.insert("ok".into(), Value::Bool(false));
        body.insert("detail".into(), Value::String(self.detail));
        body.extend(*self.extra);
        let mut response = (self.status, axum::Json(Value::Object(body))).into_response();
        for (name, value) in self.headers {
            if let Ok(v) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(name, v);
            }
        }
        response
    }
}

/// A dependency that is down for now: 503 with Retry-After, so clients and load balancers
/// back off and retry instead of treating it as a fault of the request.
fn unavailable(detail: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, detail).header(header::RETRY_AFTER, "5")
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        match e {
            Error::Invalid(s) => ApiError::bad_request(s),
            // The contract keeps 422 for files; a request that does not fit the form or
            // document it names is a 400 naming the member, like any other it cannot take.
            Error::InvalidField { ref field, .. } | Error::Unfit { ref field, .. } => {
                let field = field.clone();
                ApiError::bad_request(e.to_string()).with("field", field)
            }
            Error::NotFound(s) => ApiError::not_found(s),
            Error::Conflict(s) => ApiError::new(StatusCode::CONFLICT, s),
            Error::Forbidden(s) => ApiError::new(StatusCode::FORBIDDEN, s),
            Error::VersionConflict { current, .. } => {
                ApiError::new(StatusCode::CONFLICT, e.to_string()).with("version", current)
            }
            Error::PlanRequired(s) => ApiError::new(StatusCode::PAYMENT_REQUIRED, s),
            Error::FileTooLarge { limit, .. } => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, e.to_string()).with("limit", limit)
            }
            Error::StorageFull { quota, left, .. } => {
                ApiError::new(StatusCode::INSUFFICIENT_STORAGE, e.to_string())
                    .with("quota", quota)
                    .with("left", left)
            }
            Error::AllowanceSpent {
                retry_after,
                allowed,
            } => ApiError::new(StatusCode::TOO_MANY_REQUESTS, e.to_string())
                .with("allowed", allowed)
                .header(header::RETRY_AFTER, retry_after.to_string()),
            Error::TooMany { retry_after, .. } => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, e.to_string())
                    .header(header::RETRY_AFTER, retry_after.to_string())
            }
            Error::Unavailable(s) => unavailable(s),
            Error::ServerFull(s) => {
                ApiError::new(StatusCode::INSUFFICIENT_STORAGE, s).header(header::RETRY_AFTER, "60")
            }
            Error::Conversion(c) => c.into(),
            Error::Internal(i) => i.into(),
        }
    }
}

impl From<BlobError> for ApiError {
    fn from(e: BlobError) -> Self {
        Error::from(e).into()
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        // A store outage deep inside a call still reaches the client as a 503 (or a 507).
        for cause in e.chain() {
            match cause.downcast_ref::<BlobError>() {
                Some(BlobError::Unavailable(detail)) => {
                    return Error::from(BlobError::Unavailable(detail.clone())).into()
                }
                Some(BlobError::Full(detail)) => {
                    return Error::from(BlobError::Full(detail.clone())).into()
                }
                _ => {}
            }
            // A script's error forwards its source past the sqlx error it holds, so the
            // chain never shows that error itself: the script error is asked.
            if let Some(outage) = cause
                .downcast_ref::<ScriptError>()
                .and_then(crate::error::script_outage)
            {
                return outage.into();
            }
            let db = cause.downcast_ref::<sqlx::Error>();
            if db.is_some_and(crate::error::database_unreachable) {
                return Error::Unavailable(
                    "the database is not answering; nothing was changed, try again shortly".into(),
                )
                .into();
            }
        }
        ApiError::internal(format!("{e:#}"))
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        Error::from(e).into()
    }
}

impl From<RegistryError> for ApiError {
    fn from(e: RegistryError) -> Self {
        match e {
            RegistryError::Refused(s) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, s),
            RegistryError::Conflict(s) => ApiError::new(StatusCode::CONFLICT, s),
            RegistryError::NotFound(_) => ApiError::not_found(e.to_string()),
            RegistryError::Internal(e) => e.into(),
        }
    }
}

impl From<ConversionError> for ApiError {
    fn from(e: ConversionError) -> Self {
        let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
        match e {
            ConversionError::NoConverter { ref served, .. } => {
                let served = served.clone();
                ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, e.to_string())
                    .with("readable", served)
            }
            ConversionError::Refused(c) => from_convert_error(c),
            ConversionError::Sandbox {
                error: CallError::Host(m),
                ..
            } => {
                tracing::error!("sandbox could not start a converter: {m}");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "no converter instance is free right now",
                )
                .header(header::RETRY_AFTER, "2")
            }
            ConversionError::Sandbox { ref error, .. } => {
                let fault = error.fault();
                ApiError::new(unprocessable, e.to_string()).with("fault", fault)
            }
            ConversionError::InvalidOutput { .. } => {
                ApiError::new(unprocessable, e.to_string()).with("fault", "invalid-output")
            }
            ConversionError::Queue(QueueError::Full { retry_after }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the conversion queue is full; try again shortly",
            )
            .header(
                header::RETRY_AFTER,
                retry_after.as_secs().max(1).to_string(),
            ),
            ConversionError::Queue(QueueError::Busy { retry_after, .. }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "every conversion worker stayed busy; try again shortly",
            )
            .header(
                header::RETRY_AFTER,
                retry_after.as_secs().max(1).to_string(),
            ),
            ConversionError::Queue(QueueError::TimedOut(_)) => {
                ApiError::new(unprocessable, e.to_string()).with("fault", "deadline")
            }
            ConversionError::Queue(QueueError::Worker(m)) => ApiError::internal(m),
        }
    }
}

fn from_convert_error(e: ConvertError) -> ApiError {
    match e {
        ConvertError::Unsupported(s) => ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, s),
        ConvertError::Damaged(s) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, s),
        ConvertError::Refused { kind, detail } => {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, detail).with("refused", kind)
        }
        ConvertError::Locked(l) => ApiError::new(StatusCode::CONFLICT, l.detail)
            .with("locked", "restrictions")
            .with("opens", l.opens)
            .with("allows", json!({"print": l.allows.print, "copy": l.allows.copy, "modify": l.allows.modify}))
            .with("unlock", "post the file again with ?unlock=1 to remove the restrictions"),
        ConvertError::PasswordRequired(s) => {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, s).with("locked", "password").with(
                "unlock",
                "send the password in the X-Doc-Password header or the `password` field, with unlock=1",
            )
        }
        ConvertError::TooLarge(s) => ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, s),
        ConvertError::InvalidRequest(s) => ApiError::bad_request(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reply to a create whose blob pin write stopped with `script`: the error arrives
    /// wrapped as a pin write wraps it.
    fn reply_to_a_failed_pin_write(script: ScriptError) -> ApiError {
        let pins = BlobError::Other(anyhow::Error::from(script).context("blob pins"));
        ApiError::from(anyhow::Error::from(pins))
    }

    #[test]
    fn a_database_outage_inside_a_blob_pin_write_is_a_503() {
        // What a pin write gives when the database goes away under it (CI saw a 500).
        let reply = reply_to_a_failed_pin_write(ScriptError::Database(sqlx::Error::PoolTimedOut));
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(reply
            .headers
            .iter()
            .any(|(name, _)| name == header::RETRY_AFTER));
    }

    #[test]
    fn a_busy_or_full_sqlite_under_a_blob_pin_write_is_a_503_or_a_507() {
        let reply = |code: std::os::raw::c_int| {
            let sqlite = rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None);
            reply_to_a_failed_pin_write(ScriptError::Sqlite(sqlite)).status
        };
        assert_eq!(
            reply(rusqlite::ffi::SQLITE_BUSY),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            reply(rusqlite::ffi::SQLITE_FULL),
            StatusCode::INSUFFICIENT_STORAGE
        );
        assert_eq!(
            reply(rusqlite::ffi::SQLITE_CORRUPT),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }

    #[test]
    fn a_statement_the_database_refused_stays_a_500() {
        let reply = reply_to_a_failed_pin_write(ScriptError::Database(sqlx::Error::RowNotFound));
        assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}
