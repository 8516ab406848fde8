//! Forms and their fields: create, list, read, replace, configure, place and suggest.
//! Responses and invitations are in `form_responses`.

use axum::extract::{Path, Request, State};
use axum::Json;
use quire_sdk::Field;

use super::body;
use super::callers::FormsCaller;
use super::contract::Created;
use super::documents::{expected_version, page_within, receive};
use super::error::ApiError;
use super::queries::{Flag, FormList, FormState, OnePage, Params};
use super::replies::{self, Form, FormReply, FormStatus, PlacedQuestion, Question, Succeeded};
use super::requests::{self, FormSettings, PlaceFields};
use super::upload::{FormSourceQuery, Upload, FORMS};
use crate::accounts::Principal;
use crate::app::App;
use crate::documents::{Content, Owner};
use crate::forms::{self, detect, fields, NewFields, Patch};

/// `detect` from the body, else the query string.
fn wants_detection(upload: &Upload, q: &FormSourceQuery) -> bool {
    upload.detect.unwrap_or(Flag::is_set(q.detect))
}

/// The fields a create or replace asks for: placed ones, then detected ones when asked.
async fn requested_fields(
    app: &App,
    content: &Content,
    upload: &mut Upload,
    detect_too: bool,
) -> Result<Option<Vec<Field>>, ApiError> {
    let mut placed = upload
        .fields
        .take()
        .map(|given| fields::place(given, &content.document))
        .transpose()?;
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
    Params(q): Params<FormSourceQuery>,
    FormsCaller(p): FormsCaller<Principal>,
    req: Request,
) -> Result<Created<Json<FormReply>>, ApiError> {
    let base_url = app.config.base_url.clone();
    let (content, mut upload, warnings) = receive(&app, &p.account, FORMS, &q.source, req).await?;
    let detect_too = wants_detection(&upload, &q);
    let placed = requested_fields(&app, &content, &mut upload, detect_too).await?;
    let form = forms::create(&app.db, &app.blobs, Owner::of(&p.account), content, placed).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let body = FormReply {
        ok: Succeeded,
        form: Form::new(&base_url, &form, Some(&questions)),
        warnings,
    };
    Ok(Created(Json(body)))
}

pub async fn list(
    State(app): State<App>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
    Params(q): Params<FormList>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<replies::FormList>, ApiError> {
    let open = q.state.map(|s| matches!(s, FormState::Open));
    let limit = q.limit.map_or(50, |b| b.0);
    let offset = q.offset.map_or(0, |b| b.0);
    let (total, rows) = forms::list(&app.db, &p.account.id, open, limit, offset).await?;
    let base = &base_url;
    Ok(Json(replies::FormList {
        ok: Succeeded,
        total,
        forms: rows
            .iter()
            .map(|f| replies::ListedForm::new(base, f))
            .collect(),
    }))
}

pub async fn get(
    State(app): State<App>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<FormReply>, ApiError> {
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    Ok(Json(FormReply {
        ok: Succeeded,
        form: Form::new(&base_url, &form, Some(&questions)),
        warnings: Vec::new(),
    }))
}

pub async fn replace(
    State(app): State<App>,
    Path(id): Path<String>,
    Params(q): Params<FormSourceQuery>,
    FormsCaller(p): FormsCaller<Principal>,
    req: Request,
) -> Result<Json<FormReply>, ApiError> {
    let base_url = app.config.base_url.clone();
    let expected = expected_version(req.headers())?;
    if let Err(e) = forms::get(&app.db, &p.account.id, &id).await {
        body::discard(req.into_body()).await;
        return Err(e.into());
    }
    let (content, mut upload, mut warnings) =
        receive(&app, &p.account, FORMS, &q.source, req).await?;
    let detect_too = wants_detection(&upload, &q);
    let placed = requested_fields(&app, &content, &mut upload, detect_too).await?;
    let (form, dropped) = forms::replace_form(
        &app.db,
        &app.blobs,
        Owner::of(&p.account),
        &id,
        expected,
        content,
        placed.map_or(NewFields::KeptUnlessGiven, NewFields::Exactly),
    )
    .await?;
    warnings.extend(dropped);
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let body = FormReply {
        ok: Succeeded,
        form: Form::new(&base_url, &form, Some(&questions)),
        warnings,
    };
    Ok(Json(body))
}

pub async fn patch(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
    req: Request,
) -> Result<Json<replies::PatchedForm>, ApiError> {
    let base_url = app.config.base_url.clone();
    const TAKES: &str = "any of open, multiple, notify (true or false) and confirm (text)";
    let settings: FormSettings = requests::read_json(&app, &p, req, TAKES).await?;
    let patch = Patch {
        open: settings.open,
        multiple: settings.multiple,
        notify: settings.notify,
        confirm: settings.confirm,
    };
    let form = forms::patch(&app.db, &p.account.id, &id, patch).await?;
    Ok(Json(replies::PatchedForm {
        ok: Succeeded,
        form: replies::PatchedFormMember {
            form: Form::new(&base_url, &form, None),
            state: FormStatus::new(&form, None),
        },
    }))
}

pub async fn get_fields(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<replies::Questions>, ApiError> {
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    Ok(Json(replies::Questions {
        ok: Succeeded,
        fields: Question::all(&questions),
        form: FormStatus::new(&form, None),
    }))
}

pub async fn put_fields(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
    req: Request,
) -> Result<Json<replies::PlacedFields>, ApiError> {
    let expected = expected_version(req.headers())?;
    const TAKES: &str = "{fields: [{key, type, label, required, page, x, y, w, h, options}], keep}";
    let body: PlaceFields = requests::read_json(&app, &p, req, TAKES).await?;
    let keep = body.keep.unwrap_or(false);
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let (document, _) = forms::load(&app.db, &app.blobs, &form).await?;
    let placed = fields::place(body.fields, &document)?;
    let (form, all) = forms::set_fields(
        &app.db,
        &app.blobs,
        Owner::of(&p.account),
        &id,
        expected,
        placed,
        keep,
    )
    .await?;
    Ok(Json(replies::PlacedFields {
        ok: Succeeded,
        fields: all.iter().map(PlacedQuestion::new).collect(),
        count: form.questions,
        version: form.doc.version,
    }))
}

pub async fn suggest(
    State(app): State<App>,
    Path(id): Path<String>,
    Params(q): Params<OnePage>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<replies::Suggestions>, ApiError> {
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let page = page_within(q.page, form.doc.pages, "form")?;
    let (document, assets) = forms::load(&app.db, &app.blobs, &form).await?;
    let first = detect::next_number(&document.fields);
    let found = detect::find(&app.plugins, &document, &assets, page, first).await?;
    Ok(Json(replies::Suggestions {
        ok: Succeeded,
        fields: found.iter().map(replies::Suggestion::new).collect(),
    }))
}
