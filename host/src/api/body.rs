//! Reading request bodies within the plan's file limit and the process's body memory, and
//! the bounds every JSON body is read within (a tree's values, a model's size).

use std::time::Duration;

use axum::body::{Body, BodyDataStream};
use axum::http::{header, HeaderMap, StatusCode};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use quire_sdk::{validate, Document};
use serde_json::Value;

use super::error::ApiError;
use crate::app::App;
use crate::body_memory::{self, BodyMemoryError, Reservation};

/// Reads at most `limit` bytes. A Content-Length over the limit is refused before reading
/// anything; a body without one is refused as soon as the running count passes it. The
/// bytes count against the process's body memory for as long as the reservation lives.
pub async fn read_limited(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    limit: u64,
    plan: &str,
) -> Result<(Vec<u8>, Reservation), ApiError> {
    read_capped(app, headers, body, limit, 0, |size| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is {size} bytes or more; the {plan} plan takes files up to {limit} bytes"),
        )
        .with("limit", limit)
    })
    .await
}

/// [`read_limited`] with the caller's refusal. Past the limit the body is refused; with
/// `drain` > 0 up to that many more bytes are read and dropped first, so a client that
/// sends the whole body before reading the answer (most do) gets the 413 instead of a
/// broken connection. Public endpoints drain nothing: their callers are not trusted with
/// that much of our bandwidth. A client that pauses longer than `QUIRE_BODY_IDLE_SECS`
/// between two pieces gets a 408, so a slow sender cannot hold a worker or memory.
pub async fn read_capped(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    limit: u64,
    drain: u64,
    too_large: impl Fn(u64) -> ApiError,
) -> Result<(Vec<u8>, Reservation), ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let idle = app.config.body_idle;
    let mut stream = body.into_data_stream();
    if let Some(len) = declared.filter(|len| *len > limit) {
        if len <= limit.saturating_add(drain) {
            while let Some(Ok(_)) = next_piece(&mut stream, idle).await? {}
        }
        return Err(too_large(len));
    }
    let mut held = app.body_memory.none();
    if let Some(len) = declared {
        app.body_memory
            .grow(&mut held, len, app.config.body_wait)
            .await
            .map_err(body_memory_refusal)?;
    }
    let mut out = Vec::with_capacity(declared.unwrap_or(0) as usize);
    let mut seen: u64 = 0;
    while let Some(chunk) = next_piece(&mut stream, idle).await? {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request(format!("the request body could not be read: {e}"))
        })?;
        seen += chunk.len() as u64;
        if seen > limit {
            if seen > limit.saturating_add(drain) {
                return Err(too_large(seen));
            }
            out = Vec::new();
            continue;
        }
        if seen > held.bytes() {
            let want = seen.div_ceil(body_memory::STEP) * body_memory::STEP;
            app.body_memory
                .grow(&mut held, want.min(limit), app.config.body_wait)
                .await
                .map_err(body_memory_refusal)?;
        }
        out.extend_from_slice(&chunk);
    }
    if seen > limit {
        return Err(too_large(seen));
    }
    Ok((out, held))
}

/// The body's next piece, or a 408 when the client paused longer than `idle`.
async fn next_piece(
    stream: &mut BodyDataStream,
    idle: Duration,
) -> Result<Option<Result<bytes::Bytes, axum::Error>>, ApiError> {
    tokio::time::timeout(idle, stream.next())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body paused for more than {} s; send it without stopping",
                    idle.as_secs()
                ),
            )
        })
}

fn body_memory_refusal(e: BodyMemoryError) -> ApiError {
    match e {
        BodyMemoryError::TooLarge { total, .. } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{e}; this server holds at most {total} bytes of request bodies (QUIRE_BODY_MEMORY_MB)"),
        )
        .with("limit", total),
        BodyMemoryError::Busy => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is receiving as much as it holds at once; send this again shortly",
        )
        .header(header::RETRY_AFTER, "5"),
    }
}

/// The most JSON values a body parsed into a tree may hold. A tree costs tens of bytes per
/// value whatever the text's size, so `[0,0,0,...]` in a few megabytes would otherwise
/// take gigabytes; the contract's largest tree (500 fields with their options) is far below.
pub const MAX_JSON_VALUES: usize = 200_000;

/// An upper bound of the number of values in JSON text, counted without parsing: every
/// value after the first follows a comma or opens a container.
pub fn json_values_at_most(text: &[u8]) -> usize {
    let (mut count, mut in_string, mut escaped) = (1usize, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b'[' | b'{' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// Parses JSON text into a tree of values, refusing text with more than
/// [`MAX_JSON_VALUES`] values before building any of it.
pub fn bounded_value(text: &[u8], what: &str) -> Result<Value, ApiError> {
    if json_values_at_most(text) > MAX_JSON_VALUES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{what} holds more than {MAX_JSON_VALUES} JSON values"),
        )
        .with("limit", MAX_JSON_VALUES as u64));
    }
    serde_json::from_slice(text)
        .map_err(|e| ApiError::bad_request(format!("{what} is not valid JSON: {e}")))
}

/// Whether JSON text opens an object (its first byte past whitespace is `{`): a body that
/// does not is refused before any of it is parsed.
pub fn opens_object(text: &[u8]) -> bool {
    text.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

/// Drains a body we do not need (keeps the connection usable).
pub async fn discard(body: Body) {
    let _ = body.collect().await;
}

/// The request's Content-Type without parameters, lower case ("" when there is none).
pub fn media_type_of(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default()
}

/// The largest `model` member: a model is the document's text and geometry (pictures are
/// assets, not in it), so even a 10,000-page import stays well under this.
pub const MAX_MODEL_JSON: usize = 64 << 20;
/// The one reader of a model sent as JSON text, for the API's `model` source and the
/// editor's drafts alike: at most [`MAX_MODEL_JSON`] bytes, read straight into a document
/// (no tree of values in between), not yet checked against its assets.
pub fn read_model(text: &[u8], what: &str) -> Result<Document, ApiError> {
    if text.len() > MAX_MODEL_JSON {
        return Err(model_too_large(what, text.len() as u64));
    }
    let text = std::str::from_utf8(text)
        .map_err(|e| ApiError::bad_request(format!("{what} is not UTF-8 text: {e}")))?;
    validate::parse(text).map_err(invalid_model)
}

/// The refusal of a model that parsed but breaks the model's rules (422).
pub fn invalid_model(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!("the model is not valid: {e}"),
    )
}

/// The refusal of a model over [`MAX_MODEL_JSON`] (`size` bytes or more).
pub fn model_too_large(what: &str, size: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "{what} is {size} bytes of JSON or more; a model may be at most {MAX_MODEL_JSON} (pictures travel as assets, not in it)"
        ),
    )
    .with("limit", MAX_MODEL_JSON as u64)
}
