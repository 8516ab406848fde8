//! Webhooks in the browser: register an endpoint (its secret is shown once, on the page
//! the registration answers with), send it a test event, rotate its secret, delete it,
//! and read its delivery log.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::Form;

use super::html::{self, esc, Section};
use super::{notice_of, see_other, PageResult, Signed};
use crate::app::App;
use crate::sessions::Session;
use crate::webhooks::{self, destination::Policy, DeliveryState, Event, Webhook};

fn event_names(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| e.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A page that shows a secret once: never cached, never kept in history by the browser.
fn secret_page(session: &Session, webhook: &Webhook, secret: &str, what: &str) -> PageResult {
    let body = format!(
        "<h1>{what}</h1><p role=\"status\">Copy the secret now: it is shown this once and cannot be shown again.</p>
<dl class=\"secret\"><dt>Endpoint</dt><dd><code>{}</code></dd><dt>Signing secret</dt><dd><code id=\"webhook-secret\">{}</code></dd></dl>
<p>Each delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers (Standard Webhooks): check the signature with this secret, with any Standard Webhooks library, before trusting the body.</p>
<p><a href=\"/webhooks/{}\">To this endpoint's deliveries</a> · <a href=\"/webhooks\">Back to your webhooks</a></p>",
        esc(&webhook.url),
        esc(secret),
        esc(&webhook.id),
    );
    let mut response = Html(html::page(session, Section::Webhooks, what, &body)).into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

/// GET /webhooks.
pub async fn list(
    State(app): State<App>,
    Signed(session): Signed,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let hooks = webhooks::list(&app.db, &session.account.id).await?;
    let csrf = html::csrf_input(&session);
    let mut body = format!(
        "<h1>Webhooks</h1>{}<p>Quire sends a signed JSON POST to each endpoint when one of its chosen events happens, and tries again for a day if the endpoint does not answer 2xx. {} of {} endpoints in use.</p>",
        html::notice(&notice_of(&session, &q)),
        hooks.len(),
        webhooks::MAX_PER_ACCOUNT
    );
    let mut boxes = String::new();
    for (i, event) in Event::ALL.iter().enumerate() {
        let _ = write!(
            boxes,
            "<div class=\"check\"><input type=\"checkbox\" id=\"event-{i}\" name=\"event.{0}\" value=\"1\"><label for=\"event-{i}\">{0}</label></div>",
            event.as_str()
        );
    }
    let _ = write!(
        body,
        "<section aria-labelledby=\"new\"><h2 id=\"new\">New endpoint</h2><form method=\"post\" action=\"/webhooks\">{csrf}<label for=\"url\">URL</label><input id=\"url\" class=\"wide\" name=\"url\" type=\"url\" required maxlength=\"{}\" placeholder=\"https://example.org/quire-events\"><fieldset><legend>Events</legend>{boxes}</fieldset><button type=\"submit\">Add endpoint</button></form></section>",
        webhooks::destination::MAX_URL
    );
    if !hooks.is_empty() {
        body.push_str("<table><caption>Your endpoints</caption><thead><tr><th scope=\"col\">URL</th><th scope=\"col\">Events</th><th scope=\"col\">Added</th><th scope=\"col\"><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>");
        for hook in &hooks {
            let _ = write!(
                body,
                "<tr><td><a href=\"/webhooks/{}\"><code>{}</code></a></td><td>{}</td><td>{}</td><td class=\"actions\">{}</td></tr>",
                esc(&hook.id),
                esc(&hook.url),
                esc(&event_names(&hook.events)),
                html::time(hook.created),
                actions(&session, &hook.id),
            );
        }
        body.push_str("</tbody></table>");
    }
    Ok(Html(html::page(&session, Section::Webhooks, "Webhooks", &body)).into_response())
}

fn actions(session: &Session, id: &str) -> String {
    [
        html::post_button(
            session,
            &format!("/webhooks/{id}/test"),
            "Send test event",
            "",
        ),
        html::post_button(
            session,
            &format!("/webhooks/{id}/rotate"),
            "Rotate secret",
            "",
        ),
        html::post_button(
            session,
            &format!("/webhooks/{id}/delete"),
            "Delete",
            "danger",
        ),
    ]
    .concat()
}

/// POST /webhooks.
pub async fn create(
    State(app): State<App>,
    Signed(session): Signed,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    let chosen: Vec<String> = form
        .keys()
        .filter_map(|k| k.strip_prefix("event."))
        .map(str::to_string)
        .collect();
    let events = webhooks::parse_events(&chosen)?;
    let url = form.get("url").map(String::as_str).unwrap_or("");
    let (webhook, secret) = webhooks::register(
        &app.db,
        &Policy::of(&app.config.webhooks),
        &session.account.id,
        url,
        &events,
    )
    .await?;
    secret_page(&session, &webhook, &secret, "Endpoint added")
}

/// GET /webhooks/{id}: the endpoint and its latest deliveries.
pub async fn show(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let hook = webhooks::get(&app.db, &session.account.id, &id).await?;
    let log = webhooks::deliveries(&app.db, &session.account.id, &id).await?;
    let mut body = format!(
        "<h1>Webhook <code>{}</code></h1>{}<p>Events: {}. Added {}.</p><div class=\"actions\">{}</div>",
        esc(&hook.url),
        html::notice(&notice_of(&session, &q)),
        esc(&event_names(&hook.events)),
        html::time(hook.created),
        actions(&session, &hook.id),
    );
    if log.is_empty() {
        body.push_str("<p>No deliveries yet.</p>");
    } else {
        let _ = write!(
            body,
            "<table><caption>Latest {} deliveries, newest first</caption><thead><tr><th scope=\"col\">Event</th><th scope=\"col\">Made</th><th scope=\"col\">State</th><th scope=\"col\">Attempts</th><th scope=\"col\">Last answer</th></tr></thead><tbody>",
            webhooks::LOG_LENGTH
        );
        for d in &log {
            let state = match (d.state, d.done_at, d.next_attempt) {
                (DeliveryState::Delivered, Some(at), _) => format!("delivered {}", html::time(at)),
                (DeliveryState::Failed, Some(at), _) => format!("given up {}", html::time(at)),
                (_, _, Some(at)) => format!("waiting; next attempt {}", html::time(at)),
                _ => "waiting".to_string(),
            };
            let answer = match (&d.last_status, &d.last_error) {
                (_, Some(e)) => esc(e),
                (Some(s), None) => s.to_string(),
                (None, None) => String::new(),
            };
            let _ = write!(
                body,
                "<tr><td><code>{}</code> <small><code>{}</code></small></td><td>{}</td><td>{state}</td><td>{}</td><td>{answer}</td></tr>",
                esc(&d.event),
                esc(&d.id),
                html::time(d.created),
                d.attempts,
            );
        }
        body.push_str("</tbody></table>");
    }
    body.push_str("<p><a href=\"/webhooks\">Back to your webhooks</a></p>");
    Ok(Html(html::page(&session, Section::Webhooks, "Webhook", &body)).into_response())
}

/// POST /webhooks/{id}/test.
pub async fn send_test(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    webhooks::send_test(&app.db, &session.account.id, &id).await?;
    Ok(see_other(
        &session,
        &format!("/webhooks/{id}"),
        "A webhook.test event is on its way; its delivery shows below.",
    ))
}

/// POST /webhooks/{id}/rotate: a new secret; the old one signs beside it for a day.
pub async fn rotate(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    let (webhook, secret) = webhooks::rotate(&app.db, &session.account.id, &id).await?;
    secret_page(&session, &webhook, &secret, "Secret rotated")
}

/// POST /webhooks/{id}/delete.
pub async fn delete(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    let hook = webhooks::get(&app.db, &session.account.id, &id).await?;
    webhooks::remove(&app.db, &session.account.id, &id).await?;
    Ok(see_other(
        &session,
        "/webhooks",
        &format!("{} is deleted; nothing more is sent to it.", hook.url),
    ))
}
