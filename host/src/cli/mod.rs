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
    /// Exits 0 when the server of these settings answers /readyz on its operator listener
    /// (QUIRE_ADMIN_ADDR) within 5 s: a health check for images without curl.
    Ready,
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
    if let Command::Ready = cli.command {
        return ready(&config);
    }
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
    let app = match cli.command {
        // The first start compiles every converter, which takes a while: a stop asked for
        // meanwhile ends the process at once (nothing is in flight yet), as PID 1 of a
        // container must, since the kernel ignores signals PID 1 has no handler for.
        Command::Serve(_) => tokio::select! {
            app = App::open(config) => app?,
            signal = crate::http::stop_signal() => {
                tracing::info!("{signal} while starting: stopped before serving");
                std::process::exit(0);
            }
        },
        _ => App::open(config).await?,
    };
    match cli.command {
        Command::Serve(_) => crate::server::serve(app).await,
        Command::Convert(args) => convert::run(&app, args).await,
        Command::Plugins(cmd) => plugins::run(&app, cmd).await,
        // The formats in it are the active converters', so it needs the registry.
        Command::Openapi => {
            let formats = crate::api::Formats::of(&app);
            let document = crate::api::openapi_document(&app.config.base_url, &formats);
            println!("{}", serde_json::to_string_pretty(&document)?);
            Ok(())
        }
        Command::Admin(_) | Command::Schema | Command::Fonts(_) | Command::Ready => Ok(()),
    }
}

/// `quire ready`: asks the operator listener, on loopback when it listens on every address.
fn ready(config: &Config) -> anyhow::Result<()> {
    let listener = config.admin_addr;
    let ip = match listener.ip() {
        std::net::IpAddr::V4(v4) if v4.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(v6) if v6.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    let scheme = if config.admin_tls.is_some() {
        "https"
    } else {
        "http"
    };
    let url = format!(
        "{scheme}://{}/readyz",
        std::net::SocketAddr::new(ip, listener.port())
    );
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(5)))
        .http_status_as_error(false)
        .build()
        .into();
    let status = agent
        .get(&url)
        .call()
        .map_err(|e| anyhow::anyhow!("{url}: {e}"))?
        .status();
    anyhow::ensure!(status == 200, "{url} answered {status}: not ready");
    println!("ready ({url})");
    Ok(())
}
