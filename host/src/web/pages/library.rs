//! The account's documents (search, kind, paging, thumbnails), the bin, and usage.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use quire_sdk::Kind;

use super::html::{self, esc, Section};
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
    let mut body = String::from("<div class=\"heading\"><h1>Documents</h1>");
    body.push_str(&upload::form(
        &app,
        &session,
        "/documents",
        "New document…",
        None,
    ));
    body.push_str("</div>");
    body.push_str(&html::notice(&notice_of(&session, &q)));
    let selected = |k: Option<Kind>| if kind == k { " selected" } else { "" };
    let _ = write!(
        body,
        "<form method=\"get\" action=\"/documents\" class=\"filters\" role=\"search\">
<label for=\"q\">Title contains</label><input id=\"q\" name=\"q\" type=\"search\" maxlength=\"{MAX_SEARCH}\" value=\"{}\">
<label for=\"kind\">Kind</label><select id=\"kind\" name=\"kind\"><option value=\"\"{}>All</option><option value=\"pdf\"{}>PDF</option><option value=\"diagram\"{}>Diagram</option></select>
<span class=\"check\"><input id=\"copies\" name=\"copies\" type=\"checkbox\" value=\"1\"{}><label for=\"copies\">Filled copies of forms</label></span>
<button type=\"submit\">Show</button></form>",
        esc(&search),
        selected(None),
        selected(Some(Kind::Paged)),
        selected(Some(Kind::Diagram)),
        if copies { " checked" } else { "" },
    );
    if rows.is_empty() {
        body.push_str(if search.is_empty() && kind.is_none() {
            "<p>No documents yet. Make one from a file with <strong>New document</strong> (or drop it here), or send one through the API (POST /api/v1/pdfs or /api/v1/diagrams).</p>"
        } else {
            "<p>No document matches.</p>"
        });
    } else {
        let _ = write!(
            body,
            "<p class=\"count\">{total} document{}</p><ul class=\"cards\">",
            if total == 1 { "" } else { "s" }
        );
        for d in &rows {
            let _ = write!(
                body,
                "<li class=\"card\"><a href=\"/d/{id}\"><img src=\"/documents/{id}/thumbnail.png?v={v}\" alt=\"\" width=\"136\" loading=\"lazy\"><span class=\"title\">{title}</span></a><span class=\"meta\">{kind} · {pages} page{s} · version {v} · {updated}</span></li>",
                id = esc(&d.id),
                v = d.version,
                title = esc(&d.title),
                kind = d.kind.as_str(),
                pages = d.pages,
                s = if d.pages == 1 { "" } else { "s" },
                updated = html::time(d.updated),
            );
        }
        body.push_str("</ul>");
    }
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
    body.push_str(&html::pager(
        "/documents",
        &query.join("&"),
        n,
        PER_PAGE,
        total,
    ));
    Ok(Html(html::page(&session, Section::Documents, "Documents", &body)).into_response())
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
    let mut body = format!(
        "<h1>Bin</h1>{}<p>Documents stay in the bin for {days} day{} after they are binned, then they are deleted for good with every version.</p>",
        html::notice(&notice_of(&session, &q)),
        if days == 1 { "" } else { "s" }
    );
    if rows.is_empty() {
        body.push_str("<p>The bin is empty.</p>");
    } else {
        let _ = write!(
            body,
            "<table><caption>{total} binned document{}</caption><thead><tr><th scope=\"col\">Title</th><th scope=\"col\">Kind</th><th scope=\"col\">Binned</th><th scope=\"col\">Deleted for good</th><th scope=\"col\"><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>",
            if total == 1 { "" } else { "s" }
        );
        for b in &rows {
            let id = &b.doc.id;
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"actions\">{}{}</td></tr>",
                esc(&b.doc.title),
                b.doc.kind.as_str(),
                html::time(b.binned_at),
                html::time(b.purge_at),
                html::post_button(&session, &format!("/bin/{id}/restore"), "Restore", "primary"),
                html::post_button(&session, &format!("/bin/{id}/purge"), "Delete now", "danger"),
            );
        }
        body.push_str("</tbody></table>");
        if total > rows.len() as i64 {
            let _ = write!(
                body,
                "<p>The {} most recently binned are shown.</p>",
                rows.len()
            );
        }
    }
    Ok(Html(html::page(&session, Section::Bin, "Bin", &body)).into_response())
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
        match limit {
            Some(limit) if limit > 0 => format!(
                "<div class=\"meter\"><label>{label}: {} of {}</label><progress max=\"{limit}\" value=\"{}\">{}%</progress></div>",
                show(used),
                show(limit),
                used.min(limit),
                used.saturating_mul(100) / limit
            ),
            Some(_) => format!("<p>{label}: {} (the {} plan includes none)</p>", show(used), esc(&plan.name)),
            None => format!("<p>{label}: {} (no limit)</p>", show(used)),
        }
    };
    let body = format!(
        "<h1>Usage</h1><p>Plan: <strong>{}</strong>. The daily allowance resets at midnight UTC.</p>{}{}<p>Largest file: {}. Credentials: up to {}.</p>",
        esc(&plan.name),
        meter("API calls today", calls, plan.daily_calls.or(if plan.api { None } else { Some(0) }), &|n| n.to_string()),
        meter("Storage", account.storage_used, plan.storage_quota, &html::bytes),
        html::bytes(plan.max_file),
        plan.max_credentials,
    );
    Ok(Html(html::page(&session, Section::Usage, "Usage", &body)).into_response())
}
