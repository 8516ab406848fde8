//! One document: /d/{id} with its pages (the editor draws on them when scripts run),
//! downloads in every format, the version history with "restore as a new version", and
//! the bin.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue};
use axum::response::IntoResponse;
use maud::{html, Markup};
use quire_sdk::Kind;

use super::html::{self, Section};
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
fn pictures(id: &str, pages: i64, version: i64, of_version: Option<i64>) -> Markup {
    let query = match of_version {
        Some(v) => format!("version={v}"),
        None => format!("v={version}"),
    };
    html! {
        @for n in 1..=pages.min(PAGES_SHOWN) {
            figure class="page" {
                img src={ "/d/" (id) "/pages/" (n) ".png?" (query) } alt={ "Page " (n) } loading="lazy";
                figcaption { "Page " (n) }
            }
        }
        @if pages > PAGES_SHOWN {
            p {
                "Pages " (PAGES_SHOWN + 1) " to " (pages) " are in the "
                a href={ "/d/" (id) "/download/pdf" } { "PDF" } "."
            }
        }
    }
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
    let from_text = versions
        .first()
        .filter(|v| v.version == row.version)
        .is_some_and(|v| super::source::is_editable(v.source_type.as_deref()));
    let listed = if total_versions > VERSIONS_SHOWN {
        format!("; the newest {VERSIONS_SHOWN} are listed")
    } else {
        String::new()
    };
    let body = html! {
        h1 { (row.title) }
        (html::notice(&notice_of(&session, &q)))
        p class="meta" id="doc-meta" {
            (row.kind.as_str()) " · " (html::counted(row.pages, "page")) " · version " (row.version)
            " · changed " (html::time(row.updated))
        }
        // The downloads: the formats the active exporters say fit this kind of document.
        nav class="downloads" aria-label="Download" {
            h2 { "Download" }
            ul {
                @for (ext, media_type) in fitting(&app, row.kind) {
                    li {
                        a href={ "/d/" (id) "/download/" (ext) } download { "." (ext) }
                        " "
                        span class="hint" { (media_type) }
                    }
                }
            }
        }
        div class="actions" {
            (super::upload::form(
                &app,
                &session,
                &format!("/d/{id}/replace"),
                "Replace with a file…",
                Some(row.version),
            ))
            @if from_text {
                a class="button" id="edit-source" href={ "/d/" (id) "/source" } { "Edit source" }
            }
            @if is_form {
                a class="button" href={ "/forms/" (id) } { "Form settings and responses" }
            } @else if row.kind == Kind::Paged && session.account.plan.forms {
                (html::post_button(&session, &format!("/forms/{id}/make"), "Make this a form", ""))
            }
            (html::post_button(&session, &format!("/d/{id}/bin"), "Move to bin", "danger"))
        }
        // The editor's mount point; its content is what shows without scripts.
        section id="editor" aria-label="Editor" data-id=(id) data-kind=(row.kind.as_str())
            data-version=(row.version) data-csrf=(session.csrf) data-pages=(row.pages) {
            p class="hint" { "The editor needs JavaScript; without it the pages are shown as pictures." }
            (pictures(&id, row.pages, row.version, None))
        }
        section id="versions" aria-labelledby="history" {
            h2 id="history" { "Versions" }
            table {
                caption { (html::counted(total_versions, "version")) " kept" (listed) }
                (html::columns(&["Version", "Saved", "Title", "Pages", "From", "Adds"], true))
                tbody {
                    @for v in &versions {
                        tr {
                            td { (v.version) }
                            td { (html::time(v.created)) }
                            td { (v.title) }
                            td { (v.pages) }
                            td { (v.source_type.as_deref().unwrap_or("an edit")) }
                            td { (html::bytes(v.size)) }
                            td class="actions" {
                                @if v.version == row.version {
                                    span class="hint" { "current" }
                                } @else {
                                    a href={ "/d/" (id) "/versions/" (v.version) } { "View" }
                                    " "
                                    (html::post_button(
                                        &session,
                                        &format!("/d/{id}/versions/{}/restore", v.version),
                                        "Restore as new version",
                                        "",
                                    ))
                                }
                            }
                        }
                    }
                }
            }
        }
        script type="module" src="/assets/editor.js" {}
    };
    let page = html::page_styled(
        &session,
        Section::Documents,
        &row.title,
        &["/assets/editor.css"],
        body,
    );
    Ok(page.into_response())
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
    let body = html! {
        h1 { (title) }
        p { a href={ "/d/" (id) } { "Back to the current version" } }
        @if version == row.version {
            p { "This is the current version." }
        } @else {
            (html::post_button(
                &session,
                &format!("/d/{id}/versions/{version}/restore"),
                "Restore as new version",
                "primary",
            ))
        }
        section class="pages" { (pictures(&id, pages, row.version, Some(version))) }
    };
    Ok(html::page(&session, Section::Documents, &title, body).into_response())
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
