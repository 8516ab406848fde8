//! HTTP: the public API under /api/v1 and the operator API on its own listener. This is the
//! only module that knows HTTP; it turns requests into calls on the domain modules and
//! domain errors into contract responses (see `error`).

mod auth;
mod body;
mod callers;
mod documents;
pub mod error;
mod form_responses;
mod formats;
mod forms;
mod meta;
mod multipart;
mod openapi;
mod operator;
mod page_pictures;
mod pages;
mod public;
mod queries;
mod replies;
mod requests;
mod routes;
mod service;
mod tls;
mod upload;
pub mod urls;
mod webhooks;

pub use formats::Formats;
pub use openapi::document as openapi_document;

use std::future::IntoFuture;
use std::time::Duration;

use anyhow::Context;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{from_fn, from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::app::App;
use error::ApiError;

/// The public router: /api/v1 behind the token gate, the token endpoint, and JSON for
/// every 404 and 405.
pub fn router(app: App) -> Router {
    routes::api_router()
        .route("/auth/oauth/token", post(auth::token))
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
        .layer(from_fn(method_not_allowed_as_json))
        .layer(from_fn_with_state(app.clone(), route_gate))
        .layer(from_fn_with_state(app.clone(), security_headers))
        .layer(from_fn_with_state(app.clone(), service::request_context))
        .with_state(app)
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
        return auth::gate(State(app), req, next).await;
    }
    if auth::bearer(req.headers()).is_some() {
        return Err(ApiError::not_found(
            "nothing is here for a bearer token; the API lives under /api/v1",
        ));
    }
    Ok(next.run(req).await)
}

async fn not_found(req: Request) -> ApiError {
    ApiError::not_found(format!("no route {} {}", req.method(), req.uri().path()))
}

/// axum answers a wrong method with an empty 405 and an `Allow` header; give it a body.
async fn method_not_allowed_as_json(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let response = next.run(req).await;
    if response.status() != StatusCode::METHOD_NOT_ALLOWED {
        return response;
    }
    method_not_allowed(&method, &path).into_response()
}

/// A 405 for `method` on `path`, with the methods the route table has for it. axum's own
/// Allow header comes out empty once the router is layered, so it is derived here.
pub(crate) fn method_not_allowed(method: &axum::http::Method, path: &str) -> ApiError {
    let allow = routes::allowed_methods(path).join(", ");
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{path} does not take {method}; it takes {allow}"),
    )
    .with(
        "allow",
        allow
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>(),
    )
    .header(header::ALLOW, allow)
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
    let admin_router = operator::router(app.clone(), token);
    let public_router = router(app);
    let public_server = listener_server(public, public_router, tls_files.0.as_ref(), stopping)?;
    let admin_server = listener_server(admin, admin_router, tls_files.1.as_ref(), stopping_admin)?;
    let servers = async {
        let (p, a) = tokio::join!(public_server, admin_server);
        p.context("serving the API")?;
        a.context("serving the operator API")
    };
    tokio::pin!(servers);
    tokio::select! {
        r = &mut servers => return r,
        signal = stop_signal() => tracing::info!("{signal}: no new connections; letting requests in flight finish (up to {} s)", drain.as_secs()),
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

type ServerFuture = std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + Send>>;

/// One listener's server: HTTPS when it has certificate files (reloaded when they change),
/// plain HTTP otherwise. Either stops taking connections when `stopping` turns true.
fn listener_server(
    listener: tokio::net::TcpListener,
    router: Router,
    tls_files: Option<&crate::config::TlsFiles>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<ServerFuture> {
    if let Some(files) = tls_files {
        let store = tls::CertStore::open(&files.cert, &files.key)?;
        store.watch();
        return Ok(Box::pin(tls::serve(
            listener,
            router,
            tls::acceptor(store)?,
            stopping,
        )));
    }
    Ok(Box::pin(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stopping.wait_for(|stopped| *stopped).await;
        })
        .into_future()
        .await
        .map_err(anyhow::Error::from)
    }))
}

/// SIGTERM (service managers, Kubernetes) or SIGINT (Ctrl-C): the name of the one that came.
pub(crate) async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "SIGINT"
}
