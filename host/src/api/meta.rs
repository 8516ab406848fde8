//! Endpoints 23 and 24 (usage, the surface description) and the OpenAPI document, all
//! generated from one route table so they cannot drift from each other.

use axum::extract::State;
use axum::{Extension, Json};
use serde_json::{json, Map, Value};

use super::error::ApiError;
use crate::accounts::{self, Principal};
use crate::app::App;
use crate::store::now;
use crate::usage;

/// Every public route: method, path (OpenAPI style), summary, success status.
pub const ROUTES: &[(&str, &str, &str, u16)] = &[
    ("GET", "/api/v1", "Describe the API surface", 200),
    (
        "GET",
        "/api/v1/openapi.json",
        "This OpenAPI 3.1 document",
        200,
    ),
    (
        "GET",
        "/api/v1/model.schema.json",
        "JSON Schema of the document model",
        200,
    ),
    ("GET", "/api/v1/usage", "Calls and storage used today", 200),
    (
        "POST",
        "/api/v1/pdfs",
        "Create a PDF-kind document from Markdown, HTML, an image, a PDF or a model",
        201,
    ),
    (
        "PUT",
        "/api/v1/pdfs/{id}",
        "Replace a PDF-kind document (version raised, history kept)",
        200,
    ),
    (
        "POST",
        "/api/v1/diagrams",
        "Create a diagram from mermaid, SVG, draw.io, Visio or a model",
        201,
    ),
    (
        "PUT",
        "/api/v1/diagrams/{id}",
        "Replace a diagram (version raised, history kept)",
        200,
    ),
    ("GET", "/api/v1/documents", "List documents", 200),
    (
        "GET",
        "/api/v1/documents/{id}",
        "One document (include=model adds the model)",
        200,
    ),
    (
        "GET",
        "/api/v1/documents/{id}.{format}",
        "Download in any format an active exporter writes, or the model as json",
        200,
    ),
    (
        "DELETE",
        "/api/v1/documents/{id}",
        "Move a document to the bin",
        200,
    ),
    (
        "POST",
        "/api/v1/forms",
        "Create a form from any PDF source, with placed or detected fields",
        201,
    ),
    (
        "GET",
        "/api/v1/forms",
        "List forms (state, limit, offset)",
        200,
    ),
    ("GET", "/api/v1/forms/{id}", "One form with its schema", 200),
    (
        "PUT",
        "/api/v1/forms/{id}",
        "Replace what a form is made of (answers kept, version raised)",
        200,
    ),
    (
        "PATCH",
        "/api/v1/forms/{id}",
        "Close, reopen or configure a form (open, multiple, notify, confirm). With multiple: false, answers are keyed by the address the respondent types (`as`), which is not verified: it stops repeats by mistake, not a person with a second address",
        200,
    ),
    (
        "GET",
        "/api/v1/forms/{id}/fields",
        "The form's questions",
        200,
    ),
    (
        "PUT",
        "/api/v1/forms/{id}/fields",
        "Place fields (at most 500; keep appends)",
        200,
    ),
    (
        "GET",
        "/api/v1/forms/{id}/suggest",
        "Suggested fields found on the pages (page)",
        200,
    ),
    (
        "GET",
        "/api/v1/forms/{id}/responses",
        "Responses, newest first (limit, offset)",
        200,
    ),
    (
        "POST",
        "/api/v1/forms/{id}/responses",
        "Submit answers (answers, as)",
        200,
    ),
    (
        "GET",
        "/api/v1/forms/{id}/responses.csv",
        "All responses as CSV",
        200,
    ),
    (
        "GET",
        "/api/v1/forms/{id}/responses/{rid}",
        "One response",
        200,
    ),
    (
        "DELETE",
        "/api/v1/forms/{id}/responses/{rid}",
        "Delete a response (its filled copy binned unless keepDocument=1)",
        200,
    ),
    (
        "POST",
        "/api/v1/forms/{id}/shares",
        "Invite someone by email to fill the form",
        200,
    ),
    (
        "GET",
        "/api/v1/forms/{id}/shares",
        "Who the form was sent to",
        200,
    ),
    (
        "DELETE",
        "/api/v1/forms/{id}/shares",
        "Withdraw an invitation (email)",
        200,
    ),
];

/// The methods the route table has for a concrete path (`{x}` matches one segment).
pub fn allowed_methods(path: &str) -> Vec<&'static str> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let matches = |pattern: &str| {
        let pat: Vec<&str> = pattern.split('/').collect();
        pat.len() == segments.len()
            && pat.iter().zip(&segments).all(|(p, s)| {
                if p.starts_with('{') {
                    !s.is_empty()
                } else {
                    p == s
                }
            })
    };
    let mut out: Vec<&'static str> = Vec::new();
    for (method, pattern, ..) in ROUTES {
        if matches(pattern) && !out.contains(method) {
            out.push(method);
            if *method == "GET" {
                out.push("HEAD");
            }
        }
    }
    out
}

pub async fn usage(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
) -> Result<Json<Value>, ApiError> {
    let today = usage::calls_today(&app.db, &p.account.id).await?;
    let account = accounts::account(&app.db, &p.account.id).await?;
    let plan = &account.plan;
    Ok(Json(json!({
        "ok": true,
        "day": usage::utc_day(now()),
        "calls": {
            "today": today,
            "allowed": plan.daily_calls,
            "left": plan.daily_calls.map(|a| (a - today).max(0)),
        },
        "storage": {
            "used": account.storage_used,
            "quota": plan.storage_quota,
            "left": plan.storage_quota.map(|q| (q - account.storage_used).max(0)),
            "largest_file": plan.max_file,
        },
    })))
}

/// What clients can send and download right now: the active converters' formats.
pub struct Formats {
    /// Media types a create or replace takes as a raw body (or in `file` with `type`).
    pub readable: Vec<quire_sdk::Format>,
    /// Download extensions and their media types, the model's `.json` among them.
    pub servable: Vec<(String, String)>,
}

impl Formats {
    pub fn of(app: &App) -> Formats {
        Formats {
            readable: app.plugins.public_formats(false),
            servable: super::documents::servable(app),
        }
    }

    fn readable_types(&self) -> Vec<&str> {
        let mut types: Vec<&str> = self
            .readable
            .iter()
            .map(|f| f.media_type.as_str())
            .collect();
        types.dedup();
        types
    }
}

pub async fn surface(
    State(app): State<App>,
    super::service::BaseUrl(base_url): super::service::BaseUrl,
) -> Json<Value> {
    let base = &base_url;
    let formats = Formats::of(&app);
    let list = |read: bool| -> Vec<String> {
        ROUTES
            .iter()
            .filter(|(m, ..)| (*m == "GET") == read)
            .map(|(m, p, ..)| format!("{m} {p}"))
            .collect()
    };
    Json(json!({
        "ok": true,
        "version": 1,
        "docs": format!("{base}/api/v1/openapi.json"),
        "authentication": {
            "grant": "client_credentials",
            "token_endpoint": format!("{base}/auth/oauth/token"),
            "use": "Authorization: Bearer <ACCESS_TOKEN>",
            "scopes": accounts::ALL_SCOPES,
        },
        "read": list(true),
        "write": list(false),
        "formats": {
            "readable": formats.readable.iter().map(|f| json!({"media_type": f.media_type, "extension": f.extension})).collect::<Vec<_>>(),
            "downloads": formats.servable.iter().map(|(e, m)| json!({"extension": e, "media_type": m})).collect::<Vec<_>>(),
        },
    }))
}

fn error_response(description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
}

pub async fn model_schema() -> ([(axum::http::HeaderName, &'static str); 1], String) {
    (
        [(axum::http::header::CONTENT_TYPE, "application/schema+json")],
        crate::schema::model_schema(),
    )
}

pub async fn openapi(
    State(app): State<App>,
    super::service::BaseUrl(base_url): super::service::BaseUrl,
) -> Json<Value> {
    Json(openapi_document(&base_url, &Formats::of(&app)))
}

/// The JSON body of a create or replace: one source field. `file` + `type` is the generic
/// source for any readable format.
fn source_body_schema(path: &str) -> Value {
    let string = json!({"type": "string"});
    let mut props = Map::new();
    let named: &[&str] = if path.starts_with("/api/v1/diagrams") {
        &["mermaid", "svg", "drawio", "vsdx"]
    } else {
        &["markdown", "html", "image", "pdf"]
    };
    for name in named.iter().chain(&["file", "type", "title"]) {
        props.insert(name.to_string(), string.clone());
    }
    props.insert(
        "model".into(),
        json!({"$ref": "#/components/schemas/Model"}),
    );
    if !path.starts_with("/api/v1/diagrams") {
        for name in ["mode", "unlock", "password"] {
            props.insert(name.into(), string.clone());
        }
        props.insert(
            "images".into(),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
        );
    }
    json!({"type": "object", "properties": props})
}

/// The same create or replace as `multipart/form-data` (`curl -F file=@report.pdf`): one
/// file part (`file`, `model` or a source's name), side images as `images` parts named by
/// their file names, the other members as text parts.
fn source_multipart_schema(path: &str) -> Value {
    let string = json!({"type": "string"});
    let binary = json!({"type": "string", "format": "binary"});
    let mut props = Map::new();
    props.insert("file".into(), binary.clone());
    props.insert("model".into(), string.clone());
    for name in ["title", "type"] {
        props.insert(name.into(), string.clone());
    }
    if !path.starts_with("/api/v1/diagrams") {
        for name in ["mode", "unlock", "password"] {
            props.insert(name.into(), string.clone());
        }
        props.insert("images".into(), json!({"type": "array", "items": binary}));
    }
    if path.starts_with("/api/v1/forms") {
        props.insert(
            "fields".into(),
            json!({"type": "string", "description": "the fields as JSON text"}),
        );
        props.insert(
            "detect".into(),
            json!({"type": "string", "enum": ["true", "false"]}),
        );
    }
    json!({"type": "object", "properties": props})
}

pub fn openapi_document(base: &str, formats: &Formats) -> Value {
    let mut paths = Map::new();
    for (method, path, summary, status) in ROUTES {
        let mut op = Map::new();
        op.insert("summary".into(), json!(summary));
        let scope = if *method == "GET" {
            accounts::READ
        } else {
            accounts::WRITE
        };
        op.insert("security".into(), json!([{"oauth2": [scope]}]));
        let mut params = Vec::new();
        for name in ["id", "rid"] {
            if path.contains(&format!("{{{name}}}")) {
                params.push(json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}));
            }
        }
        let extensions: Vec<&str> = formats.servable.iter().map(|(e, _)| e.as_str()).collect();
        if path.contains("{format}") {
            params.push(json!({"name": "format", "in": "path", "required": true,
                "schema": {"type": "string", "enum": extensions}}));
        }
        op.insert("parameters".into(), json!(params));
        let takes_source = matches!(*method, "POST" | "PUT")
            && (path.starts_with("/api/v1/pdfs")
                || path.starts_with("/api/v1/diagrams")
                || *path == "/api/v1/forms"
                || *path == "/api/v1/forms/{id}");
        if takes_source {
            let mut content = Map::new();
            content.insert(
                "application/json".into(),
                json!({"schema": source_body_schema(path)}),
            );
            content.insert(
                "multipart/form-data".into(),
                json!({"schema": source_multipart_schema(path)}),
            );
            for media_type in formats.readable_types() {
                content.insert(
                    media_type.to_string(),
                    json!({"schema": {"type": "string", "format": "binary"}}),
                );
            }
            op.insert(
                "requestBody".into(),
                json!({"required": true, "content": content}),
            );
        } else if matches!(*method, "POST" | "PUT" | "PATCH") {
            op.insert(
                "requestBody".into(),
                json!({"required": true, "content": {"application/json": {"schema": {"type": "object"}}}}),
            );
        }
        let mut responses = Map::new();
        let success = if path.contains("{format}") {
            let mut content = Map::new();
            for (_, media_type) in &formats.servable {
                content.insert(
                    media_type.clone(),
                    json!({"schema": {"type": "string", "format": "binary"}}),
                );
            }
            json!({"description": "the document in that format", "content": content})
        } else if path.ends_with(".csv") {
            json!({"description": "success", "content": {"text/csv": {"schema": {"type": "string"}}}})
        } else {
            json!({"description": "success", "content": {"application/json": {"schema": {"type": "object"}}}})
        };
        responses.insert(status.to_string(), success);
        for (code, what) in [
            ("400", "request not understood"),
            ("401", "no, expired or revoked token"),
            ("402", "the plan does not include this"),
            ("403", "the token's scopes do not cover the call"),
            ("404", "no such document or route"),
            ("409", "version conflict or locked PDF"),
            ("413", "file larger than the plan allows"),
            ("415", "file type cannot be read"),
            ("422", "file damaged or refused"),
            ("429", "daily allowance spent"),
            ("507", "storage quota exceeded"),
        ] {
            responses.insert(code.into(), error_response(what));
        }
        op.insert("responses".into(), Value::Object(responses));
        let entry = paths.entry(path.to_string()).or_insert_with(|| json!({}));
        entry[method.to_lowercase()] = Value::Object(op);
    }
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Quire API", "version": "1"},
        "servers": [{"url": base}],
        "paths": paths,
        "components": {
            "securitySchemes": {"oauth2": {"type": "oauth2", "flows": {"clientCredentials": {
                "tokenUrl": format!("{base}/auth/oauth/token"),
                "scopes": {accounts::READ: "read documents, forms, responses and usage", accounts::WRITE: "create, replace, delete"}
            }}}},
            "schemas": {"Model": {"type": "object", "description": format!("the document model; its JSON Schema is {base}/api/v1/model.schema.json")}, "Error": {"type": "object", "required": ["ok", "detail"], "properties": {
                "ok": {"const": false}, "detail": {"type": "string"}
            }}}
        }
    })
}
