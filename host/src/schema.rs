//! The published JSON Schema of the document model (`quire schema`, `GET /api/v1/model.schema.json`).

pub fn model_schema() -> String {
    let schema = schemars::schema_for!(quire_sdk::Document);
    serde_json::to_string_pretty(&schema).unwrap_or_default()
}
