//! Webhooks: register an endpoint, list, delete, rotate its secret, send it a test event,
//! and read its delivery log. The request and answer types are here, beside their
//! handlers: they are this contract's whole surface.

use axum::extract::{Path, Request, State};
use axum::{Extension, Json};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::contract::{Accepted, Created};
use super::error::ApiError;
use super::replies::Succeeded;
use super::requests;
use crate::accounts::Principal;
use crate::app::App;
use crate::webhooks::{self, destination::Policy, Delivery, DeliveryState, Event, Webhook};

/// POST /webhooks: where to send, and which events.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// `https://…`; plain `http://` only to an address the operator allows
    /// (`QUIRE_WEBHOOK_ALLOW`).
    #[schemars(length(min = 1, max = 2000))]
    pub url: String,
    #[schemars(length(min = 1, max = 6))]
    pub events: Vec<Event>,
}

/// An endpoint. `secret` (`whsec_…`, for checking the `webhook-signature` header) is in the
/// answer that makes it (a registration or a rotation) and in no other.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct WebhookView {
    pub id: String,
    pub url: String,
    pub events: Vec<Event>,
    /// When it was registered, in seconds since 1970.
    pub created: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl WebhookView {
    fn new(w: Webhook, secret: Option<String>) -> WebhookView {
        WebhookView {
            id: w.id,
            url: w.url,
            events: w.events,
            created: w.created,
            secret,
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
// Clients know the schema by its name from before the rename.
#[schemars(deny_unknown_fields, rename = "WebhookAnswer")]
pub struct WebhookReply {
    pub ok: Succeeded,
    pub webhook: WebhookView,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct WebhookList {
    pub ok: Succeeded,
    pub webhooks: Vec<WebhookView>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct WebhookDeleted {
    pub ok: Succeeded,
    /// The endpoint's id.
    pub deleted: String,
}

/// One delivery of the log. Times are seconds since 1970.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DeliveryView {
    /// Also the `webhook-id` header, the same on every attempt.
    pub id: String,
    /// An event type, or `webhook.test`.
    pub event: String,
    pub created: f64,
    pub state: DeliveryState,
    pub attempts: i64,
    /// When it is tried again (pending only).
    pub next_attempt: Option<f64>,
    /// When it was delivered or given up.
    pub done_at: Option<f64>,
    /// The receiver's last status code; null when it was not reached.
    pub last_status: Option<i64>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
}

impl From<Delivery> for DeliveryView {
    fn from(d: Delivery) -> DeliveryView {
        DeliveryView {
            id: d.id,
            event: d.event,
            created: d.created,
            state: d.state,
            attempts: d.attempts,
            next_attempt: d.next_attempt,
            done_at: d.done_at,
            last_status: d.last_status,
            last_error: d.last_error,
        }
    }
}

/// The endpoint's latest deliveries, newest first.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DeliveryLog {
    pub ok: Succeeded,
    pub deliveries: Vec<DeliveryView>,
}

/// A test event queued.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TestQueued {
    pub ok: Succeeded,
    pub delivery: DeliveryView,
}

pub async fn create(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    req: Request,
) -> Result<Created<Json<WebhookReply>>, ApiError> {
    let NewWebhook { url, events } = requests::read_json(
        &app,
        &p,
        req,
        "{url: \"https://…\", events: [\"response.created\", …]}",
    )
    .await?;
    let (webhook, secret) = webhooks::register(
        &app.db,
        &Policy::of(&app.config.webhooks),
        &p.account.id,
        &url,
        &events,
    )
    .await?;
    Ok(Created(Json(WebhookReply {
        ok: Succeeded,
        webhook: WebhookView::new(webhook, Some(secret)),
    })))
}

pub async fn list(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
) -> Result<Json<WebhookList>, ApiError> {
    let webhooks = webhooks::list(&app.db, &p.account.id).await?;
    Ok(Json(WebhookList {
        ok: Succeeded,
        webhooks: webhooks
            .into_iter()
            .map(|w| WebhookView::new(w, None))
            .collect(),
    }))
}

pub async fn one(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<WebhookReply>, ApiError> {
    let webhook = webhooks::get(&app.db, &p.account.id, &id).await?;
    Ok(Json(WebhookReply {
        ok: Succeeded,
        webhook: WebhookView::new(webhook, None),
    }))
}

pub async fn delete(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<WebhookDeleted>, ApiError> {
    webhooks::remove(&app.db, &p.account.id, &id).await?;
    Ok(Json(WebhookDeleted {
        ok: Succeeded,
        deleted: id,
    }))
}

pub async fn rotate(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<WebhookReply>, ApiError> {
    let (webhook, secret) = webhooks::rotate(&app.db, &p.account.id, &id).await?;
    Ok(Json(WebhookReply {
        ok: Succeeded,
        webhook: WebhookView::new(webhook, Some(secret)),
    }))
}

pub async fn deliveries(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<DeliveryLog>, ApiError> {
    let log = webhooks::deliveries(&app.db, &p.account.id, &id).await?;
    Ok(Json(DeliveryLog {
        ok: Succeeded,
        deliveries: log.into_iter().map(DeliveryView::from).collect(),
    }))
}

pub async fn send_test(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Accepted<Json<TestQueued>>, ApiError> {
    let delivery = webhooks::send_test(&app.db, &p.account.id, &id).await?;
    Ok(Accepted(Json(TestQueued {
        ok: Succeeded,
        delivery: delivery.into(),
    })))
}
