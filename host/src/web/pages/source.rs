//! The source of a document made from text (Markdown, mermaid) edited beside its drawing:
//! /d/{id}/source shows the text the current version was made from, a preview of what it
//! makes (drawn as the text changes, by `source.js`, through the same import and the SVG
//! exporter), and saves it as a new version through the API's own replace, so the text
//! meets the same importers, limits and refusals as an upload. An importer's refusal names
//! its line and column (the mermaid reader's do), and the page shows it at that line.

use std::collections::HashMap;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use maud::html;
use serde_json::json;

use super::editor::{Drafted, Made};
use super::html::{self, Section};
use super::upload::new_version;
use super::{sends, PageResult, Signed, FORM_BODY, FORM_MEDIA_TYPE};
use crate::api::documents::receive;
use crate::api::error::ApiError;
use crate::api::upload::{Endpoint, SourceQuery};
use crate::app::App;
use crate::documents::{self, DocRow};
use crate::sessions::Session;

/// A text source the page edits: the API's source field, and what people call it.
#[derive(Clone, Copy)]
struct TextFormat {
    field: &'static str,
    name: &'static str,
}

const FORMATS: &[(&str, TextFormat)] = &[
    (
        "text/markdown",
        TextFormat {
            field: "markdown",
            name: "Markdown",
        },
    ),
    (
        "text/vnd.mermaid",
        TextFormat {
            field: "mermaid",
            name: "mermaid",
        },
    ),
];

fn format_of(media_type: &str) -> Option<TextFormat> {
    let media_type = media_type.split(';').next().unwrap_or("").trim();
    FORMATS
        .iter()
        .find(|(t, _)| media_type.eq_ignore_ascii_case(t))
        .map(|(_, f)| *f)
}

/// The current version's text and its format, when it was made from text this page edits.
async fn current_text(
    app: &App,
    session: &Session,
    id: &str,
) -> Result<(DocRow, Option<(TextFormat, String)>), ApiError> {
    let row = documents::get(&app.db, &session.account.id, id).await?;
    let (_, content) =
        documents::version_content(&app.db, &app.blobs, &session.account.id, id, row.version)
            .await?;
    let text = content.source.and_then(|(bytes, media_type)| {
        let format = format_of(&media_type)?;
        String::from_utf8(bytes).ok().map(|text| (format, text))
    });
    Ok((row, text))
}

/// Whether the document page offers "Edit source": its current version came from text.
pub fn is_editable(source_type: Option<&str>) -> bool {
    source_type.and_then(format_of).is_some()
}

/// GET /d/{id}/source.
pub async fn show(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    let (row, text) = current_text(&app, &session, &id).await?;
    let Some((format, text)) = text else {
        return Err(ApiError::not_found(format!(
            "version {} of “{}” was not made from Markdown or mermaid text, so there is no source to edit; replace it with a file instead",
            row.version, row.title
        ))
        .into());
    };
    let version = row.version;
    let body = html! {
        h1 { (row.title) }
        p class="meta" id="doc-meta" {
            (format.name) " source of version " (version) " · "
            a href={ "/d/" (id) } { "Back to the document" }
        }
        form id="source-form" method="post" action={ "/d/" (id) "/source" } data-id=(id)
            data-field=(format.field) data-version=(version) data-csrf=(session.csrf) {
            (html::csrf_input(&session))
            input type="hidden" name="version" value=(version);
            input type="hidden" name="format" value=(format.field);
            div class="source-split" {
                div class="source-text" {
                    label for="source" { (format.name) }
                    textarea id="source" name="text" spellcheck="false" autocapitalize="off" rows="28"
                        aria-describedby="source-problem" { (text) }
                    p id="source-problem" class="problem" role="alert" hidden {}
                }
                div class="source-preview" aria-live="polite" {
                    p class="hint" id="preview-state" { "The preview is drawn as you type." }
                    div class="preview-pager" id="preview-pager" hidden {
                        label for="preview-page" { "Page" }
                        " "
                        select id="preview-page" {}
                    }
                    img id="preview" alt="Preview of what the source makes"
                        src={ "/d/" (id) "/pages/1.png?v=" (version) };
                }
            }
            div class="actions" {
                button type="submit" class="primary" { "Save as version " (version + 1) }
                " "
                span class="status" role="status" id="save-state" {}
            }
        }
        script type="module" src="/assets/source.js" {}
    };
    let title = format!("{} — source", row.title);
    Ok(html::page(&session, Section::Documents, &title, body).into_response())
}

/// The request the API's replace reads: the script's is one already; from the page's plain
/// form post, the text as its source field, and the version the page showed as `If-Match`.
async fn api_request(req: Request) -> Result<Request, ApiError> {
    if !sends(req.headers(), FORM_MEDIA_TYPE) {
        return Ok(req);
    }
    let bytes = axum::body::to_bytes(req.into_body(), FORM_BODY)
        .await
        .map_err(|_| {
            ApiError::bad_request(
                "the source form is too large to post; save it from the page with scripts on",
            )
        })?;
    let pairs: HashMap<String, String> = form_urlencoded::parse(&bytes).into_owned().collect();
    let field = pairs.get("format").map(String::as_str).unwrap_or("");
    if !FORMATS.iter().any(|(_, f)| f.field == field) {
        return Err(ApiError::bad_request(
            "the source form names its format: markdown or mermaid",
        ));
    }
    let text = pairs
        .get("text")
        .cloned()
        .unwrap_or_default()
        .replace("\r\n", "\n");
    let mut builder = Request::builder()
        .method("POST")
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(version) = pairs.get("version").and_then(|v| v.parse::<i64>().ok()) {
        builder = builder.header(header::IF_MATCH, format!("\"{version}\""));
    }
    builder
        .body(Body::from(json!({ field: text }).to_string()))
        .map_err(ApiError::internal)
}

/// POST /d/{id}/source: the text as a new version. The script sends the API's JSON with
/// `If-Match`; without scripts the form posts the text and the version it showed.
pub async fn save(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    let query = SourceQuery::default();
    new_version(&app, &session, &id, &query, req, api_request, "the source").await
}

/// The text a source page is typing, the API's JSON in the body, made into a document by
/// the same import a save goes through.
pub struct Text;

impl Drafted for Text {
    const NAME: &'static str = "preview";
    const CONVERTS: bool = true;

    async fn make(app: &App, session: &Session, id: &str, req: Request) -> Made {
        let row = documents::get(&app.db, &session.account.id, id).await?;
        super::spend_conversion(app, session).await?;
        let endpoint = Endpoint {
            kind: row.kind,
            form: false,
        };
        let (content, _, _) = receive(
            app,
            &session.account,
            endpoint,
            &SourceQuery::default(),
            req,
        )
        .await?;
        Ok((content.document, content.assets))
    }
}
