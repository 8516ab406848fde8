//! Query strings as types: each operation's parameters are one struct, read by [`Params`]
//! (a 400 that names the parameter at fault) and described in the OpenAPI document from the
//! same struct's JSON Schema (the route table names the type), so the bounds a client is
//! told are the bounds the server holds it to. Parameters an operation does not read are
//! ignored, as caches and browsers add their own.

use std::fmt;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;

/// The query string read into `T`.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parse(parts.uri.query().unwrap_or("")).map(Params)
    }
}

/// Reads a query string (without its `?`) into `T`.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let name = e.path().to_string();
        let inner = e.inner().to_string();
        if name.is_empty() || name == "." {
            ApiError::bad_request(format!("the query string: {inner}"))
        } else {
            ApiError::bad_request(format!("`{name}` {inner}")).with("field", name)
        }
    })
}

/// A whole number from `MIN` to `MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounded<const MIN: i64, const MAX: i64>(pub i64);

impl<'de, const MIN: i64, const MAX: i64> Deserialize<'de> for Bounded<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Number<const MIN: i64, const MAX: i64>;
        impl<const MIN: i64, const MAX: i64> Number<MIN, MAX> {
            fn check<E: de::Error>(n: Option<i64>) -> Result<Bounded<MIN, MAX>, E> {
                match n {
                    Some(n) if (MIN..=MAX).contains(&n) => Ok(Bounded(n)),
                    _ => Err(E::custom(format!(
                        "must be a whole number from {MIN} to {MAX}"
                    ))),
                }
            }
        }
        impl<'de, const MIN: i64, const MAX: i64> Visitor<'de> for Number<MIN, MAX> {
            type Value = Bounded<MIN, MAX>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a whole number from {MIN} to {MAX}")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Self::check(v.parse().ok())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Self::check(Some(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Self::check(i64::try_from(v).ok())
            }
        }
        d.deserialize_str(Number::<MIN, MAX>)
    }
}

impl<const MIN: i64, const MAX: i64> JsonSchema for Bounded<MIN, MAX> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Bounded_{MIN}_{MAX}").into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "integer", "minimum": MIN, "maximum": MAX})
    }
}

/// A yes-or-no parameter, written `1`, `0`, `true` or `false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

const FLAG_VALUES: [&str; 4] = ["1", "0", "true", "false"];

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "1" | "true" => Ok(Flag(true)),
            "0" | "false" => Ok(Flag(false)),
            _ => Err(de::Error::custom(format!(
                "is 1 or 0 (or true or false), not `{text}`"
            ))),
        }
    }
}

impl JsonSchema for Flag {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Flag".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"type": "string", "enum": FLAG_VALUES})
    }
}

impl Flag {
    pub fn is_set(flag: Option<Flag>) -> bool {
        flag.is_some_and(|f| f.0)
    }
}

/// Any offset into a list.
pub type Offset = Bounded<0, { i64::MAX }>;
/// A page of a document, from 1 (whether the document has it is checked after reading).
pub type PageNumber = Bounded<1, { u32::MAX as i64 }>;

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum KindFilter {
    #[serde(rename = "pdf")]
    Paged,
    Diagram,
}

/// GET /api/v1/documents.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DocumentList {
    /// Only documents of this kind.
    pub kind: Option<KindFilter>,
    /// How many to list (50 when absent).
    pub limit: Option<Bounded<0, 200>>,
    /// How many to skip.
    pub offset: Option<Offset>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Include {
    Model,
}

/// GET /api/v1/documents/{id} (the `{id}.{format}` downloads read [`Download`]).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DocumentRead {
    /// `model` adds the document model as `data`.
    pub include: Option<Include>,
}

/// GET /api/v1/documents/{id}.{format}.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct Download {
    /// One page only (a page the document has).
    pub page: Option<PageNumber>,
    /// Resolution of a picture download (110 when absent).
    pub dpi: Option<Bounded<1, 200>>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FormState {
    Open,
    Closed,
}

/// GET /api/v1/forms.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct FormList {
    /// Only open or only closed forms.
    pub state: Option<FormState>,
    /// How many to list (50 when absent).
    pub limit: Option<Bounded<1, 200>>,
    /// How many to skip.
    pub offset: Option<Offset>,
}

/// GET /api/v1/forms/{id}/responses.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ResponseList {
    /// How many to list (200 when absent).
    pub limit: Option<Bounded<0, 1000>>,
    /// How many to skip.
    pub offset: Option<Offset>,
}

/// GET /api/v1/forms/{id}/suggest (and the editor's preview of one page).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct OnePage {
    /// This page only (a page the document has).
    pub page: Option<PageNumber>,
}

/// DELETE /api/v1/forms/{id}/responses/{rid}.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ResponseDelete {
    /// Keep the filled copy instead of binning it.
    #[serde(rename = "keepDocument")]
    pub keep_document: Option<Flag>,
}

/// DELETE /api/v1/forms/{id}/shares.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ShareRemove {
    /// The invitation to withdraw.
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub email: String,
}

/// The OpenAPI query parameters of `T`: one per property of its schema, required where the
/// schema requires it, with the property's own schema (references resolved, `null`
/// dropped: a query parameter is absent, never null) and description.
pub fn describe<T: JsonSchema>() -> Vec<Value> {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let root = schema.as_value();
    let defs = root.get("$defs").cloned().unwrap_or(Value::Null);
    let required: Vec<&str> = root["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = root["properties"].as_object() else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let mut schema = not_null(resolve(property, &defs), &defs);
            let description = schema
                .as_object_mut()
                .and_then(|o| o.remove("description"))
                .or_else(|| property.get("description").cloned())
                .unwrap_or(Value::String(String::new()));
            json!({
                "name": name,
                "in": "query",
                "required": required.contains(&name.as_str()),
                "schema": schema,
                "description": description,
            })
        })
        .collect()
}

/// `schema` with a `$ref` into `$defs` replaced by what it names (its own keys kept).
fn resolve(schema: &Value, defs: &Value) -> Value {
    let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
        return schema.clone();
    };
    let name = reference.rsplit('/').next().unwrap_or("");
    let mut out = defs.get(name).cloned().unwrap_or(json!({}));
    if let (Some(out), Some(own)) = (out.as_object_mut(), schema.as_object()) {
        for (k, v) in own {
            if k != "$ref" {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// `schema` without its `null` alternative (`Option<T>` in serde terms).
pub(super) fn not_null(mut schema: Value, defs: &Value) -> Value {
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array).cloned() {
        let kept: Vec<Value> = branches
            .into_iter()
            .filter(|b| b.get("type") != Some(&json!("null")))
            .map(|b| resolve(&b, defs))
            .collect();
        if kept.len() == 1 {
            let mut only = kept.into_iter().next().unwrap_or_default();
            if let (Some(only), Some(outer)) = (only.as_object_mut(), schema.as_object()) {
                for (k, v) in outer {
                    if k != "anyOf" {
                        only.insert(k.clone(), v.clone());
                    }
                }
            }
            return only;
        }
    }
    if let Some(types) = schema.get_mut("type").and_then(Value::as_array_mut) {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            schema["type"] = only;
        }
    }
    if let Some(values) = schema.get_mut("enum").and_then(Value::as_array_mut) {
        values.retain(|v| !v.is_null());
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_names_come_back_in_the_refusal() {
        let e = parse::<DocumentList>("limit=201").unwrap_err();
        assert_eq!(e.detail, "`limit` must be a whole number from 0 to 200");
        let e = parse::<DocumentList>("offset=-1").unwrap_err();
        assert!(e.detail.starts_with("`offset` must be"), "{}", e.detail);
        let e = parse::<DocumentList>("kind=poster").unwrap_err();
        assert!(
            e.detail.starts_with("`kind` unknown variant"),
            "{}",
            e.detail
        );
        let ok = parse::<DocumentList>("kind=pdf&limit=0&cache=1").unwrap();
        assert_eq!(ok.limit, Some(Bounded(0)));
        assert!(matches!(ok.kind, Some(KindFilter::Paged)));
        assert!(Flag::is_set(
            parse::<ResponseDelete>("keepDocument=true")
                .unwrap()
                .keep_document
        ));
        assert!(!Flag::is_set(
            parse::<ResponseDelete>("keepDocument=0")
                .unwrap()
                .keep_document
        ));
        let e = parse::<ResponseDelete>("keepDocument=yes").unwrap_err();
        assert_eq!(
            e.detail,
            "`keepDocument` is 1 or 0 (or true or false), not `yes`"
        );
        assert!(parse::<ShareRemove>("").is_err(), "email is required");
    }

    #[test]
    fn parameters_are_described_from_the_types() {
        let params = describe::<DocumentList>();
        let names: Vec<&str> = params.iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["kind", "limit", "offset"]);
        assert_eq!(
            params[1]["schema"],
            json!({"type": "integer", "minimum": 0, "maximum": 200})
        );
        assert_eq!(params[0]["schema"]["enum"], json!(["pdf", "diagram"]));
        assert_eq!(params[0]["required"], false);
        let flag = &describe::<ResponseDelete>()[0];
        assert_eq!(flag["name"], "keepDocument");
        assert_eq!(
            flag["schema"],
            json!({"type": "string", "enum": ["1", "0", "true", "false"]})
        );
        let email = &describe::<ShareRemove>()[0];
        assert_eq!(email["required"], true);
        assert_eq!(email["schema"]["minLength"], 1);
    }
}
