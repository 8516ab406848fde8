//! A patient attacker with a token or a form link: bodies that would cost far more memory
//! than their size, bodies that never finish, and many large bodies at once.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::server::*;

/// Peak resident memory of the server process so far, in bytes.
fn peak_memory(s: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    kb * 1024
}

/// `{"<member>": [0,0,...]}` of about `bytes` bytes.
fn zeros(member: &str, bytes: usize) -> Vec<u8> {
    let mut body = format!("{{\"{member}\":[0").into_bytes();
    body.reserve(bytes);
    while body.len() < bytes {
        body.extend_from_slice(b",0");
    }
    body.extend_from_slice(b"]}");
    body
}

#[test]
fn json_bodies_are_refused_before_they_cost_more_memory_than_their_size() {
    let s = Server::start(&[]);
    let t = s.token(&s.account("pro"));
    // Warm up so the peak reflects serving, not start-up.
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# Warm"}));
    assert_eq!(r.status, 201, "{}", r.text());
    let before = peak_memory(&s);

    // 80 MB of zeros where the model belongs: as a tree of values it would be gigabytes.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "application/json",
        zeros("model", 80 << 20),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(
        r.text().contains("`model` must be a JSON object"),
        "{}",
        r.text()
    );
    // A form's fields: the same trick where boxes belong is refused at its first item,
    // which is no box (the boxes are read as they come, never as a tree of values).
    let mut body = zeros("fields", 6 << 20);
    body.truncate(body.len() - 1);
    body.extend_from_slice(br##","markdown":"# A form"}"##);
    let r = s.send_raw("POST", &t, "/api/v1/forms", "application/json", body);
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["field"], "fields[0]", "{}", r.text());
    // And in a small body of its own.
    let form = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": "# Form\n\nName: ____"}),
    );
    assert_eq!(form.status, 201, "{}", form.text());
    let id = form.json()["form"]["id"].as_str().unwrap().to_string();
    let r = s.send_raw(
        "PUT",
        &t,
        &format!("/api/v1/forms/{id}/fields"),
        "application/json",
        zeros("fields", 3 << 20),
    );
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(r.text().contains("JSON values"), "{}", r.text());

    let grown = peak_memory(&s).saturating_sub(before);
    assert!(
        grown < 400 << 20,
        "the server's peak memory grew by {} MB",
        grown >> 20
    );
}

#[test]
fn a_model_past_its_limit_is_a_413() {
    let s = Server::start(&[]);
    let t = s.token(&s.account("pro"));
    let mut body = br#"{"model":{"version":1,"kind":"pdf","pages":[],"padding":""#.to_vec();
    body.resize(body.len() + (65 << 20), b'a');
    body.extend_from_slice(b"\"}}");
    let r = s.send_raw("POST", &t, "/api/v1/pdfs", "application/json", body);
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(r.text().contains("`model` is"), "{}", r.text());
}

/// Opens a request that announces `length` bytes of Markdown, sends a few, and stops.
fn stalled_upload(s: &Server, token: &str, length: usize) -> TcpStream {
    let addr = s.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /api/v1/pdfs HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: text/markdown\r\nContent-Length: {length}\r\n\r\n# Slow"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    stream
}

/// The status line and headers the server answers on `stream`.
fn answer(stream: &mut TcpStream) -> String {
    let mut buf = vec![0u8; 4096];
    let n = stream.read(&mut buf).expect("an answer");
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

#[test]
fn bodies_in_memory_are_bounded_across_requests_and_a_stalled_body_is_dropped() {
    let s = Server::start(&[
        ("QUIRE_BODY_MEMORY_MB", "1"),
        ("QUIRE_BODY_IDLE_SECS", "3"),
        ("QUIRE_BODY_WAIT_SECS", "1"),
    ]);
    let t = s.token(&s.account("pro"));

    // Larger than the whole budget: refused on its announced length, whatever else runs.
    let head = answer(&mut stalled_upload(&s, &t, 2 << 20));
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert!(head.contains("QUIRE_BODY_MEMORY_MB"), "{head}");

    // A client that announces 900 kB and stalls holds that much of the budget ...
    let started = Instant::now();
    let mut stalled = stalled_upload(&s, &t, 900_000);
    std::thread::sleep(Duration::from_millis(300));
    // ... so a second body of that size waits, then is told to come back.
    let head = answer(&mut stalled_upload(&s, &t, 900_000));
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 5"),
        "{head}"
    );
    // The stalled one is dropped with a 408 once it has paused for the idle limit.
    let head = answer(&mut stalled);
    assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // And the memory it held is free again: 200 kB would not have fitted beside it.
    let markdown = format!("# Big\n\n{}\n", "word ".repeat(40_000));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "text/markdown",
        markdown.into_bytes(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
}

#[test]
fn the_data_directory_and_operator_token_are_the_services_alone() {
    use std::os::unix::fs::PermissionsExt;
    let mut s = Server::start(&[("QUIRE_ADMIN_TOKEN", "")]);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let token = s.data.path().join("admin.token");
    assert_eq!(mode(&token), 0o600);
    let secret = std::fs::read_to_string(&token).unwrap();
    let r = request(
        "GET",
        &format!("{}/plugins", s.admin_base),
        &[("authorization", &format!("Bearer {}", secret.trim()))],
        None,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // A data directory someone opened up is narrowed again at start.
    s.kill();
    std::fs::set_permissions(s.data.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    s.spawn(&[("QUIRE_ADMIN_TOKEN", "")]);
    assert_eq!(mode(s.data.path()), 0o700);
    // The token is kept, not made anew.
    assert_eq!(std::fs::read_to_string(&token).unwrap(), secret);
}

#[test]
fn downloads_and_the_form_page_tell_browsers_not_to_sniff_run_or_frame_them() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><script>alert(1)</script><rect width="80" height="30" fill="red"/></svg>"#;
    let r = s.send_json("POST", &t, "/api/v1/diagrams", &json!({"svg": svg}));
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    for path in [
        format!("/api/v1/documents/{id}.svg"),
        format!("/api/v1/documents/{id}"),
    ] {
        let r = s.get(&t, &path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff"),
            "{path}"
        );
        let policy = r.header("content-security-policy").unwrap_or_default();
        assert!(
            policy.contains("sandbox") && policy.contains("default-src 'none'"),
            "{path}: {policy}"
        );
    }
    let form = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": "# Sign up\n\nName: ____"}),
    );
    assert_eq!(form.status, 201, "{}", form.text());
    let fill = form.json()["form"]["links"]["fill"]
        .as_str()
        .unwrap()
        .to_string();
    let page = request("GET", &fill, &[], None);
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(page.header("x-frame-options").as_deref(), Some("DENY"));
    let policy = page.header("content-security-policy").unwrap_or_default();
    // Its one script is a file of ours: nothing inline runs.
    assert!(
        policy.contains("frame-ancestors 'none'")
            && policy.split(';').any(|d| d.trim() == "script-src 'self'"),
        "{policy}"
    );
}

#[test]
fn a_database_failure_at_the_token_endpoint_is_a_500_not_the_callers_fault() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    assert_eq!(s.token_response(&a.client_id, &a.secret, None).status, 200);
    // Take the credentials table away under the running server.
    let db = s.data.path().join("quire.db");
    crate::common::run_tool(std::process::Command::new("python3").args([
        "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('ALTER TABLE credentials RENAME TO gone'); c.commit()",
        db.to_str().unwrap(),
    ]));
    let r = s.token_response(&a.client_id, &a.secret, None);
    assert_eq!(r.status, 500, "{}", r.text());
    assert_eq!(r.json()["error"], "server_error");
}
