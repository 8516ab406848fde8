use super::*;

async fn open() -> (tempfile::TempDir, Db, Blobs) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(None, dir.path()).await.unwrap();
    let blobs = Blobs::open_dir(&dir.path().join("blobs")).unwrap();
    (dir, db, blobs)
}

/// Names `digest` the way a committed plugin version does.
async fn name(db: &Db, pin: &Pin, digest: &str, version: usize) {
    let mut tx = db.begin().await.unwrap();
    sqlx::query("INSERT INTO plugin_versions (name, version, digest, info, installed_at) VALUES ('p', $1, $2, '{}', 0)")
        .bind(version.to_string())
        .bind(digest)
        .execute(&mut *tx)
        .await
        .unwrap();
    pin.release_in(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
}

const BOTH: [Handshake; 2] = [Handshake::CommittedPins, Handshake::Generations];

#[tokio::test]
async fn the_sweep_takes_only_what_nothing_names_or_pins() {
    for handshake in BOTH {
        the_sweep_takes_only_what_nothing_names_or_pins_by(handshake).await;
    }
}

async fn the_sweep_takes_only_what_nothing_names_or_pins_by(handshake: Handshake) {
    let (_dir, db, blobs) = open().await;
    let orphan = blobs.put(b"left by a write that died").await.unwrap();
    let mut pinned = Pin::with_handshake(handshake);
    let in_flight = pinned.put(&db, &blobs, b"about to be named").await.unwrap();
    let mut done = Pin::with_handshake(handshake);
    let named = done.put(&db, &blobs, b"named").await.unwrap();
    name(&db, &done, &named, 1).await;

    assert_eq!(sweep(&db, &blobs).await.unwrap(), 1);
    assert!(!blobs.exists(&orphan).await.unwrap());
    assert!(blobs.exists(&in_flight).await.unwrap());
    assert!(blobs.exists(&named).await.unwrap());

    pinned.abandon(&db, &blobs).await;
    assert!(
        !blobs.exists(&in_flight).await.unwrap(),
        "an abandoned write leaves nothing"
    );
    assert!(blobs.exists(&named).await.unwrap());
}

#[tokio::test]
async fn a_hold_on_every_blob_keeps_the_collector_off_until_released() {
    let (_dir, db, blobs) = open().await;
    let orphan = blobs.put(b"nothing names me").await.unwrap();
    let hold = HoldAll::take(&db).await.unwrap();
    assert_eq!(sweep(&db, &blobs).await.unwrap(), 0);
    assert_eq!(
        collect(&db, &blobs, std::slice::from_ref(&orphan))
            .await
            .unwrap(),
        0
    );
    assert!(blobs.exists(&orphan).await.unwrap());
    hold.release(&db).await;
    assert_eq!(sweep(&db, &blobs).await.unwrap(), 1);
    assert!(!blobs.exists(&orphan).await.unwrap());
}

#[tokio::test]
async fn a_lapsed_pin_fails_the_write_instead_of_naming_a_collected_blob() {
    let (_dir, db, blobs) = open().await;
    let mut pin = Pin::with_handshake(Handshake::CommittedPins);
    let digest = pin.put(&db, &blobs, b"slow write").await.unwrap();
    sqlx::query("UPDATE blob_pins SET expires = 0")
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(sweep(&db, &blobs).await.unwrap(), 1);
    let mut tx = db.begin().await.unwrap();
    assert!(matches!(
        pin.release_in(&mut tx).await,
        Err(BlobError::Unavailable(_))
    ));
    drop(tx);
    assert!(!blobs.exists(&digest).await.unwrap());
}

#[test]
fn placeholders_number_rows_and_lists() {
    assert_eq!(placeholders(2, 3), "($1, $2, $3), ($4, $5, $6)");
    assert_eq!(placeholders(1, 3), "($1, $2, $3)");
}

#[tokio::test]
async fn a_whole_write_is_pinned_at_once_and_released_whole() {
    let (_dir, db, blobs) = open().await;
    let many: Vec<Vec<u8>> = (0..PINS_PER_STATEMENT + 3)
        .map(|i| format!("asset {i}").into_bytes())
        .collect();
    let mut digests = Vec::new();
    for bytes in &many {
        digests.push(Blobs::digest_of(bytes).await);
    }
    // The first part twice: one pin, stored once.
    let parts: Vec<(&str, &[u8])> = std::iter::once((digests[0].as_str(), &many[0][..]))
        .chain(
            digests
                .iter()
                .map(String::as_str)
                .zip(many.iter().map(|b| &b[..])),
        )
        .collect();
    let mut pin = Pin::with_handshake(Handshake::CommittedPins);
    pin.put_all(&db, &blobs, &parts).await.unwrap();
    let pinned: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blob_pins WHERE pin = $1")
        .bind(&pin.id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(pinned, many.len() as i64);
    for d in &digests {
        assert!(blobs.exists(d).await.unwrap(), "{d} not stored");
    }
    // Nothing names them yet, but the pins keep the collector off.
    assert_eq!(sweep(&db, &blobs).await.unwrap(), 0);
    let mut tx = db.begin().await.unwrap();
    pin.release_in(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(sweep(&db, &blobs).await.unwrap(), many.len());
}

/// A collector and writers reusing the same bytes, interleaved by the scheduler: every
/// committed name must find its blob. With "check for names, then remove" and no pins,
/// a writer that found the blob stored between the check and the removal named a blob
/// that was then deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_blob_being_collected_is_never_lost_to_a_write_reusing_it() {
    for handshake in BOTH {
        a_blob_being_collected_is_never_lost_by(handshake).await;
    }
}

async fn a_blob_being_collected_is_never_lost_by(handshake: Handshake) {
    let (_dir, db, blobs) = open().await;
    let bytes = b"shared by every write".to_vec();
    for round in 0..60 {
        let mut seed = Pin::with_handshake(handshake);
        let digest = seed.put(&db, &blobs, &bytes).await.unwrap();
        seed.abandon(&db, &blobs).await; // unnamed: the collector may take it
        if round % 2 == 0 {
            blobs.put(&bytes).await.unwrap();
        }
        let collector = {
            let (db, blobs, d) = (db.clone(), blobs.clone(), digest.clone());
            tokio::spawn(async move { collect(&db, &blobs, &[d]).await.unwrap() })
        };
        let writer = {
            let (db, blobs, bytes) = (db.clone(), blobs.clone(), bytes.clone());
            tokio::spawn(async move {
                let mut pin = Pin::with_handshake(handshake);
                let d = pin.put(&db, &blobs, &bytes).await.unwrap();
                name(&db, &pin, &d, round).await;
            })
        };
        collector.await.unwrap();
        writer.await.unwrap();
        assert!(
            blobs.get(&digest).await.is_ok(),
            "round {round} ({handshake:?}): a committed name lost its blob"
        );
        sqlx::query("DELETE FROM plugin_versions")
            .execute(&db.pool)
            .await
            .unwrap();
    }
}

/// What a collector in another process does (it cannot see this one's holds in
/// memory): number a collection, remove the blob, mark the tombstone done.
async fn collect_elsewhere(db: &Db, blobs: &Blobs, digest: &str) {
    db.write(tombstone(digest)).await.unwrap();
    blobs.remove(digest).await.unwrap();
    sqlx::query("UPDATE blob_tombstones SET done = $2, removed = 1 WHERE digest = $1")
        .bind(digest)
        .bind(now())
        .execute(&db.pool)
        .await
        .unwrap();
}

/// Runs the write that names `digest`; whether the pin let it commit.
async fn try_name(db: &Db, pin: &Pin, digest: &str) -> Result<(), BlobError> {
    let mut tx = db.begin().await.unwrap();
    sqlx::query("INSERT INTO plugin_versions (name, version, digest, info, installed_at) VALUES ('p', '1', $1, '{}', 0)")
        .bind(digest)
        .execute(&mut *tx)
        .await
        .unwrap();
    let released = pin.release_in(&mut tx).await;
    if released.is_ok() {
        tx.commit().await.unwrap();
    }
    released
}

#[tokio::test]
async fn under_generations_a_create_commits_no_pin_and_one_write() {
    let (_dir, db, blobs) = open().await;
    assert_eq!(Handshake::for_database(&db), Handshake::Generations);
    let mut pin = Pin::new();
    let digest = pin.put(&db, &blobs, b"one commit").await.unwrap();
    let pins: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blob_pins")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(pins, 0, "nothing committed before the blob is named");
    let release = pin.release();
    assert_eq!(release.len(), 1);
    assert!(release[0].sql.starts_with("SELECT"), "a check, not a write");
    try_name(&db, &pin, &digest).await.unwrap();
    drop(pin);
    assert!(
        db.in_flight.lock().held.is_empty(),
        "the hold in memory ends with the pin"
    );
}

#[tokio::test]
async fn a_collection_elsewhere_that_took_the_blob_refuses_the_write() {
    let (_dir, db, blobs) = open().await;
    let mut pin = Pin::with_handshake(Handshake::Generations);
    let digest = pin.put(&db, &blobs, b"taken by the CLI").await.unwrap();
    collect_elsewhere(&db, &blobs, &digest).await;
    assert!(matches!(
        try_name(&db, &pin, &digest).await,
        Err(BlobError::Unavailable(_))
    ));
    // Stored again by the next write, which looked after the collection.
    let mut again = Pin::with_handshake(Handshake::Generations);
    again.put(&db, &blobs, b"taken by the CLI").await.unwrap();
    try_name(&db, &again, &digest).await.unwrap();
    assert!(blobs.exists(&digest).await.unwrap());
}

#[tokio::test]
async fn a_collection_here_keeps_the_blobs_of_writes_in_flight() {
    let (_dir, db, blobs) = open().await;
    let mut pin = Pin::with_handshake(Handshake::Generations);
    let digest = pin.put(&db, &blobs, b"in flight").await.unwrap();
    assert_eq!(
        collect(&db, &blobs, std::slice::from_ref(&digest))
            .await
            .unwrap(),
        0
    );
    assert_eq!(sweep(&db, &blobs).await.unwrap(), 0);
    // The collections began after the write looked, but took nothing: it commits.
    try_name(&db, &pin, &digest).await.unwrap();
    assert!(blobs.exists(&digest).await.unwrap());
}

#[tokio::test]
async fn a_write_older_than_the_tombstones_kept_is_refused() {
    let (_dir, db, blobs) = open().await;
    let mut slow = Pin::with_handshake(Handshake::Generations);
    let digest = slow.put(&db, &blobs, b"slow write").await.unwrap();
    let other = blobs.put(b"another blob").await.unwrap();
    collect_elsewhere(&db, &blobs, &other).await;
    // An hour on: the sweep prunes that tombstone and keeps its number.
    sqlx::query("UPDATE blob_tombstones SET done = 0")
        .execute(&db.pool)
        .await
        .unwrap();
    sweep(&db, &blobs).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blob_tombstones")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    // The slow write's own blob was never collected, but it cannot know: refused.
    assert!(matches!(
        try_name(&db, &slow, &digest).await,
        Err(BlobError::Unavailable(_))
    ));
}
