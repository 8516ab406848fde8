//! The public service put together: the public router (the JSON API, the pages, health)
//! with the layers every answer passes (request context, security headers, the route gate,
//! JSON 404 and 405), the operator's router, and `serve`, which runs both listeners with the
//! background work and stops them gracefully.

use std::time::Duration;

use anyhow::Context;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{from_fn, from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::api::{self, error::ApiError};
use crate::app::App;
use crate::http::{self, service};
use crate::web::{pages, public};

/// The public router, assembled here alone: /api/v1 behind the token gate, the token
/// endpoint, health, the public form page and the account holders' pages; JSON for every
/// 404 and for every 405 but a page's.
pub fn router(app: App) -> Router {
    let routed = api::routes::api_router()
        .route("/auth/oauth/token", post(api::auth::token))
        .route("/healthz", get(service::healthz))
        .route("/readyz", get(service::readyz))
        .route(
            "/f/{id}",
            get(public::show)
                .post(public::submit)
                .route_layer(from_fn_with_state(app.clone(), public::limit_link_use)),
        )
        .route(
            "/f/{id}/pages/{file}",
            get(public::page_picture)
                .route_layer(from_fn_with_state(app.clone(), public::limit_link_use)),
        )
        .merge(pages::router(app.clone()))
        .fallback(not_found)
        .layer(from_fn_with_state(app.clone(), route_gate))
        .layer(from_fn_with_state(app.clone(), security_headers))
        .layer(from_fn_with_state(app.clone(), service::request_context))
        .with_state(app);
    // axum's method router adds its `Allow` to a 405 only after every layer above has run,
    // so the 405's body is written outside the routed router, where that header is known.
    Router::new()
        .fallback_service(routed)
        .layer(from_fn(method_not_allowed_answered))
}

/// The public form page may show its own page pictures, styles and script and post to
/// itself; only the sites the operator lists may frame it (`QUIRE_FRAME_ANCESTORS`): a
/// framed form anywhere else invites clickjacking of a link holder's answers.
fn form_page_policy(frame_ancestors: &crate::config::FrameAncestors) -> String {
    format!(
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors {}",
        frame_ancestors.directive()
    )
}
/// Everything else is data: a downloaded SVG or HTML opened from our origin runs no script
/// and loads nothing.
const DATA_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// Headers every response carries, so a browser never guesses a type, runs a converter's
/// output as a page of ours, or frames us.
async fn security_headers(State(app): State<App>, req: Request, next: Next) -> Response {
    let form_page = req
        .uri()
        .path()
        .strip_prefix("/f/")
        .is_some_and(|rest| !rest.contains('/'));
    let mut response = next.run(req).await;
    let frame_ancestors = &app.config.frame_ancestors;
    let policy = if form_page {
        header::HeaderValue::from_str(&form_page_policy(frame_ancestors))
            .unwrap_or(header::HeaderValue::from_static(DATA_POLICY))
    } else {
        header::HeaderValue::from_static(DATA_POLICY)
    };
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    // The account holders' pages bring their own policy.
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(policy);
    // A form page that listed sites may frame says so in its policy alone.
    if !form_page || frame_ancestors.origins().is_empty() {
        headers.insert(
            header::X_FRAME_OPTIONS,
            header::HeaderValue::from_static("DENY"),
        );
    }
    headers.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("same-origin"),
    );
    response
}

/// /api/v1 needs a bearer token; everything else must not carry one (a bearer token
/// outside /api/v1 answers 404, as if nothing were there).
async fn route_gate(
    State(app): State<App>,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let path = req.uri().path();
    if path == "/api/v1" || path.starts_with("/api/v1/") {
        return api::auth::gate(State(app), req, next).await;
    }
    if api::auth::bearer(req.headers()).is_some() {
        return Err(ApiError::not_found(
            "nothing is here for a bearer token; the API lives under /api/v1",
        ));
    }
    Ok(next.run(req).await)
}

async fn not_found(req: Request) -> ApiError {
    ApiError::not_found(format!("no route {} {}", req.method(), req.uri().path()))
}

/// axum answers a wrong method with an empty 405 and an `Allow` header: give it the body
/// every other refusal has, JSON with the request id or, on a page's path, a page, with the
/// methods the path takes (the route table's for the API, else axum's `Allow`). The
/// headers the layers gave it (request id, security headers) are kept. A 405 that already
/// has a body (a handler's) passes as it is.
async fn method_not_allowed_answered(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let response = next.run(req).await;
    if response.status() != StatusCode::METHOD_NOT_ALLOWED
        || response.headers().contains_key(header::CONTENT_TYPE)
    {
        return response;
    }
    let (parts, _) = response.into_parts();
    let allow = api::allowed_methods(&path, parts.headers.get(header::ALLOW));
    let refusal = api::method_refused(&method, &path, &allow);
    let mut answer = if parts.extensions.get::<pages::PagePath>().is_some() {
        pages::method_not_allowed(refusal)
    } else {
        match parts
            .headers
            .get(service::REQUEST_ID)
            .and_then(|v| v.to_str().ok())
        {
            Some(id) => refusal.with("request_id", id),
            None => refusal,
        }
        .into_response()
    };
    for (name, value) in &parts.headers {
        if *name != header::CONTENT_LENGTH {
            answer
                .headers_mut()
                .entry(name)
                .or_insert_with(|| value.clone());
        }
    }
    answer
}

/// The operator token: `QUIRE_ADMIN_TOKEN`, or one generated into the data directory.
fn operator_token(app: &App) -> anyhow::Result<String> {
    if let Some(t) = &app.config.admin_token {
        return Ok(t.clone());
    }
    let path = app.config.data_dir.join("admin.token");
    if let Ok(t) = std::fs::read_to_string(&path) {
        return Ok(t.trim().to_string());
    }
    let token = hex::encode(rand::random::<[u8; 32]>());
    // Created with its final mode: never readable by others, not even for a moment.
    let mut file = std::fs::OpenOptions::new();
    file.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut file, 0o600);
    std::io::Write::write_all(
        &mut file
            .open(&path)
            .with_context(|| format!("creating {}", path.display()))?,
        token.as_bytes(),
    )
    .with_context(|| format!("writing {}", path.display()))?;
    Ok(token)
}

pub async fn serve(app: App) -> anyhow::Result<()> {
    // Test harnesses hold our stdin open and close it when they exit: leave with them.
    if app.config.exit_on_stdin_eof {
        std::thread::spawn(|| {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            std::process::exit(0);
        });
    }
    let token = operator_token(&app)?;
    app.plugins.warm().await?;
    let public = tokio::net::TcpListener::bind(app.config.addr)
        .await
        .with_context(|| format!("binding {}", app.config.addr))?;
    let admin = tokio::net::TcpListener::bind(app.config.admin_addr)
        .await
        .with_context(|| format!("binding the operator listener {}", app.config.admin_addr))?;
    tracing::info!(
        "serving {} (operator API on {})",
        app.config.addr,
        app.config.admin_addr
    );
    // So the links the CLI prints for this data directory point here.
    crate::config::record_served_at(&app.config.data_dir, &app.config.base_url)?;

    if !crate::accounts::any_account(&app.db).await? {
        tracing::info!(
            "no account yet: make one with `quire admin account create --email you@example.com --plan pro`, then a credential with `quire admin credential create --account ID` (README, Quick start)"
        );
    }

    crate::background::spawn(&app);

    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mailer =
        crate::mail::spawn_sender(app.db.clone(), app.config.mail.clone(), stopping.clone())?;
    let webhook_sender = crate::webhooks::spawn_sender(
        app.db.clone(),
        app.config.webhooks.clone(),
        stopping.clone(),
    )?;

    let (db, drain, allowance) = (app.db.clone(), app.config.drain, app.allowance.clone());
    let tls_files = (app.config.tls.clone(), app.config.admin_tls.clone());
    let stopping_admin = stopping.clone();
    // The operator's 405s get the same JSON body as the public API's.
    let admin_router = Router::new()
        .fallback_service(api::operator::router(app.clone(), token))
        .layer(from_fn(method_not_allowed_answered));
    let public_router = router(app);
    let public_server =
        http::listener_server(public, public_router, tls_files.0.as_ref(), stopping)?;
    let admin_server =
        http::listener_server(admin, admin_router, tls_files.1.as_ref(), stopping_admin)?;
    let servers = async {
        let (p, a) = tokio::join!(public_server, admin_server);
        p.context("serving the API")?;
        a.context("serving the operator API")
    };
    tokio::pin!(servers);
    tokio::select! {
        r = &mut servers => return r,
        signal = http::stop_signal() => tracing::info!("{signal}: no new connections; letting requests in flight finish (up to {} s)", drain.as_secs()),
    }
    // Both listeners stop accepting at once; what is in flight finishes, within the drain.
    let _ = stop.send(true);
    match tokio::time::timeout(drain, &mut servers).await {
        Ok(r) => r?,
        Err(_) => tracing::warn!(
            "requests still running after {} s are dropped",
            drain.as_secs()
        ),
    }
    if let Some(mailer) = mailer {
        let _ = tokio::time::timeout(Duration::from_secs(5), mailer).await;
    }
    // An attempt in flight ends within its own 15 s; past 5 s its claim is given back
    // below and the delivery is made again by another host (at least once).
    let _ = tokio::time::timeout(Duration::from_secs(5), webhook_sender).await;
    if let Err(e) = allowance.release_older_than(&db, Duration::ZERO).await {
        tracing::warn!("giving back unspent daily calls: {e:#}");
    }
    match crate::mail::release_claims(&db).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("gave back {n} outbox claims"),
        Err(e) => tracing::warn!("giving back outbox claims: {e:#}"),
    }
    match crate::webhooks::release_claims(&db).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("gave back {n} webhook delivery claims"),
        Err(e) => tracing::warn!("giving back webhook delivery claims: {e:#}"),
    }
    tracing::info!("stopped");
    Ok(())
}
