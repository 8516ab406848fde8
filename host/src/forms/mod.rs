//! Forms: a document with fields, plus whether it takes answers and how. The fields live in
//! the document's model (so every export, the PDF's AcroForm included, shows them); the
//! `forms` row holds the settings, the question count and the CSV's column order. Every
//! change that touches both commits in one transaction.

pub mod answer_rules;
pub mod csv;
pub mod detect;
pub mod fields;
pub mod responses;
pub mod shares;
pub mod signature;

use quire_sdk::{Asset, Document, Field, Kind};
use sqlx::Row;

use crate::documents::{self, Content, DocRow, Owner};
use crate::error::{Error, Result};
use crate::store::{Blobs, Db, Tx};
use crate::webhooks::{self, Event};

/// How a form behaves. `configured` says whether PATCH has set anything, which is when
/// the contract shows `multiple` and `confirm`.
#[derive(Debug, Clone)]
pub struct Settings {
    pub open: bool,
    pub multiple: bool,
    pub notify: bool,
    pub confirm: Option<String>,
    pub configured: bool,
}

/// A form as the API lists it.
#[derive(Debug, Clone)]
pub struct FormRow {
    pub doc: DocRow,
    pub account_id: String,
    pub settings: Settings,
    /// Distinct questions.
    pub questions: i64,
    pub responses: i64,
    /// Every key the form has asked, in first-seen order (the CSV's columns).
    pub columns: Vec<String>,
}

/// The longest text a respondent reads after sending (`Patch::confirm`).
pub const MAX_CONFIRM_CHARS: usize = 5000;

/// What PATCH may change; `None` leaves a setting alone.
#[derive(Debug, Default)]
pub struct Patch {
    pub open: Option<bool>,
    pub multiple: Option<bool>,
    pub notify: Option<bool>,
    pub confirm: Option<String>,
}

/// What a purged document takes with it from the forms' tables ($1 is its id): a purged
/// form its answers, invitations and settings; a purged filled copy leaves its response
/// without a document. `documents::purge_expired` runs these in its transaction.
pub const DOCUMENT_DEPENDENTS: &[&str] = &[
    "DELETE FROM form_shares WHERE form_id = $1",
    "DELETE FROM form_responses WHERE form_id = $1",
    "DELETE FROM forms WHERE doc_id = $1",
    "UPDATE form_responses SET document = NULL WHERE document = $1",
];

/// The text a respondent sees after Send when the owner has not written one.
pub const DEFAULT_CONFIRM: &str = "Thank you. Your answers have been sent.";

const FORM_COLUMNS: &str =
    "d.id, d.title, d.kind, d.pages, d.shapes, d.version, d.created, d.updated, d.account_id,
     f.is_open, f.multiple, f.notify, f.confirm, f.configured, f.questions, f.responses, f.columns";

fn row_to_form(row: &sqlx::any::AnyRow) -> Result<FormRow> {
    let kind: String = row.try_get("kind")?;
    let columns: String = row.try_get("columns")?;
    Ok(FormRow {
        doc: DocRow {
            id: row.try_get("id")?,
            title: row.try_get("title")?,
            kind: if kind == "diagram" {
                Kind::Diagram
            } else {
                Kind::Paged
            },
            pages: row.try_get("pages")?,
            shapes: row.try_get("shapes")?,
            version: row.try_get("version")?,
            created: row.try_get("created")?,
            updated: row.try_get("updated")?,
        },
        account_id: row.try_get("account_id")?,
        settings: Settings {
            open: row.try_get::<i64, _>("is_open")? != 0,
            multiple: row.try_get::<i64, _>("multiple")? != 0,
            notify: row.try_get::<i64, _>("notify")? != 0,
            confirm: row.try_get("confirm")?,
            configured: row.try_get::<i64, _>("configured")? != 0,
        },
        questions: row.try_get("questions")?,
        responses: row.try_get("responses")?,
        columns: serde_json::from_str(&columns).map_err(anyhow::Error::from)?,
    })
}

fn not_found(id: &str) -> Error {
    Error::NotFound(format!("no form {id}"))
}

/// Makes `content` a new form with `placed` fields (or the fields the source carried).
pub async fn create(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    mut content: Content,
    placed: Option<Vec<Field>>,
) -> Result<FormRow> {
    if let Some(placed) = placed {
        content.document.fields = placed;
    }
    let fields = content.document.fields.clone();
    fields::check_questions(&fields, "fields")?;
    let mut columns = Vec::new();
    fields::extend_columns(&mut columns, &fields)?;
    let questions = fields::questions(&fields).len() as i64;
    let staged = documents::stage(db, blobs, owner, Kind::Paged, content, None).await?;
    let outcome = async {
        let mut tx = db.begin().await?;
        let doc = documents::create_in(&mut tx, owner, Kind::Paged, &staged).await?;
        sqlx::query(
            "INSERT INTO forms (doc_id, account_id, questions, columns, created) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&doc.id)
        .bind(owner.account_id)
        .bind(questions)
        .bind(serde_json::to_string(&columns).map_err(anyhow::Error::from)?)
        .bind(doc.created)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(doc)
    }
    .await;
    let doc = staged.settle(db, blobs, outcome).await?;
    get(db, owner.account_id, &doc.id).await
}

/// One of the account's forms (not in the bin).
pub async fn get(db: &Db, account_id: &str, id: &str) -> Result<FormRow> {
    let row = sqlx::query(&format!(
        "SELECT {FORM_COLUMNS} FROM forms f JOIN documents d ON d.id = f.doc_id
         WHERE f.doc_id = $1 AND d.account_id = $2 AND d.binned_at IS NULL"
    ))
    .bind(id)
    .bind(account_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| not_found(id))?;
    row_to_form(&row)
}

/// A form by id alone, for its public page: whoever holds the link may answer.
pub async fn get_public(db: &Db, id: &str) -> Result<FormRow> {
    let row = sqlx::query(&format!(
        "SELECT {FORM_COLUMNS} FROM forms f JOIN documents d ON d.id = f.doc_id
         WHERE f.doc_id = $1 AND d.binned_at IS NULL"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| not_found(id))?;
    row_to_form(&row)
}

/// The form's current model and assets.
pub async fn load(db: &Db, blobs: &Blobs, form: &FormRow) -> Result<(Document, Vec<Asset>)> {
    let (_, document, assets) = documents::load(db, blobs, &form.account_id, &form.doc.id).await?;
    Ok((document, assets))
}

/// The form's model without its pictures (what its page and questions are drawn from).
pub async fn load_model(db: &Db, blobs: &Blobs, form: &FormRow) -> Result<Document> {
    let (_, document) = documents::load_model(db, blobs, &form.account_id, &form.doc.id).await?;
    Ok(document)
}

/// The form's questions now: one per key, in the order keys first appear.
pub async fn questions(db: &Db, blobs: &Blobs, form: &FormRow) -> Result<Vec<Field>> {
    let document = load_model(db, blobs, form).await?;
    Ok(fields::questions(&document.fields))
}

/// The account's forms, newest first, optionally only open or only closed ones.
pub async fn list(
    db: &Db,
    account_id: &str,
    open: Option<bool>,
    limit: i64,
    offset: i64,
) -> Result<(i64, Vec<FormRow>)> {
    let (filter, state) = match open {
        Some(o) => ("AND f.is_open = $2", i64::from(o)),
        None => ("AND $2 = $2", 0),
    };
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM forms f JOIN documents d ON d.id = f.doc_id
         WHERE d.account_id = $1 AND d.binned_at IS NULL {filter}"
    ))
    .bind(account_id)
    .bind(state)
    .fetch_one(&db.pool)
    .await?;
    let rows = sqlx::query(&format!(
        "SELECT {FORM_COLUMNS} FROM forms f JOIN documents d ON d.id = f.doc_id
         WHERE d.account_id = $1 AND d.binned_at IS NULL {filter}
         ORDER BY f.created DESC, f.doc_id LIMIT $3 OFFSET $4"
    ))
    .bind(account_id)
    .bind(state)
    .bind(limit)
    .bind(offset)
    .fetch_all(&db.pool)
    .await?;
    let forms = rows.iter().map(row_to_form).collect::<Result<_>>()?;
    Ok((total, forms))
}

/// Stores `content` (with its final fields) as the form's next version and brings the
/// question count and the columns along, in one transaction.
async fn store_version(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    form: &FormRow,
    expected: Option<i64>,
    content: Content,
) -> Result<()> {
    let fields = content.document.fields.clone();
    fields::check_questions(&fields, "fields")?;
    let mut columns = form.columns.clone();
    fields::extend_columns(&mut columns, &fields)?;
    let questions = fields::questions(&fields).len() as i64;
    let current =
        documents::current_of_kind(db, owner.account_id, &form.doc.id, Kind::Paged, expected)
            .await?;
    let staged =
        documents::stage(db, blobs, owner, Kind::Paged, content, Some(&current.title)).await?;
    let outcome = async {
        let mut tx: Tx<'_> = db.begin().await?;
        documents::replace_in(&mut tx, owner, &current, expected, &staged).await?;
        sqlx::query("UPDATE forms SET questions = $1, columns = $2 WHERE doc_id = $3")
            .bind(questions)
            .bind(serde_json::to_string(&columns).map_err(anyhow::Error::from)?)
            .bind(&form.doc.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    staged.settle(db, blobs, outcome).await
}

/// What a new version of a form does with the form's fields.
#[derive(Debug)]
pub enum NewFields {
    /// The new content's own; when it brings none, the form's current fields that still fit
    /// the new pages (the others are named in the warnings). A file knows nothing of the
    /// fields placed on the form, so replacing the file keeps them.
    KeptUnlessGiven,
    /// Exactly these, none included: fields placed through the API, or the editor's model,
    /// in which deleting every field means it.
    Exactly(Vec<Field>),
}

/// Replaces what the form is made of, its fields as `fields` says. Returns the form and
/// warnings naming fields that no longer fit.
pub async fn replace_form(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    id: &str,
    expected: Option<i64>,
    mut content: Content,
    fields: NewFields,
) -> Result<(FormRow, Vec<String>)> {
    let form = get(db, owner.account_id, id).await?;
    let mut warnings = Vec::new();
    match fields {
        NewFields::Exactly(given) => content.document.fields = given,
        NewFields::KeptUnlessGiven if !content.document.fields.is_empty() => {}
        NewFields::KeptUnlessGiven => {
            let (old, _) = load(db, blobs, &form).await?;
            for f in old.fields {
                let fits = content
                    .document
                    .pages
                    .get((f.page as usize).wrapping_sub(1))
                    .is_some_and(|p| {
                        f.frame.x + f.frame.w <= p.width + 0.5
                            && f.frame.y + f.frame.h <= p.height + 0.5
                    });
                if fits {
                    content.document.fields.push(f);
                } else {
                    warnings.push(format!(
                        "field `{}` on page {} no longer fits the new pages and was dropped",
                        f.key, f.page
                    ));
                }
            }
        }
    }
    store_version(db, blobs, owner, &form, expected, content).await?;
    Ok((get(db, owner.account_id, id).await?, warnings))
}

/// Places `placed` on the form, after its fields when `keep`, instead of them otherwise.
/// Returns the form and every box it now has.
pub async fn set_fields(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    id: &str,
    expected: Option<i64>,
    placed: Vec<Field>,
    keep: bool,
) -> Result<(FormRow, Vec<Field>)> {
    let form = get(db, owner.account_id, id).await?;
    let (mut document, assets) = load(db, blobs, &form).await?;
    if keep {
        document.fields.extend(placed);
    } else {
        document.fields = placed;
    }
    let all = document.fields.clone();
    let content = Content {
        document,
        assets,
        source: None,
        title: None,
    };
    store_version(db, blobs, owner, &form, expected, content).await?;
    Ok((get(db, owner.account_id, id).await?, all))
}

pub async fn patch(db: &Db, account_id: &str, id: &str, patch: Patch) -> Result<FormRow> {
    if patch
        .confirm
        .as_ref()
        .is_some_and(|c| c.chars().count() > MAX_CONFIRM_CHARS)
    {
        return Err(Error::InvalidField {
            field: "confirm".into(),
            detail: format!("the text is longer than {MAX_CONFIRM_CHARS} characters"),
        });
    }
    let form = get(db, account_id, id).await?;
    let s = form.settings;
    let confirm = match patch.confirm {
        Some(c) if c.trim().is_empty() => None,
        Some(c) => Some(c),
        None => s.confirm,
    };
    let mut tx = db.begin().await?;
    if patch.open == Some(false) {
        // Only the change that closes an open form reports it, however many race.
        let closed = sqlx::query("UPDATE forms SET is_open = 0 WHERE doc_id = $1 AND is_open = 1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if closed.rows_affected() > 0 {
            let data = serde_json::json!({
                "id": form.doc.id,
                "title": form.doc.title,
                "responses": form.responses,
            });
            webhooks::emit(&mut tx, account_id, Event::FormClosed, data).await?;
        }
    }
    sqlx::query(
        "UPDATE forms SET is_open = $1, multiple = $2, notify = $3, confirm = $4, configured = 1
         WHERE doc_id = $5",
    )
    .bind(i64::from(patch.open.unwrap_or(s.open)))
    .bind(i64::from(patch.multiple.unwrap_or(s.multiple)))
    .bind(i64::from(patch.notify.unwrap_or(s.notify)))
    .bind(confirm)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    get(db, account_id, id).await
}

/// A new version of any document, which may be a form: a form's version keeps its
/// question bookkeeping and takes its fields as `fields` says (see [`replace_form`]); any
/// other document is replaced as it is. The document endpoints' PUT and a restored version
/// keep the form's fields ([`NewFields::KeptUnlessGiven`]).
#[allow(clippy::too_many_arguments)]
pub async fn replace_document(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    id: &str,
    kind: Kind,
    expected: Option<i64>,
    content: Content,
    fields: NewFields,
) -> Result<(DocRow, Vec<String>)> {
    if is_form(db, id).await? {
        let (form, dropped) = replace_form(db, blobs, owner, id, expected, content, fields).await?;
        return Ok((form.doc, dropped));
    }
    let row = documents::replace(db, blobs, owner, id, kind, expected, content).await?;
    Ok((row, Vec::new()))
}

/// The editor's save: [`replace_document`] with the edited model's fields exactly as they
/// are, none included.
pub async fn save_edit(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    id: &str,
    kind: Kind,
    expected: Option<i64>,
    content: Content,
) -> Result<(DocRow, Vec<String>)> {
    let edited = NewFields::Exactly(content.document.fields.clone());
    replace_document(db, blobs, owner, id, kind, expected, content, edited).await
}

/// Makes one of the account's PDF-kind documents a form, asking the questions its fields
/// ask. It takes answers at once, as a form created through the API does.
pub async fn adopt(db: &Db, blobs: &Blobs, account_id: &str, id: &str) -> Result<FormRow> {
    let (doc, document, _) = documents::load(db, blobs, account_id, id).await?;
    if doc.kind != Kind::Paged {
        return Err(Error::Invalid(
            "only a PDF-kind document can be a form; a diagram has no pages to fill".into(),
        ));
    }
    if is_form(db, id).await? {
        return Err(Error::Conflict(format!("{id} is a form already")));
    }
    fields::check_questions(&document.fields, "fields")?;
    let mut columns = Vec::new();
    fields::extend_columns(&mut columns, &document.fields)?;
    let questions = fields::questions(&document.fields).len() as i64;
    sqlx::query(
        "INSERT INTO forms (doc_id, account_id, questions, columns, created) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(account_id)
    .bind(questions)
    .bind(serde_json::to_string(&columns).map_err(anyhow::Error::from)?)
    .bind(crate::store::now())
    .execute(&db.pool)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            Error::Conflict(format!("{id} is a form already"))
        }
        e => e.into(),
    })?;
    get(db, account_id, id).await
}

/// Whether `id` is a form at all (a form's document is also reachable as a document).
pub async fn is_form(db: &Db, id: &str) -> Result<bool> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM forms WHERE doc_id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await?;
    Ok(n > 0)
}

#[cfg(test)]
mod tests;
