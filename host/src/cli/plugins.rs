//! `quire plugins list | install FILE | activate NAME@VERSION | rollback NAME`.

use std::path::PathBuf;

use anyhow::Context;

use crate::app::App;

#[derive(clap::Subcommand, Debug)]
pub enum PluginsCommand {
    /// Every installed version; `*` marks the active one.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Vets a component (describe, smoke test), stores it and makes it active.
    Install {
        file: PathBuf,
        /// Store it without making it active.
        #[arg(long)]
        no_activate: bool,
    },
    /// Makes an installed version the active one.
    Activate { spec: String },
    /// Reactivates the version that was active before the current one.
    Rollback { name: String },
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
    }
    Ok(())
}
