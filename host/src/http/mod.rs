//! What carries requests, whatever they are for: the listeners (plain HTTP, or HTTPS with
//! certificates reloaded from `tls`), graceful stopping on a signal, and the layers and
//! endpoints an operator runs the service with (`service`: request ids, the client's
//! address, the base of links, metrics, health). Nothing here knows the API or the pages.

pub mod service;
pub mod tls;

use std::future::IntoFuture;

use axum::Router;

pub type ServerFuture =
    std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + Send>>;

/// One listener's server: HTTPS when it has certificate files (reloaded when they change),
/// plain HTTP otherwise. Either stops taking connections when `stopping` turns true.
pub fn listener_server(
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
