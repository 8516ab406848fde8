//! The host's runtime tests: real components in the sandbox, called through the library
//! (white box). The end-to-end suite, which drives the `quire` binary over HTTP, is in
//! tests/e2e at the top of the repository.

#[path = "../../../tests/e2e/common.rs"]
#[allow(dead_code)]
mod common;
mod sandbox;

/// Set-up shared by the runtime tests.
mod runtime {
    use std::path::{Path, PathBuf};
    use std::sync::OnceLock;
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

    /// The compile cache the tests share, as the installations of one operator may: each
    /// test with a cache of its own compiled every converter again (20 seconds on two
    /// cores, per test). Emptied once per run, so artifacts of earlier builds do not pile up.
    fn shared_cache() -> &'static Path {
        static DIR: OnceLock<PathBuf> = OnceLock::new();
        DIR.get_or_init(|| {
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("it-compile-cache");
            match std::fs::remove_dir_all(&dir) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    panic!("emptying {}: {e}", dir.display())
                }
                _ => dir,
            }
        })
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
        open_plugins(limits, workers, None).await
    }

    /// As [`fresh_plugins`], with the compile cache in the data directory's `cache` (for
    /// the tests that look at the cache itself).
    pub async fn fresh_plugins_caching_in_own_dir(limits: Limits) -> (tempfile::TempDir, Plugins) {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        open_plugins_in(dir, limits, 2, cache).await
    }

    async fn open_plugins(
        limits: Limits,
        workers: usize,
        cache: Option<PathBuf>,
    ) -> (tempfile::TempDir, Plugins) {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache.unwrap_or_else(|| shared_cache().to_path_buf());
        open_plugins_in(dir, limits, workers, cache).await
    }

    async fn open_plugins_in(
        dir: tempfile::TempDir,
        limits: Limits,
        workers: usize,
        cache: PathBuf,
    ) -> (tempfile::TempDir, Plugins) {
        let db = Db::open(None, dir.path()).await.unwrap();
        let blobs = Blobs::open_dir(&dir.path().join("blobs")).unwrap();
        let plugins = Plugins::open(
            db,
            blobs,
            PluginSettings {
                limits,
                workers,
                max_waiting: 16,
                cache_dir: Some(cache),
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
