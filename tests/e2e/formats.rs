//! Formats are data: what the API reads and serves follows the active converters, over
//! real HTTP, as converters are deactivated and brought back through the operator API.

use serde_json::{json, Value};

use crate::server::{request, Resp, Server};

fn operator(s: &Server, method: &str, path: &str, body: Option<(&str, Vec<u8>)>) -> Resp {
    request(
        method,
        &format!("{}{path}", s.admin_base),
        &[("authorization", "Bearer operator-secret-for-tests")],
        body,
    )
}

fn listed(surface: &Value, list: &str, member: &str) -> Vec<String> {
    surface["formats"][list]
        .as_array()
        .unwrap_or_else(|| panic!("no formats.{list} in {surface}"))
        .iter()
        .map(|f| f[member].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn what_is_readable_and_servable_follows_the_active_converters() {
    let s = Server::start(&[]);
    let t = s.token(&s.account("pro"));
    let surface = s.get(&t, "/api/v1").json();
    let readable = listed(&surface, "readable", "media_type");
    let downloads = listed(&surface, "downloads", "extension");
    for m in [
        "text/markdown",
        "text/html",
        "application/pdf",
        "text/vnd.mermaid",
    ] {
        assert!(readable.contains(&m.to_string()), "{m} in {readable:?}");
    }
    for e in ["pdf", "png", "svg", "mmd", "drawio", "json"] {
        assert!(downloads.contains(&e.to_string()), "{e} in {downloads:?}");
    }
    // Each download says the kinds of document it fits, as its exporter declared them.
    let kinds_of = |extension: &str| -> Vec<Value> {
        let all = surface["formats"]["downloads"].as_array().unwrap();
        let entry = all.iter().find(|f| f["extension"] == extension).unwrap();
        entry["kinds"].as_array().unwrap().clone()
    };
    for e in ["mmd", "drawio"] {
        assert_eq!(kinds_of(e), [json!("diagram")], ".{e}");
    }
    for e in ["pdf", "png", "svg", "json"] {
        assert_eq!(kinds_of(e), [json!("pdf"), json!("diagram")], ".{e}");
    }
    // The form-field finder's format is the host's own business.
    assert!(!downloads.contains(&"fields".to_string()), "{downloads:?}");
    assert!(readable
        .iter()
        .all(|m| !m.starts_with("application/vnd.quire.")));

    // The OpenAPI document says the same.
    let openapi = s.get(&t, "/api/v1/openapi.json").json();
    let body_types: Vec<String> = openapi["paths"]["/api/v1/pdfs"]["post"]["requestBody"]
        ["content"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    for m in &readable {
        assert!(
            body_types.contains(m),
            "{m} not a request body of POST /pdfs: {body_types:?}"
        );
    }
    let params = openapi["paths"]["/api/v1/documents/{id}.{format}"]["get"]["parameters"]
        .as_array()
        .unwrap();
    let format = params.iter().find(|p| p["name"] == "format").unwrap();
    let mut enumerated: Vec<String> = format["schema"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let mut expected = downloads.clone();
    enumerated.sort();
    expected.sort();
    assert_eq!(enumerated, expected);
    assert!(openapi["paths"]["/api/v1/model.schema.json"]["get"].is_object());

    // Raw bodies, the experimental spelling, and the generic `file` source.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs?title=x",
        "text/x-markdown",
        b"# Hi".to_vec(),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let mermaid = base64_encode(b"flowchart LR\n  a[One] --> b[Two]");
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/diagrams",
        &json!({"file": mermaid, "type": "text/vnd.mermaid", "title": "generic"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let diagram = r.json()["document"]["id"].as_str().unwrap().to_string();
    assert_eq!(r.json()["document"]["title"], "generic");
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"file": base64_encode(b"a,b"), "type": "text/csv"}),
    );
    assert_eq!(r.status, 415, "{}", r.text());
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"file": base64_encode(b"# x")}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    // Pages of text are no diagram: the refusal names the endpoint that takes them.
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/diagrams",
        "text/markdown",
        b"# Text".to_vec(),
    );
    assert_eq!(r.status, 415, "{}", r.text());
    assert_eq!(r.json()["endpoint"], "/api/v1/pdfs");
    // Every download carries its exporter's media type; .fields is refused and not offered.
    let r = s.get(&t, &format!("/api/v1/documents/{diagram}.drawio"));
    assert_eq!(r.header("content-type").as_deref(), Some("application/xml"));
    let r = s.get(&t, &format!("/api/v1/documents/{diagram}.fields"));
    assert_eq!(r.status, 415, "{}", r.text());
    let body = r.json();
    let served: Vec<&str> = body["served"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        served.contains(&".mmd") && !served.contains(&".fields"),
        "{served:?}"
    );

    // Deactivated: markdown stops being readable at once, everywhere it is named.
    let r = operator(&s, "POST", "/plugins/markdown/deactivate", None);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["deactivated"], crate::common::shipped("markdown"));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "text/markdown",
        b"# gone".to_vec(),
    );
    assert_eq!(r.status, 415, "{}", r.text());
    let body = r.json();
    let listed_now: Vec<&str> = body["readable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(!listed_now.contains(&"text/markdown") && listed_now.contains(&"text/html"));
    let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({"markdown": "# gone"}));
    assert_eq!(r.status, 415, "{}", r.text());
    let surface = s.get(&t, "/api/v1").json();
    assert!(!listed(&surface, "readable", "media_type").contains(&"text/markdown".to_string()));
    let openapi = s.get(&t, "/api/v1/openapi.json").json();
    assert!(
        openapi["paths"]["/api/v1/pdfs"]["post"]["requestBody"]["content"]["text/markdown"]
            .is_null()
    );
    // Brought back: rollback reactivates the last version that was active.
    let r = operator(&s, "POST", "/plugins/markdown/rollback", None);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["active"], crate::common::shipped("markdown"));
    let r = s.send_raw(
        "POST",
        &t,
        "/api/v1/pdfs",
        "text/markdown",
        b"# back".to_vec(),
    );
    assert_eq!(r.status, 201, "{}", r.text());

    // An exporter too: without mermaid, .mmd is no download.
    let r = operator(&s, "POST", "/plugins/mermaid/deactivate", None);
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.get(&t, &format!("/api/v1/documents/{diagram}.mmd"));
    assert_eq!(r.status, 415, "{}", r.text());
    assert!(
        !r.text().contains(".mmd,") && !r.text().contains("\".mmd\""),
        "{}",
        r.text()
    );
    assert_eq!(
        operator(&s, "POST", "/plugins/mermaid/deactivate", None).status,
        404
    );
}

#[test]
fn the_operator_api_takes_large_components_and_refuses_larger_ones_in_json() {
    let s = Server::start(&[]);
    // A shipped component of several megabytes (past axum's 2 MB default) installs.
    let png = std::fs::read(crate::common::plugins_dir().join("quire_png.wasm")).unwrap();
    assert!(png.len() > 2 << 20, "{}", png.len());
    let r = operator(
        &s,
        "POST",
        "/plugins?activate=false",
        Some(("application/wasm", png)),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    // Past 64 MiB: a 413 the client reads, with the limit, not a dropped connection.
    let r = operator(
        &s,
        "POST",
        "/plugins",
        Some(("application/wasm", vec![0u8; (64 << 20) + 1])),
    );
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["ok"], false);
    assert_eq!(r.json()["limit"], 64 << 20);
    // The listener is still there.
    assert_eq!(operator(&s, "GET", "/plugins", None).status, 200);
}

/// The operator API refuses in JSON like the public one: a malformed activation body, a
/// query value it cannot read, an unknown path and a wrong method (with `Allow`).
#[test]
fn the_operator_api_refuses_in_json() {
    let s = Server::start(&[]);
    let json_refusal = |r: &Resp, status: u16| {
        assert_eq!(r.status, status, "{}", r.text());
        assert!(
            r.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{:?}: {}",
            r.header("content-type"),
            r.text()
        );
        let body = r.json();
        assert_eq!(body["ok"], false, "{body}");
        assert!(
            body["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{body}"
        );
        body
    };
    let r = operator(
        &s,
        "POST",
        "/plugins/markdown/activate",
        Some(("application/json", b"{\"version\": 7}".to_vec())),
    );
    assert_eq!(json_refusal(&r, 400)["field"], "version");
    let r = operator(
        &s,
        "POST",
        "/plugins/markdown/activate",
        Some(("application/json", b"not json".to_vec())),
    );
    json_refusal(&r, 400);
    let r = operator(
        &s,
        "POST",
        "/plugins?activate=perhaps",
        Some(("application/wasm", b"\0asm".to_vec())),
    );
    json_refusal(&r, 400);
    json_refusal(&operator(&s, "GET", "/nothing/here", None), 404);
    let r = operator(&s, "GET", "/plugins/markdown/activate", None);
    let body = json_refusal(&r, 405);
    assert_eq!(r.header("allow").as_deref(), Some("POST"), "{body}");
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
