//! The command line: `serve`, `convert`, `plugins`, `schema` (and `admin`, for accounts).

mod admin;
mod convert;
mod plugins;

use clap::{Parser, Subcommand};

use crate::app::App;
use crate::config::Config;

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
    /// Serves the API (QUIRE_ADDR) and the operator API (QUIRE_ADMIN_ADDR).
    Serve,
    /// Converts one file locally through the sandboxed converters.
    Convert(convert::ConvertArgs),
    /// Manages converter components.
    #[command(subcommand)]
    Plugins(plugins::PluginsCommand),
    /// Accounts, credentials, plans and the bin.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// Prints the JSON Schema of the document model.
    Schema,
    /// Prints the OpenAPI 3.1 document of the public API.
    Openapi,
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Schema => {
            println!("{}", crate::schema::model_schema());
            return Ok(());
        }
        Command::Openapi => {
            let base =
                std::env::var("QUIRE_BASE_URL").unwrap_or_else(|_| "http://127.0.0.1:8080".into());
            println!(
                "{}",
                serde_json::to_string_pretty(&crate::api::openapi_document(&base))?
            );
            return Ok(());
        }
        _ => {}
    }
    let config = Config::from_env()?;
    if let Command::Admin(cmd) = cli.command {
        // Accounts need the database only, not the converters.
        std::fs::create_dir_all(&config.data_dir)?;
        let db = crate::store::Db::open(config.database_url.as_deref(), &config.data_dir).await?;
        return admin::run(&db, cmd).await;
    }
    let app = App::open(config).await?;
    match cli.command {
        Command::Serve => crate::api::serve(app).await,
        Command::Convert(args) => convert::run(&app, args).await,
        Command::Plugins(cmd) => plugins::run(&app, cmd).await,
        Command::Admin(_) | Command::Schema | Command::Openapi => Ok(()),
    }
}
