//! The token endpoint (OAuth 2.0 client credentials, RFC 6749 section 4.4) and the gate in
//! front of /api/v1: bearer token (401), plan (402), scope by method (403), daily
//! allowance (429), in that order.

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::Engine as _;
use serde_json::json;

use super::error::ApiError;
use super::urls::Urls;
use crate::accounts::{self, AuthError, AuthenticateError, TokenError};
use crate::app::App;
use crate::store::memo::ChangesSeen;

fn token_error(e: TokenError) -> Response {
    let description = e.to_string();
    let (status, code, description, retry_after) = match e {
        TokenError::InvalidRequest(_) => (
            StatusCode::BAD_REQUEST,
            "invalid_request",
            description,
            None,
        ),
        TokenError::InvalidClient => (
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            description,
            None,
        ),
        TokenError::UnsupportedGrantType => (
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            description,
            None,
        ),
        TokenError::PlanRequired(_) => (
            StatusCode::PAYMENT_REQUIRED,
            "unauthorized_client",
            description,
            None,
        ),
        // Status and Retry-After as any other request gets them for the same failure; the
        // body keeps RFC 6749's shape.
        TokenError::Service(failure) => {
            let refusal = ApiError::from(failure);
            let retry_after = refusal
                .headers
                .into_iter()
                .find(|(name, _)| name == header::RETRY_AFTER)
                .map(|(_, value)| value);
            if refusal.status == StatusCode::SERVICE_UNAVAILABLE {
                (
                    refusal.status,
                    "temporarily_unavailable",
                    refusal.detail,
                    retry_after,
                )
            } else {
                (refusal.status, "server_error", description, retry_after)
            }
        }
    };
    let mut response = (
        status,
        [(header::CACHE_CONTROL, "no-store"), (header::PRAGMA, "no-cache")],
        Json(json!({"error": code, "error_description": description, "ok": false, "detail": description})),
    )
        .into_response();
    let headers = response.headers_mut();
    if status == StatusCode::UNAUTHORIZED {
        headers.insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static("Basic realm=\"quire\""),
        );
    }
    if let Some(seconds) = retry_after.and_then(|s| header::HeaderValue::from_str(&s).ok()) {
        headers.insert(header::RETRY_AFTER, seconds);
    }
    response
}

/// Client id and secret from HTTP Basic (RFC 6749 2.3.1: each form-urlencoded).
fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let encoded = value
        .strip_prefix("Basic ")
        .or_else(|| value.strip_prefix("basic "))?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    let unescape = |s: &str| {
        form_urlencoded::parse(format!("x={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
    };
    Some((unescape(id)?, unescape(secret)?))
}

pub async fn token(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !content_type.starts_with("application/x-www-form-urlencoded") {
        return token_error(TokenError::InvalidRequest(
            "send the token request form-encoded (application/x-www-form-urlencoded)".into(),
        ));
    }
    let mut form = std::collections::HashMap::new();
    for (k, v) in form_urlencoded::parse(&body) {
        if form.insert(k.to_string(), v.to_string()).is_some() {
            return token_error(TokenError::InvalidRequest(format!(
                "`{k}` was sent more than once"
            )));
        }
    }
    match form.get("grant_type").map(String::as_str) {
        Some("client_credentials") => {}
        Some(_) => return token_error(TokenError::UnsupportedGrantType),
        None => {
            return token_error(TokenError::InvalidRequest(
                "grant_type is required (client_credentials)".into(),
            ))
        }
    }
    let basic = basic_credentials(&headers);
    let (client_id, secret) = match (basic, form.get("client_id"), form.get("client_secret")) {
        (Some(b), None, None) => b,
        (Some(_), _, _) => {
            return token_error(TokenError::InvalidRequest(
                "send the client credentials either as HTTP Basic or in the body, not both".into(),
            ))
        }
        (None, Some(id), Some(secret)) => (id.clone(), secret.clone()),
        (None, _, _) => {
            return token_error(TokenError::InvalidRequest(
                "client_id and client_secret are required (in the body or as HTTP Basic)".into(),
            ))
        }
    };
    // Guessing secrets: a client id that sent too many wrong ones waits, before the
    // secret is even looked at.
    let throttle_key: String = client_id.chars().take(128).collect();
    if let Err(wait) = app.token_failures.check(&throttle_key) {
        let detail = format!(
            "too many wrong secrets for this client id; try again in {} s",
            wait.as_secs().max(1)
        );
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [
                (header::RETRY_AFTER, wait.as_secs().max(1).to_string()),
                (header::CACHE_CONTROL, "no-store".to_string()),
            ],
            Json(json!({"error": "invalid_request", "error_description": detail, "ok": false, "detail": detail})),
        )
            .into_response();
    }
    let issued = accounts::issue_token(
        &app.db,
        &client_id,
        &secret,
        form.get("scope").map(String::as_str),
    )
    .await;
    if matches!(issued, Err(TokenError::InvalidClient)) {
        let _ = app.token_failures.take(&throttle_key);
    }
    if issued.is_ok() {
        app.credential_use.note(&app.db, &client_id);
    }
    match issued {
        Ok(t) => (
            StatusCode::OK,
            [
                (header::CACHE_CONTROL, "no-store"),
                (header::PRAGMA, "no-cache"),
            ],
            Json(json!({
                "access_token": t.access_token,
                "token_type": "Bearer",
                "expires_in": t.expires_in,
                "scope": t.scope,
            })),
        )
            .into_response(),
        Err(e) => token_error(e),
    }
}

pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    v.strip_prefix("Bearer ")
        .or_else(|| v.strip_prefix("bearer "))
        .map(str::trim)
}

fn unauthorized(base_url: &str, e: AuthError) -> ApiError {
    let urls = Urls(base_url);
    let token_endpoint = urls.token_endpoint();
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        format!("{e}; the token endpoint is {token_endpoint}"),
    )
    .with("token_endpoint", token_endpoint)
    .with("reference", urls.api())
    .header(
        header::WWW_AUTHENTICATE,
        "Bearer realm=\"quire\", error=\"invalid_token\"",
    )
}

/// The gate every /api/v1 request passes. On success the `Principal` rides in the
/// request's extensions.
pub async fn gate(
    State(app): State<App>,
    mut req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let base_url = app.config.base_url.clone();
    let Some(token) = bearer(req.headers()).map(str::to_string) else {
        if super::callers::has_session_cookie(req.headers()) {
            return Err(unauthorized(&base_url, AuthError::BrowserSession));
        }
        return Err(unauthorized(&base_url, AuthError::Missing));
    };
    // Read once, before anything else is: whatever committed before this call is seen by
    // every remembered row it uses (see `store::memo`).
    let seen = ChangesSeen(app.db.changes.current());
    let principal = match accounts::authenticate(&app.db, &app.known_tokens, seen, &token).await {
        Ok(p) => p,
        Err(AuthenticateError::Auth(AuthError::PlanLapsed(plan))) => {
            let plans = accounts::api_plans(&app.db).await?;
            return Err(ApiError::new(
                StatusCode::PAYMENT_REQUIRED,
                AuthError::PlanLapsed(plan).to_string(),
            )
            .with("plans", plans));
        }
        Err(AuthenticateError::Auth(e)) => return Err(unauthorized(&base_url, e)),
        Err(AuthenticateError::Db(e)) => return Err(e.into()),
    };
    let needed = if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        accounts::READ
    } else {
        accounts::WRITE
    };
    if !principal.has(needed) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "this token's scopes ({}) do not cover {} calls; they need {needed}",
                principal.scopes.join(" "),
                req.method()
            ),
        )
        .with("needed", needed));
    }
    app.allowance
        .count_call(
            &app.db,
            &principal.account.id,
            principal.account.plan.daily_calls,
        )
        .await
        .map_err(ApiError::from)?;
    app.credential_use.note(&app.db, &principal.client_id);
    req.extensions_mut().insert(principal);
    req.extensions_mut().insert(seen);
    Ok(next.run(req).await)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Db;

    async fn reply_to(refusal: TokenError) -> (StatusCode, Option<String>, serde_json::Value) {
        let response = token_error(refusal);
        let status = response.status();
        let retry_after = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        let body = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        (status, retry_after, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn a_token_asked_for_while_the_database_is_down_is_a_503_to_retry() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(None, dir.path()).await.unwrap();
        db.pool.close().await;
        let refused = accounts::issue_token(&db, "qc_any", "qs_any", None)
            .await
            .err()
            .expect("no token without a database");
        let (status, retry_after, body) = reply_to(refused).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(retry_after.is_some(), "{body}");
        assert_eq!(body["error"], "temporarily_unavailable");
    }

    #[tokio::test]
    async fn a_database_fault_at_the_token_endpoint_stays_a_500() {
        let (status, retry_after, body) =
            reply_to(TokenError::from(sqlx::Error::RowNotFound)).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
        assert_eq!(retry_after, None);
        assert_eq!(body["error"], "server_error");
        assert_eq!(
            body["error_description"],
            "the token could not be issued because the service failed; try again"
        );
    }
}
