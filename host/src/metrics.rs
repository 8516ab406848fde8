//! What the service has done, in Prometheus's text format (`GET /metrics` on the operator
//! listener). A handful of counters and histograms with fixed label sets is all we need,
//! so they are written here rather than pulling in a metrics framework.
//!
//! Label values come from bounded sets only (route templates, not paths; the standard
//! methods; plugin names the operator installed), so the series count cannot be grown by a
//! client.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, RwLock};
use std::time::Duration;

/// Upper bounds of the duration buckets, in seconds.
const SECONDS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];
/// Fuel units (roughly wasm instructions).
const FUEL: &[f64] = &[1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11];
/// Bytes of guest memory.
const BYTES: &[f64] = &[
    1048576.0,
    4194304.0,
    16777216.0,
    67108864.0,
    268435456.0,
    1073741824.0,
];

#[derive(Debug, Clone)]
struct Histogram {
    bounds: &'static [f64],
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            counts: vec![0; bounds.len()],
            sum: 0.0,
            count: 0,
        }
    }

    fn observe(&mut self, v: f64) {
        for (i, b) in self.bounds.iter().enumerate() {
            if v <= *b {
                self.counts[i] += 1;
            }
        }
        self.sum += v;
        self.count += 1;
    }

    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        for (b, c) in self.bounds.iter().zip(&self.counts) {
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{b}\"}} {c}");
        }
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}",
            self.count
        );
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.count);
    }
}

/// One conversion's labels.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Conversion {
    plugin: String,
    version: String,
    direction: &'static str,
}

/// One route's requests, counted without a lock every request passes through: a
/// request takes only a shared read of the route table (written once per new route,
/// method and status), then atomic adds.
#[derive(Default)]
struct RouteSeries {
    answered: RwLock<HashMap<(&'static str, u16), AtomicU64>>,
    /// Per bucket of [`SECONDS`], then the total; the sum in nanoseconds.
    buckets: [AtomicU64; SECONDS.len()],
    count: AtomicU64,
    nanos: AtomicU64,
}

impl RouteSeries {
    fn observe(&self, method: &'static str, status: u16, took: Duration) {
        let counted = {
            let answered = self.answered.read().unwrap_or_else(|e| e.into_inner());
            answered
                .get(&(method, status))
                .map(|n| n.fetch_add(1, Ordering::Relaxed))
                .is_some()
        };
        if !counted {
            let mut answered = self.answered.write().unwrap_or_else(|e| e.into_inner());
            answered
                .entry((method, status))
                .or_default()
                .fetch_add(1, Ordering::Relaxed);
        }
        let seconds = took.as_secs_f64();
        for (bound, bucket) in SECONDS.iter().zip(&self.buckets) {
            if seconds <= *bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.nanos.fetch_add(
            took.as_nanos().min(u64::MAX as u128) as u64,
            Ordering::Relaxed,
        );
    }

    fn histogram(&self) -> Histogram {
        Histogram {
            bounds: SECONDS,
            counts: self
                .buckets
                .iter()
                .map(|b| b.load(Ordering::Relaxed))
                .collect(),
            sum: self.nanos.load(Ordering::Relaxed) as f64 / 1e9,
            count: self.count.load(Ordering::Relaxed),
        }
    }
}

/// Work that runs one at a time however many cores the host has: its share of a
/// request's time bounds how far throughput can grow with cores (Amdahl's law), which
/// `make bench` works out from these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serial {
    /// SQLite's one writer: from this host's write turn taken to given back.
    WriteTurn,
    /// One account's daily allowance, while a call takes from it.
    Allowance,
    /// An account's row on Postgres, locked from a write's storage charge to its commit.
    AccountRow,
}

impl Serial {
    const ALL: [Serial; 3] = [Serial::WriteTurn, Serial::Allowance, Serial::AccountRow];

    fn label(self) -> &'static str {
        match self {
            Serial::WriteTurn => "sqlite_write_turn",
            Serial::Allowance => "allowance",
            Serial::AccountRow => "account_row",
        }
    }
}

/// What a [`Serial`] section has counted.
#[derive(Debug, Default)]
struct SerialCounters {
    nanos: AtomicU64,
    /// CPU time of the thread that held it, where one thread did ([`SerialSection::on_this_thread`]);
    /// the wall time otherwise.
    cpu_nanos: AtomicU64,
    entries: AtomicU64,
}

/// Reads one figure (seconds or entries) of a section's counters.
type SerialFigure = fn(&SerialCounters) -> f64;

/// Counts the time until it is dropped as its section's (see [`Serial`]).
pub struct SerialSection {
    section: Serial,
    entered: std::time::Instant,
    /// The thread's CPU clock at entry, for a section held by one thread throughout.
    cpu_entered: Option<Duration>,
    counted_in: &'static Metrics,
}

impl SerialSection {
    pub fn enter(section: Serial) -> SerialSection {
        SerialSection::begin(section, None, global())
    }

    /// [`SerialSection::enter`] for a section this thread holds until it drops it (no
    /// `await` in between), so its CPU time is counted too: the serial work itself,
    /// without the time the thread waited for a core while it held the section, which on a
    /// machine with few cores and many busy threads is much of its wall time.
    pub fn on_this_thread(section: Serial) -> SerialSection {
        SerialSection::begin(section, Some(thread_cpu_time()), global())
    }

    fn begin(
        section: Serial,
        cpu_entered: Option<Duration>,
        counted_in: &'static Metrics,
    ) -> SerialSection {
        SerialSection {
            section,
            entered: std::time::Instant::now(),
            cpu_entered,
            counted_in,
        }
    }
}

fn thread_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

impl Drop for SerialSection {
    fn drop(&mut self) {
        let took = self.entered.elapsed();
        let cpu = self
            .cpu_entered
            .map_or(took, |entered| thread_cpu_time().saturating_sub(entered));
        self.counted_in.serial(self.section, took, cpu);
    }
}

#[derive(Default)]
struct Series {
    conversions: BTreeMap<(Conversion, &'static str), u64>,
    conversion_seconds: BTreeMap<Conversion, Histogram>,
    conversion_fuel: BTreeMap<Conversion, Histogram>,
    conversion_memory: BTreeMap<Conversion, Histogram>,
}

/// A gauge read at scrape time.
pub struct Gauge {
    pub name: &'static str,
    pub help: &'static str,
    pub value: f64,
}

#[derive(Default)]
pub struct Metrics {
    routes: RwLock<HashMap<String, std::sync::Arc<RouteSeries>>>,
    serial: [SerialCounters; Serial::ALL.len()],
    series: Mutex<Series>,
}

/// The process's metrics.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::default)
}

/// `"GET"` etc., or `"other"`: methods are a label, so only the known ones are kept apart.
fn method_label(method: &str) -> &'static str {
    const KNOWN: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
    KNOWN.into_iter().find(|m| *m == method).unwrap_or("other")
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

impl Metrics {
    /// One answered request: `route` is the route template (`/api/v1/documents/{id}`).
    pub fn request(&self, route: &str, method: &str, status: u16, took: Duration) {
        let known = {
            let routes = self.routes.read().unwrap_or_else(|e| e.into_inner());
            routes.get(route).cloned()
        };
        let series = known.unwrap_or_else(|| {
            let mut routes = self.routes.write().unwrap_or_else(|e| e.into_inner());
            routes.entry(route.to_string()).or_default().clone()
        });
        series.observe(method_label(method), status, took);
    }

    /// Time spent in a [`Serial`] section (wall and CPU), once per entry.
    pub fn serial(&self, section: Serial, took: Duration, cpu: Duration) {
        let counters = &self.serial[section as usize];
        let nanos = |d: Duration| d.as_nanos().min(u64::MAX as u128) as u64;
        counters.nanos.fetch_add(nanos(took), Ordering::Relaxed);
        counters.cpu_nanos.fetch_add(nanos(cpu), Ordering::Relaxed);
        counters.entries.fetch_add(1, Ordering::Relaxed);
    }

    /// One conversion through the sandbox. `outcome` is `ok` or why it failed; the costs
    /// are known when the sandbox ran the call at all.
    pub fn conversion(
        &self,
        plugin: &str,
        version: &str,
        direction: &'static str,
        outcome: &'static str,
        cost: Option<(Duration, Option<u64>, usize)>,
    ) {
        let Ok(mut s) = self.series.lock() else {
            return;
        };
        let key = Conversion {
            plugin: plugin.to_string(),
            version: version.to_string(),
            direction,
        };
        *s.conversions.entry((key.clone(), outcome)).or_default() += 1;
        if let Some((took, fuel, memory)) = cost {
            s.conversion_seconds
                .entry(key.clone())
                .or_insert_with(|| Histogram::new(SECONDS))
                .observe(took.as_secs_f64());
            // Only metered converters count fuel (the plugin directory's run without).
            if let Some(fuel) = fuel {
                s.conversion_fuel
                    .entry(key.clone())
                    .or_insert_with(|| Histogram::new(FUEL))
                    .observe(fuel as f64);
            }
            s.conversion_memory
                .entry(key)
                .or_insert_with(|| Histogram::new(BYTES))
                .observe(memory as f64);
        }
    }

    /// The text exposition, with `gauges` read by the caller just now.
    pub fn render(&self, gauges: &[Gauge]) -> String {
        let mut out = String::new();
        let Ok(s) = self.series.lock() else {
            return out;
        };
        let conv = |c: &Conversion| {
            format!(
                "plugin=\"{}\",version=\"{}\",direction=\"{}\"",
                escape(&c.plugin),
                escape(&c.version),
                c.direction
            )
        };

        let routes: BTreeMap<String, std::sync::Arc<RouteSeries>> = self
            .routes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(route, series)| (route.clone(), series.clone()))
            .collect();
        out.push_str("# HELP quire_http_requests_total HTTP requests answered, by route template, method and status.\n# TYPE quire_http_requests_total counter\n");
        for (route, series) in &routes {
            let answered = series.answered.read().unwrap_or_else(|e| e.into_inner());
            let answered: BTreeMap<_, _> = answered.iter().collect();
            for ((method, status), n) in answered {
                let _ = writeln!(
                    out,
                    "quire_http_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {}",
                    escape(route),
                    n.load(Ordering::Relaxed)
                );
            }
        }
        out.push_str("# HELP quire_http_request_duration_seconds Time from request to response head, by route template.\n# TYPE quire_http_request_duration_seconds histogram\n");
        for (route, series) in &routes {
            series.histogram().write(
                &mut out,
                "quire_http_request_duration_seconds",
                &format!("route=\"{}\"", escape(route)),
            );
        }
        let serial_families: [(&str, &str, SerialFigure); 3] = [
            (
                "quire_serial_seconds_total",
                "Time spent in work that runs one at a time on this host, by section.",
                |c| c.nanos.load(Ordering::Relaxed) as f64 / 1e9,
            ),
            (
                "quire_serial_cpu_seconds_total",
                "CPU time of the thread holding a section that runs one at a time (its wall time where the section spans threads).",
                |c| c.cpu_nanos.load(Ordering::Relaxed) as f64 / 1e9,
            ),
            (
                "quire_serial_entries_total",
                "Times a section that runs one at a time was entered.",
                |c| c.entries.load(Ordering::Relaxed) as f64,
            ),
        ];
        for (name, help, value) in serial_families {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
            for section in Serial::ALL {
                let figure = value(&self.serial[section as usize]);
                let _ = writeln!(out, "{name}{{section=\"{}\"}} {figure}", section.label());
            }
        }
        out.push_str("# HELP quire_conversions_total Conversions, by plugin, version, direction and outcome.\n# TYPE quire_conversions_total counter\n");
        for ((c, outcome), n) in &s.conversions {
            let _ = writeln!(
                out,
                "quire_conversions_total{{{},outcome=\"{outcome}\"}} {n}",
                conv(c)
            );
        }
        for (name, help, series) in [
            (
                "quire_conversion_duration_seconds",
                "Time a conversion ran in the sandbox.",
                &s.conversion_seconds,
            ),
            (
                "quire_conversion_fuel",
                "Fuel a conversion used (about one unit per wasm instruction).",
                &s.conversion_fuel,
            ),
            (
                "quire_conversion_peak_memory_bytes",
                "Largest guest memory of a conversion.",
                &s.conversion_memory,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
            for (c, h) in series {
                h.write(&mut out, name, &conv(c));
            }
        }
        for g in gauges {
            let _ = writeln!(
                out,
                "# HELP {0} {1}\n# TYPE {0} gauge\n{0} {2}",
                g.name, g.help, g.value
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_held_by_one_thread_counts_one_entry_and_its_cpu_time() {
        let metrics: &'static Metrics = Box::leak(Box::default());
        let section = SerialSection::begin(Serial::WriteTurn, Some(thread_cpu_time()), metrics);
        let busy = std::time::Instant::now();
        let mut spin = 0u64;
        while busy.elapsed() < Duration::from_millis(5) {
            spin = std::hint::black_box(spin.wrapping_add(1));
        }
        drop(section);
        let counters = &metrics.serial[Serial::WriteTurn as usize];
        assert_eq!(counters.entries.load(Ordering::Relaxed), 1);
        let wall = counters.nanos.load(Ordering::Relaxed);
        let cpu = counters.cpu_nanos.load(Ordering::Relaxed);
        assert!(wall >= 5_000_000, "wall {wall} ns");
        assert!(
            cpu > 0 && cpu <= wall + 1_000_000,
            "cpu {cpu} ns, wall {wall} ns"
        );
    }

    #[test]
    fn renders_counts_buckets_and_escapes() {
        let m = Metrics::default();
        m.request(
            "/api/v1/documents/{id}",
            "GET",
            200,
            Duration::from_millis(3),
        );
        m.request(
            "/api/v1/documents/{id}",
            "GET",
            200,
            Duration::from_millis(30),
        );
        m.request("/x", "BREW", 404, Duration::from_millis(1));
        m.conversion(
            "mark\"down",
            "1.0.0",
            "import",
            "ok",
            Some((Duration::from_millis(20), Some(5_000_000), 2 << 20)),
        );
        // A converter that runs without fuel metering has time and memory but no fuel.
        m.conversion(
            "pdf",
            "1.0.0",
            "export",
            "ok",
            Some((Duration::from_millis(20), None, 2 << 20)),
        );
        let text = m.render(&[Gauge {
            name: "quire_conversion_queue_waiting",
            help: "Callers waiting.",
            value: 0.0,
        }]);
        assert!(text.contains(
            "quire_http_requests_total{route=\"/api/v1/documents/{id}\",method=\"GET\",status=\"200\"} 2"
        ));
        assert!(text.contains("method=\"other\",status=\"404\"} 1"));
        assert!(text.contains(
            "quire_http_request_duration_seconds_bucket{route=\"/api/v1/documents/{id}\",le=\"0.005\"} 1"
        ));
        assert!(text.contains(
            "quire_http_request_duration_seconds_bucket{route=\"/api/v1/documents/{id}\",le=\"+Inf\"} 2"
        ));
        assert!(text.contains("plugin=\"mark\\\"down\""));
        assert!(text.contains("quire_conversion_fuel_count{plugin=\"mark"));
        assert!(text.contains("quire_conversion_peak_memory_bytes_count{plugin=\"pdf\""));
        assert!(!text.contains("quire_conversion_fuel_count{plugin=\"pdf\""));
        assert!(text.contains("quire_conversion_queue_waiting 0"));
        m.serial(
            Serial::WriteTurn,
            Duration::from_millis(2),
            Duration::from_millis(1),
        );
        m.serial(
            Serial::WriteTurn,
            Duration::from_millis(3),
            Duration::from_millis(2),
        );
        let text = m.render(&[]);
        assert!(text.contains("quire_serial_seconds_total{section=\"sqlite_write_turn\"} 0.005"));
        assert!(text.contains("quire_serial_entries_total{section=\"sqlite_write_turn\"} 2"));
        assert!(
            text.contains("quire_serial_cpu_seconds_total{section=\"sqlite_write_turn\"} 0.003")
        );
        assert!(text.contains("quire_serial_entries_total{section=\"allowance\"} 0"));
    }
}
