//! The operator API, on its own listener (loopback by default): plugin list, install,
//! activate, rollback. It takes only the operator token; bearer tokens of /api/v1 are a
//! different namespace and never open it.

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;
use super::queries::Params;
use super::requests;
use crate::app::App;

pub fn router(app: App, token: String) -> Router {
    Router::new()
        .route("/plugins", get(list).post(install))
        // The install handler counts the body itself against MAX_COMPONENT (413 in JSON).
        .layer(axum::extract::DefaultBodyLimit::disable())
        .route("/plugins/{name}/activate", post(activate))
        .route("/plugins/{name}/rollback", post(rollback))
        .route("/plugins/{name}/deactivate", post(deactivate))
        .fallback(no_route)
        .layer(axum::middleware::from_fn(
            move |req: axum::extract::Request, next: axum::middleware::Next| {
                let token = token.clone();
                async move {
                    if !operator_authorized(req.headers(), &token) {
                        return Err(ApiError::new(
                            StatusCode::UNAUTHORIZED,
                            "the operator API needs the operator token",
                        ));
                    }
                    Ok::<_, ApiError>(next.run(req).await)
                }
            },
        ))
        // For load balancers and scrapers: no operator token (the listener is private).
        .route("/metrics", get(crate::http::service::metrics_page))
        .route("/healthz", get(crate::http::service::healthz))
        .route("/readyz", get(crate::http::service::readyz))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            crate::http::service::request_context,
        ))
        .with_state(app)
}

async fn no_route(req: Request) -> ApiError {
    ApiError::not_found(format!(
        "the operator API has no {} {}; it has /plugins and /plugins/{{name}}/activate, rollback and deactivate",
        req.method(),
        req.uri().path()
    ))
}

fn operator_authorized(headers: &HeaderMap, token: &str) -> bool {
    let given = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    !token.is_empty() && crate::accounts::same_secret(given, token)
}

async fn list(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    Ok(Json(
        json!({"ok": true, "plugins": app.plugins.list().await?}),
    ))
}

#[derive(Deserialize)]
struct InstallQuery {
    #[serde(default = "yes")]
    activate: bool,
}

fn yes() -> bool {
    true
}

/// The largest component the operator API takes. Components built with componentize-py
/// carry a whole Python (about 18 MB); 64 MiB leaves room without inviting abuse.
pub const MAX_COMPONENT: u64 = 64 << 20;

async fn install(
    State(app): State<App>,
    Params(q): Params<InstallQuery>,
    req: Request,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let (parts, body) = req.into_parts();
    let (body, _held) = super::body::read_capped(&app, &parts.headers, body, MAX_COMPONENT, 4 * MAX_COMPONENT, |size| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the component is {size} bytes or more; the operator API takes components up to {MAX_COMPONENT} bytes"),
        )
        .with("limit", MAX_COMPONENT)
    })
    .await?;
    if body.is_empty() {
        return Err(ApiError::bad_request(
            "send the component's .wasm bytes as the request body",
        ));
    }
    let info = app.plugins.install(body, q.activate).await?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({"ok": true, "plugin": {"name": info.name, "version": info.version, "active": q.activate}}),
        ),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActivateBody {
    version: String,
}

/// An activation names a version: a few bytes of JSON.
const MAX_ACTIVATE_BODY: usize = 4 << 10;

async fn activate(
    State(app): State<App>,
    Path(name): Path<String>,
    req: Request,
) -> Result<Json<Value>, ApiError> {
    let bytes = axum::body::to_bytes(req.into_body(), MAX_ACTIVATE_BODY)
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("an activation is a JSON object of at most {MAX_ACTIVATE_BODY} bytes"),
            )
            .with("limit", MAX_ACTIVATE_BODY as u64)
        })?;
    let body: ActivateBody =
        requests::parse_json(&bytes, "`version`, the installed version to make active")?;
    app.plugins.activate(&name, &body.version).await?;
    Ok(Json(
        json!({"ok": true, "active": format!("{name}@{}", body.version)}),
    ))
}

async fn rollback(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let version = app.plugins.rollback(&name).await?;
    Ok(Json(
        json!({"ok": true, "active": format!("{name}@{version}")}),
    ))
}

async fn deactivate(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let version = app.plugins.deactivate(&name).await?;
    Ok(Json(
        json!({"ok": true, "deactivated": format!("{name}@{version}")}),
    ))
}
