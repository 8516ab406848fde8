//! What the editor at /d/{id} (host/web/editor.js) calls: the model to edit (with the rule
//! a field key follows), a page of a draft drawn by the SVG exporter (so what the editor
//! shows is what exports), and save.
//!
//! Save is the API's replace: the same validation of the model, the same new version with
//! `If-Match`, the same form bookkeeping. Refusals are JSON, as the API's are.

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use quire_sdk::{validate, Asset, Document};
use serde_json::json;

use super::Signed;
use crate::api::body::{model_too_large, read_capped, read_limited, read_model, MAX_MODEL_JSON};
use crate::api::documents::{expected_version, page_within};
use crate::api::error::ApiError;
use crate::api::queries::{OnePage, Params};
use crate::app::App;
use crate::documents::{self, Content};
use crate::sessions::Session;

/// GET /d/{id}/model: `{version, kind, model, field_rules}`, where `field_rules` is
/// [`field_rules`].
pub async fn model(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (row, document, _) = documents::load(&app.db, &app.blobs, &session.account.id, &id).await?;
    Ok((
        [
            (header::ETAG, format!("\"{}\"", row.version)),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        Json(json!({
            "version": row.version,
            "kind": row.kind.as_str(),
            "model": document,
            "field_rules": field_rules(),
        })),
    )
        .into_response())
}

/// The rules a form field follows, `{key: {pattern, max_length}, label: {max_length},
/// options: {max_items}}` (a JSON Schema pattern; lengths in characters), read from the
/// schema the API publishes for a placed field, so the editor's field panel checks a field
/// by the server's rules instead of copies of its own.
fn field_rules() -> &'static serde_json::Value {
    static RULES: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        let schema = schemars::schema_for!(crate::forms::fields::PlacedField);
        let properties = &schema.as_value()["properties"];
        let (key, label, options) = (
            &properties["key"],
            &properties["label"],
            &properties["options"],
        );
        json!({
            "key": {"pattern": key["pattern"], "max_length": key["maxLength"]},
            "label": {"max_length": label["maxLength"]},
            "options": {"max_items": options["maxItems"]},
        })
    });
    &RULES
}

/// Reads a draft model from the body with the API's model reader (the same 64 MiB cap,
/// and the plan's file size when that is smaller) and checks it as the API checks a
/// `model` source, against the assets of the current version (the editor moves pictures;
/// it does not add them).
async fn draft(
    app: &App,
    session: &Session,
    id: &str,
    body: Body,
    headers: &axum::http::HeaderMap,
) -> Result<(Document, Vec<Asset>), ApiError> {
    let plan = &session.account.plan;
    let media_type = crate::api::body::media_type_of(headers);
    if media_type != "application/json" {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the model as application/json",
        ));
    }
    let plan_limit = plan.max_file.max(0) as u64;
    let (bytes, _held) = if plan_limit <= MAX_MODEL_JSON as u64 {
        read_limited(app, headers, body, plan_limit, &plan.name).await?
    } else {
        read_capped(app, headers, body, MAX_MODEL_JSON as u64, 0, |size| {
            model_too_large("the draft", size)
        })
        .await?
    };
    let document = read_model(&bytes, "the draft")?;
    let (_, _, assets) = documents::load(&app.db, &app.blobs, &session.account.id, id).await?;
    validate::check(&document, assets.iter().map(|a| a.name.as_str()))
        .map_err(crate::api::body::invalid_model)?;
    Ok((document, assets))
}

/// PUT /d/{id}/model with `If-Match`: a new version from the editor.
pub async fn save(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
    req: Request,
) -> Result<Response, ApiError> {
    let expected = expected_version(req.headers())?.ok_or_else(|| {
        ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            "save with If-Match: \"<version>\", the version the edit started from",
        )
    })?;
    let current = documents::get(&app.db, &session.account.id, &id).await?;
    let (parts, body) = req.into_parts();
    let (document, assets) = draft(&app, &session, &id, body, &parts.headers).await?;
    // Pictures the edit no longer shows are not carried into the new version.
    let used: std::collections::HashSet<String> = document
        .shapes()
        .filter_map(|s| match s {
            quire_sdk::Shape::Image(i) => Some(i.asset.clone()),
            _ => None,
        })
        .collect();
    let assets = assets
        .into_iter()
        .filter(|a| used.contains(&a.name))
        .collect();
    let content = Content {
        document,
        assets,
        source: None,
        title: None,
    };
    let (row, warnings) = crate::forms::save_edit(
        &app.db,
        &app.blobs,
        crate::documents::Owner::of(&session.account),
        &id,
        current.kind,
        Some(expected),
        content,
    )
    .await?;
    Ok((
        [(header::ETAG, format!("\"{}\"", row.version))],
        Json(json!({"ok": true, "version": row.version, "title": row.title, "warnings": warnings})),
    )
        .into_response())
}

/// A document nothing stores, made from a request's body for [`preview`] to draw.
pub(super) trait Drafted {
    /// What a page number past its end is said to be past (`the draft has 2 page(s)`).
    const NAME: &'static str;
    /// Whether making it converts (an import), so that `make` spends the conversion first
    /// itself; otherwise the drawing spends it, once the page asked for is known to exist.
    const CONVERTS: bool;

    fn make(
        app: &App,
        session: &Session,
        id: &str,
        req: Request,
    ) -> impl std::future::Future<Output = Made> + Send;
}

/// A document [`Drafted::make`] made, with its pictures.
pub(super) type Made = Result<(Document, Vec<Asset>), ApiError>;

/// The editor's draft: the model in the body.
pub struct Draft;

impl Drafted for Draft {
    const NAME: &'static str = "draft";
    const CONVERTS: bool = false;

    async fn make(app: &App, session: &Session, id: &str, req: Request) -> Made {
        let (parts, body) = req.into_parts();
        draft(app, session, id, body, &parts.headers).await
    }
}

/// POST /d/{id}/preview?page=N (the editor's [`Draft`]) and /d/{id}/source/preview?page=N
/// (the text a source page is typing): page N of a document nothing stores, as the SVG
/// exporter draws it (so what the page shows is what exports), with the document's page
/// count in `X-Quire-Pages`.
pub async fn preview<D: Drafted>(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
    Params(q): Params<OnePage>,
    req: Request,
) -> Result<Response, ApiError> {
    let (document, assets) = D::make(&app, &session, &id, req).await?;
    let page = page_within(q.page, document.pages.len() as i64, D::NAME)?.unwrap_or(1);
    if !D::CONVERTS {
        super::spend_conversion(&app, &session).await?;
    }
    let out = app
        .plugins
        .export(&document, &assets, "svg", Some(page), None)
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml".to_string()),
            (header::CACHE_CONTROL, "no-store".to_string()),
            (
                header::HeaderName::from_static("x-quire-pages"),
                document.pages.len().to_string(),
            ),
        ],
        out.value.bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_field_rules_come_from_the_placed_field_schema() {
        let rules = super::field_rules();
        assert_eq!(rules["key"]["pattern"], "\\S", "{rules}");
        assert_eq!(rules["key"]["max_length"], 200, "{rules}");
        assert_eq!(rules["label"]["max_length"], 2000, "{rules}");
        assert_eq!(rules["options"]["max_items"], 500, "{rules}");
    }
}
