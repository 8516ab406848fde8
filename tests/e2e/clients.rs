//! The generated clients in clients/: they match what the generators make of this build's
//! OpenAPI document (drift fails here: run `make clients`), and each one does an
//! integrator's work against a live server.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{repo_root, run_tool};
use crate::server::*;

fn differences(generated: &Path, committed: &Path) -> String {
    let out = Command::new("diff")
        .args(["-r", "-q", "-x", "__pycache__"])
        .arg(generated)
        .arg(committed)
        .output()
        .expect("diff");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_committed_clients_are_what_the_generators_make_of_this_api() {
    let s = shared();
    let clients = repo_root().join("clients");
    let fresh = tempfile::tempdir().unwrap();
    let mut openapi = s.configure(Command::new(env!("CARGO_BIN_EXE_quire")));
    openapi
        .arg("openapi")
        .env("QUIRE_BASE_URL", "http://127.0.0.1:8080");
    let document = run_tool(&mut openapi);
    let committed = std::fs::read_to_string(clients.join("openapi.json")).unwrap();
    assert!(
        document.trim() == committed.trim(),
        "clients/openapi.json is not this build's OpenAPI document: run `make clients`"
    );
    std::fs::write(fresh.path().join("openapi.json"), &document).unwrap();
    run_tool(
        Command::new("bash")
            .arg(repo_root().join("scripts/generate-clients.sh"))
            .arg(fresh.path().join("openapi.json"))
            .arg(fresh.path()),
    );
    for (generated, committed) in [
        ("python/quire_client", "python/quire_client"),
        ("typescript/src/schema.d.ts", "typescript/src/schema.d.ts"),
    ] {
        let diff = differences(&fresh.path().join(generated), &clients.join(committed));
        assert!(
            diff.is_empty(),
            "clients/{committed} differs from the generators' output: run `make clients`\n{diff}"
        );
    }
}

/// What both live scripts must have seen: a document made from a file and downloaded as
/// PDF, a form answered and its answers read back, and refusals with their statuses.
fn check_live_run(seen: &Value, language: &str) {
    assert_eq!(seen["created"]["status"], 201, "{language}: {seen}");
    assert_eq!(seen["created"]["kind"], "pdf", "{language}: {seen}");
    let pdf_head = seen
        .get("pdf_head")
        .or_else(|| seen.get("pdfHead"))
        .unwrap();
    assert_eq!(pdf_head, "%PDF-", "{language}: {seen}");
    assert_eq!(seen["answered"], 200, "{language}: {seen}");
    assert_eq!(
        seen["answers"],
        json!([{"name": "Ada"}]),
        "{language}: {seen}"
    );
    assert_eq!(seen["missing"]["status"], 404, "{language}: {seen}");
    assert!(
        seen["missing"]["detail"]
            .as_str()
            .unwrap()
            .contains("no document"),
        "{language}: {seen}"
    );
    assert_eq!(seen["refused"]["status"], 400, "{language}: {seen}");
}

fn live_env(cmd: &mut Command, s: &Server, a: &Account) {
    cmd.env("QUIRE_URL", s.url(""))
        .env("QUIRE_CLIENT_ID", &a.client_id)
        .env("QUIRE_CLIENT_SECRET", &a.secret)
        .env("QUIRE_SAMPLE", repo_root().join("README.md"));
}

#[test]
fn the_python_client_works_against_a_live_server() {
    let s = shared();
    let a = s.account("pro");
    let dir = repo_root().join("clients/python");
    let mut run = Command::new("python3");
    run.arg(dir.join("test_live.py"))
        .env("PYTHONPATH", &dir)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    live_env(&mut run, s, &a);
    let seen: Value = serde_json::from_str(run_tool(&mut run).trim()).unwrap();
    check_live_run(&seen, "python");
    assert_eq!(seen["missing"]["is_error"], true, "{seen}");
    assert_eq!(seen["refused"]["is_error"], true, "{seen}");
}

#[test]
fn the_typescript_client_type_checks_and_works_against_a_live_server() {
    let s = shared();
    let a = s.account("pro");
    let dir = repo_root().join("clients/typescript");
    // tsc checks the client and the script against the generated types, then emits them.
    run_tool(
        Command::new(dir.join("node_modules/.bin/tsc"))
            .args(["-p"])
            .arg(&dir),
    );
    let mut run = Command::new("node");
    run.arg(dir.join("build/test/live.js"));
    live_env(&mut run, s, &a);
    let seen: Value = serde_json::from_str(run_tool(&mut run).trim()).unwrap();
    check_live_run(&seen, "typescript");
    assert_eq!(seen["missing"]["ok"], false, "{seen}");
    assert_eq!(seen["refused"]["field"], "answers.name", "{seen}");
}
