//! `quire admin backup` while the server takes writes, and `restore-backup` into a fresh
//! data directory: every write answered before the backup began is there, whole.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::server::*;

#[test]
fn a_backup_under_write_load_restores_every_answered_write() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    let t = s.token(&a);
    let backup_dir = tempfile::tempdir().unwrap();
    let dir = backup_dir.path().join("nightly");
    let dir_arg = dir.to_str().unwrap();

    let answered: Mutex<Vec<(String, Instant)>> = Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    let (backup_began, first) = std::thread::scope(|scope| {
        for writer in 0..3 {
            let (s, t, answered, stop) = (&s, &t, &answered, &stop);
            scope.spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    let r = s.send_json(
                        "POST",
                        t,
                        "/api/v1/pdfs",
                        &json!({"markdown": format!("# Writer {writer}, note {n}\n\nWritten while a backup runs.\n")}),
                    );
                    assert_eq!(r.status, 201, "{}", r.text());
                    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
                    answered.lock().unwrap().push((id, Instant::now()));
                }
            });
        }
        // Let some writes land, then back up in the middle of the stream.
        while answered.lock().unwrap().len() < 15 {
            std::thread::sleep(Duration::from_millis(20));
        }
        let began = Instant::now();
        let first = s.cli_json(&["admin", "backup", dir_arg, "--json"]);
        // Writes go on after the backup too; they are not in it, and that is fine.
        std::thread::sleep(Duration::from_millis(300));
        stop.store(true, Ordering::Relaxed);
        (began, first)
    });
    let answered = answered.into_inner().unwrap();
    let before: Vec<&String> = answered
        .iter()
        .filter(|(_, at)| *at < backup_began)
        .map(|(id, _)| id)
        .collect();
    assert!(before.len() >= 15, "{}", before.len());
    assert!(
        first["blobs"].as_u64().unwrap() >= before.len() as u64,
        "{first}"
    );

    // Again into the same directory: a fresh snapshot, and only new blobs copied.
    let again = s.cli_json(&["admin", "backup", dir_arg, "--json"]);
    assert!(
        again["already_there"].as_u64().unwrap() >= first["blobs"].as_u64().unwrap(),
        "{again}"
    );

    // Restore into a fresh data directory and serve it.
    let mut restored = Server::stopped(None);
    let out = restored.cli_json(&["admin", "restore-backup", dir_arg, "--json"]);
    assert_eq!(out["blobs"], again["blobs"], "{out}");
    restored.spawn(&[]);
    let t2 = restored.token(&a); // the credential came back with the account
    for id in &before {
        let r = restored.get(&t2, &format!("/api/v1/documents/{id}.pdf"));
        assert_eq!(r.status, 200, "{id}: {}", r.text());
        assert!(r.body.starts_with(b"%PDF-"), "{id}");
    }
    let listed = restored.get(&t2, "/api/v1/documents?limit=1").json();
    let total = listed["total"].as_u64().unwrap();
    assert!(
        total as usize >= before.len() && total as usize <= answered.len(),
        "{total} documents restored; {} answered before the backup, {} in all",
        before.len(),
        answered.len()
    );

    // A restore never overwrites an installation.
    let refused = restored.cli_output(&["admin", "restore-backup", dir_arg]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("already holds a database"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // Nor is a directory that is not a backup taken for one.
    let empty = tempfile::tempdir().unwrap();
    let fresh = Server::stopped(None);
    let refused = fresh.cli_output(&["admin", "restore-backup", empty.path().to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a Quire backup"));
}

#[test]
fn postgres_installations_are_told_to_use_their_own_tools() {
    let Some(url) = postgres_database() else {
        return;
    };
    let s = Server::start_with_db(Some(url), &[]);
    let dir = tempfile::tempdir().unwrap();
    let out = s.cli_output(&["admin", "backup", dir.path().to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("pg_dump"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
