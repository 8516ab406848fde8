//! The host's runtime tests: real components in the sandbox, called through the library
//! (white box). The end-to-end suite, which drives the `quire` binary over HTTP, is in
//! tests/e2e at the top of the repository.

#[path = "../../../tests/e2e/common.rs"]
#[allow(dead_code)]
mod common;
mod sandbox;

/// Set-up shared by the runtime tests.
mod runtime {
    use std::time::Duration;

    use quire::runtime::{Limits, PluginSettings, Plugins};
    use quire::store::{Blobs, Db};

    use crate::common::plugins_dir;

    pub fn quick_limits() -> Limits {
        Limits {
            fuel: 2_000_000_000,
            memory: 64 << 20,
            deadline: Duration::from_secs(10),
        }
    }

    /// A fresh data directory with its own SQLite database and the shipped plugins installed.
    pub async fn fresh_plugins(limits: Limits) -> (tempfile::TempDir, Plugins) {
        fresh_plugins_with(limits, 2).await
    }

    /// As [`fresh_plugins`], with `workers` conversions at once.
    pub async fn fresh_plugins_with(
        limits: Limits,
        workers: usize,
    ) -> (tempfile::TempDir, Plugins) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(None, dir.path()).await.unwrap();
        let blobs = Blobs::open_dir(&dir.path().join("blobs")).unwrap();
        let plugins = Plugins::open(
            db,
            blobs,
            PluginSettings {
                limits,
                workers,
                max_waiting: 16,
                cache_dir: Some(dir.path().join("cache")),
                meter_built_ins: false,
                font_roots: quire::runtime::FontLibrary::default_roots(),
            },
        )
        .await
        .unwrap();
        let installed = plugins.bootstrap(&plugins_dir()).await.unwrap();
        assert!(
            installed.iter().any(|p| p.starts_with("markdown@")),
            "installed: {installed:?}"
        );
        (dir, plugins)
    }
}
