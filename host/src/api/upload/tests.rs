use axum::http::HeaderMap;

use super::*;

fn readable() -> Readable {
    Readable {
        types: [
            "text/markdown",
            "application/pdf",
            "image/png",
            "text/vnd.mermaid",
            "text/csv",
        ]
        .map(String::from)
        .to_vec(),
        extensions: Vec::new(),
    }
}

fn upload(endpoint: Endpoint, body: &str) -> Result<Upload, ApiError> {
    let mut headers = HeaderMap::new();
    headers.insert("content-type", "application/json".parse().unwrap());
    parse_upload(
        endpoint,
        &readable(),
        &headers,
        body.as_bytes().to_vec(),
        &SourceQuery::default(),
    )
}

fn refused(endpoint: Endpoint, body: &str) -> ApiError {
    match upload(endpoint, body) {
        Ok(_) => panic!("{body} was taken"),
        Err(e) => e,
    }
}

fn field(e: &ApiError) -> Option<&str> {
    e.extra.get("field").and_then(|v| v.as_str())
}

#[test]
fn one_named_source_becomes_a_file_of_its_media_type() {
    let up = upload(
        PDFS,
        r##"{"markdown": "# Hi", "title": "T", "mode": "image"}"##,
    )
    .unwrap();
    match up.source {
        Source::File { bytes, media_type } => {
            assert_eq!(bytes, b"# Hi");
            assert_eq!(media_type, "text/markdown");
        }
        Source::Model(_) => panic!("not a model"),
    }
    assert_eq!(up.title.as_deref(), Some("T"));
    assert_eq!(up.options, vec![("mode".to_string(), "image".to_string())]);
}

#[test]
fn the_generic_file_needs_its_type_and_base64() {
    let up = upload(PDFS, r#"{"file": "YSxi", "type": "text/csv"}"#).unwrap();
    assert!(
        matches!(up.source, Source::File { ref bytes, ref media_type } if bytes == b"a,b" && media_type == "text/csv")
    );
    let e = refused(PDFS, r#"{"file": "YSxi"}"#);
    assert_eq!(field(&e), Some("type"));
    let e = refused(PDFS, r#"{"pdf": "not base64!"}"#);
    assert_eq!(e.status, StatusCode::BAD_REQUEST);
    assert_eq!(field(&e), Some("pdf"));
    assert!(e.detail.contains("base64"), "{}", e.detail);
}

#[test]
fn exactly_one_source_of_the_endpoints_kind() {
    let e = refused(PDFS, r#"{"title": "no source"}"#);
    assert!(
        e.detail.starts_with("no source field was sent"),
        "{}",
        e.detail
    );
    let e = refused(PDFS, r#"{"markdown": "a", "html": "b"}"#);
    assert!(e.detail.contains("markdown and html"), "{}", e.detail);
    let e = refused(PDFS, r#"{"mermaid": "graph TD; a-->b"}"#);
    assert!(
        e.detail.contains("not a source of this endpoint"),
        "{}",
        e.detail
    );
    assert_eq!(field(&e), Some("mermaid"));
    // Null stands for absent.
    assert!(upload(DIAGRAMS, r#"{"mermaid": "graph TD; a-->b", "model": null}"#).is_ok());
}

#[test]
fn members_of_another_endpoint_or_none_are_named() {
    let e = refused(
        DIAGRAMS,
        r#"{"mermaid": "graph TD; a-->b", "mode": "image"}"#,
    );
    assert_eq!(field(&e), Some("mode"));
    let e = refused(PDFS, r#"{"markdown": "a", "fields": []}"#);
    assert_eq!(field(&e), Some("fields"));
    let e = refused(PDFS, r#"{"markdown": "a", "colour": "red"}"#);
    assert_eq!(field(&e), Some("colour"));
    assert!(
        e.detail.contains("not a member this endpoint reads"),
        "{}",
        e.detail
    );
    let e = refused(PDFS, r#"{"markdown": 5}"#);
    assert_eq!(field(&e), Some("markdown"));
    assert!(
        e.detail
            .starts_with("`markdown` must be a string, not integer `5`"),
        "{}",
        e.detail
    );
    let e = refused(PDFS, r#"{"markdown": "a", "unlock": "yes"}"#);
    assert_eq!(field(&e), Some("unlock"));
}

#[test]
fn a_forms_fields_are_bounded_while_read() {
    let one = r#"{"key": "k", "x": 1, "y": 1, "w": 10, "h": 10}"#;
    let many = vec![one; MAX_FIELDS + 1].join(",");
    let e = refused(
        FORMS,
        &format!(r#"{{"markdown": "a", "fields": [{many}]}}"#),
    );
    assert_eq!(field(&e), Some("fields"));
    assert!(e.detail.contains("more than 500"), "{}", e.detail);
    let up = upload(
        FORMS,
        &format!(r#"{{"markdown": "a", "fields": [{one}], "detect": true}}"#),
    )
    .unwrap();
    assert_eq!(up.fields.map(|f| f.len()), Some(1));
    assert_eq!(up.detect, Some(true));
}

#[test]
fn a_model_source_is_read_into_a_document() {
    let e = refused(PDFS, r#"{"model": [1, 2]}"#);
    assert_eq!(field(&e), Some("model"));
    let e = refused(PDFS, r#"{"model": {"pages": "many"}}"#);
    assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[test]
fn a_password_in_the_query_string_is_refused() {
    let q: SourceQuery = crate::api::queries::parse("password=secret").unwrap();
    let mut headers = HeaderMap::new();
    headers.insert("content-type", "text/markdown".parse().unwrap());
    let e = match parse_upload(PDFS, &readable(), &headers, b"# a".to_vec(), &q) {
        Ok(_) => panic!("taken"),
        Err(e) => e,
    };
    assert!(
        e.detail.contains("password in the query string"),
        "{}",
        e.detail
    );
}

/// `present` names every member of the type: a member added to `SourceBody` without it
/// would be taken at every endpoint unchecked.
#[test]
fn every_member_is_seen_when_given() {
    let schema = schemars::schema_for!(SourceBody);
    let mut declared: Vec<&str> = schema.as_value()["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let every = SourceBody {
        markdown: Some(String::new()),
        html: Some(String::new()),
        image: Some(Base64::default()),
        pdf: Some(Base64::default()),
        mermaid: Some(String::new()),
        svg: Some(String::new()),
        drawio: Some(String::new()),
        vsdx: Some(Base64::default()),
        model: Some(ModelJson(RawValue::from_string("{}".into()).unwrap())),
        file: Some(Base64::default()),
        media_type: Some(Short(String::new())),
        title: Some(Short(String::new())),
        mode: Some(ImportMode::Image),
        unlock: Some(Unlock::One),
        password: Some(Short(String::new())),
        images: Some(BTreeMap::new()),
        fields: Some(AtMost(Vec::new())),
        detect: Some(true),
    };
    let mut seen = every.present();
    declared.sort();
    seen.sort();
    assert_eq!(declared, seen);
    // ...and every endpoint's members are members of the type.
    for endpoint in [PDFS, DIAGRAMS, FORMS] {
        for m in endpoint.members() {
            assert!(declared.contains(&m), "{m}");
        }
    }
}

#[test]
fn free_text_beside_the_source_is_bounded() {
    let long = |n: usize| "x".repeat(n);
    let e = refused(
        PDFS,
        &format!(r#"{{"markdown": "a", "title": "{}"}}"#, long(501)),
    );
    assert_eq!(field(&e), Some("title"));
    assert!(
        e.detail.starts_with("`title` is 501 characters long"),
        "{}",
        e.detail
    );
    assert!(upload(
        PDFS,
        &format!(r#"{{"markdown": "a", "title": "{}"}}"#, long(500))
    )
    .is_ok());
    let e = refused(
        PDFS,
        &format!(r#"{{"file": "YSxi", "type": "{}"}}"#, long(257)),
    );
    assert_eq!(field(&e), Some("type"));
    let e = refused(
        PDFS,
        &format!(r#"{{"markdown": "a", "password": "{}"}}"#, long(1025)),
    );
    assert_eq!(field(&e), Some("password"));

    let q: Result<SourceQuery, _> = crate::api::queries::parse(&format!("title={}", long(501)));
    assert_eq!(q.map(|_| ()).unwrap_err().status, StatusCode::BAD_REQUEST);
    let mut headers = HeaderMap::new();
    headers.insert("content-type", "text/markdown".parse().unwrap());
    headers.insert("x-doc-password", long(1025).parse().unwrap());
    let e = match parse_upload(
        PDFS,
        &readable(),
        &headers,
        b"# a".to_vec(),
        &SourceQuery::default(),
    ) {
        Ok(_) => panic!("taken"),
        Err(e) => e,
    };
    assert_eq!(field(&e), Some("X-Doc-Password"));
}
