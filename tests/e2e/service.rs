//! Running Quire as a service: request ids, health, metrics read by a real Prometheus
//! parser, JSON logs, a graceful stop on SIGTERM, and the token endpoint against guessing.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{corpus, make_certificate, run_tool};
use crate::server::*;

#[test]
fn every_answer_has_a_request_id_and_errors_carry_it() {
    let s = shared();
    let r = request("GET", &s.url("/healthz"), &[], None);
    assert_eq!(r.status, 200);
    let made = r.header("x-request-id").expect("a request id");
    assert!(!made.is_empty() && made.len() <= 128, "{made}");

    // A sane id of the caller's is kept, in the header and in the error body.
    let r = request(
        "GET",
        &s.url("/api/v1/documents"),
        &[("x-request-id", "trace-42.a_b:c")],
        None,
    );
    assert_eq!(r.status, 401);
    assert_eq!(r.header("x-request-id").as_deref(), Some("trace-42.a_b:c"));
    assert_eq!(r.json()["request_id"], "trace-42.a_b:c", "{}", r.text());
    // One that is not is replaced.
    let long = "x".repeat(200);
    for bad in [long.as_str(), "a b", "<script>"] {
        let r = request("GET", &s.url("/nowhere"), &[("x-request-id", bad)], None);
        assert_eq!(r.status, 404);
        let id = r.header("x-request-id").unwrap();
        assert_ne!(id, bad);
        assert_eq!(r.json()["request_id"], id.as_str());
    }
}

#[test]
fn health_and_readiness_need_no_token_on_either_listener() {
    let s = shared();
    for base in [&s.base, &s.admin_base] {
        let r = request("GET", &format!("{base}/healthz"), &[], None);
        assert_eq!(r.status, 200, "{base}: {}", r.text());
        let r = request("GET", &format!("{base}/readyz"), &[], None);
        assert_eq!(r.status, 200, "{base}: {}", r.text());
        assert_eq!(
            r.json()["checks"],
            json!({"database": true, "blobs": true, "converters": true})
        );
    }
}

#[test]
fn a_wrong_method_anywhere_names_the_methods_the_path_takes() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let (form, _) = name_form(s, &t);
    let allow_of = |r: &Resp| -> Vec<String> {
        let mut allow: Vec<String> = r
            .header("allow")
            .unwrap_or_default()
            .split(',')
            .map(|m| m.trim().to_string())
            .filter(|m| !m.is_empty())
            .collect();
        allow.sort();
        allow
    };
    // Outside the API's route table: JSON, with the router's methods in Allow and body.
    for (method, path, takes) in [
        ("PUT", "/healthz".to_string(), vec!["GET", "HEAD"]),
        ("POST", "/readyz".to_string(), vec!["GET", "HEAD"]),
        ("GET", "/auth/oauth/token".to_string(), vec!["POST"]),
        ("DELETE", format!("/f/{form}"), vec!["GET", "HEAD", "POST"]),
        ("PUT", format!("/f/{form}/pages/1.png"), vec!["GET", "HEAD"]),
    ] {
        let r = request(method, &s.url(&path), &[], None);
        assert_eq!(r.status, 405, "{method} {path}: {}", r.text());
        assert_eq!(allow_of(&r), takes, "{method} {path}");
        let body = r.json();
        assert_eq!(body["ok"], false, "{method} {path}");
        let mut listed: Vec<String> = body["allow"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        listed.sort();
        assert_eq!(listed, takes, "{method} {path}");
    }
    // In the table, as before.
    let auth = format!("Bearer {t}");
    let r = request(
        "DELETE",
        &s.url("/api/v1/pdfs"),
        &[("authorization", auth.as_str())],
        None,
    );
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow").as_deref(), Some("POST"));
    // A page's path: a page, with the methods in Allow (signed in, as a person would be).
    let (cookie, _) = crate::pages::sign_in(s, &a.id);
    let cookie = format!("quire_session={cookie}");
    for (method, path, takes) in [
        ("DELETE", "/signin", vec!["GET", "HEAD", "POST"]),
        ("GET", "/signout", vec!["POST"]),
        ("GET", "/bin/x/restore", vec!["POST"]),
    ] {
        let r = request(method, &s.url(path), &[("cookie", cookie.as_str())], None);
        assert_eq!(r.status, 405, "{method} {path}: {}", r.text());
        assert_eq!(allow_of(&r), takes, "{method} {path}");
        let kind = r.header("content-type").unwrap_or_default();
        assert!(kind.starts_with("text/html"), "{method} {path}: {kind}");
        assert!(r.text().contains("Method Not Allowed"), "{}", r.text());
        assert!(r.header("x-request-id").is_some(), "{method} {path}");
    }
}

/// The samples of a Prometheus text page as Python's prometheus_client parser reads them:
/// `[{name, labels, value}]`.
fn scrape(s: &Server) -> Vec<Value> {
    let r = request("GET", &format!("{}/metrics", s.admin_base), &[], None);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("metrics.txt");
    std::fs::write(&page, r.text()).unwrap();
    let script = "import json,sys\nfrom prometheus_client.parser import text_string_to_metric_families as parse\nout=[]\nfor fam in parse(open(sys.argv[1]).read()):\n    for s in fam.samples:\n        out.append({'name': s.name, 'labels': s.labels, 'value': s.value, 'type': fam.type})\nprint(json.dumps(out))";
    let out = run_tool(Command::new("python3").args(["-c", script]).arg(&page));
    serde_json::from_str(&out).unwrap()
}

fn sample(samples: &[Value], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    samples
        .iter()
        .find(|s| s["name"] == name && labels.iter().all(|(k, v)| s["labels"][*k] == *v))
        .and_then(|s| s["value"].as_f64())
}

#[test]
fn metrics_count_what_was_sent() {
    let s = Server::start(&[]);
    let t = s.token(&s.account("pro"));
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"markdown": "# Counted"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    for _ in 0..3 {
        assert_eq!(s.get(&t, &format!("/api/v1/documents/{id}")).status, 200);
    }
    for _ in 0..2 {
        assert_eq!(s.get(&t, "/api/v1/documents/0000").status, 404);
    }
    assert_eq!(
        request("GET", &s.url("/no/such/route"), &[], None).status,
        404
    );

    let samples = scrape(&s);
    let requests = |route: &str, method: &str, status: &str| {
        sample(
            &samples,
            "quire_http_requests_total",
            &[("route", route), ("method", method), ("status", status)],
        )
        .unwrap_or(0.0)
    };
    assert_eq!(requests("/api/v1/documents/{id}", "GET", "200"), 3.0);
    assert_eq!(requests("/api/v1/documents/{id}", "GET", "404"), 2.0);
    assert_eq!(requests("/api/v1/pdfs", "POST", "201"), 1.0);
    assert_eq!(requests("unmatched", "GET", "404"), 1.0);
    // The histogram agrees with the counters.
    let count = sample(
        &samples,
        "quire_http_request_duration_seconds_count",
        &[("route", "/api/v1/documents/{id}")],
    )
    .unwrap();
    assert_eq!(count, 5.0);
    // The conversion behind the create, with its costs.
    let imports = &[
        ("plugin", "markdown"),
        ("direction", "import"),
        ("outcome", "ok"),
    ];
    assert_eq!(
        sample(&samples, "quire_conversions_total", imports),
        Some(1.0)
    );
    let memory = sample(
        &samples,
        "quire_conversion_peak_memory_bytes_sum",
        &[("plugin", "markdown"), ("direction", "import")],
    )
    .unwrap();
    assert!(memory > 0.0, "{memory}");
    // A plugin-directory converter runs without fuel metering, so it has no fuel series.
    assert_eq!(
        sample(
            &samples,
            "quire_conversion_fuel_sum",
            &[("plugin", "markdown"), ("direction", "import")],
        ),
        None
    );
    for gauge in [
        "quire_conversion_workers_busy",
        "quire_conversion_queue_waiting",
        "quire_outbox_messages",
        "quire_db_connections_in_use",
    ] {
        assert!(sample(&samples, gauge, &[]).is_some(), "no {gauge}");
    }
}

#[test]
fn json_logs_carry_the_request_id() {
    let mut s = Server::start(&[]);
    s.kill();
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("quire.log");
    let log = std::fs::File::create(&log_path).unwrap();
    s.spawn_logging_to(
        &[("QUIRE_LOG_FORMAT", "json"), ("QUIRE_LOG", "quire=info")],
        Stdio::from(log),
    );
    let r = request(
        "GET",
        &s.url("/api/v1/documents"),
        &[("x-request-id", "find-me-in-the-log")],
        None,
    );
    assert_eq!(r.status, 401);
    std::thread::sleep(Duration::from_millis(300));
    let text = std::fs::read_to_string(&log_path).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let ours: Vec<&Value> = lines
        .iter()
        .filter(|l| l["span"]["id"] == "find-me-in-the-log")
        .collect();
    assert!(!ours.is_empty(), "no line of the request: {text}");
    assert!(
        ours.iter().any(|l| l["fields"]["status"] == 401),
        "no access line for the request: {ours:?}"
    );
}

#[test]
fn sigterm_lets_conversions_in_flight_finish_and_exits_cleanly() {
    let mut s = Server::start(&[("QUIRE_WORKERS", "1"), ("QUIRE_DRAIN_SECS", "60")]);
    let t = s.token(&s.account("pro"));
    let spec = std::fs::read_to_string(corpus("markdown/commonmark-spec.md")).unwrap();
    let (url, bearer) = (s.url("/api/v1/pdfs"), format!("Bearer {t}"));
    let statuses = std::thread::scope(|scope| {
        let calls: Vec<_> = (0..4)
            .map(|i| {
                let (url, bearer, spec) = (&url, &bearer, &spec);
                scope.spawn(move || {
                    let body = json!({"markdown": format!("{spec}\n\nCopy {i}.")});
                    request(
                        "POST",
                        url,
                        &[("authorization", bearer)],
                        Some(("application/json", body.to_string().into_bytes())),
                    )
                    .status
                })
            })
            .collect();
        // Wait until all four are in the service: one converting, three waiting for it.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            // Read straight from the page: this loop must be quicker than a conversion.
            let page = request("GET", &format!("{}/metrics", s.admin_base), &[], None).text();
            let gauge = |name: &str| -> f64 {
                page.lines()
                    .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
                    .unwrap()
            };
            if gauge("quire_conversion_workers_busy") + gauge("quire_conversion_queue_waiting")
                >= 4.0
            {
                break;
            }
            assert!(Instant::now() < deadline, "the four calls never queued up");
            std::thread::sleep(Duration::from_millis(2));
        }
        let stopped = {
            let port = s.port;
            let status = s.terminate();
            // After the stop nothing listens any more.
            let refused = std::net::TcpStream::connect(("127.0.0.1", port)).is_err();
            (status, refused)
        };
        let statuses: Vec<u16> = calls.into_iter().map(|c| c.join().unwrap()).collect();
        (statuses, stopped)
    });
    let (statuses, (exit, refused)) = statuses;
    assert_eq!(statuses, vec![201; 4], "every call in flight is answered");
    assert!(exit.success(), "exit status {exit}");
    assert!(refused, "a new connection after the stop was accepted");
}

#[test]
fn guessing_secrets_at_the_token_endpoint_is_slowed() {
    let s = Server::start(&[("QUIRE_TOKEN_FAILURES_PER_MINUTE", "3")]);
    let a = s.account("pro");
    for _ in 0..3 {
        assert_eq!(s.token_response(&a.client_id, "wrong", None).status, 401);
    }
    let r = s.token_response(&a.client_id, "wrong", None);
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    // Even the right secret waits now: the guesser cannot tell.
    assert_eq!(s.token_response(&a.client_id, &a.secret, None).status, 429);
    // Another client is not affected.
    let b = s.account("pro");
    assert_eq!(s.token_response(&b.client_id, &b.secret, None).status, 200);
}

/// curl over HTTPS trusting `ca`: (status, HTTP version, headers), or None when the
/// connection or the certificate check failed.
fn curl(ca: &std::path::Path, url: &str, extra: &[&str]) -> Option<(u16, String, String)> {
    let out = Command::new("curl")
        .args([
            "-s",
            "-D",
            "-",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code} %{http_version}",
        ])
        .arg("--cacert")
        .arg(ca)
        .args(extra)
        .arg(url)
        .output()
        .unwrap();
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let last = text.lines().last()?.to_string();
    let (code, version) = last.split_once(' ')?;
    Some((code.parse().ok()?, version.to_string(), text.to_lowercase()))
}

#[test]
fn https_with_http2_a_certificate_swap_and_two_independent_clients() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = make_certificate(dir.path(), "first");
    let (live_cert, live_key) = (dir.path().join("live.crt"), dir.path().join("live.key"));
    std::fs::copy(&cert, &live_cert).unwrap();
    std::fs::copy(&key, &live_key).unwrap();
    let mut s = Server::start(&[
        ("QUIRE_TLS_CERT", live_cert.to_str().unwrap()),
        ("QUIRE_TLS_KEY", live_key.to_str().unwrap()),
    ]);
    let https = format!("https://127.0.0.1:{}", s.port);

    // curl: HTTP/2 by ALPN, HTTP/1.1 when asked, HSTS on both.
    let (status, version, headers) =
        curl(&cert, &format!("{https}/healthz"), &[]).expect("curl over TLS");
    assert_eq!((status, version.as_str()), (200, "2"));
    assert!(
        headers.contains("strict-transport-security: max-age="),
        "{headers}"
    );
    let (status, version, _) =
        curl(&cert, &format!("{https}/healthz"), &["--http1.1"]).expect("curl over TLS");
    assert_eq!((status, version.as_str()), (200, "1.1"));
    // Plain HTTP on the TLS port gets no answer.
    assert!(std::process::Command::new("curl")
        .args([
            "-s",
            "-m",
            "5",
            &format!("http://127.0.0.1:{}/healthz", s.port)
        ])
        .output()
        .map(|o| !o.status.success() || o.stdout.is_empty())
        .unwrap());

    // Python's ssl: the token exchange and a document round trip.
    let a = s.account("pro");
    let script = r##"
import base64, json, ssl, sys, urllib.request
base, ca, cid, secret = sys.argv[1:5]
ctx = ssl.create_default_context(cafile=ca)
basic = base64.b64encode(f"{cid}:{secret}".encode()).decode()
req = urllib.request.Request(base + "/auth/oauth/token", data=b"grant_type=client_credentials",
    headers={"Authorization": "Basic " + basic, "Content-Type": "application/x-www-form-urlencoded"})
token = json.load(urllib.request.urlopen(req, context=ctx))["access_token"]
auth = {"Authorization": "Bearer " + token}
req = urllib.request.Request(base + "/api/v1/pdfs", data=json.dumps({"markdown": "# Over TLS"}).encode(),
    headers={**auth, "Content-Type": "application/json"})
doc = json.load(urllib.request.urlopen(req, context=ctx))["document"]
pdf = urllib.request.urlopen(urllib.request.Request(base + "/api/v1/documents/" + doc["id"] + ".pdf", headers=auth), context=ctx).read()
print(json.dumps({"id": doc["id"], "pdf": pdf[:5].decode("latin-1"), "version": ssl.OPENSSL_VERSION}))
"##;
    let out = run_tool(
        Command::new("python3")
            .args(["-c", script, &https])
            .arg(&cert)
            .args([&a.client_id, &a.secret]),
    );
    let got: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(got["pdf"], "%PDF-", "{got}");

    // A renewed certificate: new files, SIGHUP, and new connections get it.
    let (second, second_key) = make_certificate(dir.path(), "second");
    std::fs::copy(&second, dir.path().join("next.crt")).unwrap();
    std::fs::copy(&second_key, dir.path().join("next.key")).unwrap();
    std::fs::rename(dir.path().join("next.key"), &live_key).unwrap();
    std::fs::rename(dir.path().join("next.crt"), &live_cert).unwrap();
    let hup = Command::new("kill")
        .args(["-HUP", &s.pid().to_string()])
        .status()
        .unwrap();
    assert!(hup.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    while curl(&second, &format!("{https}/healthz"), &[]).is_none() {
        assert!(
            Instant::now() < deadline,
            "the new certificate was never served"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        curl(&cert, &format!("{https}/healthz"), &[]).is_none(),
        "the old certificate is still served"
    );
    // The server kept running through the swap.
    assert!(s.terminate().success());
}

/// A one-field form that any link holder can answer.
fn name_form(s: &Server, t: &str) -> (String, Value) {
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/forms",
        &json!({"markdown": "# Sign up\n\nYour name, please.\n", "fields": [
            {"key": "name", "type": "text", "label": "Name", "page": 1, "x": 72, "y": 200, "w": 200, "h": 20}
        ]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"].clone();
    (form["id"].as_str().unwrap().to_string(), form)
}

fn answer_from(s: &Server, form: &str, forwarded_for: &str) -> u16 {
    request(
        "POST",
        &s.url(&format!("/f/{form}")),
        &[("x-forwarded-for", forwarded_for)],
        Some(("application/x-www-form-urlencoded", b"a.name=Ann".to_vec())),
    )
    .status
}

#[test]
fn behind_a_trusted_proxy_forwarded_headers_name_the_client_but_never_the_links() {
    let s = Server::start(&[
        ("QUIRE_TRUST_PROXY", "10.0.0.0/8, 127.0.0.1"),
        ("QUIRE_LINK_ANSWERS_PER_CLIENT", "2"),
    ]);
    let a = s.account("pro");
    let t = s.token(&a);
    let auth = format!("Bearer {t}");
    let forwarded = [
        ("authorization", auth.as_str()),
        ("x-forwarded-proto", "https"),
        ("x-forwarded-host", "evil.example"),
    ];
    let r = request(
        "POST",
        &s.url("/api/v1/pdfs"),
        &forwarded,
        Some(("application/json", br##"{"markdown": "# Hi"}"##.to_vec())),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    assert_eq!(
        r.json()["document"]["links"]["open"],
        format!("{}/d/{id}", s.base),
        "links name QUIRE_BASE_URL, whatever the proxy forwards: {}",
        r.text()
    );

    // Each forwarded client has its own allowance of answers; a forged entry left of
    // the one the proxy appended does not make a new client.
    let (form, _) = name_form(&s, &t);
    assert_eq!(answer_from(&s, &form, "203.0.113.1"), 200);
    assert_eq!(answer_from(&s, &form, "198.51.100.9, 203.0.113.1"), 200);
    assert_eq!(answer_from(&s, &form, "192.0.2.77, 203.0.113.1"), 429);
    assert_eq!(answer_from(&s, &form, "203.0.113.2, 10.1.2.3"), 200);

    // From a peer that is not a trusted proxy, the headers are the client's to forge and
    // count for nothing.
    let s2 = Server::start(&[
        ("QUIRE_TRUST_PROXY", "10.0.0.1"),
        ("QUIRE_LINK_ANSWERS_PER_CLIENT", "2"),
    ]);
    let b = s2.account("pro");
    let t2 = s2.token(&b);
    let auth = format!("Bearer {t2}");
    let r = request(
        "POST",
        &s2.url("/api/v1/pdfs"),
        &[
            ("authorization", auth.as_str()),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "evil.example"),
        ],
        Some(("application/json", br##"{"markdown": "# Hi"}"##.to_vec())),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(
        r.json()["document"]["links"]["open"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{}/d/", s2.base)),
        "{}",
        r.text()
    );
    let (form, _) = name_form(&s2, &t2);
    assert_eq!(answer_from(&s2, &form, "203.0.113.1"), 200);
    assert_eq!(answer_from(&s2, &form, "203.0.113.2"), 200);
    assert_eq!(answer_from(&s2, &form, "203.0.113.3"), 429);
}

/// The unit file README shows is the one in deploy/, and systemd accepts it (with the
/// binary this build made in place of the installed path).
#[test]
fn the_systemd_unit_verifies() {
    let root = crate::common::repo_root();
    let unit = std::fs::read_to_string(root.join("deploy/quire.service")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains(&unit),
        "README's systemd unit differs from deploy/quire.service"
    );
    assert!(unit.contains("ExecStart=/usr/local/bin/quire serve"));
    let Ok(probe) = Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("no systemd-analyze here: the unit is only compared with README");
        return;
    };
    assert!(probe.status.success());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quire.service");
    std::fs::write(
        &path,
        unit.replace("/usr/local/bin/quire", env!("CARGO_BIN_EXE_quire")),
    )
    .unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let complaints = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !complaints.contains("quire.service"),
        "systemd-analyze verify: {complaints}"
    );
}
