//! The JSON bodies of the small endpoints as types: the handlers read them with serde, and
//! the OpenAPI document shows the schemas derived from these same types, so what the
//! document admits and what the server takes cannot drift apart. Rules that depend on the
//! form or document named in the path (a page number, a box inside its page, an answer
//! to one of its questions) are checked after reading, and refused with 400 naming the member.

use axum::extract::Request;
use axum::http::StatusCode;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::body;
use super::error::ApiError;
use crate::accounts::Principal;
use crate::app::App;
use crate::forms::fields::PlacedField;

/// Largest JSON body of the small form endpoints (fields, answers, settings).
pub const SMALL_BODY: u64 = 8 << 20;

/// PATCH /forms/{id}: the settings to change; members left out stay as they are.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormSettings {
    /// Whether the form takes answers.
    pub open: Option<bool>,
    /// Whether one address may answer more than once.
    pub multiple: Option<bool>,
    /// Whether the owner gets an email on each answer.
    pub notify: Option<bool>,
    /// What a respondent reads after sending.
    #[schemars(length(max = 5000))]
    pub confirm: Option<String>,
}

/// PUT /forms/{id}/fields: the boxes to place.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceFields {
    #[schemars(length(max = 500))]
    pub fields: Vec<PlacedField>,
    /// `true` appends to the fields already placed instead of replacing them.
    pub keep: Option<bool>,
}

/// POST /forms/{id}/responses: answers keyed by the form's field keys.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Answers {
    pub answers: Map<String, Value>,
    /// Who answers (an address); what `multiple: false` keys on. Not verified.
    #[serde(rename = "as")]
    #[schemars(length(max = 320))]
    pub from: Option<String>,
}

/// POST /forms/{id}/shares: the address to invite.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invitation {
    #[schemars(email, length(max = 320))]
    pub email: String,
    /// How the form is shared; `fill` is the only way, so reading it is the whole check.
    #[allow(dead_code)]
    pub mode: Option<ShareMode>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShareMode {
    Fill,
}

/// Reads a small JSON body into `T`. A refusal names the member at fault (`field`) and
/// says what the endpoint takes.
pub async fn read_json<T: DeserializeOwned>(
    app: &App,
    p: &Principal,
    req: Request,
    takes: &str,
) -> Result<T, ApiError> {
    let (parts, b) = req.into_parts();
    let (bytes, _held) =
        body::read_limited(app, &parts.headers, b, SMALL_BODY, &p.account.plan.name).await?;
    parse_json(&bytes, takes)
}

/// [`read_json`] on bytes already read.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8], takes: &str) -> Result<T, ApiError> {
    if body::json_values_at_most(bytes) > body::MAX_JSON_VALUES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the body holds more than {} JSON values; it takes {takes}",
                body::MAX_JSON_VALUES
            ),
        )
        .with("limit", body::MAX_JSON_VALUES as u64));
    }
    if !body::opens_object(bytes) {
        return Err(ApiError::bad_request(format!(
            "the body must be a JSON object: {takes}"
        )));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = crate::error::json_error_path(&e, "");
        if at.is_empty() {
            ApiError::bad_request(format!("{}; this endpoint takes {takes}", e.inner()))
        } else {
            ApiError::bad_request(format!(
                "`{at}`: {}; this endpoint takes {takes}",
                e.inner()
            ))
            .with("field", at)
        }
    })?;
    de.end().map_err(|e| {
        ApiError::bad_request(format!("the body goes on after its JSON object ({e})"))
    })?;
    Ok(value)
}
