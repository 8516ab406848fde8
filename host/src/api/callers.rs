//! Who calls, as a handler takes them: the API's principal or a page's session, put in the
//! request by their gates, with the plan's rules for what the handler does checked before
//! it runs, so no handler can forget one.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::IntoResponse;

use super::error::ApiError;
use super::pages::PageError;
use crate::accounts::{Account, Principal};
use crate::app::App;
use crate::sessions::Session;

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

impl Caller for Session {
    type Refusal = PageError;

    fn account(&self) -> &Account {
        &self.account
    }
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
