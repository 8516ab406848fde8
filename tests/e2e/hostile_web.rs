//! Hostile use of the browser side and the forms (the third review): links that could be
//! pointed elsewhere, anonymous posts that cost CPU, drafts past the API's limits,
//! invitations resent by withdrawing, pages that skipped the allowance, views that read
//! every picture, and sign-in posts from other sites.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::pages::{browse, sign_in};
use crate::server::*;

/// The rows a query on a private server's SQLite database returns, one JSON array each.
fn sqlite_rows(s: &Server, sql: &str) -> Vec<Value> {
    let db = s.data.path().join("quire.db");
    let out = crate::common::run_tool(Command::new("python3").args([
        "-c",
        "import sqlite3,sys,json\nfor r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(json.dumps(list(r)))",
        db.to_str().unwrap(),
        sql,
    ]));
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn account_with_email(s: &Server, email: &str, plan: &str) -> String {
    s.cli_json(&[
        "admin", "account", "create", "--email", email, "--plan", plan, "--json",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn mailed_links_name_the_configured_address_whatever_the_request_says() {
    // Behind a trusted proxy, a forged X-Forwarded-Host (or Host) once chose where the
    // victim's sign-in link pointed.
    let s = Server::start(&[("QUIRE_TRUST_PROXY", "127.0.0.1")]);
    account_with_email(&s, "victim@example.org", "pro");
    let r = request(
        "POST",
        &s.url("/signin"),
        &[
            ("x-forwarded-host", "evil.example"),
            ("x-forwarded-proto", "https"),
            ("host", "evil.example"),
        ],
        Some((
            "application/x-www-form-urlencoded",
            b"email=victim%40example.org".to_vec(),
        )),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let bodies = sqlite_rows(
        &s,
        "SELECT body FROM outbox WHERE recipient = 'victim@example.org'",
    );
    assert_eq!(bodies.len(), 1, "{bodies:?}");
    let body = bodies[0][0].as_str().unwrap();
    assert!(body.contains(&format!("{}/signin/", s.base)), "{body}");
    assert!(!body.contains("evil"), "{body}");

    // Mail or a proxy without a configured address: the server does not start, and says
    // what to set.
    for (name, value) in [
        ("QUIRE_TRUST_PROXY", "127.0.0.1"),
        ("QUIRE_SMTP_URL", "smtp://127.0.0.1:1"),
    ] {
        let out = s
            .configure(Command::new(env!("CARGO_BIN_EXE_quire")))
            .arg("serve")
            .env(name, value)
            .env("QUIRE_BASE_URL", "")
            .env("QUIRE_EXIT_ON_STDIN_EOF", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: {said}");
        assert!(said.contains("set QUIRE_BASE_URL"), "{name}: {said}");
    }
}

/// A form of `n` text questions `q0`..`q{n-1}`, placed 500 at a time.
fn big_form(s: &Server, t: &str, n: usize) -> String {
    let field = |i: usize| {
        json!({"key": format!("q{i}"), "type": "text", "page": 1,
               "x": 10 + (i % 100) * 5, "y": 10 + (i / 100) * 5, "w": 4, "h": 4})
    };
    let first: Vec<Value> = (0..500.min(n)).map(field).collect();
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/forms",
        &json!({"markdown": "# Many questions", "fields": first}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["form"]["id"].as_str().unwrap().to_string();
    for start in (500..n).step_by(500) {
        let more: Vec<Value> = (start..(start + 500).min(n)).map(field).collect();
        let r = s.send_json(
            "PUT",
            t,
            &format!("/api/v1/forms/{id}/fields"),
            &json!({"fields": more, "keep": true}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    id
}

#[test]
fn a_huge_anonymous_post_to_a_big_form_does_not_hold_up_the_server() {
    let s = Server::start(&[
        ("QUIRE_LINK_ANSWERS_PER_CLIENT", "0"),
        ("QUIRE_LINK_ANSWERS_PER_FORM", "0"),
    ]);
    let a = s.account("enterprise");
    let t = s.token(&a);
    let form = big_form(&s, &t, 5_000);
    // Nearly 2 MB of answers to questions that each exist: 170,000 pairs.
    let mut body = String::new();
    let mut i = 0;
    while body.len() < 2_000_000 - 20 {
        body.push_str(&format!("a.q{}=x&", i % 5_000));
        i += 1;
    }
    let url = s.url(&format!("/f/{form}"));
    let posts: Vec<_> = (0..3)
        .map(|_| {
            let (url, body) = (url.clone(), body.clone().into_bytes());
            std::thread::spawn(move || {
                request(
                    "POST",
                    &url,
                    &[],
                    Some(("application/x-www-form-urlencoded", body)),
                )
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    assert_eq!(request("GET", &s.url("/healthz"), &[], None).status, 200);
    let health = started.elapsed();
    for post in posts {
        let r = post.join().unwrap();
        assert_eq!(r.status, 400, "more pairs than the form has questions");
        assert!(r.text().contains("at most 5008 values"), "{}", r.text());
    }
    // A liveness bound, not a speed goal: before the pairs were indexed and capped, three
    // such posts kept /healthz waiting for over half a minute.
    assert!(health < Duration::from_secs(3), "/healthz took {health:?}");

    // An honest post to the same form is still checked and taken.
    let r = request(
        "POST",
        &url,
        &[],
        Some((
            "application/x-www-form-urlencoded",
            b"a.q0=first&a.q4999=last".to_vec(),
        )),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn an_editor_draft_over_the_model_limit_is_refused_before_it_is_read() {
    let s = Server::start(&[]);
    let a = s.account("enterprise");
    let t = s.token(&a);
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# Draft"}));
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let (cookie, _) = sign_in(&s, &a.id);
    let page = browse("GET", &s.url(&format!("/d/{id}")), Some(&cookie), None).text();
    let csrf = page
        .split("data-csrf=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the editor carries its page token");
    // 65 MiB declared (the enterprise plan takes 512 MB files; a model is at most 64 MiB):
    // refused at once, without waiting for the body.
    for path in [format!("/d/{id}/preview?page=1"), format!("/d/{id}/model")] {
        let method = if path.ends_with("model") {
            "PUT"
        } else {
            "POST"
        };
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: quire_session={cookie}\r\nX-CSRF-Token: {csrf}\r\nIf-Match: \"1\"\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{{",
            65u64 << 20
        )
        .unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(
            answer.contains("a model may be at most"),
            "{path}: {answer}"
        );
    }
}

#[test]
fn withdrawing_an_invitation_does_not_make_room_for_another_mail() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    s.cli(&["admin", "account", "confirm-email", &a.id]);
    let t = s.token(&a);
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": "# Invite", "fields": [
            {"key": "name", "type": "text", "page": 1, "x": 72, "y": 200, "w": 200, "h": 20}
        ]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["form"]["id"].as_str().unwrap().to_string();
    let path = format!("/api/v1/forms/{id}/shares");
    for _ in 0..5 {
        let r = s.send_json("POST", &t, &path, &json!({"email": "Target@example.org"}));
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.json()["shares"].as_array().unwrap().len(), 1);
        let r = s.send_json(
            "DELETE",
            &t,
            &format!("{path}?email=target@example.org"),
            &json!({}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let mails = sqlite_rows(
        &s,
        "SELECT COUNT(*) FROM outbox WHERE lower(recipient) = 'target@example.org'",
    );
    assert_eq!(mails[0][0], 1, "one mail a day to one address");

    // The daily count is of mail sent: 200 sends, each withdrawn, leave no room for more.
    s.cli(&["admin", "plan", "set", "pro", "--daily-calls", "none"]);
    for n in 1..200 {
        let email = format!("person{n}@example.org");
        let r = s.send_json("POST", &t, &path, &json!({ "email": email }));
        assert_eq!(r.status, 200, "{n}: {}", r.text());
        let r = s.send_json("DELETE", &t, &format!("{path}?email={email}"), &json!({}));
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let r = s.send_json("POST", &t, &path, &json!({"email": "one-more@example.org"}));
    assert_eq!(r.status, 429, "{}", r.text());
}

#[test]
fn pages_spend_the_daily_allowance_and_plans_without_the_api_keep_their_pages() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    let t = s.token(&a);
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"markdown": "# Counted"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    // Three calls a day, one spent on the create.
    s.cli(&["admin", "plan", "set", "pro", "--daily-calls", "3"]);
    let (cookie, _) = sign_in(&s, &a.id);
    let download = || {
        browse(
            "GET",
            &s.url(&format!("/d/{id}/download/pdf")),
            Some(&cookie),
            None,
        )
        .status
    };
    let statuses: Vec<u16> = (0..4).map(|_| download()).collect();
    assert_eq!(
        statuses,
        [200, 200, 429, 429],
        "downloads spend the allowance"
    );
    assert_eq!(s.get(&t, &format!("/api/v1/documents/{id}")).status, 429);

    // A plan without the API has no allowance to spend: its pages still convert.
    s.cli(&["admin", "account", "set-plan", &a.id, "free"]);
    assert_eq!(download(), 200);
}

#[test]
fn a_form_page_view_reads_the_model_not_the_pictures() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    let t = s.token(&a);
    let picture =
        std::fs::read(crate::common::corpus("images/pngsuite-ftbrn2c08-bkgd.png")).unwrap();
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({
            "markdown": "# With a picture\n\n![logo](logo.png)\n",
            "images": {"logo.png": base64_of(&picture)},
            "fields": [{"key": "name", "type": "text", "page": 1, "x": 72, "y": 400, "w": 200, "h": 20}],
        }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["form"]["id"].as_str().unwrap().to_string();
    // Damage the stored picture: a view that verified every picture would now fail.
    let blobs = sqlite_rows(
        &s,
        &format!("SELECT blob FROM document_assets WHERE doc_id = '{id}'"),
    );
    assert!(!blobs.is_empty(), "the form keeps its picture");
    let mut damaged = 0;
    for b in &blobs {
        // The blob store keeps a digest at `blobs/<first two>/<rest>`.
        let digest = b[0].as_str().unwrap();
        let (dir, file) = digest.split_at(2);
        let path = s.data.path().join("blobs").join(dir).join(file);
        if path.exists() {
            std::fs::write(&path, b"not the picture").unwrap();
            damaged += 1;
        }
    }
    assert!(damaged > 0, "found the picture's blob file");
    let r = request("GET", &s.url(&format!("/f/{id}")), &[], None);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("a.name"), "{}", r.text());
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn sign_in_posts_from_other_sites_and_bent_next_paths_are_refused() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    let link = crate::pages::login_link(&s, &a.id);
    let post = |headers: &[(&str, &str)], next: &str| {
        let body = form_urlencoded::Serializer::new(String::new())
            .append_pair("next", next)
            .finish();
        request(
            "POST",
            &link,
            headers,
            Some(("application/x-www-form-urlencoded", body.into_bytes())),
        )
    };
    for headers in [
        &[("origin", "https://evil.example")][..],
        &[("sec-fetch-site", "cross-site")][..],
        &[("sec-fetch-site", "same-site"), ("origin", s.base.as_str())][..],
    ] {
        let r = post(headers, "/documents");
        assert_eq!(r.status, 403, "{headers:?}: {}", r.text());
        assert!(r.header("set-cookie").is_none());
    }
    // The refused posts left the link working; from our own page it signs in, and a
    // `next` with a tab (which browsers drop, making `//evil.example`) is not followed.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let r = agent
        .post(&link)
        .header("origin", &s.base)
        .header("sec-fetch-site", "same-origin")
        .content_type("application/x-www-form-urlencoded")
        .send("next=%2F%09%2Fevil.example%2Fx")
        .unwrap();
    assert_eq!(r.status(), 303);
    assert_eq!(
        r.headers().get("location").and_then(|v| v.to_str().ok()),
        Some("/documents")
    );
    assert!(r.headers().get("set-cookie").is_some());
}
