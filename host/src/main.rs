//! The `quire` binary: parses the command line and hands over to `quire::cli`.

use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("QUIRE_LOG")
                .unwrap_or_else(|_| "quire=info,warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match quire::cli::run(quire::cli::Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
