//! The services one host process holds, built once from the configuration.

use std::sync::Arc;

use anyhow::Context;

use crate::body_memory::BodyMemory;
use crate::config::Config;
use crate::runtime::{PluginSettings, Plugins};
use crate::store::{Blobs, Db};
use crate::throttle::Throttle;

/// Sign-in requests one client address may make in a minute: a person needs one or two;
/// the per-account limit on links (sessions::LINKS_PER_HOUR) guards the mailbox itself.
const SIGN_INS_PER_MINUTE: u32 = 30;
/// Conversions the pages may make per minute for an account whose plan has no API (and so
/// no daily allowance to spend): far more than a person clicks, far fewer than a script.
const PAGE_CONVERSIONS_PER_MINUTE: u32 = 60;

#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub db: Db,
    pub blobs: Blobs,
    pub plugins: Arc<Plugins>,
    /// The converters' font library as GET /api/v1 describes it.
    pub fonts: Arc<crate::fonts::Fonts>,
    /// Request bodies held in memory, across every request.
    pub body_memory: BodyMemory,
    /// Answers through form links, per client address and per form.
    pub link_limits: Arc<LinkLimits>,
    /// Wrong secrets at the token endpoint, per client id (brute force).
    pub token_failures: Arc<Throttle>,
    /// Sign-in link requests and redemptions, per client address.
    pub sign_ins: Arc<Throttle>,
    /// The daily allowances' blocks this host holds (see `usage::Allowance`).
    pub allowance: Arc<crate::usage::Allowance>,
    /// Conversions through the pages, per account, for plans without a daily allowance.
    pub page_conversions: Arc<Throttle>,
    /// When credentials were last used, recorded now and then.
    pub credential_use: Arc<crate::accounts::CredentialUse>,
    /// Tokens that opened the API, so a call need not ask the database again.
    pub known_tokens: Arc<crate::accounts::KnownTokens>,
    /// Documents' rows as the API last read them, for the same reason.
    pub known_documents: Arc<crate::documents::KnownDocuments>,
}

/// What anonymous link holders may do per minute. Views are limited per client only: a
/// per-form limit on views would let one client close a form to everyone. Answers are also
/// limited per form, because each one costs the owner storage.
pub struct LinkLimits {
    pub views_per_client: Throttle,
    pub answers_per_client: Throttle,
    pub answers_per_form: Throttle,
}

impl App {
    /// Opens storage, loads the active converters and, on a fresh data directory, installs
    /// the plugins `make build` produced.
    pub async fn open(config: Config) -> anyhow::Result<App> {
        crate::store::open_data_dir(&config.data_dir)?;
        let db = Db::open(config.database_url.as_deref(), &config.data_dir).await?;
        let blobs = Blobs::open(&config.blobs)?;
        blobs
            .ping()
            .await
            .with_context(|| format!("reaching the blob store {}", config.blobs))?;
        let plugins = Plugins::open(
            db.clone(),
            blobs.clone(),
            PluginSettings {
                limits: config.limits,
                workers: config.workers,
                max_waiting: config.max_waiting,
                cache_dir: Some(config.cache_dir.clone()),
                meter_built_ins: config.meter_built_ins,
                font_roots: config.font_roots.clone(),
            },
        )
        .await?;
        let installed = plugins.bootstrap(&config.plugins_dir).await?;
        if !installed.is_empty() {
            tracing::info!("installed plugins: {}", installed.join(", "));
        }
        let fonts = Arc::new(crate::fonts::Fonts::new(
            plugins.fonts().clone(),
            config.font_roots_listed,
        ));
        let body_memory = BodyMemory::new(config.body_memory);
        let burst = |per_minute| Throttle::new(per_minute, per_minute);
        let link_limits = Arc::new(LinkLimits {
            views_per_client: burst(config.link_views_per_client),
            answers_per_client: burst(config.link_answers_per_client),
            answers_per_form: burst(config.link_answers_per_form),
        });
        let token_failures = Arc::new(Throttle::new(
            config.token_failures_per_minute,
            config.token_failures_per_minute,
        ));
        Ok(App {
            token_failures,
            sign_ins: Arc::new(Throttle::new(SIGN_INS_PER_MINUTE, SIGN_INS_PER_MINUTE)),
            allowance: Arc::default(),
            credential_use: Arc::default(),
            known_tokens: Arc::default(),
            known_documents: Arc::default(),
            page_conversions: Arc::new(Throttle::new(
                PAGE_CONVERSIONS_PER_MINUTE,
                PAGE_CONVERSIONS_PER_MINUTE,
            )),
            body_memory,
            link_limits,
            config: Arc::new(config),
            db,
            blobs,
            plugins: Arc::new(plugins),
            fonts,
        })
    }
}
