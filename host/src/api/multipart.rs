//! `multipart/form-data` create and replace bodies, the convention Gotenberg and Stirling-PDF
//! users bring (`curl -F file=@report.pdf`): one file part, side images as `images` parts
//! named by their file names, and the JSON body's other members as text parts.
//!
//! The body arrives already read within the plan's limit (like a raw body), so the parts
//! are parsed from memory; every text part has its own small cap.

use std::collections::HashMap;

use axum::http::{HeaderMap, StatusCode};
use quire_sdk::{Asset, Kind};
use serde_json::Map;

use super::body::{self, Readable, Source, Upload};
use super::error::ApiError;

/// Parts a caller may send besides the file, with the most characters each may hold.
pub(super) const TEXT_PARTS: &[(&str, usize)] = &[
    ("title", crate::documents::MAX_TITLE_CHARS),
    ("type", 256),
    ("mode", 64),
    ("unlock", 64),
    ("password", 1024),
];

/// Parts only PDF-kind sources read (import options and side pictures).
const PDF_ONLY_PARTS: &[&str] = &["mode", "unlock", "password", "images"];

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

/// What the parts of a create or replace ask to import.
pub async fn parse_upload(
    kind: Kind,
    takes_fields: bool,
    readable: &Readable,
    headers: &HeaderMap,
    body: Vec<u8>,
    query: &HashMap<String, String>,
) -> Result<Upload, ApiError> {
    let mut options = body::request_options(headers, query)?;
    let sources = body::named_sources(kind);
    let mut texts: HashMap<&str, String> = HashMap::new();
    let mut file: Option<Part> = None;
    let mut images = Vec::new();
    let mut extra = Map::new();
    for part in parts(headers, body).await? {
        let name = part.name.as_str();
        let read_here = |n: &str| kind == Kind::Pdf || !PDF_ONLY_PARTS.contains(&n);
        if let Some((known, max)) = TEXT_PARTS.iter().find(|(n, _)| *n == name && read_here(n)) {
            texts.insert(known, text(&part, *max)?);
        } else if let Some((member, max)) = body::VALUE_MEMBERS
            .iter()
            .find(|(n, _)| takes_fields && *n == name)
        {
            if part.bytes.len() > *max {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "the `{member}` part is {} bytes of JSON; at most {max} are read",
                        part.bytes.len()
                    ),
                )
                .with("limit", *max as u64));
            }
            extra.insert(
                member.to_string(),
                body::bounded_value(&part.bytes, &format!("the `{member}` part"))?,
            );
        } else if name == "images" && read_here(name) {
            let Some(image_name) = part.file_name.clone().filter(|n| !n.is_empty()) else {
                return Err(ApiError::bad_request(
                    "an `images` part needs a file name: the name the Markdown or HTML refers to",
                ));
            };
            let media_type = body::sniff_image(&part.bytes)
                .unwrap_or("application/octet-stream")
                .to_string();
            images.push(Asset {
                name: image_name,
                media_type,
                bytes: part.bytes.to_vec(),
            });
        } else if name == body::FILE_SOURCE
            || name == "model"
            || sources.iter().any(|s| s.name == name)
        {
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
                takes(kind, takes_fields)
            )));
        }
    }
    let Some(file) = file else {
        return Err(ApiError::bad_request(format!(
            "no file part was sent; {}",
            takes(kind, takes_fields)
        )));
    };
    for opt in ["mode", "unlock", "password"] {
        if let Some(v) = texts.remove(opt) {
            options.retain(|(k, _)| k != opt);
            options.push((opt.to_string(), v));
        }
    }
    let title = body::checked_title(
        texts
            .remove("title")
            .or_else(|| query.get("title").cloned()),
    )?;
    let source = if file.name == "model" {
        let text = String::from_utf8(file.bytes.to_vec())
            .map_err(|_| ApiError::bad_request("the `model` part must be UTF-8 JSON"))?;
        body::model_source(&text)?
    } else {
        let media_type = media_type(&file, texts.remove("type"), kind, readable)?;
        if file.bytes.is_empty() {
            return Err(ApiError::bad_request(format!(
                "the `{}` part is empty",
                file.name
            )));
        }
        Source::File {
            bytes: file.bytes.to_vec(),
            media_type,
        }
    };
    Ok(Upload {
        source,
        title,
        images,
        options,
        extra,
        file_name: file.file_name.clone(),
    })
}

/// The file's format: a `type` part, else the part's own Content-Type, else what its name
/// (`markdown`, `pdf`, ...) or its file name's extension says, else its first bytes.
fn media_type(
    file: &Part,
    given: Option<String>,
    kind: Kind,
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
    let by_source_name = body::named_sources(kind)
        .iter()
        .find(|s| s.name == file.name && s.media_type != "image/*")
        .and_then(|s| readable.resolve(s.media_type));
    let by_file_name = file
        .file_name
        .as_deref()
        .and_then(|n| readable.by_file_name(n, &file.bytes));
    let by_content = body::sniff_image(&file.bytes)
        .or_else(|| {
            file.bytes
                .starts_with(b"%PDF-")
                .then_some("application/pdf")
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

fn takes(kind: Kind, takes_fields: bool) -> String {
    let sources: Vec<&str> = body::named_sources(kind).iter().map(|s| s.name).collect();
    format!(
        "multipart/form-data takes one file part (`file`, `model` or {}){}, and the text parts title, type{}{}",
        sources.join(", "),
        if kind == Kind::Pdf { ", `images` parts named by their file names" } else { "" },
        if kind == Kind::Pdf { ", mode, unlock, password" } else { "" },
        if takes_fields { ", fields, detect" } else { "" }
    )
}
