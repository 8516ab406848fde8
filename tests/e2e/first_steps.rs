//! What a newcomer meets first: the README's quick start, run as written against a fresh
//! server, the hints the server logs on its first start, and `quire serve --help`.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::run_tool;
use crate::server::Server;

fn readme() -> String {
    std::fs::read_to_string(crate::common::repo_root().join("README.md"))
        .expect("README.md beside host/")
}

/// The first ```sh block under `## Quick start`.
fn quick_start_script(readme: &str) -> String {
    let section = readme
        .split("\n## Quick start\n")
        .nth(1)
        .expect("README has a Quick start section");
    let section = section.split("\n## ").next().unwrap();
    let block = section
        .split("```sh\n")
        .nth(1)
        .expect("the Quick start has a sh block");
    block.split("\n```").next().unwrap().to_string()
}

#[test]
fn the_readme_quick_start_runs_as_written() {
    let mut s = Server::stopped(None);
    let log = tempfile::NamedTempFile::new().unwrap();
    // A reader's first start compiles the converters: no cache shared with other tests.
    let own_cache = s.data.path().join("cache");
    s.spawn_logging_to(
        &[
            ("QUIRE_LOG", "quire=info,warn"),
            ("QUIRE_CACHE_DIR", own_cache.to_str().unwrap()),
        ],
        Stdio::from(log.reopen().unwrap()),
    );
    // Only the address differs from a reader's `make run`.
    let script = quick_start_script(&readme()).replace("http://127.0.0.1:8080", &s.base);
    let work = tempfile::tempdir().unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_quire")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let mut bash = s.configure(Command::new("bash"));
    bash.args(["-euo", "pipefail", "-c", &script])
        .current_dir(work.path())
        .env("PATH", path);
    let stdout = run_tool(&mut bash);

    let pdf = std::fs::read(work.path().join("hello.pdf")).expect("hello.pdf written");
    assert!(
        pdf.starts_with(b"%PDF-"),
        "hello.pdf is a PDF, not {}\n(the script printed: {stdout})",
        String::from_utf8_lossy(&pdf[..pdf.len().min(400)])
    );
    let text = run_tool(
        Command::new("pdftotext").args([work.path().join("hello.pdf").to_str().unwrap(), "-"]),
    );
    assert!(
        text.contains("Hello") && text.contains("Markdown"),
        "the PDF reads: {text}"
    );
    let png = std::fs::read(work.path().join("hello.png")).expect("hello.png written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "hello.png is a PNG");
    assert!(
        stdout.contains("/f/") && !stdout.contains("/f/null"),
        "the form's page is named: {stdout}"
    );
    let csv: Vec<&str> = stdout.lines().filter(|l| l.contains(',')).collect();
    assert!(
        csv.len() == 2 && csv[0].contains("dish") && csv[1].contains("Soup"),
        "the CSV has a header and the answer sent through the page: {stdout}"
    );

    let log = std::fs::read_to_string(log.path()).unwrap();
    assert!(
        log.contains("compiling converters 1/"),
        "the first start shows compile progress: {log}"
    );
    assert!(
        log.contains("no account yet") && log.contains("quire admin account create"),
        "a server without accounts says how to make one: {log}"
    );
}

/// Every `QUIRE_*` variable the README's configuration table names is a setting
/// `quire serve --help` shows, with its default where it has one.
#[test]
fn serve_help_lists_every_setting_with_its_variable() {
    let help = run_tool(Command::new(env!("CARGO_BIN_EXE_quire")).args(["serve", "--help"]));
    // --help puts a setting's variable and default on lines of their own.
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = readme();
    let table = readme
        .split("## Configuration (environment)")
        .nth(1)
        .expect("README has a configuration table")
        .split("\n## ")
        .next()
        .unwrap();
    let mut named = 0;
    for word in table.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if word.starts_with("QUIRE_") || word == "DATABASE_URL" || word.starts_with("AWS_") {
            named += 1;
            assert!(
                help.contains(word),
                "`quire serve --help` does not mention {word}:\n{help}"
            );
        }
    }
    assert!(named > 30, "the table names the settings ({named} found)");
    for default in [
        "[env: QUIRE_ADDR=] [default: 127.0.0.1:8080]",
        "[env: QUIRE_DATA=] [default: data]",
        "[env: QUIRE_WORKERS=]",
        "[env: QUIRE_LOG=] [default: quire=info,warn]",
    ] {
        assert!(flat.contains(default), "{default} in:\n{help}");
    }
    // Secrets in the environment are never echoed by --help.
    let help = run_tool(
        Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(["serve", "--help"])
            .env("QUIRE_SMTP_URL", "smtp://user:hunter2@relay")
            .env("QUIRE_ADMIN_TOKEN", "hunter3"),
    );
    assert!(!help.contains("hunter2") && !help.contains("hunter3"));
}
