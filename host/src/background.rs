//! The server's background work, apart from requests: following the active converters that
//! other hosts (or the CLI) change in the database, giving back the daily calls a lease
//! did not spend (`usage::Allowance`), and housekeeping (the bin past its
//! retention, tokens, sessions and sign-in links long expired, blobs nothing names, compiled
//! artifacts of earlier builds, webhook deliveries a month old). Mail and webhooks have
//! their own senders (`mail::spawn_sender`, `webhooks::spawn_sender`), which the server
//! stops with its listeners.

use std::time::Duration;

use crate::app::App;

/// How often the active converters are read again from the database.
const REFRESH_EVERY: Duration = Duration::from_secs(2);
/// How often the housekeeping runs (the first run is at start).
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(3600);

/// Starts the loops on the runtime; they run as long as the process.
pub fn spawn(app: &App) {
    let plugins = app.plugins.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(REFRESH_EVERY).await;
            if let Err(e) = plugins.refresh().await {
                tracing::warn!("refreshing the active converters: {e:#}");
            }
        }
    });
    let (db, allowance) = (app.db.clone(), app.allowance.clone());
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(crate::usage::LEASE_LIFE).await;
            if let Err(e) = allowance
                .release_older_than(&db, crate::usage::LEASE_LIFE)
                .await
            {
                tracing::warn!("giving back unspent daily calls: {e:#}");
            }
        }
    });
    let app = app.clone();
    tokio::spawn(async move {
        loop {
            housekeeping(&app).await;
            tokio::time::sleep(HOUSEKEEPING_EVERY).await;
        }
    });
}

async fn housekeeping(app: &App) {
    let dependents = crate::forms::DOCUMENT_DEPENDENTS;
    if let Err(e) = crate::documents::purge_expired(&app.db, &app.blobs, dependents).await {
        tracing::warn!("purging the bin: {e:#}");
    }
    if let Err(e) = crate::accounts::purge_expired_tokens(&app.db).await {
        tracing::warn!("purging tokens: {e:#}");
    }
    if let Err(e) = crate::sessions::purge_expired(&app.db).await {
        tracing::warn!("purging sessions and sign-in links: {e:#}");
    }
    match crate::webhooks::purge_old(&app.db).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("forgot {n} webhook deliveries done with over 30 days ago"),
        Err(e) => tracing::warn!("forgetting old webhook deliveries: {e:#}"),
    }
    match crate::store::sweep(&app.db, &app.blobs).await {
        Ok(0) => {}
        Ok(n) => tracing::info!("collected {n} blobs that nothing names"),
        Err(e) => tracing::warn!("collecting unnamed blobs: {e:#}"),
    }
    match app.plugins.prune_cache().await {
        Ok(0) => {}
        Ok(n) => tracing::info!("removed {n} compiled-cache files no engine of this build opens"),
        Err(e) => tracing::warn!("pruning the compile cache: {e:#}"),
    }
}
