//! Answers to a form: taking them (each one also stored as a filled copy, an ordinary
//! document), listing, one, deleting, and the CSV of them all.

use quire_sdk::Kind;
use serde_json::{Map, Value};
use sqlx::Row;

use super::{answer_rules, fields, load, FormRow};
use crate::accounts;
use crate::documents::{self, Content, Owner};
use crate::error::{Error, Result};
use crate::mail::{self, Mail};
use crate::page_urls::PageUrls;
use crate::store::{now, Blobs, Db};
use crate::webhooks::{self, Event};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Api,
    Link,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Api => "api",
            Via::Link => "link",
        }
    }
}

pub struct Submission {
    pub answers: Map<String, Value>,
    /// Who says they answer: a claim, recorded as given.
    pub from: Option<String>,
    pub via: Via,
}

#[derive(Debug, Clone)]
pub struct ResponseRow {
    pub id: String,
    pub form_id: String,
    pub from: Option<String>,
    pub via: String,
    pub submitted: f64,
    /// The filled copy; `None` once it was purged from the bin.
    pub document: Option<String>,
    pub answers: Map<String, Value>,
    pub summary: String,
}

const RESPONSE_COLUMNS: &str =
    "id, form_id, respondent, via, submitted, document, answers, summary";

fn row_to_response(row: &sqlx::any::AnyRow) -> Result<ResponseRow> {
    let answers: String = row.try_get("answers")?;
    Ok(ResponseRow {
        id: row.try_get("id")?,
        form_id: row.try_get("form_id")?,
        from: row.try_get("respondent")?,
        via: row.try_get("via")?,
        submitted: row.try_get("submitted")?,
        document: row.try_get("document")?,
        answers: serde_json::from_str(&answers).map_err(anyhow::Error::from)?,
        summary: row.try_get("summary")?,
    })
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// Takes one set of answers: checks them, stores the filled copy and the response (and
/// the owner's notice when `notify` is on) in one transaction.
pub async fn submit(
    db: &Db,
    blobs: &Blobs,
    urls: &dyn PageUrls,
    form: &FormRow,
    submission: Submission,
) -> Result<ResponseRow> {
    if !form.settings.open {
        return Err(Error::Conflict(format!(
            "the form {} is closed and takes no new answers",
            form.doc.id
        )));
    }
    let from = submission
        .from
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    if let Some(f) = &from {
        if f.chars().count() > 320 {
            return Err(Error::InvalidField {
                field: "as".into(),
                detail: "is longer than 320 characters".into(),
            });
        }
    }
    let once_key = if form.settings.multiple {
        None
    } else {
        Some(
            from.as_ref()
                .map(|f| f.to_lowercase())
                .ok_or_else(|| Error::Unfit {
                    field: "as".into(),
                    detail: "this form takes one answer per person: say who is answering".into(),
                })?,
        )
    };
    let (mut document, assets) = load(db, blobs, form).await?;
    let questions = fields::questions(&document.fields);
    let checked = answer_rules::check(&questions, &submission.answers)?;
    let summary = answer_rules::summary(&questions, &checked);
    answer_rules::fill(&mut document, &checked);
    let owner = accounts::account(db, &form.account_id).await?;
    if !owner.plan.forms {
        // The owner's plan lapsed to one without forms: the link stops taking answers,
        // as a lapsed plan stops the owner's integrations.
        return Err(Error::Conflict(format!(
            "the form {} is not taking answers: its owner's plan does not include forms",
            form.doc.id
        )));
    }
    let submitted = now();
    let title = match &from {
        Some(f) => format!("{} — response from {f}", form.doc.title),
        None => format!("{} — response", form.doc.title),
    };
    let content = Content {
        document,
        assets,
        source: None,
        title: Some(title),
    };
    let id = crate::store::new_id();
    let charged_to = Owner {
        account_id: &owner.id,
        quota: owner.plan.storage_quota,
    };
    let staged = documents::stage(db, blobs, charged_to, Kind::Paged, content, None).await?;
    let outcome = async {
        let mut tx = db.begin().await?;
        let copy = documents::create_in(
            &mut tx,
            charged_to,
            Kind::Paged,
            &staged,
        )
        .await?;
        let answers_json = serde_json::to_string(&checked).map_err(anyhow::Error::from)?;
        let inserted = sqlx::query(
            "INSERT INTO form_responses (id, form_id, respondent, via, submitted, document, answers, summary, once_key)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&id)
        .bind(&form.doc.id)
        .bind(&from)
        .bind(submission.via.as_str())
        .bind(submitted)
        .bind(&copy.id)
        .bind(&answers_json)
        .bind(&summary)
        .bind(&once_key)
        .execute(&mut *tx)
        .await;
        match inserted {
            Err(e) if is_unique_violation(&e) => {
                return Err(Error::Conflict(format!(
                    "{} has already answered this form, which takes one answer per person",
                    from.unwrap_or_default()
                )))
            }
            other => {
                other?;
            }
        }
        let opened =
            sqlx::query("UPDATE forms SET responses = responses + 1 WHERE doc_id = $1 AND is_open = 1")
                .bind(&form.doc.id)
                .execute(&mut *tx)
                .await?;
        if opened.rows_affected() == 0 {
            // Closed between our read and this write: the close wins.
            return Err(Error::Conflict(format!(
                "the form {} is closed and takes no new answers",
                form.doc.id
            )));
        }
        if form.settings.notify {
            let who = from
                .as_deref()
                .unwrap_or("someone who did not say who they are");
            mail::enqueue(
                &mut tx,
                &owner.id,
                Mail {
                    to: owner.email.clone(),
                    subject: format!("New response to {}", form.doc.title),
                    body: format!(
                        "{who} answered your form \"{}\" ({}).\n\n{summary}\n\nThis response: {}\nAll responses: {}\nThe filled copy: {}\n",
                        form.doc.title,
                        submission.via.as_str(),
                        urls.response(&form.doc.id, &id),
                        urls.form(&form.doc.id),
                        urls.document(&copy.id),
                    ),
                },
            )
            .await?;
        }
        let response = ResponseRow {
            id,
            form_id: form.doc.id.clone(),
            from,
            via: submission.via.as_str().to_string(),
            submitted,
            document: Some(copy.id),
            answers: checked,
            summary,
        };
        let data = serde_json::json!({
            "form": {"id": form.doc.id, "title": form.doc.title},
            "response": {
                "id": response.id,
                "as": response.from,
                "via": response.via,
                "document": response.document,
                "answers": response.answers,
                "summary": response.summary,
            },
        });
        webhooks::emit(&mut tx, &owner.id, Event::ResponseCreated, data).await?;
        tx.commit().await?;
        Ok(response)
    }
    .await;
    staged.settle(db, blobs, outcome).await
}

/// The form's responses, newest first.
pub async fn list(
    db: &Db,
    form_id: &str,
    limit: i64,
    offset: i64,
) -> Result<(i64, Vec<ResponseRow>)> {
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM form_responses WHERE form_id = $1")
        .bind(form_id)
        .fetch_one(&db.pool)
        .await?;
    let rows = sqlx::query(&format!(
        "SELECT {RESPONSE_COLUMNS} FROM form_responses WHERE form_id = $1
         ORDER BY submitted DESC, id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(form_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(&db.pool)
    .await?;
    let responses = rows.iter().map(row_to_response).collect::<Result<_>>()?;
    Ok((total, responses))
}

pub async fn one(db: &Db, form_id: &str, id: &str) -> Result<ResponseRow> {
    let row = sqlx::query(&format!(
        "SELECT {RESPONSE_COLUMNS} FROM form_responses WHERE form_id = $1 AND id = $2"
    ))
    .bind(form_id)
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("no response {id} to form {form_id}")))?;
    row_to_response(&row)
}

/// Removes a response; its filled copy goes to the bin unless `keep_document`. Returns the
/// binned document's id, if one was binned.
pub async fn delete(
    db: &Db,
    form: &FormRow,
    id: &str,
    keep_document: bool,
) -> Result<Option<String>> {
    let response = one(db, &form.doc.id, id).await?;
    let mut tx = db.begin().await?;
    let gone = sqlx::query("DELETE FROM form_responses WHERE id = $1 AND form_id = $2")
        .bind(id)
        .bind(&form.doc.id)
        .execute(&mut *tx)
        .await?;
    if gone.rows_affected() == 0 {
        return Err(Error::NotFound(format!(
            "no response {id} to form {}",
            form.doc.id
        )));
    }
    sqlx::query("UPDATE forms SET responses = responses - 1 WHERE doc_id = $1")
        .bind(&form.doc.id)
        .execute(&mut *tx)
        .await?;
    let mut binned = None;
    if !keep_document {
        if let Some(doc) = &response.document {
            if documents::bin_in(&mut tx, &form.account_id, doc).await? {
                binned = Some(doc.clone());
            }
        }
    }
    tx.commit().await?;
    Ok(binned)
}

/// All responses oldest first, for the CSV, as a stream so ten thousand rows never sit in
/// memory at once. It pages through them in chunks: one short query per chunk instead of
/// holding a connection (and, on SQLite, a read snapshot) for the whole download.
pub fn stream_all(
    db: Db,
    form_id: String,
) -> impl futures_util::Stream<Item = Result<ResponseRow>> + Send + 'static {
    use futures_util::StreamExt;
    const CHUNK: i64 = 1000;
    futures_util::stream::unfold(Some((f64::MIN, String::new())), move |cursor| {
        let (db, form_id) = (db.clone(), form_id.clone());
        async move {
            let (after_time, after_id) = cursor?;
            let rows = sqlx::query(&format!(
                "SELECT {RESPONSE_COLUMNS} FROM form_responses WHERE form_id = $1
                 AND (submitted > $2 OR (submitted = $2 AND id > $3))
                 ORDER BY submitted, id LIMIT $4"
            ))
            .bind(&form_id)
            .bind(after_time)
            .bind(&after_id)
            .bind(CHUNK)
            .fetch_all(&db.pool)
            .await;
            let rows = match rows {
                Ok(r) => r,
                Err(e) => return Some((vec![Err(e.into())], None)),
            };
            if rows.is_empty() {
                return None;
            }
            let batch: Vec<Result<ResponseRow>> = rows.iter().map(row_to_response).collect();
            let next = match batch.last() {
                Some(Ok(last)) if rows.len() as i64 == CHUNK => {
                    Some((last.submitted, last.id.clone()))
                }
                _ => None,
            };
            Some((batch, next))
        }
    })
    .flat_map(futures_util::stream::iter)
}
