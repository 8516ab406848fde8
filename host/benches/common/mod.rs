//! Set-up shared by the benchmarks: the shipped plugins on a fresh data directory, and a
//! median timer.

use std::path::Path;
use std::time::{Duration, Instant};

use quire::runtime::{Limits, PluginSettings, Plugins};
use quire::store::{Blobs, Db};

/// The plugins `make plugins` built, installed on a fresh database in `dir`.
pub fn plugins(rt: &tokio::runtime::Runtime, dir: &Path) -> Plugins {
    let plugins_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/plugins");
    rt.block_on(async {
        let db = Db::open(None, dir).await.unwrap();
        let blobs = Blobs::open_dir(&dir.join("blobs")).unwrap();
        let settings = PluginSettings {
            limits: Limits::default(),
            workers: 2,
            max_waiting: 64,
            cache_dir: Some(dir.join("cache")),
        };
        let p = Plugins::open(db, blobs, settings).await.unwrap();
        p.bootstrap(&plugins_dir).await.unwrap();
        p.warm().await.unwrap();
        p
    })
}

/// Median of `runs` timings of `f`.
pub fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut t: Vec<Duration> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .collect();
    t.sort();
    t[t.len() / 2]
}
