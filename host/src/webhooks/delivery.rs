//! The sender: every host runs one. It claims due deliveries (a claim lapses, so a host that
//! dies mid-send leaves its rows to the others), sends each as a signed JSON POST, and
//! records what the receiver said. Only the status and a few bytes of the reply are read;
//! redirects are not followed (a 3xx is a failed attempt), and the connection goes only to
//! an address [`Policy`] lets through.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use hmac::{Hmac, Mac};
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;
use rustls::pki_types::{pem::PemObject, CertificateDer, ServerName};
use sha2::Sha256;
use sqlx::Row;
use tokio_rustls::TlsConnector;

use super::destination::{Policy, Target};
use crate::config::WebhookConfig;
use crate::error::Result;
use crate::store::{claimant, now, Db};

/// How long a sender owns a claimed delivery before another host may try it.
const CLAIM: f64 = 60.0;
const BATCH: i64 = 32;
/// One attempt, from resolving the name to the reply's status.
const ATTEMPT_WITHIN: Duration = Duration::from_secs(15);
/// Of a reply other than 2xx, the most kept for the log, as a hint.
const REPLY_HINT: usize = 200;
const USER_AGENT: &str = concat!("Quire-Webhooks/", env!("CARGO_PKG_VERSION"));

struct Sender {
    config: WebhookConfig,
    policy: Policy,
    tls: TlsConnector,
}

/// Sends due deliveries until `stop` turns true; returns the task so a graceful stop can
/// wait for the attempts in flight.
pub fn spawn_sender(
    db: Db,
    config: WebhookConfig,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let tls = TlsConnector::from(Arc::new(client_config(config.ca.as_deref())?));
    let sender = Arc::new(Sender {
        policy: Policy::of(&config),
        config,
        tls,
    });
    Ok(tokio::spawn(async move {
        while !*stop.borrow() {
            match sender.send_due(&db).await {
                Ok(n) if n > 0 => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!("webhook deliveries: {e:#}"),
            }
            tokio::select! {
                _ = tokio::time::sleep(sender.config.poll) => {}
                _ = stop.changed() => {}
            }
        }
    }))
}

/// Gives back the claims this process holds (on a graceful stop), so another host sends
/// those deliveries at once instead of after the claim lapses.
pub async fn release_claims(db: &Db) -> Result<u64> {
    Ok(sqlx::query(
        "UPDATE webhook_deliveries SET claimed_until = NULL, claimed_by = NULL
         WHERE claimed_by = $1 AND delivered_at IS NULL",
    )
    .bind(claimant())
    .execute(&db.pool)
    .await?
    .rows_affected())
}

fn client_config(ca: Option<&Path>) -> anyhow::Result<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(ca) = ca {
        let pem = std::fs::read(ca)
            .map_err(|e| anyhow::anyhow!("QUIRE_WEBHOOK_CA {}: {e}", ca.display()))?;
        let mut found = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert =
                cert.map_err(|e| anyhow::anyhow!("QUIRE_WEBHOOK_CA {}: {e}", ca.display()))?;
            roots.add(cert)?;
            found += 1;
        }
        anyhow::ensure!(
            found > 0,
            "QUIRE_WEBHOOK_CA {} holds no certificate",
            ca.display()
        );
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// A due delivery with what signing and sending it takes.
struct Due {
    id: String,
    url: String,
    payload: String,
    secrets: Vec<String>,
    attempts: i64,
    created: f64,
}

/// What one attempt came to.
enum Outcome {
    Delivered(u16),
    Failed { status: Option<u16>, error: String },
}

impl Sender {
    /// One pass over the due deliveries; returns how many the receivers took.
    async fn send_due(self: &Arc<Self>, db: &Db) -> Result<usize> {
        let at = now();
        let rows = sqlx::query(
            "SELECT d.id, d.payload, d.attempts, d.created, w.url, w.secret, w.previous_secret, w.previous_until
             FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
             WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt <= $1
               AND (d.claimed_until IS NULL OR d.claimed_until < $1)
             ORDER BY d.next_attempt, d.id LIMIT $2",
        )
        .bind(at)
        .bind(BATCH)
        .fetch_all(&db.pool)
        .await?;
        let mut attempts = tokio::task::JoinSet::new();
        for row in rows {
            let id: String = row.try_get("id")?;
            let claimed = sqlx::query(
                "UPDATE webhook_deliveries SET claimed_until = $1, claimed_by = $2
                 WHERE id = $3 AND delivered_at IS NULL AND failed_at IS NULL
                   AND (claimed_until IS NULL OR claimed_until < $4)",
            )
            .bind(at + CLAIM)
            .bind(claimant())
            .bind(&id)
            .bind(at)
            .execute(&db.pool)
            .await?;
            if claimed.rows_affected() == 0 {
                continue; // another host has it
            }
            let mut secrets = vec![row.try_get::<String, _>("secret")?];
            let previous: Option<String> = row.try_get("previous_secret")?;
            let until: Option<f64> = row.try_get("previous_until")?;
            if let (Some(previous), Some(until)) = (previous, until) {
                if until > at {
                    secrets.push(previous);
                }
            }
            let due = Due {
                id,
                url: row.try_get("url")?,
                payload: row.try_get("payload")?,
                secrets,
                attempts: row.try_get("attempts")?,
                created: row.try_get("created")?,
            };
            let (sender, db) = (self.clone(), db.clone());
            attempts.spawn(async move {
                let outcome = sender.attempt(&due).await;
                sender.record(&db, &due, outcome).await
            });
        }
        let mut delivered = 0;
        while let Some(done) = attempts.join_next().await {
            match done {
                Ok(Ok(true)) => delivered += 1,
                Ok(Ok(false)) => {}
                Ok(Err(e)) => tracing::warn!("recording a webhook delivery: {e:#}"),
                Err(e) => tracing::warn!("a webhook delivery stopped: {e}"),
            }
        }
        Ok(delivered)
    }

    async fn attempt(&self, due: &Due) -> Outcome {
        let failed = |error: String| Outcome::Failed {
            status: None,
            error,
        };
        let target = match Target::parse(&due.url) {
            Ok(t) => t,
            Err(why) => return failed(format!("the URL {why}")),
        };
        let timestamp = now() as i64;
        let signatures: Vec<String> = due
            .secrets
            .iter()
            .filter_map(|s| sign(s, &due.id, timestamp, &due.payload))
            .collect();
        let request = Request::post(target.path.as_str())
            .header(hyper::header::HOST, target.host_header())
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(hyper::header::USER_AGENT, USER_AGENT)
            .header("webhook-id", &due.id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signatures.join(" "))
            .body(Full::new(Bytes::from(due.payload.clone())));
        let request = match request {
            Ok(r) => r,
            Err(e) => return failed(format!("the request cannot be made: {e}")),
        };
        let exchange = async {
            let addr = self.policy.resolve(&target).await?;
            self.exchange(&target, addr, request).await
        };
        match tokio::time::timeout(ATTEMPT_WITHIN, exchange).await {
            Err(_) => failed(format!("no answer within {} s", ATTEMPT_WITHIN.as_secs())),
            Ok(Err(error)) => failed(error),
            Ok(Ok((status, _))) if (200..300).contains(&status) => Outcome::Delivered(status),
            Ok(Ok((status, hint))) => Outcome::Failed {
                status: Some(status),
                error: if (300..400).contains(&status) {
                    format!("answered {status}; redirects are not followed")
                } else if hint.is_empty() {
                    format!("answered {status}")
                } else {
                    format!("answered {status}: {hint}")
                },
            },
        }
    }

    async fn exchange(
        &self,
        target: &Target,
        addr: std::net::SocketAddr,
        request: Request<Full<Bytes>>,
    ) -> std::result::Result<(u16, String), String> {
        let tcp = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connecting to {addr}: {e}"))?;
        if !target.https {
            return round_trip(TokioIo::new(tcp), request).await;
        }
        let name = ServerName::try_from(target.host.clone())
            .map_err(|e| format!("{} is not a name TLS can check: {e}", target.host))?;
        let tls = self
            .tls
            .connect(name, tcp)
            .await
            .map_err(|e| format!("no secure connection to {}: {e}", target.host))?;
        round_trip(TokioIo::new(tls), request).await
    }

    /// Writes what the attempt came to; true when the receiver took the delivery.
    async fn record(&self, db: &Db, due: &Due, outcome: Outcome) -> Result<bool> {
        let at = now();
        let (status, error) = match outcome {
            Outcome::Delivered(status) => {
                sqlx::query(
                    "UPDATE webhook_deliveries SET delivered_at = $1, attempts = attempts + 1, last_status = $2,
                     last_error = NULL, claimed_until = NULL, claimed_by = NULL WHERE id = $3",
                )
                .bind(at)
                .bind(i64::from(status))
                .bind(&due.id)
                .execute(&db.pool)
                .await?;
                return Ok(true);
            }
            Outcome::Failed { status, error } => (status.map(i64::from), error),
        };
        let wait = retry_wait(&self.config, due.attempts);
        let give_up = at + wait > due.created + self.config.give_up.as_secs_f64();
        tracing::info!(
            "webhook delivery {} not taken (attempt {}): {error}{}",
            due.id,
            due.attempts + 1,
            if give_up { "; given up" } else { "" }
        );
        let (next_attempt, failed_at) = if give_up {
            (at, Some(at))
        } else {
            (at + wait, None)
        };
        sqlx::query(
            "UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt = $1, failed_at = $2,
             last_status = $3, last_error = $4, claimed_until = NULL, claimed_by = NULL WHERE id = $5",
        )
        .bind(next_attempt)
        .bind(failed_at)
        .bind(status)
        .bind(error.chars().take(500).collect::<String>())
        .bind(&due.id)
        .execute(&db.pool)
        .await?;
        Ok(false)
    }
}

/// The wait after `attempts` failed attempts before the next: the first wait, six times
/// longer each time (5 s, 30 s, 3 min, 18 min, 1.8 h with the defaults), at most the
/// longest wait (10 h by default), which keeps a day's retries to about eight attempts.
fn retry_wait(config: &WebhookConfig, attempts: i64) -> f64 {
    let grown = config.retry_first.as_secs_f64() * 6f64.powi(attempts.clamp(0, 30) as i32);
    grown.min(config.retry_max.as_secs_f64())
}

/// The Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`
/// under the secret's bytes.
fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let key = b64
        .decode(secret.strip_prefix("whsec_").unwrap_or(secret))
        .ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    Some(format!("v1,{}", b64.encode(mac.finalize().into_bytes())))
}

/// One HTTP/1.1 request on a fresh connection: the status, and for a reply other than 2xx
/// the first bytes of its body (as text, for the log).
async fn round_trip<I>(
    io: I,
    request: Request<Full<Bytes>>,
) -> std::result::Result<(u16, String), String>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut send, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    let driver = tokio::spawn(connection);
    let exchange = async {
        let reply = send
            .send_request(request)
            .await
            .map_err(|e| format!("HTTP: {e}"))?;
        let status = reply.status().as_u16();
        let mut hint = Vec::new();
        if !(200..300).contains(&status) {
            let mut body = reply.into_body();
            while hint.len() < REPLY_HINT {
                match body.frame().await {
                    Some(Ok(frame)) => {
                        if let Ok(data) = frame.into_data() {
                            hint.extend_from_slice(&data);
                        }
                    }
                    _ => break,
                }
            }
        }
        hint.truncate(REPLY_HINT);
        let hint = String::from_utf8_lossy(&hint);
        let hint: String = hint.chars().filter(|c| !c.is_control()).collect();
        Ok((status, hint.trim().to_string()))
    }
    .await;
    driver.abort();
    exchange
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_follow_the_standard_webhooks_example() {
        // The example of the Standard Webhooks specification (spec/standard-webhooks.md).
        let signature = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            r#"{"test": 2432232314}"#,
        );
        assert_eq!(
            signature.as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn retries_wait_longer_each_time_within_a_day() {
        let config = WebhookConfig {
            allow: Default::default(),
            ca: None,
            retry_first: Duration::from_secs(5),
            retry_max: Duration::from_secs(36_000),
            give_up: Duration::from_secs(86_400),
            poll: Duration::from_secs(1),
        };
        let waits: Vec<f64> = (0..8).map(|n| retry_wait(&config, n)).collect();
        assert_eq!(&waits[..5], &[5.0, 30.0, 180.0, 1080.0, 6480.0]);
        assert_eq!(waits[6], 36_000.0);
        let mut at = 0.0;
        let mut tries = 1;
        while at + retry_wait(&config, tries - 1) <= 86_400.0 {
            at += retry_wait(&config, tries - 1);
            tries += 1;
        }
        assert_eq!(tries, 8, "attempts in a day");
    }
}
