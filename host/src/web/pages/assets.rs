//! The pages' own files (host/web), built into the binary: nothing is read from disk at
//! run time and there is no build step. A file's URL stays the same across releases, so
//! they are served with `no-cache` (revalidated by ETag, which is the build's digest).

use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::api::error::ApiError;

/// Name, media type, contents.
const FILES: &[(&str, &str, &str)] = &[
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../../../web/favicon.svg"),
    ),
    (
        "pages.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/pages.css"),
    ),
    (
        "editor.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/editor.css"),
    ),
    (
        "editor.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor.js"),
    ),
    (
        "editor-chrome.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-chrome.js"),
    ),
    (
        "editor-diagram.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-diagram.js"),
    ),
    (
        "editor-keyboard.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-keyboard.js"),
    ),
    (
        "editor-pointer.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-pointer.js"),
    ),
    (
        "editor-previews.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-previews.js"),
    ),
    (
        "editor-saving.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-saving.js"),
    ),
    (
        "editor-text.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/editor-text.js"),
    ),
    (
        "field-panel.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/field-panel.js"),
    ),
    (
        "form.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/form.js"),
    ),
    (
        "model.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/model.js"),
    ),
    (
        "request.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/request.js"),
    ),
    (
        "share.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/share.js"),
    ),
    (
        "source.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/source.js"),
    ),
    (
        "upload.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/upload.js"),
    ),
    (
        "view.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/view.js"),
    ),
];

fn etag(contents: &str) -> String {
    use sha2::Digest as _;
    format!(
        "\"{}\"",
        &hex::encode(sha2::Sha256::digest(contents.as_bytes()))[..16]
    )
}

/// GET /assets/{file}.
pub async fn serve(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let Some((_, media_type, contents)) = FILES.iter().find(|(name, _, _)| *name == file) else {
        return ApiError::not_found(format!("no asset {file}")).into_response();
    };
    let tag = etag(contents);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let common = [
        (header::ETAG, tag),
        (header::CACHE_CONTROL, "no-cache".to_string()),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (
        [(header::CONTENT_TYPE, media_type.to_string())],
        common,
        *contents,
    )
        .into_response()
}
