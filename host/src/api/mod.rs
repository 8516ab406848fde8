//! HTTP: the public API under /api/v1 and the operator API on its own listener. This is the
//! only module that knows HTTP; it turns requests into calls on the domain modules and
//! domain errors into contract responses (see `error`).

mod admin;
pub mod error;

use std::time::Duration;

use anyhow::Context;
use axum::Router;

use crate::app::App;

/// The public router (the API routes are added by the API server issue's modules).
pub fn router(app: App) -> Router {
    Router::new().with_state(app)
}

/// The operator token: `QUIRE_ADMIN_TOKEN`, or one generated into the data directory.
fn operator_token(app: &App) -> anyhow::Result<String> {
    if let Ok(t) = std::env::var("QUIRE_ADMIN_TOKEN") {
        if !t.is_empty() {
            return Ok(t);
        }
    }
    let path = app.config.data_dir.join("admin.token");
    if let Ok(t) = std::fs::read_to_string(&path) {
        return Ok(t.trim().to_string());
    }
    let token = hex::encode(rand::random::<[u8; 32]>());
    std::fs::write(&path, &token).with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(token)
}

pub async fn serve(app: App) -> anyhow::Result<()> {
    let token = operator_token(&app)?;
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

    // Other hosts (or the CLI) may change the active converters: follow the database.
    let plugins = app.plugins.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(2)).await;
            if let Err(e) = plugins.refresh().await {
                tracing::warn!("refreshing the active converters: {e:#}");
            }
        }
    });

    let admin_router = admin::router(app.clone(), token);
    let admin_task = tokio::spawn(async move { axum::serve(admin, admin_router).await });
    let public_router = router(app);
    tokio::select! {
        r = axum::serve(public, public_router).with_graceful_shutdown(shutdown()) => r.context("serving the API")?,
        r = admin_task => r.context("operator listener")?.context("serving the operator API")?,
    }
    Ok(())
}

async fn shutdown() {
    let _ = tokio::signal::ctrl_c().await;
}
