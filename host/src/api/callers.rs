//! Who calls, as a handler takes them: the API's principal or a page's session, put in the
//! request by their gates, with the plan's rules for what the handler does checked before
//! it runs, so no handler can forget one. A page's session (`sessions::Session`) is a
//! `Caller` too, refused with a page: that impl is the pages' (`web::pages`).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;

use super::error::ApiError;
use crate::accounts::{Account, Principal};
use crate::app::App;

/// A caller a gate put in the request's extensions.
pub trait Caller: Clone + Send + Sync + 'static {
    /// How a refusal reaches this caller: JSON for a program, a page for a person.
    type Refusal: From<ApiError> + IntoResponse;

    fn account(&self) -> &Account;
}

impl Caller for Principal {
    type Refusal = ApiError;

    fn account(&self) -> &Account {
        &self.account
    }
}

/// The cookie that names a page's session.
pub const SESSION_COOKIE: &str = "quire_session";

/// The session cookie's value, if the request carries one.
pub fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim())
}

/// Whether a request carries a session cookie (the API answers such a request 401: a
/// browser session never reaches /api/v1).
pub fn has_session_cookie(headers: &HeaderMap) -> bool {
    session_cookie(headers).is_some()
}

/// The caller, once its plan is known to include forms (402 otherwise). The check runs
/// where the extractor stands among the handler's arguments: after the path and query
/// extractors before it, before the body.
pub struct FormsCaller<C>(pub C);

impl<C: Caller> FromRequestParts<App> for FormsCaller<C> {
    type Rejection = C::Refusal;

    async fn from_request_parts(parts: &mut Parts, _: &App) -> Result<Self, Self::Rejection> {
        let caller = parts
            .extensions
            .get::<C>()
            .cloned()
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "sign in first"))?;
        caller
            .account()
            .plan
            .require_forms()
            .map_err(ApiError::from)?;
        Ok(FormsCaller(caller))
    }
}
