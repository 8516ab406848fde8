//! Making and replacing documents by upload from the pages: the New form on the Documents
//! page and the Replace form on a document, each also a drop target when scripts run
//! (/assets/upload.js sends the file with progress). Both go through the API's own create
//! and replace ([`crate::api::documents::create_from_upload`]), so a file meets the same
//! formats, limits, warnings and refusals as it would at /api/v1.
//!
//! A file upload is `multipart/form-data`, which the gate does not read: the script sends
//! the session's token in `X-CSRF-Token`, and the form without scripts carries it in its
//! action's `?_csrf=` (the page's `Referrer-Policy: same-origin` keeps it on this site).

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use maud::{html, Markup};
use serde_json::json;

use super::html;
use super::{see_other, sends, wants_json, PageError, Signed};
use crate::api::documents::{create_from_upload, replace_from_upload};
use crate::api::error::ApiError;
use crate::api::formats::readable;
use crate::api::queries::Params;
use crate::api::upload::SourceQuery;
use crate::app::App;
use crate::documents::DocRow;
use crate::sessions::Session;

/// What an upload answers: for the script, JSON naming the page to go to (its notice
/// already signed); for a plain form post, the redirect itself. A refusal is the API's
/// error, as JSON for the script and as a page for a form post. `make` stores the version
/// from the request (spending the conversion first), `done` says what it did.
pub(super) async fn answer(
    session: &Session,
    req: Request,
    status: StatusCode,
    make: impl AsyncFnOnce(Request) -> Result<(DocRow, Vec<String>), ApiError>,
    done: impl FnOnce(&DocRow) -> String,
) -> Response {
    let json = wants_json(req.headers());
    let (row, warnings) = match make(req).await {
        Ok(made) => made,
        Err(e) if json => return e.into_response(),
        Err(e) => return PageError(e).into_response(),
    };
    let done = done(&row);
    let notice = if warnings.is_empty() {
        done.to_string()
    } else {
        format!(
            "{done} What the conversion could not keep: {}",
            warnings.join(" ")
        )
    };
    let redirect = see_other(session, &format!("/d/{}", row.id), &notice);
    if !json {
        return redirect;
    }
    let open = redirect
        .headers()
        .get(axum::http::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("/documents")
        .to_string();
    let body = json!({
        "ok": true,
        "document": {"id": row.id, "title": row.title, "kind": row.kind.as_str(), "version": row.version},
        "warnings": warnings,
        "open": open,
    });
    (status, Json(body)).into_response()
}

/// POST /documents: a new document from one file, of the kind its converter makes.
pub async fn create(
    State(app): State<App>,
    Signed(session): Signed,
    Params(q): Params<SourceQuery>,
    req: Request,
) -> Response {
    let make = async |req| {
        super::spend_conversion(&app, &session).await?;
        create_from_upload(&app, &session.account, None, &q, req).await
    };
    answer(&session, req, StatusCode::CREATED, make, |row| {
        format!("Made “{}” from your file.", row.title)
    })
    .await
}

/// POST /d/{id}/replace: a new version of a document from one file (`If-Match` from the
/// script, which knows the version it shows).
pub async fn replace(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
    Params(q): Params<SourceQuery>,
    req: Request,
) -> Response {
    new_version(
        &app,
        &session,
        &id,
        &q,
        req,
        async |req| Ok(req),
        "your file",
    )
    .await
}

/// A new version of document `id` through the API's replace, from the request as
/// `into_api` makes it one the API reads (before the conversion is spent), answered as
/// [`answer`] does, saying it was saved `from` what.
pub(super) async fn new_version(
    app: &App,
    session: &Session,
    id: &str,
    query: &SourceQuery,
    req: Request,
    into_api: impl AsyncFnOnce(Request) -> Result<Request, ApiError>,
    from: &str,
) -> Response {
    let make = async |req| {
        let req = into_api(req).await?;
        super::spend_conversion(app, session).await?;
        replace_from_upload(app, &session.account, None, id, query, req).await
    };
    answer(session, req, StatusCode::OK, make, |row| {
        format!("Saved version {} from {from}.", row.version)
    })
    .await
}

/// The extensions the active importers read, for the file picker's `accept`.
fn accepted(app: &App) -> String {
    let mut extensions: Vec<String> = readable(app)
        .extensions
        .into_iter()
        .map(|(ext, _)| format!(".{ext}"))
        .collect();
    extensions.sort();
    extensions.dedup();
    extensions.join(",")
}

/// The upload form posting to `action`: New on the Documents page, Replace on a document.
/// `version` is the version a replace is made against.
pub fn form(
    app: &App,
    session: &Session,
    action: &str,
    label: &str,
    version: Option<i64>,
) -> Markup {
    let max = session.account.plan.max_file.max(0);
    html! {
        form class="upload" method="post" enctype="multipart/form-data"
            action={ (action) "?_csrf=" (html::url_part(&session.csrf)) }
            data-csrf=(session.csrf) data-max=(max) data-version=[version] {
            label class="button primary" for="upload-file" { (label) }
            input id="upload-file" class="file" name="file" type="file" accept=(accepted(app)) required;
            noscript { button type="submit" { "Upload" } }
            span class="hint" { "or drop one on this page (up to " (html::bytes(max)) ")" }
            progress class="progress" max="100" value="0" hidden {}
            span class="status" role="status" aria-live="polite" {}
        }
        script type="module" src="/assets/upload.js" {}
    }
}

/// Whether a change without the token in a header carries it as the upload form does.
pub fn csrf_in_query(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    if !sends(headers, "multipart/form-data") {
        return None;
    }
    form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == "_csrf")
        .map(|(_, v)| v.into_owned())
}
