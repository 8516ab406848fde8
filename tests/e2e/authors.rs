//! Plugin authors outside this repository: a converter started with `quire plugins new`,
//! built in a directory of its own against plugins/sdk, and the Python and JavaScript
//! examples (plugins/examples), each installed through the operator API and used over HTTP.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{run_tool, target_dir};
use crate::server::{request, Resp, Server};

fn install(s: &Server, wasm: Vec<u8>) -> Resp {
    request(
        "POST",
        &format!("{}/plugins", s.admin_base),
        &[("authorization", "Bearer operator-secret-for-tests")],
        Some(("application/wasm", wasm)),
    )
}

fn readable(s: &Server, token: &str) -> Vec<String> {
    s.get(token, "/api/v1").json()["formats"]["readable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["media_type"].as_str().unwrap().to_string())
        .collect()
}

fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    run_tool(Command::new("pdftotext").arg("-layout").arg(&path).arg("-"))
}

/// `cargo` for a crate outside the workspace: its own lock file and target directory (kept
/// under target/ so a second run builds nothing), none of the outer `cargo test`'s settings.
fn cargo(krate: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args)
        .current_dir(krate)
        .env("CARGO_TARGET_DIR", target_dir().join("authors"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET");
    run_tool(&mut cmd)
}

fn workspace() -> PathBuf {
    crate::common::repo_root()
}

#[test]
fn a_converter_from_the_template_builds_outside_the_workspace_and_reads_csv_over_http() {
    let outside = tempfile::tempdir().unwrap();
    let sdk = workspace().join("plugins/sdk");
    run_tool(Command::new(env!("CARGO_BIN_EXE_quire")).args([
        "plugins",
        "new",
        "csv-table",
        "--dir",
        outside.path().to_str().unwrap(),
        "--sdk",
        sdk.to_str().unwrap(),
    ]));
    let krate = outside.path().join("csv-table");
    let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("quire-sdk = { path = "), "{manifest}");
    // The workspace's lock file pins the SDK's dependencies to the versions it is tested
    // with (and lets the build run without fetching anything new).
    std::fs::copy(workspace().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    // The same name again is refused rather than overwritten.
    let again = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["plugins", "new", "csv-table", "--dir"])
        .arg(outside.path())
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));

    // The template's own native tests pass, and it builds as a component.
    let tests = cargo(&krate, &["test", "--release", "--quiet"]);
    assert!(tests.contains("test result: ok. 3 passed"), "{tests}");
    cargo(
        &krate,
        &["build", "--release", "--quiet", "--target", "wasm32-wasip2"],
    );
    let wasm = std::fs::read(target_dir().join("authors/wasm32-wasip2/release/csv_table.wasm"))
        .expect("the component");

    let s = Server::start(&[]);
    let t = s.token(&s.account("pro"));
    let csv = "fruit,\"price, per kg\",note\r\napples,3.20,\"crisp, \"\"red\"\"\"\r\npears,4.10,\"two\nlines\"\r\n";
    let before = s.send_raw("POST", &t, "/api/v1/pdfs", "text/csv", csv.into());
    assert_eq!(before.status, 415, "{}", before.text());
    assert!(!readable(&s, &t).contains(&"text/csv".to_string()));

    let r = install(&s, wasm);
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(readable(&s, &t).contains(&"text/csv".to_string()));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs?title=Prices",
        "text/csv",
        csv.into(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
    assert_eq!(pdf.status, 200, "{}", pdf.text());
    let text = pdf_text(&pdf.body);
    for cell in [
        "fruit",
        "price, per kg",
        "apples",
        "3.20",
        "crisp, \"red\"",
        "pears",
        "4.10",
    ] {
        assert!(text.contains(cell), "{cell:?} not in the PDF:\n{text}");
    }
    // A damaged file is the converter's 422, with its reason.
    let r = s.send_raw("POST", &t, "/api/v1/pdfs", "text/csv", "a,\"b\n".into());
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("never closed"), "{}", r.text());
}

/// The examples' own unit tests, run by the interpreters they are written for.
fn example_unit_tests(root: &Path) {
    // unittest reports on stderr; run_tool fails the test on a failing exit status.
    run_tool(
        Command::new("python3")
            .args(["-m", "unittest", "discover", "-s"])
            .arg(root.join("plugins/examples/python-text"))
            .env("PYTHONDONTWRITEBYTECODE", "1"),
    );
    let js = run_tool(
        Command::new("node")
            .arg("--test")
            .arg(root.join("plugins/examples/js-plain/")),
    );
    assert!(js.contains("# fail 0"), "{js}");
}

#[test]
fn the_python_and_javascript_examples_install_and_round_trip_plain_text_over_http() {
    let root = workspace();
    example_unit_tests(&root);
    let built = run_tool(Command::new("bash").arg(root.join("scripts/build-examples.sh")));
    let paths: Vec<&str> = built.lines().collect();
    assert_eq!(paths.len(), 2, "{built}");
    let python = std::fs::read(paths[0]).expect("text.wasm");
    let javascript = std::fs::read(paths[1]).expect("plain-text.wasm");

    let s = Server::start(&[]);
    let t = s.token(&s.account("pro"));
    let prose = "Minutes of the 3rd meeting\n\nPresent: Ada, Grace and Édith.\n\nThe budget (€ 1 200) was approved.\n";
    let before = s.send_raw("POST", &t, "/api/v1/pdfs", "text/plain", prose.into());
    assert_eq!(before.status, 415, "{}", before.text());

    // JavaScript reads text/plain.
    let r = install(&s, javascript);
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(readable(&s, &t).contains(&"text/plain".to_string()));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs?title=Minutes",
        "text/plain",
        prose.into(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
    assert_eq!(pdf.status, 200, "{}", pdf.text());
    let text = pdf_text(&pdf.body);
    for line in [
        "Minutes of the 3rd meeting",
        "Ada, Grace and Édith.",
        "€ 1 200",
    ] {
        assert!(text.contains(line), "{line:?} not in the PDF:\n{text}");
    }
    // Not a download until an exporter writes it.
    let txt = s.get(&t, &format!("/api/v1/documents/{id}.txt"));
    assert_eq!(txt.status, 415, "{}", txt.text());
    assert!(!txt.text().contains(".txt,"), "{}", txt.text());

    // Python writes it.
    let r = install(&s, python);
    assert_eq!(r.status, 201, "{}", r.text());
    let txt = s.get(&t, &format!("/api/v1/documents/{id}.txt"));
    assert_eq!(txt.status, 200, "{}", txt.text());
    assert!(txt
        .header("content-type")
        .unwrap()
        .starts_with("text/plain"));
    let back = txt.text();
    for line in [
        "Minutes of the 3rd meeting",
        "Present: Ada, Grace and Édith.",
        "The budget (€ 1 200) was approved.",
    ] {
        assert!(back.contains(line), "{line:?} not in the text:\n{back}");
    }
    // A document from another importer is a text download too.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "text/markdown",
        "# Heading\n\nSome *body* text.\n".into(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let md = r.json()["document"]["id"].as_str().unwrap().to_string();
    let txt = s.get(&t, &format!("/api/v1/documents/{md}.txt"));
    assert_eq!(txt.status, 200, "{}", txt.text());
    assert!(
        txt.text().contains("Heading") && txt.text().contains("Some body text."),
        "{}",
        txt.text()
    );
    // Invalid UTF-8 is the JavaScript converter's 422.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "text/plain",
        vec![b'a', 0xff, 0xfe, b'b'],
    );
    assert_eq!(r.status, 422, "{}", r.text());
}
