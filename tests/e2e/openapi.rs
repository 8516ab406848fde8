//! The OpenAPI document is exact: schemathesis (pinned in scripts/python-tools.txt) reads it
//! from a live server, generates valid and invalid requests for every operation, follows
//! the document's links in its stateful phase, and every check passes.

use std::process::Command;

use crate::server::*;

/// Statuses a request the schema admits may still get, because JSON Schema cannot say
/// what they depend on: the bytes of a file (409 a locked PDF, 415 bytes of no readable
/// kind under a readable media type, 422 a damaged file), the thing the path names (404 an
/// id that names nothing, 409 a closed form or a second answer, 400 a box past the
/// document's pages or an answer to a question the form does not ask: the contract keeps
/// 422 for files, and a request that does not fit what it names is a 400 naming the
/// member), or how often it was asked (429: invitations per form and day). Everything else
/// a valid request gets must be 2xx.
///
/// The stateful phase follows the document's own links only (no inferred ones), so it
/// tests those links.
const SCHEMATHESIS_CONFIG: &str = r#"
[checks.positive_data_acceptance]
expected-statuses = ["2XX", "400", "404", "409", "415", "422", "429"]

[phases.stateful.inference]
algorithms = []
"#;

#[test]
fn schemathesis_finds_no_failure_and_no_schema_error() {
    let s = Server::start(&[]);
    // Enterprise: its daily allowance (20,000 calls) outlasts the run.
    let account = s.account("enterprise");
    // Invitations need a confirmed address.
    s.cli(&["admin", "account", "confirm-email", &account.id]);
    let token = s.token(&account);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("schemathesis.toml");
    std::fs::write(&config, SCHEMATHESIS_CONFIG).unwrap();
    let out = Command::new("schemathesis")
        .arg("--config-file")
        .arg(&config)
        .arg("run")
        .arg(s.url("/api/v1/openapi.json"))
        .args([
            "--checks",
            "all",
            "--phases",
            "examples,coverage,fuzzing,stateful",
        ])
        // One worker: CPython 3.11 can fail compiling schemathesis's strategies in threads.
        .args(["--max-examples", "50", "--workers", "1", "--seed", "1"])
        .args([
            "--request-timeout",
            "60",
            "--no-color",
            "--generation-database",
            "none",
        ])
        .arg("--header")
        .arg(format!("Authorization: Bearer {token}"))
        .current_dir(dir.path())
        .output()
        .expect("schemathesis is installed by `make deps` (scripts/python-tools.txt)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "schemathesis found failures:\n{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A run that tested nothing would also exit 0: "N generated, N passed".
    let counts = report
        .lines()
        .find(|l| l.contains(" generated, "))
        .unwrap_or_else(|| panic!("no test case count in:\n{report}"));
    let numbers: Vec<u64> = counts
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(
        numbers.len() == 2 && numbers[0] == numbers[1] && numbers[0] >= 1000,
        "{counts}"
    );
    assert!(report.contains("Stateful"), "{report}");
}
