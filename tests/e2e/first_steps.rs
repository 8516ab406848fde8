//! What a newcomer meets first: the README's quick start, run as written against a fresh
//! server, the hints the server logs on its first start, and `quire serve --help`.

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

/// `cmd` without any of Quire's settings from the test's own environment: what a fresh
/// shell has.
fn fresh_shell(mut cmd: Command) -> Command {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy().to_string();
        if name.starts_with("QUIRE_") || name.starts_with("AWS_") || name == "DATABASE_URL" {
            cmd.env_remove(name);
        }
    }
    cmd
}

/// A checkout as `make run` leaves it: the binary in `target/release`, the converters in
/// `target/plugins`, and `quire` linked into `~/.local/bin` (scripts/link-cli.sh).
struct Checkout {
    _root: tempfile::TempDir,
    dir: std::path::PathBuf,
    binary: std::path::PathBuf,
    home: std::path::PathBuf,
}

fn checkout() -> Checkout {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("quire");
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
    let binary = dir.join("target/release/quire");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_quire"), &binary).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_quire"), &binary).unwrap();
    }
    std::os::unix::fs::symlink(crate::common::plugins_dir(), dir.join("target/plugins")).unwrap();
    let home = root.path().join("home");
    run_tool(
        Command::new("bash")
            .arg(crate::common::repo_root().join("scripts/link-cli.sh"))
            .arg(&binary)
            .env("HOME", &home),
    );
    Checkout {
        _root: root,
        dir,
        binary,
        home,
    }
}

#[test]
fn the_readme_quick_start_runs_as_written() {
    let mut s = Server::stopped(None);
    let log = tempfile::NamedTempFile::new().unwrap();
    let checkout = checkout();
    // `make run`: the server with no setting but its address (a free port here), from the
    // checkout; its data goes to the checkout's `data/`, and a reader's first start compiles
    // the converters there.
    let mut serve = fresh_shell(Command::new(&checkout.binary));
    serve
        .arg("serve")
        .current_dir(&checkout.dir)
        .env("QUIRE_ADDR", format!("127.0.0.1:{}", s.port))
        .env("QUIRE_ADMIN_ADDR", format!("127.0.0.1:{}", s.admin_port))
        .env("QUIRE_LOG", "quire=info,warn")
        .env("QUIRE_EXIT_ON_STDIN_EOF", "1")
        .stdin(Stdio::piped())
        .stderr(Stdio::from(log.reopen().unwrap()));
    s.spawn_command(serve);

    // Another terminal, in another directory, with nothing exported.
    let script = quick_start_script(&readme()).replace("http://127.0.0.1:8080", &s.base);
    let work = tempfile::tempdir().unwrap();
    let mut bash = fresh_shell(Command::new("bash"));
    bash.args(["-euo", "pipefail", "-c", &script])
        .current_dir(work.path())
        .env("HOME", &checkout.home);
    let stdout = run_tool(&mut bash);

    assert!(checkout.dir.join("data/quire.db").is_file());
    assert!(
        !work.path().join("data").exists(),
        "the CLI made a data directory where it ran"
    );
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
        stdout.contains("you@example.com") && stdout.contains("pro"),
        "the account list names the account: {stdout}"
    );
    assert!(
        stdout.contains(&format!("{}/signin/", s.base)),
        "the sign-in link is on the server's address: {stdout}"
    );
    assert!(
        stdout.contains("/f/") && !stdout.contains("/f/null"),
        "the form's page is named: {stdout}"
    );
    // The CSV is the script's last output.
    let csv: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("submitted,"))
        .collect();
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
    assert!(
        !log.contains('\u{1b}'),
        "a log written to a file has no terminal colour codes: {log}"
    );
}

/// An admin command run where no server made a database refuses and names the directory,
/// instead of making a new, empty database there.
#[test]
fn an_admin_command_without_a_database_refuses_and_names_where_it_looked() {
    let checkout = checkout();
    let elsewhere = tempfile::tempdir().unwrap();
    for (data, expected) in [
        (None, checkout.dir.join("data")),
        (
            Some(elsewhere.path().join("data")),
            elsewhere.path().join("data"),
        ),
    ] {
        let mut cmd = fresh_shell(Command::new(&checkout.binary));
        cmd.args([
            "admin",
            "account",
            "create",
            "--email",
            "a@example.com",
            "--plan",
            "pro",
        ])
        .current_dir(elsewhere.path());
        if let Some(data) = &data {
            cmd.env("QUIRE_DATA", data);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!("no Quire database in {}", expected.display())),
            "{stderr}"
        );
        assert!(!expected.join("quire.db").exists());
    }
}

/// Every command, subcommand and flag says what it is for (and sizes their unit).
#[test]
fn every_command_and_flag_is_described() {
    let help = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push("--help");
        run_tool(Command::new(env!("CARGO_BIN_EXE_quire")).args(&all))
    };
    let commands: Vec<Vec<&str>> = [
        "admin account create",
        "admin account list",
        "admin account show",
        "admin account set-plan",
        "admin account confirm-email",
        "admin account login-link",
        "admin credential create",
        "admin credential rotate",
        "admin credential revoke",
        "admin credential set-scopes",
        "admin plan show",
        "admin plan set",
        "admin restore",
        "admin backup",
        "admin restore-backup",
        "admin outbox",
        "admin blobs migrate",
        "plugins list",
        "plugins install",
        "plugins activate",
        "plugins rollback",
        "plugins deactivate",
        "plugins new",
        "fonts list",
        "fonts which",
        "convert",
    ]
    .iter()
    .map(|c| c.split(' ').collect())
    .collect();
    for command in commands {
        let text = help(&command);
        // clap lists an argument with its description on the same line or the next; one
        // without a description stands alone.
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let arg = line.trim_start();
            let is_argument = (arg.starts_with("--") || arg.starts_with('<'))
                && line.starts_with("  ")
                && !arg.starts_with("-h, --help");
            if !is_argument {
                continue;
            }
            let described = arg.split("  ").filter(|p| !p.trim().is_empty()).count() > 1
                || lines
                    .get(i + 1)
                    .is_some_and(|next| next.starts_with("          ") && !next.trim().is_empty());
            assert!(
                described,
                "quire {}: `{arg}` has no description:\n{text}",
                command.join(" ")
            );
        }
        let summary = help(&command[..command.len() - 1]);
        let name = command.last().unwrap();
        let listed = summary
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is listed:\n{summary}"));
        assert!(
            listed.split_whitespace().count() > 1,
            "{name} has no summary: {listed}"
        );
    }
    let plan_set = help(&["admin", "plan", "set"]);
    assert!(plan_set.contains("in bytes"), "{plan_set}");
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
        "[env: QUIRE_DATA=]",
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
