//! The API reference for people: every operation of /api/v1 as the route table describes
//! it (the same table the router, the OpenAPI document and every 405 are made from), and
//! the OpenAPI document itself, downloadable with the session (the API's own copy needs a
//! bearer token).

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;
use maud::html;

use super::html::{self, Section};
use super::{PageResult, Signed};
use crate::api::formats::Formats;
use crate::api::routes::ROUTES;
use crate::app::App;

/// GET /reference.
pub async fn show(Signed(session): Signed) -> PageResult {
    let body = html! {
        h1 { "API reference" }
        p {
            "Every operation of the API at " code { "/api/v1" } ". Get a token for it with an "
            a href="/credentials" { "API credential" } " (OAuth 2.0 client credentials at "
            code { "/auth/oauth/token" } ") and send it as " code { "Authorization: Bearer …" }
            ". The whole contract, with every field and answer, is the "
            a href="/reference/openapi.json" download="quire-openapi.json" { "OpenAPI document" }
            "; the Python and TypeScript clients are made from it."
        }
        table {
            caption { "Operations" }
            (html::columns(&["Method", "Path", "What it does", "Answers"], false))
            tbody {
                @for route in ROUTES {
                    tr {
                        td { code { (route.method) } }
                        td { code { (route.path) } }
                        td { (route.summary) }
                        td { (route.status) }
                    }
                }
            }
        }
    };
    Ok(html::page(&session, Section::Credentials, "API reference", body).into_response())
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
