//! One document: /d/{id} with its pages (the editor draws on them when scripts run),
//! downloads in every format, the version history with "restore as a new version", and
//! the bin.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{Html, IntoResponse};
use quire_sdk::Kind;

use super::html::{self, esc, Section};
use super::{notice_of, see_other, PageError, PageResult, Signed};
use crate::api::documents::download as export_download;
use crate::api::error::ApiError;
use crate::api::formats::fitting;
use crate::api::queries::{Download, Params};
use crate::app::App;
use crate::documents::{self, Owner};
use crate::web::page_pictures::{self, Audience, PAGE_DPI};

/// Pages drawn on one document page; a longer document links to its PDF for the rest.
const PAGES_SHOWN: i64 = 60;
/// Versions listed.
const VERSIONS_SHOWN: i64 = 100;

/// The `<img>`s of a document's pages (of `version`, or the current one).
fn pictures(id: &str, pages: i64, version: i64, of_version: Option<i64>) -> String {
    let mut out = String::new();
    let query = match of_version {
        Some(v) => format!("version={v}"),
        None => format!("v={version}"),
    };
    for n in 1..=pages.min(PAGES_SHOWN) {
        let _ = write!(
            out,
            "<figure class=\"page\"><img src=\"/d/{id}/pages/{n}.png?{query}\" alt=\"Page {n}\" loading=\"lazy\"><figcaption>Page {n}</figcaption></figure>",
            id = esc(id),
        );
    }
    if pages > PAGES_SHOWN {
        let _ = write!(
            out,
            "<p>Pages {} to {pages} are in the <a href=\"/d/{}/download/pdf\">PDF</a>.</p>",
            PAGES_SHOWN + 1,
            esc(id)
        );
    }
    out
}

/// GET /d/{id}: the editor, with everything about the document beside it.
pub async fn show(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let row = documents::get(&app.db, &session.account.id, &id).await?;
    let is_form = crate::forms::is_form(&app.db, &id).await?;
    let (total_versions, versions) =
        documents::versions(&app.db, &session.account.id, &id, VERSIONS_SHOWN).await?;
    let eid = esc(&id);
    let mut body = format!(
        "<h1>{}</h1>{}<p class=\"meta\" id=\"doc-meta\">{} · {} page{} · version {} · changed {}</p>",
        esc(&row.title),
        html::notice(&notice_of(&session, &q)),
        row.kind.as_str(),
        row.pages,
        if row.pages == 1 { "" } else { "s" },
        row.version,
        html::time(row.updated),
    );
    // The downloads: the formats the active exporters say fit this kind of document.
    body.push_str("<nav class=\"downloads\" aria-label=\"Download\"><h2>Download</h2><ul>");
    for (ext, media_type) in fitting(&app, row.kind) {
        let _ = write!(
            body,
            "<li><a href=\"/d/{eid}/download/{ext}\" download>.{ext}</a> <span class=\"hint\">{media_type}</span></li>",
            ext = esc(&ext),
            media_type = esc(&media_type)
        );
    }
    body.push_str("</ul></nav><div class=\"actions\">");
    body.push_str(&super::upload::form(
        &app,
        &session,
        &format!("/d/{id}/replace"),
        "Replace with a file…",
        Some(row.version),
    ));
    let from_text = versions
        .first()
        .filter(|v| v.version == row.version)
        .is_some_and(|v| super::source::is_editable(v.source_type.as_deref()));
    if from_text {
        let _ = write!(
            body,
            "<a class=\"button\" id=\"edit-source\" href=\"/d/{eid}/source\">Edit source</a>"
        );
    }
    if is_form {
        let _ = write!(
            body,
            "<a class=\"button\" href=\"/forms/{eid}\">Form settings and responses</a>"
        );
    } else if row.kind == Kind::Paged && session.account.plan.forms {
        body.push_str(&html::post_button(
            &session,
            &format!("/forms/{id}/make"),
            "Make this a form",
            "",
        ));
    }
    body.push_str(&html::post_button(
        &session,
        &format!("/d/{id}/bin"),
        "Move to bin",
        "danger",
    ));
    body.push_str("</div>");
    // The editor's mount point; its content is what shows without scripts.
    let _ = write!(
        body,
        "<section id=\"editor\" aria-label=\"Editor\" data-id=\"{eid}\" data-kind=\"{}\" data-version=\"{}\" data-csrf=\"{}\" data-pages=\"{}\"><p class=\"hint\">The editor needs JavaScript; without it the pages are shown as pictures.</p>{}</section>",
        row.kind.as_str(),
        row.version,
        esc(&session.csrf),
        row.pages,
        pictures(&id, row.pages, row.version, None),
    );
    // The history.
    let _ = write!(
        body,
        "<section id=\"versions\" aria-labelledby=\"history\"><h2 id=\"history\">Versions</h2><table><caption>{total_versions} version{} kept{}</caption><thead><tr><th scope=\"col\">Version</th><th scope=\"col\">Saved</th><th scope=\"col\">Title</th><th scope=\"col\">Pages</th><th scope=\"col\">From</th><th scope=\"col\">Adds</th><th scope=\"col\"><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>",
        if total_versions == 1 { "" } else { "s" },
        if total_versions > VERSIONS_SHOWN {
            format!("; the newest {VERSIONS_SHOWN} are listed")
        } else {
            String::new()
        },
    );
    for v in &versions {
        let actions = if v.version == row.version {
            "<span class=\"hint\">current</span>".to_string()
        } else {
            format!(
                "<a href=\"/d/{eid}/versions/{n}\">View</a> {}",
                html::post_button(
                    &session,
                    &format!("/d/{id}/versions/{}/restore", v.version),
                    "Restore as new version",
                    ""
                ),
                n = v.version
            )
        };
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"actions\">{actions}</td></tr>",
            v.version,
            html::time(v.created),
            esc(&v.title),
            v.pages,
            esc(v.source_type.as_deref().unwrap_or("an edit")),
            html::bytes(v.size),
        );
    }
    body.push_str("</tbody></table></section>");
    body.push_str("<script type=\"module\" src=\"/assets/editor.js\"></script>");
    let page = html::page(&session, Section::Documents, &row.title, &body).replace(
        "</head>",
        "<link rel=\"stylesheet\" href=\"/assets/editor.css\"></head>",
    );
    Ok(Html(page).into_response())
}

/// GET /d/{id}/pages/{n}.png[?version=V]: one page as a picture.
pub async fn page_picture(
    State(app): State<App>,
    Signed(session): Signed,
    Path((id, file)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let n = page_pictures::page_of_file(&file)
        .filter(|n| *n >= 1)
        .ok_or_else(|| ApiError::not_found("pages are /d/{id}/pages/{n}.png"))?;
    let account = session.account.id.as_str();
    let row = documents::get(&app.db, account, &id).await?;
    let version = match q.get("version") {
        Some(v) => v
            .parse::<i64>()
            .map_err(|_| ApiError::bad_request("`version` is a version number"))?,
        None => row.version,
    };
    let key = (id.clone(), version, n);
    Ok(page_pictures::respond(key, Audience::Owner, || async {
        let (_, document, assets) =
            documents::load_version(&app.db, &app.blobs, account, &id, version).await?;
        if n as usize > document.pages.len() {
            return Err(ApiError::not_found(format!(
                "version {version} has {} page(s)",
                document.pages.len()
            )));
        }
        super::spend_conversion(&app, &session).await?;
        page_pictures::draw(&app, &document, &assets, n, PAGE_DPI).await
    })
    .await?)
}

/// A file name for a download: the title's letters and digits, with the extension.
fn file_name(title: &str, ext: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(80)
        .collect();
    let stem = stem.trim_matches('-');
    let stem = if stem.is_empty() { "document" } else { stem };
    format!("{stem}.{ext}")
}

/// GET /d/{id}/download/{ext}: the same export the API serves, as an attachment.
pub async fn download(
    State(app): State<App>,
    Signed(session): Signed,
    Path((id, ext)): Path<(String, String)>,
    Params(q): Params<Download>,
) -> PageResult {
    let row = documents::get(&app.db, &session.account.id, &id).await?;
    super::spend_conversion(&app, &session).await?;
    let mut response = export_download(&app, &session.account.id, &id, &ext, &q).await?;
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"{}\"",
        file_name(&row.title, &ext.to_ascii_lowercase())
    )) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// GET /d/{id}/versions/{version}: an older version's pages, and its restore button.
pub async fn version(
    State(app): State<App>,
    Signed(session): Signed,
    Path((id, version)): Path<(String, i64)>,
) -> PageResult {
    let account = session.account.id.as_str();
    let (row, document, _) =
        documents::load_version(&app.db, &app.blobs, account, &id, version).await?;
    let pages = document.pages.len() as i64;
    let title = format!("{} — version {version}", row.title);
    let restore = if version == row.version {
        "<p>This is the current version.</p>".to_string()
    } else {
        html::post_button(
            &session,
            &format!("/d/{id}/versions/{version}/restore"),
            "Restore as new version",
            "primary",
        )
    };
    let body = format!(
        "<h1>{}</h1><p><a href=\"/d/{}\">Back to the current version</a></p>{restore}<section class=\"pages\">{}</section>",
        esc(&title),
        esc(&id),
        pictures(&id, pages, row.version, Some(version)),
    );
    Ok(Html(html::page(&session, Section::Documents, &title, &body)).into_response())
}

/// POST /d/{id}/versions/{version}/restore: that version's content stored again as the
/// newest version (through the same replace as the API's, so a form stays consistent).
pub async fn restore_version(
    State(app): State<App>,
    Signed(session): Signed,
    Path((id, version)): Path<(String, i64)>,
) -> PageResult {
    let account = session.account.id.as_str();
    let (row, content) =
        documents::version_content(&app.db, &app.blobs, account, &id, version).await?;
    let (restored, _) = crate::forms::replace_document(
        &app.db,
        &app.blobs,
        Owner::of(&session.account),
        &id,
        row.kind,
        Some(row.version),
        content,
        crate::forms::NewFields::KeptUnlessGiven,
    )
    .await
    .map_err(PageError::from)?;
    Ok(see_other(
        &session,
        &format!("/d/{id}"),
        &format!(
            "Version {version} is restored as version {}.",
            restored.version
        ),
    ))
}

/// POST /d/{id}/bin.
pub async fn bin(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    let row = documents::get(&app.db, &session.account.id, &id).await?;
    documents::bin(&app.db, &session.account.id, &id).await?;
    Ok(see_other(
        &session,
        "/documents",
        &format!("“{}” is in the bin.", row.title),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn download_names_are_plain() {
        assert_eq!(
            file_name("Q3 report: final/v2", "pdf"),
            "Q3-report--final-v2.pdf"
        );
        assert_eq!(file_name("Ünïcode", "svg"), "n-code.svg");
        assert_eq!(file_name("///", "png"), "document.png");
    }
}
