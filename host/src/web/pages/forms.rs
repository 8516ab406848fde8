//! Forms in the browser: the list, one form's settings (open or closed, more than one
//! answer per person, notices, the confirmation text), its invitations, and its responses
//! as a table with paging, CSV and each response's filled copy.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{FromRequest as _, Path, Query, Request, State};
use axum::response::{Html, IntoResponse};
use axum::Form;

use super::html::{self, esc, Section};
use super::library::page_number;
use super::share;
use super::{notice_of, see_other, PageResult};
use crate::api::callers::FormsCaller;
use crate::api::error::ApiError;
use crate::api::urls::Urls;
use crate::app::App;
use crate::forms::responses::{self, ResponseRow};
use crate::forms::{self, answer_rules, shares, Patch};
use crate::sessions::Session;

const FORMS_PER_PAGE: i64 = 50;
const RESPONSES_PER_PAGE: i64 = 25;
/// Question columns shown in the responses table; each response's page shows them all.
const COLUMNS_SHOWN: usize = 8;

/// GET /forms.
pub async fn list(
    State(app): State<App>,
    Query(q): Query<HashMap<String, String>>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    let n = page_number(&q);
    let (total, rows) = forms::list(
        &app.db,
        &session.account.id,
        None,
        FORMS_PER_PAGE,
        (n - 1) * FORMS_PER_PAGE,
    )
    .await?;
    let mut body = format!("<h1>Forms</h1>{}", html::notice(&notice_of(&session, &q)));
    if rows.is_empty() {
        body.push_str("<p>No forms yet. Open a PDF-kind document, place fields on it in the editor (Add field), and choose “Make this a form”; or create one through the API (POST /api/v1/forms).</p>");
    } else {
        body.push_str("<table><caption>Your forms</caption><thead><tr><th scope=\"col\">Title</th><th scope=\"col\">Questions</th><th scope=\"col\">State</th><th scope=\"col\">Responses</th><th scope=\"col\">Created</th></tr></thead><tbody>");
        for f in &rows {
            let _ = write!(
                body,
                "<tr><td><a href=\"/forms/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&f.doc.id),
                esc(&f.doc.title),
                f.questions,
                if f.settings.open { "open" } else { "closed" },
                f.responses,
                html::time(f.doc.created),
            );
        }
        body.push_str("</tbody></table>");
    }
    body.push_str(&html::pager("/forms", "", n, FORMS_PER_PAGE, total));
    Ok(Html(html::page(&session, Section::Forms, "Forms", &body)).into_response())
}

fn checkbox(name: &str, label: &str, on: bool) -> String {
    format!(
        "<div class=\"check\"><input type=\"checkbox\" id=\"{name}\" name=\"{name}\" value=\"1\"{}><label for=\"{name}\">{label}</label></div>",
        if on { " checked" } else { "" }
    )
}

/// The responses in one line at the top: how many, the newest, where to see them.
fn summary(id: &str, total: i64, newest: Option<f64>) -> String {
    let eid = esc(id);
    let count = format!("{total} response{}", if total == 1 { "" } else { "s" });
    match newest {
        Some(when) => format!(
            "<p class=\"summary\" id=\"summary\"><strong>{count}</strong>, the newest {} · <a href=\"#responses\">See them</a> · <a href=\"/forms/{eid}/responses.csv\" download>CSV</a></p>",
            html::time(when)
        ),
        None => "<p class=\"summary\" id=\"summary\"><strong>No responses yet.</strong> Share the link below to collect them.</p>".to_string(),
    }
}

/// The text of one answer for a table cell.
fn cell(r: &ResponseRow, key: &str) -> String {
    r.answers
        .get(key)
        .map(answer_rules::text)
        .unwrap_or_default()
}

/// GET /forms/{id}: settings, link, invitations, responses.
pub async fn show(
    State(app): State<App>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    let form = forms::get(&app.db, &session.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let invited = shares::list(&app.db, &id).await?;
    let n = page_number(&q);
    let (total, rows) = responses::list(
        &app.db,
        &id,
        RESPONSES_PER_PAGE,
        (n - 1) * RESPONSES_PER_PAGE,
    )
    .await?;
    let eid = esc(&id);
    let csrf = html::csrf_input(&session);
    let s = &form.settings;
    let newest = match rows.first() {
        Some(r) if n == 1 => Some(r.submitted),
        _ => responses::list(&app.db, &id, 1, 0)
            .await?
            .1
            .first()
            .map(|r| r.submitted),
    };
    let mut body = format!(
        "<h1>{}</h1>{}<p class=\"meta\">{} question{} · {} · <a href=\"/d/{eid}\">open in the editor</a></p>{}",
        esc(&form.doc.title),
        html::notice(&notice_of(&session, &q)),
        questions.len(),
        if questions.len() == 1 { "" } else { "s" },
        if s.open { "taking answers" } else { "closed: not taking answers" },
        summary(&id, total, newest),
    );
    body.push_str(&share::section(
        &id,
        &form.doc.title,
        Urls(&app.config.base_url),
        &app.config.frame_ancestors,
    ));
    let _ = write!(
        body,
        "<section aria-labelledby=\"settings\"><h2 id=\"settings\">Settings</h2><form method=\"post\" action=\"/forms/{eid}/settings\">{csrf}{}{}{}<label for=\"confirm\">Text a respondent reads after sending</label><textarea id=\"confirm\" name=\"confirm\" maxlength=\"{}\" rows=\"3\">{}</textarea><button type=\"submit\">Save settings</button></form></section>",
        checkbox("open", "Open: take new answers", s.open),
        checkbox("multiple", "A person may answer more than once", s.multiple),
        checkbox("notify", "Mail me when an answer comes in", s.notify),
        forms::MAX_CONFIRM_CHARS,
        esc(s.confirm.as_deref().unwrap_or(forms::DEFAULT_CONFIRM)),
    );
    // Questions.
    body.push_str("<section aria-labelledby=\"questions\"><h2 id=\"questions\">Questions</h2>");
    if questions.is_empty() {
        let _ = write!(body, "<p>No fields yet: place them in the <a href=\"/d/{eid}\">editor</a> with Add field.</p>");
    } else {
        body.push_str("<ul>");
        for question in &questions {
            let _ = write!(
                body,
                "<li><strong>{}</strong> <span class=\"hint\">{} · {}{}</span></li>",
                esc(if question.label.is_empty() {
                    &question.key
                } else {
                    &question.label
                }),
                esc(&question.key),
                question.field_type.as_str(),
                if question.required {
                    " · required"
                } else {
                    ""
                },
            );
        }
        body.push_str("</ul>");
    }
    body.push_str("</section>");
    // Invitations.
    let _ = write!(
        body,
        "<section aria-labelledby=\"invitations\"><h2 id=\"invitations\">Invitations</h2><form method=\"post\" action=\"/forms/{eid}/invitations\" class=\"filters\">{csrf}<label for=\"invite\">Invite by email</label><input id=\"invite\" name=\"email\" type=\"email\" required maxlength=\"254\"><button type=\"submit\">Send invitation</button></form>"
    );
    if invited.is_empty() {
        body.push_str("<p>Nobody is invited; anyone with the link can answer.</p>");
    } else {
        body.push_str("<ul class=\"invited\">");
        for share in &invited {
            let _ = write!(
                body,
                "<li>{} <span class=\"hint\">invited {}</span> <form method=\"post\" action=\"/forms/{eid}/invitations/remove\" class=\"inline\">{csrf}<input type=\"hidden\" name=\"email\" value=\"{}\"><button type=\"submit\" class=\"link\">Withdraw</button></form></li>",
                esc(&share.email),
                html::time(share.added),
                esc(&share.email),
            );
        }
        body.push_str("</ul>");
    }
    body.push_str("</section>");
    // Responses.
    let _ = write!(
        body,
        "<section aria-labelledby=\"responses\"><h2 id=\"responses\">Responses</h2><p>{total} response{}. <a href=\"/forms/{eid}/responses.csv\" download>Download all as CSV</a></p>",
        if total == 1 { "" } else { "s" }
    );
    if !rows.is_empty() {
        let shown: Vec<&quire_sdk::Field> = questions.iter().take(COLUMNS_SHOWN).collect();
        body.push_str("<div class=\"scroll\"><table><caption>Answers, newest first</caption><thead><tr><th scope=\"col\">Sent</th><th scope=\"col\">From</th><th scope=\"col\">Via</th>");
        for question in &shown {
            let _ = write!(
                body,
                "<th scope=\"col\">{}</th>",
                esc(if question.label.is_empty() {
                    &question.key
                } else {
                    &question.label
                })
            );
        }
        body.push_str("</tr></thead><tbody>");
        for r in &rows {
            let _ = write!(
                body,
                "<tr><td><a href=\"/forms/{eid}/responses/{}\">{}</a></td><td>{}</td><td>{}</td>",
                esc(&r.id),
                html::time(r.submitted),
                esc(r.from.as_deref().unwrap_or("")),
                esc(&r.via),
            );
            for question in &shown {
                let _ = write!(body, "<td>{}</td>", esc(&cell(r, &question.key)));
            }
            body.push_str("</tr>");
        }
        body.push_str("</tbody></table></div>");
        body.push_str(&html::pager(
            &format!("/forms/{id}"),
            "",
            n,
            RESPONSES_PER_PAGE,
            total,
        ));
    }
    body.push_str("</section>");
    Ok(Html(html::page(&session, Section::Forms, &form.doc.title, &body)).into_response())
}

/// POST /forms/{id}/settings: the checkboxes are sent only when ticked.
pub async fn settings(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    let confirm = form.get("confirm").map(|c| c.trim().to_string());
    let on = |name: &str| Some(form.get(name).is_some_and(|v| v == "1" || v == "on"));
    forms::patch(
        &app.db,
        &session.account.id,
        &id,
        Patch {
            open: on("open"),
            multiple: on("multiple"),
            notify: on("notify"),
            confirm: confirm.filter(|c| !c.is_empty()),
        },
    )
    .await?;
    Ok(see_other(
        &session,
        &format!("/forms/{id}"),
        "Settings saved.",
    ))
}

/// POST /forms/{id}/make: one of the account's PDF-kind documents becomes a form with the
/// fields placed on it.
pub async fn make(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    forms::adopt(&app.db, &app.blobs, &session.account.id, &id).await?;
    Ok(see_other(
        &session,
        &format!("/forms/{id}"),
        "This document is now a form, taking answers at its link.",
    ))
}

/// POST /forms/{id}/invitations.
pub async fn invite(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
    req: Request,
) -> PageResult {
    let Form(form): Form<HashMap<String, String>> = Form::from_request(req, &app)
        .await
        .map_err(|e| ApiError::bad_request(e.body_text()))?;
    let email = form.get("email").map(|e| e.trim()).unwrap_or("");
    let row = forms::get(&app.db, &session.account.id, &id).await?;
    let urls = Urls(&app.config.base_url);
    shares::add(&app.db, &urls, &session.account, &row, email).await?;
    Ok(see_other(
        &session,
        &format!("/forms/{id}"),
        &format!("Invitation sent to {email}."),
    ))
}

/// POST /forms/{id}/invitations/remove.
pub async fn uninvite(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    forms::get(&app.db, &session.account.id, &id).await?;
    let email = form.get("email").map(String::as_str).unwrap_or("");
    shares::remove(&app.db, &id, email).await?;
    Ok(see_other(
        &session,
        &format!("/forms/{id}"),
        &format!("Invitation to {email} withdrawn."),
    ))
}

/// GET /forms/{id}/responses.csv: the API's CSV.
pub async fn csv(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    let form = forms::get(&app.db, &session.account.id, &id).await?;
    Ok(crate::api::form_responses::csv_response(&app, &form))
}

/// GET /forms/{id}/responses/{rid}: every answer, and the filled copy.
pub async fn response(
    State(app): State<App>,
    Path((id, rid)): Path<(String, String)>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    let form = forms::get(&app.db, &session.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let r = responses::one(&app.db, &id, &rid).await?;
    let title = format!("Response to {}", form.doc.title);
    let mut body = format!(
        "<h1>{}</h1><p><a href=\"/forms/{}\">Back to the form</a></p><p class=\"meta\">Sent {} · from {} · via {}</p><dl class=\"answers\">",
        esc(&title),
        esc(&id),
        html::time(r.submitted),
        esc(r.from.as_deref().unwrap_or("(not given)")),
        esc(&r.via),
    );
    let mut seen = std::collections::HashSet::new();
    for question in &questions {
        seen.insert(question.key.as_str());
        let _ = write!(
            body,
            "<dt>{}</dt><dd>{}</dd>",
            esc(if question.label.is_empty() {
                &question.key
            } else {
                &question.label
            }),
            esc(&cell(&r, &question.key)),
        );
    }
    // Answers to questions the form has since dropped are kept, and shown.
    for (key, value) in &r.answers {
        if !seen.contains(key.as_str()) {
            let _ = write!(
                body,
                "<dt>{} <span class=\"hint\">(no longer asked)</span></dt><dd>{}</dd>",
                esc(key),
                esc(&answer_rules::text(value))
            );
        }
    }
    body.push_str("</dl>");
    if let Some(copy) = &r.document {
        let _ = write!(
            body,
            "<p><a class=\"button\" href=\"/d/{c}/download/pdf\" download>Filled copy (PDF)</a> <a href=\"/d/{c}\">Open the filled copy</a></p>",
            c = esc(copy)
        );
    }
    Ok(Html(html::page(&session, Section::Forms, &title, &body)).into_response())
}
