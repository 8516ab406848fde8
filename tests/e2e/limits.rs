//! Plan limits over HTTP (413 while streaming, 507, 429 with Retry-After, the allowance
//! under 50 concurrent calls) and integrity after a SIGKILL. Each test has its own server,
//! because it changes plan limits or kills the process.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::json;

use crate::server::*;

/// Sends raw HTTP and returns the status line and the rest, without sending all the body.
fn raw_http(port_base: &str, head: &str, partial_body: &[u8]) -> String {
    let addr = port_base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(partial_body).unwrap();
    let mut buf = vec![0u8; 4096];
    let n = stream
        .read(&mut buf)
        .expect("the server must answer before the body is complete");
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

fn limits_on(s: &Server) {
    s.cli(&[
        "admin",
        "plan",
        "set",
        "pro",
        "--max-file",
        "4096",
        "--storage",
        "30000",
    ]);
    let a = s.account("pro");
    let t = s.token(&a);

    // 413 from Content-Length, before any of the body is read.
    let answer = raw_http(
        &s.base,
        &format!("POST /api/v1/pdfs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {t}\r\nContent-Type: text/markdown\r\nContent-Length: 10000000\r\n\r\n"),
        b"# only the start",
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // 413 while streaming a chunked body that has no length.
    let chunk = vec![b'a'; 5000];
    let mut partial = format!("{:x}\r\n", chunk.len()).into_bytes();
    partial.extend_from_slice(&chunk);
    partial.extend_from_slice(b"\r\n");
    let answer = raw_http(
        &s.base,
        &format!("POST /api/v1/pdfs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {t}\r\nContent-Type: text/markdown\r\nTransfer-Encoding: chunked\r\n\r\n"),
        &partial,
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // A base64 field decoding past the limit is 413 too.
    let big = "x".repeat(5000);
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({ "markdown": big }));
    assert_eq!(r.status, 413, "{}", r.text());

    // 507: storage runs out; what was stored stays within the quota.
    let mut refused = None;
    for i in 0..50 {
        let r = s.send_json(
            "POST",
            &t,
            "/api/v1/pdfs",
            &json!({"markdown": format!("# Note {i}\n\n{}", "words ".repeat(150))}),
        );
        if r.status != 201 {
            refused = Some(r);
            break;
        }
    }
    let r = refused.expect("storage quota was never reached");
    assert_eq!(r.status, 507, "{}", r.text());
    let usage = s.get(&t, "/api/v1/usage").json();
    let used = usage["storage"]["used"].as_i64().unwrap();
    assert!(used <= 30000, "{usage}");
    assert_eq!(usage["storage"]["left"].as_i64().unwrap(), 30000 - used);

    // 429 at the edge: 50 concurrent calls with 10 left spend exactly 10.
    let today = s.get(&t, "/api/v1/usage").json()["calls"]["today"]
        .as_i64()
        .unwrap();
    let allowed = today + 1 + 10; // +1 for the plan change check below
    s.cli(&[
        "admin",
        "plan",
        "set",
        "pro",
        "--daily-calls",
        &allowed.to_string(),
    ]);
    let left = s.get(&t, "/api/v1/usage").json()["calls"]["left"]
        .as_i64()
        .unwrap();
    assert_eq!(left, 10);
    let url = s.url("/api/v1/documents");
    let results: Vec<(u16, Option<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..50)
            .map(|_| {
                let (url, t) = (url.clone(), t.clone());
                scope.spawn(move || {
                    let r = request(
                        "GET",
                        &url,
                        &[("authorization", &format!("Bearer {t}"))],
                        None,
                    );
                    (r.status, r.header("retry-after"))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ok = results.iter().filter(|(s, _)| *s == 200).count();
    let limited: Vec<_> = results.iter().filter(|(s, _)| *s == 429).collect();
    assert_eq!(ok, 10, "{results:?}");
    assert_eq!(limited.len(), 40, "{results:?}");
    for (_, retry) in limited {
        let secs: u64 = retry
            .as_deref()
            .expect("429 carries Retry-After")
            .parse()
            .unwrap();
        assert!((1..=86400).contains(&secs), "Retry-After {secs}");
    }
    let r = s.get(&t, "/api/v1/usage");
    assert_eq!(r.status, 429);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("midnight UTC"));
}

#[test]
fn plan_limits_on_sqlite() {
    let s = Server::start(&[]);
    limits_on(&s);
}

#[test]
fn plan_limits_on_postgres() {
    let Some(url) = postgres_database() else {
        return;
    };
    let s = Server::start_with_db(Some(url), &[]);
    limits_on(&s);
}

/// Creates and replaces from 4 threads until the server dies; returns what was answered 2xx.
fn write_until_killed(s: &Server, t: &str) -> Vec<(String, i64)> {
    let url = s.base.clone();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let (url, t) = (url.clone(), t.to_string());
                scope.spawn(move || {
                    let mut acked: Vec<(String, i64)> = Vec::new();
                    for i in 0.. {
                        let body = json!({"markdown": format!("# Worker {w} step {i}\n\n{}", "text ".repeat(i % 50))});
                        let (method, path) = match acked.last() {
                            Some((id, _)) if i % 3 != 0 => ("PUT", format!("/api/v1/pdfs/{id}")),
                            _ => ("POST", "/api/v1/pdfs".to_string()),
                        };
                        let mut b = ureq::http::Request::builder().method(method).uri(format!("{url}{path}"));
                        b = b.header("authorization", format!("Bearer {t}")).header("content-type", "application/json");
                        match agent().run(b.body(serde_json::to_vec(&body).unwrap()).unwrap()) {
                            Ok(mut r) if r.status().is_success() => {
                                let v: serde_json::Value = serde_json::from_slice(&r.body_mut().read_to_vec().unwrap()).unwrap();
                                let d = &v["document"];
                                acked.push((d["id"].as_str().unwrap().to_string(), d["version"].as_i64().unwrap()));
                            }
                            Ok(r) => panic!("unexpected {} during the write stream", r.status()),
                            Err(_) => return acked, // the server is gone
                        }
                    }
                    acked
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

#[test]
fn every_answered_write_survives_a_sigkill() {
    let mut s = Server::start(&[]);
    // The stream writes faster than a day's allowance lasts; this test is about crashes.
    s.cli(&["admin", "plan", "set", "pro", "--daily-calls", "none"]);
    let a = s.account("pro");
    let t = s.token(&a);
    let pid = s.pid();
    let acked = std::thread::scope(|scope| {
        let writer = scope.spawn(|| write_until_killed(&s, &t));
        std::thread::sleep(Duration::from_millis(2500));
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        writer.join().unwrap()
    });
    s.kill();
    assert!(
        acked.len() > 10,
        "too few writes before the kill: {}",
        acked.len()
    );
    s.spawn(&[]);
    let mut latest: std::collections::HashMap<String, i64> = Default::default();
    for (id, v) in &acked {
        let e = latest.entry(id.clone()).or_insert(*v);
        *e = (*e).max(*v);
    }
    for (id, version) in &latest {
        let r = s.get(&t, &format!("/api/v1/documents/{id}"));
        assert_eq!(r.status, 200, "answered document {id} lost: {}", r.text());
        let now = r.json()["document"]["version"].as_i64().unwrap();
        assert!(
            now >= *version,
            "{id}: answered version {version}, stored {now}"
        );
        let model = s.get(&t, &format!("/api/v1/documents/{id}.json"));
        assert_eq!(model.status, 200, "{id} unreadable after restart");
        quire_sdk::validate::parse_and_check(&model.text(), []).expect("stored model is complete");
        assert_eq!(
            s.get(&t, &format!("/api/v1/documents/{id}.pdf")).status,
            200
        );
    }
    // Storage totals agree with what is stored.
    let used = s.get(&t, "/api/v1/usage").json()["storage"]["used"]
        .as_i64()
        .unwrap();
    let stored = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let db = quire::store::Db::open(None, s.data.path()).await.unwrap();
            quire::documents::stored_bytes(&db, &a.id).await.unwrap()
        });
    assert_eq!(
        used, stored,
        "account storage disagrees with the stored versions"
    );
}
