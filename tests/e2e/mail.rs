//! Mail through a real SMTP server (aiosmtpd): invitations and submission notices wait in
//! the outbox while SMTP is down and are delivered once it is up, nothing lost.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{make_ca_and_certificate, run_tool};
use crate::forms::{create_form, good_answers};
use crate::server::*;

struct Smtpd(Child);

impl Drop for Smtpd {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_smtpd(port: u16, maildir: &std::path::Path) -> Smtpd {
    start_smtpd_with(port, maildir, "aiosmtpd.handlers.Mailbox")
}

/// aiosmtpd with `handler` (a class path; tests/smtp is on the Python path).
fn start_smtpd_with(port: u16, maildir: &std::path::Path, handler: &str) -> Smtpd {
    let handlers = crate::common::repo_root().join("tests/smtp");
    let child = Command::new("python3")
        .env("PYTHONPATH", handlers)
        .args([
            "-m",
            "aiosmtpd",
            "-n",
            "-l",
            &format!("127.0.0.1:{port}"),
            "-c",
            handler,
        ])
        .arg(maildir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 -m aiosmtpd (make deps installs aiosmtpd)");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "aiosmtpd did not start (is it installed? `pip install aiosmtpd`)"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Smtpd(child)
}

/// The delivered messages, read with Python's own mailbox and email modules.
fn delivered(maildir: &std::path::Path) -> Vec<Value> {
    let script = "import json,mailbox,sys\nout=[]\nfor m in mailbox.Maildir(sys.argv[1], create=False):\n    out.append({'to': m['To'], 'from': m['From'], 'subject': m['Subject'], 'body': m.get_payload(decode=True).decode('utf-8')})\nprint(json.dumps(out))";
    let out = run_tool(Command::new("python3").args(["-c", script]).arg(maildir));
    serde_json::from_str::<Vec<Value>>(&out).unwrap()
}

#[test]
fn mail_waits_for_smtp_and_is_then_delivered() {
    let port = free_port();
    let smtp_url = format!("smtp://127.0.0.1:{port}");
    let s = Server::start(&[
        ("QUIRE_SMTP_URL", smtp_url.as_str()),
        ("QUIRE_MAIL_FROM", "forms@quire.test"),
        ("QUIRE_MAIL_POLL_MS", "200"),
        ("QUIRE_MAIL_RETRY_MAX_SECS", "1"),
    ]);
    let a = s.account("pro");
    s.cli(&["admin", "account", "confirm-email", &a.id]);
    let owner_email = s.cli_json(&["admin", "outbox", "--all", "--json"]);
    assert_eq!(owner_email["mail"], json!([]));
    let t = s.token(&a);
    let form = create_form(&s, &t, "Picnic signup");
    let id = form["id"].as_str().unwrap();
    s.send_json(
        "PATCH",
        &t,
        &format!("/api/v1/forms/{id}"),
        &json!({"notify": true}),
    );
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{id}/shares"),
        &json!({"email": "guest@example.org"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{id}/responses"),
        &json!({"answers": good_answers(), "as": "ann@example.org"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let response_id = r.json()["response"]["id"].as_str().unwrap().to_string();
    let filled_copy = r.json()["response"]["document"]
        .as_str()
        .unwrap()
        .to_string();

    // SMTP is down: both messages wait, with the failure recorded.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let waiting = s.cli_json(&["admin", "outbox", "--json"]);
        let mail = waiting["mail"].as_array().unwrap().clone();
        assert_eq!(mail.len(), 2, "{waiting}");
        if mail
            .iter()
            .all(|m| m["attempts"].as_i64().unwrap() >= 1 && m["last_error"].is_string())
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no delivery attempt was recorded: {waiting}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // SMTP comes up: delivery resumes and everything arrives.
    let dir = tempfile::tempdir().unwrap();
    let maildir = dir.path().join("Maildir"); // aiosmtpd creates it, with tmp/new/cur
    let _smtpd = start_smtpd(port, &maildir);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let waiting = s.cli_json(&["admin", "outbox", "--json"]);
        if waiting["mail"].as_array().unwrap().is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the outbox did not drain once SMTP was up: {waiting}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let got = delivered(&maildir);
    assert_eq!(got.len(), 2, "{got:?}");
    let invite = got
        .iter()
        .find(|m| m["to"] == "guest@example.org")
        .expect("the invitation");
    assert_eq!(invite["from"], "forms@quire.test");
    assert!(invite["subject"]
        .as_str()
        .unwrap()
        .contains("Picnic signup"));
    assert!(
        invite["body"]
            .as_str()
            .unwrap()
            .contains(&s.url(&format!("/f/{id}"))),
        "{invite}"
    );
    let notice = got
        .iter()
        .find(|m| m["to"] != "guest@example.org")
        .expect("the notice");
    assert!(
        notice["to"].as_str().unwrap().ends_with("@example.com"),
        "to the owner: {notice}"
    );
    assert_eq!(notice["subject"], "New response to Picnic signup");
    let body = notice["body"].as_str().unwrap();
    assert!(
        body.contains("ann@example.org") && body.contains("Ann \"Nan\" Example"),
        "{body}"
    );
    // Its links are pages a browser opens, not the API (which wants a token): the
    // response's, the form's and the filled copy's, each open to the signed-in owner.
    let links: Vec<(&str, &str)> = body
        .lines()
        .filter_map(|line| line.split_once(": "))
        .filter(|(_, url)| url.starts_with("http"))
        .collect();
    let (response_page, form_page, copy_page) = (
        s.url(&format!("/forms/{id}/responses/{response_id}")),
        s.url(&format!("/forms/{id}")),
        s.url(&format!("/d/{filled_copy}")),
    );
    assert_eq!(
        links,
        [
            ("This response", response_page.as_str()),
            ("All responses", form_page.as_str()),
            ("The filled copy", copy_page.as_str()),
        ],
        "{body}"
    );
    assert!(!body.contains("/api/v1"), "{body}");
    let (owner_session, _) = crate::pages::sign_in(&s, &a.id);
    for (name, url) in links {
        let page = crate::pages::browse("GET", url, Some(&owner_session), None);
        assert_eq!(page.status, 200, "{name}: {url}: {}", page.text());
        assert!(
            page.header("content-type")
                .is_some_and(|t| t.starts_with("text/html")),
            "{name}: {url}"
        );
    }
    // Sent mail stays listed with --all, marked sent.
    let all = s.cli_json(&["admin", "outbox", "--all", "--json"]);
    assert!(all["mail"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["sent_at"].is_number()));

    // Plans are data: without sharing, inviting is 402; without forms, every form call is.
    // (This server is private to this test, so its plans can change.)
    s.cli(&["admin", "plan", "set", "pro", "--sharing", "false"]);
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{id}/shares"),
        &json!({"email": "x@example.org"}),
    );
    assert_eq!(r.status, 402, "{}", r.text());
    assert_eq!(s.get(&t, &format!("/api/v1/forms/{id}")).status, 200);
    s.cli(&["admin", "plan", "set", "pro", "--forms", "false"]);
    assert_eq!(s.get(&t, &format!("/api/v1/forms/{id}")).status, 402);
    assert_eq!(s.get(&t, "/api/v1/forms").status, 402);
    s.cli(&[
        "admin",
        "plan",
        "set",
        "pro",
        "--forms",
        "true",
        "--sharing",
        "true",
    ]);
    assert_eq!(s.get(&t, &format!("/api/v1/forms/{id}")).status, 200);
}

#[test]
fn invitations_are_no_mailer_and_an_address_refused_for_good_is_given_up() {
    let port = free_port();
    let smtp_url = format!("smtp://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let maildir = dir.path().join("Maildir");
    let _smtpd = start_smtpd_with(port, &maildir, "bouncing.BouncingMailbox");
    let s = Server::start(&[
        ("QUIRE_SMTP_URL", smtp_url.as_str()),
        ("QUIRE_MAIL_POLL_MS", "200"),
        ("QUIRE_MAIL_RETRY_MAX_SECS", "1"),
    ]);
    let a = s.account("pro");
    s.cli(&["admin", "account", "confirm-email", &a.id]);
    let t = s.token(&a);
    let form = create_form(&s, &t, "Bounces");
    let id = form["id"].as_str().unwrap();
    let invite = |email: &str| {
        let r = s.send_json(
            "POST",
            &t,
            &format!("/api/v1/forms/{id}/shares"),
            &json!({ "email": email }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    };
    // The refused address first: the message after it in the same batch still goes.
    invite("bounce@example.org");
    invite("guest@example.org");
    // Inviting the same person again and again mails them once a day, not each time.
    for _ in 0..5 {
        invite("Guest@Example.org");
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    let all = loop {
        let all = s.cli_json(&["admin", "outbox", "--all", "--json"]);
        let mail = all["mail"].as_array().unwrap().clone();
        let settled = mail
            .iter()
            .all(|m| m["sent_at"].is_number() || m["failed_at"].is_number());
        if settled {
            break mail;
        }
        assert!(
            Instant::now() < deadline,
            "the outbox did not settle: {all}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(all.len(), 2, "one invitation per address: {all:?}");
    let bounced = all
        .iter()
        .find(|m| m["recipient"] == "bounce@example.org")
        .unwrap();
    assert!(bounced["sent_at"].is_null(), "{bounced}");
    assert!(
        bounced["last_error"].as_str().unwrap().contains("550"),
        "{bounced}"
    );
    let got = delivered(&maildir);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["to"], "guest@example.org");
    // Given up means given up: no further attempts, and not listed as waiting.
    std::thread::sleep(Duration::from_secs(3));
    let again = s.cli_json(&["admin", "outbox", "--all", "--json"]);
    let bounced = again["mail"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["recipient"] == "bounce@example.org")
        .unwrap()
        .clone();
    assert_eq!(bounced["attempts"], 1, "{bounced}");
    assert_eq!(
        s.cli_json(&["admin", "outbox", "--json"])["mail"],
        json!([])
    );
}

/// A relay with TLS and a login (tests/smtp/secure_relay.py): `mode` is `starttls` or
/// `implicit`; the user is `mailer`, the password `s3cret`.
fn start_secure_relay(
    port: u16,
    maildir: &std::path::Path,
    cert: &std::path::Path,
    key: &std::path::Path,
    mode: &str,
) -> Smtpd {
    let script = crate::common::repo_root().join("tests/smtp/secure_relay.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(port.to_string())
        .arg(maildir)
        .arg(cert)
        .arg(key)
        .args([mode, "mailer", "s3cret"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 with aiosmtpd");
    let mut ready = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut ready,
    )
    .unwrap();
    assert_eq!(ready.trim(), "ready", "the relay did not start");
    Smtpd(child)
}

/// Invites `email` to a new form, which queues one message.
fn queue_invitation(s: &Server, email: &str) {
    let a = s.account("pro");
    s.cli(&["admin", "account", "confirm-email", &a.id]);
    let t = s.token(&a);
    let form = create_form(s, &t, "Relay check");
    let r = s.send_json(
        "POST",
        &t,
        &format!("/api/v1/forms/{}/shares", form["id"].as_str().unwrap()),
        &json!({ "email": email }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

/// The message to `email` once `settled` says so (or a panic after 30 s).
fn wait_for_mail(s: &Server, email: &str, settled: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let all = s.cli_json(&["admin", "outbox", "--all", "--json"]);
        if let Some(m) = all["mail"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["recipient"] == email)
        {
            if settled(m) {
                return m.clone();
            }
        }
        assert!(
            Instant::now() < deadline,
            "mail to {email} did not settle: {all}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn sent(m: &Value) -> bool {
    m["sent_at"].is_number()
}

fn tried(m: &Value) -> bool {
    m["sent_at"].is_null() && m["last_error"].is_string()
}

#[test]
fn mail_goes_through_relays_that_need_tls_and_a_login() {
    let dir = tempfile::tempdir().unwrap();
    let (ca, cert, key) = make_ca_and_certificate(dir.path(), "relay");
    let (starttls_port, implicit_port) = (free_port(), free_port());
    let (starttls_box, implicit_box) = (dir.path().join("starttls"), dir.path().join("implicit"));
    let _starttls = start_secure_relay(starttls_port, &starttls_box, &cert, &key, "starttls");
    let _implicit = start_secure_relay(implicit_port, &implicit_box, &cert, &key, "implicit");
    let ca = ca.to_str().unwrap();
    let quick = [
        ("QUIRE_MAIL_POLL_MS", "200"),
        ("QUIRE_MAIL_RETRY_MAX_SECS", "1"),
    ];
    let with = |url: &str, ca: Option<&str>| {
        let mut env = quick.to_vec();
        env.push(("QUIRE_SMTP_URL", url));
        if let Some(ca) = ca {
            env.push(("QUIRE_SMTP_CA", ca));
        }
        env.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };
    let spawn = |s: &mut Server, env: Vec<(String, String)>| {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        s.spawn(&env);
    };

    // A wrong password: the message stays, with the relay's answer recorded.
    let wrong = format!("smtp://mailer:guess@127.0.0.1:{starttls_port}?tls=required");
    let mut s = Server::start(&[]);
    s.kill();
    spawn(&mut s, with(&wrong, Some(ca)));
    queue_invitation(&s, "one@example.org");
    let failed = wait_for_mail(&s, "one@example.org", tried);
    let error = failed["last_error"].as_str().unwrap();
    assert!(error.contains("535"), "the relay's answer: {failed}");
    assert!(failed["failed_at"].is_null(), "kept for a retry: {failed}");

    // The right password over STARTTLS, trusting the relay's CA: it is delivered.
    s.terminate();
    let right = format!("smtp://mailer:s3cret@127.0.0.1:{starttls_port}");
    spawn(&mut s, with(&right, Some(ca)));
    wait_for_mail(&s, "one@example.org", sent);

    // Implicit TLS without the private CA: the certificate is checked and refused.
    s.terminate();
    let smtps = format!("smtps://mailer:s3cret@127.0.0.1:{implicit_port}");
    spawn(&mut s, with(&smtps, None));
    queue_invitation(&s, "two@example.org");
    let failed = wait_for_mail(&s, "two@example.org", tried);
    assert!(
        failed["last_error"]
            .as_str()
            .unwrap()
            .contains("certificate"),
        "{failed}"
    );
    // With it, the message goes.
    s.terminate();
    spawn(&mut s, with(&smtps, Some(ca)));
    wait_for_mail(&s, "two@example.org", sent);

    let first = delivered(&starttls_box);
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0]["to"], "one@example.org");
    let second = delivered(&implicit_box);
    assert_eq!(second.len(), 1, "{second:?}");
    assert_eq!(second[0]["to"], "two@example.org");
}
