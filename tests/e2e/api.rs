//! The HTTP contract, black-box: a real server, real HTTP, every status code of the
//! contract. Each behaviour is a named test, run against SQLite and against a real
//! Postgres.

use serde_json::{json, Value};

use crate::common::*;
use crate::server::*;

const MD: &str = "# Quarterly report\n\nRevenue **grew** in every region.\n\n- north\n- south\n";

fn create_md(s: &Server, token: &str, title: &str) -> Value {
    let r = s.send_json(
        "POST",
        token,
        "/api/v1/pdfs",
        &json!({"markdown": MD, "title": title}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["document"].clone()
}

/// A behaviour of the contract, checked on SQLite and on Postgres (one shared server of
/// each; every check makes its own account).
macro_rules! on_both_databases {
    ($($name:ident => $check:expr;)*) => {
        $(
            mod $name {
                use super::*;

                #[test]
                fn on_sqlite() {
                    ($check)(shared());
                }

                #[test]
                fn on_postgres() {
                    if let Some(s) = shared_postgres() {
                        ($check)(s);
                    }
                }
            }
        )*
    };
}

fn with_token(check: fn(&Server, &str)) -> impl Fn(&Server) {
    move |s: &Server| {
        let a = s.account("pro");
        check(s, &s.token(&a));
    }
}

on_both_databases! {
    documents_round_trip => with_token(documents_round_trip);
    bad_requests_are_refused_with_their_reason => with_token(bad_requests);
    tokens_scopes_and_plans => |s: &Server| auth_errors(s, &s.account("pro"));
    accounts_see_only_their_own_and_routes_answer_json => with_token(isolation_and_routes);
    the_surface_and_usage => with_token(surface_and_usage);
    the_account_list_matches_email_text_as_written => account_list_by_email;
}

fn documents_round_trip(s: &Server, t: &str) {
    // Create from JSON: 201, version 2, every link.
    let doc = create_md(s, t, "Report");
    let id = doc["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(doc["version"], 2);
    assert_eq!(doc["kind"], "pdf");
    assert_eq!(doc["title"], "Report");
    assert_eq!(doc["your_role"], "owner");
    assert!(doc["pages"].as_i64().unwrap() >= 1 && doc["shapes"].as_i64().unwrap() >= 3);
    assert!(doc["created"].as_f64().is_some() && doc["updated"].as_f64().is_some());
    let links = &doc["links"];
    assert_eq!(links["self"], s.url(&format!("/api/v1/documents/{id}")));
    for (k, ext) in [
        ("pdf", "pdf"),
        ("svg", "svg"),
        ("png", "png"),
        ("model", "json"),
        ("mermaid", "mmd"),
    ] {
        assert_eq!(
            links[k],
            s.url(&format!("/api/v1/documents/{id}.{ext}")),
            "{k}"
        );
    }
    assert_eq!(links["open"], s.url(&format!("/d/{id}")));

    // Default title, raw-bytes create with ?title=.
    let r = s.send_json("POST", t, "/api/v1/pdfs", &json!({"markdown": "x"}));
    assert_eq!(r.json()["document"]["title"], "Untitled PDF");
    // Without a title, a document is named by its first heading of the highest level.
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/pdfs",
        &json!({"markdown": "Intro\n\n## Aside\n\n# Hello *world*\n\ntext"}),
    );
    assert_eq!(r.json()["document"]["title"], "Hello world");
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/pdfs",
        &json!({"html": "<div><h2>Minutes</h2><p>of the meeting</p></div>"}),
    );
    assert_eq!(r.json()["document"]["title"], "Minutes");
    let r = s.send_raw(
        "POST",
        t,
        "/api/v1/pdfs?title=Raw%20notes",
        "text/markdown",
        b"# Raw\n\nbytes".to_vec(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["document"]["title"], "Raw notes");

    // The PDF download is real text.
    let pdf = s.get(t, &format!("/api/v1/documents/{id}.pdf"));
    assert_eq!(pdf.status, 200);
    assert_eq!(
        pdf.header("content-type").as_deref(),
        Some("application/pdf")
    );
    let path = s.data.path().join(format!("{id}.pdf"));
    std::fs::write(&path, &pdf.body).unwrap();
    run_tool(std::process::Command::new("qpdf").arg("--check").arg(&path));
    let text = run_tool(std::process::Command::new("pdftotext").arg(&path).arg("-"));
    assert!(
        text.contains("Quarterly report") && text.contains("Revenue grew in every region"),
        "{text}"
    );

    // A character no installed font has still gives a PDF, and says so (text::).
    assert!(s
        .get(t, &format!("/api/v1/documents/{id}.pdf"))
        .header("x-service-warning")
        .is_none());

    // include=model, and the model imports back to the same document.
    let full = s
        .get(t, &format!("/api/v1/documents/{id}?include=model"))
        .json();
    let model = full["document"]["data"].clone();
    assert_eq!(model["model"], "quire/1");
    assert!(
        s.get(t, &format!("/api/v1/documents/{id}")).json()["document"]
            .get("data")
            .is_none()
    );
    let json_dl = s.get(t, &format!("/api/v1/documents/{id}.json"));
    assert_eq!(
        json_dl.header("content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(json_dl.json(), model);
    let again = s.send_json("POST", t, "/api/v1/pdfs", &json!({"model": model}));
    assert_eq!(again.status, 201, "{}", again.text());
    let again_id = again.json()["document"]["id"].as_str().unwrap().to_string();
    let model2 = s
        .get(t, &format!("/api/v1/documents/{again_id}.json"))
        .json();
    assert_eq!(
        model2["pages"], model["pages"],
        "model round trip changed the pages"
    );

    // Replace keeps id and links, raises version, honours If-Match.
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/pdfs/{id}"),
        &json!({"markdown": "# Second draft"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let replaced = r.json()["document"].clone();
    assert_eq!(replaced["id"], id.as_str());
    assert_eq!(replaced["version"], 3);
    assert_eq!(replaced["links"], doc["links"]);
    assert_eq!(r.header("etag").as_deref(), Some("\"3\""));
    let stale = request(
        "PUT",
        &s.url(&format!("/api/v1/pdfs/{id}")),
        &[
            ("authorization", &format!("Bearer {t}")),
            ("if-match", "\"2\""),
        ],
        Some((
            "application/json",
            br##"{"markdown": "# Lost update"}"##.to_vec(),
        )),
    );
    assert_eq!(stale.status, 409, "{}", stale.text());
    assert_eq!(stale.json()["version"], 3);
    assert_eq!(stale.json()["ok"], false);
    let fresh = request(
        "PUT",
        &s.url(&format!("/api/v1/pdfs/{id}")),
        &[
            ("authorization", &format!("Bearer {t}")),
            ("if-match", "\"3\""),
        ],
        Some((
            "application/json",
            br##"{"markdown": "# Third draft"}"##.to_vec(),
        )),
    );
    assert_eq!(fresh.status, 200, "{}", fresh.text());
    assert_eq!(fresh.json()["document"]["version"], 4);
    let text = {
        let pdf = s.get(t, &format!("/api/v1/documents/{id}.pdf"));
        std::fs::write(&path, &pdf.body).unwrap();
        run_tool(std::process::Command::new("pdftotext").arg(&path).arg("-"))
    };
    assert!(
        text.contains("Third draft"),
        "rendering must reflect the current version: {text}"
    );
    // A pdf document is not a diagram.
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/diagrams/{id}"),
        &json!({"mermaid": "flowchart TD\n a-->b"}),
    );
    assert_eq!(r.status, 404, "{}", r.text());

    // List: kind filter, window, total before the window.
    let all = s.get(t, "/api/v1/documents").json();
    let total = all["total"].as_i64().unwrap();
    assert!(total >= 4, "{all}");
    let window = s.get(t, "/api/v1/documents?limit=1&offset=1").json();
    assert_eq!(window["total"].as_i64().unwrap(), total);
    assert_eq!(window["documents"].as_array().unwrap().len(), 1);
    assert_eq!(
        s.get(t, "/api/v1/documents?kind=diagram").json()["total"],
        0
    );
    assert_eq!(s.get(t, "/api/v1/documents?limit=201").status, 400);
    assert_eq!(s.get(t, "/api/v1/documents?kind=spreadsheet").status, 400);

    // Page and dpi bounds on downloads: a page past the document's end and one that is
    // no page number at all are both 400 naming `page` (422 is for damaged files).
    let past = s.get(t, &format!("/api/v1/documents/{id}.pdf?page=99"));
    assert_eq!(past.status, 400, "{}", past.text());
    assert_eq!(past.json()["field"], "page");
    assert_eq!(
        s.get(t, &format!("/api/v1/documents/{id}.pdf?page=0"))
            .status,
        400
    );
    assert_eq!(
        s.get(t, &format!("/api/v1/documents/{id}.png?dpi=201"))
            .status,
        400
    );
    let r = s.get(t, &format!("/api/v1/documents/{id}.docx"));
    assert_eq!(r.status, 415, "{}", r.text());
    assert!(r.json()["detail"].as_str().unwrap().contains(".pdf"));

    // Delete bins; the document is gone from the API until an operator restores it.
    let r = request(
        "DELETE",
        &s.url(&format!("/api/v1/documents/{id}")),
        &[("authorization", &format!("Bearer {t}"))],
        None,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), json!({"ok": true, "binned": id}));
    assert_eq!(s.get(t, &format!("/api/v1/documents/{id}")).status, 404);
    assert_eq!(
        s.get(t, "/api/v1/documents").json()["total"]
            .as_i64()
            .unwrap(),
        total - 1
    );
    s.cli(&["admin", "restore", &id]);
    assert_eq!(
        s.get(t, &format!("/api/v1/documents/{id}")).json()["document"]["version"],
        4
    );
}

fn bad_requests(s: &Server, t: &str) {
    let r = s.send_json("POST", t, "/api/v1/pdfs", &json!({"title": "nothing"}));
    assert_eq!(r.status, 400);
    let detail = r.json()["detail"].as_str().unwrap().to_string();
    for field in ["markdown", "html", "image", "pdf", "model"] {
        assert!(
            detail.contains(field),
            "400 must list what the endpoint takes: {detail}"
        );
    }
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/pdfs",
        &json!({"markdown": "a", "html": "<p>b</p>"}),
    );
    assert_eq!(r.status, 400);
    let r = s.send_json("POST", t, "/api/v1/pdfs", &json!({"markdown": 42}));
    assert_eq!(r.status, 400);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("`markdown` must be a string"));
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/pdfs",
        &json!({"pdf": "%%% not base64 %%%"}),
    );
    assert_eq!(r.status, 400);
    let r = s.send_raw(
        "POST",
        t,
        "/api/v1/pdfs",
        "application/json",
        b"{not json".to_vec(),
    );
    assert_eq!(r.status, 400);
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/pdfs?password=hunter2",
        &json!({"markdown": "a"}),
    );
    assert_eq!(r.status, 400);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("query string is refused"));
    let r = s.send_json(
        "POST",
        t,
        "/api/v1/diagrams",
        &json!({"markdown": "# not a diagram source"}),
    );
    assert_eq!(r.status, 400);

    // 415: a type nobody reads, with the readable kinds listed.
    let r = s.send_raw(
        "POST",
        t,
        "/api/v1/pdfs",
        "application/msword",
        b"DOC".to_vec(),
    );
    assert_eq!(r.status, 415, "{}", r.text());
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("text/markdown"));

    // 422: readable type, damaged content; and a model that is not a model.
    let r = s.send_raw(
        "POST",
        t,
        "/api/v1/pdfs",
        "text/markdown",
        vec![0xff, 0xfe, 0x00, 0xd8, 0xc3],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    let r = s.send_json("POST", t, "/api/v1/pdfs", &json!({"model": {"model": "quire/1", "kind": "pdf", "pages": [{"width": -5, "height": 10}]}}));
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.json()["detail"]
            .as_str()
            .unwrap()
            .contains("pages[0].width"),
        "{}",
        r.text()
    );
}

fn auth_errors(s: &Server, a: &Account) {
    let docs = s.url("/api/v1/documents");
    // 401: none, garbage; the body says how to get a token.
    let r = request("GET", &docs, &[], None);
    assert_eq!(r.status, 401);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("/auth/oauth/token"));
    let r = request(
        "GET",
        &docs,
        &[("authorization", "Bearer qt_not_a_token")],
        None,
    );
    assert_eq!(r.status, 401);

    // 401 for an expired token: age one in the database past its hour.
    let expiring = s.token(a);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let db = quire::store::Db::open(s.database_url.as_deref(), s.data.path())
            .await
            .unwrap();
        let aged = sqlx::query("UPDATE tokens SET expires = $1 WHERE token_hash = $2")
            .bind(quire::store::now() - 1.0)
            .bind(quire::accounts::hash_secret(&expiring))
            .execute(&db.pool)
            .await
            .unwrap();
        assert_eq!(aged.rows_affected(), 1);
    });
    let r = request(
        "GET",
        &docs,
        &[("authorization", &format!("Bearer {expiring}"))],
        None,
    );
    assert_eq!(r.status, 401, "{}", r.text());
    assert!(r.json()["detail"].as_str().unwrap().contains("expired"));

    // Token endpoint errors, RFC 6749 5.2 style.
    let r = s.token_response(&a.client_id, "wrong-secret", None);
    assert_eq!(r.status, 401);
    assert_eq!(r.json()["error"], "invalid_client");
    let r = request(
        "POST",
        &s.url("/auth/oauth/token"),
        &[],
        Some((
            "application/x-www-form-urlencoded",
            b"grant_type=password&username=x".to_vec(),
        )),
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"], "unsupported_grant_type");

    // Scope narrowing at issue; asking for more is ignored; 403 by method.
    let r = s.token_response(&a.client_id, &a.secret, Some("documents:read"));
    assert_eq!(r.json()["scope"], "documents:read");
    let read_only = r.json()["access_token"].as_str().unwrap().to_string();
    assert_eq!(s.get(&read_only, "/api/v1/documents").status, 200);
    let r = s.send_json(
        "POST",
        &read_only,
        "/api/v1/pdfs",
        &json!({"markdown": "x"}),
    );
    assert_eq!(r.status, 403, "{}", r.text());

    // A credential narrowed later narrows its tokens; revoking kills them at once.
    let b = s.account("pro");
    let tb = s.token(&b);
    assert_eq!(
        s.send_json("POST", &tb, "/api/v1/pdfs", &json!({"markdown": "x"}))
            .status,
        201
    );
    s.cli(&[
        "admin",
        "credential",
        "set-scopes",
        &b.client_id,
        "documents:read",
    ]);
    assert_eq!(
        s.send_json("POST", &tb, "/api/v1/pdfs", &json!({"markdown": "x"}))
            .status,
        403
    );
    let wider = s.token_response(
        &b.client_id,
        &b.secret,
        Some("documents:read documents:write"),
    );
    assert_eq!(
        wider.json()["scope"],
        "documents:read",
        "asking for more is ignored, not granted"
    );
    s.cli(&["admin", "credential", "revoke", &b.client_id]);
    assert_eq!(s.get(&tb, "/api/v1/documents").status, 401);
    assert_eq!(s.token_response(&b.client_id, &b.secret, None).status, 401);

    // Rotation: the old secret works for 24 hours beside the new one.
    let c = s.account("pro");
    let rotated = s.cli_json(&["admin", "credential", "rotate", &c.client_id, "--json"]);
    let new_secret = rotated["client_secret"].as_str().unwrap();
    assert_eq!(s.token_response(&c.client_id, &c.secret, None).status, 200);
    assert_eq!(s.token_response(&c.client_id, new_secret, None).status, 200);

    // 402: the free plan has no API, checked at issue and on every call.
    let f = s.account("free");
    let r = s.token_response(&f.client_id, &f.secret, None);
    assert_eq!(r.status, 402, "{}", r.text());
    let d = s.account("pro");
    let td = s.token(&d);
    assert_eq!(s.get(&td, "/api/v1/documents").status, 200);
    s.cli(&["admin", "account", "set-plan", &d.id, "free"]);
    assert_eq!(s.get(&td, "/api/v1/documents").status, 402);
    s.cli(&["admin", "account", "set-plan", &d.id, "enterprise"]);
    assert_eq!(s.get(&td, "/api/v1/documents").status, 200);
}

fn isolation_and_routes(s: &Server, t: &str) {
    // Someone else's document is 404, never 403.
    let other = s.account("pro");
    let to = s.token(&other);
    let doc = create_md(s, &to, "Theirs");
    let id = doc["id"].as_str().unwrap();
    for path in [
        format!("/api/v1/documents/{id}"),
        format!("/api/v1/documents/{id}.pdf"),
    ] {
        assert_eq!(s.get(t, &path).status, 404, "{path}");
    }
    let r = s.send_json(
        "PUT",
        t,
        &format!("/api/v1/pdfs/{id}"),
        &json!({"markdown": "mine now"}),
    );
    assert_eq!(r.status, 404);
    let r = request(
        "DELETE",
        &s.url(&format!("/api/v1/documents/{id}")),
        &[("authorization", &format!("Bearer {t}"))],
        None,
    );
    assert_eq!(r.status, 404);
    assert_eq!(s.get(&to, &format!("/api/v1/documents/{id}")).status, 200);

    // Unknown route 404, known route wrong method 405 with Allow.
    let r = s.get(t, "/api/v1/spreadsheets");
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["ok"], false);
    let r = s.send_json("PATCH", t, "/api/v1/documents", &json!({}));
    assert_eq!(r.status, 405);
    let allow = r.header("allow").unwrap();
    assert!(allow.contains("GET") && !allow.contains("PATCH"), "{allow}");
    let r = s.send_json("DELETE", t, "/api/v1/pdfs", &json!({}));
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow").as_deref(), Some("POST"));

    // A bearer token outside /api/v1 finds nothing.
    assert_eq!(s.get(t, &format!("/d/{id}")).status, 404);
    let r = request(
        "POST",
        &s.url("/auth/oauth/token"),
        &[("authorization", &format!("Bearer {t}"))],
        Some((
            "application/x-www-form-urlencoded",
            b"grant_type=client_credentials".to_vec(),
        )),
    );
    assert_eq!(r.status, 404);

    // The operator API does not take API tokens.
    let r = request(
        "GET",
        &format!("{}/plugins", s.admin_base),
        &[("authorization", &format!("Bearer {t}"))],
        None,
    );
    assert_eq!(r.status, 401);
    let r = request(
        "GET",
        &format!("{}/plugins", s.admin_base),
        &[("authorization", "Bearer operator-secret-for-tests")],
        None,
    );
    assert_eq!(r.status, 200);
    assert!(r.json()["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "markdown" && p["active"] == true));
}

fn surface_and_usage(s: &Server, t: &str) {
    let r = s.get(t, "/api/v1").json();
    assert_eq!(r["version"], 1);
    assert_eq!(r["authentication"]["grant"], "client_credentials");
    assert_eq!(
        r["authentication"]["token_endpoint"],
        s.url("/auth/oauth/token")
    );
    let read: Vec<&str> = r["read"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let write: Vec<&str> = r["write"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for route in [
        "GET /api/v1/documents",
        "GET /api/v1/documents/{id}",
        "GET /api/v1/usage",
        "GET /api/v1",
    ] {
        assert!(read.contains(&route), "{route} missing from {read:?}");
    }
    for route in [
        "POST /api/v1/pdfs",
        "POST /api/v1/diagrams",
        "PUT /api/v1/pdfs/{id}",
        "DELETE /api/v1/documents/{id}",
    ] {
        assert!(write.contains(&route), "{route} missing from {write:?}");
    }
    let openapi = s.get(t, "/api/v1/openapi.json").json();
    assert_eq!(openapi["openapi"], "3.1.0");
    for route in read.iter().chain(&write) {
        let (method, path) = route.split_once(' ').unwrap();
        assert!(
            openapi["paths"][path][method.to_lowercase()].is_object(),
            "{route} not in the OpenAPI document"
        );
    }

    // Something stored, so storage has something to count.
    create_md(s, t, "Counted");
    let u1 = s.get(t, "/api/v1/usage").json();
    let u2 = s.get(t, "/api/v1/usage").json();
    assert_eq!(
        u2["calls"]["today"].as_i64().unwrap(),
        u1["calls"]["today"].as_i64().unwrap() + 1
    );
    // Calls are taken from the database in blocks (usage::Allowance): 100 reads, more
    // than one block, count exactly 100, and the block taken for them is given back.
    for _ in 0..100 {
        assert_eq!(s.get(t, "/api/v1/documents?limit=1").status, 200);
    }
    let u3 = s.get(t, "/api/v1/usage").json();
    assert_eq!(
        u3["calls"]["today"].as_i64().unwrap(),
        u2["calls"]["today"].as_i64().unwrap() + 101
    );
    assert_eq!(u2["calls"]["allowed"], 2000);
    assert_eq!(
        u2["calls"]["left"].as_i64().unwrap(),
        2000 - u2["calls"]["today"].as_i64().unwrap()
    );
    assert_eq!(
        u2["storage"]["quota"].as_i64().unwrap(),
        5 * 1024 * 1024 * 1024
    );
    assert!(u2["storage"]["used"].as_i64().unwrap() > 0);
    assert_eq!(u2["day"].as_str().unwrap().len(), 10);
}

#[test]
fn a_stock_oauth2_client_gets_a_token() {
    use oauth2::{AuthUrl, ClientId, ClientSecret, Scope, TokenResponse, TokenUrl};
    let s = shared();
    let a = s.account("pro");
    let client = oauth2::basic::BasicClient::new(ClientId::new(a.client_id.clone()))
        .set_client_secret(ClientSecret::new(a.secret.clone()))
        .set_auth_uri(AuthUrl::new(s.url("/unused")).unwrap())
        .set_token_uri(TokenUrl::new(s.url("/auth/oauth/token")).unwrap());
    let token = client
        .exchange_client_credentials()
        .add_scope(Scope::new("documents:read".into()))
        .request(&UreqClient)
        .expect("the oauth2 crate obtains a token");
    assert_eq!(
        token.expires_in(),
        Some(std::time::Duration::from_secs(3600))
    );
    assert_eq!(token.scopes().unwrap()[0].as_str(), "documents:read");
    assert_eq!(
        s.get(token.access_token().secret(), "/api/v1/documents")
            .status,
        200
    );
}

/// The oauth2 crate's HTTP hook, over ureq (no TLS needed on loopback).
struct UreqClient;

impl oauth2::SyncHttpClient for UreqClient {
    type Error = oauth2::HttpClientError<ureq::Error>;
    fn call(&self, request: oauth2::HttpRequest) -> Result<oauth2::HttpResponse, Self::Error> {
        let (parts, body) = request.into_parts();
        let mut b = ureq::http::Request::builder()
            .method(parts.method.as_str())
            .uri(parts.uri.to_string());
        for (k, v) in &parts.headers {
            b = b.header(k.as_str(), v.as_bytes());
        }
        let mut r = agent()
            .run(
                b.body(body)
                    .map_err(|e| oauth2::HttpClientError::Other(e.to_string()))?,
            )
            .map_err(Box::new)?;
        let mut out = oauth2::http::Response::builder().status(r.status().as_u16());
        for (k, v) in r.headers() {
            out = out.header(k.as_str(), v.as_bytes());
        }
        let body = r.body_mut().read_to_vec().map_err(Box::new)?;
        out.body(body)
            .map_err(|e| oauth2::HttpClientError::Other(e.to_string()))
    }
}

/// `admin account list --email` matches the text as it is written, in any case, with no
/// pattern characters (`%` and `_` are letters of an address), the same on both databases.
fn account_list_by_email(s: &Server) {
    let tag = rand_hex();
    let create = |email: &str| {
        s.cli_json(&[
            "admin", "account", "create", "--email", email, "--plan", "free", "--json",
        ]);
    };
    create(&format!("Ann_{tag}@example.com"));
    create(&format!("annx{tag}@example.com"));
    let emails = |filter: &str| -> Vec<String> {
        let listed = s.cli_json(&["admin", "account", "list", "--email", filter, "--json"]);
        let mut emails: Vec<String> = listed["accounts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["email"].as_str().unwrap().to_string())
            .filter(|e| e.contains(&tag))
            .collect();
        emails.sort();
        emails
    };
    assert_eq!(
        emails(&format!("ANN_{tag}")),
        [format!("Ann_{tag}@example.com")],
        "`_` is a letter, not any letter, and case does not matter"
    );
    assert_eq!(emails(&format!("ann%{tag}")), Vec::<String>::new());
    assert_eq!(emails(&tag).len(), 2);
}
