//! Every setting, once: its flag, its environment variable, its default and what it means.
//! `quire serve --help` prints this table; every other command reads the same variables.

use std::net::SocketAddr;
use std::path::PathBuf;

/// How log lines are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One readable line per event.
    #[default]
    Text,
    /// One JSON object per line, with the request's span (id, method, route).
    Json,
}

#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = AFTER_HELP, after_help = AFTER_HELP)]
pub struct Settings {
    /// Public API listener.
    #[arg(
        long,
        env = "QUIRE_ADDR",
        default_value = "127.0.0.1:8080",
        help_heading = "Listeners"
    )]
    pub addr: SocketAddr,
    /// Operator API listener (converter plugins).
    #[arg(
        long,
        env = "QUIRE_ADMIN_ADDR",
        default_value = "127.0.0.1:8081",
        help_heading = "Listeners"
    )]
    pub admin_addr: SocketAddr,
    /// The operator API's bearer token [default: generated into $QUIRE_DATA/admin.token].
    #[arg(
        long,
        env = "QUIRE_ADMIN_TOKEN",
        hide_env_values = true,
        help_heading = "Listeners"
    )]
    pub admin_token: Option<String>,
    /// Base of the links in responses and mail [default: http(s)://ADDR]; required with --smtp-url or --trust-proxy.
    #[arg(long, env = "QUIRE_BASE_URL", help_heading = "Listeners")]
    pub base_url: Option<String>,
    /// Origins allowed to frame the public form pages (comma-separated, e.g. https://example.com, https://*.example.org) [default: none].
    #[arg(long, env = "QUIRE_FRAME_ANCESTORS", help_heading = "Listeners")]
    pub frame_ancestors: Option<String>,
    /// Reverse proxies (addresses or CIDR blocks, comma-separated) whose X-Forwarded-For counts.
    #[arg(long, env = "QUIRE_TRUST_PROXY", help_heading = "Listeners")]
    pub trust_proxy: Option<String>,
    /// PEM certificate chain: the public listener speaks HTTPS (with --tls-key).
    #[arg(long, env = "QUIRE_TLS_CERT", help_heading = "Listeners")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, env = "QUIRE_TLS_KEY", help_heading = "Listeners")]
    pub tls_key: Option<PathBuf>,
    /// PEM certificate chain for the operator listener (with --admin-tls-key).
    #[arg(long, env = "QUIRE_ADMIN_TLS_CERT", help_heading = "Listeners")]
    pub admin_tls_cert: Option<PathBuf>,
    /// PEM private key of --admin-tls-cert.
    #[arg(long, env = "QUIRE_ADMIN_TLS_KEY", help_heading = "Listeners")]
    pub admin_tls_key: Option<PathBuf>,
    /// On SIGTERM or SIGINT, seconds requests in flight may take to finish.
    #[arg(
        long,
        env = "QUIRE_DRAIN_SECS",
        default_value_t = 30,
        help_heading = "Listeners"
    )]
    pub drain_secs: u64,

    /// Data directory: the SQLite database, blobs, the compiled-component cache [default: data in the checkout the binary was built in (so the CLI finds `make run`'s from any directory), else ./data].
    #[arg(long, env = "QUIRE_DATA", help_heading = "Storage")]
    pub data: Option<PathBuf>,
    /// postgres://USER:PASSWORD@HOST/DB for several hosts sharing one database [default: SQLite in --data].
    #[arg(
        long,
        env = "DATABASE_URL",
        hide_env_values = true,
        help_heading = "Storage"
    )]
    pub database_url: Option<String>,
    /// Where blobs live: a directory, or s3://BUCKET[/PREFIX] (with the AWS_* variables below) [default: $QUIRE_DATA/blobs].
    #[arg(long, env = "QUIRE_BLOBS", help_heading = "Storage")]
    pub blobs: Option<String>,
    /// Converter components installed on a fresh data directory [default: target/plugins beside the binary].
    #[arg(long, env = "QUIRE_PLUGINS_DIR", help_heading = "Storage")]
    pub plugins_dir: Option<PathBuf>,
    /// Where compiled converters are kept; installations of one user may share one (each artifact is named by its component and engine) [default: $QUIRE_DATA/cache].
    #[arg(long, env = "QUIRE_CACHE_DIR", help_heading = "Storage")]
    pub cache_dir: Option<PathBuf>,

    /// Fuel (roughly wasm instructions) one conversion may use.
    #[arg(
        long,
        env = "QUIRE_FUEL",
        default_value_t = 50_000_000_000,
        help_heading = "Conversions"
    )]
    pub fuel: u64,
    /// Linear memory one conversion may use, in MiB.
    #[arg(
        long,
        env = "QUIRE_MEMORY_MB",
        default_value_t = 512,
        help_heading = "Conversions"
    )]
    pub memory_mb: usize,
    /// Wall-clock milliseconds one conversion may take.
    #[arg(
        long,
        env = "QUIRE_DEADLINE_MS",
        default_value_t = 30_000,
        help_heading = "Conversions"
    )]
    pub deadline_ms: u64,
    /// Meter the plugin directory's converters with fuel too: they run with the deadline
    /// alone otherwise, about a fifth faster (fuel stays on for every other converter).
    #[arg(
        long,
        env = "QUIRE_METER_BUILT_INS",
        value_parser = clap::builder::FalseyValueParser::new(),
        help_heading = "Conversions"
    )]
    pub meter_built_ins: bool,
    /// Font files and directories (colon-separated) converters draw text with, before the default set; families found here win.
    #[arg(long, env = "QUIRE_FONTS", help_heading = "Fonts")]
    pub fonts: Option<String>,
    /// Also use the default font directories (Liberation and Noto under /usr/share/fonts, which `make run` installs).
    #[arg(
        long,
        env = "QUIRE_FONTS_DEFAULTS",
        default_value = "true",
        value_parser = clap::builder::FalseyValueParser::new(),
        help_heading = "Fonts"
    )]
    pub fonts_defaults: bool,
    /// Conversions running at once [default: the number of cores].
    #[arg(long, env = "QUIRE_WORKERS", help_heading = "Conversions")]
    pub workers: Option<usize>,
    /// Callers allowed to wait for a worker before 503 (each waits at most the deadline).
    #[arg(
        long,
        env = "QUIRE_QUEUE",
        default_value_t = 64,
        help_heading = "Conversions"
    )]
    pub queue: usize,

    /// Request bodies held in memory at once, across every request, in MiB.
    #[arg(
        long,
        env = "QUIRE_BODY_MEMORY_MB",
        default_value_t = 1024,
        help_heading = "Limits"
    )]
    pub body_memory_mb: u64,
    /// Longest pause inside a request body, in seconds.
    #[arg(
        long,
        env = "QUIRE_BODY_IDLE_SECS",
        default_value_t = 30,
        help_heading = "Limits"
    )]
    pub body_idle_secs: u64,
    /// Longest wait for body memory other requests hold, in seconds.
    #[arg(
        long,
        env = "QUIRE_BODY_WAIT_SECS",
        default_value_t = 10,
        help_heading = "Limits"
    )]
    pub body_wait_secs: u64,
    /// Requests per minute for form pages and their pictures, per client address (0: no limit).
    #[arg(
        long,
        env = "QUIRE_LINK_VIEWS_PER_CLIENT",
        default_value_t = 300,
        help_heading = "Limits"
    )]
    pub link_views_per_client: u32,
    /// Answers per minute through form links, per client address (0: no limit).
    #[arg(
        long,
        env = "QUIRE_LINK_ANSWERS_PER_CLIENT",
        default_value_t = 20,
        help_heading = "Limits"
    )]
    pub link_answers_per_client: u32,
    /// Answers per minute through one form's link, from everyone together (0: no limit).
    #[arg(
        long,
        env = "QUIRE_LINK_ANSWERS_PER_FORM",
        default_value_t = 600,
        help_heading = "Limits"
    )]
    pub link_answers_per_form: u32,
    /// Wrong secrets per client id per minute at the token endpoint (0: no limit).
    #[arg(
        long,
        env = "QUIRE_TOKEN_FAILURES_PER_MINUTE",
        default_value_t = 10,
        help_heading = "Limits"
    )]
    pub token_failures_per_minute: u32,

    /// The mail relay: smtp[s]://[USER:PASSWORD@]HOST[:PORT][?tls=required|opportunistic|none] [default: none, mail waits in the outbox].
    #[arg(
        long,
        env = "QUIRE_SMTP_URL",
        hide_env_values = true,
        help_heading = "Mail"
    )]
    pub smtp_url: Option<String>,
    /// PEM certificates a private relay's certificate may chain to, besides the public roots.
    #[arg(long, env = "QUIRE_SMTP_CA", help_heading = "Mail")]
    pub smtp_ca: Option<PathBuf>,
    /// Sender of invitations and notices [default: quire@<host of the base URL>].
    #[arg(long, env = "QUIRE_MAIL_FROM", help_heading = "Mail")]
    pub mail_from: Option<String>,
    /// Longest wait between two attempts at one message, in seconds.
    #[arg(
        long,
        env = "QUIRE_MAIL_RETRY_MAX_SECS",
        default_value_t = 300,
        help_heading = "Mail"
    )]
    pub mail_retry_max_secs: u64,
    /// How often the outbox is read, in milliseconds.
    #[arg(
        long,
        env = "QUIRE_MAIL_POLL_MS",
        default_value_t = 1000,
        help_heading = "Mail"
    )]
    pub mail_poll_ms: u64,

    /// Addresses and CIDR blocks webhooks may reach although they are private, loopback or
    /// link-local (comma-separated), over plain HTTP too [default: none, public HTTPS only].
    #[arg(long, env = "QUIRE_WEBHOOK_ALLOW", help_heading = "Webhooks")]
    pub webhook_allow: Option<String>,
    /// PEM certificates a receiver's certificate may chain to, besides the public roots.
    #[arg(long, env = "QUIRE_WEBHOOK_CA", help_heading = "Webhooks")]
    pub webhook_ca: Option<PathBuf>,
    /// Wait before the second attempt at a delivery, in milliseconds; each later wait is six
    /// times longer, up to --webhook-retry-max-secs.
    #[arg(
        long,
        env = "QUIRE_WEBHOOK_RETRY_FIRST_MS",
        default_value_t = 5000,
        help_heading = "Webhooks"
    )]
    pub webhook_retry_first_ms: u64,
    /// Longest wait between two attempts at a delivery, in seconds.
    #[arg(
        long,
        env = "QUIRE_WEBHOOK_RETRY_MAX_SECS",
        default_value_t = 36_000,
        help_heading = "Webhooks"
    )]
    pub webhook_retry_max_secs: u64,
    /// How long a delivery is retried before it is given up, in seconds.
    #[arg(
        long,
        env = "QUIRE_WEBHOOK_GIVE_UP_SECS",
        default_value_t = 86_400,
        help_heading = "Webhooks"
    )]
    pub webhook_give_up_secs: u64,
    /// How often the deliveries waiting are read, in milliseconds.
    #[arg(
        long,
        env = "QUIRE_WEBHOOK_POLL_MS",
        default_value_t = 1000,
        help_heading = "Webhooks"
    )]
    pub webhook_poll_ms: u64,

    /// Log levels, in tracing's filter syntax (e.g. quire=debug,info).
    #[arg(
        long,
        env = "QUIRE_LOG",
        default_value = "quire=info,warn",
        help_heading = "Logs"
    )]
    pub log: String,
    /// text, or json for one JSON object per line.
    #[arg(long, env = "QUIRE_LOG_FORMAT", value_enum, ignore_case = true, default_value_t = LogFormat::Text, help_heading = "Logs")]
    pub log_format: LogFormat,

    /// For test harnesses: exit when standard input closes.
    #[arg(long, env = "QUIRE_EXIT_ON_STDIN_EOF", hide = true)]
    pub exit_on_stdin_eof: Option<String>,
}

const AFTER_HELP: &str = "\
An S3-compatible blob store (--blobs s3://...) is reached with AWS_ENDPOINT_URL,
AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN and AWS_REGION (default us-east-1).
An empty environment variable counts as unset.";

/// A parser holding only the settings: how commands other than `serve` read them (from
/// the environment, with the same defaults).
#[derive(clap::Parser)]
#[command(name = "quire")]
struct SettingsOnly {
    #[command(flatten)]
    settings: Settings,
}

impl Settings {
    /// Settings from flags alone, as `serve` would read them (tests).
    #[cfg(test)]
    pub fn from_args(args: &[&str]) -> anyhow::Result<Settings> {
        use clap::Parser;
        let argv = std::iter::once("quire").chain(args.iter().copied());
        Ok(SettingsOnly::try_parse_from(argv)?.settings)
    }

    pub fn from_env() -> anyhow::Result<Settings> {
        use clap::Parser;
        SettingsOnly::try_parse_from(["quire"])
            .map(|s| s.settings)
            .map_err(|e| {
                let text = e.render().to_string();
                anyhow::anyhow!("{}", text.trim().trim_start_matches("error: "))
            })
    }

    /// Removes the settings' variables that are set but empty, so that they count as unset
    /// (clap would read `QUIRE_ADDR=` as an empty address). Changes the process environment:
    /// call it before any other thread exists.
    pub fn unset_empty_variables() {
        use clap::CommandFactory;
        for arg in SettingsOnly::command().get_arguments() {
            if let Some(name) = arg.get_env() {
                if std::env::var_os(name).is_some_and(|v| v.is_empty()) {
                    std::env::remove_var(name);
                }
            }
        }
    }
}
