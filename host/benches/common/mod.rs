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
            // QUIRE_BENCH_CACHE keeps compiled plugins between runs (for profiling).
            cache_dir: Some(
                std::env::var_os("QUIRE_BENCH_CACHE")
                    .map(Into::into)
                    .unwrap_or_else(|| dir.join("cache")),
            ),
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

/// 10th percentiles of `runs` timings of `a` and of `b`, taken in turn (a, b, a, b, ...) so that a
/// slow spell of the machine lands on both sides of the ratio instead of on one; the low
/// percentile is the run the neighbours disturbed least.
#[allow(dead_code)] // one of the two benches uses it
pub fn paired(runs: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let mut ta = Vec::with_capacity(runs);
    let mut tb = Vec::with_capacity(runs);
    for _ in 0..runs {
        let s = Instant::now();
        a();
        ta.push(s.elapsed());
        let s = Instant::now();
        b();
        tb.push(s.elapsed());
    }
    ta.sort();
    tb.sort();
    (ta[runs / 10], tb[runs / 10])
}
