//! The account's documents (search, kind, paging, thumbnails), the bin, and usage.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use quire_sdk::Kind;

use super::html::{self, Section};
use super::{notice_of, see_other, upload, PageResult, Signed};
use crate::app::App;
use crate::documents;
use crate::web::page_pictures::{self, Audience};

/// Rows on one page of a list.
const PER_PAGE: i64 = 24;
/// The longest search text kept.
const MAX_SEARCH: usize = 200;
/// Thumbnails are page 1 drawn this many pixels wide (at most 96 dpi: a small diagram is
/// not blown up past its size on screen).
const THUMBNAIL_WIDTH: f64 = 136.0;

/// `?page=` of a list: 1 when absent or not a page number.
pub fn page_number(q: &HashMap<String, String>) -> i64 {
    q.get("page")
        .and_then(|p| p.parse::<i64>().ok())
        .filter(|p| (1..=1_000_000).contains(p))
        .unwrap_or(1)
}

/// GET /: the documents.
pub async fn home() -> Response {
    Redirect::to("/documents").into_response()
}

/// GET /documents: the account's documents, newest first.
pub async fn documents(
    State(app): State<App>,
    Signed(session): Signed,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let search: String = q
        .get("q")
        .map(|s| s.trim().chars().take(MAX_SEARCH).collect())
        .unwrap_or_default();
    let kind = match q.get("kind").map(String::as_str) {
        Some("pdf") => Some(Kind::Paged),
        Some("diagram") => Some(Kind::Diagram),
        _ => None,
    };
    // A form's filled copies are reached from its responses; listed only when asked for.
    let copies = q.get("copies").is_some_and(|v| v == "1");
    let n = page_number(&q);
    let filter = documents::ListFilter {
        kind,
        title: Some(&search),
        without_filled_copies: !copies,
    };
    let (total, rows) = documents::list(
        &app.db,
        &session.account.id,
        filter,
        PER_PAGE,
        (n - 1) * PER_PAGE,
    )
    .await?;
    let mut query = Vec::new();
    if !search.is_empty() {
        query.push(format!("q={}", html::url_part(&search)));
    }
    if let Some(k) = kind {
        query.push(format!("kind={}", k.as_str()));
    }
    if copies {
        query.push("copies=1".to_string());
    }
    let body = maud::html! {
        div class="heading" {
            h1 { "Documents" }
            (upload::form(&app, &session, "/documents", "New document…", None))
        }
        (html::notice(&notice_of(&session, &q)))
        form method="get" action="/documents" class="filters" role="search" {
            label for="q" { "Title contains" }
            input id="q" name="q" type="search" maxlength=(MAX_SEARCH) value=(search);
            label for="kind" { "Kind" }
            select id="kind" name="kind" {
                option value="" selected[kind.is_none()] { "All" }
                option value="pdf" selected[kind == Some(Kind::Paged)] { "PDF" }
                option value="diagram" selected[kind == Some(Kind::Diagram)] { "Diagram" }
            }
            span class="check" {
                input id="copies" name="copies" type="checkbox" value="1" checked[copies];
                label for="copies" { "Filled copies of forms" }
            }
            button type="submit" { "Show" }
        }
        @if rows.is_empty() {
            @if search.is_empty() && kind.is_none() {
                p {
                    "No documents yet. Make one from a file with " strong { "New document" }
                    " (or drop it here), or send one through the API (POST /api/v1/pdfs or /api/v1/diagrams)."
                }
            } @else {
                p { "No document matches." }
            }
        } @else {
            p class="count" { (html::counted(total, "document")) }
            ul class="cards" {
                @for d in &rows {
                    li class="card" {
                        a href={ "/d/" (d.id) } {
                            img src={ "/documents/" (d.id) "/thumbnail.png?v=" (d.version) }
                                alt="" width="136" loading="lazy";
                            span class="title" { (d.title) }
                        }
                        span class="meta" {
                            (d.kind.as_str()) " · " (html::counted(d.pages, "page")) " · version "
                            (d.version) " · " (html::time(d.updated))
                        }
                    }
                }
            }
        }
        (html::pager("/documents", &query.join("&"), n, PER_PAGE, total))
    };
    Ok(html::page(&session, Section::Documents, "Documents", body).into_response())
}

/// GET /documents/{id}/thumbnail.png: page 1, small, drawn by the PNG exporter once per
/// version (the URL carries the version, so a browser may keep it).
pub async fn thumbnail(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    let row = documents::get(&app.db, &session.account.id, &id).await?;
    let key = (format!("{id}#thumbnail"), row.version, 1);
    Ok(page_pictures::respond(key, Audience::Owner, || async {
        let (_, document, assets) =
            documents::load(&app.db, &app.blobs, &session.account.id, &id).await?;
        super::spend_conversion(&app, &session).await?;
        let width = document.pages.first().map_or(612.0, |p| p.width.max(1.0));
        let dpi = (THUMBNAIL_WIDTH * 72.0 / width).clamp(2.0, 96.0).round() as u32;
        page_pictures::draw(&app, &document, &assets, 1, dpi).await
    })
    .await?)
}

/// GET /bin: binned documents, when each goes for good, restore and purge.
pub async fn bin(
    State(app): State<App>,
    Signed(session): Signed,
    Query(q): Query<HashMap<String, String>>,
) -> PageResult {
    let (total, rows) = documents::binned(&app.db, &session.account.id, 500).await?;
    let days = session.account.retention_days;
    let body = maud::html! {
        h1 { "Bin" }
        (html::notice(&notice_of(&session, &q)))
        p {
            "Documents stay in the bin for " (html::counted(days, "day"))
            " after they are binned, then they are deleted for good with every version."
        }
        @if rows.is_empty() {
            p { "The bin is empty." }
        } @else {
            table {
                caption { (html::counted(total, "binned document")) }
                (html::columns(&["Title", "Kind", "Binned", "Deleted for good"], true))
                tbody {
                    @for b in &rows {
                        @let id = &b.doc.id;
                        tr {
                            td { (b.doc.title) }
                            td { (b.doc.kind.as_str()) }
                            td { (html::time(b.binned_at)) }
                            td { (html::time(b.purge_at)) }
                            td class="actions" {
                                @let action = |what| format!("/bin/{id}/{what}");
                                (html::post_button(&session, &action("restore"), "Restore", "primary"))
                                (html::post_button(&session, &action("purge"), "Delete now", "danger"))
                            }
                        }
                    }
                }
            }
            @if total > rows.len() as i64 {
                p { "The " (rows.len()) " most recently binned are shown." }
            }
        }
    };
    Ok(html::page(&session, Section::Bin, "Bin", body).into_response())
}

/// POST /bin/{id}/restore.
pub async fn restore(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    documents::restore_own(&app.db, &session.account.id, &id).await?;
    let row = documents::get(&app.db, &session.account.id, &id).await?;
    Ok(see_other(
        &session,
        "/bin",
        &format!("Restored “{}” to your documents.", row.title),
    ))
}

/// POST /bin/{id}/purge.
pub async fn purge(
    State(app): State<App>,
    Signed(session): Signed,
    Path(id): Path<String>,
) -> PageResult {
    documents::purge_now(
        &app.db,
        &app.blobs,
        &session.account.id,
        &id,
        crate::forms::DOCUMENT_DEPENDENTS,
    )
    .await?;
    Ok(see_other(&session, "/bin", "Deleted for good."))
}

/// GET /usage: today's calls and the storage, against the plan.
pub async fn usage(State(app): State<App>, Signed(session): Signed) -> PageResult {
    let account = crate::accounts::account(&app.db, &session.account.id).await?;
    app.allowance.release(&app.db, &account.id).await?;
    let calls = crate::usage::calls_today(&app.db, &account.id).await?;
    let plan = &account.plan;
    let meter = |label: &str, used: i64, limit: Option<i64>, show: &dyn Fn(i64) -> String| {
        maud::html! {
            @match limit {
                Some(limit) if limit > 0 => div class="meter" {
                    label { (label) ": " (show(used)) " of " (show(limit)) }
                    progress max=(limit) value=(used.min(limit)) { (used.saturating_mul(100) / limit) "%" }
                },
                Some(_) => p { (label) ": " (show(used)) " (the " (plan.name) " plan includes none)" },
                None => p { (label) ": " (show(used)) " (no limit)" },
            }
        }
    };
    let calls_allowed = plan.daily_calls.or(if plan.api { None } else { Some(0) });
    let body = maud::html! {
        h1 { "Usage" }
        p { "Plan: " strong { (plan.name) } ". The daily allowance resets at midnight UTC." }
        (meter("API calls today", calls, calls_allowed, &|n| n.to_string()))
        (meter("Storage", account.storage_used, plan.storage_quota, &html::bytes))
        p { "Largest file: " (html::bytes(plan.max_file)) ". Credentials: up to " (plan.max_credentials) "." }
    };
    Ok(html::page(&session, Section::Usage, "Usage", body).into_response())
}
