//! Reading placed fields from a request, checking them against the document they go on,
//! and the schema (one entry per question) the API shows.

use quire_sdk::{Document, Field, FieldType, Rect};
use serde_json::{json, Map, Value};

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

fn invalid(field: String, detail: impl Into<String>) -> Error {
    Error::InvalidField {
        field,
        detail: detail.into(),
    }
}

fn type_names() -> String {
    FieldType::ALL
        .iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn parse_type(s: &str) -> Option<FieldType> {
    FieldType::ALL.into_iter().find(|t| t.as_str() == s)
}

fn number(obj: &Map<String, Value>, at: &str, name: &str) -> Result<f64> {
    match obj.get(name) {
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|v| v.is_finite())
            .ok_or_else(|| invalid(format!("{at}.{name}"), "must be a finite number")),
        None | Some(Value::Null) => Err(invalid(
            format!("{at}.{name}"),
            "is missing; a placed field needs x, y, w and h in points from the top left of its page",
        )),
        Some(_) => Err(invalid(format!("{at}.{name}"), "must be a number")),
    }
}

/// Reads `value` (the request's `fields`) into boxes and checks them against `document`.
pub fn parse(value: &Value, document: &Document) -> Result<Vec<Field>> {
    let Value::Array(items) = value else {
        return Err(invalid("fields".into(), "must be an array of fields"));
    };
    if items.len() > MAX_FIELDS {
        return Err(invalid(
            "fields".into(),
            format!(
                "has {} items; at most {MAX_FIELDS} fields are placed per request",
                items.len()
            ),
        ));
    }
    let fields = items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_one(item, &format!("fields[{i}]"), document))
        .collect::<Result<Vec<_>>>()?;
    check_questions(&fields, "fields")?;
    Ok(fields)
}

fn parse_one(item: &Value, at: &str, document: &Document) -> Result<Field> {
    let Value::Object(obj) = item else {
        return Err(invalid(
            at.into(),
            "must be an object {key, type, label, required, page, x, y, w, h}",
        ));
    };
    let key = match obj.get("key") {
        Some(Value::String(k)) if !k.trim().is_empty() => k.clone(),
        Some(Value::String(_)) | None | Some(Value::Null) => {
            return Err(invalid(
                format!("{at}.key"),
                "is required and must not be empty",
            ))
        }
        Some(_) => return Err(invalid(format!("{at}.key"), "must be a string")),
    };
    if key.chars().count() > MAX_KEY_LEN {
        return Err(invalid(
            format!("{at}.key"),
            format!("is longer than {MAX_KEY_LEN} characters"),
        ));
    }
    let field_type = match obj.get("type") {
        None | Some(Value::Null) => FieldType::Text,
        Some(Value::String(t)) => parse_type(t).ok_or_else(|| {
            invalid(
                format!("{at}.type"),
                format!("`{t}` is not a field type; the types are {}", type_names()),
            )
        })?,
        Some(_) => return Err(invalid(format!("{at}.type"), "must be a string")),
    };
    let label = match obj.get("label") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) if s.chars().count() <= MAX_LABEL_LEN => s.clone(),
        Some(Value::String(_)) => {
            return Err(invalid(
                format!("{at}.label"),
                format!("is longer than {MAX_LABEL_LEN} characters"),
            ))
        }
        Some(_) => return Err(invalid(format!("{at}.label"), "must be a string")),
    };
    let required = match obj.get("required") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(invalid(format!("{at}.required"), "must be true or false")),
    };
    let page_count = document.pages.len();
    let page = match obj.get("page") {
        Some(Value::Number(n)) => n.as_u64().filter(|p| *p >= 1).ok_or_else(|| {
            invalid(
                format!("{at}.page"),
                format!("must be a page number from 1 to {page_count} (pages count from 1)"),
            )
        })?,
        None | Some(Value::Null) => 1,
        Some(_) => return Err(invalid(format!("{at}.page"), "must be an integer")),
    };
    if page as usize > page_count {
        return Err(invalid(
            format!("{at}.page"),
            format!("is {page} but the document has {page_count} page(s) (pages count from 1)"),
        ));
    }
    let frame = Rect {
        x: number(obj, at, "x")?,
        y: number(obj, at, "y")?,
        w: number(obj, at, "w")?,
        h: number(obj, at, "h")?,
    };
    if frame.w <= 0.0 || frame.h <= 0.0 {
        return Err(invalid(
            at.into(),
            "w and h must be greater than zero".to_string(),
        ));
    }
    let p = &document.pages[page as usize - 1];
    if !quire_sdk::validate::field_fits_page(&frame, p.width, p.height) {
        return Err(invalid(
            at.into(),
            format!(
                "({}, {}, {} x {}) lies outside page {page}, which is {} x {} points (x, y from the top left)",
                frame.x, frame.y, frame.w, frame.h, p.width, p.height
            ),
        ));
    }
    let options = match obj.get("options") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|o| match o {
                Value::String(s) if !s.is_empty() => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err(invalid(
                    format!("{at}.options"),
                    "must be an array of non-empty strings",
                )),
            })
            .collect::<Result<Vec<_>>>()?,
        Some(_) => {
            return Err(invalid(
                format!("{at}.options"),
                "must be an array of strings",
            ))
        }
    };
    if field_type.chooses() {
        if options.is_empty() {
            return Err(invalid(
                format!("{at}.options"),
                format!(
                    "a {} field needs options: an array of the answers it offers",
                    field_type.as_str()
                ),
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
    } else if !options.is_empty() {
        return Err(invalid(
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
        required,
        page: page as u32,
        frame,
        options,
        value: None,
    })
}

/// Boxes that share a key are one question: they must agree on what they ask.
pub fn check_questions(fields: &[Field], at: &str) -> Result<()> {
    if fields.len() > MAX_FORM_FIELDS {
        return Err(invalid(
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
                    return Err(invalid(
                        format!("{at}[{i}].type"),
                        format!(
                            "key `{}` is already a {} question ({at}[{j}]); every box of one key has one type",
                            f.key,
                            g.field_type.as_str()
                        ),
                    ));
                }
                if g.options != f.options && !f.options.is_empty() {
                    return Err(invalid(
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

/// A question as the schema endpoints show it: no geometry.
pub fn schema_json(q: &Field) -> Value {
    let mut v = json!({
        "key": q.key,
        "type": q.field_type.as_str(),
        "label": q.label,
        "required": q.required,
        "page": q.page,
    });
    if !q.options.is_empty() {
        v["options"] = json!(q.options);
    }
    v
}

/// A placed box, with its geometry.
pub fn placed_json(f: &Field) -> Value {
    let mut v = schema_json(f);
    v["x"] = json!(f.frame.x);
    v["y"] = json!(f.frame.y);
    v["w"] = json!(f.frame.w);
    v["h"] = json!(f.frame.h);
    v
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
        return Err(invalid(
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

    fn doc() -> Document {
        let mut d = Document::new(Kind::Pdf);
        d.pages.push(Page {
            width: 612.0,
            height: 792.0,
            rotate: 0,
            background: None,
            shapes: Vec::new(),
        });
        d
    }

    fn err_field(v: Value) -> String {
        match parse(&v, &doc()) {
            Err(Error::InvalidField { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let ok =
            json!({"key": "a", "type": "text", "page": 1, "x": 10, "y": 10, "w": 100, "h": 20});
        assert_eq!(parse(&json!([ok.clone()]), &doc()).unwrap().len(), 1);
        let mut bad = ok.clone();
        bad["type"] = json!("colour");
        assert_eq!(err_field(json!([ok.clone(), bad])), "fields[1].type");
        let mut outside = ok.clone();
        outside["x"] = json!(600);
        assert_eq!(err_field(json!([outside])), "fields[0]");
        let mut page = ok.clone();
        page["page"] = json!(2);
        assert_eq!(err_field(json!([page])), "fields[0].page");
        let mut zero = ok.clone();
        zero["page"] = json!(0);
        assert_eq!(err_field(json!([zero])), "fields[0].page");
        let radio = json!({"key": "r", "type": "radio", "page": 1, "x": 1, "y": 1, "w": 9, "h": 9});
        assert_eq!(err_field(json!([radio])), "fields[0].options");
        let mut clash = ok.clone();
        clash["type"] = json!("email");
        assert_eq!(err_field(json!([ok.clone(), clash])), "fields[1].type");
        let many: Vec<Value> = (0..501).map(|_| ok.clone()).collect();
        assert_eq!(err_field(Value::Array(many)), "fields");
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
