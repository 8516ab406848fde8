//! API credentials: create one (its secret is shown once, on the page the creation
//! answers with, and never again), rotate, revoke, change scopes.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use axum::Form;
use maud::{html, Markup};

use super::html::{self, Section};
use super::{notice_of, see_other, PageResult, Signed};
use crate::accounts::{self, ALL_SCOPES};
use crate::app::App;
use crate::sessions::Session;

/// The scopes ticked in a posted form, space-separated as the accounts module reads them.
fn scopes_of(form: &HashMap<String, String>) -> String {
    ALL_SCOPES
        .iter()
        .filter(|s| form.contains_key(&format!("scope.{s}")))
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

fn scope_boxes(prefix: &str, held: &[String]) -> Markup {
    html! {
        @for (i, scope) in ALL_SCOPES.iter().enumerate() {
            @let id = format!("{prefix}-{i}");
            div class="check" {
                input type="checkbox" id=(id) name={ "scope." (scope) } value="1"
                    checked[held.iter().any(|h| h == scope)];
                label for=(id) { (scope) }
            }
        }
    }
}

/// The secret of a credential just made or rotated, shown once.
fn secret_page(session: &Session, client_id: &str, secret: &str, what: &str) -> PageResult {
    let secrets = html! {
        dt { "Client id" }
        dd { code id="client-id" { (client_id) } }
        dt { "Client secret" }
        dd { code id="client-secret" { (secret) } }
    };
    let after = html! {
        p {
            "Exchange them for a token at " code { "/auth/oauth/token" }
            " (OAuth 2.0 client credentials) from server-side software only; never put the secret in browser or mobile code."
        }
        p { a href="/credentials" { "Back to your credentials" } }
    };
    Ok(html::secret_page(
        session,
        Section::Credentials,
        what,
        secrets,
        after,
    ))
}

/// A credential's state: revoked, or live, with the previous secret during a rotation.
fn state(r: &accounts::CredentialRow) -> String {
    match (r.revoked, r.old_secret_until) {
        (true, _) => "revoked".to_string(),
        (false, Some(until)) => format!(
            "live; the previous secret works until {}",
            html::time(until)
        ),
        (false, None) => "live".to_string(),
    }
}

/// GET /credentials.
pub async fn list(
    State(app): State<App>,
    Signed(session): Signed,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let rows = accounts::credentials(&app.db, &session.account.id).await?;
    let plan = &session.account.plan;
    let live = rows.iter().filter(|r| !r.revoked).count();
    let body = html! {
        h1 { "API credentials" }
        (html::notice(&notice_of(&session, &q)))
        p {
            "Software uses a credential to get tokens for the API at /api/v1 (see the "
            a href="/reference" { "API reference" } "). " (live) " of " (plan.max_credentials)
            " credentials in use."
        }
        @if !plan.api {
            p class="problem" {
                "The " (plan.name) " plan does not include the API: tokens are refused until the account is on a plan that does."
            }
        }
        section aria-labelledby="new" {
            h2 id="new" { "New credential" }
            form method="post" action="/credentials" {
                (html::csrf_input(&session))
                label for="credential-name" { "Name" }
                input id="credential-name" class="wide" name="name" type="text"
                    maxlength=(accounts::MAX_CREDENTIAL_NAME) placeholder="e.g. billing server";
                fieldset {
                    legend { "Scopes" }
                    (scope_boxes("new", &ALL_SCOPES.map(String::from)))
                }
                button type="submit" { "Create credential" }
            }
        }
        @if !rows.is_empty() {
            table {
                caption { "Your credentials" }
                (html::columns(&["Name", "Client id", "Scopes", "Created", "Last used", "State"], true))
                tbody {
                    @for (i, r) in rows.iter().enumerate() {
                        @let cid = &r.client_id;
                        tr {
                            td class="name" {
                                @if r.name.is_empty() {
                                    span class="hint" { "unnamed" }
                                } @else {
                                    (r.name)
                                }
                            }
                            td { code { (cid) } }
                            td { (r.scopes.join(" ")) }
                            td { (html::time(r.created)) }
                            td class="last-used" {
                                (r.last_used.map_or_else(|| "never".to_string(), html::time))
                            }
                            td { (state(r)) }
                            td class="actions" {
                                @if !r.revoked {
                                    form method="post" action={ "/credentials/" (cid) "/scopes" } class="inline" {
                                        (html::csrf_input(&session))
                                        (scope_boxes(&format!("c{i}"), &r.scopes))
                                        button type="submit" { "Change scopes" }
                                    }
                                    @let action = |what| format!("/credentials/{cid}/{what}");
                                    (html::post_button(&session, &action("rotate"), "Rotate secret", ""))
                                    (html::post_button(&session, &action("revoke"), "Revoke", "danger"))
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(html::page(&session, Section::Credentials, "API credentials", body).into_response())
}

/// POST /credentials.
pub async fn create(
    State(app): State<App>,
    Signed(session): Signed,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    let name = form.get("name").map_or("", String::as_str);
    let (client_id, secret) =
        accounts::create_credential(&app.db, &session.account.id, &scopes_of(&form), name).await?;
    secret_page(&session, &client_id, &secret, "Credential created")
}

/// POST /credentials/{client_id}/rotate: a new secret; the old one works for 24 hours.
pub async fn rotate(
    State(app): State<App>,
    Signed(session): Signed,
    Path(client_id): Path<String>,
) -> PageResult {
    accounts::own_credential(&app.db, &session.account.id, &client_id).await?;
    let secret = accounts::rotate_secret(&app.db, &client_id).await?;
    secret_page(&session, &client_id, &secret, "Secret rotated")
}

/// POST /credentials/{client_id}/revoke: at once, with every token it issued.
pub async fn revoke(
    State(app): State<App>,
    Signed(session): Signed,
    Path(client_id): Path<String>,
) -> PageResult {
    accounts::own_credential(&app.db, &session.account.id, &client_id).await?;
    accounts::revoke(&app.db, &client_id).await?;
    Ok(see_other(
        &session,
        "/credentials",
        &format!("{client_id} is revoked; its tokens stopped working."),
    ))
}

/// POST /credentials/{client_id}/scopes.
pub async fn scopes(
    State(app): State<App>,
    Signed(session): Signed,
    Path(client_id): Path<String>,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    accounts::own_credential(&app.db, &session.account.id, &client_id).await?;
    let scopes = accounts::set_scopes(&app.db, &client_id, &scopes_of(&form)).await?;
    Ok(see_other(
        &session,
        "/credentials",
        &format!("{client_id} now has {}.", scopes.join(" ")),
    ))
}
