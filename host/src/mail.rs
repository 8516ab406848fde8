//! Outgoing mail through an outbox table. A message is a row first, written in the same
//! transaction as whatever caused it; a sender loop hands due rows to SMTP and marks them
//! sent only after the server took them. SMTP down, or not configured, only delays mail.

use std::time::Duration;

use lettre::message::{header::ContentType, Mailbox};
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use rustls::pki_types::{pem::PemObject, CertificateDer};
use sqlx::Row;

use crate::config::MailConfig;
use crate::error::Result;
use crate::store::Tx;
use crate::store::{now, Db};

pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// One outbox row, as the CLI shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Queued {
    pub id: String,
    pub recipient: String,
    pub subject: String,
    pub created: f64,
    pub attempts: i64,
    pub sent_at: Option<f64>,
    /// When the message was given up: refused for good by the relay, or too old.
    pub failed_at: Option<f64>,
    pub last_error: Option<String>,
}

/// How long a sender owns a claimed row before another host may try it.
const CLAIM: f64 = 120.0;
const BATCH: i64 = 20;
/// A message the relay has not taken in this long is given up.
const GIVE_UP_AFTER: f64 = 3.0 * 86_400.0;

pub async fn enqueue(tx: &mut Tx<'_>, account_id: &str, mail: Mail) -> Result<()> {
    let at = now();
    sqlx::query(
        "INSERT INTO outbox (id, account_id, recipient, subject, body, created, next_attempt)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(crate::store::new_id())
    .bind(account_id)
    .bind(&mail.to)
    .bind(&mail.subject)
    .bind(&mail.body)
    .bind(at)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Messages not yet sent (or, with `all`, every message), oldest first.
pub async fn queued(db: &Db, all: bool) -> Result<Vec<Queued>> {
    let filter = if all {
        ""
    } else {
        "WHERE sent_at IS NULL AND failed_at IS NULL"
    };
    let rows = sqlx::query(&format!(
        "SELECT id, recipient, subject, created, attempts, sent_at, failed_at, last_error FROM outbox {filter} ORDER BY created, id"
    ))
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Queued {
                id: r.try_get("id")?,
                recipient: r.try_get("recipient")?,
                subject: r.try_get("subject")?,
                created: r.try_get("created")?,
                attempts: r.try_get("attempts")?,
                sent_at: r.try_get("sent_at")?,
                failed_at: r.try_get("failed_at")?,
                last_error: r.try_get("last_error")?,
            })
        })
        .collect()
}

/// How the connection to the relay is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Security {
    /// `smtps://`: TLS from the first byte (port 465).
    Implicit,
    /// `smtp://…?tls=required`: STARTTLS or no mail (the default when a login is given, so a
    /// password never crosses the wire in clear).
    StartTlsRequired,
    /// `smtp://…?tls=opportunistic`: STARTTLS when the relay offers it (the default without a
    /// login).
    StartTlsOpportunistic,
    /// `smtp://…?tls=none`: plain SMTP, for a relay on the same machine.
    Plain,
}

/// The relay `url` names: `smtp[s]://[user:password@]host[:port][?tls=required|opportunistic|none]`.
#[derive(Debug, PartialEq, Eq)]
struct Relay {
    security: Security,
    host: String,
    port: u16,
    login: Option<(String, String)>,
}

impl Relay {
    fn parse(url: &str) -> anyhow::Result<Relay> {
        let (implicit, rest) = if let Some(rest) = url.strip_prefix("smtps://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("smtp://") {
            (false, rest)
        } else {
            anyhow::bail!("QUIRE_SMTP_URL must start with smtp:// or smtps://");
        };
        let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
        let (auth, hostport) = match rest.rsplit_once('@') {
            Some((a, h)) => (Some(a), h),
            None => (None, rest),
        };
        let hostport = hostport.trim_end_matches('/');
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => (
                h,
                Some(
                    p.parse::<u16>()
                        .map_err(|e| anyhow::anyhow!("QUIRE_SMTP_URL port `{p}`: {e}"))?,
                ),
            ),
            None => (hostport, None),
        };
        anyhow::ensure!(!host.is_empty(), "QUIRE_SMTP_URL names no host");
        let decode = |s: &str| {
            form_urlencoded::parse(format!("x={s}").as_bytes())
                .next()
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        let login = auth.map(|a| {
            let (user, password) = a.split_once(':').unwrap_or((a, ""));
            (decode(user), decode(password))
        });
        let mut tls = None;
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            match &*key {
                "tls" => tls = Some(value.into_owned()),
                other => anyhow::bail!("QUIRE_SMTP_URL: unknown parameter `{other}` (known: tls)"),
            }
        }
        let security = match (implicit, tls.as_deref()) {
            (true, None) => Security::Implicit,
            (true, Some(t)) => {
                anyhow::bail!("QUIRE_SMTP_URL: smtps:// is TLS from the start; drop tls={t}")
            }
            (false, Some("required")) => Security::StartTlsRequired,
            (false, Some("opportunistic")) => Security::StartTlsOpportunistic,
            (false, Some("none")) => Security::Plain,
            (false, Some(t)) => {
                anyhow::bail!("QUIRE_SMTP_URL: tls={t} is not one of required, opportunistic, none")
            }
            (false, None) if login.is_some() => Security::StartTlsRequired,
            (false, None) => Security::StartTlsOpportunistic,
        };
        let port = port.unwrap_or(if implicit { 465 } else { 25 });
        Ok(Relay {
            security,
            host: host.to_string(),
            port,
            login,
        })
    }
}

/// The SMTP transport for `url`; the relay's certificate is checked against the Mozilla roots
/// and, for a private relay, the PEM certificates in `ca`.
fn transport(
    url: &str,
    ca: Option<&std::path::Path>,
) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    let relay = Relay::parse(url)?;
    let mut params = TlsParameters::builder(relay.host.clone());
    if let Some(ca) = ca {
        let pem = std::fs::read(ca)
            .map_err(|e| anyhow::anyhow!("QUIRE_SMTP_CA {}: {e}", ca.display()))?;
        let mut found = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| anyhow::anyhow!("QUIRE_SMTP_CA {}: {e}", ca.display()))?;
            params = params.add_root_certificate(Certificate::from_der(cert.to_vec())?);
            found += 1;
        }
        anyhow::ensure!(
            found > 0,
            "QUIRE_SMTP_CA {} holds no certificate",
            ca.display()
        );
    }
    let params = params.build_rustls()?;
    let tls = match relay.security {
        Security::Implicit => Tls::Wrapper(params),
        Security::StartTlsRequired => Tls::Required(params),
        Security::StartTlsOpportunistic => Tls::Opportunistic(params),
        Security::Plain => Tls::None,
    };
    let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&relay.host)
        .port(relay.port)
        .tls(tls)
        .timeout(Some(Duration::from_secs(20)));
    if let Some((user, password)) = relay.login {
        builder = builder
            .credentials(Credentials::new(user, password))
            .authentication(vec![Mechanism::Plain, Mechanism::Login]);
    }
    tracing::info!(
        "mail goes to {}:{} ({:?})",
        relay.host,
        relay.port,
        relay.security
    );
    Ok(builder.build())
}

/// Gives back the claims this process holds, so another host sends that mail at once
/// instead of after the claim lapses (on a graceful stop).
pub async fn release_claims(db: &Db) -> Result<u64> {
    Ok(sqlx::query(
        "UPDATE outbox SET claimed_until = NULL, claimed_by = NULL WHERE claimed_by = $1 AND sent_at IS NULL",
    )
    .bind(crate::store::claimant())
    .execute(&db.pool)
    .await?
    .rows_affected())
}

/// Sends due mail until `stop` turns true. Only runs when SMTP is configured; returns the
/// sender's task so a graceful stop can wait for the message it is sending.
pub fn spawn_sender(
    db: Db,
    config: MailConfig,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<Option<tokio::task::JoinHandle<()>>> {
    let Some(url) = config.smtp.clone() else {
        tracing::info!("no QUIRE_SMTP_URL: mail waits in the outbox (quire admin outbox)");
        return Ok(None);
    };
    let transport = transport(&url, config.smtp_ca.as_deref())?;
    let from: Mailbox = config
        .from
        .parse()
        .map_err(|e| anyhow::anyhow!("QUIRE_MAIL_FROM={}: {e}", config.from))?;
    Ok(Some(tokio::spawn(async move {
        while !*stop.borrow() {
            match send_due(&db, &transport, &from, config.retry_max).await {
                Ok(n) if n > 0 => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!("mail outbox: {e:#}"),
            }
            tokio::select! {
                _ = tokio::time::sleep(config.poll) => {}
                _ = stop.changed() => {}
            }
        }
    })))
}

/// One pass over the due messages; returns how many were sent.
async fn send_due(
    db: &Db,
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    from: &Mailbox,
    retry_max: Duration,
) -> Result<usize> {
    let at = now();
    let due = sqlx::query(
        "SELECT id, recipient, subject, body, attempts, created FROM outbox
         WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt <= $1 AND (claimed_until IS NULL OR claimed_until < $1)
         ORDER BY next_attempt, id LIMIT $2",
    )
    .bind(at)
    .bind(BATCH)
    .fetch_all(&db.pool)
    .await?;
    let mut sent = 0;
    for row in due {
        let id: String = row.try_get("id")?;
        let claimed = sqlx::query(
            "UPDATE outbox SET claimed_until = $1, claimed_by = $2 WHERE id = $3 AND sent_at IS NULL
             AND (claimed_until IS NULL OR claimed_until < $4)",
        )
        .bind(at + CLAIM)
        .bind(crate::store::claimant())
        .bind(&id)
        .bind(at)
        .execute(&db.pool)
        .await?;
        if claimed.rows_affected() == 0 {
            continue; // another host has it
        }
        let attempts: i64 = row.try_get("attempts")?;
        let outcome = deliver(
            transport,
            from,
            row.try_get::<String, _>("recipient")?,
            row.try_get::<String, _>("subject")?,
            row.try_get::<String, _>("body")?,
        )
        .await;
        match outcome {
            Delivery::Sent => {
                sqlx::query("UPDATE outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL WHERE id = $2")
                    .bind(now())
                    .bind(&id)
                    .execute(&db.pool)
                    .await?;
                sent += 1;
            }
            Delivery::Refused(e) => {
                tracing::warn!("mail {id} refused for good, not retried: {e}");
                give_up(db, &id, &e).await?;
            }
            Delivery::Later { error, relay_down } => {
                let created: f64 = row.try_get("created")?;
                if created < now() - GIVE_UP_AFTER {
                    give_up(db, &id, &format!("not taken in 3 days; last: {error}")).await?;
                    continue;
                }
                let wait = 2f64
                    .powi(attempts.min(20) as i32)
                    .min(retry_max.as_secs_f64().max(1.0));
                tracing::warn!("mail {id} not sent (attempt {}): {error}", attempts + 1);
                sqlx::query(
                    "UPDATE outbox SET attempts = attempts + 1, next_attempt = $1, claimed_until = NULL, claimed_by = NULL, last_error = $2 WHERE id = $3",
                )
                .bind(now() + wait)
                .bind(&error)
                .bind(&id)
                .execute(&db.pool)
                .await?;
                if relay_down {
                    // The rest of the batch would meet the same closed door.
                    break;
                }
            }
        }
    }
    Ok(sent)
}

async fn give_up(db: &Db, id: &str, error: &str) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET attempts = attempts + 1, failed_at = $1, claimed_until = NULL, claimed_by = NULL, last_error = $2 WHERE id = $3",
    )
    .bind(now())
    .bind(error)
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// What became of one message.
enum Delivery {
    Sent,
    /// The relay answered 5xx, or the message cannot be made: trying again cannot help.
    Refused(String),
    /// Try again later; `relay_down` when the relay could not be reached at all.
    Later {
        error: String,
        relay_down: bool,
    },
}

async fn deliver(
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    from: &Mailbox,
    to: String,
    subject: String,
    body: String,
) -> Delivery {
    let to: Mailbox = match to.parse() {
        Ok(m) => m,
        Err(e) => return Delivery::Refused(format!("`{to}` is not an address: {e}")),
    };
    let message = match Message::builder()
        .from(from.clone())
        .to(to)
        .subject(subject)
        .header(ContentType::TEXT_PLAIN)
        .body(body)
    {
        Ok(m) => m,
        Err(e) => return Delivery::Refused(format!("the message cannot be made: {e}")),
    };
    match transport.send(message).await {
        Ok(_) => Delivery::Sent,
        // A refused login or a relay we cannot trust is the operator's to fix, not the
        // message's fault: keep it and keep the relay's answer.
        Err(e) if refuses_us(&e) => Delivery::Later {
            relay_down: true,
            error: format!("the relay refused our login: {e}"),
        },
        Err(e) if e.is_tls() => Delivery::Later {
            relay_down: true,
            error: format!("no secure connection to the relay: {e}"),
        },
        Err(e) if e.is_permanent() => Delivery::Refused(e.to_string()),
        Err(e) => Delivery::Later {
            relay_down: !e.is_transient(),
            error: e.to_string(),
        },
    }
}

/// 530 authentication required, 534 mechanism too weak, 535 credentials invalid, 538
/// encryption required for the mechanism (RFC 4954).
fn refuses_us(e: &lettre::transport::smtp::Error) -> bool {
    e.status()
        .is_some_and(|code| matches!(u16::from(code), 530 | 534 | 535 | 538))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relay_urls_choose_their_security() {
        let r = Relay::parse("smtps://mailer%40x.org:p%3Ass@mail.example.org").unwrap();
        assert_eq!(r.security, Security::Implicit);
        assert_eq!(r.port, 465);
        assert_eq!(
            r.login,
            Some(("mailer@x.org".to_string(), "p:ss".to_string()))
        );
        let r = Relay::parse("smtp://u:p@relay:587").unwrap();
        assert_eq!((r.security, r.port), (Security::StartTlsRequired, 587));
        let r = Relay::parse("smtp://relay").unwrap();
        assert_eq!((r.security, r.port), (Security::StartTlsOpportunistic, 25));
        let r = Relay::parse("smtp://127.0.0.1:2525?tls=none").unwrap();
        assert_eq!(
            (r.security, r.host.as_str()),
            (Security::Plain, "127.0.0.1")
        );
        for bad in [
            "http://relay",
            "smtp://relay?tls=maybe",
            "smtps://relay?tls=required",
            "smtp://relay:99999",
            "smtp://relay?ca=/x",
            "smtp://:25",
        ] {
            assert!(Relay::parse(bad).is_err(), "{bad}");
        }
    }
}
