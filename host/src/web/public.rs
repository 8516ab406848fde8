//! The public form page, `{base_url}/f/{id}`: plain HTML that works without JavaScript,
//! built from the form's schema, with the document's pages as pictures beside the
//! questions. Answers sent here are responses with `via: link`. No bearer token reaches
//! this (the route gate answers 404 to one); the link is the permission.

use std::collections::HashMap;

use axum::extract::{Path, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Form;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use quire_sdk::{Document, Field, FieldType};
use serde_json::{Map, Value};

use super::page_pictures::{self, Audience, PAGE_DPI};
use crate::api::error::ApiError;
use crate::api::urls::Urls;
use crate::app::App;
use crate::error::Error;
use crate::forms::responses::{self, Submission, Via};
use crate::forms::{self, answer_rules, fields, signature, FormRow};

/// The name of the "who are you" input; answers use `a.<key>`, which never collides.
const FROM_INPUT: &str = "_as";
/// Drawn signatures are posted as `d.<key>` (JSON of the strokes) beside the typed name.
const DRAWN_PREFIX: &str = "d.";

/// What the page shows: the form, or what became of a submission.
enum Outcome<'a> {
    Fill {
        values: &'a Map<String, Value>,
        from: &'a str,
        problems: &'a [(String, String)],
        notice: Option<&'a str>,
    },
    Sent(&'a str),
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#f6f6f4}
main{display:flex;flex-wrap:wrap;gap:2rem;padding:1.5rem;max-width:1400px;margin:auto}
.pages{flex:1 1 480px;min-width:280px}.page{position:relative;margin-bottom:1rem}.page img{display:block;width:100%;height:auto;border:1px solid #bbb;background:#fff}
.box{position:absolute;outline:2px solid rgba(29,78,216,.55);background:rgba(29,78,216,.08)}.box:hover,.box:focus{background:rgba(29,78,216,.25)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.questions{flex:1 1 360px;min-width:280px;background:#fff;border:1px solid #ddd;border-radius:6px;padding:1.25rem}
h1{font-size:1.5rem;margin:0 0 .5rem}.q{margin:0 0 1.1rem}.q>label,legend{display:block;font-weight:600}
input[type=text],input[type=email],input[type=number],input[type=date],textarea,select{box-sizing:border-box;width:100%;padding:.45rem;font:inherit;border:1px solid #888;border-radius:4px}
fieldset{border:0;padding:0;margin:0}.error{color:#a00000;margin:.25rem 0 0}.notice{padding:.75rem;border-radius:4px;background:#fff3cd;border:1px solid #e0c060}
.problems{padding:.75rem;border:2px solid #a00000;border-radius:4px}.hint{color:#555;font-size:.9rem;margin:.1rem 0 .3rem}
button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;cursor:pointer}.req{color:#a00000}
.pad{display:block;width:100%;box-sizing:border-box;border:1px solid #888;border-radius:4px;background:#fff;touch-action:none;cursor:crosshair}
button.link{background:none;color:#1d4ed8;padding:0;text-decoration:underline}
@media (max-width:760px){main{padding:.75rem;gap:1rem}.questions{order:-1}}";

fn page_shell(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="icon" href="/assets/favicon.svg";
                // A constant of this file, not a value: CSS is raw text that escaping breaks.
                style { (PreEscaped(STYLE)) }
                script type="module" src="/assets/form.js" {}
            }
            body { (body) }
        }
    }
}

/// A page with one message where the form would be (no form, too many requests).
fn message_page(title: &str, message: Markup) -> Markup {
    page_shell(
        title,
        html! { main { section class="questions" { h1 { (title) } (message) } } },
    )
}

fn input_id(i: usize) -> String {
    format!("q{i}")
}

/// The words a question is known by: its label, else its key.
fn question_name(q: &Field) -> &str {
    if q.label.trim().is_empty() {
        &q.key
    } else {
        q.label.trim()
    }
}

/// What a page is drawn from: the form's model and its questions.
struct Page<'a> {
    document: &'a Document,
    questions: Vec<Field>,
    /// Question index by key, so drawing every box stays linear in the boxes.
    index: HashMap<String, usize>,
}

impl<'a> Page<'a> {
    fn of(document: &'a Document) -> Self {
        let questions = fields::questions(&document.fields);
        let index = questions
            .iter()
            .enumerate()
            .map(|(i, q)| (q.key.clone(), i))
            .collect();
        Page {
            questions,
            index,
            document,
        }
    }
}

/// How a question's control is marked: required, disabled on a closed form, invalid with
/// its problem tied to it for screen readers.
#[derive(Clone, Copy)]
struct Marks<'a> {
    id: &'a str,
    required: bool,
    closed: bool,
    problem: Option<&'a str>,
}

impl Marks<'_> {
    fn aria_required(&self) -> Option<&'static str> {
        self.required.then_some("true")
    }

    fn invalid(&self) -> Option<&'static str> {
        self.problem.map(|_| "true")
    }

    fn described_by(&self) -> Option<String> {
        self.problem.map(|_| format!("{}-error", self.id))
    }

    /// The star after a required question's words.
    fn star(&self) -> Markup {
        html! {
            @if self.required {
                " " span class="req" aria-hidden="true" { "*" }
            }
        }
    }

    fn error(&self) -> Markup {
        html! {
            @if let Some(problem) = self.problem {
                p class="error" id={ (self.id) "-error" } { (problem) }
            }
        }
    }
}

/// One question's control, labelled, with its error message tied to it for screen readers.
fn question_html(
    i: usize,
    q: &Field,
    value: Option<&Value>,
    problem: Option<&str>,
    closed: bool,
) -> Markup {
    let id = input_id(i);
    let m = Marks {
        id: &id,
        required: q.required,
        closed,
        problem,
    };
    let name = format!("a.{}", q.key);
    let label = question_name(q);
    let text_value = value.map(answer_rules::text).unwrap_or_default();
    let control = match q.field_type {
        FieldType::Multiline => html! {
            label for=(id) { (label) (m.star()) }
            textarea id=(id) name=(name) rows="4" required[m.required] aria-required=[m.aria_required()]
                disabled[m.closed] aria-invalid=[m.invalid()] aria-describedby=[m.described_by()] {
                (text_value)
            }
        },
        FieldType::Checkbox => html! {
            input type="checkbox" id=(id) name=(name) value="on" checked[value == Some(&Value::Bool(true))]
                required[m.required] aria-required=[m.aria_required()]
                disabled[m.closed] aria-invalid=[m.invalid()] aria-describedby=[m.described_by()];
            " "
            label for=(id) style="display:inline" { (label) (m.star()) }
        },
        FieldType::Radio => html! {
            fieldset aria-invalid=[m.invalid()] aria-describedby=[m.described_by()] {
                legend { (label) (m.star()) }
                @for (j, o) in q.options.iter().enumerate() {
                    div {
                        input type="radio" id={ (id) "-" (j) } name=(name) value=(o) checked[text_value == *o]
                            required[m.required] aria-required=[m.aria_required()] disabled[m.closed];
                        " "
                        label for={ (id) "-" (j) } { (o) }
                    }
                }
            }
        },
        FieldType::Select | FieldType::List => {
            let multiple = q.field_type == FieldType::List;
            let chosen: Vec<String> = match value {
                Some(Value::Array(a)) => a.iter().map(answer_rules::text).collect(),
                Some(v) => vec![answer_rules::text(v)],
                None => Vec::new(),
            };
            html! {
                label for=(id) { (label) (m.star()) }
                @if multiple {
                    p class="hint" { "Choose one or more." }
                }
                select id=(id) name=(name) multiple[multiple]
                    required[m.required] aria-required=[m.aria_required()]
                    disabled[m.closed] aria-invalid=[m.invalid()] aria-describedby=[m.described_by()] {
                    @if !multiple {
                        option value="" { "Choose…" }
                    }
                    @for o in &q.options {
                        option value=(o) selected[chosen.contains(o)] { (o) }
                    }
                }
            }
        }
        FieldType::Signature => return signature_html(q, value, m),
        _ => {
            let (ty, autocomplete, step, inputmode) = match q.field_type {
                FieldType::Email => ("email", Some("email"), None, None),
                FieldType::Number => ("number", None, Some("any"), Some("decimal")),
                FieldType::Date => ("date", None, None, None),
                _ => ("text", None, None, None),
            };
            html! {
                label for=(id) { (label) (m.star()) }
                // The box shows dates the browser's way (mm/dd/yyyy in the US): the page's
                // script names that order once it knows it.
                @if q.field_type == FieldType::Date {
                    p class="hint" data-date-hint { "Pick the date from the calendar, or type it into the box." }
                }
                input type=(ty) id=(id) name=(name) value=(text_value) autocomplete=[autocomplete]
                    step=[step] inputmode=[inputmode]
                    required[m.required] aria-required=[m.aria_required()]
                    disabled[m.closed] aria-invalid=[m.invalid()] aria-describedby=[m.described_by()];
            }
        }
    };
    html! { div class="q" { (control) (m.error()) } }
}

/// A signature: a pad to draw on (shown by the page's script, with pointer or touch) and
/// the typed name, which is all a page without scripts offers.
fn signature_html(q: &Field, value: Option<&Value>, m: Marks<'_>) -> Markup {
    let (typed, drawing) = match value {
        Some(v) if signature::is_drawn(v) => (String::new(), v.to_string()),
        Some(v) => (answer_rules::text(v), String::new()),
        None => (String::new(), String::new()),
    };
    // The pad takes the box's proportions, within reason for a phone's width.
    let aspect = if q.frame.h > 0.0 {
        (q.frame.w / q.frame.h).clamp(2.0, 5.0)
    } else {
        3.0
    };
    html! {
        div class="q" {
            label for=(m.id) { (question_name(q)) (m.star()) }
            div class="sig" data-signature hidden {
                canvas class="pad" style={ "aspect-ratio:" (format!("{aspect:.3}")) } aria-hidden="true" {}
                input type="hidden" name={ (DRAWN_PREFIX) (q.key) } value=(drawing);
                p class="hint" {
                    "Sign with a finger, pen or mouse. "
                    button type="button" class="link" data-clear { "Clear" }
                    " Or type your name instead:"
                }
            }
            p class="hint" data-typed-hint { "Type your full name as your signature." }
            input type="text" id=(m.id) name={ "a." (q.key) } value=(typed) autocomplete="name"
                required[m.required] aria-required=[m.aria_required()]
                disabled[m.closed] aria-invalid=[m.invalid()] aria-describedby=[m.described_by()];
            (m.error())
        }
    }
}

/// The document's pages as pictures, each field's box outlined over its page and linking
/// to its question, in CSS alone.
fn pictures(form: &FormRow, page: &Page<'_>) -> Markup {
    let pct = |v: f64, of: f64| if of > 0.0 { v / of * 100.0 } else { 0.0 };
    html! {
        @for (n, p) in (1..).zip(&page.document.pages) {
            div class="page" {
                img src={ "/f/" (form.doc.id) "/pages/" (n) ".png?v=" (form.doc.version) }
                    alt={ "Page " (n) " of " (form.doc.pages) } loading="lazy";
                @for f in page.document.fields.iter().filter(|f| f.page as usize == n) {
                    @if let Some(&i) = page.index.get(&f.key) {
                        @let name = question_name(&page.questions[i]);
                        @let place = format!(
                            "left:{:.3}%;top:{:.3}%;width:{:.3}%;height:{:.3}%",
                            pct(f.frame.x, p.width),
                            pct(f.frame.y, p.height),
                            pct(f.frame.w, p.width),
                            pct(f.frame.h, p.height),
                        );
                        a class="box" href={ "#" (input_id(i)) } title=(name) style=(place) {
                            span class="visually-hidden" { (name) }
                        }
                    }
                }
            }
        }
    }
}

/// The form to fill: what is wrong with the last post, who answers, every question.
fn fill(
    form: &FormRow,
    page: &Page<'_>,
    values: &Map<String, Value>,
    from: &str,
    problems: &[(String, String)],
    notice: Option<&str>,
) -> Markup {
    let closed = !form.settings.open;
    // Each question's problem by key: drawing stays linear in the questions.
    let problem_of: HashMap<&str, &str> = problems
        .iter()
        .rev()
        .map(|(k, d)| (k.as_str(), d.as_str()))
        .collect();
    let who_required = !form.settings.multiple;
    let who = Marks {
        id: FROM_INPUT,
        required: who_required,
        closed,
        problem: problem_of.get(FROM_INPUT).copied(),
    };
    html! {
        h1 { (form.doc.title) }
        @if closed {
            p role="status" class="notice" id="closed" {
                "This form is closed: it no longer takes answers. You can still see what it asks."
            }
        } @else if let Some(n) = notice {
            p role="alert" class="notice" { (n) }
        }
        @if !problems.is_empty() {
            div role="alert" class="problems" id="problems" {
                p { strong { "Please correct the following:" } }
                ul {
                    @for (key, detail) in problems {
                        @let anchor = page.index.get(key.as_str()).map(|&i| input_id(i));
                        @let anchor = anchor.unwrap_or_default();
                        li { a href={ "#" (anchor) } { (detail) } }
                    }
                }
            }
        }
        form method="post" action={ "/f/" (form.doc.id) } novalidate {
            p class="hint" { "Fields marked " span class="req" { "*" } " are required." }
            div class="q" {
                label for=(FROM_INPUT) { "Your email address" (who.star()) }
                p class="hint" {
                    @if who_required {
                        "This form takes one answer per person."
                    } @else {
                        "Optional: tells the form's owner who answered."
                    }
                }
                input type="email" id=(FROM_INPUT) name=(FROM_INPUT) value=(from) autocomplete="email"
                    required[who.required] aria-required=[who.aria_required()]
                    disabled[who.closed] aria-invalid=[who.invalid()] aria-describedby=[who.described_by()];
                (who.error())
            }
            @for (i, q) in page.questions.iter().enumerate() {
                (question_html(i, q, values.get(&q.key), problem_of.get(q.key.as_str()).copied(), closed))
            }
            @if !closed {
                button type="submit" { "Send" }
            }
        }
    }
}

fn render(form: &FormRow, page: &Page<'_>, outcome: Outcome<'_>) -> Markup {
    let side = match outcome {
        Outcome::Sent(confirm) => html! {
            h1 { (form.doc.title) }
            div role="status" class="notice" id="confirmation" {
                p {
                    @for (i, line) in confirm.split('\n').enumerate() {
                        @if i > 0 { br; }
                        (line)
                    }
                }
            }
        },
        Outcome::Fill {
            values,
            from,
            problems,
            notice,
        } => fill(form, page, values, from, problems, notice),
    };
    page_shell(
        &form.doc.title,
        html! {
            main {
                section class="pages" aria-label="The document" { (pictures(form, page)) }
                section class="questions" aria-label="Questions" { (side) }
            }
        },
    )
}

/// A page for when there is no form to show.
fn missing(detail: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        message_page("Form not found", html! { p { (detail) } }),
    )
        .into_response()
}

async fn load(app: &App, id: &str) -> Result<(FormRow, Document), Response> {
    let form =
        match forms::get_public(&app.db, id).await {
            Ok(f) => f,
            Err(Error::NotFound(_)) => return Err(missing(
                "There is no form at this address; the link may be mistyped or the form deleted.",
            )),
            Err(e) => return Err(ApiError::from(e).into_response()),
        };
    // The model alone: a view must not fetch and verify every picture of the form.
    let document = forms::load_model(&app.db, &app.blobs, &form)
        .await
        .map_err(|e| ApiError::from(e).into_response())?;
    Ok((form, document))
}

pub async fn show(State(app): State<App>, Path(id): Path<String>) -> Response {
    let (form, document) = match load(&app, &id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let page = Page::of(&document);
    let empty = Map::new();
    render(
        &form,
        &page,
        Outcome::Fill {
            values: &empty,
            from: "",
            problems: &[],
            notice: None,
        },
    )
    .into_response()
}

/// Pairs a post may hold besides one per question (and per option of a list): the
/// sender's address, and room for what a browser or an accessibility tool adds.
const EXTRA_PAIRS: usize = 8;

/// The most pairs an honest post to this form holds: a list question sends one pair per
/// chosen option, every other question one at most.
fn pairs_allowed(questions: &[Field]) -> usize {
    questions
        .iter()
        .map(|q| match q.field_type {
            FieldType::List => q.options.len().max(1),
            FieldType::Signature => 2,
            _ => 1,
        })
        .sum::<usize>()
        + EXTRA_PAIRS
}

/// The posted pairs as answers of the right JSON types, for the same checks the API runs.
/// The pairs are indexed once by key, so the work grows with the post plus the questions,
/// never with their product (the page is anonymous).
fn answers_from_pairs(questions: &[Field], pairs: &[(String, String)]) -> Map<String, Value> {
    let mut posted: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut drawn: HashMap<&str, &str> = HashMap::new();
    for (name, value) in pairs {
        if let Some(key) = name.strip_prefix("a.") {
            posted.entry(key).or_default().push(value.as_str());
        } else if let Some(key) = name.strip_prefix(DRAWN_PREFIX) {
            drawn.insert(key, value.as_str());
        }
    }
    let mut out = Map::new();
    for q in questions {
        let given = posted.get(q.key.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        let drawing = drawn.get(q.key.as_str()).filter(|d| !d.trim().is_empty());
        let value = match q.field_type {
            // A drawing wins over a typed name; one that is not JSON is an answer of the
            // wrong type, which the checks then name.
            FieldType::Signature if drawing.is_some() => drawing
                .and_then(|d| serde_json::from_str::<Value>(d).ok())
                .unwrap_or(Value::Bool(false)),
            FieldType::Checkbox => Value::Bool(!given.is_empty()),
            FieldType::List => Value::Array(
                given
                    .iter()
                    .filter(|v| !v.is_empty())
                    .map(|v| Value::String(v.to_string()))
                    .collect(),
            ),
            // Browsers send a textarea's line breaks as CRLF (HTML's form encoding); the
            // API's answers use plain newlines.
            _ => match given.first() {
                Some(v) if !v.trim().is_empty() => Value::String(v.replace("\r\n", "\n")),
                _ => continue,
            },
        };
        out.insert(q.key.clone(), value);
    }
    out
}

/// The answers posted to a form page, checked: the values to keep, who sent them, and
/// what is wrong with them (empty when nothing is).
struct Checked {
    values: Map<String, Value>,
    from: String,
    problems: Vec<(String, String)>,
}

fn check_posted(form: &FormRow, questions: &[Field], pairs: &[(String, String)]) -> Checked {
    let values = answers_from_pairs(questions, pairs);
    let from = pairs
        .iter()
        .find(|(k, _)| k == FROM_INPUT)
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let mut problems = match answer_rules::check_all(questions, &values) {
        Ok(_) => Vec::new(),
        Err(p) => p,
    };
    if !from.is_empty() && !answer_rules::is_email(&from) {
        problems.insert(
            0,
            (
                FROM_INPUT.to_string(),
                format!("`{from}` is not an email address"),
            ),
        );
    } else if from.is_empty() && !form.settings.multiple {
        problems.insert(
            0,
            (
                FROM_INPUT.to_string(),
                "Your email address is required: this form takes one answer per person".to_string(),
            ),
        );
    }
    Checked {
        values,
        from,
        problems,
    }
}

pub async fn submit(
    State(app): State<App>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
    Path(id): Path<String>,
    posted: Result<Form<Vec<(String, String)>>, axum::extract::rejection::FormRejection>,
) -> Response {
    let Ok(Form(pairs)) = posted else {
        return ApiError::bad_request(
            "the form page posts application/x-www-form-urlencoded answers",
        )
        .into_response();
    };
    let (form, document) = match load(&app, &id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let page = Page::of(&document);
    let questions = page.questions.as_slice();
    let allowed = pairs_allowed(questions);
    if pairs.len() > allowed {
        let empty = Map::new();
        let notice = format!(
            "This form takes at most {allowed} values in one post; yours had {}.",
            pairs.len()
        );
        let outcome = Outcome::Fill {
            values: &empty,
            from: "",
            problems: &[],
            notice: Some(&notice),
        };
        return (StatusCode::BAD_REQUEST, render(&form, &page, outcome)).into_response();
    }
    // Checking and drawing a page of thousands of questions is milliseconds of CPU: done
    // where it cannot hold up the tasks that share this executor thread.
    let Checked {
        values,
        from,
        problems,
    } = tokio::task::block_in_place(|| check_posted(&form, questions, &pairs));
    let reply = |status: StatusCode, problems: &[(String, String)], notice: Option<&str>| {
        let outcome = Outcome::Fill {
            values: &values,
            from: &from,
            problems,
            notice,
        };
        (
            status,
            tokio::task::block_in_place(|| render(&form, &page, outcome)),
        )
            .into_response()
    };
    if !form.settings.open {
        return reply(StatusCode::CONFLICT, &[], None);
    }
    if !problems.is_empty() {
        return reply(StatusCode::BAD_REQUEST, &problems, None);
    }
    let submitted = responses::submit(
        &app.db,
        &app.blobs,
        &Urls(&base_url),
        &form,
        Submission {
            answers: values.clone(),
            from: Some(from.clone()).filter(|f| !f.is_empty()),
            via: Via::Link,
        },
    )
    .await;
    match submitted {
        Ok(_) => {
            let confirm = form.settings.confirm.as_deref().unwrap_or(forms::DEFAULT_CONFIRM);
            render(&form, &page, Outcome::Sent(confirm)).into_response()
        }
        Err(Error::InvalidField { field, detail } | Error::Unfit { field, detail }) => {
            let key = field.strip_prefix("answers.").unwrap_or(FROM_INPUT).to_string();
            reply(StatusCode::BAD_REQUEST, &[(key, detail)], None)
        }
        Err(Error::Conflict(detail)) => reply(StatusCode::CONFLICT, &[], Some(&detail)),
        Err(Error::StorageFull { .. }) => reply(
            StatusCode::INSUFFICIENT_STORAGE,
            &[],
            Some("The form's owner has run out of storage, so your answers could not be kept. Please tell them."),
        ),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// Answers through a link are limited per client address and per form (see
/// [`crate::throttle`]); past either limit the page says when to try again, with a 429 and
/// `Retry-After`, before the answers are read.
/// Rate limits for link holders (anonymous): views of the page and its pictures per
/// client, answers per client and per form. Refusals are 429 with `Retry-After`, as a page
/// for the form itself and bare for its pictures.
pub async fn limit_link_use(
    State(app): State<App>,
    Path(params): Path<HashMap<String, String>>,
    req: Request,
    next: Next,
) -> Response {
    let client = req
        .extensions()
        .get::<crate::http::service::Client>()
        .and_then(|c| c.ip)
        .map(crate::throttle::client_key);
    let limits = &app.link_limits;
    let answering = req.method() == Method::POST;
    let refused = if answering {
        let form = params.get("id").map(String::as_str).unwrap_or("");
        client
            .as_ref()
            .and_then(|c| limits.answers_per_client.take(c).err())
            .or_else(|| limits.answers_per_form.take(form).err())
    } else {
        client
            .as_ref()
            .and_then(|c| limits.views_per_client.take(c).err())
    };
    let Some(wait) = refused else {
        return next.run(req).await;
    };
    let seconds = wait.as_secs().max(1);
    let retry = [(header::RETRY_AFTER, seconds.to_string())];
    if params.contains_key("file") {
        return (StatusCode::TOO_MANY_REQUESTS, retry, "").into_response();
    }
    let (title, text) = if answering {
        ("Too many answers", format!("This form has taken many answers in a short time. Please go back and send yours again in {seconds} seconds; what you typed is still in the page you came from."))
    } else {
        ("Too many requests", format!("This address has opened many form pages in a short time. Please reload this page in {seconds} seconds."))
    };
    let body = message_page(title, html! { p role="alert" { (text) } });
    (StatusCode::TOO_MANY_REQUESTS, retry, body).into_response()
}

/// One page of the form's document as a picture, drawn by the PNG converter.
pub async fn page_picture(
    State(app): State<App>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    let Some(n) = page_pictures::page_of_file(&file) else {
        return ApiError::not_found("pages are /f/{id}/pages/{n}.png").into_response();
    };
    let form = match forms::get_public(&app.db, &id).await {
        Ok(f) => f,
        Err(e) => return ApiError::from(e).into_response(),
    };
    if n == 0 || i64::from(n) > form.doc.pages {
        return ApiError::not_found(format!("the form has {} page(s)", form.doc.pages))
            .into_response();
    }
    let key = (id.clone(), form.doc.version, n);
    page_pictures::respond(key, Audience::LinkHolders, || async {
        let (document, assets) = forms::load(&app.db, &app.blobs, &form).await?;
        page_pictures::draw(&app, &document, &assets, n, PAGE_DPI).await
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}
