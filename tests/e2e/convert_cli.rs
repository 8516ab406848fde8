//! `quire convert`: the whole pipeline from the command line on a fresh data directory,
//! checked by independent tools (qpdf, pdftotext).

use std::process::Command;

use crate::common::*;

fn quire(data: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quire"));
    cmd.env("QUIRE_DATA", data)
        .env("QUIRE_PLUGINS_DIR", plugins_dir())
        .env("QUIRE_LOG", "warn");
    cmd
}

#[test]
fn markdown_to_pdf_on_an_empty_data_directory() {
    let data = tempfile::tempdir().unwrap();
    let out = data.path().join("out.pdf");
    let run = quire(data.path())
        .arg("convert")
        .arg(corpus("markdown/pdfjs-getting-started.md"))
        .args(["--to", "pdf", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    // It reports what each sandboxed stage cost.
    assert!(
        stderr.contains("import: markdown@") && stderr.contains("export: pdf@"),
        "{stderr}"
    );
    assert!(
        stderr.contains("fuel ") && stderr.contains("peak memory "),
        "{stderr}"
    );

    run_tool(Command::new("qpdf").arg("--check").arg(&out));
    let text = run_tool(Command::new("pdftotext").arg(&out).arg("-"));
    let words = ["Getting Started", "Introduction", "Prebuilt", "viewer"];
    let mut at = 0;
    for w in words {
        let found = text[at..]
            .find(w)
            .unwrap_or_else(|| panic!("`{w}` missing or out of order in:\n{text}"));
        at += found;
    }
}

#[test]
fn markdown_to_model_json_and_back_through_the_model() {
    let data = tempfile::tempdir().unwrap();
    let model = data.path().join("doc.json");
    let status = quire(data.path())
        .arg("convert")
        .arg(corpus("markdown/mermaid-new-diagram-jison.md"))
        .args(["--to", "json", "-o"])
        .arg(&model)
        .status()
        .unwrap();
    assert!(status.success());
    let doc = quire_sdk::validate::parse_and_check(&std::fs::read_to_string(&model).unwrap(), [])
        .unwrap();
    assert!(!doc.pages.is_empty());
    // The model is itself an input.
    let pdf = data.path().join("again.pdf");
    let run = quire(data.path())
        .arg("convert")
        .arg(&model)
        .args(["--to", "pdf", "-o"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    run_tool(Command::new("qpdf").arg("--check").arg(&pdf));
}

#[test]
fn an_unknown_format_names_what_is_served() {
    let data = tempfile::tempdir().unwrap();
    let input = data.path().join("x.doc");
    std::fs::write(&input, b"hello").unwrap();
    let run = quire(data.path())
        .arg("convert")
        .arg(&input)
        .args(["--to", "pdf"])
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("doc is not a format Quire can read") && stderr.contains("text/markdown"),
        "{stderr}"
    );
}
