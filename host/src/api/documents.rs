//! Documents: create, replace, list, fetch, download and bin them.

use axum::body::Body;
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use quire_sdk::{validate, Kind};

use super::body;
use super::contract::{etag, Created, Reply, SchemaOf, Versioned};
use super::error::ApiError;
use super::formats::{self, MODEL_EXTENSION};
use super::queries::{
    self, Bounded, DocumentList, DocumentRead, Download, Include, KindFilter, PageNumber, Params,
};
use super::replies::{self, DocumentReply, Succeeded};
use super::upload::{self, Endpoint, Source, SourceQuery, Upload};
use crate::accounts::{Account, Principal};
use crate::app::App;
use crate::documents::{self, Content, DocRow};
use crate::store::memo::ChangesSeen;

/// Body size a JSON upload may have: base64 makes a file 4/3 larger, plus room for JSON.
fn body_limit(account: &Account) -> u64 {
    let max = account.plan.max_file.max(0) as u64;
    max.saturating_add(max / 3).saturating_add(64 << 10)
}

/// Reads and converts an upload into storable content (the shared part of create and
/// replace, for documents and forms).
pub async fn receive(
    app: &App,
    account: &Account,
    endpoint: Endpoint,
    query: &SourceQuery,
    req: Request,
) -> Result<(Content, Upload, Vec<String>), ApiError> {
    let kind = endpoint.kind;
    let (parts, body) = req.into_parts();
    let plan = &account.plan;
    let media_type = body::media_type_of(&parts.headers);
    let is_multipart = media_type == "multipart/form-data";
    // JSON carries files as base64 and multipart may add side images: both get room past
    // the file limit, which the file itself is held to below.
    let limit = if media_type.starts_with("application/json") || is_multipart {
        body_limit(account)
    } else {
        plan.max_file.max(0) as u64
    };
    let (bytes, _held) = body::read_limited(app, &parts.headers, body, limit, &plan.name).await?;
    let readable = formats::readable(app);
    let mut upload = if is_multipart {
        super::multipart::parse_upload(endpoint, &readable, &parts.headers, bytes, query).await?
    } else {
        upload::parse_upload(endpoint, &readable, &parts.headers, bytes, query)?
    };
    let file_size = match &upload.source {
        Source::File { bytes, .. } => bytes.len() as u64,
        Source::Model(_) => 0,
    };
    if file_size > plan.max_file.max(0) as u64 {
        return Err(crate::error::Error::FileTooLarge {
            size: file_size,
            limit: plan.max_file,
            plan: plan.name.clone(),
        }
        .into());
    }
    let source = std::mem::replace(
        &mut upload.source,
        Source::File {
            bytes: Vec::new(),
            media_type: String::new(),
        },
    );
    let (content, warnings) = match source {
        Source::Model(document) => {
            let document = *document;
            validate::check(&document, std::iter::empty())
                .map_err(crate::api::body::invalid_model)?;
            (
                Content {
                    document,
                    assets: Vec::new(),
                    source: None,
                    title: upload.title.clone(),
                },
                Vec::new(),
            )
        }
        Source::File { bytes, media_type } => {
            let images = std::mem::take(&mut upload.images);
            let converted = app
                .plugins
                .import(bytes.clone(), &media_type, images, upload.options.clone())
                .await
                .map_err(ApiError::from)?;
            // The importer says what kind of document it made. A diagram drawn on pages is
            // a fine PDF-kind document (the contract takes mermaid at /pdfs), but pages of
            // text are no diagram: send them where they belong.
            if kind == Kind::Diagram && converted.value.document.kind == Kind::Paged {
                return Err(ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!(
                        "{media_type} makes a PDF-kind document, not a diagram; send it to /api/v1/pdfs"
                    ),
                )
                .with("endpoint", "/api/v1/pdfs"));
            }
            let document = converted.value.document;
            // A file that names no title of its own is called by the name it was sent
            // under, before it would be "Untitled".
            let title = upload.title.clone().or_else(|| {
                let untitled = document
                    .title
                    .as_deref()
                    .is_none_or(|t| t.trim().is_empty());
                untitled
                    .then(|| upload.file_name.as_deref().and_then(title_of_file_name))
                    .flatten()
            });
            let content = Content {
                document,
                assets: converted.value.assets,
                source: Some((bytes, media_type)),
                title,
            };
            (content, converted.warnings)
        }
    };
    Ok((content, upload, warnings))
}

/// `reports/Q3 summary.md` → `Q3 summary`: the name without folders or extension.
fn title_of_file_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = match base.rsplit_once('.') {
        Some((stem, _)) if !stem.trim().is_empty() => stem,
        _ => base,
    };
    let stem = stem.split_whitespace().collect::<Vec<_>>().join(" ");
    (!stem.is_empty()).then_some(stem)
}

/// The reply about a document just made or replaced, its version in `ETag`.
fn document_reply(
    base: &str,
    row: &DocRow,
    warnings: Vec<String>,
) -> Versioned<Json<DocumentReply>> {
    Versioned {
        version: row.version,
        reply: Json(DocumentReply {
            ok: Succeeded,
            document: replies::Document::new(base, row),
            warnings,
        }),
    }
}

/// The document kind an endpoint of the API keeps: /pdfs or /diagrams.
pub trait Collection {
    const KIND: Kind;
}

/// POST /pdfs and PUT /pdfs/{id}.
pub struct Pdfs;

impl Collection for Pdfs {
    const KIND: Kind = Kind::Paged;
}

/// POST /diagrams and PUT /diagrams/{id}.
pub struct Diagrams;

impl Collection for Diagrams {
    const KIND: Kind = Kind::Diagram;
}

/// A new document of `kind` from an upload, or of the kind its importer made when `kind`
/// is `None` (the pages' upload, which has one button for every format).
pub async fn create_from_upload(
    app: &App,
    account: &Account,
    kind: Option<Kind>,
    query: &SourceQuery,
    req: Request,
) -> Result<(DocRow, Vec<String>), ApiError> {
    let endpoint = Endpoint {
        kind: kind.unwrap_or(Kind::Paged),
        form: false,
    };
    let (content, _, warnings) = receive(app, account, endpoint, query, req).await?;
    let kind = kind.unwrap_or(content.document.kind);
    let row = documents::create(
        &app.db,
        &app.blobs,
        documents::Owner::of(account),
        kind,
        content,
    )
    .await?;
    Ok((row, warnings))
}

pub async fn create<C: Collection>(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Params(q): Params<SourceQuery>,
    req: Request,
) -> Result<Created<Versioned<Json<DocumentReply>>>, ApiError> {
    let (row, warnings) = create_from_upload(&app, &p.account, Some(C::KIND), &q, req).await?;
    Ok(Created(document_reply(
        &app.config.base_url,
        &row,
        warnings,
    )))
}

/// `If-Match: "<version>"` (quotes optional; `*` matches any).
pub fn expected_version(headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(v) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let s = v
        .to_str()
        .unwrap_or("")
        .trim()
        .trim_start_matches("W/")
        .trim_matches('"');
    if s == "*" {
        return Ok(None);
    }
    s.parse::<i64>().map(Some).map_err(|_| {
        ApiError::bad_request("If-Match must be the document version in quotes, e.g. \"3\"")
    })
}

/// A new version of document `id` from an upload (`If-Match` honoured); `kind`, when
/// given, is the kind the caller takes the document to be (the API's /pdfs or /diagrams).
pub async fn replace_from_upload(
    app: &App,
    account: &Account,
    kind: Option<Kind>,
    id: &str,
    query: &SourceQuery,
    req: Request,
) -> Result<(DocRow, Vec<String>), ApiError> {
    let expected = expected_version(req.headers())?;
    // Refuse early for a document that is not there, before reading a large body.
    let current = documents::get(&app.db, &account.id, id).await?;
    if kind.is_some_and(|k| k != current.kind) {
        body::discard(req.into_body()).await;
        return Err(ApiError::not_found(format!(
            "no {} document {id}",
            kind.unwrap_or(current.kind).as_str()
        )));
    }
    let kind = current.kind;
    let endpoint = Endpoint { kind, form: false };
    let (content, _, mut warnings) = receive(app, account, endpoint, query, req).await?;
    let (row, dropped) = crate::forms::replace_document(
        &app.db,
        &app.blobs,
        documents::Owner::of(account),
        id,
        kind,
        expected,
        content,
        crate::forms::NewFields::KeptUnlessGiven,
    )
    .await?;
    warnings.extend(dropped);
    Ok((row, warnings))
}

pub async fn replace<C: Collection>(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
    Params(q): Params<SourceQuery>,
    req: Request,
) -> Result<Versioned<Json<DocumentReply>>, ApiError> {
    let (row, warnings) =
        replace_from_upload(&app, &p.account, Some(C::KIND), &id, &q, req).await?;
    Ok(document_reply(&app.config.base_url, &row, warnings))
}

/// A `?page=` (already a whole number from 1) that the document has: past its end is a
/// 400 naming `page` (the contract's 422 is for damaged files).
pub fn page_within(
    page: Option<PageNumber>,
    pages: i64,
    what: &str,
) -> Result<Option<u32>, ApiError> {
    let Some(Bounded(page)) = page else {
        return Ok(None);
    };
    if page > pages {
        return Err(ApiError::bad_request(format!(
            "`page` is {page} but the {what} has {pages} page(s)"
        ))
        .with("field", "page"));
    }
    Ok(Some(page as u32))
}

pub async fn list(
    State(app): State<App>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
    Extension(p): Extension<Principal>,
    Params(q): Params<DocumentList>,
) -> Result<Json<replies::DocumentList>, ApiError> {
    let kind = q.kind.map(|k| match k {
        KindFilter::Paged => Kind::Paged,
        KindFilter::Diagram => Kind::Diagram,
    });
    let limit = q.limit.map_or(50, |b| b.0);
    let offset = q.offset.map_or(0, |b| b.0);
    let (total, rows) = documents::list(
        &app.db,
        &p.account.id,
        documents::ListFilter {
            kind,
            ..Default::default()
        },
        limit,
        offset,
    )
    .await?;
    let base = &base_url;
    Ok(Json(replies::DocumentList {
        ok: Succeeded,
        total,
        documents: rows
            .iter()
            .map(|r| replies::Document::new(base, r))
            .collect(),
    }))
}

/// GET /api/v1/documents/{id} and /api/v1/documents/{id}.{format}.
pub async fn get(
    State(app): State<App>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
    Extension(p): Extension<Principal>,
    Extension(seen): Extension<ChangesSeen>,
    Path(raw): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<DocumentOrDownload, ApiError> {
    let query = query.unwrap_or_default();
    if let Some((id, format)) = raw.split_once('.') {
        let q: Download = queries::parse(&query)?;
        let file = download(&app, &p.account.id, id, format, &q).await?;
        return Ok(DocumentOrDownload::Download(file));
    }
    let q: DocumentRead = queries::parse(&query)?;
    let base = &base_url;
    let (row, body) = match q.include {
        Some(Include::Model) => {
            let (row, document, _) =
                documents::load(&app.db, &app.blobs, &p.account.id, &raw).await?;
            let mut doc = replies::Document::new(base, &row);
            let data = serde_json::to_value(&document).map_err(anyhow::Error::from)?;
            doc.data = Some(replies::Model(data));
            (row, doc)
        }
        None => {
            let row = app
                .known_documents
                .get(&app.db, seen, &p.account.id, &raw)
                .await?;
            let doc = replies::Document::new(base, &row);
            (row, doc)
        }
    };
    Ok(DocumentOrDownload::Document(Box::new(Versioned {
        version: row.version,
        reply: Json(DocumentReply {
            ok: Succeeded,
            document: body,
            warnings: Vec::new(),
        }),
    })))
}

/// GET /documents/{id} answers the document; GET /documents/{id}.{format}, which axum sees
/// as the same path, a file (its own entry in the route table says so).
pub enum DocumentOrDownload {
    Document(Box<Versioned<Json<DocumentReply>>>),
    Download(Response),
}

impl IntoResponse for DocumentOrDownload {
    fn into_response(self) -> Response {
        match self {
            DocumentOrDownload::Document(reply) => reply.into_response(),
            DocumentOrDownload::Download(file) => file,
        }
    }
}

impl Reply for DocumentOrDownload {
    const STATUS: u16 = 200;
    const GIVES: Option<SchemaOf> = <Versioned<Json<DocumentReply>> as Reply>::GIVES;
}

/// A header value carries visible ASCII only: anything else is written as U+XXXX.
pub fn header_text(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c.to_string()
            } else {
                format!("U+{:04X}", c as u32)
            }
        })
        .collect()
}

/// One of the account's documents in a download format (`ext`), with the `page` and `dpi`
/// the query asks for: the API's downloads and the pages' download links alike.
pub async fn download(
    app: &App,
    account_id: &str,
    id: &str,
    ext: &str,
    q: &Download,
) -> Result<Response, ApiError> {
    let (row, document, assets) = documents::load(&app.db, &app.blobs, account_id, id).await?;
    let servable = formats::servable(app);
    let Some((ext, media_type)) = servable
        .iter()
        .find(|(e, _)| e.eq_ignore_ascii_case(ext))
        .cloned()
    else {
        let served: Vec<String> = servable.iter().map(|(e, _)| format!(".{e}")).collect();
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                ".{ext} is not a download format; served are {}",
                served.join(", ")
            ),
        )
        .with("served", served));
    };
    let ext = ext.as_str();
    let page = page_within(q.page, row.pages, "document")?;
    let dpi = (media_type.starts_with("image/") && media_type != "image/svg+xml")
        .then(|| q.dpi.map_or(110, |b| b.0 as u32));
    let (name, value) = etag(row.version);
    if ext == MODEL_EXTENSION {
        let json = serde_json::to_vec(&document).map_err(anyhow::Error::from)?;
        return Ok((
            [(header::CONTENT_TYPE, media_type.clone()), (name, value)],
            json,
        )
            .into_response());
    }
    let exported = app
        .plugins
        .export(&document, &assets, &media_type, page, dpi)
        .await?;
    let mut response = Body::from(exported.value.bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&media_type).map_err(anyhow::Error::from)?,
    );
    headers.insert(
        name,
        HeaderValue::from_str(&value).map_err(anyhow::Error::from)?,
    );
    if !exported.warnings.is_empty() {
        let text = header_text(&exported.warnings.join("; "));
        if let Ok(v) = HeaderValue::from_str(&text) {
            headers.insert("x-service-warning", v);
        }
    }
    // A converter may add the contract's `X-Service-*` headers and nothing else: a
    // component must not set cookies or change what the response claims to be.
    for (k, v) in exported.value.headers {
        if !k.to_ascii_lowercase().starts_with("x-service-") {
            continue;
        }
        if let (Ok(k), Ok(v)) = (
            header::HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(&header_text(&v)),
        ) {
            headers.insert(k, v);
        }
    }
    Ok(response)
}

pub async fn delete(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<replies::Binned>, ApiError> {
    // `{id}.{format}` shares this axum route; a download is read, never deleted.
    if id.contains('.') {
        return Err(super::method_not_allowed(
            &axum::http::Method::DELETE,
            &format!("/api/v1/documents/{id}"),
        ));
    }
    documents::bin(&app.db, &p.account.id, &id).await?;
    Ok(Json(replies::Binned {
        ok: Succeeded,
        binned: id,
    }))
}
