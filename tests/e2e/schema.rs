//! The published JSON Schema of the model (docs/model.schema.json) is the one the host
//! generates, and real models validate against its shape.

#[test]
fn the_published_schema_is_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("schema")
        .output()
        .unwrap();
    assert!(out.status.success());
    let generated: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let path = crate::common::repo_root().join("docs/model.schema.json");
    let published: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(generated, published, "docs/model.schema.json is stale: run `target/release/quire schema > docs/model.schema.json`");
    // It describes the parts a plugin author needs.
    let text = published.to_string();
    for name in [
        "Document",
        "Page",
        "Shape",
        "Connector",
        "Field",
        "FieldType",
        "Geometry",
    ] {
        assert!(text.contains(name), "{name} missing from the schema");
    }
}
