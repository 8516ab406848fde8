//! Settings from the environment, with the embedded defaults `make run` relies on.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::plugins::Limits;
use crate::store::BlobLocation;

#[derive(Debug, Clone)]
pub struct Config {
    /// Public API listener (`QUIRE_ADDR`).
    pub addr: SocketAddr,
    /// Operator listener (`QUIRE_ADMIN_ADDR`), loopback by default.
    pub admin_addr: SocketAddr,
    /// Data directory: SQLite database, blobs, compile cache (`QUIRE_DATA`).
    pub data_dir: PathBuf,
    /// `DATABASE_URL`; none means SQLite in the data directory.
    pub database_url: Option<String>,
    /// `QUIRE_BLOBS`: a directory (default `$QUIRE_DATA/blobs`) or `s3://BUCKET[/PREFIX]`.
    pub blobs: BlobLocation,
    /// Base of the links in responses (`QUIRE_BASE_URL`).
    pub base_url: String,
    /// Whether `base_url` was given; if not, a trusted proxy's `X-Forwarded-Proto` and
    /// `-Host` say it per request.
    pub base_url_given: bool,
    /// `QUIRE_TRUST_PROXY`: the reverse proxies whose `X-Forwarded-For`/`-Proto`/`-Host`
    /// are believed.
    pub trust_proxy: TrustedProxies,
    /// Where `make build` put the plugins to install on a fresh data directory.
    pub plugins_dir: PathBuf,
    pub limits: Limits,
    pub workers: usize,
    pub max_waiting: usize,
    pub mail: MailConfig,
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
}

/// A certificate chain and its private key, both PEM.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Addresses and CIDR blocks, comma-separated: `127.0.0.1, 10.0.0.0/8, ::1`.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<(IpAddr, u8)>);

impl TrustedProxies {
    pub fn parse(list: &str) -> anyhow::Result<TrustedProxies> {
        let mut blocks = Vec::new();
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (addr, bits) = match item.split_once('/') {
                Some((a, b)) => (a, Some(b)),
                None => (item, None),
            };
            let addr: IpAddr = addr
                .parse()
                .map_err(|e| anyhow::anyhow!("QUIRE_TRUST_PROXY `{item}`: {e}"))?;
            let max = if addr.is_ipv4() { 32 } else { 128 };
            let bits = match bits {
                Some(b) => b
                    .parse::<u8>()
                    .ok()
                    .filter(|b| *b <= max)
                    .ok_or_else(|| anyhow::anyhow!("QUIRE_TRUST_PROXY `{item}`: bad prefix"))?,
                None => max,
            };
            blocks.push((canonical(addr), bits));
        }
        Ok(TrustedProxies(blocks))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|&(block, bits)| match (block, ip) {
            (IpAddr::V4(b), IpAddr::V4(a)) => {
                let mask = u32::MAX.checked_shl(32 - bits as u32).unwrap_or(0);
                u32::from(b) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(b), IpAddr::V6(a)) => {
                let mask = u128::MAX.checked_shl(128 - bits as u32).unwrap_or(0);
                u128::from(b) & mask == u128::from(a) & mask
            }
            _ => false,
        })
    }
}

/// An IPv4 address in IPv6 clothing (`::ffff:10.0.0.1`, as dual-stack sockets report it)
/// is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// Both of a pair of variables, or neither.
fn tls_files(cert: &str, key: &str) -> anyhow::Result<Option<TlsFiles>> {
    match (env(cert), env(key)) {
        (Some(c), Some(k)) => Ok(Some(TlsFiles {
            cert: c.into(),
            key: k.into(),
        })),
        (None, None) => Ok(None),
        _ => anyhow::bail!("set both {cert} and {key}, or neither"),
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

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn env_parse<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T>
where
    T::Err: std::fmt::Display,
{
    match env(name) {
        Some(v) => v.parse().map_err(|e| anyhow::anyhow!("{name}={v}: {e}")),
        None => Ok(default),
    }
}

impl Config {
    pub fn from_env() -> anyhow::Result<Config> {
        let addr: SocketAddr = env_parse("QUIRE_ADDR", "127.0.0.1:8080".parse()?)?;
        let admin_addr: SocketAddr = env_parse("QUIRE_ADMIN_ADDR", "127.0.0.1:8081".parse()?)?;
        let tls = tls_files("QUIRE_TLS_CERT", "QUIRE_TLS_KEY")?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let base_url_given = env("QUIRE_BASE_URL").is_some();
        let base_url = env("QUIRE_BASE_URL")
            .unwrap_or_else(|| format!("{scheme}://{addr}"))
            .trim_end_matches('/')
            .to_string();
        let defaults = Limits::default();
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        let mail_from = env("QUIRE_MAIL_FROM").unwrap_or_else(|| {
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
        let data_dir = PathBuf::from(env("QUIRE_DATA").unwrap_or_else(|| "data".into()));
        let blobs = BlobLocation::parse(env("QUIRE_BLOBS").as_deref(), &data_dir.join("blobs"))?;
        Ok(Config {
            addr,
            admin_addr,
            data_dir,
            database_url: env("DATABASE_URL"),
            blobs,
            base_url,
            base_url_given,
            trust_proxy: TrustedProxies::parse(env("QUIRE_TRUST_PROXY").as_deref().unwrap_or(""))?,
            plugins_dir: match env("QUIRE_PLUGINS_DIR") {
                Some(d) => PathBuf::from(d),
                None => default_plugins_dir().context("finding the plugin directory")?,
            },
            limits: Limits {
                fuel: env_parse("QUIRE_FUEL", defaults.fuel)?,
                memory: env_parse::<usize>("QUIRE_MEMORY_MB", defaults.memory >> 20)? << 20,
                deadline: Duration::from_millis(env_parse(
                    "QUIRE_DEADLINE_MS",
                    defaults.deadline.as_millis() as u64,
                )?),
            },
            workers: env_parse("QUIRE_WORKERS", cores)?,
            max_waiting: env_parse("QUIRE_QUEUE", 64)?,
            mail: MailConfig {
                smtp: env("QUIRE_SMTP_URL"),
                smtp_ca: env("QUIRE_SMTP_CA").map(PathBuf::from),
                from: mail_from,
                retry_max: Duration::from_secs(env_parse("QUIRE_MAIL_RETRY_MAX_SECS", 300)?),
                poll: Duration::from_millis(env_parse("QUIRE_MAIL_POLL_MS", 1000)?),
            },
            body_memory: env_parse::<u64>("QUIRE_BODY_MEMORY_MB", 1024)? << 20,
            body_idle: Duration::from_secs(env_parse("QUIRE_BODY_IDLE_SECS", 30)?),
            body_wait: Duration::from_secs(env_parse("QUIRE_BODY_WAIT_SECS", 10)?),
            link_views_per_client: env_parse("QUIRE_LINK_VIEWS_PER_CLIENT", 300)?,
            link_answers_per_client: env_parse("QUIRE_LINK_ANSWERS_PER_CLIENT", 20)?,
            link_answers_per_form: env_parse("QUIRE_LINK_ANSWERS_PER_FORM", 600)?,
            token_failures_per_minute: env_parse("QUIRE_TOKEN_FAILURES_PER_MINUTE", 10)?,
            tls,
            admin_tls: tls_files("QUIRE_ADMIN_TLS_CERT", "QUIRE_ADMIN_TLS_KEY")?,
            drain: Duration::from_secs(env_parse("QUIRE_DRAIN_SECS", 30)?),
        })
    }
}

/// `make build` copies the plugins to `target/plugins`, beside `target/release/quire`.
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
    fn trusted_proxies_match_addresses_and_blocks() {
        let t = TrustedProxies::parse("127.0.0.1, 10.0.0.0/8,fd00::/16").unwrap();
        let has = |a: &str| t.contains(a.parse().unwrap());
        assert!(has("127.0.0.1") && has("::ffff:127.0.0.1"));
        assert!(!has("127.0.0.2"));
        assert!(has("10.200.3.4") && !has("11.0.0.1"));
        assert!(has("fd00:1::5") && !has("fd01::5"));
        assert!(TrustedProxies::parse("0.0.0.0/0")
            .unwrap()
            .contains("8.8.8.8".parse().unwrap()));
        assert!(TrustedProxies::parse("").unwrap().is_empty());
        for bad in ["10.0.0.0/33", "proxy.local", "10.0.0.1/x"] {
            assert!(TrustedProxies::parse(bad).is_err(), "{bad}");
        }
    }
}
