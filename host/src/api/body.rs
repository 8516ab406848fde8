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
    read_capped(headers, body, limit, 0, |size| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is {size} bytes or more; the {plan} plan takes files up to {limit} bytes"),
        )
        .with("limit", limit)
    })
    .await
}

/// [`read_limited`] with the caller's refusal. Past the limit the body is refused; with
/// `drain` > 0 up to that many more bytes are read and dropped first, so a client that
/// sends the whole body before reading the answer (most do) gets the 413 instead of a
/// broken connection. Public endpoints drain nothing: their callers are not trusted with
/// that much of our bandwidth.
pub async fn read_capped(
    headers: &HeaderMap,
    body: Body,
    limit: u64,
    drain: u64,
    too_large: impl Fn(u64) -> ApiError,
) -> Result<Vec<u8>, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let mut stream = body.into_data_stream();
    if let Some(len) = declared.filter(|len| *len > limit) {
        if len <= limit.saturating_add(drain) {
            while let Some(Ok(_)) = stream.next().await {}
        }
        return Err(too_large(len));
    }
    let mut out = Vec::new();
    let mut seen: u64 = 0;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request(format!("the request body could not be read: {e}"))
        })?;
        seen += chunk.len() as u64;
        if seen > limit {
            if seen > limit.saturating_add(drain) {
                return Err(too_large(seen));
            }
            out = Vec::new();
            continue;
        }
        out.extend_from_slice(&chunk);
    }
    if seen > limit {
        return Err(too_large(seen));
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

/// A source field the contract names (`{"markdown": "..."}`): the media type it stands for
/// and whether its text is base64. Which of them work depends on the active importers,
/// like everything else an endpoint reads; the names are the contract's.
struct NamedSource {
    name: &'static str,
    base64: bool,
    media_type: &'static str,
}

const PDF_SOURCES: &[NamedSource] = &[
    NamedSource {
        name: "markdown",
        base64: false,
        media_type: "text/markdown",
    },
    NamedSource {
        name: "html",
        base64: false,
        media_type: "text/html",
    },
    NamedSource {
        name: "image",
        base64: true,
        media_type: "image/*",
    },
    NamedSource {
        name: "pdf",
        base64: true,
        media_type: "application/pdf",
    },
];

const DIAGRAM_SOURCES: &[NamedSource] = &[
    NamedSource {
        name: "mermaid",
        base64: false,
        media_type: "text/vnd.mermaid",
    },
    NamedSource {
        name: "svg",
        base64: false,
        media_type: "image/svg+xml",
    },
    NamedSource {
        name: "drawio",
        base64: false,
        media_type: "application/vnd.jgraph.mxfile",
    },
    NamedSource {
        name: "vsdx",
        base64: true,
        media_type: "application/vnd.ms-visio.drawing",
    },
];

/// The generic source for formats the contract does not name:
/// `{"file": "<base64>", "type": "<media type>"}`.
pub const FILE_SOURCE: &str = "file";

fn named_sources(kind: Kind) -> &'static [NamedSource] {
    match kind {
        Kind::Pdf => PDF_SOURCES,
        Kind::Diagram => DIAGRAM_SOURCES,
    }
}

/// The media types the active importers read, as an endpoint offers them.
pub struct Readable(pub Vec<String>);

impl Readable {
    /// The media type the importer is asked for when a client says `given`: an exact match,
    /// else the registered spelling of an experimental one (`text/x-markdown` is read as
    /// `text/markdown`, `image/jpg` as `image/jpeg`) when only that is served.
    pub fn resolve(&self, given: &str) -> Option<String> {
        let given = given.trim().to_ascii_lowercase();
        if self.0.contains(&given) {
            return Some(given);
        }
        let (top, sub) = given.split_once('/')?;
        let candidates = [
            sub.strip_prefix("x-").map(|s| format!("{top}/{s}")),
            (given == "image/jpg").then(|| "image/jpeg".to_string()),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|c| self.0.contains(c))
    }

    fn list(&self) -> String {
        if self.0.is_empty() {
            "none (no importer is active)".into()
        } else {
            self.0.join(", ")
        }
    }

    fn unsupported(&self, what: String) -> ApiError {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "{what}; readable kinds are application/json (with a source field) and {}",
                self.list()
            ),
        )
        .with("readable", self.0.clone())
    }
}

/// The sentence a 400 uses to say what an endpoint takes.
pub fn takes(kind: Kind, readable: &Readable) -> String {
    let names: Vec<&str> = named_sources(kind)
        .iter()
        .map(|f| f.name)
        .chain(["model", FILE_SOURCE])
        .collect();
    format!(
        "this endpoint takes a JSON object with exactly one source field ({}; `file` is base64 with its media type in `type`), plus optional title{}; or the file itself as the body with its Content-Type ({}) and ?title=",
        names.join(", "),
        if kind == Kind::Pdf { ", images, mode, unlock, password" } else { "" },
        readable.list()
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

/// Reads a JSON or raw create/replace body. `query_title`/`query_unlock` come from the URL;
/// `readable` is what the active importers read right now.
pub fn parse_upload(
    kind: Kind,
    readable: &Readable,
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
        return parse_json_upload(kind, readable, &body, query, options);
    }
    if content_type.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the request has no Content-Type; {}",
            takes(kind, readable)
        )));
    }
    let Some(media_type) = readable.resolve(&content_type) else {
        return Err(readable.unsupported(format!("{content_type} cannot be read")));
    };
    if body.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the request body is empty; {}",
            takes(kind, readable)
        )));
    }
    if let Some(m) = query.get("mode") {
        options.push(("mode".into(), m.clone()));
    }
    Ok(Upload {
        source: Source::File {
            bytes: body,
            media_type,
        },
        title: query.get("title").cloned(),
        images: Vec::new(),
        options,
        extra: Map::new(),
    })
}

fn parse_json_upload(
    kind: Kind,
    readable: &Readable,
    body: &[u8],
    query: &std::collections::HashMap<String, String>,
    mut options: Vec<(String, String)>,
) -> Result<Upload, ApiError> {
    let takes = || takes(kind, readable);
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!("the body is not valid JSON ({e}); {}", takes()))
    })?;
    let Value::Object(mut obj) = value else {
        return Err(ApiError::bad_request(format!(
            "the body must be a JSON object; {}",
            takes()
        )));
    };
    let present: Vec<&str> = named_sources(kind)
        .iter()
        .map(|f| f.name)
        .chain(["model", FILE_SOURCE])
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
                takes()
            )));
        }
        return Err(ApiError::bad_request(format!(
            "no source field was sent; {}",
            takes()
        )));
    }
    if present.len() > 1 {
        return Err(ApiError::bad_request(format!(
            "send exactly one source field, not {}; {}",
            present.join(" and "),
            takes()
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
    } else if name == FILE_SOURCE {
        let Value::String(text) = raw else {
            return Err(ApiError::bad_request(format!(
                "`file` must be a base64 string; {}",
                takes()
            )));
        };
        let given = match obj.remove("type") {
            Some(Value::String(t)) if !t.trim().is_empty() => t,
            _ => {
                return Err(ApiError::bad_request(
                    "`file` needs `type`, the file's media type (e.g. \"text/csv\")",
                ))
            }
        };
        let media_type = readable
            .resolve(&given)
            .ok_or_else(|| readable.unsupported(format!("`type` {given} cannot be read")))?;
        Source::File {
            bytes: decode_base64(FILE_SOURCE, &text)?,
            media_type,
        }
    } else {
        let field = named_sources(kind)
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
                takes()
            )));
        };
        let bytes = if field.base64 {
            decode_base64(name, &text)?
        } else {
            text.into_bytes()
        };
        let media_type = if field.media_type == "image/*" {
            let images = Readable(
                readable
                    .0
                    .iter()
                    .filter(|t| t.starts_with("image/"))
                    .cloned()
                    .collect(),
            );
            sniff_image(&bytes)
                .and_then(|t| images.resolve(t))
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::UNSUPPORTED_MEDIA_TYPE,
                        format!(
                            "`image` must be a picture of a readable kind ({})",
                            images.list()
                        ),
                    )
                    .with("readable", images.0.clone())
                })?
        } else {
            readable.resolve(field.media_type).ok_or_else(|| {
                readable.unsupported(format!(
                    "`{name}` ({}) cannot be read now: no active importer reads it",
                    field.media_type
                ))
            })?
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
