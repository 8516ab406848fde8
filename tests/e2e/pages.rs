//! The account holders' pages over plain HTTP: sign-in links (once, rate limited, never
//! on a GET), the session cookie's attributes, CSRF on every change, sessions kept out of
//! the API and bearer tokens out of the pages, and what each page shows. The browser side
//! (the editor, JavaScript on) is in `editor`.

use std::time::Duration;

use serde_json::{json, Value};

use crate::server::*;

/// An agent that does not follow redirects, so a test sees each `Location` and cookie.
pub fn plain_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// A request as a browser would send it, with an optional session cookie.
pub fn browse(
    method: &str,
    url: &str,
    cookie: Option<&str>,
    form: Option<&[(&str, &str)]>,
) -> Resp {
    let mut b = ureq::http::Request::builder()
        .method(method)
        .uri(url)
        .header("accept", "text/html");
    if let Some(c) = cookie {
        b = b.header("cookie", format!("quire_session={c}"));
    }
    let result = match form {
        Some(pairs) => {
            let body: String = form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs.iter())
                .finish();
            plain_agent().run(
                b.header("content-type", "application/x-www-form-urlencoded")
                    .body(body.into_bytes())
                    .unwrap(),
            )
        }
        None => plain_agent().run(b.body(()).unwrap()),
    };
    let mut r = result.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    Resp {
        status: r.status().as_u16(),
        headers: r.headers().clone(),
        body: r.body_mut().read_to_vec().unwrap(),
    }
}

/// A printed sign-in link for the account (`quire admin account login-link --json`).
pub fn login_link(s: &Server, account_id: &str) -> String {
    let out = s.cli_json(&["admin", "account", "login-link", account_id, "--json"]);
    assert_eq!(out["expires_in"], 900, "{out}");
    out["url"].as_str().unwrap().to_string()
}

/// Signs in through a printed link; returns the session cookie's value and the whole
/// `Set-Cookie` line.
pub fn sign_in(s: &Server, account_id: &str) -> (String, String) {
    let link = login_link(s, account_id);
    let r = browse("POST", &link, None, Some(&[("next", "/documents")]));
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/documents"));
    let set = r.header("set-cookie").expect("a session cookie");
    let value = set
        .strip_prefix("quire_session=")
        .and_then(|v| v.split(';').next())
        .unwrap()
        .to_string();
    (value, set)
}

/// The synchronizer token a page's forms carry.
pub fn csrf_of(page: &str) -> String {
    let at = page
        .find("name=\"_csrf\" value=\"")
        .expect("a page with a form carries _csrf");
    let rest = &page[at + "name=\"_csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

fn create_markdown(s: &Server, token: &str, title: &str) -> Value {
    let r = s.send_json(
        "POST",
        token,
        "/api/v1/pdfs",
        &json!({"markdown": format!("# {title}\n\nSome text."), "title": title}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["document"].clone()
}

#[test]
fn a_printed_link_signs_in_once_with_a_strict_cookie() {
    let s = shared();
    let a = s.account("pro");
    let link = login_link(s, &a.id);
    assert!(link.starts_with(&s.url("/signin/")), "{link}");

    // Opening the link (a mail scanner does this) signs nobody in and uses nothing up.
    let opened = browse("GET", &link, None, None);
    assert_eq!(opened.status, 200);
    assert!(opened.header("set-cookie").is_none());
    assert!(opened
        .text()
        .contains("<button type=\"submit\">Sign in</button>"));

    let r = browse("POST", &link, None, Some(&[("next", "/bin")]));
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/bin"));
    let cookie = r.header("set-cookie").unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(cookie.contains(attribute), "{attribute} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");

    // A link works once.
    let again = browse("POST", &link, None, Some(&[]));
    assert_eq!(again.status, 404);
    assert!(again.text().contains("not valid any more"));
    assert!(again.header("set-cookie").is_none());

    // A `next` that leaves the site is not followed.
    let (_, _) = sign_in(s, &a.id);
    let link = login_link(s, &a.id);
    let r = browse("POST", &link, None, Some(&[("next", "//evil.example/")]));
    assert_eq!(r.header("location").as_deref(), Some("/documents"));
}

#[test]
fn links_per_hour_are_limited_and_mail_goes_through_the_outbox() {
    links_per_hour(&Server::start(&[]));
}

/// The pages' SQL is the same on both databases: sign-in links, search, history, the bin.
#[test]
fn pages_on_postgres() {
    let Some(url) = postgres_database() else {
        return;
    };
    let s = Server::start_with_db(Some(url), &[]);
    links_per_hour(&s);
    document_pages(&s);
    bin_and_purge(&s);
}

fn links_per_hour(s: &Server) {
    let a = s.account("pro");
    let email = s.cli_json(&[
        "admin",
        "account",
        "create",
        "--email",
        "Person@Example.org",
        "--plan",
        "pro",
        "--json",
    ]);
    let person = email["id"].as_str().unwrap();

    // Asked on the sign-in page, with the address in another case: mailed.
    let r = browse(
        "POST",
        &s.url("/signin"),
        None,
        Some(&[("email", "person@example.org")]),
    );
    assert_eq!(r.status, 200);
    let same = browse(
        "POST",
        &s.url("/signin"),
        None,
        Some(&[("email", "nobody@example.org")]),
    );
    assert_eq!(same.status, 200);
    // The answer does not tell who has an account.
    let strip = |t: String, e: &str| t.replace(e, "");
    assert_eq!(
        strip(r.text(), "person@example.org"),
        strip(same.text(), "nobody@example.org")
    );
    let outbox = s.cli_json(&["admin", "outbox", "--json"]);
    let mails = outbox["mail"]
        .as_array()
        .unwrap_or_else(|| panic!("{outbox}"));
    assert!(
        mails
            .iter()
            .any(|m| m["recipient"] == "Person@Example.org"
                && m["subject"] == "Your Quire sign-in link"),
        "{outbox}"
    );

    // Four more links this hour are allowed (five in all); the sixth is refused.
    for _ in 0..4 {
        login_link(s, person);
    }
    let out = s.cli_output(&["admin", "account", "login-link", person, "--json"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("sign-in links"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Another account is not affected.
    login_link(s, &a.id);
}

#[test]
fn sessions_and_tokens_stay_on_their_own_side() {
    let s = shared();
    let a = s.account("pro");
    let token = s.token(&a);
    let (cookie, _) = sign_in(s, &a.id);

    // A session at the API: 401, saying why.
    let r = browse("GET", &s.url("/api/v1/documents"), Some(&cookie), None);
    assert_eq!(r.status, 401, "{}", r.text());
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("browser session"));
    // A bearer token on a page: 404.
    let r = s.get(&token, "/documents");
    assert_eq!(r.status, 404, "{}", r.text());
    // No session: pages send to sign-in, keeping where the person was going.
    let r = browse("GET", &s.url("/documents?q=x"), None, None);
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location").as_deref(),
        Some("/signin?next=%2Fdocuments%3Fq%3Dx")
    );
    // A made-up cookie is no session.
    let r = browse("GET", &s.url("/documents"), Some(&"0".repeat(64)), None);
    assert_eq!(r.status, 303);

    // Signed in: the page, with its policy.
    let page = browse("GET", &s.url("/documents"), Some(&cookie), None);
    assert_eq!(page.status, 200);
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert_eq!(page.header("x-frame-options").as_deref(), Some("DENY"));

    // Sign-out ends the session in the database, not only in this browser.
    let csrf = csrf_of(&page.text());
    let out = browse(
        "POST",
        &s.url("/signout"),
        Some(&cookie),
        Some(&[("_csrf", &csrf)]),
    );
    assert_eq!(out.status, 303);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    let r = browse("GET", &s.url("/documents"), Some(&cookie), None);
    assert_eq!(r.status, 303, "the old cookie opens nothing");
}

#[test]
fn every_change_needs_the_page_token() {
    let s = shared();
    let a = s.account("pro");
    let token = s.token(&a);
    let doc = create_markdown(s, &token, "Keep me");
    let id = doc["id"].as_str().unwrap();
    let (cookie, _) = sign_in(s, &a.id);
    let page = browse("GET", &s.url(&format!("/d/{id}")), Some(&cookie), None);
    assert_eq!(page.status, 200);
    let csrf = csrf_of(&page.text());

    let bin = s.url(&format!("/d/{id}/bin"));
    for sent in [None, Some("wrong"), Some("")] {
        let pairs: Vec<(&str, &str)> = sent.map(|v| vec![("_csrf", v)]).unwrap_or_default();
        let r = browse("POST", &bin, Some(&cookie), Some(&pairs));
        assert_eq!(r.status, 403, "{sent:?}: {}", r.text());
    }
    // Another session's token is not this one's.
    let (other_cookie, _) = sign_in(s, &a.id);
    let other = browse("GET", &s.url("/documents"), Some(&other_cookie), None);
    let r = browse(
        "POST",
        &bin,
        Some(&cookie),
        Some(&[("_csrf", &csrf_of(&other.text()))]),
    );
    assert_eq!(r.status, 403);
    assert_eq!(
        s.get(&token, &format!("/api/v1/documents/{id}")).status,
        200,
        "still there"
    );

    // With it: binned, then restored from the bin page.
    let r = browse("POST", &bin, Some(&cookie), Some(&[("_csrf", &csrf)]));
    assert_eq!(r.status, 303, "{}", r.text());
    // The page it leads to says what happened; words put in a link from elsewhere are not
    // shown (the notice carries a tag only this session can make).
    let shown = browse(
        "GET",
        &s.url(&r.header("location").unwrap()),
        Some(&cookie),
        None,
    )
    .text();
    assert!(shown.contains("is in the bin"), "{shown}");
    let forged = browse(
        "GET",
        &s.url("/documents?notice=Your+account+is+locked%2C+call+us&tag=00112233"),
        Some(&cookie),
        None,
    )
    .text();
    assert!(!forged.contains("account is locked"), "{forged}");
    assert_eq!(
        s.get(&token, &format!("/api/v1/documents/{id}")).status,
        404
    );
    let bin_page = browse("GET", &s.url("/bin"), Some(&cookie), None).text();
    assert!(bin_page.contains("Keep me"), "{bin_page}");
    let r = browse(
        "POST",
        &s.url(&format!("/bin/{id}/restore")),
        Some(&cookie),
        Some(&[("_csrf", &csrf)]),
    );
    assert_eq!(r.status, 303);
    assert_eq!(
        s.get(&token, &format!("/api/v1/documents/{id}")).status,
        200
    );
}

#[test]
fn another_account_sees_nothing_of_mine() {
    let s = shared();
    let mine = s.account("pro");
    let theirs = s.account("pro");
    let token = s.token(&mine);
    let doc = create_markdown(s, &token, "Private notes");
    let id = doc["id"].as_str().unwrap();
    let (cookie, _) = sign_in(s, &theirs.id);
    for path in [
        format!("/d/{id}"),
        format!("/d/{id}/model"),
        format!("/d/{id}/download/pdf"),
        format!("/d/{id}/pages/1.png"),
        format!("/documents/{id}/thumbnail.png"),
    ] {
        let r = browse("GET", &s.url(&path), Some(&cookie), None);
        assert_eq!(r.status, 404, "{path}: {}", r.text());
    }
    let list = browse("GET", &s.url("/documents"), Some(&cookie), None).text();
    assert!(!list.contains("Private notes"));
    let page = browse("GET", &s.url("/credentials"), Some(&cookie), None).text();
    let r = browse(
        "POST",
        &s.url(&format!("/credentials/{}/revoke", mine.client_id)),
        Some(&cookie),
        Some(&[("_csrf", &csrf_of(&page))]),
    );
    assert_eq!(r.status, 404, "{}", r.text());
    assert_eq!(
        s.token_response(&mine.client_id, &mine.secret, None).status,
        200
    );
}

#[test]
fn the_document_pages_show_search_versions_and_downloads() {
    document_pages(shared());
}

fn document_pages(s: &Server) {
    let a = s.account("pro");
    let token = s.token(&a);
    let first = create_markdown(s, &token, "Quarterly report");
    create_markdown(s, &token, "Holiday plan");
    let id = first["id"].as_str().unwrap();
    // A second version through the API.
    let r = s.send_json(
        "PUT",
        &token,
        &format!("/api/v1/pdfs/{id}"),
        &json!({"markdown": "# Quarterly report\n\nRevised.\n\n## More\n\nText."}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let (cookie, _) = sign_in(s, &a.id);

    let found = browse("GET", &s.url("/documents?q=QUARTERLY"), Some(&cookie), None).text();
    assert!(
        found.contains("Quarterly report") && !found.contains("Holiday plan"),
        "{found}"
    );
    let none = browse("GET", &s.url("/documents?q=%25"), Some(&cookie), None).text();
    assert!(
        none.contains("No document matches"),
        "a % is a character, not a wildcard"
    );
    let diagrams = browse(
        "GET",
        &s.url("/documents?kind=diagram"),
        Some(&cookie),
        None,
    )
    .text();
    assert!(!diagrams.contains("Holiday plan"));

    let thumb = browse(
        "GET",
        &s.url(&format!("/documents/{id}/thumbnail.png")),
        Some(&cookie),
        None,
    );
    assert_eq!(thumb.status, 200);
    assert_eq!(thumb.header("content-type").as_deref(), Some("image/png"));
    assert!(thumb.body.starts_with(b"\x89PNG"));

    let page = browse("GET", &s.url(&format!("/d/{id}")), Some(&cookie), None).text();
    assert!(page.contains("Restore as new version"), "{page}");
    assert!(page.contains(&format!("/d/{id}/download/pdf")));
    let pdf = browse(
        "GET",
        &s.url(&format!("/d/{id}/download/pdf")),
        Some(&cookie),
        None,
    );
    assert_eq!(pdf.status, 200);
    assert!(pdf.body.starts_with(b"%PDF"));
    assert_eq!(
        pdf.header("content-disposition").as_deref(),
        Some("attachment; filename=\"Quarterly-report.pdf\"")
    );

    // Restoring version 2 makes version 4 with version 2's content.
    let csrf = csrf_of(&page);
    let r = browse(
        "POST",
        &s.url(&format!("/d/{id}/versions/2/restore")),
        Some(&cookie),
        Some(&[("_csrf", &csrf)]),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let now = s
        .get(&token, &format!("/api/v1/documents/{id}?include=model"))
        .json();
    assert_eq!(now["document"]["version"], 4);
    let text = now["document"]["data"].to_string();
    assert!(
        text.contains("Some text.") && !text.contains("Revised."),
        "{text}"
    );

    let usage = browse("GET", &s.url("/usage"), Some(&cookie), None).text();
    assert!(usage.contains("API calls today"), "{usage}");
}

#[test]
fn a_credential_made_on_the_page_gets_a_token() {
    let s = shared();
    let a = s.account("pro");
    let (cookie, _) = sign_in(s, &a.id);
    let page = browse("GET", &s.url("/credentials"), Some(&cookie), None).text();
    let csrf = csrf_of(&page);
    let r = browse(
        "POST",
        &s.url("/credentials"),
        Some(&cookie),
        Some(&[
            ("_csrf", &csrf),
            ("scope.documents:read", "1"),
            ("name", " Billing <server> "),
        ]),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let shown = r.text();
    let pick = |id: &str| {
        let at = shown.find(&format!("id=\"{id}\">")).unwrap() + id.len() + 6;
        shown[at..at + shown[at..].find('<').unwrap()].to_string()
    };
    let (client_id, secret) = (pick("client-id"), pick("client-secret"));
    // Listed by its name, and never used yet.
    let last_used = |list: &str| {
        let row = &list[list.find(&format!("<code>{client_id}</code>")).unwrap()..];
        let at = row.find("class=\"last-used\">").unwrap() + "class=\"last-used\">".len();
        row[at..at + row[at..].find('<').unwrap()].to_string()
    };
    let list = browse("GET", &s.url("/credentials"), Some(&cookie), None).text();
    assert!(
        list.contains("<td class=\"name\">Billing &lt;server&gt;</td>"),
        "{list}"
    );
    assert_eq!(last_used(&list), "never");
    // A name is one line of at most 100 characters.
    for name in ["x".repeat(101), "two\nlines".to_string()] {
        let r = browse(
            "POST",
            &s.url("/credentials"),
            Some(&cookie),
            Some(&[
                ("_csrf", &csrf),
                ("scope.documents:read", "1"),
                ("name", &name),
            ]),
        );
        assert_eq!(r.status, 400, "{}", r.text());
    }
    // The page links the API reference, made from the route table, with the OpenAPI document.
    assert!(list.contains("href=\"/reference\""));
    let reference = browse("GET", &s.url("/reference"), Some(&cookie), None).text();
    assert!(
        reference.contains("<code>/api/v1/pdfs</code>"),
        "{reference}"
    );
    assert!(reference.contains("<code>/api/v1/forms/{id}/responses</code>"));
    let openapi = browse(
        "GET",
        &s.url("/reference/openapi.json"),
        Some(&cookie),
        None,
    );
    assert_eq!(openapi.status, 200);
    assert!(openapi.json()["openapi"]
        .as_str()
        .unwrap()
        .starts_with("3.1"));
    assert_eq!(
        browse("GET", &s.url("/reference/openapi.json"), None, None).status,
        303,
        "the page copy needs a session"
    );
    let t = s.token_response(&client_id, &secret, None);
    assert_eq!(t.status, 200, "{}", t.text());
    assert_eq!(t.json()["scope"], "documents:read");
    // Listed without its secret afterwards, used just now (recorded in the background).
    let mut list = String::new();
    for _ in 0..50 {
        list = browse("GET", &s.url("/credentials"), Some(&cookie), None).text();
        if last_used(&list) != "never" {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(list.contains(&client_id) && !list.contains(&secret));
    assert!(last_used(&list).ends_with("UTC"), "{list}");
    // Revoked on the page: its tokens stop.
    let token = t.json()["access_token"].as_str().unwrap().to_string();
    let r = browse(
        "POST",
        &s.url(&format!("/credentials/{client_id}/revoke")),
        Some(&cookie),
        Some(&[("_csrf", &csrf)]),
    );
    assert_eq!(r.status, 303);
    assert_eq!(s.get(&token, "/api/v1/documents").status, 401);
}

#[test]
fn the_bin_restores_and_deletes_for_good() {
    bin_and_purge(shared());
}

fn bin_and_purge(s: &Server) {
    let a = s.account("pro");
    let token = s.token(&a);
    let doc = create_markdown(s, &token, "Old draft");
    let id = doc["id"].as_str().unwrap();
    let used = |s: &Server| {
        let r = s.get(&token, "/api/v1/usage");
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()["storage"]["used"].as_i64().unwrap()
    };
    let before = used(s);
    assert_eq!(
        s.send_json(
            "DELETE",
            &token,
            &format!("/api/v1/documents/{id}"),
            &json!({})
        )
        .status,
        200
    );
    let (cookie, _) = sign_in(s, &a.id);
    let page = browse("GET", &s.url("/bin"), Some(&cookie), None).text();
    assert!(
        page.contains("Old draft") && page.contains("30 days"),
        "{page}"
    );
    // Purge now: gone for good, storage given back.
    let r = browse(
        "POST",
        &s.url(&format!("/bin/{id}/purge")),
        Some(&cookie),
        Some(&[("_csrf", &csrf_of(&page))]),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let page = browse("GET", &s.url("/bin"), Some(&cookie), None).text();
    assert!(page.contains("The bin is empty"), "{page}");
    // A purged document cannot be restored, nor purged twice.
    let r = browse(
        "POST",
        &s.url(&format!("/bin/{id}/restore")),
        Some(&cookie),
        Some(&[("_csrf", &csrf_of(&page))]),
    );
    assert_eq!(r.status, 404);
    let after = used(s);
    assert!(after < before, "storage {before} -> {after}");
}

#[test]
fn a_form_page_shows_responses_their_copies_and_invitations() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let form = crate::forms::create_form(s, &t, "Club sign-up");
    let id = form["id"].as_str().unwrap();
    for who in ["ann@example.org", "bob@example.org"] {
        let mut answers = crate::forms::good_answers();
        answers["email"] = json!(who);
        let r = s.send_json(
            "POST",
            &t,
            &format!("/api/v1/forms/{id}/responses"),
            &json!({"answers": answers, "as": who}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let (cookie, _) = sign_in(s, &a.id);
    // The filled copies are reached from the form; the documents list shows them only
    // when asked for.
    let listed = browse("GET", &s.url("/documents"), Some(&cookie), None).text();
    assert!(
        listed.contains("Club sign-up") && listed.contains("1 document<"),
        "{listed}"
    );
    assert!(!listed.contains("— response"), "{listed}");
    let with_copies = browse("GET", &s.url("/documents?copies=1"), Some(&cookie), None).text();
    assert!(with_copies.contains("3 documents"), "{with_copies}");
    assert!(with_copies.contains("Club sign-up — response from ann@example.org"));
    assert!(
        with_copies.contains("id=\"copies\" name=\"copies\" type=\"checkbox\" value=\"1\" checked")
    );
    let page = browse("GET", &s.url(&format!("/forms/{id}")), Some(&cookie), None).text();
    assert!(page.contains("2 responses"), "{page}");
    assert!(page.contains("ann@example.org") && page.contains("bob@example.org"));
    assert!(page.contains("Full name") && page.contains("Ann &quot;Nan&quot; Example, Jr."));
    assert!(
        page.contains(&s.url(&format!("/f/{id}"))),
        "the public link is shown"
    );

    // One response: every answer, and a filled copy that is a PDF with the answers.
    let at = page.find(&format!("/forms/{id}/responses/")).unwrap();
    let rest = &page[at..];
    let href = &rest[..rest.find('"').unwrap()];
    let one = browse("GET", &s.url(href), Some(&cookie), None).text();
    assert!(one.contains("line one"), "{one}");
    let copy_at = one.find("/download/pdf").expect("a filled copy link");
    let start = one[..copy_at].rfind("/d/").unwrap();
    let copy = browse(
        "GET",
        &s.url(&one[start..copy_at + "/download/pdf".len()]),
        Some(&cookie),
        None,
    );
    assert_eq!(copy.status, 200);
    let read = crate::forms::pypdf_read(&copy.body);
    let sent = read["fields"]["email"]["/V"].as_str().unwrap_or("");
    assert!(sent.ends_with("@example.org"), "{read}");

    // The CSV, as the API gives it.
    let csv = browse(
        "GET",
        &s.url(&format!("/forms/{id}/responses.csv")),
        Some(&cookie),
        None,
    );
    assert_eq!(csv.status, 200);
    assert_eq!(
        csv.text(),
        s.get(&t, &format!("/api/v1/forms/{id}/responses.csv"))
            .text()
    );

    // Invitations: the address must be one; then it is listed and can be withdrawn.
    let csrf = csrf_of(&page);
    let bad = browse(
        "POST",
        &s.url(&format!("/forms/{id}/invitations")),
        Some(&cookie),
        Some(&[("_csrf", &csrf), ("email", "not an address")]),
    );
    assert_eq!(bad.status, 400, "{}", bad.text());
    let r = browse(
        "POST",
        &s.url(&format!("/forms/{id}/invitations")),
        Some(&cookie),
        Some(&[("_csrf", &csrf), ("email", "carol@example.org")]),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let shares = s.get(&t, &format!("/api/v1/forms/{id}/shares")).json();
    assert_eq!(
        shares["shares"][0]["email"], "carol@example.org",
        "{shares}"
    );
    let r = browse(
        "POST",
        &s.url(&format!("/forms/{id}/invitations/remove")),
        Some(&cookie),
        Some(&[("_csrf", &csrf), ("email", "carol@example.org")]),
    );
    assert_eq!(r.status, 303);
    let shares = s.get(&t, &format!("/api/v1/forms/{id}/shares")).json();
    assert_eq!(shares["shares"], json!([]));

    // Settings: unticked boxes are sent as absent, so the form closes.
    let r = browse(
        "POST",
        &s.url(&format!("/forms/{id}/settings")),
        Some(&cookie),
        Some(&[("_csrf", &csrf), ("multiple", "1"), ("confirm", "See you!")]),
    );
    assert_eq!(r.status, 303);
    let f = s.get(&t, &format!("/api/v1/forms/{id}")).json();
    assert_eq!(f["form"]["form"]["open"], false, "{f}");
    assert_eq!(f["form"]["form"]["confirm"], "See you!", "{f}");
}

/// Runs one statement on a private server's SQLite database (the clock cannot be turned
/// forward from outside, so expiry is written into the rows instead).
fn sqlite(s: &Server, sql: &str) {
    let db = s.data.path().join("quire.db");
    crate::common::run_tool(std::process::Command::new("python3").args([
        "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
        db.to_str().unwrap(),
        sql,
    ]));
}

#[test]
fn links_and_sessions_expire() {
    let s = Server::start(&[]);
    let a = s.account("pro");
    // A link past its 15 minutes opens nothing.
    let link = login_link(&s, &a.id);
    sqlite(&s, "UPDATE login_links SET expires = created - 1");
    let r = browse("POST", &link, None, Some(&[]));
    assert_eq!(r.status, 404, "{}", r.text());
    assert!(r.header("set-cookie").is_none());
    // A session past its 7 days is no session.
    let (cookie, _) = sign_in(&s, &a.id);
    assert_eq!(
        browse("GET", &s.url("/usage"), Some(&cookie), None).status,
        200
    );
    sqlite(&s, "UPDATE sessions SET expires = created - 1");
    let r = browse("GET", &s.url("/usage"), Some(&cookie), None);
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location").as_deref(),
        Some("/signin?next=%2Fusage")
    );
}

#[test]
fn a_webhook_is_added_tested_and_deleted_on_its_page() {
    let s = shared();
    let a = s.account("pro");
    let t = s.token(&a);
    let (cookie, _) = sign_in(s, &a.id);
    let page = browse("GET", &s.url("/webhooks"), Some(&cookie), None).text();
    assert!(page.contains("New endpoint"), "{page}");
    let csrf = csrf_of(&page);
    let add = |url: &str| {
        browse(
            "POST",
            &s.url("/webhooks"),
            Some(&cookie),
            Some(&[("_csrf", &csrf), ("url", url), ("event.form.closed", "1")]),
        )
    };
    // A private address is refused with the reason, on a page.
    let r = add("https://10.0.0.7/hook");
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("QUIRE_WEBHOOK_ALLOW"), "{}", r.text());
    let r = add("https://hooks.example.org/quire");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let shown = r.text();
    let at = shown.find("id=\"webhook-secret\">").unwrap() + 20;
    let secret = &shown[at..at + shown[at..].find('<').unwrap()];
    assert!(secret.starts_with("whsec_"), "{secret}");
    let hooks = s.get(&t, "/api/v1/webhooks").json();
    let id = hooks["webhooks"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(hooks["webhooks"][0]["events"], json!(["form.closed"]));
    let list = browse("GET", &s.url("/webhooks"), Some(&cookie), None).text();
    assert!(list.contains("https://hooks.example.org/quire") && !list.contains(secret));

    let r = browse(
        "POST",
        &s.url(&format!("/webhooks/{id}/test")),
        Some(&cookie),
        Some(&[("_csrf", &csrf)]),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let log = browse(
        "GET",
        &s.url(&format!("/webhooks/{id}")),
        Some(&cookie),
        None,
    )
    .text();
    assert!(log.contains("webhook.test"), "{log}");
    // Someone else's endpoint is not found, on the page as in the API.
    let b = s.account("pro");
    let (other, _) = sign_in(s, &b.id);
    let r = browse(
        "GET",
        &s.url(&format!("/webhooks/{id}")),
        Some(&other),
        None,
    );
    assert_eq!(r.status, 404);

    let r = browse(
        "POST",
        &s.url(&format!("/webhooks/{id}/delete")),
        Some(&cookie),
        Some(&[("_csrf", &csrf)]),
    );
    assert_eq!(r.status, 303);
    assert_eq!(s.get(&t, "/api/v1/webhooks").json()["webhooks"], json!([]));
}
