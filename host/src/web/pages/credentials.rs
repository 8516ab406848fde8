//! API credentials: create one (its secret is shown once, on the page the creation
//! answers with, and never again), rotate, revoke, change scopes.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::Form;

use super::html::{self, esc, Section};
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

fn scope_boxes(prefix: &str, held: &[String]) -> String {
    let mut out = String::new();
    for (i, scope) in ALL_SCOPES.iter().enumerate() {
        let id = format!("{prefix}-{i}");
        let _ = write!(
            out,
            "<div class=\"check\"><input type=\"checkbox\" id=\"{id}\" name=\"scope.{scope}\" value=\"1\"{}><label for=\"{id}\">{scope}</label></div>",
            if held.iter().any(|h| h == scope) { " checked" } else { "" }
        );
    }
    out
}

/// A page that shows a secret once: never cached, never kept in history by the browser.
fn secret_page(session: &Session, client_id: &str, secret: &str, what: &str) -> PageResult {
    let body = format!(
        "<h1>{what}</h1><p role=\"status\">Copy the secret now: it is shown this once and cannot be shown again.</p>
<dl class=\"secret\"><dt>Client id</dt><dd><code id=\"client-id\">{}</code></dd><dt>Client secret</dt><dd><code id=\"client-secret\">{}</code></dd></dl>
<p>Exchange them for a token at <code>/auth/oauth/token</code> (OAuth 2.0 client credentials) from server-side software only; never put the secret in browser or mobile code.</p>
<p><a href=\"/credentials\">Back to your credentials</a></p>",
        esc(client_id),
        esc(secret)
    );
    let mut response = Html(html::page(session, Section::Credentials, what, &body)).into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    Ok(response)
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
    let csrf = html::csrf_input(&session);
    let mut body = format!(
        "<h1>API credentials</h1>{}<p>Software uses a credential to get tokens for the API at /api/v1 (see the <a href=\"/reference\">API reference</a>). {live} of {} credentials in use.</p>",
        html::notice(&notice_of(&session, &q)),
        plan.max_credentials
    );
    if !plan.api {
        let _ = write!(
            body,
            "<p class=\"problem\">The {} plan does not include the API: tokens are refused until the account is on a plan that does.</p>",
            esc(&plan.name)
        );
    }
    let _ = write!(
        body,
        "<section aria-labelledby=\"new\"><h2 id=\"new\">New credential</h2><form method=\"post\" action=\"/credentials\">{csrf}<label for=\"credential-name\">Name</label><input id=\"credential-name\" class=\"wide\" name=\"name\" type=\"text\" maxlength=\"{}\" placeholder=\"e.g. billing server\"><fieldset><legend>Scopes</legend>{}</fieldset><button type=\"submit\">Create credential</button></form></section>",
        accounts::MAX_CREDENTIAL_NAME,
        scope_boxes("new", &ALL_SCOPES.map(String::from))
    );
    if !rows.is_empty() {
        body.push_str("<table><caption>Your credentials</caption><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Client id</th><th scope=\"col\">Scopes</th><th scope=\"col\">Created</th><th scope=\"col\">Last used</th><th scope=\"col\">State</th><th scope=\"col\"><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>");
        for (i, r) in rows.iter().enumerate() {
            let cid = esc(&r.client_id);
            let state = match (r.revoked, r.old_secret_until) {
                (true, _) => "revoked".to_string(),
                (false, Some(until)) => format!(
                    "live; the previous secret works until {}",
                    html::time(until)
                ),
                (false, None) => "live".to_string(),
            };
            let actions = if r.revoked {
                String::new()
            } else {
                format!(
                    "<form method=\"post\" action=\"/credentials/{cid}/scopes\" class=\"inline\">{csrf}{}<button type=\"submit\">Change scopes</button></form>{}{}",
                    scope_boxes(&format!("c{i}"), &r.scopes),
                    html::post_button(&session, &format!("/credentials/{}/rotate", r.client_id), "Rotate secret", ""),
                    html::post_button(&session, &format!("/credentials/{}/revoke", r.client_id), "Revoke", "danger"),
                )
            };
            let _ = write!(
                body,
                "<tr><td class=\"name\">{}</td><td><code>{cid}</code></td><td>{}</td><td>{}</td><td class=\"last-used\">{}</td><td>{state}</td><td class=\"actions\">{actions}</td></tr>",
                if r.name.is_empty() {
                    "<span class=\"hint\">unnamed</span>".to_string()
                } else {
                    esc(&r.name)
                },
                esc(&r.scopes.join(" ")),
                html::time(r.created),
                r.last_used.map_or_else(|| "never".to_string(), html::time),
            );
        }
        body.push_str("</tbody></table>");
    }
    Ok(Html(html::page(
        &session,
        Section::Credentials,
        "API credentials",
        &body,
    ))
    .into_response())
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
