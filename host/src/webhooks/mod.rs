//! Webhooks: an account's endpoints, the events they chose, and the deliveries owed to
//! them. An event is recorded as one delivery row per endpoint that chose it, in the same
//! transaction as the change it reports, so a committed change always has its deliveries
//! and a rolled-back one never does. Every host's sender (`delivery`) claims due rows and
//! sends them signed the Standard Webhooks way; a row is marked delivered only after the
//! receiver answered 2xx, so a delivery is made at least once, and retried with growing
//! waits for a day before it is given up.

mod delivery;
pub mod destination;

use base64::Engine as _;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;

use crate::error::{Error, Result};
use crate::store::{new_id, now, Db, Statement, Tx};
pub use delivery::{release_claims, spawn_sender};
use destination::{Policy, Target};

/// What an endpoint can be told of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Event {
    /// Someone answered a form (through its link, an invitation or the API).
    #[serde(rename = "response.created")]
    ResponseCreated,
    /// A document was made, a form's filled copy included.
    #[serde(rename = "document.created")]
    DocumentCreated,
    /// A document got a new version.
    #[serde(rename = "document.replaced")]
    DocumentReplaced,
    /// A document went to the bin.
    #[serde(rename = "document.binned")]
    DocumentBinned,
    /// A document came back out of the bin.
    #[serde(rename = "document.restored")]
    DocumentRestored,
    /// A form stopped taking answers.
    #[serde(rename = "form.closed")]
    FormClosed,
}

impl Event {
    pub const ALL: [Event; 6] = [
        Event::ResponseCreated,
        Event::DocumentCreated,
        Event::DocumentReplaced,
        Event::DocumentBinned,
        Event::DocumentRestored,
        Event::FormClosed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Event::ResponseCreated => "response.created",
            Event::DocumentCreated => "document.created",
            Event::DocumentReplaced => "document.replaced",
            Event::DocumentBinned => "document.binned",
            Event::DocumentRestored => "document.restored",
            Event::FormClosed => "form.closed",
        }
    }

    pub fn parse(name: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.as_str() == name)
    }
}

/// The event "send test event" delivers, to one endpoint, whatever it chose.
pub const TEST_EVENT: &str = "webhook.test";
/// Endpoints one account may have.
pub const MAX_PER_ACCOUNT: i64 = 20;
/// Deliveries the log of one endpoint shows, newest first.
pub const LOG_LENGTH: i64 = 100;
/// How long a delivery stays in the log once it is done with.
const KEEP_DONE: f64 = 30.0 * 86_400.0;
/// How long a rotated-out secret still signs beside the new one.
const ROTATION_OVERLAP: f64 = 86_400.0;

/// One registered endpoint, without its secret.
#[derive(Debug, Clone, PartialEq)]
pub struct Webhook {
    pub id: String,
    pub url: String,
    pub events: Vec<Event>,
    pub created: f64,
}

/// Where one delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeliveryState {
    /// Not yet taken by the receiver; `next_attempt` says when it is tried again.
    Pending,
    /// The receiver answered 2xx.
    Delivered,
    /// Retried for the whole retry period without a 2xx; not tried again.
    Failed,
}

/// One delivery, as the endpoint's log shows it.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub id: String,
    pub event: String,
    pub created: f64,
    pub attempts: i64,
    pub state: DeliveryState,
    pub next_attempt: Option<f64>,
    pub done_at: Option<f64>,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
}

/// `whsec_` and 32 random bytes in base64, as Standard Webhooks receivers expect.
fn new_secret() -> String {
    format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(rand::random::<[u8; 32]>())
    )
}

fn stored_events(events: &[Event]) -> String {
    let names: Vec<&str> = events.iter().map(|e| e.as_str()).collect();
    format!(",{},", names.join(","))
}

fn invalid(field: &str, detail: impl Into<String>) -> Error {
    Error::InvalidField {
        field: field.into(),
        detail: detail.into(),
    }
}

/// Event names as a form sends them, checked: known names only.
pub fn parse_events(names: &[String]) -> Result<Vec<Event>> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            Event::parse(name).ok_or_else(|| {
                invalid(
                    &format!("events[{i}]"),
                    format!(
                        "`{}` is not an event; they are {}",
                        name.chars().take(60).collect::<String>(),
                        event_names()
                    ),
                )
            })
        })
        .collect()
}

fn event_names() -> String {
    let names: Vec<&str> = Event::ALL.iter().map(|e| e.as_str()).collect();
    names.join(", ")
}

/// Registers an endpoint; returns it with its secret, which is shown this once.
pub async fn register(
    db: &Db,
    policy: &Policy,
    account_id: &str,
    url: &str,
    chosen: &[Event],
) -> Result<(Webhook, String)> {
    let url = url.trim();
    let target = Target::parse(url).map_err(|why| invalid("url", why))?;
    policy.permits(&target).map_err(|why| invalid("url", why))?;
    if chosen.is_empty() {
        return Err(invalid(
            "events",
            format!("choose at least one of {}", event_names()),
        ));
    }
    let mut events = Vec::new();
    for event in chosen {
        if !events.contains(event) {
            events.push(*event);
        }
    }
    let mut tx = db.begin().await?;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM webhooks WHERE account_id = $1")
        .bind(account_id)
        .fetch_one(&mut *tx)
        .await?;
    if count >= MAX_PER_ACCOUNT {
        return Err(Error::Conflict(format!(
            "an account has at most {MAX_PER_ACCOUNT} webhooks; delete one first"
        )));
    }
    let webhook = Webhook {
        id: new_id(),
        url: url.to_string(),
        events,
        created: now(),
    };
    let secret = new_secret();
    sqlx::query(
        "INSERT INTO webhooks (id, account_id, url, events, secret, created) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&webhook.id)
    .bind(account_id)
    .bind(&webhook.url)
    .bind(stored_events(&webhook.events))
    .bind(&secret)
    .bind(webhook.created)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((webhook, secret))
}

fn webhook_of(row: &sqlx::any::AnyRow) -> Result<Webhook> {
    let events: String = row.try_get("events")?;
    Ok(Webhook {
        id: row.try_get("id")?,
        url: row.try_get("url")?,
        events: events.split(',').filter_map(Event::parse).collect(),
        created: row.try_get("created")?,
    })
}

/// The account's endpoints, oldest first.
pub async fn list(db: &Db, account_id: &str) -> Result<Vec<Webhook>> {
    let rows = sqlx::query(
        "SELECT id, url, events, created FROM webhooks WHERE account_id = $1 ORDER BY created, id",
    )
    .bind(account_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter().map(webhook_of).collect()
}

pub async fn get(db: &Db, account_id: &str, id: &str) -> Result<Webhook> {
    let row = sqlx::query(
        "SELECT id, url, events, created FROM webhooks WHERE id = $1 AND account_id = $2",
    )
    .bind(id)
    .bind(account_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("no webhook {id}")))?;
    webhook_of(&row)
}

/// Deletes an endpoint with its log; deliveries still owed to it are not sent.
pub async fn remove(db: &Db, account_id: &str, id: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    let done = sqlx::query("DELETE FROM webhooks WHERE id = $1 AND account_id = $2")
        .bind(id)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no webhook {id}")));
    }
    sqlx::query("DELETE FROM webhook_deliveries WHERE webhook_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Gives an endpoint a new secret, shown this once. The old one keeps signing beside it
/// for a day, so the receiver can change over without refusing a delivery.
pub async fn rotate(db: &Db, account_id: &str, id: &str) -> Result<(Webhook, String)> {
    let secret = new_secret();
    let done = sqlx::query(
        "UPDATE webhooks SET previous_secret = secret, previous_until = $1, secret = $2
         WHERE id = $3 AND account_id = $4",
    )
    .bind(now() + ROTATION_OVERLAP)
    .bind(&secret)
    .bind(id)
    .bind(account_id)
    .execute(&db.pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!("no webhook {id}")));
    }
    Ok((get(db, account_id, id).await?, secret))
}

/// The body every delivery carries: `{type, timestamp, data}`, as Standard Webhooks
/// recommends.
fn payload(event: &str, at: f64, data: Value) -> String {
    let timestamp = time::OffsetDateTime::from_unix_timestamp(at as i64)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default();
    serde_json::json!({"type": event, "timestamp": timestamp, "data": data}).to_string()
}

/// Records `event` for every endpoint of the account that chose it, in the transaction of
/// the change it reports.
pub async fn emit(tx: &mut Tx<'_>, account_id: &str, event: Event, data: Value) -> Result<()> {
    tx.run(&emitted(account_id, event, data).into()).await?;
    Ok(())
}

/// The statement that records `event` for every endpoint of the account that chose it,
/// for the script of the change it reports. One statement, whatever the number of
/// endpoints: each delivery's id is a random part shared by the event and the last half
/// of its endpoint's (random) id, `msg_` and 32 hexadecimal digits like any other. The
/// pattern is built in SQL: SQLite compiles a statement again each time a bare parameter
/// right of `LIKE` is bound, which would cost every create a compilation.
pub fn emitted(account_id: &str, event: Event, data: Value) -> Statement {
    let at = now();
    let event_part = format!("msg_{}", &new_id()[..16]);
    Statement::new(
        "INSERT INTO webhook_deliveries (id, webhook_id, account_id, event, payload, created, next_attempt)
         SELECT $1 || substr(id, 17), id, account_id, $2, $3, $4, $4
         FROM webhooks WHERE account_id = $5 AND events LIKE '%,' || $6 || ',%'",
        vec![
            event_part.into(),
            event.as_str().into(),
            payload(event.as_str(), at, data).into(),
            at.into(),
            account_id.into(),
            event.as_str().into(),
        ],
    )
}

async fn insert_delivery(
    tx: &mut Tx<'_>,
    webhook_id: &str,
    account_id: &str,
    event: &str,
    body: &str,
    at: f64,
) -> Result<String> {
    let id = format!("msg_{}", new_id());
    sqlx::query(
        "INSERT INTO webhook_deliveries (id, webhook_id, account_id, event, payload, created, next_attempt)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(webhook_id)
    .bind(account_id)
    .bind(event)
    .bind(body)
    .bind(at)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// Queues a `webhook.test` delivery to one endpoint; returns it as the log will show it.
pub async fn send_test(db: &Db, account_id: &str, id: &str) -> Result<Delivery> {
    let webhook = get(db, account_id, id).await?;
    let at = now();
    let data = serde_json::json!({
        "webhook": webhook.id,
        "message": "A test event sent from Quire; nothing changed.",
    });
    let mut tx = db.begin().await?;
    let delivery_id = insert_delivery(
        &mut tx,
        &webhook.id,
        account_id,
        TEST_EVENT,
        &payload(TEST_EVENT, at, data),
        at,
    )
    .await?;
    tx.commit().await?;
    Ok(Delivery {
        id: delivery_id,
        event: TEST_EVENT.into(),
        created: at,
        attempts: 0,
        state: DeliveryState::Pending,
        next_attempt: Some(at),
        done_at: None,
        last_status: None,
        last_error: None,
    })
}

/// The endpoint's latest deliveries, newest first.
pub async fn deliveries(db: &Db, account_id: &str, id: &str) -> Result<Vec<Delivery>> {
    get(db, account_id, id).await?;
    let rows = sqlx::query(
        "SELECT id, event, created, attempts, next_attempt, delivered_at, failed_at, last_status, last_error
         FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created DESC, id DESC LIMIT $2",
    )
    .bind(id)
    .bind(LOG_LENGTH)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let delivered: Option<f64> = r.try_get("delivered_at")?;
            let failed: Option<f64> = r.try_get("failed_at")?;
            let state = match (delivered, failed) {
                (Some(_), _) => DeliveryState::Delivered,
                (None, Some(_)) => DeliveryState::Failed,
                (None, None) => DeliveryState::Pending,
            };
            Ok(Delivery {
                id: r.try_get("id")?,
                event: r.try_get("event")?,
                created: r.try_get("created")?,
                attempts: r.try_get("attempts")?,
                next_attempt: match state {
                    DeliveryState::Pending => Some(r.try_get("next_attempt")?),
                    _ => None,
                },
                state,
                done_at: delivered.or(failed),
                last_status: r.try_get("last_status")?,
                last_error: r.try_get("last_error")?,
            })
        })
        .collect()
}

/// Forgets deliveries done with (delivered or given up) over 30 days ago.
pub async fn purge_old(db: &Db) -> Result<u64> {
    let before = now() - KEEP_DONE;
    Ok(sqlx::query(
        "DELETE FROM webhook_deliveries WHERE (delivered_at IS NOT NULL AND delivered_at < $1)
         OR (failed_at IS NOT NULL AND failed_at < $1)",
    )
    .bind(before)
    .execute(&db.pool)
    .await?
    .rows_affected())
}
