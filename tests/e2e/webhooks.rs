//! Webhooks end to end: a real receiver on loopback (tests/webhooks/receiver.py), every
//! event type, signatures checked by the standardwebhooks package rather than our own code,
//! retries after a 500, a delivery given up and listed, secret rotation, the address rules,
//! and several hosts on one Postgres delivering each event once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{repo_root, run_tool};
use crate::forms::{create_form, good_answers};
use crate::server::*;

struct Receiver {
    child: Child,
    port: u16,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Receiver {
    fn start() -> Receiver {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("requests.jsonl");
        std::fs::write(&log, "").unwrap();
        let port = free_port();
        let child = Command::new("python3")
            .arg(repo_root().join("tests/webhooks/receiver.py"))
            .arg(port.to_string())
            .arg(&log)
            .stdout(Stdio::null())
            .spawn()
            .expect("python3 tests/webhooks/receiver.py");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the receiver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Receiver {
            child,
            port,
            log,
            _dir: dir,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Every request so far, checked with the standardwebhooks package against `secrets`.
    fn requests(&self, secrets: &[&str]) -> Vec<Value> {
        let out = run_tool(
            Command::new("python3")
                .arg(repo_root().join("tests/webhooks/verify.py"))
                .arg(&self.log)
                .args(secrets),
        );
        serde_json::from_str::<Vec<Value>>(&out).unwrap()
    }
}

/// A server whose webhooks may reach the loopback receiver and retry quickly.
fn quick_env() -> Vec<(&'static str, &'static str)> {
    vec![
        ("QUIRE_WEBHOOK_ALLOW", "127.0.0.1"),
        ("QUIRE_WEBHOOK_POLL_MS", "100"),
        ("QUIRE_WEBHOOK_RETRY_FIRST_MS", "300"),
        ("QUIRE_WEBHOOK_RETRY_MAX_SECS", "1"),
        ("QUIRE_WEBHOOK_GIVE_UP_SECS", "3"),
    ]
}

fn register(s: &Server, t: &str, url: &str, events: &[&str]) -> Value {
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/webhooks",
        &json!({"url": url, "events": events}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let hook = r.json()["webhook"].clone();
    assert!(
        hook["secret"].as_str().unwrap().starts_with("whsec_"),
        "{hook}"
    );
    hook
}

/// A request without a body.
fn call(s: &Server, method: &str, t: &str, path: &str) -> Resp {
    request(
        method,
        &s.url(path),
        &[("authorization", &format!("Bearer {t}"))],
        None,
    )
}

fn log_of(s: &Server, t: &str, hook: &str) -> Vec<Value> {
    let r = s.get(t, &format!("/api/v1/webhooks/{hook}/deliveries"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["deliveries"].as_array().unwrap().clone()
}

/// Waits until every delivery in the endpoint's log is no longer pending (and there are
/// at least `count`); returns the log.
fn settled(s: &Server, t: &str, hook: &str, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let log = log_of(s, t, hook);
        if log.len() >= count && log.iter().all(|d| d["state"] != "pending") {
            return log;
        }
        assert!(
            Instant::now() < deadline,
            "deliveries still pending: {log:#?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn upload(s: &Server, t: &str, method: &str, path: &str, markdown: &str) -> Value {
    let r = s.send_json(method, t, path, &json!({"markdown": markdown}));
    assert!(r.status == 200 || r.status == 201, "{}", r.text());
    r.json()["document"].clone()
}

#[test]
fn every_event_is_delivered_signed_and_retried_after_a_500() {
    let receiver = Receiver::start();
    let s = Server::start(&quick_env());
    let a = s.account("pro");
    let t = s.token(&a);
    let all = [
        "response.created",
        "document.created",
        "document.replaced",
        "document.binned",
        "document.restored",
        "form.closed",
    ];
    let hook = register(&s, &t, &receiver.url("/flaky"), &all);
    let (id, secret) = (
        hook["id"].as_str().unwrap(),
        hook["secret"].as_str().unwrap(),
    );
    // Listed without its secret.
    let listed = s.get(&t, "/api/v1/webhooks").json();
    assert_eq!(listed["webhooks"][0]["id"], hook["id"]);
    assert!(listed["webhooks"][0].get("secret").is_none(), "{listed}");

    let doc = upload(&s, &t, "POST", "/api/v1/pdfs", "# Minutes\n\nFirst draft.");
    let doc_id = doc["id"].as_str().unwrap();
    upload(
        &s,
        &t,
        "PUT",
        &format!("/api/v1/pdfs/{doc_id}"),
        "# Minutes\n\nSecond draft.",
    );
    let r = call(&s, "DELETE", &t, &format!("/api/v1/documents/{doc_id}"));
    assert_eq!(r.status, 200, "{}", r.text());
    s.cli(&["admin", "restore", doc_id]);
    let form = create_form(&s, &t, "Picnic signup");
    let form_id = form["id"].as_str().unwrap();
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{form_id}/responses"),
        &json!({"answers": good_answers(), "as": "ann@example.org"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let response = r.json()["response"].clone();
    let r = s.send_json(
        "PATCH",
        &t,
        &format!("/api/v1/forms/{form_id}"),
        &json!({"open": false}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // Closing a closed form reports nothing more.
    s.send_json(
        "PATCH",
        &t,
        &format!("/api/v1/forms/{form_id}"),
        &json!({"open": false}),
    );

    // document.created ×3 (the document, the form, the filled copy), then one of each other.
    let log = settled(&s, &t, id, 8);
    assert_eq!(log.len(), 8, "{log:#?}");
    for d in &log {
        assert_eq!(d["state"], "delivered", "{d}");
        assert_eq!(d["attempts"], 2, "a 500 first, then 200: {d}");
        assert_eq!(d["last_status"], 200, "{d}");
    }

    let requests = receiver.requests(&[secret, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]);
    assert_eq!(requests.len(), 16, "two attempts per delivery");
    for r in &requests {
        assert_eq!(
            r["verified_by"],
            json!([0]),
            "signed with this endpoint's secret only: {r}"
        );
    }
    let mut attempts_per_id: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &requests {
        *attempts_per_id
            .entry(r["id"].as_str().unwrap())
            .or_default() += 1;
    }
    assert!(
        attempts_per_id.values().all(|n| *n == 2),
        "{attempts_per_id:?}"
    );
    let ids: BTreeSet<&str> = log.iter().map(|d| d["id"].as_str().unwrap()).collect();
    assert_eq!(ids, attempts_per_id.keys().copied().collect());

    let of_type = |kind: &str| -> Vec<&Value> {
        let mut seen = BTreeSet::new();
        requests
            .iter()
            .filter(|r| r["payload"]["type"] == kind && seen.insert(r["id"].as_str().unwrap()))
            .map(|r| &r["payload"])
            .collect()
    };
    assert_eq!(of_type("document.created").len(), 3);
    for kind in &all[..] {
        assert!(!of_type(kind).is_empty(), "no {kind}");
    }
    let replaced = of_type("document.replaced")[0];
    assert_eq!(replaced["data"]["id"], doc_id);
    assert_eq!(
        replaced["data"]["version"],
        doc["version"].as_i64().unwrap() + 1
    );
    assert_eq!(of_type("document.binned")[0]["data"]["id"], doc_id);
    assert_eq!(of_type("document.restored")[0]["data"]["id"], doc_id);
    let answered = of_type("response.created")[0];
    assert_eq!(answered["data"]["form"]["id"], form_id);
    assert_eq!(answered["data"]["response"]["id"], response["id"]);
    assert_eq!(
        answered["data"]["response"]["answers"]["email"],
        "ann@example.org"
    );
    let closed = of_type("form.closed");
    assert_eq!(closed.len(), 1);
    assert_eq!(closed[0]["data"]["responses"], 1);
    assert!(answered["timestamp"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn a_delivery_never_taken_is_given_up_and_listed_and_redirects_are_not_followed() {
    let receiver = Receiver::start();
    let s = Server::start(&quick_env());
    let a = s.account("pro");
    let t = s.token(&a);
    let down = register(&s, &t, &receiver.url("/down"), &["document.created"]);
    let moved = register(&s, &t, &receiver.url("/redirect"), &["document.created"]);
    upload(&s, &t, "POST", "/api/v1/pdfs", "# Nobody listens");
    for (hook, status) in [(&down, 500), (&moved, 307)] {
        let log = settled(&s, &t, hook["id"].as_str().unwrap(), 1);
        let d = &log[0];
        assert_eq!(d["state"], "failed", "{d}");
        assert_eq!(d["last_status"], status, "{d}");
        assert!(d["attempts"].as_i64().unwrap() >= 2, "retried first: {d}");
        assert!(d["done_at"].is_number(), "{d}");
    }
    let requests = receiver.requests(&[]);
    assert!(
        requests.iter().all(|r| r["path"] != "/ok"),
        "a redirect was followed: {requests:#?}"
    );
    let moved_log = log_of(&s, &t, moved["id"].as_str().unwrap());
    assert!(
        moved_log[0]["last_error"]
            .as_str()
            .unwrap()
            .contains("redirects are not followed"),
        "{moved_log:#?}"
    );
}

#[test]
fn a_test_event_and_a_rotated_secret_reach_the_receiver() {
    let receiver = Receiver::start();
    let s = Server::start(&quick_env());
    let a = s.account("pro");
    let t = s.token(&a);
    let hook = register(&s, &t, &receiver.url("/ok"), &["form.closed"]);
    let id = hook["id"].as_str().unwrap();
    let old = hook["secret"].as_str().unwrap();
    let r = call(&s, "POST", &t, &format!("/api/v1/webhooks/{id}/test"));
    assert_eq!(r.status, 202, "{}", r.text());
    assert_eq!(r.json()["delivery"]["event"], "webhook.test");
    settled(&s, &t, id, 1);
    let r = call(&s, "POST", &t, &format!("/api/v1/webhooks/{id}/secret"));
    assert_eq!(r.status, 200, "{}", r.text());
    let new = r.json()["webhook"]["secret"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    call(&s, "POST", &t, &format!("/api/v1/webhooks/{id}/test"));
    settled(&s, &t, id, 2);
    let requests = receiver.requests(&[old, &new]);
    assert_eq!(requests.len(), 2, "{requests:#?}");
    assert_eq!(requests[0]["payload"]["type"], "webhook.test");
    assert_eq!(requests[0]["verified_by"], json!([0]));
    // During the change-over both secrets sign, so a receiver on either accepts it.
    assert_eq!(requests[1]["verified_by"], json!([0, 1]));
    assert_eq!(requests[1]["signatures"], 2);

    // Deleted: gone from the list, its log and its pending deliveries with it.
    let r = call(&s, "DELETE", &t, &format!("/api/v1/webhooks/{id}"));
    assert_eq!((r.status, r.json()["deleted"].clone()), (200, json!(id)));
    assert_eq!(s.get(&t, &format!("/api/v1/webhooks/{id}")).status, 404);
    assert_eq!(s.get(&t, "/api/v1/webhooks").json()["webhooks"], json!([]));
    // Another account sees none of it.
    let b = s.account("pro");
    let tb = s.token(&b);
    let mine = register(&s, &t, &receiver.url("/ok"), &["form.closed"]);
    let path = format!(
        "/api/v1/webhooks/{}/deliveries",
        mine["id"].as_str().unwrap()
    );
    assert_eq!(s.get(&tb, &path).status, 404);
}

#[test]
fn receivers_must_be_public_https_unless_the_operator_allows_them() {
    let receiver = Receiver::start();
    // No QUIRE_WEBHOOK_ALLOW: the rules as shipped.
    let s = Server::start(&[("QUIRE_WEBHOOK_POLL_MS", "100")]);
    let a = s.account("pro");
    let t = s.token(&a);
    for (url, events, field) in [
        ("http://hooks.example.org/in", json!(["form.closed"]), "url"),
        ("https://127.0.0.1/in", json!(["form.closed"]), "url"),
        (
            "https://169.254.169.254/latest/meta-data",
            json!(["form.closed"]),
            "url",
        ),
        ("https://[::1]/in", json!(["form.closed"]), "url"),
        (
            "https://user:pw@hooks.example.org/",
            json!(["form.closed"]),
            "url",
        ),
        ("https://hooks.example.org/in", json!([]), "events"),
    ] {
        let r = s.send_json(
            "POST",
            &t,
            "/api/v1/webhooks",
            &json!({"url": url, "events": events}),
        );
        assert_eq!(r.status, 400, "{url}: {}", r.text());
        assert_eq!(r.json()["field"], field, "{url}: {}", r.text());
    }
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/webhooks",
        &json!({"url": "https://hooks.example.org/in", "events": ["document.eaten"]}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    // A name is checked on what it resolves to, at each delivery: localhost is loopback.
    let url = format!("https://localhost:{}/ok", receiver.port);
    let hook = register(&s, &t, &url, &["document.created"]);
    upload(&s, &t, "POST", "/api/v1/pdfs", "# Private");
    let deadline = Instant::now() + Duration::from_secs(20);
    let d = loop {
        let log = log_of(&s, &t, hook["id"].as_str().unwrap());
        if log
            .first()
            .is_some_and(|d| d["attempts"].as_i64() > Some(0))
        {
            break log[0].clone();
        }
        assert!(Instant::now() < deadline, "never attempted: {log:#?}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(d["state"], "pending", "retried later: {d}");
    assert!(d["last_status"].is_null(), "{d}");
    let why = d["last_error"].as_str().unwrap();
    assert!(why.contains("QUIRE_WEBHOOK_ALLOW"), "{why}");
    assert!(
        receiver.requests(&[]).is_empty(),
        "the receiver was reached"
    );
}

/// Several hosts on one database: each event reaches the receiver once.
#[test]
fn several_hosts_deliver_each_event_once() {
    let Some(url) = postgres_database() else {
        return;
    };
    let receiver = Receiver::start();
    let env = quick_env();
    let hosts: Vec<Server> = (0..3)
        .map(|_| Server::start_with_db(Some(url.clone()), &env))
        .collect();
    let a = hosts[0].account("pro");
    let t = hosts[0].token(&a);
    let hook = register(&hosts[0], &t, &receiver.url("/ok"), &["document.created"]);
    for i in 0..30 {
        let host = &hosts[i % hosts.len()];
        upload(host, &t, "POST", "/api/v1/pdfs", &format!("# Note {i}"));
    }
    let log = settled(&hosts[1], &t, hook["id"].as_str().unwrap(), 30);
    assert!(
        log.iter()
            .all(|d| d["state"] == "delivered" && d["attempts"] == 1),
        "{log:#?}"
    );
    let secret = hook["secret"].as_str().unwrap();
    let requests = receiver.requests(&[secret]);
    let ids: BTreeSet<&str> = requests.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!((requests.len(), ids.len()), (30, 30), "each delivered once");
    assert!(requests.iter().all(|r| r["verified_by"] == json!([0])));
}
