//! Webhooks in the browser: register an endpoint (its secret is shown once, on the page
//! the registration answers with), send it a test event, rotate its secret, delete it,
//! and read its delivery log.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use axum::Form;
use maud::{html, Markup};

use super::html::{self, Section};
use super::{notice_of, see_other, PageResult, Signed};
use crate::app::App;
use crate::sessions::Session;
use crate::webhooks::{self, destination::Policy, Delivery, DeliveryState, Event, Webhook};

fn event_names(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| e.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The signing secret of an endpoint just added or rotated, shown once.
fn secret_page(session: &Session, webhook: &Webhook, secret: &str, what: &str) -> PageResult {
    let secrets = html! {
        dt { "Endpoint" }
        dd { code { (webhook.url) } }
        dt { "Signing secret" }
        dd { code id="webhook-secret" { (secret) } }
    };
    let after = html! {
        p {
            "Each delivery carries " code { "webhook-id" } ", " code { "webhook-timestamp" } " and "
            code { "webhook-signature" }
            " headers (Standard Webhooks): check the signature with this secret, with any Standard Webhooks library, before trusting the body."
        }
        p {
            a href={ "/webhooks/" (webhook.id) } { "To this endpoint's deliveries" }
            " · "
            a href="/webhooks" { "Back to your webhooks" }
        }
    };
    Ok(html::secret_page(
        session,
        Section::Webhooks,
        what,
        secrets,
        after,
    ))
}

/// GET /webhooks.
pub async fn list(
    State(app): State<App>,
    Signed(session): Signed,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let hooks = webhooks::list(&app.db, &session.account.id).await?;
    let body = html! {
        h1 { "Webhooks" }
        (html::notice(&notice_of(&session, &q)))
        p {
            "Quire sends a signed JSON POST to each endpoint when one of its chosen events happens, and tries again for a day if the endpoint does not answer 2xx. "
            (hooks.len()) " of " (webhooks::MAX_PER_ACCOUNT) " endpoints in use."
        }
        section aria-labelledby="new" {
            h2 id="new" { "New endpoint" }
            form method="post" action="/webhooks" {
                (html::csrf_input(&session))
                label for="url" { "URL" }
                input id="url" class="wide" name="url" type="url" required
                    maxlength=(webhooks::destination::MAX_URL) placeholder="https://example.org/quire-events";
                fieldset {
                    legend { "Events" }
                    @for (i, event) in Event::ALL.iter().enumerate() {
                        div class="check" {
                            input type="checkbox" id={ "event-" (i) } name={ "event." (event.as_str()) }
                                value="1";
                            label for={ "event-" (i) } { (event.as_str()) }
                        }
                    }
                }
                button type="submit" { "Add endpoint" }
            }
        }
        @if !hooks.is_empty() {
            table {
                caption { "Your endpoints" }
                (html::columns(&["URL", "Events", "Added"], true))
                tbody {
                    @for hook in &hooks {
                        tr {
                            td { a href={ "/webhooks/" (hook.id) } { code { (hook.url) } } }
                            td { (event_names(&hook.events)) }
                            td { (html::time(hook.created)) }
                            td class="actions" { (actions(&session, &hook.id)) }
                        }
                    }
                }
            }
        }
    };
    Ok(html::page(&session, Section::Webhooks, "Webhooks", body).into_response())
}

fn actions(session: &Session, id: &str) -> Markup {
    html! {
        (html::post_button(session, &format!("/webhooks/{id}/test"), "Send test event", ""))
        (html::post_button(session, &format!("/webhooks/{id}/rotate"), "Rotate secret", ""))
        (html::post_button(session, &format!("/webhooks/{id}/delete"), "Delete", "danger"))
    }
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
    let body = html! {
        h1 { "Webhook " code { (hook.url) } }
        (html::notice(&notice_of(&session, &q)))
        p { "Events: " (event_names(&hook.events)) ". Added " (html::time(hook.created)) "." }
        div class="actions" { (actions(&session, &hook.id)) }
        @if log.is_empty() {
            p { "No deliveries yet." }
        } @else {
            table {
                caption { "Latest " (webhooks::LOG_LENGTH) " deliveries, newest first" }
                (html::columns(&["Event", "Made", "State", "Attempts", "Last answer"], false))
                tbody {
                    @for d in &log {
                        tr {
                            td { code { (d.event) } " " small { code { (d.id) } } }
                            td { (html::time(d.created)) }
                            td { (delivery_state(d)) }
                            td { (d.attempts) }
                            td {
                                @match (&d.last_status, &d.last_error) {
                                    (_, Some(e)) => { (e) }
                                    (Some(status), None) => { (status) }
                                    (None, None) => {}
                                }
                            }
                        }
                    }
                }
            }
        }
        p { a href="/webhooks" { "Back to your webhooks" } }
    };
    Ok(html::page(&session, Section::Webhooks, "Webhook", body).into_response())
}

/// Where a delivery stands, with when it was done or is tried next.
fn delivery_state(d: &Delivery) -> String {
    match (d.state, d.done_at, d.next_attempt) {
        (DeliveryState::Delivered, Some(at), _) => format!("delivered {}", html::time(at)),
        (DeliveryState::Failed, Some(at), _) => format!("given up {}", html::time(at)),
        (_, _, Some(at)) => format!("waiting; next attempt {}", html::time(at)),
        _ => "waiting".to_string(),
    }
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
