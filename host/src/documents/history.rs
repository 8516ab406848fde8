//! A document's past and its time in the bin, as its owner sees them in the browser: the
//! versions kept, the content of any one of them (to look at, or to restore as a new
//! version), and the bin with its restore and purge.

use quire_sdk::{Asset, Document};
use sqlx::Row;

use super::{get, model_and_assets, purge, row_to_doc, Content, DocRow, DOC_COLUMNS};
use crate::error::{Error, Result};
use crate::store::{now, Blobs, Db, Tx};
use crate::webhooks::{self, Event};

/// One stored version of a document.
#[derive(Debug, Clone)]
pub struct VersionRow {
    pub version: i64,
    pub title: String,
    pub pages: i64,
    pub shapes: i64,
    /// The bytes this version added to the account's storage.
    pub size: i64,
    pub created: f64,
    /// The media type of the file it was made from; none for an edit or a model.
    pub source_type: Option<String>,
}

/// The versions of one of the account's documents, newest first, at most `limit` of them,
/// and how many there are.
pub async fn versions(
    db: &Db,
    account_id: &str,
    id: &str,
    limit: i64,
) -> Result<(i64, Vec<VersionRow>)> {
    get(db, account_id, id).await?;
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM document_versions WHERE doc_id = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await?;
    let rows = sqlx::query(
        "SELECT version, title, pages, shapes, size, created, source_type FROM document_versions
         WHERE doc_id = $1 ORDER BY version DESC LIMIT $2",
    )
    .bind(id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    let versions = rows
        .iter()
        .map(|r| {
            Ok(VersionRow {
                version: r.try_get("version")?,
                title: r.try_get("title")?,
                pages: r.try_get("pages")?,
                shapes: r.try_get("shapes")?,
                size: r.try_get("size")?,
                created: r.try_get("created")?,
                source_type: r.try_get("source_type")?,
            })
        })
        .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
    Ok((total, versions))
}

/// The model and assets of one version of one of the account's documents.
pub async fn load_version(
    db: &Db,
    blobs: &Blobs,
    account_id: &str,
    id: &str,
    version: i64,
) -> Result<(DocRow, Document, Vec<Asset>)> {
    let doc = get(db, account_id, id).await?;
    let (document, assets) = model_and_assets(db, blobs, id, version).await?;
    Ok((doc, document, assets))
}

/// Everything one version holds (model, assets, the file it came from, its title), as the
/// content of a create or replace: restoring it is storing it again as the newest version.
pub async fn version_content(
    db: &Db,
    blobs: &Blobs,
    account_id: &str,
    id: &str,
    version: i64,
) -> Result<(DocRow, Content)> {
    let doc = get(db, account_id, id).await?;
    let row = sqlx::query(
        "SELECT title, source_blob, source_type FROM document_versions WHERE doc_id = $1 AND version = $2",
    )
    .bind(id)
    .bind(version)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("document {id} has no version {version}")))?;
    let (document, assets) = model_and_assets(db, blobs, id, version).await?;
    let source_blob: Option<String> = row.try_get("source_blob")?;
    let source_type: Option<String> = row.try_get("source_type")?;
    let source = match (source_blob, source_type) {
        (Some(blob), Some(media_type)) => Some((blobs.get(&blob).await?, media_type)),
        _ => None,
    };
    Ok((
        doc,
        Content {
            document,
            assets,
            source,
            title: Some(row.try_get("title")?),
        },
    ))
}

/// A document in the bin, and when it goes for good.
#[derive(Debug, Clone)]
pub struct Binned {
    pub doc: DocRow,
    pub binned_at: f64,
    pub purge_at: f64,
}

/// The account's binned documents, most recently binned first (at most `limit`), and how
/// many there are.
pub async fn binned(db: &Db, account_id: &str, limit: i64) -> Result<(i64, Vec<Binned>)> {
    let total: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM documents WHERE account_id = $1 AND binned_at IS NOT NULL",
    )
    .bind(account_id)
    .fetch_one(&db.pool)
    .await?;
    let columns = DOC_COLUMNS
        .split(", ")
        .map(|c| format!("d.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let rows = sqlx::query(&format!(
        "SELECT {columns}, d.binned_at, a.retention_days FROM documents d JOIN accounts a ON a.id = d.account_id
         WHERE d.account_id = $1 AND d.binned_at IS NOT NULL ORDER BY d.binned_at DESC, d.id LIMIT $2"
    ))
    .bind(account_id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    let binned = rows
        .iter()
        .map(|r| {
            let binned_at: f64 = r.try_get("binned_at")?;
            let days: i64 = r.try_get("retention_days")?;
            Ok(Binned {
                doc: row_to_doc(r)?,
                binned_at,
                purge_at: binned_at + days as f64 * 86_400.0,
            })
        })
        .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
    Ok((total, binned))
}

/// What a webhook event says of a document, from a row `RETURNING` [`EVENT_COLUMNS`].
const EVENT_COLUMNS: &str = "account_id, id, kind, title, version";

fn event_data(row: &sqlx::any::AnyRow) -> Result<(String, serde_json::Value)> {
    Ok((
        row.try_get("account_id")?,
        serde_json::json!({
            "id": row.try_get::<String, _>("id")?,
            "kind": row.try_get::<String, _>("kind")?,
            "title": row.try_get::<String, _>("title")?,
            "version": row.try_get::<i64, _>("version")?,
        }),
    ))
}

/// Moves a document to the bin; it is kept for the account's retention days.
pub async fn bin(db: &Db, account_id: &str, id: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    if !bin_in(&mut tx, account_id, id).await? {
        return Err(Error::NotFound(format!("no document {id}")));
    }
    tx.commit().await?;
    Ok(())
}

/// [`bin`] inside the caller's transaction; false when there was no such document out of
/// the bin.
pub async fn bin_in(tx: &mut Tx<'_>, account_id: &str, id: &str) -> Result<bool> {
    let row = sqlx::query(&format!(
        "UPDATE documents SET binned_at = $1 WHERE id = $2 AND account_id = $3 AND binned_at IS NULL
         RETURNING {EVENT_COLUMNS}"
    ))
    .bind(now())
    .bind(id)
    .bind(account_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else {
        return Ok(false);
    };
    let (_, data) = event_data(&row)?;
    webhooks::emit(tx, account_id, Event::DocumentBinned, data).await?;
    Ok(true)
}

/// Takes one of the account's documents out of the bin.
pub async fn restore_own(db: &Db, account_id: &str, id: &str) -> Result<()> {
    unbin(db, id, Some(account_id)).await
}

/// Takes a document out of the bin (an operator action).
pub async fn restore(db: &Db, id: &str) -> Result<()> {
    unbin(db, id, None).await
}

async fn unbin(db: &Db, id: &str, account_id: Option<&str>) -> Result<()> {
    let mut tx = db.begin().await?;
    let row = sqlx::query(&format!(
        "UPDATE documents SET binned_at = NULL WHERE id = $1 AND ($2 IS NULL OR account_id = $2)
         AND binned_at IS NOT NULL RETURNING {EVENT_COLUMNS}"
    ))
    .bind(id)
    .bind(account_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::NotFound(format!("no binned document {id}")))?;
    let (owner, data) = event_data(&row)?;
    webhooks::emit(&mut tx, &owner, Event::DocumentRestored, data).await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes one of the account's binned documents now instead of at the end of retention.
/// `dependents` as for [`super::purge_expired`].
pub async fn purge_now(
    db: &Db,
    blobs: &Blobs,
    account_id: &str,
    id: &str,
    dependents: &[&str],
) -> Result<()> {
    let binned: Option<f64> = sqlx::query_scalar(
        "SELECT binned_at FROM documents WHERE id = $1 AND account_id = $2 AND binned_at IS NOT NULL",
    )
    .bind(id)
    .bind(account_id)
    .fetch_optional(&db.pool)
    .await?;
    if binned.is_none_or(|at| at > now()) {
        return Err(Error::NotFound(format!("no binned document {id}")));
    }
    purge(db, blobs, id, account_id, dependents).await
}
