//! Several hosts on one Postgres and one S3-compatible store (a real Garage started by
//! scripts/test-s3.sh), and operator actions under load on either database: what the README's
//! "Several hosts" section promises, checked over real HTTP.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::component;
use crate::server::{postgres_database, rand_hex, request, Resp, Server};

const OPERATOR: &str = "Bearer operator-secret-for-tests";

/// A throwaway Garage of this test's own (its own directory and ports), so a test that
/// stops it does not disturb the others.
pub struct S3 {
    pub env: Vec<(String, String)>,
    pid: u32,
    config: String,
    dir: tempfile::TempDir,
}

impl S3 {
    pub fn start() -> S3 {
        let dir = tempfile::tempdir().unwrap();
        let script = crate::common::repo_root().join("scripts/test-s3.sh");
        let out = Command::new("bash")
            .arg(&script)
            .env("QUIRE_S3_DIR", dir.path())
            .output()
            .expect("running scripts/test-s3.sh");
        assert!(
            out.status.success(),
            "scripts/test-s3.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut env = Vec::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some((k, v)) = line
                .trim()
                .strip_prefix("export ")
                .and_then(|l| l.split_once('='))
            {
                env.push((k.to_string(), v.trim_matches(['"', '\'']).to_string()));
            }
        }
        let get = |k: &str| {
            env.iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("scripts/test-s3.sh printed no {k}"))
        };
        let pid = get("QUIRE_S3_PID").parse().unwrap();
        let config = get("QUIRE_S3_CONFIG");
        env.retain(|(k, _)| k == "QUIRE_BLOBS" || k.starts_with("AWS_"));
        S3 {
            env,
            pid,
            config,
            dir,
        }
    }

    /// The settings a host needs, with its blobs under a prefix of this test's own.
    pub fn host_env(&self, prefix: &str) -> Vec<(String, String)> {
        self.env
            .iter()
            .map(|(k, v)| {
                if k == "QUIRE_BLOBS" {
                    (k.clone(), format!("{}/{prefix}", v.trim_end_matches('/')))
                } else {
                    (k.clone(), v.clone())
                }
            })
            .collect()
    }

    /// Stops the store as a crash would.
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-9", &self.pid.to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Path::new(&format!("/proc/{}", self.pid)).exists() && Instant::now() < deadline {
            // A zombie until its parent (the script, long gone) is reaped by init.
            if std::fs::read_to_string(format!("/proc/{}/stat", self.pid))
                .is_ok_and(|s| s.contains(") Z"))
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Starts the store again on its data and ports.
    pub fn restart(&mut self) {
        let garage = Command::new("bash")
            .arg(crate::common::repo_root().join("scripts/test-s3.sh"))
            .arg("--build-only")
            .output()
            .unwrap();
        let bin = String::from_utf8_lossy(&garage.stdout).trim().to_string();
        let log = std::fs::File::create(self.dir.path().join("restart.log")).unwrap();
        let child = Command::new(bin)
            .args(["-c", &self.config, "server"])
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("restarting garage");
        self.pid = child.id();
        std::mem::forget(child);
    }
}

impl Drop for S3 {
    fn drop(&mut self) {
        self.stop();
    }
}

fn env_refs(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// `n` hosts on one fresh Postgres database and one S3 prefix, each with its own data
/// directory.
fn cluster(s3: &S3, n: usize) -> Option<Vec<Server>> {
    let url = postgres_database()?;
    let env = s3.host_env(&rand_hex());
    let mut hosts = Vec::new();
    for _ in 0..n {
        hosts.push(Server::start_with_db(Some(url.clone()), &env_refs(&env)));
    }
    Some(hosts)
}

fn operator(s: &Server, method: &str, path: &str, body: Option<(&str, Vec<u8>)>) -> Resp {
    request(
        method,
        &format!("{}{path}", s.admin_base),
        &[("authorization", OPERATOR)],
        body,
    )
}

/// The formats a host offers right now (its own in-memory active set).
fn readable(s: &Server, token: &str) -> Vec<String> {
    s.get(token, "/api/v1").json()["formats"]["readable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["media_type"].as_str().unwrap().to_string())
        .collect()
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    loop {
        if done() {
            return started.elapsed();
        }
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_document_made_on_one_host_is_read_and_replaced_on_another() {
    let s3 = S3::start();
    let Some(hosts) = cluster(&s3, 2) else { return };
    let (a, b) = (&hosts[0], &hosts[1]);
    let account = a.account("pro");
    let t = a.token(&account);
    let made = a.send_json(
        "POST",
        &t,
        "/api/v1/diagrams",
        &json!({"mermaid": "flowchart LR\n  start[Start] --> check{Check}\n  check --> done[Done]"}),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let id = made.json()["document"]["id"].as_str().unwrap().to_string();
    // Every format on the other host: its blobs come from the shared store.
    let formats: Vec<Value> = b.get(&t, "/api/v1").json()["formats"]["downloads"]
        .as_array()
        .unwrap()
        .clone();
    assert!(formats.len() >= 6, "{formats:?}");
    for f in &formats {
        let ext = f["extension"].as_str().unwrap();
        let r = b.get(&t, &format!("/api/v1/documents/{id}.{ext}"));
        assert_eq!(r.status, 200, ".{ext} on host B: {}", r.text());
        assert_eq!(
            r.header("content-type").as_deref(),
            f["media_type"].as_str(),
            ".{ext}"
        );
        assert!(!r.body.is_empty());
    }
    let replaced = b.send_json(
        "PUT",
        &t,
        &format!("/api/v1/diagrams/{id}"),
        &json!({"mermaid": "flowchart LR\n  start[Begin] --> done[Finished]"}),
    );
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    let back = a.get(&t, &format!("/api/v1/documents/{id}.mmd"));
    assert_eq!(back.status, 200);
    assert!(back.text().contains("Finished"), "{}", back.text());
    assert_eq!(
        a.get(&t, &format!("/api/v1/documents/{id}")).json()["document"]["version"],
        3
    );
    // Nothing of it is on either host's disk.
    for h in &hosts {
        let local = h.data.path().join("blobs");
        let files = walk_files(&local);
        assert!(files.is_empty(), "blobs on a host's disk: {files:?}");
    }
}

fn walk_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p.display().to_string());
        }
    }
    out
}

#[test]
fn install_activate_and_rollback_reach_every_host_within_five_seconds() {
    let s3 = S3::start();
    let Some(hosts) = cluster(&s3, 3) else { return };
    let t = hosts[0].token(&hosts[0].account("pro"));
    let hostile = "application/x-quire-hostile";
    assert!(!readable(&hosts[2], &t).contains(&hostile.to_string()));
    let r = operator(
        &hosts[0],
        "POST",
        "/plugins",
        Some(("application/wasm", component("hostile"))),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    for h in &hosts[1..] {
        let took = wait_until("install seen", Duration::from_secs(5), || {
            readable(h, &t).contains(&hostile.to_string())
        });
        eprintln!("install reached {} after {took:?}", h.base);
    }
    // A new markdown version on host B, rolled back on host C: every host follows.
    let r = operator(
        &hosts[1],
        "POST",
        "/plugins",
        Some(("application/wasm", component("markdown-next"))),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let active_on = |h: &Server| -> String {
        operator(h, "GET", "/plugins", None).json()["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "markdown" && p["active"] == true)
            .map(|p| p["version"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(active_on(&hosts[0]), "1.1.1-next");
    let r = operator(&hosts[2], "POST", "/plugins/markdown/rollback", None);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["active"], crate::common::shipped("markdown"));
    // Conversions on every host keep working through the swaps.
    for h in &hosts {
        let r = h.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# after"}));
        assert_eq!(r.status, 201, "{}", r.text());
    }
}

#[test]
fn the_daily_allowance_is_exact_across_hosts() {
    let s3 = S3::start();
    let Some(hosts) = cluster(&s3, 2) else { return };
    let account = hosts[0].account("pro");
    let t = hosts[0].token(&account);
    let today = hosts[0].get(&t, "/api/v1/usage").json()["calls"]["today"]
        .as_i64()
        .unwrap();
    // Plans are shared rows: set on one host, in force on both.
    hosts[0].cli(&[
        "admin",
        "plan",
        "set",
        "pro",
        "--daily-calls",
        &(today + 1 + 10).to_string(),
    ]);
    assert_eq!(
        hosts[1].get(&t, "/api/v1/usage").json()["calls"]["left"],
        10
    );
    let results: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..50)
            .map(|i| {
                let (h, t) = (&hosts[i % 2], t.clone());
                scope.spawn(move || h.get(&t, "/api/v1/documents").status)
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        results.iter().filter(|s| **s == 200).count(),
        10,
        "{results:?}"
    );
    assert_eq!(
        results.iter().filter(|s| **s == 429).count(),
        40,
        "{results:?}"
    );
}

#[test]
fn killing_one_host_loses_no_answered_write() {
    let s3 = S3::start();
    let Some(mut hosts) = cluster(&s3, 2) else {
        return;
    };
    hosts[0].cli(&["admin", "plan", "set", "pro", "--daily-calls", "none"]);
    let t = hosts[0].token(&hosts[0].account("pro"));
    let pid = hosts[0].pid();
    let stop = AtomicBool::new(false);
    let acked: Vec<(String, i64)> = std::thread::scope(|scope| {
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let (h, t, stop) = (&hosts[w % 2], t.clone(), &stop);
                scope.spawn(move || {
                    let mut acked = Vec::new();
                    let mut i = 0;
                    while !stop.load(Ordering::Relaxed) {
                        i += 1;
                        let body = serde_json::to_vec(
                            &json!({"markdown": format!("# Writer {w} note {i}\n\nWords.")}),
                        )
                        .unwrap();
                        let r = ureq_post(&h.url("/api/v1/pdfs"), &t, body);
                        match r {
                            Some((201, v)) => acked.push((
                                v["document"]["id"].as_str().unwrap().to_string(),
                                v["document"]["version"].as_i64().unwrap(),
                            )),
                            // Not answered: the store was busy for longer than the host
                            // waits for it. The client is told to come back, and does.
                            Some((503, _)) => {
                                std::thread::sleep(Duration::from_millis(100));
                            }
                            Some((status, v)) => panic!("writer {w}: {status} {v}"),
                            // The host it talks to is gone.
                            None => break,
                        }
                    }
                    acked
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(3000));
        assert!(Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap()
            .success());
        std::thread::sleep(Duration::from_millis(1000));
        stop.store(true, Ordering::Relaxed);
        writers
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    hosts[0].kill();
    assert!(acked.len() > 10, "too few writes: {}", acked.len());
    let survivor = &hosts[1];
    for (id, version) in &acked {
        let r = survivor.get(&t, &format!("/api/v1/documents/{id}"));
        assert_eq!(r.status, 200, "answered {id} lost: {}", r.text());
        assert!(r.json()["document"]["version"].as_i64().unwrap() >= *version);
        let model = survivor.get(&t, &format!("/api/v1/documents/{id}.json"));
        assert_eq!(model.status, 200, "{id}: {}", model.text());
    }
}

/// POST with a connection error as `None` (the server died), any status as `Some`.
fn ureq_post(url: &str, token: &str, body: Vec<u8>) -> Option<(u16, Value)> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let mut r = agent
        .post(url)
        .header("authorization", &format!("Bearer {token}"))
        .header("content-type", "application/json")
        .send(&body[..])
        .ok()?;
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().ok()?;
    Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

#[test]
fn a_blob_store_outage_is_503_and_the_hosts_recover_by_themselves() {
    let mut s3 = S3::start();
    let Some(hosts) = cluster(&s3, 2) else { return };
    let t = hosts[0].token(&hosts[0].account("pro"));
    let made = hosts[0].send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# kept"}));
    assert_eq!(made.status, 201, "{}", made.text());
    let kept = made.json()["document"]["id"].as_str().unwrap().to_string();
    let total = |h: &Server| {
        h.get(&t, "/api/v1/documents").json()["total"]
            .as_i64()
            .unwrap()
    };
    let before = total(&hosts[1]);

    s3.stop();
    for h in &hosts {
        let r = h.send_json(
            "POST",
            &t,
            "/api/v1/pdfs",
            &json!({"markdown": format!("# during the outage {}", rand_hex())}),
        );
        assert_eq!(r.status, 503, "{}", r.text());
        let retry: u64 = r
            .header("retry-after")
            .expect("Retry-After")
            .parse()
            .unwrap();
        assert!(retry >= 1);
        assert_eq!(r.json()["ok"], false);
        let read = h.get(&t, &format!("/api/v1/documents/{kept}.pdf"));
        assert_eq!(read.status, 503, "{}", read.text());
    }
    // Nothing half-made: no row names a blob that was never written.
    assert_eq!(total(&hosts[1]), before);

    s3.restart();
    for h in &hosts {
        wait_until("recovery", Duration::from_secs(30), || {
            h.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# back"}))
                .status
                == 201
        });
        assert_eq!(
            h.get(&t, &format!("/api/v1/documents/{kept}.pdf")).status,
            200
        );
    }
}

/// 50 activations and rollbacks of markdown while 4 clients create documents with it:
/// no swap fails, no request fails.
fn swaps_under_load(s: &Server) {
    s.cli(&["admin", "plan", "set", "pro", "--daily-calls", "none"]);
    let t = s.token(&s.account("pro"));
    let r = operator(
        s,
        "POST",
        "/plugins?activate=false",
        Some(("application/wasm", component("markdown-next"))),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let stop = AtomicBool::new(false);
    let created = AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..4)
            .map(|c| {
                let (t, stop, created) = (t.clone(), &stop, &created);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    let mut i = 0;
                    while !stop.load(Ordering::Relaxed) {
                        i += 1;
                        let r = s.send_json(
                            "POST",
                            &t,
                            "/api/v1/pdfs",
                            &json!({"markdown": format!("# Client {c} document {i}\n\nSome words.")}),
                        );
                        if r.status == 201 && r.json()["document"]["pages"] == 1 {
                            created.fetch_add(1, Ordering::Relaxed);
                        } else {
                            failures.push(format!("create: {} {}", r.status, r.text()));
                        }
                    }
                    failures
                })
            })
            .collect();
        let mut failures = Vec::new();
        for i in 0..50 {
            let r = if i % 2 == 0 {
                operator(
                    s,
                    "POST",
                    "/plugins/markdown/activate",
                    Some(("application/json", br#"{"version":"1.1.1-next"}"#.to_vec())),
                )
            } else {
                operator(s, "POST", "/plugins/markdown/rollback", None)
            };
            if r.status != 200 {
                failures.push(format!("swap {i}: {} {}", r.status, r.text()));
            }
        }
        stop.store(true, Ordering::Relaxed);
        for c in clients {
            failures.extend(c.join().unwrap());
        }
        failures
    });
    assert!(
        failures.is_empty(),
        "{} failures: {failures:#?}",
        failures.len()
    );
    assert!(
        created.load(Ordering::Relaxed) >= 20,
        "too few creates ran beside the swaps"
    );
}

#[test]
fn swaps_under_load_on_sqlite() {
    swaps_under_load(&Server::start(&[]));
}

#[test]
fn swaps_under_load_on_postgres() {
    let Some(url) = postgres_database() else {
        return;
    };
    swaps_under_load(&Server::start_with_db(Some(url), &[]));
}
