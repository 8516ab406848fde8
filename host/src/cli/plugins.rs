//! `quire plugins list | install FILE | activate NAME@VERSION | rollback NAME | deactivate NAME`,
//! and `quire plugins new NAME`, which starts a converter crate from plugins/template.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::app::App;

#[derive(clap::Subcommand, Debug)]
pub enum PluginsCommand {
    /// Every installed version; `*` marks the active one.
    List {
        /// Prints one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Vets a component (describe, smoke test), stores it and makes it active.
    Install {
        /// The component: a .wasm file built for wasm32-wasip2 against the converter WIT.
        file: PathBuf,
        /// Store it without making it active.
        #[arg(long)]
        no_activate: bool,
    },
    /// Makes an installed version the active one.
    Activate {
        /// NAME@VERSION, as `quire plugins list` shows it.
        spec: String,
    },
    /// Reactivates the version that was active before the current one.
    Rollback {
        /// The converter's name.
        name: String,
    },
    /// Takes a converter out of service (its formats stop being readable or servable on
    /// every host); its versions stay installed, and `rollback` brings the last one back.
    Deactivate {
        /// The converter's name.
        name: String,
    },
    /// Starts a converter crate of your own (a CSV importer to edit) in DIR/NAME, built
    /// against the SDK with `cargo build --release --target wasm32-wasip2`.
    New {
        /// The converter's name: a-z, 0-9 and -, starting with a letter.
        name: String,
        /// Where the crate's folder goes.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// The SDK's folder (plugins/sdk of a Quire checkout); by default the one this
        /// binary was built from.
        #[arg(long)]
        sdk: Option<PathBuf>,
    },
}

const TEMPLATE_MANIFEST: &str = include_str!("../../../plugins/template/Cargo.toml.tmpl");
const TEMPLATE_LIB: &str = include_str!("../../../plugins/template/src/lib.rs");

/// `quire plugins new`: needs no database or converters, so the CLI runs it before opening
/// the App.
pub fn run_new(name: &str, dir: &Path, sdk: Option<&Path>) -> anyhow::Result<()> {
    let root = new_crate(name, dir, sdk)?;
    println!(
        "{}: build it with `cargo build --release --target wasm32-wasip2` there",
        root.display()
    );
    Ok(())
}

/// Writes a new converter crate from the template.
pub fn new_crate(name: &str, dir: &Path, sdk: Option<&Path>) -> anyhow::Result<PathBuf> {
    let name_ok = (1..=40).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    anyhow::ensure!(
        name_ok,
        "`{name}` is not a converter name: use 1-40 characters of a-z, 0-9 and -, starting with a letter"
    );
    let sdk = match sdk {
        Some(p) => p.to_path_buf(),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugins/sdk")),
    };
    let sdk = sdk
        .canonicalize()
        .ok()
        .filter(|p| p.join("Cargo.toml").is_file());
    let sdk = sdk.context(
        "the SDK is not where this binary was built from; pass --sdk PATH/TO/quire/plugins/sdk",
    )?;
    let root = dir.join(name);
    anyhow::ensure!(!root.exists(), "{} exists already", root.display());
    let fill = |text: &str| {
        text.replace("{{crate_file}}", &name.replace('-', "_"))
            .replace("{{crate}}", name)
            .replace("{{name}}", name)
            .replace("{{sdk}}", &sdk.display().to_string().replace('\\', "/"))
    };
    std::fs::create_dir_all(root.join("src"))
        .with_context(|| format!("creating {}", root.display()))?;
    std::fs::write(root.join("Cargo.toml"), fill(TEMPLATE_MANIFEST))?;
    std::fs::write(root.join("src/lib.rs"), fill(TEMPLATE_LIB))?;
    Ok(root)
}

pub async fn run(app: &App, cmd: PluginsCommand) -> anyhow::Result<()> {
    let plugins = &app.plugins;
    match cmd {
        PluginsCommand::List { json } => {
            let rows = plugins.list().await?;
            if json {
                println!("{}", serde_json::json!({ "plugins": rows }));
            } else {
                for r in rows {
                    let mark = if r.active { "*" } else { " " };
                    let formats: Vec<String> = r
                        .imports
                        .iter()
                        .map(|m| format!("in {m}"))
                        .chain(r.exports.iter().map(|m| format!("out {m}")))
                        .collect();
                    println!(
                        "{mark} {}@{}  {}  {}",
                        r.name,
                        r.version,
                        &r.digest[..12],
                        formats.join(", ")
                    );
                }
            }
        }
        PluginsCommand::Install { file, no_activate } => {
            let wasm =
                std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
            let info = plugins.install(wasm, !no_activate).await?;
            let state = if no_activate {
                "installed"
            } else {
                "installed and active"
            };
            println!("{}@{} {state}", info.name, info.version);
        }
        PluginsCommand::Activate { spec } => {
            let (name, version) = spec.split_once('@').context("write NAME@VERSION")?;
            plugins.activate(name, version).await?;
            println!("{name}@{version} active");
        }
        PluginsCommand::Rollback { name } => {
            let version = plugins.rollback(&name).await?;
            println!("{name}@{version} active again");
        }
        PluginsCommand::Deactivate { name } => {
            let version = plugins.deactivate(&name).await?;
            println!("{name}@{version} deactivated");
        }
        PluginsCommand::New { name, dir, sdk } => run_new(&name, &dir, sdk.as_deref())?,
    }
    Ok(())
}
