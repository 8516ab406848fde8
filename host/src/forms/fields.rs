//! Reading placed fields from a request, checking them against the document they go on,
//! and the schema (one entry per question) the API shows.

use quire_sdk::{Document, Field, FieldType, Rect};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Error, Result};

/// Most boxes one PUT /fields may place.
pub const MAX_FIELDS: usize = 500;
/// Boxes one document may carry in all: a `model` source or repeated placements with
/// `keep: true` add up past one request's [`MAX_FIELDS`].
pub const MAX_FORM_FIELDS: usize = 5_000;
/// Columns a form's CSV may grow to across its versions (keys are never dropped).
pub const MAX_COLUMNS: usize = 10_000;
const MAX_KEY_LEN: usize = 200;
const MAX_LABEL_LEN: usize = 2000;
const MAX_OPTIONS: usize = 500;

/// One box on a page: a question, where it sits (points from the top left of the page),
/// and the answers a choosing type offers. Boxes sharing a key are one question.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlacedField {
    #[schemars(length(min = 1, max = MAX_KEY_LEN), regex(pattern = r"\S"))]
    pub key: String,
    /// `text` when left out.
    #[serde(rename = "type")]
    pub field_type: Option<FieldType>,
    #[schemars(length(max = MAX_LABEL_LEN))]
    pub label: Option<String>,
    pub required: Option<bool>,
    /// 1 when left out; at most the document's page count.
    #[schemars(range(min = 1, max = 4294967295u32))]
    #[serde(default, deserialize_with = "whole_number")]
    pub page: Option<u32>,
    pub x: f64,
    pub y: f64,
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub w: f64,
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub h: f64,
    /// The answers a radio, select or list field offers (required for those, refused for
    /// the others).
    #[schemars(length(min = 1, max = MAX_OPTIONS), inner(length(min = 1)), extend("uniqueItems" = true))]
    pub options: Option<Vec<String>>,
}

/// A page number as JSON Schema's `integer` reads it: `3` and `3.0` alike.
fn whole_number<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<u32>, D::Error> {
    let Some(n) = Option::<f64>::deserialize(d)? else {
        return Ok(None);
    };
    if n.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&n) {
        return Err(serde::de::Error::custom(format!(
            "{n} is not a page number (a whole number from 1)"
        )));
    }
    Ok(Some(n as u32))
}

fn invalid(field: String, detail: impl Into<String>) -> Error {
    Error::InvalidField {
        field,
        detail: detail.into(),
    }
}

pub fn parse_type(s: &str) -> Option<FieldType> {
    FieldType::ALL.into_iter().find(|t| t.as_str() == s)
}

/// Checks boxes read from a request against `document`: the rules the request's schema
/// states, then the ones that depend on the document (its pages) and on the other boxes.
pub fn place(placed: Vec<PlacedField>, document: &Document) -> Result<Vec<Field>> {
    if placed.len() > MAX_FIELDS {
        return Err(invalid(
            "fields".into(),
            format!(
                "has {} items; at most {MAX_FIELDS} fields are placed per request",
                placed.len()
            ),
        ));
    }
    let fields = placed
        .into_iter()
        .enumerate()
        .map(|(i, item)| place_one(item, &format!("fields[{i}]"), document))
        .collect::<Result<Vec<_>>>()?;
    check_questions(&fields, "fields")?;
    Ok(fields)
}

fn unfit(field: String, detail: impl Into<String>) -> Error {
    Error::Unfit {
        field,
        detail: detail.into(),
    }
}

fn place_one(item: PlacedField, at: &str, document: &Document) -> Result<Field> {
    let PlacedField {
        key,
        field_type,
        label,
        required,
        page,
        x,
        y,
        w,
        h,
        options,
    } = item;
    if key.trim().is_empty() {
        return Err(invalid(
            format!("{at}.key"),
            "is required and must not be empty",
        ));
    }
    if key.chars().count() > MAX_KEY_LEN {
        return Err(invalid(
            format!("{at}.key"),
            format!("is longer than {MAX_KEY_LEN} characters"),
        ));
    }
    let field_type = field_type.unwrap_or(FieldType::Text);
    let label = label.unwrap_or_default();
    if label.chars().count() > MAX_LABEL_LEN {
        return Err(invalid(
            format!("{at}.label"),
            format!("is longer than {MAX_LABEL_LEN} characters"),
        ));
    }
    let page_count = document.pages.len();
    let page = page.unwrap_or(1);
    if page == 0 {
        return Err(invalid(
            format!("{at}.page"),
            "must be 1 or more (pages count from 1)",
        ));
    }
    if page as usize > page_count {
        return Err(unfit(
            format!("{at}.page"),
            format!("is {page} but the document has {page_count} page(s) (pages count from 1)"),
        ));
    }
    let frame = Rect { x, y, w, h };
    if ![x, y, w, h].iter().all(|v| v.is_finite()) {
        return Err(invalid(at.into(), "x, y, w and h must be finite numbers"));
    }
    if frame.w <= 0.0 || frame.h <= 0.0 {
        return Err(invalid(
            at.into(),
            "w and h must be greater than zero".to_string(),
        ));
    }
    let p = &document.pages[page as usize - 1];
    if !quire_sdk::validate::field_fits_page(&frame, p.width, p.height) {
        return Err(unfit(
            at.into(),
            format!(
                "({}, {}, {} x {}) lies outside page {page}, which is {} x {} points (x, y from the top left)",
                frame.x, frame.y, frame.w, frame.h, p.width, p.height
            ),
        ));
    }
    if options.as_ref().is_some_and(Vec::is_empty) {
        return Err(invalid(
            format!("{at}.options"),
            "is empty; leave it out, or list the answers a radio, select or list field offers",
        ));
    }
    let options = options.unwrap_or_default();
    if options.iter().any(|o| o.is_empty()) {
        return Err(invalid(
            format!("{at}.options"),
            "must be an array of non-empty strings",
        ));
    }
    if options.len() > MAX_OPTIONS {
        return Err(invalid(
            format!("{at}.options"),
            format!("has more than {MAX_OPTIONS} entries"),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = options.iter().find(|o| !seen.insert(o.as_str())) {
        return Err(invalid(
            format!("{at}.options"),
            format!("offers `{dup}` twice"),
        ));
    }
    if field_type.chooses() && options.is_empty() {
        return Err(unfit(
            format!("{at}.options"),
            format!(
                "a {} field needs options: an array of the answers it offers",
                field_type.as_str()
            ),
        ));
    }
    if !field_type.chooses() && !options.is_empty() {
        return Err(unfit(
            format!("{at}.options"),
            format!(
                "only radio, select and list fields take options, not {}",
                field_type.as_str()
            ),
        ));
    }
    Ok(Field {
        key,
        field_type,
        label,
        required: required.unwrap_or(false),
        page,
        frame,
        options,
        value: None,
        look: None,
    })
}

/// Boxes that share a key are one question: they must agree on what they ask.
pub fn check_questions(fields: &[Field], at: &str) -> Result<()> {
    if fields.len() > MAX_FORM_FIELDS {
        return Err(unfit(
            at.into(),
            format!(
                "the document would carry {} fields; a form has at most {MAX_FORM_FIELDS}",
                fields.len()
            ),
        ));
    }
    let mut first: std::collections::HashMap<&str, (usize, &Field)> = Default::default();
    for (i, f) in fields.iter().enumerate() {
        match first.get(f.key.as_str()) {
            None => {
                first.insert(&f.key, (i, f));
            }
            Some((j, g)) => {
                if g.field_type != f.field_type {
                    return Err(unfit(
                        format!("{at}[{i}].type"),
                        format!(
                            "key `{}` is already a {} question ({at}[{j}]); every box of one key has one type",
                            f.key,
                            g.field_type.as_str()
                        ),
                    ));
                }
                if g.options != f.options && !f.options.is_empty() {
                    return Err(unfit(
                        format!("{at}[{i}].options"),
                        format!(
                            "key `{}` offers other options at {at}[{j}]; every box of one key offers the same",
                            f.key
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// One question: the first box of each key, in the order keys first appear. Labels and
/// `required` come from the first box that sets them.
pub fn questions(fields: &[Field]) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = Default::default();
    for f in fields {
        match at.get(f.key.as_str()) {
            Some(&i) => {
                let q = &mut out[i];
                if q.label.is_empty() {
                    q.label = f.label.clone();
                }
                q.required |= f.required;
            }
            None => {
                at.insert(&f.key, out.len());
                out.push(f.clone());
            }
        }
    }
    out
}

/// The CSV's columns after `fields`: the old order kept, keys never seen appended.
pub fn extend_columns(columns: &mut Vec<String>, fields: &[Field]) -> Result<()> {
    let mut seen: std::collections::HashSet<String> = columns.iter().cloned().collect();
    for f in fields {
        if seen.insert(f.key.clone()) {
            columns.push(f.key.clone());
        }
    }
    if columns.len() > MAX_COLUMNS {
        return Err(unfit(
            "fields".into(),
            format!(
                "the form would have asked {} different keys over its versions; a form asks at most {MAX_COLUMNS}",
                columns.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::{Kind, Page};
    use serde_json::{json, Value};

    /// A request's `fields` read as the API reads them (`api::upload`): deserialized with
    /// the path of a wrong member kept, then placed.
    fn parse(value: &Value, document: &Document) -> Result<Vec<Field>> {
        let placed: Vec<PlacedField> = serde_path_to_error::deserialize(value).map_err(|e| {
            invalid(
                crate::error::json_error_path(&e, "fields"),
                e.inner().to_string(),
            )
        })?;
        place(placed, document)
    }

    fn doc() -> Document {
        let mut d = Document::new(Kind::Paged);
        d.pages.push(Page {
            name: None,
            width: 612.0,
            height: 792.0,
            rotate: 0,
            background: None,
            shapes: Vec::new(),
        });
        d
    }

    /// The member a refusal names, and whether it is a misfit (422) rather than a
    /// malformed request (400).
    fn err_field(v: Value) -> (String, bool) {
        match parse(&v, &doc()) {
            Err(Error::InvalidField { field, .. }) => (field, false),
            Err(Error::Unfit { field, .. }) => (field, true),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let ok =
            json!({"key": "a", "type": "text", "page": 1, "x": 10, "y": 10, "w": 100, "h": 20});
        assert_eq!(parse(&json!([ok.clone()]), &doc()).unwrap().len(), 1);
        let with = |member: &str, value: Value| {
            let mut v = ok.clone();
            v[member] = value;
            v
        };
        let cases = [
            (
                json!([ok.clone(), with("type", json!("colour"))]),
                "fields[1].type",
                false,
            ),
            (json!([with("x", json!(600))]), "fields[0]", true),
            (json!([with("page", json!(2))]), "fields[0].page", true),
            (json!([with("page", json!(0))]), "fields[0].page", false),
            (json!([with("page", json!(1.5))]), "fields[0].page", false),
            (
                json!([with("colour", json!("red"))]),
                "fields[0].colour",
                false,
            ),
            (
                json!([{"key": "r", "type": "radio", "page": 1, "x": 1, "y": 1, "w": 9, "h": 9}]),
                "fields[0].options",
                true,
            ),
            (
                json!([with("options", json!([]))]),
                "fields[0].options",
                false,
            ),
            (
                json!([ok.clone(), with("type", json!("email"))]),
                "fields[1].type",
                true,
            ),
            (
                Value::Array((0..501).map(|_| ok.clone()).collect()),
                "fields",
                false,
            ),
        ];
        for (fields, named, unfit) in cases {
            assert_eq!(
                err_field(fields.clone()),
                (named.to_string(), unfit),
                "{fields}"
            );
        }
        // A whole number written as a float is a page number, as JSON Schema's integer is.
        assert_eq!(
            parse(&json!([with("page", json!(1.0))]), &doc()).unwrap()[0].page,
            1
        );
    }

    #[test]
    fn one_key_in_several_boxes_is_one_question() {
        let a = json!({"key": "name", "label": "Name", "required": true, "page": 1, "x": 10, "y": 10, "w": 100, "h": 20});
        let b = json!({"key": "name", "page": 1, "x": 10, "y": 700, "w": 100, "h": 20});
        let c =
            json!({"key": "ok", "type": "checkbox", "page": 1, "x": 10, "y": 40, "w": 12, "h": 12});
        let fields = parse(&json!([a, b, c]), &doc()).unwrap();
        let q = questions(&fields);
        assert_eq!(q.len(), 2);
        assert_eq!(q[0].key, "name");
        assert!(q[0].required);
        let mut cols = vec!["ok".to_string()];
        extend_columns(&mut cols, &fields).unwrap();
        assert_eq!(cols, ["ok", "name"]);
    }
}
