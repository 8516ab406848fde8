//! The JSON API: the public API under /api/v1 (its one route table is `routes`), the token
//! endpoint and the operator API on its own listener. It turns requests into calls on the
//! domain modules and domain errors into contract responses (see `error`). The pages for
//! people are `crate::web`, the layers every request passes and the listeners
//! `crate::http`; `crate::server` puts them together.

pub(crate) mod auth;
pub(crate) mod body;
pub(crate) mod callers;
mod contract;
pub(crate) mod documents;
pub mod error;
pub(crate) mod form_responses;
pub(crate) mod formats;
mod forms;
mod meta;
mod multipart;
mod openapi;
pub(crate) mod operator;
pub(crate) mod queries;
mod replies;
mod requests;
pub(crate) mod routes;
pub(crate) mod upload;
pub mod urls;
mod webhooks;

pub use formats::Formats;

use axum::http::{header, HeaderValue, Method, StatusCode};

use error::ApiError;

/// The OpenAPI document of the public API's route table.
pub fn openapi_document(base: &str, formats: &Formats) -> serde_json::Value {
    openapi::document(base, formats, routes::ROUTES)
}

/// The methods `path` takes, for a 405's `Allow`: the route table's for the API's paths;
/// for every other path (the token endpoint, health, the pages, the form page), the ones
/// axum's method router named in the `Allow` of its own 405 (`router_allow`).
pub(crate) fn allowed_methods(path: &str, router_allow: Option<&HeaderValue>) -> Vec<String> {
    let table = routes::allowed_methods(path);
    if !table.is_empty() {
        return table.into_iter().map(String::from).collect();
    }
    router_allow
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// A 405 for `method` on `path`, with the methods the route table has for it.
pub(crate) fn method_not_allowed(method: &Method, path: &str) -> ApiError {
    method_refused(method, path, &allowed_methods(path, None))
}

/// A 405 for `method` on `path`, which takes `allow`: named in the detail, the body's
/// `allow` and the `Allow` header.
pub(crate) fn method_refused(method: &Method, path: &str, allow: &[String]) -> ApiError {
    let list = allow.join(", ");
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{path} does not take {method}; it takes {list}"),
    )
    .with("allow", allow.to_vec())
    .header(header::ALLOW, list)
}
