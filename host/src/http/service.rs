//! What an operator runs the service with: a request id on every response and log line,
//! request metrics, health and readiness for a load balancer, and the metrics page.

use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use axum::extract::{ConnectInfo, FromRequestParts, MatchedPath, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tracing::Instrument;

use crate::app::App;
use crate::config::Config;
use crate::metrics::{self, Gauge};

pub const REQUEST_ID: &str = "x-request-id";
/// Error bodies larger than this are passed on as they are (ours are a few hundred bytes).
const MAX_ERROR_BODY: usize = 64 << 10;

/// A client's own request id is kept when it is short and plain (it ends up in our logs
/// and headers); otherwise one is made.
fn request_id(req: &Request) -> String {
    req.headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            (1..=128).contains(&v.len())
                && v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
        })
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:016x}", rand::random::<u64>()))
}

/// Who sent a request and the address they reached us under, as far as the connection and
/// the trusted proxies (`QUIRE_TRUST_PROXY`) tell.
#[derive(Debug, Clone)]
pub struct Client {
    /// None only for connections without a peer address (tests that call the router).
    pub ip: Option<IpAddr>,
}

impl Client {
    fn of(config: &Config, req: &Request) -> Client {
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(a)| a.ip());
        let Some(peer) = peer.filter(|p| config.trust_proxy.contains(*p)) else {
            return Client { ip: peer };
        };
        let ip = forwarded_client(req.headers(), peer, |ip| config.trust_proxy.contains(ip));
        Client { ip: Some(ip) }
    }
}

/// The client behind a chain of trusted proxies: `X-Forwarded-For` read from the right
/// (each proxy appends the address it saw), skipping our own proxies; the first address
/// that is not one of them is the client. Anything left of it is the client's to forge.
fn forwarded_client(headers: &HeaderMap, peer: IpAddr, trusted: impl Fn(IpAddr) -> bool) -> IpAddr {
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev().take(32) {
        let Ok(ip) = hop.parse::<IpAddr>() else {
            break;
        };
        client = ip;
        if !trusted(ip) {
            break;
        }
    }
    client
}

/// The base of the links in answers and mail: the configured `QUIRE_BASE_URL` (or the
/// listen address), never a request header. A link built from `Host` or
/// `X-Forwarded-Host` would let anyone who can send a request choose where a sign-in or
/// invitation link points, and so receive its token.
pub struct BaseUrl(pub String);

impl FromRequestParts<App> for BaseUrl {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(_: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        Ok(BaseUrl(app.config.base_url.clone()))
    }
}

/// Gives the request an id (response header, error body, every log line of the request),
/// works out who sent it, and counts it in the metrics by route template.
pub async fn request_context(State(app): State<App>, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = request_id(&req);
    let client = Client::of(&app.config, &req);
    let ip = client
        .ip
        .map(|ip| ip.to_string())
        .unwrap_or_else(|| "-".to_string());
    req.extensions_mut().insert(client);
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".to_string());
    let method = req.method().as_str().to_string();
    let span =
        tracing::info_span!("request", id = %id, client = %ip, method = %method, route = %route);
    let mut response = next.run(req).instrument(span.clone()).await;
    let took = started.elapsed();
    let status = response.status().as_u16();
    metrics::global().request(&route, &method, status, took);
    tracing::info!(parent: &span, status, ms = took.as_secs_f64() * 1000.0, "answered");
    if response.status().as_u16() >= 400 {
        response = with_request_id_in_body(response, &id).await;
    }
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, v);
    }
    response
}

/// Adds `request_id` to a JSON error body, so a user can quote it from what they saw.
async fn with_request_id_in_body(response: Response, id: &str) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        // Too large or broken to rewrite; the header still carries the id.
        return (parts.status, parts.headers, "").into_response();
    };
    let rewritten = match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(mut m)) => {
            m.insert("request_id".into(), Value::String(id.to_string()));
            serde_json::to_vec(&m).unwrap_or_else(|_| bytes.to_vec())
        }
        _ => bytes.to_vec(),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(rewritten))
}

/// The process is up and answering.
pub async fn healthz() -> Json<Value> {
    Json(json!({"ok": true}))
}

/// The process can do its work: the database answers, the blob store answers, and some
/// converter is active. A load balancer sends traffic only while this is 200.
pub async fn readyz(State(app): State<App>) -> Response {
    let database = sqlx::query("SELECT 1")
        .execute(&app.db.pool)
        .await
        .map(|_| ())
        .map_err(|e| format!("the database does not answer: {e}"));
    let blobs = app
        .blobs
        .ping()
        .await
        .map_err(|e| format!("the blob store does not answer: {e}"));
    let converters = if app.plugins.public_formats(false).is_empty() {
        Err("no converter is active".to_string())
    } else {
        Ok(())
    };
    let checks = [
        ("database", database),
        ("blobs", blobs),
        ("converters", converters),
    ];
    let failing: Vec<&String> = checks
        .iter()
        .filter_map(|(_, r)| r.as_ref().err())
        .collect();
    let body = json!({
        "ok": failing.is_empty(),
        "checks": checks.iter().map(|(name, r)| (name.to_string(), json!(r.is_ok()))).collect::<serde_json::Map<_, _>>(),
    });
    if failing.is_empty() {
        return Json(body).into_response();
    }
    let mut body = body;
    body["detail"] = json!(failing
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("; "));
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "5")],
        Json(body),
    )
        .into_response()
}

/// `GET /metrics` on the operator listener.
pub async fn metrics_page(State(app): State<App>) -> Response {
    let (busy, waiting) = app.plugins.queue_load();
    let outbox = sqlx::query_as::<_, (i64, Option<f64>)>(
        "SELECT COUNT(*), MIN(created) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap_or((0, None));
    let pool = &app.db.pool;
    let gauges = [
        Gauge {
            name: "quire_conversion_workers_busy",
            help: "Conversions running now.",
            value: busy as f64,
        },
        Gauge {
            name: "quire_conversion_queue_waiting",
            help: "Conversions waiting for a worker.",
            value: waiting as f64,
        },
        Gauge {
            name: "quire_outbox_messages",
            help: "Mail waiting to be sent.",
            value: outbox.0 as f64,
        },
        Gauge {
            name: "quire_outbox_oldest_age_seconds",
            help: "Age of the oldest mail waiting to be sent (0 when none waits).",
            value: outbox.1.map_or(0.0, |t| (crate::store::now() - t).max(0.0)),
        },
        Gauge {
            name: "quire_db_connections_in_use",
            help: "Database connections lent out now.",
            value: (pool.size() as usize).saturating_sub(pool.num_idle()) as f64,
        },
        Gauge {
            name: "quire_request_body_memory_bytes",
            help: "Bytes of request bodies held in memory now.",
            value: app.body_memory.in_use() as f64,
        },
    ];
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        metrics::global().render(&gauges),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn the_client_is_the_first_untrusted_hop_from_the_right() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let trusted = |ip: IpAddr| ip.to_string().starts_with("10.");
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.7, 10.0.0.9")]);
        assert_eq!(
            forwarded_client(&h, proxy, trusted),
            "203.0.113.7".parse::<IpAddr>().unwrap(),
            "the forged left entry is not believed"
        );
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.1"),
            ("x-forwarded-for", "10.0.0.3"),
        ]);
        assert_eq!(
            forwarded_client(&h, proxy, trusted).to_string(),
            "198.51.100.1"
        );
        let h = headers(&[("x-forwarded-for", "garbage, 10.0.0.3")]);
        assert_eq!(forwarded_client(&h, proxy, trusted).to_string(), "10.0.0.3");
        assert_eq!(forwarded_client(&HeaderMap::new(), proxy, trusted), proxy);
    }
}
