//! Forms in the browser: the list, one form's settings (open or closed, more than one
//! answer per person, notices, the confirmation text), its invitations, and its responses
//! as a table with paging, CSV and each response's filled copy.

use std::collections::HashMap;

use axum::extract::{FromRequest as _, Path, Query, Request, State};
use axum::response::IntoResponse;
use axum::Form;
use maud::{html, Markup};

use super::html::{self, Section};
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
    let body = html! {
        h1 { "Forms" }
        (html::notice(&notice_of(&session, &q)))
        @if rows.is_empty() {
            p {
                "No forms yet. Open a PDF-kind document, place fields on it in the editor (Add field), and choose “Make this a form”; or create one through the API (POST /api/v1/forms)."
            }
        } @else {
            table {
                caption { "Your forms" }
                (html::columns(&["Title", "Questions", "State", "Responses", "Created"], false))
                tbody {
                    @for f in &rows {
                        tr {
                            td { a href={ "/forms/" (f.doc.id) } { (f.doc.title) } }
                            td { (f.questions) }
                            td { @if f.settings.open { "open" } @else { "closed" } }
                            td { (f.responses) }
                            td { (html::time(f.doc.created)) }
                        }
                    }
                }
            }
        }
        (html::pager("/forms", "", n, FORMS_PER_PAGE, total))
    };
    Ok(html::page(&session, Section::Forms, "Forms", body).into_response())
}

fn checkbox(name: &str, label: &str, on: bool) -> Markup {
    html! {
        div class="check" {
            input type="checkbox" id=(name) name=(name) value="1" checked[on];
            label for=(name) { (label) }
        }
    }
}

/// The words a question is known by: its label, else its key.
fn question_name(question: &quire_sdk::Field) -> &str {
    if question.label.is_empty() {
        &question.key
    } else {
        &question.label
    }
}

/// The responses in one line at the top: how many, the newest, where to see them.
fn summary(id: &str, total: i64, newest: Option<f64>) -> Markup {
    html! {
        p class="summary" id="summary" {
            @if let Some(when) = newest {
                strong { (html::counted(total, "response")) } ", the newest " (html::time(when))
                " · " a href="#responses" { "See them" }
                " · " a href={ "/forms/" (id) "/responses.csv" } download { "CSV" }
            } @else {
                strong { "No responses yet." } " Share the link below to collect them."
            }
        }
    }
}

/// The text of one answer for a table cell.
fn cell(r: &ResponseRow, key: &str) -> String {
    r.answers
        .get(key)
        .map(answer_rules::text)
        .unwrap_or_default()
}

/// The Settings section of a form's page.
fn settings_section(session: &Session, id: &str, s: &forms::Settings) -> Markup {
    html! {
        section aria-labelledby="settings" {
            h2 id="settings" { "Settings" }
            form method="post" action={ "/forms/" (id) "/settings" } {
                (html::csrf_input(session))
                (checkbox("open", "Open: take new answers", s.open))
                (checkbox("multiple", "A person may answer more than once", s.multiple))
                (checkbox("notify", "Mail me when an answer comes in", s.notify))
                label for="confirm" { "Text a respondent reads after sending" }
                textarea id="confirm" name="confirm" maxlength=(forms::MAX_CONFIRM_CHARS) rows="3" {
                    (s.confirm.as_deref().unwrap_or(forms::DEFAULT_CONFIRM))
                }
                button type="submit" { "Save settings" }
            }
        }
    }
}

/// The Questions section: each question's words, key, type and whether it is required.
fn questions_section(id: &str, questions: &[quire_sdk::Field]) -> Markup {
    html! {
        section aria-labelledby="questions" {
            h2 id="questions" { "Questions" }
            @if questions.is_empty() {
                p { "No fields yet: place them in the " a href={ "/d/" (id) } { "editor" } " with Add field." }
            } @else {
                ul {
                    @for question in questions {
                        li {
                            strong { (question_name(question)) }
                            " "
                            span class="hint" {
                                (question.key) " · " (question.field_type.as_str())
                                @if question.required { " · required" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The Invitations section: invite by address, and withdraw an invitation.
fn invitations_section(session: &Session, id: &str, invited: &[shares::Share]) -> Markup {
    html! {
        section aria-labelledby="invitations" {
            h2 id="invitations" { "Invitations" }
            form method="post" action={ "/forms/" (id) "/invitations" } class="filters" {
                (html::csrf_input(session))
                label for="invite" { "Invite by email" }
                input id="invite" name="email" type="email" required maxlength="254";
                button type="submit" { "Send invitation" }
            }
            @if invited.is_empty() {
                p { "Nobody is invited; anyone with the link can answer." }
            } @else {
                ul class="invited" {
                    @for share in invited {
                        li {
                            (share.email) " "
                            span class="hint" { "invited " (html::time(share.added)) }
                            " "
                            form method="post" action={ "/forms/" (id) "/invitations/remove" } class="inline" {
                                (html::csrf_input(session))
                                input type="hidden" name="email" value=(share.email);
                                button type="submit" class="link" { "Withdraw" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The Responses section: a page of responses, newest first, with the first questions'
/// answers as columns.
fn responses_section(
    id: &str,
    questions: &[quire_sdk::Field],
    rows: &[ResponseRow],
    n: i64,
    total: i64,
) -> Markup {
    let shown = &questions[..questions.len().min(COLUMNS_SHOWN)];
    html! {
        section aria-labelledby="responses" {
            h2 id="responses" { "Responses" }
            p {
                (html::counted(total, "response")) ". "
                a href={ "/forms/" (id) "/responses.csv" } download { "Download all as CSV" }
            }
            @if !rows.is_empty() {
                div class="scroll" {
                    table {
                        caption { "Answers, newest first" }
                        thead {
                            tr {
                                th scope="col" { "Sent" }
                                th scope="col" { "From" }
                                th scope="col" { "Via" }
                                @for question in shown {
                                    th scope="col" { (question_name(question)) }
                                }
                            }
                        }
                        tbody {
                            @for r in rows {
                                tr {
                                    td {
                                        a href={ "/forms/" (id) "/responses/" (r.id) } {
                                            (html::time(r.submitted))
                                        }
                                    }
                                    td { (r.from.as_deref().unwrap_or("")) }
                                    td { (r.via) }
                                    @for question in shown {
                                        td { (cell(r, &question.key)) }
                                    }
                                }
                            }
                        }
                    }
                }
                (html::pager(&format!("/forms/{id}"), "", n, RESPONSES_PER_PAGE, total))
            }
        }
    }
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
    let newest = match rows.first() {
        Some(r) if n == 1 => Some(r.submitted),
        _ => responses::list(&app.db, &id, 1, 0)
            .await?
            .1
            .first()
            .map(|r| r.submitted),
    };
    let body = html! {
        h1 { (form.doc.title) }
        (html::notice(&notice_of(&session, &q)))
        p class="meta" {
            (html::counted(questions.len() as i64, "question")) " · "
            @if form.settings.open { "taking answers" } @else { "closed: not taking answers" }
            " · " a href={ "/d/" (id) } { "open in the editor" }
        }
        (summary(&id, total, newest))
        (share::section(&id, &form.doc.title, Urls(&app.config.base_url), &app.config.frame_ancestors))
        (settings_section(&session, &id, &form.settings))
        (questions_section(&id, &questions))
        (invitations_section(&session, &id, &invited))
        (responses_section(&id, &questions, &rows, n, total))
    };
    Ok(html::page(&session, Section::Forms, &form.doc.title, body).into_response())
}

/// Back to the form's page after a change, saying what it did.
fn back_to_form(session: &Session, id: &str, notice: &str) -> PageResult {
    Ok(see_other(session, &format!("/forms/{id}"), notice))
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
    back_to_form(&session, &id, "Settings saved.")
}

/// POST /forms/{id}/make: one of the account's PDF-kind documents becomes a form with the
/// fields placed on it.
pub async fn make(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    forms::adopt(&app.db, &app.blobs, &session.account.id, &id).await?;
    back_to_form(
        &session,
        &id,
        "This document is now a form, taking answers at its link.",
    )
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
    back_to_form(&session, &id, &format!("Invitation sent to {email}."))
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
    back_to_form(&session, &id, &format!("Invitation to {email} withdrawn."))
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
    let asked: std::collections::HashSet<&str> = questions.iter().map(|q| q.key.as_str()).collect();
    let body = html! {
        h1 { (title) }
        p { a href={ "/forms/" (id) } { "Back to the form" } }
        p class="meta" {
            "Sent " (html::time(r.submitted)) " · from " (r.from.as_deref().unwrap_or("(not given)"))
            " · via " (r.via)
        }
        dl class="answers" {
            @for question in &questions {
                dt { (question_name(question)) }
                dd { (cell(&r, &question.key)) }
            }
            // Answers to questions the form has since dropped are kept, and shown.
            @for (key, value) in &r.answers {
                @if !asked.contains(key.as_str()) {
                    dt { (key) " " span class="hint" { "(no longer asked)" } }
                    dd { (answer_rules::text(value)) }
                }
            }
        }
        @if let Some(copy) = &r.document {
            p {
                a class="button" href={ "/d/" (copy) "/download/pdf" } download { "Filled copy (PDF)" }
                " "
                a href={ "/d/" (copy) } { "Open the filled copy" }
            }
        }
    };
    Ok(html::page(&session, Section::Forms, &title, body).into_response())
}
