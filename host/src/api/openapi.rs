//! The OpenAPI 3.1 document, generated from a route table (the API's is `routes::ROUTES`,
//! handed in): the JSON bodies' schemas are derived from the types the handlers read them into
//! (`api::requests`), the formats from the active converters, and links tell a client
//! (or schemathesis) which answer gives the id another operation takes.

use schemars::generate::SchemaSettings;
use serde_json::{json, Map, Value};

use super::contract::{Route, Takes};
use super::formats::Formats;
use super::multipart::TEXT_PARTS;
use super::queries;
use super::upload::{self, Endpoint};
use super::urls::Urls;
use crate::accounts;
use quire_sdk::Kind;

/// Every status an operation may answer besides its success, and why. 405 is left out: it
/// is a path's answer to a method it lacks, not an operation's.
const REFUSALS: &[(&str, &str)] = &[
    ("400", "request not understood"),
    ("401", "no, expired or revoked token"),
    ("402", "the plan does not include this"),
    ("403", "the token's scopes do not cover the call"),
    ("404", "no such document or route"),
    ("408", "the request body paused too long"),
    ("409", "version conflict or locked PDF"),
    ("413", "file larger than the plan allows"),
    ("415", "file type cannot be read"),
    (
        "422",
        "file readable but damaged, an undrawable mermaid type, or a PDF that needs a password",
    ),
    ("429", "daily allowance spent"),
    (
        "503",
        "busy or a dependency is down; retry after Retry-After seconds",
    ),
    ("507", "storage quota exceeded"),
];

/// The document of the operations in `routes`.
pub fn document(base: &str, formats: &Formats, routes: &[Route]) -> Value {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
        })
        .into_generator();
    let mut paths = Map::new();
    for route in routes {
        let op = operation(route, routes, formats, &mut generator);
        let entry = paths
            .entry(route.path.to_string())
            .or_insert_with(|| json!({}));
        entry[route.method.to_lowercase()] = op;
    }
    let mut schemas = generator.take_definitions(true);
    schemas.insert(
        "Model".into(),
        json!({"type": "object", "description": format!("the document model; its JSON Schema is {}", Urls(base).model_schema())}),
    );
    schemas.insert(
        "Error".into(),
        json!({"type": "object", "required": ["ok", "detail"], "properties": {
            "ok": {"const": false}, "detail": {"type": "string"}
        }}),
    );
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Quire API", "version": "1"},
        "servers": [{"url": base}],
        "paths": paths,
        "components": {
            "securitySchemes": {"oauth2": {"type": "oauth2", "flows": {"clientCredentials": {
                "tokenUrl": Urls(base).token_endpoint(),
                "scopes": {accounts::READ: "read documents, forms, responses and usage", accounts::WRITE: "create, replace, delete"}
            }}}},
            "schemas": schemas,
        }
    })
}

/// `post /api/v1/forms/{id}/fields` -> `post_forms_id_fields`.
pub fn operation_id(method: &str, path: &str) -> String {
    let rest: Vec<String> = path
        .trim_start_matches("/api/v1")
        .split(['/', '.'])
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_matches(['{', '}']).to_string())
        .collect();
    if rest.is_empty() {
        format!("{}_api", method.to_lowercase())
    } else {
        format!("{}_{}", method.to_lowercase(), rest.join("_"))
    }
}

fn operation(
    route: &Route,
    routes: &[Route],
    formats: &Formats,
    generator: &mut schemars::SchemaGenerator,
) -> Value {
    let scope = if route.method == "GET" {
        accounts::READ
    } else {
        accounts::WRITE
    };
    let mut op = Map::new();
    op.insert(
        "operationId".into(),
        json!(operation_id(route.method, route.path)),
    );
    op.insert("summary".into(), json!(route.summary));
    op.insert("security".into(), json!([{"oauth2": [scope]}]));
    op.insert(
        "parameters".into(),
        Value::Array(parameters(route, formats)),
    );
    match route.takes {
        Takes::Nothing => {}
        Takes::Source(endpoint) => {
            op.insert(
                "requestBody".into(),
                source_body(endpoint, formats, generator),
            );
        }
        Takes::Json(schema) => {
            op.insert(
                "requestBody".into(),
                json!({"required": true, "content": {"application/json": {"schema": schema(generator)}}}),
            );
        }
    }
    let mut responses = Map::new();
    let mut success = success_response(route, formats, generator);
    if let Some(links) = links(route, routes) {
        success["links"] = links;
    }
    responses.insert(route.status.to_string(), success);
    for (code, why) in REFUSALS {
        responses.insert(
            code.to_string(),
            json!({"description": why, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}),
        );
    }
    if route.method != "GET"
        && routes
            .iter()
            .any(|r| r.path == format!("{}.{{format}}", route.path))
    {
        // `{id}.{format}` shares the `{id}` segment and is read only.
        responses.insert(
            "405".into(),
            json!({"description": "a download path (`{id}.{format}`) takes GET only", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}),
        );
    }
    op.insert("responses".into(), Value::Object(responses));
    Value::Object(op)
}

fn success_response(
    route: &Route,
    formats: &Formats,
    generator: &mut schemars::SchemaGenerator,
) -> Value {
    if let Some(schema) = route.gives {
        let description = if route.status == 201 {
            "created"
        } else {
            "success"
        };
        json!({"description": description, "content": {"application/json": {"schema": schema(generator)}}})
    } else if route.path.ends_with("{format}") {
        let mut content = Map::new();
        for (_, media_type) in &formats.servable {
            // The model (`.json`) is an object; every other download is a file.
            let schema = if media_type == "application/json" {
                json!({"$ref": "#/components/schemas/Model"})
            } else {
                json!({"type": "string", "format": "binary"})
            };
            content.insert(media_type.clone(), json!({"schema": schema}));
        }
        json!({"description": "the document in that format", "content": content})
    } else if route.path.ends_with(".csv") {
        json!({"description": "every response, one row each", "content": {"text/csv": {"schema": {"type": "string"}}}})
    } else if route.path.ends_with("model.schema.json") {
        json!({"description": "the model's JSON Schema", "content": {"application/schema+json": {"schema": {"type": "object"}}}})
    } else {
        // The one JSON answer without a type: this document (see the routes' tests).
        json!({"description": "this document", "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "paths"]}}}})
    }
}

/// Path, query and header parameters of one operation.
fn parameters(route: &Route, formats: &Formats) -> Vec<Value> {
    let string = json!({"type": "string", "pattern": "^[^./]+$"});
    let mut out = Vec::new();
    for name in ["id", "rid"] {
        if route.path.contains(&format!("{{{name}}}")) {
            out.push(json!({"name": name, "in": "path", "required": true, "schema": string}));
        }
    }
    if route.path.contains("{format}") {
        let extensions: Vec<&str> = formats.servable.iter().map(|(e, _)| e.as_str()).collect();
        out.push(json!({"name": "format", "in": "path", "required": true,
            "schema": {"type": "string", "enum": extensions}}));
    }
    if let Some(query) = route.query {
        out.extend(query());
    }
    if matches!(route.takes, Takes::Source(_)) {
        out.push(
            json!({"name": "X-Doc-Password", "in": "header", "required": false,
            "schema": {"type": "string", "maxLength": upload::MAX_PASSWORD_CHARS}, "description": "the password of a PDF that needs one"}),
        );
    }
    if matches!(route.method, "PUT") {
        out.push(json!({"name": "If-Match", "in": "header", "required": false,
            "schema": {"type": "string", "pattern": "^(\\*|(W/)?\"?[0-9]{1,15}\"?)$"},
            "description": "the version the change is based on (the ETag of a read); a newer one answers 409"}));
    }
    out
}

/// A create or replace: JSON with exactly one source field, multipart with one file part,
/// or the file itself under its media type. Both object schemas are derived from
/// `upload::SourceBody`: a text part is described as the JSON member of its name.
fn source_body(
    endpoint: Endpoint,
    formats: &Formats,
    generator: &mut schemars::SchemaGenerator,
) -> Value {
    let json_schema = upload::json_schema(endpoint, generator);
    let member = |name: &str| json_schema["properties"][name].clone();
    let defined = Value::Object(generator.definitions().clone());
    let binary = json!({"type": "string", "format": "binary"});
    // One file part, `file`. (A part named `model` or after a source is read the same way,
    // but a schema cannot say "exactly one of these parts" in a form generators follow.)
    let mut parts = Map::new();
    parts.insert("file".into(), binary.clone());
    let members = endpoint.members();
    for (name, max) in TEXT_PARTS {
        if members.contains(name) {
            // A part is text or missing: the `null` a JSON member may be is no part's.
            let mut schema = queries::not_null(member(name), &defined);
            if schema.get("enum").is_none() {
                schema["maxLength"] = json!(max);
            }
            parts.insert(name.to_string(), schema);
        }
    }
    if endpoint.kind == Kind::Paged {
        parts.insert("images".into(), json!({"type": "array", "items": binary}));
    }
    let mut encoding = Map::new();
    if endpoint.form {
        parts.insert("fields".into(), member("fields"));
        encoding.insert("fields".into(), json!({"contentType": "application/json"}));
        parts.insert(
            "detect".into(),
            json!({"type": "string", "enum": ["true", "false"]}),
        );
    }
    let multipart = json!({
        "type": "object",
        "properties": parts,
        "required": ["file"],
        "additionalProperties": false,
        "description": "one file part: `file`, its media type from a `type` part, its Content-Type or its file name"
    });

    let mut content = Map::new();
    content.insert("application/json".into(), json!({"schema": json_schema}));
    content.insert(
        "multipart/form-data".into(),
        json!({"schema": multipart, "encoding": encoding}),
    );
    for media_type in formats.readable_types() {
        content.insert(
            media_type.to_string(),
            json!({"schema": {"type": "string", "format": "binary"}}),
        );
    }
    json!({"required": true, "content": content})
}

/// Which operations take the id this one's answer gives, and where in the answer it is.
fn links(route: &Route, routes: &[Route]) -> Option<Value> {
    let (id_at, targets): (&str, Vec<&str>) = match (route.method, route.path) {
        ("POST", "/api/v1/pdfs") | ("POST", "/api/v1/diagrams") => (
            "$response.body#/document/id",
            vec!["/api/v1/documents/", route.path],
        ),
        // A form's links leave out binning its document: that ends the form too, which a
        // client following links cannot tell from the form's own operations.
        ("POST", "/api/v1/forms") => (
            "$response.body#/form/id",
            vec!["/api/v1/documents/", "/api/v1/forms/"],
        ),
        ("POST", "/api/v1/forms/{id}/responses") => {
            let mut links = Map::new();
            for target in routes
                .iter()
                .filter(|r| r.path == "/api/v1/forms/{id}/responses/{rid}")
            {
                links.insert(
                    operation_id(target.method, target.path),
                    json!({"operationId": operation_id(target.method, target.path),
                        "parameters": {"id": "$request.path.id", "rid": "$response.body#/response/id"}}),
                );
            }
            return Some(Value::Object(links));
        }
        _ => return None,
    };
    let mut links = Map::new();
    for target in routes.iter().filter(|r| {
        r.path.contains("{id}")
            && !r.path.contains("{rid}")
            && targets
                .iter()
                .any(|t| r.path.starts_with(t.trim_end_matches('/')))
            && !(route.path == "/api/v1/forms"
                && r.method == "DELETE"
                && r.path == "/api/v1/documents/{id}")
    }) {
        links.insert(
            operation_id(target.method, target.path),
            json!({"operationId": operation_id(target.method, target.path),
                "parameters": {"id": id_at}}),
        );
    }
    Some(Value::Object(links))
}
