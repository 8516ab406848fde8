//! The services one host process holds, built once from the configuration.

use std::sync::Arc;

use anyhow::Context;

use crate::config::Config;
use crate::plugins::{PluginSettings, Plugins};
use crate::store::{Blobs, Db};

#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub db: Db,
    pub blobs: Blobs,
    pub plugins: Arc<Plugins>,
}

impl App {
    /// Opens storage, loads the active converters and, on a fresh data directory, installs
    /// the plugins `make build` produced.
    pub async fn open(config: Config) -> anyhow::Result<App> {
        std::fs::create_dir_all(&config.data_dir).with_context(|| {
            format!("creating the data directory {}", config.data_dir.display())
        })?;
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
                cache_dir: Some(config.data_dir.join("cache")),
            },
        )
        .await?;
        let installed = plugins.bootstrap(&config.plugins_dir).await?;
        if !installed.is_empty() {
            tracing::info!("installed plugins: {}", installed.join(", "));
        }
        Ok(App {
            config: Arc::new(config),
            db,
            blobs,
            plugins: Arc::new(plugins),
        })
    }
}
