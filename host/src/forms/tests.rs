//! The forms domain against a real SQLite database: what happens to a form's rows when its
//! document leaves the bin for good.

use quire_sdk::{Document, Kind, Page};
use serde_json::json;

use super::responses::{self, Submission, Via};
use super::{fields, shares};
use crate::api::urls::Urls;
use crate::documents::{self, Content, Owner};
use crate::store::{Blobs, Db};

fn page() -> Page {
    Page {
        name: None,
        width: 612.0,
        height: 792.0,
        rotate: 0,
        background: None,
        shapes: Vec::new(),
    }
}

#[tokio::test]
async fn purging_a_binned_form_takes_its_rows_and_gives_back_its_storage() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(None, dir.path()).await.unwrap();
    let blobs = Blobs::open_dir(&dir.path().join("blobs")).unwrap();
    let account_id = crate::accounts::create_account(&db, "owner@example.com", "pro")
        .await
        .unwrap();
    crate::accounts::confirm_email(&db, &account_id)
        .await
        .unwrap();
    let account = crate::accounts::account(&db, &account_id).await.unwrap();
    let owner = Owner {
        account_id: &account_id,
        quota: account.plan.storage_quota,
    };
    let mut document = Document::new(Kind::Paged);
    document.pages.push(page());
    let placed = fields::place(
        serde_json::from_value(
            json!([{"key": "name", "page": 1, "x": 10, "y": 10, "w": 100, "h": 20}]),
        )
        .unwrap(),
        &document,
    )
    .unwrap();
    let content = Content {
        document,
        assets: Vec::new(),
        source: None,
        title: Some("Purged".into()),
    };
    let form = super::create(&db, &blobs, owner, content, Some(placed))
        .await
        .unwrap();
    let answer = responses::submit(
        &db,
        &blobs,
        &Urls("http://localhost"),
        &form,
        Submission {
            answers: json!({"name": "Ann"}).as_object().unwrap().clone(),
            from: None,
            via: Via::Api,
        },
    )
    .await
    .unwrap();
    shares::add(
        &db,
        &Urls("http://localhost"),
        &account,
        &form,
        "guest@example.org",
    )
    .await
    .unwrap();
    assert!(documents::stored_bytes(&db, &account_id).await.unwrap() > 0);

    // Bin the form and its filled copy, and let their retention run out.
    documents::bin(&db, &account_id, &form.doc.id)
        .await
        .unwrap();
    documents::bin(&db, &account_id, answer.document.as_deref().unwrap())
        .await
        .unwrap();
    sqlx::query("UPDATE documents SET binned_at = binned_at - 31 * 86400.0")
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(
        documents::purge_expired(&db, &blobs, super::DOCUMENT_DEPENDENTS)
            .await
            .unwrap(),
        2
    );

    for table in [
        "forms",
        "form_responses",
        "form_shares",
        "documents",
        "document_versions",
    ] {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(n, 0, "{table} still has rows");
    }
    let account = crate::accounts::account(&db, &account_id).await.unwrap();
    assert_eq!(account.storage_used, 0, "the storage is given back");
}

/// The confirmation text is bounded by the domain, for the API and the pages alike: one
/// character over the limit is refused as the `confirm` field, before anything is looked up.
#[tokio::test]
async fn a_confirmation_text_over_the_limit_is_refused_as_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(None, dir.path()).await.unwrap();
    let patch = |chars: usize| super::Patch {
        open: None,
        multiple: None,
        notify: None,
        confirm: Some("é".repeat(chars)),
    };
    let at_limit = super::patch(&db, "nobody", "no-form", patch(super::MAX_CONFIRM_CHARS)).await;
    assert!(
        matches!(at_limit, Err(crate::error::Error::NotFound(_))),
        "{at_limit:?}"
    );
    let over = super::patch(
        &db,
        "nobody",
        "no-form",
        patch(super::MAX_CONFIRM_CHARS + 1),
    )
    .await;
    match over {
        Err(crate::error::Error::InvalidField { field, .. }) => assert_eq!(field, "confirm"),
        other => panic!("expected the confirm field refused, got {other:?}"),
    }
}
