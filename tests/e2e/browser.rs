//! The public form page in a real browser: Debian's chromium, driven by playwright-core
//! (tests/browser/fill.mjs) with JavaScript off. Open, send empty, read the server's
//! messages, fill, send, see the confirmation, then find the answer in the API.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::run_tool;
use crate::forms::create_form;
use crate::server::*;

pub fn chromium() -> String {
    if let Ok(p) = std::env::var("QUIRE_CHROMIUM") {
        return p;
    }
    for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(p).exists() {
            return p.to_string();
        }
    }
    panic!("no chromium: `make deps` installs Debian's chromium (or set QUIRE_CHROMIUM)");
}

fn browse(mode: &str, url: &str) -> Value {
    let dir = crate::common::repo_root().join("tests/browser");
    assert!(
        dir.join("node_modules/playwright-core").exists(),
        "playwright-core is not installed: `make deps` runs npm ci in {}",
        dir.display()
    );
    let out = run_tool(
        Command::new("node")
            .current_dir(&dir)
            .arg("fill.mjs")
            .arg(chromium())
            .arg(mode)
            .arg(url),
    );
    let seen: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(
        seen.get("error").is_none(),
        "the browser failed: {}",
        seen["error"]
    );
    seen
}

/// Runs a tests/browser script that drives Chromium with `config` (JSON), and returns what
/// it saw (the one JSON object it prints), failing when the browser reported an error.
pub fn run_script(script: &str, config: &Value) -> Value {
    let dir = crate::common::repo_root().join("tests/browser");
    let out = run_tool(
        Command::new("node")
            .current_dir(&dir)
            .arg(script)
            .arg(config.to_string()),
    );
    let seen: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(
        seen.get("error").is_none(),
        "the browser failed: {}",
        seen["error"]
    );
    seen
}

#[test]
fn a_person_fills_the_form_in_chromium() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let form = create_form(s, &t, "Club membership");
    let id = form["id"].as_str().unwrap();
    s.send_json(
        "PATCH",
        &t,
        &format!("/api/v1/forms/{id}"),
        &json!({"confirm": "Welcome to the club!"}),
    );
    let url = s.url(&format!("/f/{id}"));
    let seen = browse("fill", &url);

    assert_eq!(seen["status"], 200);
    assert_eq!(seen["heading"], "Club membership");
    let pictures = seen["pictures"].as_array().unwrap();
    assert_eq!(pictures.len() as i64, form["pages"].as_i64().unwrap());
    for p in pictures {
        assert_eq!(p["status"], 200, "{p}");
        assert_eq!(p["type"], "image/png");
        assert!(p["bytes"].as_i64().unwrap() > 1000, "{p}");
        assert!(p["alt"].as_str().unwrap().starts_with("Page 1 of"));
    }
    let labels: Vec<String> = seen["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    for q in [
        "Full name",
        "Email",
        "Date of birth",
        "Shirt size",
        "Signature",
    ] {
        assert!(labels.iter().any(|l| l.starts_with(q)), "{q} in {labels:?}");
    }
    // Server-side validation: the empty send names each required question.
    assert_eq!(seen["emptyStatus"], 400);
    let problems = seen["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems
        .iter()
        .any(|p| p.as_str().unwrap().contains("Full name")));
    assert_eq!(seen["nameInvalid"], "true");
    assert_eq!(seen["badStatus"], 400);
    assert!(
        seen["badProblems"][0]
            .as_str()
            .unwrap()
            .contains("email address"),
        "{}",
        seen["badProblems"]
    );
    assert_eq!(seen["keptName"], "Browser Person", "what was typed is kept");
    // Sent: the owner's confirmation text.
    assert_eq!(seen["sentStatus"], 200);
    assert_eq!(seen["confirmation"], "Welcome to the club!");

    // The answer is in the API, via link.
    let list = s.get(&t, &format!("/api/v1/forms/{id}/responses")).json();
    assert_eq!(list["total"], 1);
    let r = &list["responses"][0];
    assert_eq!(r["via"], "link");
    assert_eq!(r["respondent"], "browser@example.org");
    let v = &r["values"];
    assert_eq!(v["name"], "Browser Person");
    assert_eq!(v["email"], "person@example.org");
    assert_eq!(v["age"], 37);
    assert_eq!(v["born"], "1989-05-17");
    assert_eq!(v["agree"], true);
    assert_eq!(v["plan"], "full");
    assert_eq!(v["size"], "L");
    assert_eq!(v["days"], json!(["Tue", "Wed"]));
    assert_eq!(v["notes"], "Typed in a browser,\nover two lines.");
    assert_eq!(v["sign"], "B. Person");
    let copy = r["document"].as_str().unwrap();
    assert_eq!(s.get(&t, &format!("/api/v1/documents/{copy}")).status, 200);

    // Closed: the page still shows what it asks, says it is closed, and has no Send.
    s.send_json(
        "PATCH",
        &t,
        &format!("/api/v1/forms/{id}"),
        &json!({"open": false}),
    );
    let closed = browse("closed", &url);
    assert_eq!(closed["status"], 200);
    assert!(closed["closed"].as_str().unwrap().contains("closed"));
    assert_eq!(closed["sendButtons"], 0);
    assert!(closed["disabledInputs"].as_i64().unwrap() >= 10);
    assert!(closed["labels"].as_array().unwrap().len() >= 10);
    // Posting anyway is refused and nothing is stored.
    let r = request(
        "POST",
        &url,
        &[],
        Some((
            "application/x-www-form-urlencoded",
            b"a.name=X&a.email=x%40example.org&a.agree=on".to_vec(),
        )),
    );
    assert_eq!(r.status, 409);
    assert_eq!(
        s.get(&t, &format!("/api/v1/forms/{id}/responses")).json()["total"],
        1
    );
    // A bearer token does not reach the public page; an unknown form is a 404 page.
    let r = request(
        "GET",
        &url,
        &[("authorization", &format!("Bearer {t}"))],
        None,
    );
    assert_eq!(r.status, 404);
    assert_eq!(
        request("GET", &s.url(&format!("/f/{}", "0".repeat(32))), &[], None).status,
        404
    );
}
