//! The `quire` binary: parses the command line and hands over to `quire::cli`.

use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_env("QUIRE_LOG")
        .unwrap_or_else(|_| "quire=info,warn".into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // One JSON object per line for log collectors; each carries the request's span (its
    // id, method and route) like the text lines do.
    if std::env::var("QUIRE_LOG_FORMAT").is_ok_and(|v| v == "json") {
        logs.json()
            .with_current_span(true)
            .with_span_list(false)
            .init();
    } else {
        logs.init();
    }
    match quire::cli::run(quire::cli::Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
