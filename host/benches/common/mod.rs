//! Set-up shared by the benchmarks: the shipped plugins on a fresh data directory, and a
//! median timer.

use std::path::Path;
use std::time::{Duration, Instant};

use quire::runtime::{Limits, PluginSettings, Plugins};
use quire::store::{Blobs, Db};

/// The plugins `make plugins` built, installed on a fresh database in `dir` from the plugin
/// directory (so they run without fuel unless `meter_built_ins`).
pub fn plugins(rt: &tokio::runtime::Runtime, dir: &Path, meter_built_ins: bool) -> Plugins {
    let plugins_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/plugins");
    std::fs::create_dir_all(dir).unwrap();
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
            meter_built_ins,
            font_roots: quire::runtime::FontLibrary::default_roots(),
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

/// 10th percentiles of `runs` timings of each of `sides`, taken in turn (a, b, c, a, b, c, ...)
/// so that a slow spell of the machine lands on every side of a ratio instead of on one; the
/// low percentile is the run the neighbours disturbed least.
#[allow(dead_code)] // one of the two benches uses it
pub fn interleaved(runs: usize, sides: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let mut times = vec![Vec::with_capacity(runs); sides.len()];
    for _ in 0..runs {
        for (side, t) in sides.iter_mut().zip(&mut times) {
            let s = Instant::now();
            side();
            t.push(s.elapsed());
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[runs / 10]
        })
        .collect()
}
