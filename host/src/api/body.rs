//! Reading request bodies within the plan's file limit, and turning a create/replace body
//! (JSON with one source field, or raw bytes with their Content-Type) into an import.

use std::time::Duration;

use axum::body::{Body, BodyDataStream};
use axum::http::{header, HeaderMap, StatusCode};
use base64::Engine as _;
use futures_util::StreamExt;
use http_body_util::BodyExt;
use std::collections::BTreeMap;

use crate::file_kinds;
use quire_sdk::{validate, Asset, Document, Kind};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::error::ApiError;
use crate::app::App;
use crate::memory::{self, BudgetError, Reservation};

/// Reads at most `limit` bytes. A Content-Length over the limit is refused before reading
/// anything; a body without one is refused as soon as the running count passes it. The
/// bytes count against the process's body memory for as long as the reservation lives.
pub async fn read_limited(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    limit: u64,
    plan: &str,
) -> Result<(Vec<u8>, Reservation), ApiError> {
    read_capped(app, headers, body, limit, 0, |size| {
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
/// that much of our bandwidth. A client that pauses longer than `QUIRE_BODY_IDLE_SECS`
/// between two pieces gets a 408, so a slow sender cannot hold a worker or memory.
pub async fn read_capped(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    limit: u64,
    drain: u64,
    too_large: impl Fn(u64) -> ApiError,
) -> Result<(Vec<u8>, Reservation), ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let idle = app.config.body_idle;
    let mut stream = body.into_data_stream();
    if let Some(len) = declared.filter(|len| *len > limit) {
        if len <= limit.saturating_add(drain) {
            while let Some(Ok(_)) = next_piece(&mut stream, idle).await? {}
        }
        return Err(too_large(len));
    }
    let mut held = app.bodies.none();
    if let Some(len) = declared {
        app.bodies
            .grow(&mut held, len, app.config.body_wait)
            .await
            .map_err(budget_refusal)?;
    }
    let mut out = Vec::with_capacity(declared.unwrap_or(0) as usize);
    let mut seen: u64 = 0;
    while let Some(chunk) = next_piece(&mut stream, idle).await? {
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
        if seen > held.bytes() {
            let want = seen.div_ceil(memory::STEP) * memory::STEP;
            app.bodies
                .grow(&mut held, want.min(limit), app.config.body_wait)
                .await
                .map_err(budget_refusal)?;
        }
        out.extend_from_slice(&chunk);
    }
    if seen > limit {
        return Err(too_large(seen));
    }
    Ok((out, held))
}

/// The body's next piece, or a 408 when the client paused longer than `idle`.
async fn next_piece(
    stream: &mut BodyDataStream,
    idle: Duration,
) -> Result<Option<Result<bytes::Bytes, axum::Error>>, ApiError> {
    tokio::time::timeout(idle, stream.next())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body paused for more than {} s; send it without stopping",
                    idle.as_secs()
                ),
            )
        })
}

fn budget_refusal(e: BudgetError) -> ApiError {
    match e {
        BudgetError::TooLarge { total, .. } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{e}; this server holds at most {total} bytes of request bodies (QUIRE_BODY_MEMORY_MB)"),
        )
        .with("limit", total),
        BudgetError::Busy => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is receiving as much as it holds at once; send this again shortly",
        )
        .header(header::RETRY_AFTER, "5"),
    }
}

/// The most JSON values a body parsed into a tree may hold. A tree costs tens of bytes per
/// value whatever the text's size, so `[0,0,0,...]` in a few megabytes would otherwise
/// take gigabytes; the contract's largest tree (500 fields with their options) is far below.
pub const MAX_JSON_VALUES: usize = 200_000;

/// An upper bound of the number of values in JSON text, counted without parsing: every
/// value after the first follows a comma or opens a container.
pub fn json_values_at_most(text: &[u8]) -> usize {
    let (mut count, mut in_string, mut escaped) = (1usize, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b'[' | b'{' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// Parses JSON text into a tree of values, refusing text with more than
/// [`MAX_JSON_VALUES`] values before building any of it.
pub fn bounded_value(text: &[u8], what: &str) -> Result<Value, ApiError> {
    if json_values_at_most(text) > MAX_JSON_VALUES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{what} holds more than {MAX_JSON_VALUES} JSON values"),
        )
        .with("limit", MAX_JSON_VALUES as u64));
    }
    serde_json::from_slice(text)
        .map_err(|e| ApiError::bad_request(format!("{what} is not valid JSON: {e}")))
}

/// Drains a body we do not need (keeps the connection usable).
pub async fn discard(body: Body) {
    let _ = body.collect().await;
}

/// What a create/replace body asks to import.
pub enum Source {
    /// Bytes for a converter.
    File { bytes: Vec<u8>, media_type: String },
    /// A document model given directly, read but not yet checked.
    Model(Box<Document>),
}

pub struct Upload {
    pub source: Source,
    pub title: Option<String>,
    pub images: Vec<Asset>,
    pub options: Vec<(String, String)>,
    /// The JSON body's other members (e.g. a form's `fields` and `detect`).
    pub extra: Map<String, Value>,
    /// The name the file was sent under (a multipart file part's), the title of last resort.
    pub file_name: Option<String>,
}

/// A source field the contract names (`{"markdown": "..."}`): the media type it stands for
/// and whether its text is base64. Which of them work depends on the active importers,
/// like everything else an endpoint reads; the names are the contract's.
pub(super) struct NamedSource {
    pub name: &'static str,
    pub base64: bool,
    pub media_type: &'static str,
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

pub(super) fn named_sources(kind: Kind) -> &'static [NamedSource] {
    match kind {
        Kind::Pdf => PDF_SOURCES,
        Kind::Diagram => DIAGRAM_SOURCES,
    }
}

/// The media types the active importers read, as an endpoint offers them, and the file
/// name extensions they declare (for uploads named by their file name only).
pub struct Readable {
    pub types: Vec<String>,
    /// (extension without the dot, media type), e.g. ("md", "text/markdown").
    pub extensions: Vec<(String, String)>,
}

impl Readable {
    /// The media type a file name stands for: an importer's own extension, or a common
    /// other spelling of one (`.jpeg`, `.markdown`, `.htm`); for `.xml`, the format its
    /// root element names (draw.io or SVG).
    pub fn by_file_name(&self, file_name: &str, bytes: &[u8]) -> Option<String> {
        let (_, ext) = file_name.rsplit_once('.')?;
        if file_kinds::is_generic_xml(ext) {
            return file_kinds::sniff_xml(bytes).and_then(|t| self.resolve(t));
        }
        let ext = file_kinds::canonical_extension(ext);
        self.extensions
            .iter()
            .find(|(e, _)| *e == ext)
            .map(|(_, media_type)| media_type.clone())
    }

    /// [`Readable::resolve`], reading the root element of a body declared only as XML.
    pub fn resolve_content(&self, given: &str, bytes: &[u8]) -> Option<String> {
        if file_kinds::is_generic_xml(given) {
            return file_kinds::sniff_xml(bytes).and_then(|t| self.resolve(t));
        }
        self.resolve(given)
    }

    /// The media type the importer is asked for when a client says `given`: an exact match,
    /// else the registered spelling of an experimental one (`text/x-markdown` is read as
    /// `text/markdown`, `image/jpg` as `image/jpeg`) when only that is served.
    pub fn resolve(&self, given: &str) -> Option<String> {
        let given = given.trim().to_ascii_lowercase();
        if self.types.contains(&given) {
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
            .find(|c| self.types.contains(c))
    }

    pub fn list(&self) -> String {
        if self.types.is_empty() {
            "none (no importer is active)".into()
        } else {
            self.types.join(", ")
        }
    }

    pub fn unsupported(&self, what: String) -> ApiError {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "{what}; readable kinds are application/json (with a source field) and {}",
                self.list()
            ),
        )
        .with("readable", self.types.clone())
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

/// What the OpenAPI document says a base64 member holds: groups of four, padding optional.
/// [`decode_base64`] takes every such text (and also whitespace and `data:` URLs).
pub const BASE64_PATTERN: &str =
    "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$";

pub(super) fn decode_base64(field: &str, s: &str) -> Result<Vec<u8>, ApiError> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    // Padding optional and unused low bits ignored, as most encoders' readers do.
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let cleaned: String = s.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let cleaned = match cleaned.split_once(";base64,") {
        Some((prefix, data)) if prefix.starts_with("data:") => data.to_string(),
        _ => cleaned,
    };
    LENIENT.decode(cleaned.as_bytes()).map_err(|e| {
        ApiError::bad_request(format!("`{field}` must be base64: {e}")).with("field", field)
    })
}

/// A JSON body's top-level members, each still unparsed text: a member is parsed only
/// when it is one the endpoint reads, into the type it should have, so a huge array where a
/// string belongs costs a glance at its first byte, not a tree of values.
type Members<'a> = BTreeMap<String, &'a RawValue>;

/// The largest `model` member: a model is the document's text and geometry (pictures are
/// assets, not in it), so even a 10,000-page import stays well under this.
pub const MAX_MODEL_JSON: usize = 64 << 20;
/// The largest `fields` member (the contract's 500 fields, with room for long options).
const MAX_FIELDS_JSON: usize = 4 << 20;

fn first_byte(raw: &RawValue) -> u8 {
    raw.get().bytes().next().unwrap_or(b'n')
}

fn member_is_null(raw: Option<&&RawValue>) -> bool {
    raw.is_none_or(|r| r.get() == "null")
}

/// A title the caller gives is refused past the limit; one taken from the file is cut to
/// it instead (see [`crate::documents::MAX_TITLE_CHARS`]).
pub(super) fn checked_title(title: Option<String>) -> Result<Option<String>, ApiError> {
    use crate::documents::MAX_TITLE_CHARS;
    match title {
        Some(t) if t.chars().count() > MAX_TITLE_CHARS => Err(ApiError::bad_request(format!(
            "`title` is {} characters long; a title has at most {MAX_TITLE_CHARS}",
            t.chars().count()
        ))),
        other => Ok(other),
    }
}

/// A string member, or null for none. Nothing else is taken for text: the OpenAPI document
/// says string, and a number where a title belongs is a client's mistake worth telling.
fn string_member(members: &Members, name: &str) -> Result<Option<String>, ApiError> {
    let Some(raw) = members.get(name) else {
        return Ok(None);
    };
    let wrong = || ApiError::bad_request(format!("`{name}` must be a string")).with("field", name);
    match first_byte(raw) {
        b'n' => Ok(None),
        b'"' => serde_json::from_str::<String>(raw.get())
            .map(Some)
            .map_err(|_| wrong()),
        _ => Err(wrong()),
    }
}

/// The members a create or replace body may have: the sources of its kind, the generic
/// ones, the import options of PDF-kind sources, and a form's fields.
pub(super) fn members_read(kind: Kind, takes_fields: bool) -> Vec<&'static str> {
    let mut known: Vec<&str> = named_sources(kind).iter().map(|f| f.name).collect();
    known.extend(["model", FILE_SOURCE, "type", "title"]);
    if kind == Kind::Pdf {
        known.extend(["mode", "unlock", "password", "images"]);
    }
    if takes_fields {
        known.extend(VALUE_MEMBERS.iter().map(|(name, _)| *name));
    }
    known
}

/// A member the endpoint keeps as a JSON value (a form's `fields` and `detect`), parsed
/// only up to `max` bytes of text.
fn value_member(members: &Members, name: &str, max: usize) -> Result<Option<Value>, ApiError> {
    let Some(raw) = members.get(name) else {
        return Ok(None);
    };
    if raw.get().len() > max {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "`{name}` is {} bytes of JSON; at most {max} are read",
                raw.get().len()
            ),
        )
        .with("limit", max as u64));
    }
    bounded_value(raw.get().as_bytes(), &format!("`{name}`")).map(Some)
}

/// The members a form's create or replace reads besides the source; kept as values.
pub(super) const VALUE_MEMBERS: &[(&str, usize)] = &[("fields", MAX_FIELDS_JSON), ("detect", 16)];

/// The values the contract gives the import options; anything else is refused here, the
/// same for every source, before an importer sees it.
pub const OPTION_VALUES: &[(&str, &[&str])] = &[
    ("mode", &["image", "editable"]),
    ("unlock", &["1", "0", "true", "false", "decrypt", "rebuild"]),
];

/// Checks the import options a request gives against [`OPTION_VALUES`].
pub fn check_options(options: &[(String, String)]) -> Result<(), ApiError> {
    for (name, value) in options {
        if let Some((_, allowed)) = OPTION_VALUES.iter().find(|(n, _)| n == name) {
            if !allowed.contains(&value.as_str()) {
                return Err(ApiError::bad_request(format!(
                    "`{name}` is one of {}, not `{value}`",
                    allowed.join(", ")
                ))
                .with("field", name.as_str()));
            }
        }
    }
    Ok(())
}

/// The request's Content-Type without parameters, lower case ("" when there is none).
pub fn media_type_of(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default()
}

/// Import options given outside the body: `?unlock=` and the `X-Doc-Password` header. A
/// password in the query string is refused: URLs end up in logs.
pub fn request_options(
    headers: &HeaderMap,
    query: &std::collections::HashMap<String, String>,
) -> Result<Vec<(String, String)>, ApiError> {
    if query.contains_key("password") {
        return Err(ApiError::bad_request(
            "a password in the query string is refused (URLs are logged); send it in the X-Doc-Password header or the `password` field",
        ));
    }
    // Checked even where the body's own member wins: a bad query is refused, not ignored.
    checked_title(query.get("title").cloned())?;
    let from_query: Vec<(String, String)> = ["mode", "unlock"]
        .iter()
        .filter_map(|name| query.get(*name).map(|v| (name.to_string(), v.clone())))
        .collect();
    check_options(&from_query)?;
    let mut options: Vec<(String, String)> = Vec::new();
    if let Some(u) = query.get("unlock") {
        options.push(("unlock".into(), u.clone()));
    }
    if let Some(p) = headers.get("x-doc-password").and_then(|v| v.to_str().ok()) {
        options.push(("password".into(), p.to_string()));
    }
    Ok(options)
}

/// Reads a JSON or raw create/replace body. `query_title`/`query_unlock` come from the URL;
/// `readable` is what the active importers read right now.
pub fn parse_upload(
    kind: Kind,
    takes_fields: bool,
    readable: &Readable,
    headers: &HeaderMap,
    body: Vec<u8>,
    query: &std::collections::HashMap<String, String>,
) -> Result<Upload, ApiError> {
    let mut options = request_options(headers, query)?;
    let content_type = media_type_of(headers);
    if content_type == "application/json" || content_type.ends_with("+json") {
        return parse_json_upload(kind, takes_fields, readable, &body, query, options);
    }
    if content_type.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the request has no Content-Type; {}",
            takes(kind, readable)
        )));
    }
    let Some(media_type) = readable.resolve_content(&content_type, &body) else {
        return Err(readable.unsupported(format!("{content_type} cannot be read")));
    };
    // An empty body is an empty file of that type: its importer judges it (an empty
    // Markdown text is an empty document, an empty PDF is damaged).
    if let Some(m) = query.get("mode") {
        options.push(("mode".into(), m.clone()));
    }
    Ok(Upload {
        source: Source::File {
            bytes: body,
            media_type,
        },
        title: checked_title(query.get("title").cloned())?,
        images: Vec::new(),
        options,
        extra: Map::new(),
        file_name: None,
    })
}

fn parse_json_upload(
    kind: Kind,
    takes_fields: bool,
    readable: &Readable,
    body: &[u8],
    query: &std::collections::HashMap<String, String>,
    mut options: Vec<(String, String)>,
) -> Result<Upload, ApiError> {
    let takes = || takes(kind, readable);
    let opens_object = body
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{');
    if !opens_object {
        return Err(ApiError::bad_request(format!(
            "the body must be a JSON object; {}",
            takes()
        )));
    }
    let members: Members = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!("the body is not valid JSON ({e}); {}", takes()))
    })?;
    let present: Vec<&str> = named_sources(kind)
        .iter()
        .map(|f| f.name)
        .chain(["model", FILE_SOURCE])
        .filter(|n| !member_is_null(members.get(*n)))
        .collect();
    let other_kind = match kind {
        Kind::Pdf => DIAGRAM_SOURCES,
        Kind::Diagram => PDF_SOURCES,
    };
    if present.is_empty() {
        if let Some(f) = other_kind.iter().find(|f| members.contains_key(f.name)) {
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
    let known = members_read(kind, takes_fields);
    if let Some(unknown) = members.keys().find(|m| !known.contains(&m.as_str())) {
        return Err(ApiError::bad_request(format!(
            "`{unknown}` is not a member this endpoint reads; {}",
            takes()
        ))
        .with("field", unknown.as_str()));
    }
    let given_type = string_member(&members, "type")?;
    let title = checked_title(match string_member(&members, "title")? {
        Some(t) => Some(t),
        None => query.get("title").cloned(),
    })?;
    for opt in ["mode", "unlock", "password"] {
        if let Some(v) = string_member(&members, opt)? {
            options.retain(|(k, _)| k != opt);
            options.push((opt.to_string(), v));
        }
    }
    let images = match members.get("images") {
        Some(raw) if raw.get() != "null" => images_member(raw)?,
        _ => Vec::new(),
    };
    let mut extra = Map::new();
    for (member, max) in VALUE_MEMBERS.iter().filter(|_| takes_fields) {
        if let Some(v) = value_member(&members, member, *max)? {
            extra.insert(member.to_string(), v);
        }
    }
    let raw = members[name];
    let source = if name == "model" {
        if first_byte(raw) != b'{' {
            return Err(ApiError::bad_request(
                "`model` must be a JSON object (the document model)",
            ));
        }
        model_source(raw.get())?
    } else if name == FILE_SOURCE {
        let text = string_member(&members, FILE_SOURCE)?
            .filter(|_| first_byte(raw) == b'"')
            .ok_or_else(|| {
                ApiError::bad_request(format!("`file` must be a base64 string; {}", takes()))
            })?;
        let given = given_type.filter(|t| !t.trim().is_empty()).ok_or_else(|| {
            ApiError::bad_request("`file` needs `type`, the file's media type (e.g. \"text/csv\")")
        })?;
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
        let text = match first_byte(raw) {
            b'"' => string_member(&members, name)?,
            _ => None,
        };
        let Some(text) = text else {
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
            let images = Readable {
                types: readable
                    .types
                    .iter()
                    .filter(|t| t.starts_with("image/"))
                    .cloned()
                    .collect(),
                extensions: Vec::new(),
            };
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
                    .with("readable", images.types.clone())
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
        extra,
        file_name: None,
    })
}

/// A `model` source (a JSON member or a multipart part): within [`MAX_MODEL_JSON`], read
/// into a document, not yet checked against its assets.
pub(super) fn model_source(text: &str) -> Result<Source, ApiError> {
    Ok(Source::Model(Box::new(read_model(
        text.as_bytes(),
        "`model`",
    )?)))
}

/// The one reader of a model sent as JSON text, for the API's `model` source and the
/// editor's drafts alike: at most [`MAX_MODEL_JSON`] bytes, read straight into a document
/// (no tree of values in between), not yet checked against its assets.
pub fn read_model(text: &[u8], what: &str) -> Result<Document, ApiError> {
    if text.len() > MAX_MODEL_JSON {
        return Err(model_too_large(what, text.len() as u64));
    }
    let text = std::str::from_utf8(text)
        .map_err(|e| ApiError::bad_request(format!("{what} is not UTF-8 text: {e}")))?;
    validate::parse(text).map_err(invalid_model)
}

/// The refusal of a model that parsed but breaks the model's rules (422).
pub fn invalid_model(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!("the model is not valid: {e}"),
    )
}

/// The refusal of a model over [`MAX_MODEL_JSON`] (`size` bytes or more).
pub fn model_too_large(what: &str, size: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "{what} is {size} bytes of JSON or more; a model may be at most {MAX_MODEL_JSON} (pictures travel as assets, not in it)"
        ),
    )
    .with("limit", MAX_MODEL_JSON as u64)
}

/// `images`: an object mapping image names (as the Markdown or HTML refers to them) to
/// base64 pictures.
fn images_member(raw: &RawValue) -> Result<Vec<Asset>, ApiError> {
    let shape = || {
        ApiError::bad_request("`images` must be an object mapping image names to base64 strings")
    };
    if first_byte(raw) != b'{' {
        return Err(shape());
    }
    let map: BTreeMap<String, &RawValue> = serde_json::from_str(raw.get()).map_err(|_| shape())?;
    let mut images = Vec::with_capacity(map.len());
    for (img_name, data) in map {
        let field = format!("images.{img_name}");
        if first_byte(data) != b'"' {
            return Err(ApiError::bad_request(format!(
                "{field} must be a base64 string"
            )));
        }
        let text: String = serde_json::from_str(data.get())
            .map_err(|_| ApiError::bad_request(format!("{field} must be a base64 string")))?;
        let bytes = decode_base64(&field, &text)?;
        let media_type = sniff_image(&bytes)
            .unwrap_or("application/octet-stream")
            .to_string();
        images.push(Asset {
            name: img_name,
            media_type,
            bytes,
        });
    }
    Ok(images)
}
