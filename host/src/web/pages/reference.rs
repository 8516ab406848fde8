//! The API reference for people: every operation of /api/v1 as the route table describes
//! it (the same table the router, the OpenAPI document and every 405 are made from), and
//! the OpenAPI document itself, downloadable with the session (the API's own copy needs a
//! bearer token).

use std::fmt::Write as _;

use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::Json;

use super::html::{self, esc, Section};
use super::{PageResult, Signed};
use crate::api::formats::Formats;
use crate::api::routes::ROUTES;
use crate::app::App;

/// GET /reference.
pub async fn show(Signed(session): Signed) -> PageResult {
    let mut body = String::from(
        "<h1>API reference</h1><p>Every operation of the API at <code>/api/v1</code>. Get a token for it with an <a href=\"/credentials\">API credential</a> (OAuth 2.0 client credentials at <code>/auth/oauth/token</code>) and send it as <code>Authorization: Bearer …</code>. The whole contract, with every field and answer, is the <a href=\"/reference/openapi.json\" download=\"quire-openapi.json\">OpenAPI document</a>; the Python and TypeScript clients are made from it.</p>",
    );
    body.push_str("<table><caption>Operations</caption><thead><tr><th scope=\"col\">Method</th><th scope=\"col\">Path</th><th scope=\"col\">What it does</th><th scope=\"col\">Answers</th></tr></thead><tbody>");
    for route in ROUTES {
        let _ = write!(
            body,
            "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            route.method,
            esc(route.path),
            esc(route.summary),
            route.status,
        );
    }
    body.push_str("</tbody></table>");
    Ok(Html(html::page(
        &session,
        Section::Credentials,
        "API reference",
        &body,
    ))
    .into_response())
}

/// GET /reference/openapi.json: the document GET /api/v1/openapi.json answers.
pub async fn openapi(
    State(app): State<App>,
    Signed(_): Signed,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
) -> PageResult {
    let document = crate::api::openapi_document(&base_url, &Formats::of(&app));
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            "attachment; filename=\"quire-openapi.json\"",
        )],
        Json(document),
    )
        .into_response())
}
