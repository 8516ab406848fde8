//! HTTPS on our own listeners (`QUIRE_TLS_CERT`, `QUIRE_TLS_KEY`): rustls, HTTP/2 by ALPN
//! beside HTTP/1.1, and a certificate that can be renewed under a running server (the files
//! are watched, and SIGHUP reloads at once) without dropping a connection: each handshake
//! asks the store for the current certificate, so only new connections see the new one.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use anyhow::Context;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue};
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio::sync::watch;
use tower::ServiceExt;

/// How often the certificate files are looked at for a renewal.
const WATCH_EVERY: Duration = Duration::from_secs(2);
/// A client has this long to finish its handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);
const HSTS: &str = "max-age=31536000";

/// The certificate and key files, and what was last loaded from them.
#[derive(Debug)]
pub struct CertStore {
    cert: PathBuf,
    key: PathBuf,
    current: RwLock<(Arc<CertifiedKey>, Option<SystemTime>)>,
}

fn modified(paths: [&Path; 2]) -> Option<SystemTime> {
    paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .max()
}

fn load(cert: &Path, key: &Path) -> anyhow::Result<CertifiedKey> {
    let chain = CertificateDer::pem_file_iter(cert)
        .with_context(|| format!("reading the certificate {}", cert.display()))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("reading the certificate {}", cert.display()))?;
    anyhow::ensure!(
        !chain.is_empty(),
        "{} holds no PEM certificate",
        cert.display()
    );
    let key = PrivateKeyDer::from_pem_file(key)
        .with_context(|| format!("reading the private key {}", key.display()))?;
    let provider = rustls::crypto::ring::default_provider();
    CertifiedKey::from_der(chain, key, &provider)
        .context("the certificate and the private key do not belong together")
}

impl CertStore {
    pub fn open(cert: &Path, key: &Path) -> anyhow::Result<Arc<CertStore>> {
        let loaded = load(cert, key)?;
        Ok(Arc::new(CertStore {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            current: RwLock::new((Arc::new(loaded), modified([cert, key]))),
        }))
    }

    /// Loads the files again when they changed (or always, with `force`). A pair that does
    /// not load leaves the current certificate in place.
    pub fn reload(&self, force: bool) -> anyhow::Result<bool> {
        let stamp = modified([&self.cert, &self.key]);
        let seen = self.current.read().map(|c| c.1).unwrap_or(None);
        if !force && stamp == seen {
            return Ok(false);
        }
        let loaded = load(&self.cert, &self.key)?;
        if let Ok(mut c) = self.current.write() {
            *c = (Arc::new(loaded), stamp);
        }
        Ok(true)
    }

    /// Follows the files (and SIGHUP) until the process ends.
    pub fn watch(self: &Arc<Self>) {
        let store = self.clone();
        tokio::spawn(async move {
            #[cfg(unix)]
            let mut hangup =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
            loop {
                #[cfg(unix)]
                let forced = match hangup.as_mut() {
                    Some(h) => tokio::select! {
                        _ = h.recv() => true,
                        _ = tokio::time::sleep(WATCH_EVERY) => false,
                    },
                    None => {
                        tokio::time::sleep(WATCH_EVERY).await;
                        false
                    }
                };
                #[cfg(not(unix))]
                let forced = {
                    tokio::time::sleep(WATCH_EVERY).await;
                    false
                };
                match store.reload(forced) {
                    Ok(true) => {
                        tracing::info!("loaded the TLS certificate {}", store.cert.display())
                    }
                    Ok(false) => {}
                    Err(e) => tracing::warn!("keeping the current TLS certificate: {e:#}"),
                }
            }
        });
    }
}

impl ResolvesServerCert for CertStore {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.current.read().ok().map(|c| c.0.clone())
    }
}

/// The server side of TLS: our certificate store, HTTP/2 preferred by ALPN.
pub fn acceptor(store: Arc<CertStore>) -> anyhow::Result<tokio_rustls::TlsAcceptor> {
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .context("TLS protocol versions")?
    .with_no_client_auth()
    .with_cert_resolver(store);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

async fn stopped(stop: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns must not live across an await (it is not Send).
    let _ = stop.wait_for(|s| *s).await;
}

/// Serves `router` over TLS on `listener` until `stop` turns true, then lets the open
/// connections finish their requests.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    acceptor: tokio_rustls::TlsAcceptor,
    mut stop: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let graceful = GracefulShutdown::new();
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = stopped(&mut stop) => break,
        };
        let (acceptor, router, watcher) = (acceptor.clone(), router.clone(), graceful.watcher());
        tokio::spawn(async move {
            let tls = match tokio::time::timeout(HANDSHAKE, acceptor.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                _ => return, // a failed or slow handshake is the client's problem
            };
            let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                let router = router.clone();
                async move {
                    let mut response = router.oneshot(req.map(axum::body::Body::new)).await?;
                    response.headers_mut().insert(
                        header::STRICT_TRANSPORT_SECURITY,
                        HeaderValue::from_static(HSTS),
                    );
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            let builder = auto::Builder::new(TokioExecutor::new());
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(tls), service);
            let _ = watcher.watch(connection.into_owned()).await;
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
