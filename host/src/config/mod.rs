//! The running configuration, made from the settings (flags or environment, see
//! `settings`) with the embedded defaults `make run` relies on.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use crate::runtime::Limits;
use crate::store::BlobLocation;

pub mod addresses;
mod frames;
mod settings;

pub use addresses::AddressBlocks;
pub use frames::FrameAncestors;
pub use settings::{LogFormat, Settings};

#[derive(Debug, Clone)]
pub struct Config {
    /// Public API listener (`QUIRE_ADDR`).
    pub addr: SocketAddr,
    /// Operator listener (`QUIRE_ADMIN_ADDR`), loopback by default.
    pub admin_addr: SocketAddr,
    /// `QUIRE_ADMIN_TOKEN`; none means one generated into the data directory.
    pub admin_token: Option<String>,
    /// Data directory: SQLite database, blobs, compile cache (`QUIRE_DATA`).
    pub data_dir: PathBuf,
    /// `DATABASE_URL`; none means SQLite in the data directory.
    pub database_url: Option<String>,
    /// `QUIRE_BLOBS`: a directory (default `$QUIRE_DATA/blobs`) or `s3://BUCKET[/PREFIX]`.
    pub blobs: BlobLocation,
    /// Base of the links in responses and mail (`QUIRE_BASE_URL`, else the listen address).
    pub base_url: String,
    /// `QUIRE_TRUST_PROXY`: the reverse proxies whose `X-Forwarded-For` is believed.
    pub trust_proxy: AddressBlocks,
    /// `QUIRE_FRAME_ANCESTORS`: the origins whose pages may frame a public form page.
    pub frame_ancestors: FrameAncestors,
    /// Where `make build` put the plugins to install on a fresh data directory.
    pub plugins_dir: PathBuf,
    /// The compile cache (`QUIRE_CACHE_DIR`, default `$QUIRE_DATA/cache`).
    pub cache_dir: PathBuf,
    pub limits: Limits,
    pub meter_built_ins: bool,
    /// `QUIRE_FONTS` then, unless `QUIRE_FONTS_DEFAULTS=false`, the default directories.
    pub font_roots: Vec<PathBuf>,
    /// How many of `font_roots`, from the front, `QUIRE_FONTS` named; the rest are the
    /// default set (`quire fonts list` says which a font came from).
    pub font_roots_listed: usize,
    pub workers: usize,
    pub max_waiting: usize,
    pub mail: MailConfig,
    pub webhooks: WebhookConfig,
    /// Bytes of request bodies held in memory at once, across every request.
    pub body_memory: u64,
    /// How long a request body may pause between two pieces before it is dropped.
    pub body_idle: Duration,
    /// How long a request body waits for memory other bodies hold before it is refused.
    pub body_wait: Duration,
    /// Answers one client may send through form links, per minute
    /// (`QUIRE_LINK_ANSWERS_PER_CLIENT`, 0 for no limit); a burst of as many is allowed.
    pub link_answers_per_client: u32,
    /// Requests for form pages and their page pictures one client may make per minute
    /// (`QUIRE_LINK_VIEWS_PER_CLIENT`, 0 for no limit).
    pub link_views_per_client: u32,
    /// Answers one form takes through its link, per minute, from everyone together
    /// (`QUIRE_LINK_ANSWERS_PER_FORM`, 0 for no limit).
    pub link_answers_per_form: u32,
    /// Wrong secrets one client id may send to the token endpoint per minute before it is
    /// told to wait (`QUIRE_TOKEN_FAILURES_PER_MINUTE`, 0 for no limit).
    pub token_failures_per_minute: u32,
    /// `QUIRE_TLS_CERT` and `QUIRE_TLS_KEY` (PEM files): the public listener speaks HTTPS.
    pub tls: Option<TlsFiles>,
    /// `QUIRE_ADMIN_TLS_CERT` and `QUIRE_ADMIN_TLS_KEY`: the operator listener does too.
    pub admin_tls: Option<TlsFiles>,
    /// On SIGTERM or SIGINT, how long requests in flight may take to finish
    /// (`QUIRE_DRAIN_SECS`).
    pub drain: Duration,
    /// `QUIRE_EXIT_ON_STDIN_EOF=1`: test harnesses hold our stdin open and close it when
    /// they exit; the server leaves with them.
    pub exit_on_stdin_eof: bool,
}

/// A certificate chain and its private key, both PEM.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Both of a pair of files, or neither.
fn tls_files(
    cert: &Option<PathBuf>,
    key: &Option<PathBuf>,
    names: &str,
) -> anyhow::Result<Option<TlsFiles>> {
    match (given(cert), given(key)) {
        (Some(cert), Some(key)) => Ok(Some(TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
        })),
        (None, None) => Ok(None),
        _ => anyhow::bail!("set both {names}, or neither"),
    }
}

/// Outgoing mail. Without `smtp` mail waits in the outbox (`quire admin outbox`).
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// `QUIRE_SMTP_URL`, `smtp[s]://[user:password@]host[:port][?tls=required|opportunistic|none]`.
    pub smtp: Option<String>,
    /// `QUIRE_SMTP_CA`: PEM certificates a private relay's certificate may chain to, besides
    /// the public roots.
    pub smtp_ca: Option<PathBuf>,
    /// `QUIRE_MAIL_FROM`; default `quire@<host of the base URL>`.
    pub from: String,
    /// Longest wait between two attempts at one message (`QUIRE_MAIL_RETRY_MAX_SECS`).
    pub retry_max: Duration,
    /// How often the outbox is looked at (`QUIRE_MAIL_POLL_MS`).
    pub poll: Duration,
}

/// Webhook deliveries (see `webhooks`).
#[derive(Debug, Clone)]
pub struct WebhookConfig {
    /// `QUIRE_WEBHOOK_ALLOW`: private addresses receivers may have, reached over HTTP too.
    pub allow: AddressBlocks,
    /// `QUIRE_WEBHOOK_CA`: PEM certificates of a private CA receivers' certificates chain to.
    pub ca: Option<PathBuf>,
    /// Wait before the second attempt (`QUIRE_WEBHOOK_RETRY_FIRST_MS`).
    pub retry_first: Duration,
    /// Longest wait between attempts (`QUIRE_WEBHOOK_RETRY_MAX_SECS`).
    pub retry_max: Duration,
    /// A delivery not taken in this long is given up (`QUIRE_WEBHOOK_GIVE_UP_SECS`).
    pub give_up: Duration,
    /// How often due deliveries are read (`QUIRE_WEBHOOK_POLL_MS`).
    pub poll: Duration,
}

/// The operator's font roots (`QUIRE_FONTS`, colon-separated) first, so their families
/// win over the default set's; also how many of them `QUIRE_FONTS` named.
fn font_roots(listed: Option<&str>, defaults: bool) -> (Vec<PathBuf>, usize) {
    let mut roots: Vec<PathBuf> = listed
        .unwrap_or("")
        .split(':')
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect();
    let named = roots.len();
    if defaults {
        roots.extend(crate::runtime::FontLibrary::default_roots());
    }
    (roots, named)
}

/// A setting given as an empty string counts as not given (`QUIRE_SMTP_URL=` in a unit
/// file switches mail off rather than failing to parse).
fn given<T: AsRef<std::ffi::OsStr>>(value: &Option<T>) -> Option<&T> {
    value.as_ref().filter(|v| !v.as_ref().is_empty())
}

fn given_string(value: &Option<String>) -> Option<String> {
    given(value).cloned()
}

impl Config {
    /// The settings of the environment (every command but `serve`, which takes flags too).
    pub fn from_env() -> anyhow::Result<Config> {
        Config::from_settings(&Settings::from_env()?)
    }

    pub fn from_settings(s: &Settings) -> anyhow::Result<Config> {
        let tls = tls_files(&s.tls_cert, &s.tls_key, "QUIRE_TLS_CERT and QUIRE_TLS_KEY")?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        require_base_url(s)?;
        let base_url = given_string(&s.base_url)
            .unwrap_or_else(|| format!("{scheme}://{}", s.addr))
            .trim_end_matches('/')
            .to_string();
        let mail_from = given_string(&s.mail_from).unwrap_or_else(|| {
            let host = base_url
                .split("://")
                .nth(1)
                .unwrap_or("localhost")
                .split([':', '/', '['])
                .next()
                .filter(|h| !h.is_empty())
                .unwrap_or("localhost");
            format!("quire@{host}")
        });
        let data_dir = given(&s.data).cloned().unwrap_or_else(default_data_dir);
        let cache_dir = given(&s.cache_dir)
            .cloned()
            .unwrap_or_else(|| data_dir.join("cache"));
        let blobs =
            BlobLocation::parse(given(&s.blobs).map(String::as_str), &data_dir.join("blobs"))?;
        let (font_roots, font_roots_listed) =
            font_roots(given(&s.fonts).map(String::as_str), s.fonts_defaults);
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Ok(Config {
            addr: s.addr,
            admin_addr: s.admin_addr,
            admin_token: given_string(&s.admin_token),
            data_dir,
            database_url: given_string(&s.database_url),
            blobs,
            base_url,
            trust_proxy: AddressBlocks::parse(
                "QUIRE_TRUST_PROXY",
                s.trust_proxy.as_deref().unwrap_or(""),
            )?,
            frame_ancestors: FrameAncestors::parse(s.frame_ancestors.as_deref().unwrap_or(""))?,
            plugins_dir: match given(&s.plugins_dir) {
                Some(d) => d.clone(),
                None => default_plugins_dir().context("finding the plugin directory")?,
            },
            cache_dir,
            limits: Limits {
                fuel: s.fuel,
                memory: s.memory_mb << 20,
                deadline: Duration::from_millis(s.deadline_ms),
            },
            meter_built_ins: s.meter_built_ins,
            font_roots,
            font_roots_listed,
            workers: s.workers.unwrap_or(cores),
            max_waiting: s.queue,
            mail: MailConfig {
                smtp: given_string(&s.smtp_url),
                smtp_ca: given(&s.smtp_ca).cloned(),
                from: mail_from,
                retry_max: Duration::from_secs(s.mail_retry_max_secs),
                poll: Duration::from_millis(s.mail_poll_ms),
            },
            webhooks: WebhookConfig {
                allow: AddressBlocks::parse(
                    "QUIRE_WEBHOOK_ALLOW",
                    s.webhook_allow.as_deref().unwrap_or(""),
                )?,
                ca: given(&s.webhook_ca).cloned(),
                retry_first: Duration::from_millis(s.webhook_retry_first_ms.max(1)),
                retry_max: Duration::from_secs(s.webhook_retry_max_secs.max(1)),
                give_up: Duration::from_secs(s.webhook_give_up_secs),
                poll: Duration::from_millis(s.webhook_poll_ms.max(1)),
            },
            body_memory: s.body_memory_mb << 20,
            body_idle: Duration::from_secs(s.body_idle_secs),
            body_wait: Duration::from_secs(s.body_wait_secs),
            link_views_per_client: s.link_views_per_client,
            link_answers_per_client: s.link_answers_per_client,
            link_answers_per_form: s.link_answers_per_form,
            token_failures_per_minute: s.token_failures_per_minute,
            tls,
            admin_tls: tls_files(
                &s.admin_tls_cert,
                &s.admin_tls_key,
                "QUIRE_ADMIN_TLS_CERT and QUIRE_ADMIN_TLS_KEY",
            )?,
            drain: Duration::from_secs(s.drain_secs),
            exit_on_stdin_eof: s.exit_on_stdin_eof.as_deref() == Some("1"),
        })
    }
}

/// Links that carry a secret (sign-in links, invitations) are mailed, and behind a proxy
/// the address clients use is not the one Quire listens on: in both cases the links would
/// otherwise point at the listen address, so the operator must say the public one.
/// Request headers (`Host`, `X-Forwarded-Host`) are never used instead: whoever sends the
/// request could then choose where a victim's sign-in link points.
fn require_base_url(s: &Settings) -> anyhow::Result<()> {
    if given(&s.base_url).is_some() {
        return Ok(());
    }
    let needs = if given(&s.smtp_url).is_some() {
        "QUIRE_SMTP_URL is set: mailed links (sign-in, invitations, notices)"
    } else if s
        .trust_proxy
        .as_deref()
        .is_some_and(|t| !t.trim().is_empty())
    {
        "QUIRE_TRUST_PROXY is set: behind a proxy, links"
    } else {
        return Ok(());
    };
    anyhow::bail!(
        "{needs} need the address people reach this service at; set QUIRE_BASE_URL \
         (for example https://docs.example.org)"
    )
}

/// `make build` copies the plugins to `target/plugins`, beside `target/release/quire`.
/// The checkout a binary built by cargo runs from (`CHECKOUT/target/PROFILE/quire`), if
/// this is one. `current_exe` resolves symbolic links, so a `quire` linked onto `PATH` finds
/// it too.
fn checkout_of_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let target = exe.parent()?.parent()?;
    if target.file_name()? != "target" {
        return None;
    }
    let root = target.parent()?;
    root.join("Cargo.toml")
        .is_file()
        .then(|| root.to_path_buf())
}

/// `data` in the checkout the binary was built in: every command of that build, run from any
/// directory, works on the data `make run` serves. A binary installed elsewhere uses
/// `./data` (the systemd unit and the container set `QUIRE_DATA`).
fn default_data_dir() -> PathBuf {
    checkout_of_binary().map_or_else(|| PathBuf::from("data"), |root| root.join("data"))
}

/// The file in a data directory where the server that last started on it wrote its base
/// URL, for the links the CLI prints.
const SERVED_AT: &str = "served-at";

/// Records `base_url` as where this data directory is served.
pub fn record_served_at(data_dir: &Path, base_url: &str) -> anyhow::Result<()> {
    let path = data_dir.join(SERVED_AT);
    std::fs::write(&path, format!("{base_url}\n"))
        .with_context(|| format!("writing {}", path.display()))
}

impl Config {
    /// The base URL of links the CLI prints (`quire admin account login-link`): the
    /// configured one when `QUIRE_BASE_URL` or `QUIRE_ADDR` is set, else the one the server
    /// last started on this data directory recorded, so a link points where it listens.
    pub fn link_base_url(&self) -> String {
        let configured = ["QUIRE_BASE_URL", "QUIRE_ADDR"]
            .iter()
            .any(|v| std::env::var_os(v).is_some());
        let recorded = || {
            std::fs::read_to_string(self.data_dir.join(SERVED_AT))
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| s.starts_with("http://") || s.starts_with("https://"))
        };
        match configured {
            true => self.base_url.clone(),
            false => recorded().unwrap_or_else(|| self.base_url.clone()),
        }
    }

    /// Refuses when this installation has no database yet, naming where it looked: an admin
    /// command run against the wrong data directory must not quietly create a new one.
    pub fn require_database(&self) -> anyhow::Result<()> {
        if self.database_url.is_some() {
            return Ok(());
        }
        let db = self.data_dir.join(crate::store::SQLITE_FILE);
        if db.is_file() {
            return Ok(());
        }
        let dir = std::path::absolute(&self.data_dir).unwrap_or_else(|_| self.data_dir.clone());
        anyhow::bail!(
            "no Quire database in {}: start the server first (`make run`, or `quire serve`), or set QUIRE_DATA to the data directory it serves",
            dir.display()
        )
    }
}

fn default_plugins_dir() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let target = exe
        .parent()
        .and_then(|p| p.parent())
        .context("the binary has no parent directory")?;
    Ok(target.join("plugins"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailed_or_proxied_links_need_a_configured_base_url() {
        let config = |args: &[&str]| Config::from_settings(&Settings::from_args(args).unwrap());
        let refused = |args: &[&str]| config(args).err().map(|e| e.to_string());
        let smtp = ["--smtp-url", "smtp://relay"];
        let proxy = ["--trust-proxy", "10.0.0.0/8"];
        for args in [&smtp[..], &proxy[..]] {
            let why = refused(args).expect("refused without QUIRE_BASE_URL");
            assert!(why.contains("set QUIRE_BASE_URL"), "{why}");
            let given = [args, &["--base-url", "https://docs.example.org/"]].concat();
            assert_eq!(config(&given).unwrap().base_url, "https://docs.example.org");
        }
        assert_eq!(config(&[]).unwrap().base_url, "http://127.0.0.1:8080");
    }
}
