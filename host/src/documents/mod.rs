//! Stored documents: create, replace (a new version, never an overwrite), list, fetch,
//! bin, restore and purge, with the account's storage kept in step in the same
//! transaction. Blobs are written (and synced) before the rows that name them commit.

use quire_sdk::{Asset, Document, Kind};
use sqlx::Row;

use crate::error::{Error, Result};
use crate::metrics::Serial;
use crate::store::{now, Blobs, Db, Pin, Refusal, Script, ScriptError, Statement};

use crate::store::Tx;
use crate::webhooks::{self, Event};

mod history;
mod known;
pub use known::KnownDocuments;

pub use history::{
    bin, bin_in, binned, load_version, purge_now, restore, restore_own, version_content, versions,
    Binned, VersionRow,
};

/// A document as the API lists it.
#[derive(Debug, Clone)]
pub struct DocRow {
    pub id: String,
    pub title: String,
    pub kind: Kind,
    pub pages: i64,
    pub shapes: i64,
    pub version: i64,
    pub created: f64,
    pub updated: f64,
}

impl DocRow {
    /// What a webhook event about the document says of it.
    pub fn event_data(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "kind": self.kind.as_str(),
            "title": self.title,
            "version": self.version,
        })
    }
}

/// Whose storage a write is charged to, and the quota it must stay within.
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    pub account_id: &'a str,
    pub quota: Option<i64>,
}

impl<'a> Owner<'a> {
    /// The account as the owner of what it writes, held to its plan's storage quota.
    pub fn of(account: &'a crate::accounts::Account) -> Self {
        Owner {
            account_id: &account.id,
            quota: account.plan.storage_quota,
        }
    }
}

/// What a create or replace stores.
pub struct Content {
    pub document: Document,
    pub assets: Vec<Asset>,
    /// The uploaded file and its media type, kept in the history beside the model.
    pub source: Option<(Vec<u8>, String)>,
    pub title: Option<String>,
}

/// The version a freshly created document reports (the contract: "a freshly created
/// document reports 2").
pub const FIRST_VERSION: i64 = 2;

pub(crate) fn kind_from(s: &str) -> Kind {
    if s == "diagram" {
        Kind::Diagram
    } else {
        Kind::Paged
    }
}

pub(crate) fn row_to_doc(row: &sqlx::any::AnyRow) -> std::result::Result<DocRow, sqlx::Error> {
    Ok(DocRow {
        id: row.try_get("id")?,
        title: row.try_get("title")?,
        kind: kind_from(&row.try_get::<String, _>("kind")?),
        pages: row.try_get("pages")?,
        shapes: row.try_get("shapes")?,
        version: row.try_get("version")?,
        created: row.try_get("created")?,
        updated: row.try_get("updated")?,
    })
}

pub(crate) const DOC_COLUMNS: &str = "id, title, kind, pages, shapes, version, created, updated";

pub fn default_title(kind: Kind) -> &'static str {
    match kind {
        Kind::Paged => "Untitled PDF",
        Kind::Diagram => "Untitled diagram",
    }
}

/// Blobs written for one version, and the bytes they count against storage.
struct Written {
    model: String,
    source: Option<(String, String)>,
    assets: Vec<(String, String, String)>,
    size: i64,
}

/// A version ready to be recorded: its title settled and its blobs already in the blob
/// store, pinned until the transaction that names them commits. Staging happens before any
/// transaction begins, so no database lock is held while bytes travel to the blob store,
/// and a blob store that is down refuses the write before a row could name a missing blob.
pub struct Staged {
    title: String,
    pages: i64,
    shapes: i64,
    written: Written,
    pin: Pin,
}

impl Staged {
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Passes on the outcome of the transaction that was to name the staged blobs; when
    /// it failed, the blobs nothing else names are removed before the caller answers, so
    /// a refused write (507, 409, a closed form) leaves nothing behind in the blob store.
    pub async fn settle<T>(&self, db: &Db, blobs: &Blobs, outcome: Result<T>) -> Result<T> {
        if outcome.is_err() {
            self.pin.abandon(db, blobs).await;
        }
        outcome
    }
}

/// The longest title a document keeps. Titles are shown in lists, mail subjects and the
/// public page; one taken from a file's heading or metadata is cut to this.
pub const MAX_TITLE_CHARS: usize = 500;

fn bounded_title(title: String) -> String {
    if title.chars().count() <= MAX_TITLE_CHARS {
        return title;
    }
    let cut = title
        .char_indices()
        .nth(MAX_TITLE_CHARS - 1)
        .map_or(title.len(), |(at, _)| at);
    format!("{}…", title[..cut].trim_end())
}

/// Settles the title of `content` as a document of `kind` (the upload's title, else the
/// model's, else `fallback_title`, else the kind's default), checks that the owner's
/// storage can take it, and writes its blobs.
///
/// A version is charged the bytes it adds to what the owner already stores: its model,
/// and each source or asset the owner holds nowhere else. A form's filled copies and a
/// replace that keeps its pictures cost their models, not their scans again.
pub async fn stage(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    kind: Kind,
    mut content: Content,
    fallback_title: Option<&str>,
) -> Result<Staged> {
    content.document.kind = kind;
    let title = content
        .title
        .clone()
        .or_else(|| content.document.title.clone())
        .filter(|t| !t.trim().is_empty())
        .or_else(|| fallback_title.map(str::to_string))
        .unwrap_or_else(|| default_title(kind).to_string());
    let title = bounded_title(title);
    content.document.title = Some(title.clone());
    let model_json = serde_json::to_vec(&content.document).map_err(anyhow::Error::from)?;

    // Digests of the source and the assets, in that order, hashed once.
    let parts: Vec<&[u8]> = content
        .source
        .iter()
        .map(|(bytes, _)| bytes.as_slice())
        .chain(content.assets.iter().map(|a| a.bytes.as_slice()))
        .collect();
    let mut digests = Vec::with_capacity(parts.len());
    for bytes in &parts {
        digests.push(Blobs::digest_of(bytes).await);
    }
    let mut size = model_json.len() as i64;
    let mut counted = std::collections::BTreeSet::new();
    for (bytes, digest) in parts.iter().zip(&digests) {
        if counted.insert(digest) && !already_held(db, owner.account_id, digest).await? {
            size += bytes.len() as i64;
        }
    }
    check_room(db, owner, size).await?;

    let mut pin = Pin::new();
    let written = async {
        let model = Blobs::digest_of(&model_json).await;
        let every: Vec<(&str, &[u8])> = std::iter::once((model.as_str(), &model_json[..]))
            .chain(
                digests
                    .iter()
                    .map(String::as_str)
                    .zip(parts.iter().copied()),
            )
            .collect();
        pin.put_all(db, blobs, &every).await?;
        let mut named = digests.iter().cloned();
        let source = content
            .source
            .as_ref()
            .and_then(|(_, media_type)| Some((named.next()?, media_type.clone())));
        let assets = content
            .assets
            .iter()
            .zip(named)
            .map(|(a, digest)| (a.name.clone(), a.media_type.clone(), digest))
            .collect();
        Ok::<_, crate::store::BlobError>(Written {
            model,
            source,
            assets,
            size,
        })
    }
    .await;
    let written = match written {
        Ok(w) => w,
        Err(e) => {
            pin.abandon(db, blobs).await;
            return Err(e.into());
        }
    };
    Ok(Staged {
        pages: content.document.pages.len() as i64,
        shapes: content.document.shapes().count() as i64,
        title,
        written,
        pin,
    })
}

/// Whether a version of one of the account's documents (binned ones included) names the
/// blob `digest` as its source or an asset.
async fn already_held(db: &Db, account_id: &str, digest: &str) -> Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM document_assets a JOIN documents d ON d.id = a.doc_id
                                       WHERE a.blob = $1 AND d.account_id = $2 LIMIT 1) held_as_asset)
              + (SELECT COUNT(*) FROM (SELECT 1 FROM document_versions v JOIN documents d ON d.id = v.doc_id
                                       WHERE v.source_blob = $1 AND d.account_id = $2 LIMIT 1) held_as_source)",
    )
    .bind(digest)
    .bind(account_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}

/// Refuses, before a byte is written, a version the owner's storage cannot take. The
/// charge inside the transaction stays the authority (two writes may pass this check
/// together); this keeps a loop of refused writes from costing disk.
async fn check_room(db: &Db, owner: Owner<'_>, size: i64) -> Result<()> {
    if owner.quota.is_none() {
        return Ok(());
    }
    let used = storage_used(&db.pool, owner.account_id).await?;
    match over_quota(owner, size, used) {
        Some(full) => Err(full),
        None => Ok(()),
    }
}

async fn storage_used<'e>(
    reader: impl sqlx::Executor<'e, Database = sqlx::Any>,
    account_id: &str,
) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT storage_used FROM accounts WHERE id = $1")
            .bind(account_id)
            .fetch_one(reader)
            .await?,
    )
}

/// "Storage full" when `size` more bytes do not fit beside `used` in the owner's quota.
fn over_quota(Owner { quota, .. }: Owner<'_>, size: i64, used: i64) -> Option<Error> {
    let quota = quota?;
    (used + size > quota).then(|| Error::StorageFull {
        needed: size,
        left: (quota - used).max(0),
        quota,
    })
}

/// The statement that adds `size` to the account's storage, refusing the write past the
/// quota ([`Refusal::OverQuota`]). On Postgres it locks the account's row until the
/// transaction ends, so every other write of the account waits (SQLite's writers take
/// turns anyway): scripts end with it.
fn storage_charge(Owner { account_id, quota }: Owner<'_>, size: i64) -> Statement {
    let statement = match quota {
        Some(q) => Statement::new(
            "UPDATE accounts SET storage_used = storage_used + $1 WHERE id = $2 AND storage_used + $1 <= $3",
            vec![size.into(), account_id.into(), q.into()],
        ),
        None => Statement::new(
            "UPDATE accounts SET storage_used = storage_used + $1 WHERE id = $2",
            vec![size.into(), account_id.into()],
        ),
    };
    statement
        .expecting(1, Refusal::OverQuota)
        .serial_from_here(Serial::AccountRow)
}

/// The statements that record `staged` as `version` of the document `id`.
fn version_statements(script: &mut Script, id: &str, version: i64, staged: &Staged, at: f64) {
    script.statements.extend(staged.pin.release());
    let w = &staged.written;
    let (source_blob, source_type) = match &w.source {
        Some((b, t)) => (Some(b.as_str()), Some(t.as_str())),
        None => (None, None),
    };
    script.push(Statement::new(
        "INSERT INTO document_versions (doc_id, version, title, model_blob, source_blob, source_type, pages, shapes, size, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        vec![
            id.into(),
            version.into(),
            staged.title.as_str().into(),
            w.model.as_str().into(),
            source_blob.into(),
            source_type.into(),
            staged.pages.into(),
            staged.shapes.into(),
            w.size.into(),
            at.into(),
        ],
    ));
    for (name, media_type, blob) in &w.assets {
        script.push(Statement::new(
            "INSERT INTO document_assets (doc_id, version, name, media_type, blob) VALUES ($1, $2, $3, $4, $5)",
            vec![id.into(), version.into(), name.into(), media_type.into(), blob.into()],
        ));
    }
}

/// What a refused write script means for the caller. `reader` looks up what the answer
/// reports (the storage left, the version another write made); `document` is the
/// document and version a replace expected.
async fn refused<'e>(
    e: ScriptError,
    reader: impl sqlx::Executor<'e, Database = sqlx::Any>,
    owner: Owner<'_>,
    staged: &Staged,
    document: Option<(&str, i64)>,
) -> Error {
    let answer = async {
        match (e.refusal(), document) {
            (Some(Refusal::OverQuota), _) => {
                let used = storage_used(reader, owner.account_id).await?;
                Ok(
                    over_quota(owner, staged.written.size, used).unwrap_or_else(|| {
                        // The storage was freed since: still refused, this write is gone.
                        Error::StorageFull {
                            needed: staged.written.size,
                            left: 0,
                            quota: owner.quota.unwrap_or(0),
                        }
                    }),
                )
            }
            (Some(Refusal::BlobsTaken), _) => Ok(staged.pin.release_failed(e).into()),
            (Some(Refusal::Moved), Some((id, expected))) => {
                let current: i64 =
                    sqlx::query_scalar("SELECT version FROM documents WHERE id = $1")
                        .bind(id)
                        .fetch_one(reader)
                        .await?;
                Ok(Error::VersionConflict { current, expected })
            }
            _ => Ok(e.into()),
        }
    };
    answer.await.unwrap_or_else(|e: Error| e)
}

/// The write that records a new document, and its row as it will read.
fn creation(owner: Owner<'_>, kind: Kind, staged: &Staged) -> (Script, DocRow) {
    let id = crate::store::new_ordered_id();
    let at = now();
    let mut script = Script::new();
    script.push(Statement::new(
        "INSERT INTO documents (id, account_id, kind, title, version, pages, shapes, created, updated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        vec![
            id.as_str().into(),
            owner.account_id.into(),
            kind.as_str().into(),
            staged.title.as_str().into(),
            FIRST_VERSION.into(),
            staged.pages.into(),
            staged.shapes.into(),
            at.into(),
            at.into(),
        ],
    ));
    version_statements(&mut script, &id, FIRST_VERSION, staged, at);
    let row = DocRow {
        id,
        title: staged.title.clone(),
        kind,
        pages: staged.pages,
        shapes: staged.shapes,
        version: FIRST_VERSION,
        created: at,
        updated: at,
    };
    reported(script, owner, Event::DocumentCreated, row, staged)
}

/// Ends the script of a version: the event that reports `row`, then the storage charge
/// (last, see [`storage_charge`]).
fn reported(
    mut script: Script,
    owner: Owner<'_>,
    event: Event,
    row: DocRow,
    staged: &Staged,
) -> (Script, DocRow) {
    script.push(webhooks::emitted(owner.account_id, event, row.event_data()));
    script.push(storage_charge(owner, staged.written.size));
    (script, row)
}

pub async fn create(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    kind: Kind,
    content: Content,
) -> Result<DocRow> {
    let staged = stage(db, blobs, owner, kind, content, None).await?;
    let (script, row) = creation(owner, kind, &staged);
    let outcome = match db.write(script).await {
        Ok(()) => Ok(row),
        Err(e) => Err(refused(e, &db.pool, owner, &staged, None).await),
    };
    staged.settle(db, blobs, outcome).await
}

/// [`create`] inside the caller's transaction, so a document and the rows that belong
/// with it (a form, a response) commit together or not at all.
pub async fn create_in(
    tx: &mut Tx<'_>,
    owner: Owner<'_>,
    kind: Kind,
    staged: &Staged,
) -> Result<DocRow> {
    let (script, row) = creation(owner, kind, staged);
    match tx.run(&script).await {
        Ok(()) => Ok(row),
        Err(e) => Err(refused(e, &mut **tx, owner, staged, None).await),
    }
}

/// A new version of an existing document of `kind`. `expected` (from If-Match) must be
/// the current version when given. The version is raised by a compare-and-swap, so two
/// racing replaces cannot both claim the same number.
pub async fn replace(
    db: &Db,
    blobs: &Blobs,
    owner: Owner<'_>,
    id: &str,
    kind: Kind,
    expected: Option<i64>,
    content: Content,
) -> Result<DocRow> {
    let current = current_of_kind(db, owner.account_id, id, kind, expected).await?;
    let staged = stage(db, blobs, owner, kind, content, Some(&current.title)).await?;
    let (script, row) = replacement(owner, &current, &staged);
    let outcome = match db.write(script).await {
        Ok(()) => Ok(row),
        Err(e) => {
            let expected = Some((id, expected.unwrap_or(current.version)));
            Err(refused(e, &db.pool, owner, &staged, expected).await)
        }
    };
    staged.settle(db, blobs, outcome).await
}

/// The document a replace starts from: the account's, of `kind`, at `expected` if given.
pub async fn current_of_kind(
    db: &Db,
    account_id: &str,
    id: &str,
    kind: Kind,
    expected: Option<i64>,
) -> Result<DocRow> {
    let current = get(db, account_id, id).await?;
    if current.kind != kind {
        return Err(Error::NotFound(format!(
            "no {} document {id}",
            kind.as_str()
        )));
    }
    if let Some(e) = expected {
        if e != current.version {
            return Err(Error::VersionConflict {
                current: current.version,
                expected: e,
            });
        }
    }
    Ok(current)
}

/// [`replace`] inside the caller's transaction: `current` (from [`current_of_kind`]) is
/// the version the new one follows; if another replace got there first, this one fails
/// with a version conflict and records nothing.
pub async fn replace_in(
    tx: &mut Tx<'_>,
    owner: Owner<'_>,
    current: &DocRow,
    expected: Option<i64>,
    staged: &Staged,
) -> Result<DocRow> {
    let (script, row) = replacement(owner, current, staged);
    match tx.run(&script).await {
        Ok(()) => Ok(row),
        Err(e) => {
            let expected = Some((current.id.as_str(), expected.unwrap_or(current.version)));
            Err(refused(e, &mut **tx, owner, staged, expected).await)
        }
    }
}

/// The write that records `staged` as the version after `current`, raising the version
/// only if it is still `current`'s ([`Refusal::Moved`] otherwise); and the row as it will
/// read.
fn replacement(owner: Owner<'_>, current: &DocRow, staged: &Staged) -> (Script, DocRow) {
    let at = now();
    let version = current.version + 1;
    let mut script = Script::new();
    script.push(
        Statement::new(
            "UPDATE documents SET version = $1, title = $2, pages = $3, shapes = $4, updated = $5
             WHERE id = $6 AND account_id = $7 AND version = $8 AND binned_at IS NULL",
            vec![
                version.into(),
                staged.title.as_str().into(),
                staged.pages.into(),
                staged.shapes.into(),
                at.into(),
                current.id.as_str().into(),
                owner.account_id.into(),
                current.version.into(),
            ],
        )
        .expecting(1, Refusal::Moved),
    );
    version_statements(&mut script, &current.id, version, staged, at);
    let row = DocRow {
        title: staged.title.clone(),
        pages: staged.pages,
        shapes: staged.shapes,
        version,
        updated: at,
        ..current.clone()
    };
    reported(script, owner, Event::DocumentReplaced, row, staged)
}

/// A document of the account that is not in the bin. Anyone else's is "not found".
pub async fn get(db: &Db, account_id: &str, id: &str) -> Result<DocRow> {
    let row = sqlx::query(&format!(
        "SELECT {DOC_COLUMNS} FROM documents WHERE id = $1 AND account_id = $2 AND binned_at IS NULL"
    ))
    .bind(id)
    .bind(account_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("no document {id}")))?;
    Ok(row_to_doc(&row)?)
}

/// The model and assets of the current version.
pub async fn load(
    db: &Db,
    blobs: &Blobs,
    account_id: &str,
    id: &str,
) -> Result<(DocRow, Document, Vec<Asset>)> {
    let doc = get(db, account_id, id).await?;
    let (document, assets) = model_and_assets(db, blobs, id, doc.version).await?;
    Ok((doc, document, assets))
}

/// [`load`] without the assets: what reads only the text, geometry and questions (the
/// public form page, a form's questions) need not fetch and verify every picture.
pub async fn load_model(
    db: &Db,
    blobs: &Blobs,
    account_id: &str,
    id: &str,
) -> Result<(DocRow, Document)> {
    let doc = get(db, account_id, id).await?;
    let document = model_of(db, blobs, id, doc.version).await?;
    Ok((doc, document))
}

/// The model stored for one version of a document.
async fn model_of(db: &Db, blobs: &Blobs, id: &str, version: i64) -> Result<Document> {
    let model_blob: String = sqlx::query_scalar(
        "SELECT model_blob FROM document_versions WHERE doc_id = $1 AND version = $2",
    )
    .bind(id)
    .bind(version)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| Error::NotFound(format!("document {id} has no version {version}")))?;
    let json = blobs.get(&model_blob).await?;
    Ok(serde_json::from_slice(&json).map_err(anyhow::Error::from)?)
}

/// The model and assets stored for one version of a document.
async fn model_and_assets(
    db: &Db,
    blobs: &Blobs,
    id: &str,
    version: i64,
) -> Result<(Document, Vec<Asset>)> {
    let document = model_of(db, blobs, id, version).await?;
    let rows = sqlx::query(
        "SELECT name, media_type, blob FROM document_assets WHERE doc_id = $1 AND version = $2",
    )
    .bind(id)
    .bind(version)
    .fetch_all(&db.pool)
    .await?;
    let mut assets = Vec::with_capacity(rows.len());
    for r in rows {
        let blob: String = r.try_get("blob")?;
        assets.push(Asset {
            name: r.try_get("name")?,
            media_type: r.try_get("media_type")?,
            bytes: blobs.get(&blob).await?,
        });
    }
    Ok((document, assets))
}

/// The account's documents outside the bin, newest first, and how many there are;
/// `kind` and `title` (words the title contains, any case) narrow them.
/// Which documents a list shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListFilter<'a> {
    pub kind: Option<Kind>,
    /// Only titles containing this (case-insensitively).
    pub title: Option<&'a str>,
    /// Leave out the filled copies a form's responses made (they are reached from the form).
    pub without_filled_copies: bool,
}

pub async fn list(
    db: &Db,
    account_id: &str,
    filter: ListFilter<'_>,
    limit: i64,
    offset: i64,
) -> Result<(i64, Vec<DocRow>)> {
    let kind_str = filter.kind.map_or("", Kind::as_str);
    let pattern = match filter.title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("%{}%", like_escaped(&t.to_lowercase())),
        None => "%".to_string(),
    };
    let copies = if filter.without_filled_copies { 0 } else { 1 };
    let condition = "account_id = $1 AND binned_at IS NULL AND ($2 = '' OR kind = $2)
         AND LOWER(title) LIKE $3 ESCAPE '\\'
         AND ($4 = 1 OR NOT EXISTS (SELECT 1 FROM form_responses r WHERE r.document = documents.id))";
    let total: i64 =
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM documents WHERE {condition}"))
            .bind(account_id)
            .bind(kind_str)
            .bind(&pattern)
            .bind(copies)
            .fetch_one(&db.pool)
            .await?;
    let rows = sqlx::query(&format!(
        "SELECT {DOC_COLUMNS} FROM documents WHERE {condition}
         ORDER BY created DESC, id LIMIT $5 OFFSET $6"
    ))
    .bind(account_id)
    .bind(kind_str)
    .bind(&pattern)
    .bind(copies)
    .bind(limit)
    .bind(offset)
    .fetch_all(&db.pool)
    .await?;
    let docs = rows
        .iter()
        .map(row_to_doc)
        .collect::<std::result::Result<_, _>>()?;
    Ok((total, docs))
}

/// `text` for a LIKE pattern, its wildcards taken literally (the escape is `\`).
fn like_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Deletes documents binned longer than their account's retention, returning their
/// storage to the account. Blobs no longer named by any row are collected afterwards.
///
/// `dependents` are the statements (with `$1`, the document's id) that let go of rows other
/// modules keep about a document, run in the purge's transaction before its own rows go:
/// forms pass theirs (`forms::DOCUMENT_DEPENDENTS`), so this module knows no form table.
pub async fn purge_expired(db: &Db, blobs: &Blobs, dependents: &[&str]) -> Result<usize> {
    let rows = sqlx::query(
        "SELECT d.id, d.account_id FROM documents d JOIN accounts a ON a.id = d.account_id
         WHERE d.binned_at IS NOT NULL AND d.binned_at < $1 - a.retention_days * 86400.0",
    )
    .bind(now())
    .fetch_all(&db.pool)
    .await?;
    let mut purged = 0;
    for row in rows {
        let id: String = row.try_get("id")?;
        let account_id: String = row.try_get("account_id")?;
        purge(db, blobs, &id, &account_id, dependents).await?;
        purged += 1;
    }
    Ok(purged)
}

/// Deletes one binned document and every version of it, for good, and gives its storage
/// back to the account.
async fn purge(
    db: &Db,
    blobs: &Blobs,
    id: &str,
    account_id: &str,
    dependents: &[&str],
) -> Result<()> {
    let blob_rows = sqlx::query(
        "SELECT model_blob AS b FROM document_versions WHERE doc_id = $1
         UNION SELECT source_blob AS b FROM document_versions WHERE doc_id = $1 AND source_blob IS NOT NULL
         UNION SELECT blob AS b FROM document_assets WHERE doc_id = $1",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await?;
    let mut tx = db.begin().await?;
    let size: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM document_versions WHERE doc_id = $1",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    for sql in dependents
        .iter()
        .copied()
        .chain(["DELETE FROM document_assets WHERE doc_id = $1"])
    {
        sqlx::query(sql).bind(id).execute(&mut *tx).await?;
    }
    sqlx::query("DELETE FROM document_versions WHERE doc_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let gone = sqlx::query(
        "DELETE FROM documents WHERE id = $1 AND account_id = $2 AND binned_at IS NOT NULL",
    )
    .bind(id)
    .bind(account_id)
    .execute(&mut *tx)
    .await?;
    if gone.rows_affected() == 0 {
        // Restored (or purged) meanwhile: the rollback keeps everything.
        return Err(Error::NotFound(format!("no binned document {id}")));
    }
    sqlx::query("UPDATE accounts SET storage_used = storage_used - $1 WHERE id = $2")
        .bind(size)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let digests = blob_rows
        .iter()
        .map(|r| r.try_get::<String, _>("b"))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    crate::store::collect(db, blobs, &digests).await?;
    Ok(())
}

/// Storage the account's stored versions add up to (for consistency checks).
pub async fn stored_bytes(db: &Db, account_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(v.size), 0) AS BIGINT) FROM document_versions v JOIN documents d ON d.id = v.doc_id WHERE d.account_id = $1",
    )
    .bind(account_id)
    .fetch_one(&db.pool)
    .await?)
}
