//! An owner's storage, disk and form link against a patient attacker: refused writes leave
//! nothing behind, answers through a link cost what they store and are rate limited, a
//! lapsed plan's form takes no answers, and titles are bounded.

use std::collections::BTreeSet;

use base64::Engine as _;
use serde_json::{json, Value};

use crate::common::corpus;
use crate::server::*;

/// Every blob file in the server's blob directory.
fn stored_blobs(s: &Server) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let root = s.data.path().join("blobs");
    for prefix in std::fs::read_dir(&root).unwrap() {
        let prefix = prefix.unwrap();
        let name = prefix.file_name().to_string_lossy().into_owned();
        if name.len() != 2 {
            continue;
        }
        for blob in std::fs::read_dir(prefix.path()).unwrap() {
            out.insert(format!(
                "{name}{}",
                blob.unwrap().file_name().to_string_lossy()
            ));
        }
    }
    out
}

/// Every digest a row of the server's database names.
fn named_blobs(s: &Server) -> BTreeSet<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let db = quire::store::Db::open(None, s.data.path()).await.unwrap();
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT model_blob FROM document_versions
             UNION SELECT source_blob FROM document_versions WHERE source_blob IS NOT NULL
             UNION SELECT blob FROM document_assets
             UNION SELECT digest FROM plugin_versions",
        )
        .fetch_all(&db.pool)
        .await
        .unwrap();
        rows.into_iter().map(|(d,)| d).collect()
    })
}

fn assert_nothing_unnamed(s: &Server, after: &str) {
    let named = named_blobs(s);
    let unnamed: Vec<_> = stored_blobs(s).difference(&named).cloned().collect();
    assert!(
        unnamed.is_empty(),
        "after {after}: {} blobs nothing names: {unnamed:?}",
        unnamed.len()
    );
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn storage_used(s: &Server, t: &str) -> i64 {
    s.get(t, "/api/v1/usage").json()["storage"]["used"]
        .as_i64()
        .unwrap()
}

#[test]
fn refused_writes_leave_nothing_in_the_blob_store() {
    let s = Server::start(&[]);
    s.cli(&["admin", "plan", "set", "pro", "--storage", "40000"]);
    let a = s.account("pro");
    let t = s.token(&a);

    // 507: fill the storage, then keep knocking with bodies that do not fit.
    let mut full = false;
    for i in 0..60 {
        let r = s.send_json(
            "POST",
            &t,
            "/api/v1/pdfs",
            &json!({"markdown": format!("# Note {i}\n\n{}", "words ".repeat(150))}),
        );
        if r.status == 507 {
            full = true;
            break;
        }
        assert_eq!(r.status, 201, "{}", r.text());
    }
    assert!(full, "the storage never filled");
    let before = stored_blobs(&s);
    for i in 0..10 {
        let r = s.send_json(
            "POST",
            &t,
            "/api/v1/pdfs",
            &json!({"markdown": format!("# Refused {i}\n\n{}", "more words ".repeat(2000))}),
        );
        assert_eq!(r.status, 507, "{}", r.text());
    }
    assert_eq!(stored_blobs(&s), before, "ten 507s wrote to the blob store");
    assert_nothing_unnamed(&s, "507s");

    // 409: replaces racing from the same version; the losers store nothing.
    s.cli(&["admin", "plan", "set", "pro", "--storage", "none"]);
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# Raced"}));
    assert_eq!(r.status, 201, "{}", r.text());
    let doc = r.json()["document"].clone();
    let id = doc["id"].as_str().unwrap().to_string();
    let version = doc["version"].as_i64().unwrap();
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..6)
            .map(|i| {
                let (s, t, id) = (&s, &t, &id);
                scope.spawn(move || {
                    let body =
                        json!({"markdown": format!("# Racer {i}\n\n{}", "text ".repeat(500))});
                    request(
                        "PUT",
                        &s.url(&format!("/api/v1/pdfs/{id}")),
                        &[
                            ("authorization", &format!("Bearer {t}")),
                            ("if-match", &format!("\"{version}\"")),
                        ],
                        Some(("application/json", body.to_string().into_bytes())),
                    )
                    .status
                })
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(
        statuses.iter().filter(|&&c| c == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|&c| c == 200 || c == 409),
        "{statuses:?}"
    );
    assert_nothing_unnamed(&s, "409s on replace");

    // 409 on the public page: a form that takes one answer per person, answered by the
    // same person at once.
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": "# Once\n\nName:", "fields": [
            {"key": "name", "type": "text", "label": "Name", "page": 1, "x": 72, "y": 120, "w": 200, "h": 20}
        ]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"]["id"].as_str().unwrap().to_string();
    let r = s.send_json(
        "PATCH",
        &t,
        &format!("/api/v1/forms/{form}"),
        &json!({"multiple": false}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let answers: Vec<_> = (0..6)
            .map(|i| {
                let (s, form) = (&s, &form);
                scope.spawn(move || {
                    request(
                        "POST",
                        &s.url(&format!("/f/{form}")),
                        &[],
                        Some((
                            "application/x-www-form-urlencoded",
                            format!("_as=same%40example.org&a.name=Try+{i}").into_bytes(),
                        )),
                    )
                    .status
                })
            })
            .collect();
        answers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(
        statuses.iter().filter(|&&c| c == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|&c| c == 200 || c == 409),
        "{statuses:?}"
    );
    assert_nothing_unnamed(&s, "refused answers");
}

/// A form on a 2.5 MB scan, answered through its link.
fn scan_form(s: &Server, t: &str) -> String {
    let scan = std::fs::read(corpus("images/form-cms1500-claim.png")).unwrap();
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/forms",
        &json!({"image": b64(&scan), "fields": [
            {"key": "name", "type": "text", "label": "Name", "page": 1, "x": 40, "y": 40, "w": 200, "h": 20}
        ]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["form"]["id"].as_str().unwrap().to_string()
}

fn answer_by_link(s: &Server, form: &str, name: &str) -> Resp {
    request(
        "POST",
        &s.url(&format!("/f/{form}")),
        &[],
        Some((
            "application/x-www-form-urlencoded",
            format!("a.name={name}").into_bytes(),
        )),
    )
}

#[test]
fn a_link_holder_cannot_exhaust_the_owner() {
    let s = Server::start(&[("QUIRE_LINK_ANSWERS_PER_CLIENT", "4")]);
    let a = s.account("pro");
    let t = s.token(&a);
    let form = scan_form(&s, &t);

    // Each answer costs its filled copy's model, not the scan again.
    let before = storage_used(&s, &t);
    for i in 0..4 {
        let r = answer_by_link(&s, &form, &format!("Answer{i}"));
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let per_answer = (storage_used(&s, &t) - before) / 4;
    assert!(
        per_answer > 0 && per_answer < 100_000,
        "an answer cost {per_answer} bytes of a 2.5 MB scan form"
    );

    // The fifth answer from the same address within the minute waits.
    let r = answer_by_link(&s, &form, "Flood");
    assert_eq!(r.status, 429, "{}", r.text());
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "Retry-After: {wait}");
    assert!(r.text().contains("Too many answers"), "{}", r.text());
    let listed = s.get(&t, &format!("/api/v1/forms/{form}/responses")).json();
    assert_eq!(listed["total"], 4, "{listed}");
    // Reading the page is not limited.
    assert_eq!(
        request("GET", &s.url(&format!("/f/{form}")), &[], None).status,
        200
    );
}

#[test]
fn a_form_whose_owner_lost_forms_takes_no_answers() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    let t = s.token(&a);
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": "# Lapses\n\nName:", "fields": [
            {"key": "name", "type": "text", "label": "Name", "page": 1, "x": 72, "y": 120, "w": 200, "h": 20}
        ]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form = r.json()["form"]["id"].as_str().unwrap().to_string();
    assert_eq!(answer_by_link(&s, &form, "Before").status, 200);
    let blobs_before = stored_blobs(&s);

    s.cli(&["admin", "account", "set-plan", &a.id, "free"]);
    let r = answer_by_link(&s, &form, "After");
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("not taking answers"), "{}", r.text());
    assert_eq!(
        stored_blobs(&s),
        blobs_before,
        "a refused answer stored its copy"
    );
    s.cli(&["admin", "account", "set-plan", &a.id, "pro"]);
    let t = s.token(&a);
    let listed = s.get(&t, &format!("/api/v1/forms/{form}/responses")).json();
    assert_eq!(listed["total"], 1, "{listed}");
}

#[test]
fn titles_are_bounded_and_the_page_does_not_repeat_them() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let long = "T".repeat(501);
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"markdown": "# x", "title": long}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("at most 500"), "{}", r.text());
    let r = request(
        "POST",
        &s.url(&format!("/api/v1/pdfs?title={long}")),
        &[("authorization", &format!("Bearer {t}"))],
        Some(("text/markdown", b"# x".to_vec())),
    );
    assert_eq!(r.status, 400, "{}", r.text());

    // A title taken from the file is cut, not refused.
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# Body"}));
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let mut model = s.get(&t, &format!("/api/v1/documents/{id}.json")).json();
    model["title"] = json!("Heading ".repeat(1000));
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({ "model": model }));
    assert_eq!(r.status, 201, "{}", r.text());
    let title = r.json()["document"]["title"].as_str().unwrap().to_string();
    assert_eq!(title.chars().count(), 500, "{title}");
    assert!(title.ends_with('…'));

    // A form of many pages with the longest title: the title appears in the page's title
    // and heading, not once per page picture.
    let pages: Vec<String> = (0..40).map(|i| format!("# Page {i}\n\nText.")).collect();
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/forms",
        &json!({"markdown": pages.join("\n\n<div style=\"page-break-after: always\"></div>\n\n"),
                "title": "W".repeat(500),
                "fields": [{"key": "a", "type": "text", "page": 1, "x": 72, "y": 200, "w": 100, "h": 20}]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let form: Value = r.json()["form"].clone();
    let html = request(
        "GET",
        &s.url(&format!("/f/{}", form["id"].as_str().unwrap())),
        &[],
        None,
    )
    .text();
    assert_eq!(
        html.matches(&"W".repeat(500)).count(),
        2,
        "title repeated in the page"
    );
}

#[test]
fn a_link_holder_cannot_flood_the_page_and_its_pictures() {
    let s = Server::start(&[
        ("QUIRE_LINK_VIEWS_PER_CLIENT", "3"),
        ("QUIRE_TRUST_PROXY", "127.0.0.1"),
    ]);
    let a = s.account("pro");
    let t = s.token(&a);
    let form = scan_form(&s, &t);
    let view = |path: &str, client: &str| {
        request("GET", &s.url(path), &[("x-forwarded-for", client)], None)
    };
    let page = format!("/f/{form}");
    let picture = format!("/f/{form}/pages/1.png");
    assert_eq!(view(&page, "203.0.113.5").status, 200);
    let r = view(&picture, "203.0.113.5");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(view(&page, "203.0.113.5").status, 200);
    // The fourth request within the minute waits: a page that says so, a bare picture.
    let r = view(&page, "203.0.113.5");
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    assert!(r.text().contains("Too many requests"), "{}", r.text());
    let r = view(&picture, "203.0.113.5");
    assert_eq!(r.status, 429);
    assert!(r.header("retry-after").is_some());
    // Other people can still open the form.
    assert_eq!(view(&page, "198.51.100.20").status, 200);
}
