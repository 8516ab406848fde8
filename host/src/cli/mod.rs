//! The command line: `serve`, `convert`, `plugins`, `fonts`, `schema` (and `admin`, for
//! accounts).

mod admin;
mod convert;
mod fonts;
mod model_assets;
mod plugins;

use clap::{Parser, Subcommand};

use crate::app::App;
use crate::config::{Config, Settings};

#[derive(Parser, Debug)]
#[command(
    name = "quire",
    version,
    about = "Self-hosted document conversion and forms service"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serves the API (QUIRE_ADDR) and the operator API (QUIRE_ADMIN_ADDR). Every setting
    /// below is a flag or an environment variable; other commands read the same variables.
    Serve(Box<Settings>),
    /// Converts one file locally through the sandboxed converters.
    Convert(convert::ConvertArgs),
    /// Manages converter components.
    #[command(subcommand)]
    Plugins(plugins::PluginsCommand),
    /// The font library converters draw text with (QUIRE_FONTS, then the default set).
    #[command(subcommand)]
    Fonts(fonts::FontsCommand),
    /// Accounts, credentials, plans and the bin.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// Prints the JSON Schema of the document model.
    Schema,
    /// Prints the OpenAPI 3.1 document of the public API.
    Openapi,
}

impl Cli {
    /// `serve` takes flags and the environment; every other command the environment.
    pub fn settings(&self) -> anyhow::Result<Settings> {
        match &self.command {
            Command::Serve(settings) => Ok(settings.as_ref().clone()),
            _ => Settings::from_env(),
        }
    }
}

/// Runs one command; `settings` is what `Cli::settings` gave (an error there only matters
/// to commands that need a configuration).
pub async fn run(cli: Cli, settings: anyhow::Result<Settings>) -> anyhow::Result<()> {
    if let Command::Schema = cli.command {
        println!("{}", crate::schema::model_schema());
        return Ok(());
    }
    if let Command::Plugins(plugins::PluginsCommand::New { name, dir, sdk }) = &cli.command {
        return plugins::run_new(name, dir, sdk.as_deref());
    }
    let config = Config::from_settings(&settings?)?;
    // The library alone, from the configured roots: no database, no converters.
    if let Command::Fonts(cmd) = cli.command {
        return fonts::run(&config, cmd);
    }
    if let Command::Admin(admin::AdminCommand::Blobs(admin::BlobsCommand::Migrate { to, json })) =
        &cli.command
    {
        return admin::migrate_blobs(&config.blobs, to, *json).await;
    }
    match &cli.command {
        Command::Admin(admin::AdminCommand::Backup { dir, json }) => {
            config.require_database()?;
            return admin::backup(&config, dir, *json).await;
        }
        // Before anything opens (and so creates) the database it restores.
        Command::Admin(admin::AdminCommand::RestoreBackup { dir, json }) => {
            return admin::restore_backup(&config, dir, *json).await
        }
        _ => {}
    }
    if let Command::Admin(cmd) = cli.command {
        // Accounts need the database only, not the converters; and the one the server made.
        config.require_database()?;
        let db = crate::store::Db::open(config.database_url.as_deref(), &config.data_dir).await?;
        return admin::run(&db, &config.link_base_url(), cmd).await;
    }
    let app = App::open(config).await?;
    match cli.command {
        Command::Serve(_) => crate::api::serve(app).await,
        Command::Convert(args) => convert::run(&app, args).await,
        Command::Plugins(cmd) => plugins::run(&app, cmd).await,
        // The formats in it are the active converters', so it needs the registry.
        Command::Openapi => {
            let formats = crate::api::Formats::of(&app);
            let document = crate::api::openapi_document(&app.config.base_url, &formats);
            println!("{}", serde_json::to_string_pretty(&document)?);
            Ok(())
        }
        Command::Admin(_) | Command::Schema | Command::Fonts(_) => Ok(()),
    }
}
