use crate::store::{Db, Refusal, Script, ScriptError, Statement};

fn setting(key: &str, value: &str) -> Statement {
    Statement::new(
        "INSERT INTO settings (key, value) VALUES ($1, $2)",
        vec![key.into(), value.into()],
    )
}

async fn settings(db: &Db) -> Vec<(String, String)> {
    sqlx::query_as("SELECT key, value FROM settings WHERE key LIKE 't-%' ORDER BY key")
        .fetch_all(&db.pool)
        .await
        .unwrap()
}

/// Scripts queued together commit in one group, and one refused among them is rolled back
/// alone: its first statement is gone, the others' statements all stay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_script_in_a_group_is_rolled_back_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(None, dir.path()).await.unwrap();
    assert!(
        db.writer.is_some(),
        "a SQLite file is written by the writer thread"
    );
    // Hold the turn, so every script below queues and goes in one group.
    let turn = db.write_turn().await.unwrap();
    let writes: Vec<_> = (0..6)
        .map(|i| {
            let db = db.clone();
            tokio::spawn(async move {
                let mut script = Script::from(setting(&format!("t-{i}"), "first"));
                let refused_row = if i == 3 { "nobody" } else { "t-%" };
                script.push(
                    Statement::new(
                        "UPDATE settings SET value = 'second' WHERE key = $1 AND key LIKE $2",
                        vec![format!("t-{i}").into(), refused_row.into()],
                    )
                    .expecting(1, Refusal::Moved),
                );
                db.write(script).await
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    drop(turn);
    let mut outcomes = Vec::new();
    for write in writes {
        outcomes.push(write.await.unwrap());
    }
    for (i, outcome) in outcomes.iter().enumerate() {
        match (i, outcome) {
            (3, Err(ScriptError::Refused { refusal, changed })) => {
                assert_eq!((*refusal, *changed), (Refusal::Moved, 0));
            }
            (3, other) => panic!("script 3 should be refused, got {other:?}"),
            (_, outcome) => assert!(outcome.is_ok(), "script {i}: {outcome:?}"),
        }
    }
    let kept = settings(&db).await;
    let expected: Vec<(String, String)> = [0, 1, 2, 4, 5]
        .iter()
        .map(|i| (format!("t-{i}"), "second".to_string()))
        .collect();
    assert_eq!(kept, expected);
}

/// `$n` names the n-th value wherever it stands and however often, as sqlx binds it; a
/// write is answered only once it is committed, so another connection sees it at once.
#[tokio::test]
async fn placeholders_bind_by_number_and_answered_writes_are_committed() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(None, dir.path()).await.unwrap();
    db.write(
        Statement::new(
            "INSERT INTO settings (key, value) VALUES ($2, $1 || '/' || $1)",
            vec!["value".into(), "t-key".into()],
        )
        .into(),
    )
    .await
    .unwrap();
    let other = Db::open(None, dir.path()).await.unwrap();
    assert_eq!(
        settings(&other).await,
        [("t-key".to_string(), "value/value".to_string())]
    );
}

/// A database error fails only the script that met it, with SQLite's reason; the writer
/// goes on serving.
#[tokio::test]
async fn a_failing_statement_fails_its_script_and_the_writer_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(None, dir.path()).await.unwrap();
    db.write(setting("t-a", "1").into()).await.unwrap();
    let mut twice = Script::from(setting("t-b", "1"));
    twice.push(setting("t-a", "2"));
    let e = db.write(twice).await.unwrap_err();
    assert!(
        matches!(&e, ScriptError::Sqlite(s) if s.to_string().contains("UNIQUE")),
        "{e:?}"
    );
    db.write(setting("t-c", "1").into()).await.unwrap();
    let keys: Vec<String> = settings(&db).await.into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["t-a", "t-c"]);
}
