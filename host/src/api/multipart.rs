//! `multipart/form-data` create and replace bodies, the convention Gotenberg and Stirling-PDF
//! users bring (`curl -F file=@report.pdf`): one file part, side images as `images` parts
//! named by their file names, and the JSON body's other members as text parts.
//!
//! The body arrives already read within the plan's limit (like a raw body), so the parts
//! are parsed from memory; every text part has its own small cap.

use std::collections::BTreeMap;

use axum::http::{HeaderMap, StatusCode};
use quire_sdk::image_probe::Signature;
use quire_sdk::Kind;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::body;
use super::error::ApiError;
use super::formats::Readable;
use super::upload::{
    self, Base64, Endpoint, ModelJson, Short, SourceBody, SourceQuery, Upload, MAX_PASSWORD_CHARS,
    MAX_TYPE_CHARS, MODEL_SOURCE,
};

/// Text parts a caller may send besides the file, with the most characters each may hold;
/// they are read into the [`SourceBody`] members of the same names.
pub(super) const TEXT_PARTS: &[(&str, usize)] = &[
    ("title", crate::documents::MAX_TITLE_CHARS),
    ("type", MAX_TYPE_CHARS),
    ("mode", 64),
    ("unlock", 64),
    ("password", MAX_PASSWORD_CHARS),
];

/// The largest `fields` part (the contract's 500 fields, with room for long options).
const MAX_FIELDS_JSON: usize = 4 << 20;

/// One part as received.
struct Part {
    name: String,
    file_name: Option<String>,
    content_type: Option<String>,
    bytes: bytes::Bytes,
}

async fn parts(headers: &HeaderMap, body: Vec<u8>) -> Result<Vec<Part>, ApiError> {
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let boundary = multer::parse_boundary(content_type).map_err(|_| {
        ApiError::bad_request("multipart/form-data needs a boundary parameter in its Content-Type")
    })?;
    let stream =
        futures_util::stream::once(
            async move { Ok::<_, std::io::Error>(bytes::Bytes::from(body)) },
        );
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut out = Vec::new();
    let malformed =
        |e: multer::Error| ApiError::bad_request(format!("the multipart body is malformed: {e}"));
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let content_type = field
            .content_type()
            .map(|m| m.essence_str().to_ascii_lowercase());
        let bytes = field.bytes().await.map_err(malformed)?;
        out.push(Part {
            name,
            file_name,
            content_type,
            bytes,
        });
    }
    Ok(out)
}

/// A text part of at most `max` characters (a part past four bytes a character is refused
/// before it is decoded).
fn text(part: &Part, max: usize) -> Result<String, ApiError> {
    let too_long = || {
        ApiError::bad_request(format!(
            "the `{}` part is longer than {max} characters",
            part.name
        ))
        .with("field", part.name.as_str())
    };
    if part.bytes.len() > max.saturating_mul(4) {
        return Err(too_long());
    }
    let text = String::from_utf8(part.bytes.to_vec()).map_err(|_| {
        ApiError::bad_request(format!("the `{}` part must be UTF-8 text", part.name))
    })?;
    if text.chars().count() > max {
        return Err(too_long());
    }
    Ok(text)
}

/// What the parts of a create or replace ask to import: the text parts are read into a
/// [`SourceBody`] as its JSON members would be, the file part becomes its `file` (or
/// `model`) with the media type [`media_type`] finds, and the body then meets the same
/// rules as a JSON one.
pub async fn parse_upload(
    endpoint: Endpoint,
    readable: &Readable,
    headers: &HeaderMap,
    body: Vec<u8>,
    query: &SourceQuery,
) -> Result<Upload, ApiError> {
    let mut members = Map::new();
    let mut file: Option<Part> = None;
    let mut images = BTreeMap::new();
    let reads = endpoint.members();
    for part in parts(headers, body).await? {
        let name = part.name.as_str();
        if let Some((known, max)) = TEXT_PARTS.iter().find(|(n, _)| *n == name) {
            members.insert(known.to_string(), Value::String(text(&part, *max)?));
        } else if name == "fields" && reads.contains(&name) {
            if part.bytes.len() > MAX_FIELDS_JSON {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "the `fields` part is {} bytes of JSON; at most {MAX_FIELDS_JSON} are read",
                        part.bytes.len()
                    ),
                )
                .with("limit", MAX_FIELDS_JSON as u64));
            }
            members.insert(
                "fields".into(),
                body::bounded_value(&part.bytes, "the `fields` part")?,
            );
        } else if name == "detect" && reads.contains(&name) {
            let flag = match text(&part, 8)?.as_str() {
                "true" => true,
                "false" => false,
                other => {
                    return Err(ApiError::bad_request(format!(
                        "the `detect` part is true or false, not `{other}`"
                    ))
                    .with("field", "detect"))
                }
            };
            members.insert("detect".into(), Value::Bool(flag));
        } else if name == "images" && reads.contains(&name) {
            let Some(image_name) = part.file_name.clone().filter(|n| !n.is_empty()) else {
                return Err(ApiError::bad_request(
                    "an `images` part needs a file name: the name the Markdown or HTML refers to",
                ));
            };
            images.insert(image_name, Base64(part.bytes.to_vec()));
        } else if endpoint.sources().contains(&name) {
            if let Some(first) = &file {
                return Err(ApiError::bad_request(format!(
                    "send one file part, not `{}` and `{name}`",
                    first.name
                )));
            }
            file = Some(part);
        } else {
            return Err(ApiError::bad_request(format!(
                "unknown part `{name}`; {}",
                takes(endpoint)
            ))
            .with("field", name));
        }
    }
    let Some(file) = file else {
        return Err(ApiError::bad_request(format!(
            "no file part was sent; {}",
            takes(endpoint)
        )));
    };
    let mut source: SourceBody =
        serde_path_to_error::deserialize(Value::Object(members)).map_err(|e| {
            let at = crate::error::json_error_path(&e, "");
            upload::refusal(at, e.inner(), &takes(endpoint))
        })?;
    if !images.is_empty() {
        source.images = Some(images);
    }
    if file.name == MODEL_SOURCE {
        let text = String::from_utf8(file.bytes.to_vec())
            .map_err(|_| ApiError::bad_request("the `model` part must be UTF-8 JSON"))?;
        let raw = RawValue::from_string(text).map_err(|e| {
            ApiError::bad_request(format!("the `model` part is not JSON: {e}"))
                .with("field", MODEL_SOURCE)
        })?;
        source.model = Some(ModelJson(raw));
    } else {
        let given = source.media_type.take().map(|t| t.0);
        let media_type = media_type(&file, given, endpoint, readable)?;
        if file.bytes.is_empty() {
            return Err(ApiError::bad_request(format!(
                "the `{}` part is empty",
                file.name
            )));
        }
        source.file = Some(Base64(file.bytes.to_vec()));
        source.media_type = Some(Short(media_type));
    }
    source.into_upload(endpoint, readable, query, headers, file.file_name.clone())
}

/// The file's format: a `type` part, else the part's own Content-Type, else what its name
/// (`markdown`, `pdf`, ...) or its file name's extension says, else its first bytes.
fn media_type(
    file: &Part,
    given: Option<String>,
    endpoint: Endpoint,
    readable: &Readable,
) -> Result<String, ApiError> {
    if let Some(given) = given.filter(|t| !t.trim().is_empty()) {
        return readable
            .resolve(&given)
            .ok_or_else(|| readable.unsupported(format!("`type` {given} cannot be read")));
    }
    let declared = file
        .content_type
        .clone()
        .filter(|t| t != "application/octet-stream" && t != "text/plain");
    if let Some(declared) = &declared {
        if let Some(found) = readable.resolve_content(declared, &file.bytes) {
            return Ok(found);
        }
    }
    let by_source_name = endpoint
        .named_sources()
        .find(|s| s.name == file.name)
        .and_then(|s| readable.resolve(s.media_type));
    let by_file_name = file
        .file_name
        .as_deref()
        .and_then(|n| readable.by_file_name(n, &file.bytes));
    let by_content = Signature::of(&file.bytes)
        .and_then(|s| match s {
            Signature::Pdf => Some("application/pdf"),
            picture => picture.picture_media_type(),
        })
        .and_then(|t| readable.resolve(t));
    by_source_name
        .or(by_file_name)
        .or(by_content)
        .ok_or_else(|| {
            let what = match (&declared, &file.file_name) {
                (Some(t), _) => format!("the file part's type {t} cannot be read"),
                (None, Some(n)) => format!("the format of `{n}` is not known from its name"),
                (None, None) => "the file part names no format".to_string(),
            };
            readable.unsupported(format!(
                "{what}; give the part a Content-Type, a file name with its extension, or a `type` part"
            ))
        })
}

fn takes(endpoint: Endpoint) -> String {
    let pdf = endpoint.kind == Kind::Paged;
    format!(
        "multipart/form-data takes one file part (`file`, `model` or {}){}, and the text parts title, type{}{}",
        endpoint.named_sources().map(|s| s.name).collect::<Vec<_>>().join(", "),
        if pdf { ", `images` parts named by their file names" } else { "" },
        if pdf { ", mode, unlock, password" } else { "" },
        if endpoint.form { ", fields, detect" } else { "" }
    )
}
