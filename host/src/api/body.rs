//! Reading request bodies within the plan's file limit, and turning a create/replace body
//! (JSON with one source field, or raw bytes with their Content-Type) into an import.

use axum::body::Body;
use axum::http::{header, HeaderMap, StatusCode};
use base64::Engine as _;
use futures_util::StreamExt;
use http_body_util::BodyExt;
use quire_sdk::{Asset, Kind};
use serde_json::{Map, Value};

use super::error::ApiError;

/// Reads at most `limit` bytes. A Content-Length over the limit is refused before reading
/// anything; a body without one is refused as soon as the running count passes it.
pub async fn read_limited(
    headers: &HeaderMap,
    body: Body,
    limit: u64,
    plan: &str,
) -> Result<Vec<u8>, ApiError> {
    let too_large = |size: u64| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is {size} bytes or more; the {plan} plan takes files up to {limit} bytes"),
        )
        .with("limit", limit)
    };
    if let Some(len) = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
    {
        if len > limit {
            return Err(too_large(len));
        }
    }
    let mut out = Vec::new();
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request(format!("the request body could not be read: {e}"))
        })?;
        if out.len() as u64 + chunk.len() as u64 > limit {
            return Err(too_large(out.len() as u64 + chunk.len() as u64));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// Drains a body we do not need (keeps the connection usable).
pub async fn discard(body: Body) {
    let _ = body.collect().await;
}

/// What a create/replace body asks to import.
pub enum Source {
    /// Bytes for a converter.
    File { bytes: Vec<u8>, media_type: String },
    /// A document model given directly.
    Model(Value),
}

pub struct Upload {
    pub source: Source,
    pub title: Option<String>,
    pub images: Vec<Asset>,
    pub options: Vec<(String, String)>,
    /// The JSON body's other members (e.g. a form's `fields` and `detect`).
    pub extra: Map<String, Value>,
}

struct Field {
    name: &'static str,
    base64: bool,
    media_type: &'static str,
}

const PDF_SOURCES: &[Field] = &[
    Field {
        name: "markdown",
        base64: false,
        media_type: "text/markdown",
    },
    Field {
        name: "html",
        base64: false,
        media_type: "text/html",
    },
    Field {
        name: "image",
        base64: true,
        media_type: "image/*",
    },
    Field {
        name: "pdf",
        base64: true,
        media_type: "application/pdf",
    },
];

const DIAGRAM_SOURCES: &[Field] = &[
    Field {
        name: "mermaid",
        base64: false,
        media_type: "text/vnd.mermaid",
    },
    Field {
        name: "svg",
        base64: false,
        media_type: "image/svg+xml",
    },
    Field {
        name: "drawio",
        base64: false,
        media_type: "application/vnd.jgraph.mxfile",
    },
    Field {
        name: "vsdx",
        base64: true,
        media_type: "application/vnd.ms-visio.drawing",
    },
];

/// Raw-body Content-Types, and the media type the importer is asked for.
const RAW_TYPES: &[(&str, &str)] = &[
    ("image/png", "image/png"),
    ("image/jpeg", "image/jpeg"),
    ("application/pdf", "application/pdf"),
    ("text/markdown", "text/markdown"),
    ("text/x-markdown", "text/markdown"),
    ("text/html", "text/html"),
    ("text/vnd.mermaid", "text/vnd.mermaid"),
    ("image/svg+xml", "image/svg+xml"),
    (
        "application/vnd.jgraph.mxfile",
        "application/vnd.jgraph.mxfile",
    ),
    (
        "application/vnd.ms-visio.drawing",
        "application/vnd.ms-visio.drawing",
    ),
];

fn sources(kind: Kind) -> &'static [Field] {
    match kind {
        Kind::Pdf => PDF_SOURCES,
        Kind::Diagram => DIAGRAM_SOURCES,
    }
}

/// The sentence a 400 uses to say what an endpoint takes.
pub fn takes(kind: Kind) -> String {
    let names: Vec<&str> = sources(kind)
        .iter()
        .map(|f| f.name)
        .chain(["model"])
        .collect();
    let raw: Vec<&str> = RAW_TYPES.iter().map(|(t, _)| *t).collect();
    format!(
        "this endpoint takes a JSON object with exactly one source field ({}), plus optional title{}; or the file itself as the body with its Content-Type ({}) and ?title=",
        names.join(", "),
        if kind == Kind::Pdf { ", images, mode, unlock, password" } else { "" },
        raw.join(", ")
    )
}

pub fn sniff_image(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else {
        None
    }
}

fn decode_base64(field: &str, s: &str) -> Result<Vec<u8>, ApiError> {
    let cleaned: String = s.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let cleaned = match cleaned.split_once(";base64,") {
        Some((prefix, data)) if prefix.starts_with("data:") => data.to_string(),
        _ => cleaned,
    };
    base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .or_else(|_| {
            base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(cleaned.trim_end_matches('=').as_bytes())
        })
        .map_err(|e| ApiError::bad_request(format!("`{field}` must be base64: {e}")))
}

fn string_option(obj: &Map<String, Value>, name: &str) -> Result<Option<String>, ApiError> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(Value::Bool(b)) => Ok(Some(if *b { "1" } else { "0" }.to_string())),
        Some(_) => Err(ApiError::bad_request(format!("`{name}` must be a string"))),
    }
}

/// Reads a JSON or raw create/replace body. `query_title`/`query_unlock` come from the URL.
pub fn parse_upload(
    kind: Kind,
    headers: &HeaderMap,
    body: Vec<u8>,
    query: &std::collections::HashMap<String, String>,
) -> Result<Upload, ApiError> {
    if query.contains_key("password") {
        return Err(ApiError::bad_request(
            "a password in the query string is refused (URLs are logged); send it in the X-Doc-Password header or the `password` field",
        ));
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let mut options: Vec<(String, String)> = Vec::new();
    if let Some(u) = query.get("unlock") {
        options.push(("unlock".into(), u.clone()));
    }
    if let Some(p) = headers.get("x-doc-password").and_then(|v| v.to_str().ok()) {
        options.push(("password".into(), p.to_string()));
    }
    if content_type == "application/json" || content_type.ends_with("+json") {
        return parse_json_upload(kind, &body, query, options);
    }
    let readable: Vec<&str> = RAW_TYPES.iter().map(|(t, _)| *t).collect();
    let Some((_, media_type)) = RAW_TYPES.iter().find(|(t, _)| *t == content_type) else {
        if content_type.is_empty() {
            return Err(ApiError::bad_request(format!(
                "the request has no Content-Type; {}",
                takes(kind)
            )));
        }
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("{content_type} cannot be read; readable kinds are application/json (with a source field) and {}", readable.join(", ")),
        )
        .with("readable", readable));
    };
    if body.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the request body is empty; {}",
            takes(kind)
        )));
    }
    if let Some(m) = query.get("mode") {
        options.push(("mode".into(), m.clone()));
    }
    Ok(Upload {
        source: Source::File {
            bytes: body,
            media_type: media_type.to_string(),
        },
        title: query.get("title").cloned(),
        images: Vec::new(),
        options,
        extra: Map::new(),
    })
}

fn parse_json_upload(
    kind: Kind,
    body: &[u8],
    query: &std::collections::HashMap<String, String>,
    mut options: Vec<(String, String)>,
) -> Result<Upload, ApiError> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!("the body is not valid JSON ({e}); {}", takes(kind)))
    })?;
    let Value::Object(mut obj) = value else {
        return Err(ApiError::bad_request(format!(
            "the body must be a JSON object; {}",
            takes(kind)
        )));
    };
    let present: Vec<&str> = sources(kind)
        .iter()
        .map(|f| f.name)
        .chain(["model"])
        .filter(|n| obj.get(*n).is_some_and(|v| !v.is_null()))
        .collect();
    let other_kind = match kind {
        Kind::Pdf => DIAGRAM_SOURCES,
        Kind::Diagram => PDF_SOURCES,
    };
    if present.is_empty() {
        if let Some(f) = other_kind.iter().find(|f| obj.contains_key(f.name)) {
            return Err(ApiError::bad_request(format!(
                "`{}` is not a source of this endpoint; {}",
                f.name,
                takes(kind)
            )));
        }
        return Err(ApiError::bad_request(format!(
            "no source field was sent; {}",
            takes(kind)
        )));
    }
    if present.len() > 1 {
        return Err(ApiError::bad_request(format!(
            "send exactly one source field, not {}; {}",
            present.join(" and "),
            takes(kind)
        )));
    }
    let name = present[0];
    let title = match string_option(&obj, "title")? {
        Some(t) => Some(t),
        None => query.get("title").cloned(),
    };
    for opt in ["mode", "unlock", "password"] {
        if let Some(v) = string_option(&obj, opt)? {
            options.retain(|(k, _)| k != opt);
            options.push((opt.to_string(), v));
        }
    }
    let mut images = Vec::new();
    if let Some(v) = obj.remove("images") {
        let Value::Object(map) = v else {
            return Err(ApiError::bad_request(
                "`images` must be an object mapping image names to base64 strings",
            ));
        };
        for (img_name, data) in map {
            let Value::String(s) = data else {
                return Err(ApiError::bad_request(format!(
                    "images.{img_name} must be a base64 string"
                )));
            };
            let bytes = decode_base64(&format!("images.{img_name}"), &s)?;
            let media_type = sniff_image(&bytes)
                .unwrap_or("application/octet-stream")
                .to_string();
            images.push(Asset {
                name: img_name,
                media_type,
                bytes,
            });
        }
    }
    let raw = obj.remove(name).unwrap_or(Value::Null);
    let source = if name == "model" {
        if !raw.is_object() {
            return Err(ApiError::bad_request(
                "`model` must be a JSON object (the document model)",
            ));
        }
        Source::Model(raw)
    } else {
        let field = sources(kind)
            .iter()
            .find(|f| f.name == name)
            .expect("name came from this list");
        let Value::String(text) = raw else {
            let what = if field.base64 {
                "a base64 string"
            } else {
                "a string"
            };
            return Err(ApiError::bad_request(format!(
                "`{name}` must be {what}; {}",
                takes(kind)
            )));
        };
        let bytes = if field.base64 {
            decode_base64(name, &text)?
        } else {
            text.into_bytes()
        };
        let media_type = if field.media_type == "image/*" {
            sniff_image(&bytes)
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::UNSUPPORTED_MEDIA_TYPE,
                        "`image` must be a PNG or JPEG picture",
                    )
                    .with("readable", vec!["image/png", "image/jpeg"])
                })?
                .to_string()
        } else {
            field.media_type.to_string()
        };
        Source::File { bytes, media_type }
    };
    Ok(Upload {
        source,
        title,
        images,
        options,
        extra: obj,
    })
}
