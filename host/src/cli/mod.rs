//! The command line: `serve`, `convert`, `plugins`, `schema` (and `admin`, for accounts).

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
    /// Prints the JSON Schema of the document model.
    Schema,
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    if let Command::Schema = cli.command {
        println!("{}", crate::schema::model_schema());
        return Ok(());
    }
    let config = Config::from_env()?;
    let app = App::open(config).await?;
    match cli.command {
        Command::Serve => crate::api::serve(app).await,
        Command::Convert(args) => convert::run(&app, args).await,
        Command::Plugins(cmd) => plugins::run(&app, cmd).await,
        Command::Schema => Ok(()),
    }
}
