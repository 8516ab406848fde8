//! Forms and their fields: create, list, read, replace, configure, place and suggest.
//! Responses and invitations are in `responses`.

use std::collections::HashMap;

use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use quire_sdk::{Field, Kind};
use serde_json::{json, Map, Value};

use super::body;
use super::documents::{expected_version, links, page_within, receive, row_json};
use super::error::ApiError;
use super::queries::{FormList, FormState, OnePage, Params};
use super::requests::{self, FormSettings, PlaceFields};
use crate::accounts::Principal;
use crate::app::App;
use crate::documents::{Content, Owner};
use crate::forms::{self, detect, fields, FormRow, Patch};

/// Longest text a respondent reads after sending.
const MAX_CONFIRM_CHARS: usize = 5000;

pub fn owner(p: &Principal) -> Owner<'_> {
    Owner {
        account_id: &p.account.id,
        quota: p.account.plan.storage_quota,
    }
}

/// Forms are part of the plan (see `forms::require_in_plan`).
pub fn require_forms(p: &Principal) -> Result<(), ApiError> {
    Ok(forms::require_in_plan(&p.account.plan)?)
}

pub fn form_links(base: &str, id: &str) -> Map<String, Value> {
    let mut l = links(base, id);
    let form = format!("{base}/api/v1/forms/{id}");
    l.insert("form".into(), json!(form));
    l.insert("fields".into(), json!(format!("{form}/fields")));
    l.insert("responses".into(), json!(format!("{form}/responses")));
    l.insert("csv".into(), json!(format!("{form}/responses.csv")));
    l.insert("fill".into(), json!(format!("{base}/f/{id}")));
    l
}

/// The `form` member: counts and state, plus the schema when `questions` is given.
fn form_member(f: &FormRow, questions: Option<&[Field]>) -> Value {
    let mut m = json!({
        "count": f.questions,
        "open": f.settings.open,
        "responses": f.responses,
    });
    if let Some(q) = questions {
        m["fields"] = Value::Array(q.iter().map(fields::schema_json).collect());
    }
    if f.settings.configured {
        m["multiple"] = json!(f.settings.multiple);
        m["notify"] = json!(f.settings.notify);
        m["confirm"] = json!(f
            .settings
            .confirm
            .as_deref()
            .unwrap_or(forms::DEFAULT_CONFIRM));
    }
    m
}

/// A whole form: the document row, `form`, and the form's links.
pub fn form_json(base: &str, f: &FormRow, questions: Option<&[Field]>) -> Value {
    let mut row = row_json(base, &f.doc);
    row["form"] = form_member(f, questions);
    row["links"] = Value::Object(form_links(base, &f.doc.id));
    row
}

fn list_row(base: &str, f: &FormRow) -> Value {
    json!({
        "id": f.doc.id,
        "title": f.doc.title,
        "kind": f.doc.kind.as_str(),
        "pages": f.doc.pages,
        "fields": f.questions,
        "open": f.settings.open,
        "responses": f.responses,
        "your_role": "owner",
        "links": form_links(base, &f.doc.id),
    })
}

/// `detect` from the JSON body or the query string.
fn wants_detection(
    extra: &Map<String, Value>,
    q: &HashMap<String, String>,
) -> Result<bool, ApiError> {
    match extra.get("detect") {
        Some(Value::Bool(b)) => Ok(*b),
        None | Some(Value::Null) => match q.get("detect").map(String::as_str) {
            None | Some("0" | "false") => Ok(false),
            Some("1" | "true") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "`detect` is true, false, 1 or 0, not `{other}`"
            ))
            .with("field", "detect")),
        },
        Some(_) => Err(ApiError::bad_request("`detect` must be true or false")),
    }
}

/// The fields a create or replace asks for: placed ones, then detected ones when asked.
async fn requested_fields(
    app: &App,
    content: &Content,
    extra: &Map<String, Value>,
    detect_too: bool,
) -> Result<Option<Vec<Field>>, ApiError> {
    let mut placed = match extra.get("fields") {
        None | Some(Value::Null) => None,
        Some(v) => Some(fields::parse(v, &content.document)?),
    };
    if detect_too {
        let base: Vec<Field> = placed
            .clone()
            .unwrap_or_else(|| content.document.fields.clone());
        let found = detect::find(
            &app.plugins,
            &content.document,
            &content.assets,
            None,
            detect::next_number(&base),
        )
        .await?;
        let mut all = base;
        all.extend(found);
        placed = Some(all);
    }
    Ok(placed)
}

pub async fn create(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Query(q): Query<HashMap<String, String>>,
    req: Request,
) -> Result<Response, ApiError> {
    let base_url = super::service::base_url_of(&app, req.extensions());
    require_forms(&p)?;
    let (content, upload, warnings) = receive(&app, &p, Kind::Pdf, true, &q, req).await?;
    let detect_too = wants_detection(&upload.extra, &q)?;
    let placed = requested_fields(&app, &content, &upload.extra, detect_too).await?;
    let form = forms::create(&app.db, &app.blobs, owner(&p), content, placed).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let mut body = json!({"ok": true, "form": form_json(&base_url, &form, Some(&questions))});
    if !warnings.is_empty() {
        body["warnings"] = json!(warnings);
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

pub async fn list(
    State(app): State<App>,
    super::service::BaseUrl(base_url): super::service::BaseUrl,
    Extension(p): Extension<Principal>,
    Params(q): Params<FormList>,
) -> Result<Json<Value>, ApiError> {
    require_forms(&p)?;
    let open = q.state.map(|s| matches!(s, FormState::Open));
    let limit = q.limit.map_or(50, |b| b.0);
    let offset = q.offset.map_or(0, |b| b.0);
    let (total, rows) = forms::list(&app.db, &p.account.id, open, limit, offset).await?;
    let base = &base_url;
    Ok(Json(json!({
        "ok": true,
        "total": total,
        "forms": rows.iter().map(|f| list_row(base, f)).collect::<Vec<_>>(),
    })))
}

pub async fn get(
    State(app): State<App>,
    super::service::BaseUrl(base_url): super::service::BaseUrl,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    require_forms(&p)?;
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    Ok(Json(json!({
        "ok": true,
        "form": form_json(&base_url, &form, Some(&questions)),
    })))
}

pub async fn replace(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    req: Request,
) -> Result<Json<Value>, ApiError> {
    let base_url = super::service::base_url_of(&app, req.extensions());
    require_forms(&p)?;
    let expected = expected_version(req.headers())?;
    if let Err(e) = forms::get(&app.db, &p.account.id, &id).await {
        body::discard(req.into_body()).await;
        return Err(e.into());
    }
    let (content, upload, mut warnings) = receive(&app, &p, Kind::Pdf, true, &q, req).await?;
    let detect_too = wants_detection(&upload.extra, &q)?;
    let placed = requested_fields(&app, &content, &upload.extra, detect_too).await?;
    let (form, dropped) = forms::replace(
        &app.db,
        &app.blobs,
        owner(&p),
        &id,
        expected,
        content,
        placed,
    )
    .await?;
    warnings.extend(dropped);
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let mut body = json!({"ok": true, "form": form_json(&base_url, &form, Some(&questions))});
    if !warnings.is_empty() {
        body["warnings"] = json!(warnings);
    }
    Ok(Json(body))
}

pub async fn patch(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
    req: Request,
) -> Result<Json<Value>, ApiError> {
    let base_url = super::service::base_url_of(&app, req.extensions());
    require_forms(&p)?;
    const TAKES: &str = "any of open, multiple, notify (true or false) and confirm (text)";
    let settings: FormSettings = requests::read_json(&app, &p, req, TAKES).await?;
    if let Some(confirm) = &settings.confirm {
        if confirm.chars().count() > MAX_CONFIRM_CHARS {
            return Err(ApiError::bad_request(format!(
                "`confirm` is longer than {MAX_CONFIRM_CHARS} characters"
            ))
            .with("field", "confirm"));
        }
    }
    let patch = Patch {
        open: settings.open,
        multiple: settings.multiple,
        notify: settings.notify,
        confirm: settings.confirm,
    };
    let form = forms::patch(&app.db, &p.account.id, &id, patch).await?;
    // The contract's PATCH answer is `{ok, form: {count, open, multiple, confirm,
    // responses}}`: the settings sit directly under `form`. The whole row is kept beside
    // them (with its own `form` member), so a client reading a form row finds one too.
    let mut answer = form_json(&base_url, &form, None);
    if let (Some(row), Value::Object(settings)) = (answer.as_object_mut(), form_member(&form, None))
    {
        row.extend(settings);
    }
    Ok(Json(json!({"ok": true, "form": answer})))
}

pub async fn get_fields(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    require_forms(&p)?;
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    Ok(Json(json!({
        "ok": true,
        "fields": questions.iter().map(fields::schema_json).collect::<Vec<_>>(),
        "form": form_member(&form, None),
    })))
}

pub async fn put_fields(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
    req: Request,
) -> Result<Json<Value>, ApiError> {
    require_forms(&p)?;
    let expected = expected_version(req.headers())?;
    const TAKES: &str = "{fields: [{key, type, label, required, page, x, y, w, h, options}], keep}";
    let body: PlaceFields = requests::read_json(&app, &p, req, TAKES).await?;
    let keep = body.keep.unwrap_or(false);
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let (document, _) = forms::load(&app.db, &app.blobs, &form).await?;
    let placed = fields::place(body.fields, &document)?;
    let (form, all) =
        forms::set_fields(&app.db, &app.blobs, owner(&p), &id, expected, placed, keep).await?;
    Ok(Json(json!({
        "ok": true,
        "fields": all.iter().map(fields::placed_json).collect::<Vec<_>>(),
        "count": form.questions,
        "version": form.doc.version,
    })))
}

pub async fn suggest(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
    Path(id): Path<String>,
    Params(q): Params<OnePage>,
) -> Result<Json<Value>, ApiError> {
    require_forms(&p)?;
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let page = page_within(q.page, form.doc.pages, "form")?;
    let (document, assets) = forms::load(&app.db, &app.blobs, &form).await?;
    let first = detect::next_number(&document.fields);
    let found = detect::find(&app.plugins, &document, &assets, page, first).await?;
    // A suggestion is a guess: no question text and no `required` until a person says so.
    let out: Vec<Value> = found
        .iter()
        .map(|f| {
            json!({
                "key": f.key,
                "type": f.field_type.as_str(),
                "label": "",
                "page": f.page,
                "x": f.frame.x,
                "y": f.frame.y,
                "w": f.frame.w,
                "h": f.frame.h,
            })
        })
        .collect();
    Ok(Json(json!({"ok": true, "fields": out})))
}
