//! A mixed load for a while (`QUIRE_SOAK_SECS`, 120 in `make test`, 1800 in `make soak`):
//! every source kind, replaces, every download, forms, answers by API and by link, CSV,
//! deletes and restores. Judged by what an operator watches: no 5xx, memory flat after
//! warm-up, no file descriptor growth, a steady p99.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::corpus;
use crate::server::*;

/// (media type, corpus file, endpoint) of every kind of source.
const SOURCES: &[(&str, &str, &str)] = &[
    ("text/markdown", "markdown/pdfjs-getting-started.md", "pdfs"),
    ("text/html", "html/readability-rtl.html", "pdfs"),
    (
        "image/png",
        "images/pngsuite-basn3p04-4bit-palette.png",
        "pdfs",
    ),
    (
        "application/pdf",
        "pdf/pdfjs-checkbox-no-appearance.pdf",
        "pdfs",
    ),
    (
        "text/vnd.mermaid",
        "mermaid/circle-cross-edges.mmd",
        "diagrams",
    ),
    ("image/svg+xml", "svg/pdfjs-firefox-logo.svg", "diagrams"),
    (
        "application/vnd.jgraph.mxfile",
        "drawio/background-page.drawio",
        "diagrams",
    ),
    (
        "application/vnd.ms-visio.drawing.main+xml",
        "vsdx/vsdx-test11-rotate.vsdx",
        "diagrams",
    ),
];

/// What the host process holds: resident memory (KiB) and open file descriptors.
/// Resident memory outside the instance pools (the host's own heap, caches and maps), the
/// pools' resident memory, and open descriptors. The pools are wasmtime's reservations for
/// converters' linear memories: a slot given back keeps what its calls touched (up to the
/// keep-resident span), zeroed and inaccessible, for the next call, so the pools' residency
/// rises as warm slots see larger calls and is bounded by design. Only the rest can leak.
fn footprint(pid: u32) -> Footprint {
    let smaps = std::fs::read_to_string(format!("/proc/{pid}/smaps")).unwrap_or_default();
    let (mut rss, mut pools) = (0u64, 0u64);
    // Nothing but a pool slot is anonymous, inaccessible and resident: guard pages are never
    // touched.
    let mut in_pool = false;
    for line in smaps.lines() {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        if first.contains('-') && first.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
            let perms = words.next().unwrap_or("");
            let name = words.nth(3);
            in_pool = perms == "---p" && name.is_none();
        } else if first == "Rss:" {
            let kib: u64 = words.next().and_then(|v| v.parse().ok()).unwrap_or(0);
            rss += kib;
            if in_pool {
                pools += kib;
            }
        }
    }
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0);
    Footprint {
        host_kib: rss - pools,
        pools_kib: pools,
        fds,
    }
}

/// See the assertion that uses it.
const POOL_BOUND_KIB: u64 = 2 * (16 + 8) * (16 << 10);

#[derive(Clone, Copy)]
struct Footprint {
    host_kib: u64,
    pools_kib: u64,
    fds: usize,
}

fn p99(mut took: Vec<Duration>) -> Duration {
    if took.is_empty() {
        return Duration::ZERO;
    }
    took.sort();
    took[(took.len() * 99 / 100).min(took.len() - 1)]
}

/// One request's outcome: which operation, its status, how long, when (since the start).
type Outcome = (&'static str, u16, Duration, Duration);

/// Forms whose page pictures are viewed: a fixed few, so the picture cache (bounded at
/// 64 MiB, and filling for many minutes if every new form were viewed) is warm after
/// warm-up and memory growth after it means a leak, not a cache filling.
const VIEWED_FORMS: usize = 8;

fn one_round(
    s: &Server,
    t: &str,
    round: usize,
    log: &mut Vec<Outcome>,
    started: Instant,
    viewed: &Mutex<Vec<String>>,
) {
    let mut note = |op: &'static str, r: &Resp, began: Instant| {
        log.push((op, r.status, began.elapsed(), began - started));
    };
    let (media_type, file, endpoint) = SOURCES[round % SOURCES.len()];
    let began = Instant::now();
    let r = s.send_raw(
        "POST",
        t,
        &format!("/api/v1/{endpoint}"),
        media_type,
        std::fs::read(corpus(file)).unwrap(),
    );
    note("create", &r, began);
    assert_eq!(r.status, 201, "{file}: {}", r.text());
    let doc = r.json()["document"].clone();
    let id = doc["id"].as_str().unwrap().to_string();
    for (_, link) in doc["links"].as_object().unwrap() {
        let path = link.as_str().unwrap().splitn(4, '/').nth(3).unwrap();
        if path.starts_with("d/") {
            continue; // the editor page is for browsers
        }
        let began = Instant::now();
        let r = s.get(t, &format!("/{path}"));
        note("download", &r, began);
    }
    let began = Instant::now();
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/{endpoint}/{id}"),
        &if endpoint == "pdfs" {
            json!({"markdown": format!("# Replaced in round {round}\n")})
        } else {
            json!({"mermaid": format!("graph TD\n  A[round {round}] --> B\n")})
        },
    );
    note("replace", &r, began);

    if round.is_multiple_of(4) {
        let began = Instant::now();
        let r = s.send_json(
            "POST",
            t,
            "/api/v1/forms",
            &json!({"markdown": "# Soak form\n\nName and age.\n", "fields": [
                {"key": "name", "type": "text", "label": "Name", "required": true, "page": 1, "x": 72, "y": 200, "w": 200, "h": 20},
                {"key": "age", "type": "number", "label": "Age", "page": 1, "x": 72, "y": 240, "w": 80, "h": 20}
            ]}),
        );
        note("form", &r, began);
        let form = r.json()["form"]["id"].as_str().unwrap().to_string();
        for k in 0..3 {
            let began = Instant::now();
            let r = s.send_json(
                "POST",
                t,
                &format!("/api/v1/forms/{form}/responses"),
                &json!({"answers": {"name": format!("Ann {k}"), "age": 30 + k}}),
            );
            note("answer", &r, began);
        }
        let began = Instant::now();
        let r = request(
            "POST",
            &s.url(&format!("/f/{form}")),
            &[],
            Some((
                "application/x-www-form-urlencoded",
                b"a.name=Bo&a.age=41".to_vec(),
            )),
        );
        note("link answer", &r, began);
        for path in [
            format!("/api/v1/forms/{form}/responses.csv"),
            format!("/api/v1/forms/{form}/responses"),
        ] {
            let began = Instant::now();
            let r = s.get(t, &path);
            note("responses", &r, began);
        }
        let shown = {
            let mut viewed = viewed.lock().unwrap();
            if viewed.len() < VIEWED_FORMS {
                viewed.push(form.clone());
            }
            viewed[round / 4 % viewed.len()].clone()
        };
        let began = Instant::now();
        let r = request("GET", &s.url(&format!("/f/{shown}/pages/1.png")), &[], None);
        note("page picture", &r, began);
    }
    if round.is_multiple_of(3) {
        let began = Instant::now();
        let r = s.send_json("DELETE", t, &format!("/api/v1/documents/{id}"), &json!({}));
        note("delete", &r, began);
        if round.is_multiple_of(6) {
            s.cli(&["admin", "restore", &id]);
            let began = Instant::now();
            let r = s.get(t, &format!("/api/v1/documents/{id}.pdf"));
            note("restored", &r, began);
            assert_eq!(r.status, 200, "a restored document downloads");
        }
    }
}

#[test]
fn a_mixed_load_leaves_memory_descriptors_and_latency_flat() {
    let seconds: u64 = std::env::var("QUIRE_SOAK_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let s = Server::start(&[
        ("QUIRE_LINK_ANSWERS_PER_CLIENT", "0"),
        ("QUIRE_LINK_ANSWERS_PER_FORM", "0"),
        ("QUIRE_LINK_VIEWS_PER_CLIENT", "0"),
    ]);
    s.cli(&[
        "admin",
        "plan",
        "set",
        "pro",
        "--daily-calls",
        "none",
        "--storage",
        "none",
    ]);
    let a = s.account("pro");
    let t = s.token(&a);
    let pid = s.pid();
    let started = Instant::now();
    let total = Duration::from_secs(seconds);
    // Caches (SQLite pages, page pictures, fonts, allocator arenas) fill in
    // the first minutes; half the run, at most 5 minutes, is warm-up. A leak grows on after.
    let warm_up = (total / 2).min(Duration::from_secs(300));
    let stop = AtomicBool::new(false);
    let outcomes: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    let viewed: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let samples = std::thread::scope(|scope| {
        for client in 0..3 {
            let (s, t, stop, outcomes, viewed) = (&s, &t, &stop, &outcomes, &viewed);
            scope.spawn(move || {
                let mut round = client;
                let mut log = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    one_round(s, t, round, &mut log, started, viewed);
                    round += 3;
                }
                outcomes.lock().unwrap().extend(log);
            });
        }
        let mut samples = Vec::new();
        while started.elapsed() < total {
            std::thread::sleep(Duration::from_secs(2));
            samples.push((started.elapsed(), footprint(pid)));
        }
        stop.store(true, Ordering::Relaxed);
        samples
    });
    let outcomes = outcomes.into_inner().unwrap();
    if std::env::var_os("QUIRE_SOAK_TRACE").is_some() {
        for (at, f) in &samples {
            eprintln!(
                "{:>5.0} s host {} KiB pools {} KiB {} fds",
                at.as_secs_f64(),
                f.host_kib,
                f.pools_kib,
                f.fds
            );
        }
    }

    let mut by_op: BTreeMap<&str, BTreeMap<u16, usize>> = BTreeMap::new();
    for (op, status, ..) in &outcomes {
        *by_op.entry(op).or_default().entry(*status).or_default() += 1;
    }
    let (early, late): (Vec<&Outcome>, Vec<&Outcome>) = outcomes
        .iter()
        .filter(|o| o.3 >= warm_up)
        .partition(|o| o.3 < warm_up + (total - warm_up) / 2);
    let p99_early = p99(early.iter().map(|o| o.2).collect());
    let p99_late = p99(late.iter().map(|o| o.2).collect());
    let after_warm_up: Vec<Footprint> = samples
        .iter()
        .filter(|(at, _)| *at >= warm_up)
        .map(|(_, f)| *f)
        .collect();
    // Resident memory swings by a tenth from one sample to the next as conversions come and
    // go (page buffers, calls' scratch); a leak shows as a level that keeps rising. So the
    // typical level of the last third is compared with that of the first third.
    let third = (after_warm_up.len() / 3).max(1);
    let typical_host = |part: &[Footprint]| {
        let mut kib: Vec<u64> = part.iter().map(|f| f.host_kib).collect();
        kib.sort_unstable();
        kib[kib.len() / 2]
    };
    let host_first = typical_host(&after_warm_up[..third]);
    let host_last = typical_host(&after_warm_up[after_warm_up.len() - third..]);
    let host_peak = after_warm_up.iter().map(|f| f.host_kib).max().unwrap();
    let pools_peak = samples.iter().map(|(_, f)| f.pools_kib).max().unwrap();
    let fds_first = after_warm_up.first().unwrap().fds;
    let fds_last = after_warm_up.last().unwrap().fds;
    eprintln!(
        "soak {seconds} s: {} requests {by_op:?}; host memory after warm-up {host_first} KiB, at the end {host_last} KiB (medians), peak {host_peak} KiB; instance pools at most {pools_peak} KiB; fds {fds_first} -> {fds_last}; p99 {p99_early:?} then {p99_late:?}",
        outcomes.len()
    );

    let server_errors: Vec<_> = outcomes.iter().filter(|o| o.1 >= 500).collect();
    assert!(server_errors.is_empty(), "5xx: {server_errors:?}");
    assert!(outcomes.len() > 100, "the load was real");
    assert!(
        host_last as f64 <= host_first as f64 * 1.10,
        "memory grew after warm-up: {host_first} -> {host_last} KiB"
    );
    // Every warm slot of both pools (16 each, plus the calls in flight) holding its whole
    // keep-resident span (16 MiB): residency past that means slots keep what they should
    // give back.
    assert!(
        pools_peak <= POOL_BOUND_KIB,
        "the instance pools hold {pools_peak} KiB resident"
    );
    assert!(
        fds_last <= fds_first + 16,
        "descriptors grew: {fds_first} -> {fds_last}"
    );
    assert!(
        p99_late <= p99_early * 2 + Duration::from_millis(50),
        "p99 drifted: {p99_early:?} then {p99_late:?}"
    );
}
