//! Making and replacing documents by upload from the pages: the New form on the Documents
//! page and the Replace form on a document, each also a drop target when scripts run
//! (/assets/upload.js sends the file with progress). Both go through the API's own create
//! and replace ([`crate::api::documents::create_from_upload`]), so a file meets the same
//! formats, limits, warnings and refusals as it would at /api/v1.
//!
//! A file upload is `multipart/form-data`, which the gate does not read: the script sends
//! the session's token in `X-CSRF-Token`, and the form without scripts carries it in its
//! action's `?_csrf=` (the page's `Referrer-Policy: same-origin` keeps it on this site).

use std::fmt::Write as _;

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::html::{self, esc};
use super::{see_other, wants_json, PageError, Signed};
use crate::api::documents::{create_from_upload, replace_from_upload};
use crate::api::error::ApiError;
use crate::api::formats::readable;
use crate::api::queries::Params;
use crate::api::upload::SourceQuery;
use crate::app::App;
use crate::documents::DocRow;
use crate::sessions::Session;

/// The query parameters an upload passes on to the API's parser (`title` comes as a
/// form part; import options such as `mode` could come either way).
/// What an upload answers: for the script, JSON naming the page to go to (its notice
/// already signed); for a plain form post, the redirect itself. A refusal is the API's
/// error, as JSON for the script and as a page for a form post.
pub(super) fn answer(
    session: &Session,
    json: bool,
    status: StatusCode,
    made: Result<(DocRow, Vec<String>), ApiError>,
    done: impl FnOnce(&DocRow) -> String,
) -> Response {
    let (row, warnings) = match made {
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
    let json = wants_json(req.headers());
    let made = async {
        super::spend_conversion(&app, &session).await?;
        create_from_upload(&app, &session.account, None, &q, req).await
    };
    answer(&session, json, StatusCode::CREATED, made.await, |row| {
        format!("Made “{}” from your file.", row.title)
    })
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
    let json = wants_json(req.headers());
    let made = async {
        super::spend_conversion(&app, &session).await?;
        replace_from_upload(&app, &session.account, None, &id, &q, req).await
    };
    answer(&session, json, StatusCode::OK, made.await, |row| {
        format!("Saved version {} from your file.", row.version)
    })
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
) -> String {
    let accept = accepted(app);
    let max = session.account.plan.max_file.max(0);
    let mut out = String::new();
    let _ = write!(
        out,
        "<form class=\"upload\" method=\"post\" enctype=\"multipart/form-data\" action=\"{action}?_csrf={token}\" data-csrf=\"{csrf}\" data-max=\"{max}\"{version}>\
<label class=\"button primary\" for=\"upload-file\">{label}</label>\
<input id=\"upload-file\" class=\"file\" name=\"file\" type=\"file\" accept=\"{accept}\" required>\
<noscript><button type=\"submit\">Upload</button></noscript>\
<span class=\"hint\">or drop one on this page (up to {size})</span>\
<progress class=\"progress\" max=\"100\" value=\"0\" hidden></progress>\
<span class=\"status\" role=\"status\" aria-live=\"polite\"></span></form>",
        action = esc(action),
        token = html::url_part(&session.csrf),
        csrf = esc(&session.csrf),
        version = version.map_or(String::new(), |v| format!(" data-version=\"{v}\"")),
        label = esc(label),
        accept = esc(&accept),
        size = html::bytes(max),
    );
    out.push_str("<script type=\"module\" src=\"/assets/upload.js\"></script>");
    out
}

/// Whether a change without the token in a header carries it as the upload form does.
pub fn csrf_in_query(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    let is_upload = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("multipart/form-data"));
    if !is_upload {
        return None;
    }
    form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == "_csrf")
        .map(|(_, v)| v.into_owned())
}
