//! The body of a create or replace as a type. A JSON body is read straight into
//! [`SourceBody`] by serde (no tree of values: a huge array where a string belongs is
//! refused at its first byte), a multipart body's parts are mapped onto the same type
//! (`multipart`), and the OpenAPI document derives each endpoint's schema from it, so what
//! a client is told and what the server reads cannot drift apart. [`SourceBody::into_upload`]
//! then holds the rules serde cannot (exactly one source, `file` with its `type`, the
//! members of the endpoint's kind) and resolves sources against the active importers.

use std::collections::BTreeMap;

use axum::http::{HeaderMap, StatusCode};
use quire_sdk::image_probe::picture_media_type;
use quire_sdk::{Asset, Document, Kind};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::body::{media_type_of, opens_object, read_model};
use super::error::ApiError;
use super::formats::Readable;
use super::queries::Flag;
use crate::documents::MAX_TITLE_CHARS;
use crate::forms::fields::{PlacedField, MAX_FIELDS};

/// The longest media type a `type` member or part may give.
pub const MAX_TYPE_CHARS: usize = 256;
/// The longest PDF password taken.
pub const MAX_PASSWORD_CHARS: usize = 1024;

/// Which create or replace an endpoint is: the kind of document its sources make, and
/// whether it is a form's (which reads `fields` and `detect` too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    pub kind: Kind,
    pub form: bool,
}

pub const PDFS: Endpoint = Endpoint {
    kind: Kind::Paged,
    form: false,
};
pub const DIAGRAMS: Endpoint = Endpoint {
    kind: Kind::Diagram,
    form: false,
};
pub const FORMS: Endpoint = Endpoint {
    kind: Kind::Paged,
    form: true,
};

/// A source member the contract names (`{"markdown": "..."}`): the kind of endpoint that
/// reads it, the media type it stands for and how it is taken out of a body. Which of them
/// work depends on the active importers, like everything else an endpoint reads.
pub struct NamedSource {
    pub name: &'static str,
    pub kind: Kind,
    pub media_type: &'static str,
    take: fn(&mut SourceBody) -> Option<Vec<u8>>,
}

/// The media type of the `image` source: whichever picture kind its bytes are.
const ANY_IMAGE: &str = "image/*";

pub const NAMED_SOURCES: &[NamedSource] = &[
    NamedSource {
        name: "markdown",
        kind: Kind::Paged,
        media_type: "text/markdown",
        take: |b| b.markdown.take().map(String::into_bytes),
    },
    NamedSource {
        name: "html",
        kind: Kind::Paged,
        media_type: "text/html",
        take: |b| b.html.take().map(String::into_bytes),
    },
    NamedSource {
        name: "image",
        kind: Kind::Paged,
        media_type: ANY_IMAGE,
        take: |b| b.image.take().map(|d| d.0),
    },
    NamedSource {
        name: "pdf",
        kind: Kind::Paged,
        media_type: "application/pdf",
        take: |b| b.pdf.take().map(|d| d.0),
    },
    NamedSource {
        name: "mermaid",
        kind: Kind::Diagram,
        media_type: "text/vnd.mermaid",
        take: |b| b.mermaid.take().map(String::into_bytes),
    },
    NamedSource {
        name: "svg",
        kind: Kind::Diagram,
        media_type: "image/svg+xml",
        take: |b| b.svg.take().map(String::into_bytes),
    },
    NamedSource {
        name: "drawio",
        kind: Kind::Diagram,
        media_type: "application/vnd.jgraph.mxfile",
        take: |b| b.drawio.take().map(String::into_bytes),
    },
    NamedSource {
        name: "vsdx",
        kind: Kind::Diagram,
        media_type: "application/vnd.ms-visio.drawing",
        take: |b| b.vsdx.take().map(|d| d.0),
    },
];

/// The generic source for formats the contract does not name:
/// `{"file": "<base64>", "type": "<media type>"}`.
pub const FILE_SOURCE: &str = "file";
/// The document model given directly.
pub const MODEL_SOURCE: &str = "model";

/// Members only PDF-kind endpoints read: import options and side pictures.
const PDF_MEMBERS: &[&str] = &["mode", "unlock", "password", "images"];
/// Members only a form's endpoints read.
const FORM_MEMBERS: &[&str] = &["fields", "detect"];

impl Endpoint {
    /// The named sources of this endpoint's kind.
    pub fn named_sources(self) -> impl Iterator<Item = &'static NamedSource> {
        NAMED_SOURCES.iter().filter(move |s| s.kind == self.kind)
    }

    /// Every source member: the named ones, the model and the generic file.
    pub fn sources(self) -> Vec<&'static str> {
        let mut out: Vec<&str> = self.named_sources().map(|s| s.name).collect();
        out.extend([MODEL_SOURCE, FILE_SOURCE]);
        out
    }

    /// Every member a body sent here may have.
    pub fn members(self) -> Vec<&'static str> {
        let mut out = self.sources();
        out.extend(["type", "title"]);
        if self.kind == Kind::Paged {
            out.extend(PDF_MEMBERS);
        }
        if self.form {
            out.extend(FORM_MEMBERS);
        }
        out
    }

    /// The sentence a 400 uses to say what the endpoint takes.
    pub fn takes(self, readable: &Readable) -> String {
        format!(
            "this endpoint takes a JSON object with exactly one source field ({}; `file` is base64 with its media type in `type`), plus optional title{}{}; or the file itself as the body with its Content-Type ({}) and ?title=",
            self.sources().join(", "),
            if self.kind == Kind::Paged { ", images, mode, unlock, password" } else { "" },
            if self.form { ", fields, detect" } else { "" },
            readable.list()
        )
    }
}

/// Bytes sent as base64 text: padding optional, whitespace and a `data:` URL prefix
/// allowed, as most encoders' readers take them.
#[derive(Debug, Clone, Default)]
pub struct Base64(pub Vec<u8>);

/// What the OpenAPI document says a base64 member holds: groups of four, padding optional.
pub const BASE64_PATTERN: &str =
    "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$";

impl Base64 {
    pub fn decode(text: &str) -> Result<Base64, base64::DecodeError> {
        use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
        use base64::Engine as _;
        const LENIENT: GeneralPurpose = GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            GeneralPurposeConfig::new()
                .with_decode_allow_trailing_bits(true)
                .with_decode_padding_mode(DecodePaddingMode::Indifferent),
        );
        let cleaned: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let data = match cleaned.split_once(";base64,") {
            Some((prefix, data)) if prefix.starts_with("data:") => data,
            _ => &cleaned,
        };
        LENIENT.decode(data.as_bytes()).map(Base64)
    }
}

impl<'de> Deserialize<'de> for Base64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = Base64;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a base64 string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Base64, E> {
                Base64::decode(v).map_err(|e| E::custom(format!("must be base64: {e}")))
            }
        }
        d.deserialize_str(Text)
    }
}

impl JsonSchema for Base64 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Base64".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "string", "pattern": BASE64_PATTERN, "contentEncoding": "base64"})
    }
}

/// The document model as its JSON text, read into a [`Document`] only after the body is
/// known to be one this endpoint takes (see [`read_model`] for its bounds).
pub struct ModelJson(pub Box<RawValue>);

impl<'de> Deserialize<'de> for ModelJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(d).map(ModelJson)
    }
}

impl JsonSchema for ModelJson {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Model".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "object", "description": "the document model; its JSON Schema is /api/v1/model.schema.json"})
    }
}

/// A list of at most `N` items, refused while it is read past that (not after a million
/// items were built).
#[derive(Debug)]
pub struct AtMost<const N: usize, T>(pub Vec<T>);

impl<'de, const N: usize, T: Deserialize<'de>> Deserialize<'de> for AtMost<N, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items<const N: usize, T>(std::marker::PhantomData<T>);
        impl<'de, const N: usize, T: Deserialize<'de>> Visitor<'de> for Items<N, T> {
            type Value = AtMost<N, T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a list of at most {N} items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    if items.len() == N {
                        return Err(de::Error::custom(format!("has more than {N} items")));
                    }
                    items.push(item);
                }
                Ok(AtMost(items))
            }
        }
        d.deserialize_seq(Items::<N, T>(std::marker::PhantomData))
    }
}

impl<const N: usize, T: JsonSchema> JsonSchema for AtMost<N, T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("AtMost{N}_{}", T::schema_name()).into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "array", "maxItems": N, "items": generator.subschema_for::<T>()})
    }
}

/// Text of at most `MAX` characters, refused while it is read past that: a title, a media
/// type, a password. (A title taken from the file is cut to its limit instead, see
/// [`MAX_TITLE_CHARS`].)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Short<const MAX: usize>(pub String);

impl<const MAX: usize> Short<MAX> {
    pub fn new(text: String) -> Result<Self, String> {
        let length = text.chars().count();
        if length > MAX {
            return Err(format!(
                "is {length} characters long; at most {MAX} are taken"
            ));
        }
        Ok(Short(text))
    }
}

impl<'de, const MAX: usize> Deserialize<'de> for Short<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Short::new(String::deserialize(d)?).map_err(de::Error::custom)
    }
}

impl<const MAX: usize> JsonSchema for Short<MAX> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Short{MAX}").into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "string", "maxLength": MAX})
    }
}

/// How a PDF source is imported: `image` keeps each page as a picture, `editable` (the
/// default) makes its text and drawings editable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImportMode {
    Image,
    Editable,
}

impl ImportMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ImportMode::Image => "image",
            ImportMode::Editable => "editable",
        }
    }
}

/// What to do with a locked PDF: `1`/`true` removes the lock where it can, `decrypt`
/// insists on keeping the document intact, `rebuild` redraws it; `0`/`false` leaves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum Unlock {
    #[serde(rename = "1")]
    One,
    #[serde(rename = "0")]
    Zero,
    #[serde(rename = "true")]
    True,
    #[serde(rename = "false")]
    False,
    #[serde(rename = "decrypt")]
    Decrypt,
    #[serde(rename = "rebuild")]
    Rebuild,
}

impl Unlock {
    pub fn as_str(self) -> &'static str {
        match self {
            Unlock::One => "1",
            Unlock::Zero => "0",
            Unlock::True => "true",
            Unlock::False => "false",
            Unlock::Decrypt => "decrypt",
            Unlock::Rebuild => "rebuild",
        }
    }
}

/// A create's or replace's JSON body: exactly one source member, plus what goes with it.
/// Every member any such endpoint reads is here; an endpoint reads those of its kind
/// ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
#[derive(Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceBody {
    /// Markdown text.
    pub markdown: Option<String>,
    /// HTML text.
    pub html: Option<String>,
    /// A picture, base64, of a kind an importer reads.
    pub image: Option<Base64>,
    /// A PDF file, base64.
    pub pdf: Option<Base64>,
    /// mermaid text.
    pub mermaid: Option<String>,
    /// An SVG picture's text.
    pub svg: Option<String>,
    /// A draw.io file's XML.
    pub drawio: Option<String>,
    /// A Visio file, base64.
    pub vsdx: Option<Base64>,
    pub model: Option<ModelJson>,
    /// Any readable file, base64, with its media type in `type`.
    pub file: Option<Base64>,
    /// The media type of `file` (e.g. "text/csv").
    #[serde(rename = "type")]
    pub media_type: Option<Short<MAX_TYPE_CHARS>>,
    /// The document's title (else the file's own, else the name it was sent under).
    pub title: Option<Short<MAX_TITLE_CHARS>>,
    pub mode: Option<ImportMode>,
    pub unlock: Option<Unlock>,
    /// The password of a PDF that needs one.
    pub password: Option<Short<MAX_PASSWORD_CHARS>>,
    /// Pictures the Markdown or HTML names, base64 by name.
    pub images: Option<BTreeMap<String, Base64>>,
    /// A form's boxes to place.
    pub fields: Option<AtMost<MAX_FIELDS, PlacedField>>,
    /// A form: add the fields found on the pages.
    pub detect: Option<bool>,
}

/// The query string of a create or replace. Parameters it does not name are ignored.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SourceQuery {
    /// The document's title (a body's own title wins).
    pub title: Option<Short<MAX_TITLE_CHARS>>,
    /// For a PDF source: `image` keeps each page as a picture.
    pub mode: Option<ImportMode>,
    /// For a locked PDF: `1` removes the lock where it can, `decrypt` insists on keeping
    /// the document intact, `rebuild` redraws it.
    pub unlock: Option<Unlock>,
    /// Refused: URLs end up in logs (see [`SourceQuery::options`]).
    #[schemars(skip)]
    pub password: Option<de::IgnoredAny>,
}

/// The query string of a form's create or replace.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct FormSourceQuery {
    #[serde(flatten)]
    pub source: SourceQuery,
    /// Add the fields found on the pages.
    pub detect: Option<Flag>,
}

impl SourceQuery {
    /// The import options given outside the body: `?mode=`, `?unlock=` and the
    /// `X-Doc-Password` header. A password in the query string is refused.
    fn options(&self, headers: &HeaderMap) -> Result<ImportOptions, ApiError> {
        if self.password.is_some() {
            return Err(ApiError::bad_request(
                "a password in the query string is refused (URLs are logged); send it in the X-Doc-Password header or the `password` field",
            ));
        }
        let password = headers
            .get("x-doc-password")
            .and_then(|v| v.to_str().ok())
            .map(|p| Short::new(p.to_string()))
            .transpose()
            .map_err(|e| {
                ApiError::bad_request(format!("X-Doc-Password {e}")).with("field", "X-Doc-Password")
            })?;
        Ok(ImportOptions {
            mode: self.mode,
            unlock: self.unlock,
            password,
        })
    }
}

/// The import options of one upload, each from the body, else the query or header.
#[derive(Default)]
struct ImportOptions {
    mode: Option<ImportMode>,
    unlock: Option<Unlock>,
    password: Option<Short<MAX_PASSWORD_CHARS>>,
}

impl ImportOptions {
    /// As the importers take them.
    fn pairs(self) -> Vec<(String, String)> {
        [
            ("mode", self.mode.map(|m| m.as_str().to_string())),
            ("unlock", self.unlock.map(|u| u.as_str().to_string())),
            ("password", self.password.map(|p| p.0)),
        ]
        .into_iter()
        .filter_map(|(name, value)| Some((name.to_string(), value?)))
        .collect()
    }
}

/// What a create/replace body asks to import.
pub enum Source {
    /// Bytes for a converter.
    File { bytes: Vec<u8>, media_type: String },
    /// A document model given directly, read but not yet checked.
    Model(Box<Document>),
}

/// A create or replace body, understood.
pub struct Upload {
    pub source: Source,
    pub title: Option<String>,
    pub images: Vec<Asset>,
    pub options: Vec<(String, String)>,
    /// A form's boxes to place, not yet checked against the document.
    pub fields: Option<Vec<PlacedField>>,
    /// A form's `detect`, from the body.
    pub detect: Option<bool>,
    /// The name the file was sent under (a multipart file part's), the title of last resort.
    pub file_name: Option<String>,
}

/// Reads a create/replace body that is JSON or a file sent as itself (multipart is
/// `multipart::parse_upload`'s).
pub fn parse_upload(
    endpoint: Endpoint,
    readable: &Readable,
    headers: &HeaderMap,
    body: Vec<u8>,
    query: &SourceQuery,
) -> Result<Upload, ApiError> {
    let content_type = media_type_of(headers);
    if content_type == "application/json" || content_type.ends_with("+json") {
        let source = SourceBody::from_json(&body, endpoint, readable)?;
        drop(body);
        return source.into_upload(endpoint, readable, query, headers, None);
    }
    let options = query.options(headers)?;
    if content_type.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the request has no Content-Type; {}",
            endpoint.takes(readable)
        )));
    }
    let Some(media_type) = readable.resolve_content(&content_type, &body) else {
        return Err(readable.unsupported(format!("{content_type} cannot be read")));
    };
    // An empty body is an empty file of that type: its importer judges it (an empty
    // Markdown text is an empty document, an empty PDF is damaged).
    Ok(Upload {
        source: Source::File {
            bytes: body,
            media_type,
        },
        title: query.title.clone().map(|t| t.0),
        images: Vec::new(),
        options: options.pairs(),
        fields: None,
        detect: None,
        file_name: None,
    })
}

impl SourceBody {
    /// Reads a JSON body. A refusal names the member at fault (`field`).
    pub fn from_json(
        bytes: &[u8],
        endpoint: Endpoint,
        readable: &Readable,
    ) -> Result<SourceBody, ApiError> {
        let takes = || endpoint.takes(readable);
        if !opens_object(bytes) {
            return Err(ApiError::bad_request(format!(
                "the body must be a JSON object; {}",
                takes()
            )));
        }
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let body: SourceBody = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| refusal(crate::error::json_error_path(&e, ""), e.inner(), &takes()))?;
        de.end().map_err(|e| {
            ApiError::bad_request(format!("the body goes on after its JSON object ({e})"))
        })?;
        Ok(body)
    }

    /// The members given (not absent, not null).
    fn present(&self) -> Vec<&'static str> {
        let given = [
            ("markdown", self.markdown.is_some()),
            ("html", self.html.is_some()),
            ("image", self.image.is_some()),
            ("pdf", self.pdf.is_some()),
            ("mermaid", self.mermaid.is_some()),
            ("svg", self.svg.is_some()),
            ("drawio", self.drawio.is_some()),
            ("vsdx", self.vsdx.is_some()),
            (MODEL_SOURCE, self.model.is_some()),
            (FILE_SOURCE, self.file.is_some()),
            ("type", self.media_type.is_some()),
            ("title", self.title.is_some()),
            ("mode", self.mode.is_some()),
            ("unlock", self.unlock.is_some()),
            ("password", self.password.is_some()),
            ("images", self.images.is_some()),
            ("fields", self.fields.is_some()),
            ("detect", self.detect.is_some()),
        ];
        given
            .into_iter()
            .filter_map(|(name, present)| present.then_some(name))
            .collect()
    }

    /// The upload this body asks for at `endpoint`, with the query's and headers' options
    /// under the body's own.
    pub fn into_upload(
        mut self,
        endpoint: Endpoint,
        readable: &Readable,
        query: &SourceQuery,
        headers: &HeaderMap,
        file_name: Option<String>,
    ) -> Result<Upload, ApiError> {
        let takes = || endpoint.takes(readable);
        let present = self.present();
        let sources = endpoint.sources();
        let given: Vec<&str> = present
            .iter()
            .copied()
            .filter(|m| sources.contains(m))
            .collect();
        let source_name = match given[..] {
            [one] => one,
            [] => {
                let elsewhere = present
                    .iter()
                    .find(|m| NAMED_SOURCES.iter().any(|s| s.name == **m));
                return Err(match elsewhere {
                    Some(name) => ApiError::bad_request(format!(
                        "`{name}` is not a source of this endpoint; {}",
                        takes()
                    ))
                    .with("field", *name),
                    None => ApiError::bad_request(format!("no source field was sent; {}", takes())),
                });
            }
            _ => {
                return Err(ApiError::bad_request(format!(
                    "send exactly one source field, not {}; {}",
                    given.join(" and "),
                    takes()
                )))
            }
        };
        let members = endpoint.members();
        if let Some(unread) = present.iter().find(|m| !members.contains(m)) {
            return Err(ApiError::bad_request(format!(
                "`{unread}` is not a member this endpoint reads; {}",
                takes()
            ))
            .with("field", *unread));
        }
        let mut options = query.options(headers)?;
        options.mode = self.mode.or(options.mode);
        options.unlock = self.unlock.or(options.unlock);
        options.password = self.password.take().or(options.password);
        let title = self
            .title
            .take()
            .or_else(|| query.title.clone())
            .map(|t| t.0);
        let images = self
            .images
            .take()
            .unwrap_or_default()
            .into_iter()
            .map(|(name, bytes)| Asset {
                media_type: picture_media_type(&bytes.0)
                    .unwrap_or("application/octet-stream")
                    .to_string(),
                name,
                bytes: bytes.0,
            })
            .collect();
        let source = self.take_source(source_name, endpoint, readable)?;
        Ok(Upload {
            source,
            title,
            images,
            options: options.pairs(),
            fields: self.fields.map(|f| f.0),
            detect: self.detect,
            file_name,
        })
    }

    /// The one source given, `name`, resolved against the active importers.
    fn take_source(
        &mut self,
        name: &str,
        endpoint: Endpoint,
        readable: &Readable,
    ) -> Result<Source, ApiError> {
        if name == MODEL_SOURCE {
            let raw = self.model.take().expect("the model was given");
            if !raw.0.get().starts_with('{') {
                return Err(ApiError::bad_request(
                    "`model` must be a JSON object (the document model)",
                )
                .with("field", MODEL_SOURCE));
            }
            return Ok(Source::Model(Box::new(read_model(
                raw.0.get().as_bytes(),
                "`model`",
            )?)));
        }
        if name == FILE_SOURCE {
            let bytes = self.file.take().expect("the file was given").0;
            let given = self
                .media_type
                .take()
                .map(|t| t.0)
                .filter(|t| !t.trim().is_empty())
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "`file` needs `type`, the file's media type (e.g. \"text/csv\")",
                    )
                    .with("field", "type")
                })?;
            let media_type = readable
                .resolve(&given)
                .ok_or_else(|| readable.unsupported(format!("`type` {given} cannot be read")))?;
            return Ok(Source::File { bytes, media_type });
        }
        let named = endpoint
            .named_sources()
            .find(|s| s.name == name)
            .expect("the name came from this endpoint's sources");
        let bytes = (named.take)(self).expect("the source was given");
        let media_type = if named.media_type == ANY_IMAGE {
            let pictures = readable.pictures();
            picture_media_type(&bytes)
                .and_then(|t| pictures.resolve(t))
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::UNSUPPORTED_MEDIA_TYPE,
                        format!(
                            "`image` must be a picture of a readable kind ({})",
                            pictures.list()
                        ),
                    )
                    .with("readable", pictures.types.clone())
                })?
        } else {
            readable.resolve(named.media_type).ok_or_else(|| {
                readable.unsupported(format!(
                    "`{name}` ({}) cannot be read now: no active importer reads it",
                    named.media_type
                ))
            })?
        };
        Ok(Source::File { bytes, media_type })
    }
}

/// A 400 for a body serde refused, naming the member at fault (`at`, a path such as
/// `fields[2].page`) when there is one. An unknown member is named the way the checks
/// after reading name one of another endpoint.
pub(super) fn refusal(at: String, error: &serde_json::Error, takes: &str) -> ApiError {
    let message = error.to_string();
    if let Some(unknown) = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name)
    {
        return ApiError::bad_request(format!(
            "`{unknown}` is not a member this endpoint reads; {takes}"
        ))
        .with("field", unknown);
    }
    if at.is_empty() {
        return ApiError::bad_request(format!("the body is not valid JSON ({message}); {takes}"));
    }
    // "invalid type: integer `42`, expected a string at line 1 column 15"
    let (what, place) = match message.rsplit_once(" at line ") {
        Some((what, place)) => (what, format!(" (line {place})")),
        None => (message.as_str(), String::new()),
    };
    let wrong_type = what
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.split_once(", expected "));
    if let Some((got, expected)) = wrong_type {
        return ApiError::bad_request(format!(
            "`{at}` must be {expected}, not {got}{place}; {takes}"
        ))
        .with("field", at);
    }
    // Our own messages read on from the member's name ("`title` is 600 characters long").
    let joint = if message.starts_with("is ") || message.starts_with("must ") {
        " "
    } else {
        ": "
    };
    ApiError::bad_request(format!("`{at}`{joint}{message}; {takes}")).with("field", at)
}

/// The schema of a JSON create or replace body at `endpoint`, derived from [`SourceBody`]:
/// the members of the endpoint's kind, exactly one source among them, and `file` with its
/// `type`.
pub fn json_schema(endpoint: Endpoint, generator: &mut SchemaGenerator) -> serde_json::Value {
    let mut schema = SourceBody::json_schema(generator).to_value();
    let members = endpoint.members();
    if let Some(properties) = schema["properties"].as_object_mut() {
        properties.retain(|name, _| members.contains(&name.as_str()));
    }
    let one_source: Vec<serde_json::Value> = endpoint
        .sources()
        .into_iter()
        .map(|name| {
            let given = if name == MODEL_SOURCE {
                serde_json::json!({"type": "object"})
            } else {
                serde_json::json!({"type": "string"})
            };
            serde_json::json!({"required": [name], "properties": {name: given}})
        })
        .collect();
    schema["oneOf"] = serde_json::Value::Array(one_source);
    schema["if"] = serde_json::json!({"required": [FILE_SOURCE], "properties": {FILE_SOURCE: {"type": "string"}}});
    schema["then"] = serde_json::json!({"required": ["type"], "properties": {"type": {"type": "string", "pattern": "\\S"}}});
    schema
}

#[cfg(test)]
mod tests;
