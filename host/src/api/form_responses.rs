//! A form's responses (list, CSV, one, submit, delete) and its invitations.

use axum::body::Body;
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::StreamExt;

use super::callers::FormsCaller;
use super::contract::Untyped;
use super::error::ApiError;
use super::queries::{parse, Flag, Params, ResponseDelete, ResponseList, ShareRemove};
use super::replies::{self, ListedResponse, Question, ResponseReply, Shares, Succeeded};
use super::requests::{self, Answers, Invitation};
use super::urls::Urls;
use crate::accounts::Principal;
use crate::app::App;
use crate::forms::responses::{self, Submission, Via};
use crate::forms::{self, csv, shares};

pub async fn list(
    State(app): State<App>,
    Path(id): Path<String>,
    Params(q): Params<ResponseList>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<replies::ResponseList>, ApiError> {
    let limit = q.limit.map_or(200, |b| b.0);
    let offset = q.offset.map_or(0, |b| b.0);
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let questions = forms::questions(&app.db, &app.blobs, &form).await?;
    let (total, rows) = responses::list(&app.db, &id, limit, offset).await?;
    Ok(Json(replies::ResponseList {
        ok: Succeeded,
        total,
        fields: Question::all(&questions),
        responses: rows.iter().map(ListedResponse::new).collect(),
    }))
}

/// The CSV, streamed: the header first, then rows as the database yields them.
pub async fn csv_download(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Untyped, ApiError> {
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    Ok(Untyped(csv_response(&app, &form)))
}

/// The form's responses as a CSV attachment (the API's download and the form page's).
pub fn csv_response(app: &App, form: &forms::FormRow) -> Response {
    let columns = form.columns.clone();
    let header_row = csv::header(&columns);
    let db = app.db.clone();
    let form_id = form.doc.id.clone();
    let rows = async_stream_body(db, form_id, columns);
    let body =
        futures_util::stream::once(async move { Ok::<_, std::io::Error>(header_row.into_bytes()) })
            .chain(rows);
    let filename = format!("responses-{}.csv", form.doc.id);
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// CSV lines batched into chunks of a few dozen kilobytes, so the socket sees few, full
/// writes.
fn async_stream_body(
    db: crate::store::Db,
    form_id: String,
    columns: Vec<String>,
) -> impl futures_util::Stream<Item = Result<Vec<u8>, std::io::Error>> + Send {
    const FLUSH_AT: usize = 64 << 10;
    futures_util::stream::unfold(
        (Box::pin(responses::stream_all(db, form_id)), false),
        move |(mut rows, done)| {
            let columns = columns.clone();
            async move {
                if done {
                    return None;
                }
                let mut chunk = String::new();
                loop {
                    match rows.next().await {
                        Some(Ok(r)) => {
                            chunk.push_str(&csv::line(&columns, &r));
                            if chunk.len() >= FLUSH_AT {
                                return Some((Ok(chunk.into_bytes()), (rows, false)));
                            }
                        }
                        Some(Err(e)) => {
                            // Headers are gone: all that is left is to cut the body short.
                            tracing::error!("responses.csv: {e}");
                            return Some((Err(std::io::Error::other(e.to_string())), (rows, true)));
                        }
                        None if chunk.is_empty() => return None,
                        None => return Some((Ok(chunk.into_bytes()), (rows, true))),
                    }
                }
            }
        },
    )
}

pub async fn one(
    State(app): State<App>,
    Path((id, rid)): Path<(String, String)>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<ResponseReply>, ApiError> {
    forms::get(&app.db, &p.account.id, &id).await?;
    let r = responses::one(&app.db, &id, &rid).await?;
    Ok(Json(ResponseReply {
        ok: Succeeded,
        response: replies::Response::new(r, true),
    }))
}

pub async fn submit(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
    req: Request,
) -> Result<Json<ResponseReply>, ApiError> {
    const TAKES: &str = "{answers: {<key>: <answer>}, as: <who answers>}";
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let Answers { answers, from } = requests::read_json(&app, &p, req, TAKES).await?;
    let r = responses::submit(
        &app.db,
        &app.blobs,
        &Urls(&app.config.base_url),
        &form,
        Submission {
            answers,
            from,
            via: Via::Api,
        },
    )
    .await?;
    Ok(Json(ResponseReply {
        ok: Succeeded,
        response: replies::Response::new(r, false),
    }))
}

pub async fn delete(
    State(app): State<App>,
    Path((id, rid)): Path<(String, String)>,
    Params(q): Params<ResponseDelete>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<replies::ResponseDeleted>, ApiError> {
    let keep = Flag::is_set(q.keep_document);
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let binned = responses::delete(&app.db, &form, &rid, keep).await?;
    Ok(Json(replies::ResponseDeleted {
        ok: Succeeded,
        deleted: rid,
        binned,
    }))
}

pub async fn add_share(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
    req: Request,
) -> Result<Json<Shares>, ApiError> {
    let form = forms::get(&app.db, &p.account.id, &id).await?;
    let Invitation { email, mode: _ } =
        requests::read_json(&app, &p, req, "{email: <address>, mode: \"fill\"}").await?;
    let urls = Urls(&app.config.base_url);
    let list = shares::add(&app.db, &urls, &p.account, &form, &email).await?;
    Ok(Json(Shares::new(list)))
}

pub async fn list_shares(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<Shares>, ApiError> {
    forms::get(&app.db, &p.account.id, &id).await?;
    let list = shares::list(&app.db, &id).await?;
    Ok(Json(Shares::new(list)))
}

pub async fn remove_share(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    FormsCaller(p): FormsCaller<Principal>,
) -> Result<Json<Shares>, ApiError> {
    forms::get(&app.db, &p.account.id, &id).await?;
    // Read after the form is found: someone else's form is a 404 whatever the query.
    let q: ShareRemove = parse(query.as_deref().unwrap_or("")).map_err(|e| {
        ApiError::bad_request(format!(
            "{}; DELETE takes ?email=<address>: the invitation to withdraw",
            e.detail
        ))
        .with("field", "email")
    })?;
    let email = q.email.trim();
    if email.is_empty() {
        return Err(ApiError::bad_request(
            "DELETE takes ?email=<address>: the invitation to withdraw",
        )
        .with("field", "email"));
    }
    let list = shares::remove(&app.db, &id, email).await?;
    Ok(Json(Shares::new(list)))
}
