//! The `quire` binary: parses the command line and hands over to `quire::cli`.

use clap::Parser;
use quire::config::{LogFormat, Settings};

fn main() -> std::process::ExitCode {
    // Before the runtime starts its threads: it edits the environment.
    Settings::unset_empty_variables();
    let cli = quire::cli::Cli::parse();
    let settings = cli.settings();
    let (filter, format) = match &settings {
        Ok(s) => (s.log.as_str(), s.log_format),
        Err(_) => ("quire=info,warn", LogFormat::Text),
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_new(filter)
                .unwrap_or_else(|_| "quire=info,warn".into()),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a person at a terminal, never into a file or a journal.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    // One JSON object per line for log collectors; each carries the request's span (its
    // id, method and route) like the text lines do.
    match format {
        LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
        LogFormat::Text => logs.init(),
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: starting the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(quire::cli::run(cli, settings)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
