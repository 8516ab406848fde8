//! The rules a form's answers meet against its questions: checking them (the same rules for
//! the API and the public page), writing them into a filled copy, and the one-line summary
//! and CSV cells.

use std::collections::HashSet;

use quire_sdk::{Document, Field, FieldType, Shape};
use serde_json::{Map, Number, Value};

use super::signature;
use crate::error::{Error, Result};

/// Longest text answer kept; a form is not a file store.
const MAX_TEXT: usize = 10_000;
const SUMMARY_LEN: usize = 200;

/// An answer that does not fit the form's questions (the request itself is well-formed).
fn invalid(key: &str, detail: impl Into<String>) -> Error {
    Error::Unfit {
        field: format!("answers.{key}"),
        detail: detail.into(),
    }
}

/// Whether an answer counts as given (for `required`).
fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Bool(b) => !b,
        _ => false,
    }
}

/// Checks `answers` against `questions` and returns them normalised (numbers as numbers,
/// checkboxes as booleans, keys in the form's order). Unknown keys are refused so a typo
/// in a client cannot silently lose an answer. The error names the first bad answer.
pub fn check(questions: &[Field], answers: &Map<String, Value>) -> Result<Map<String, Value>> {
    check_all(questions, answers).map_err(|mut problems| {
        let (key, detail) = problems.remove(0);
        invalid(&key, detail)
    })
}

/// [`check`], reporting every bad answer as (key, sentence): a page shows them all at once.
pub fn check_all(
    questions: &[Field],
    answers: &Map<String, Value>,
) -> std::result::Result<Map<String, Value>, Vec<(String, String)>> {
    let mut problems = Vec::new();
    if let Some(problem) = unknown_keys(questions, answers) {
        problems.push(problem);
    }
    let mut out = Map::new();
    for q in questions {
        let given = answers.get(&q.key).cloned().unwrap_or(Value::Null);
        let value = match normalise(q, given) {
            Ok(v) => v,
            Err(Error::Unfit { detail, .. }) => {
                problems.push((q.key.clone(), detail));
                continue;
            }
            Err(e) => {
                problems.push((q.key.clone(), e.to_string()));
                continue;
            }
        };
        if q.required && is_blank(&value) {
            let what = if q.field_type == FieldType::Checkbox {
                "must be ticked (true)"
            } else {
                "is required"
            };
            problems.push((q.key.clone(), format!("{} {what}", describe(q))));
            continue;
        }
        if !value.is_null() {
            out.insert(q.key.clone(), value);
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Keys named in a refusal of unknown answers, of the answers and of the form each: enough
/// to spot a typo, while the refusal's size stays the same however many keys were sent.
const KEYS_NAMED: usize = 5;

/// One problem for every answer to a question the form does not ask: a handful of the
/// unknown keys and of the form's, once, so a post of thousands of made-up keys costs one
/// short sentence and one pass over a set of the form's keys.
fn unknown_keys(questions: &[Field], answers: &Map<String, Value>) -> Option<(String, String)> {
    let asked: std::collections::HashSet<&str> = questions.iter().map(|q| q.key.as_str()).collect();
    let mut unknown = answers.keys().filter(|k| !asked.contains(k.as_str()));
    let first = unknown.next()?;
    let mut named = vec![format!("`{first}`")];
    let mut more = 0usize;
    for key in unknown {
        if named.len() < KEYS_NAMED {
            named.push(format!("`{key}`"));
        } else {
            more += 1;
        }
    }
    let sent = if more > 0 {
        format!("{} and {more} more", named.join(", "))
    } else {
        named.join(", ")
    };
    let keys: Vec<&str> = questions
        .iter()
        .take(KEYS_NAMED)
        .map(|q| q.key.as_str())
        .collect();
    let its = match questions.len() {
        0 => "it asks nothing".to_string(),
        n if n > KEYS_NAMED => format!("its keys include {} ({n} in all)", keys.join(", ")),
        _ => format!("its keys are {}", keys.join(", ")),
    };
    let what = if named.len() + more == 1 {
        "question"
    } else {
        "questions"
    };
    Some((
        first.clone(),
        format!("the form has no {what} {sent}; {its}"),
    ))
}

fn describe(q: &Field) -> String {
    if q.label.trim().is_empty() {
        format!("`{}`", q.key)
    } else {
        format!("`{}` ({})", q.key, q.label.trim())
    }
}

fn normalise(q: &Field, v: Value) -> Result<Value> {
    let key = q.key.as_str();
    if v.is_null() {
        return Ok(Value::Null);
    }
    match q.field_type {
        FieldType::Text | FieldType::Multiline | FieldType::Signature => {
            let s = match v {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Object(drawing)
                    if q.field_type == FieldType::Signature && drawing.contains_key("strokes") =>
                {
                    return signature::normalise(&drawing)
                        .map(|kept| kept.unwrap_or(Value::Null))
                        .map_err(|detail| invalid(key, format!("{}: {detail}", describe(q))));
                }
                _ if q.field_type == FieldType::Signature => {
                    return Err(invalid(
                        key,
                        format!(
                            "{} must be a typed name or a drawing {{width, height, strokes}}",
                            describe(q)
                        ),
                    ))
                }
                _ => return Err(invalid(key, format!("{} must be text", describe(q)))),
            };
            if s.chars().count() > MAX_TEXT {
                return Err(invalid(
                    key,
                    format!("{} is longer than {MAX_TEXT} characters", describe(q)),
                ));
            }
            if q.field_type != FieldType::Multiline && s.contains(['\n', '\r']) {
                return Err(invalid(
                    key,
                    format!("{} takes one line of text", describe(q)),
                ));
            }
            Ok(if s.is_empty() {
                Value::Null
            } else {
                Value::String(s)
            })
        }
        FieldType::Email => {
            let Value::String(s) = v else {
                return Err(invalid(
                    key,
                    format!("{} must be an email address", describe(q)),
                ));
            };
            let s = s.trim().to_string();
            if s.is_empty() {
                return Ok(Value::Null);
            }
            if !is_email(&s) {
                return Err(invalid(
                    key,
                    format!(
                        "{} must be an email address like name@example.com",
                        describe(q)
                    ),
                ));
            }
            Ok(Value::String(s))
        }
        FieldType::Number => {
            let n = match v {
                Value::Number(n) => n,
                Value::String(s) if s.trim().is_empty() => return Ok(Value::Null),
                Value::String(s) => parse_number(s.trim())
                    .ok_or_else(|| invalid(key, format!("{} must be a number", describe(q))))?,
                _ => return Err(invalid(key, format!("{} must be a number", describe(q)))),
            };
            Ok(Value::Number(n))
        }
        FieldType::Date => {
            let Value::String(s) = v else {
                return Err(invalid(
                    key,
                    format!("{} must be a date written YYYY-MM-DD", describe(q)),
                ));
            };
            let s = s.trim();
            if s.is_empty() {
                return Ok(Value::Null);
            }
            if !is_date(s) {
                return Err(invalid(
                    key,
                    format!(
                        "{} must be a real date written YYYY-MM-DD, not `{s}`",
                        describe(q)
                    ),
                ));
            }
            Ok(Value::String(s.to_string()))
        }
        FieldType::Checkbox => match v {
            Value::Bool(b) => Ok(Value::Bool(b)),
            _ => Err(invalid(
                key,
                format!("{} is a checkbox: answer true or false", describe(q)),
            )),
        },
        FieldType::Radio | FieldType::Select => {
            let Value::String(s) = v else {
                return Err(invalid(
                    key,
                    format!("{} must be one of {}", describe(q), q.options.join(", ")),
                ));
            };
            if s.is_empty() {
                return Ok(Value::Null);
            }
            if !q.options.contains(&s) {
                return Err(invalid(
                    key,
                    format!(
                        "`{s}` is not an option of {}; it offers {}",
                        describe(q),
                        q.options.join(", ")
                    ),
                ));
            }
            Ok(Value::String(s))
        }
        FieldType::List => {
            let chosen: Vec<Value> = match v {
                Value::String(s) if s.is_empty() => Vec::new(),
                Value::String(s) => vec![Value::String(s)],
                Value::Array(a) => a,
                _ => {
                    return Err(invalid(
                        key,
                        format!("{} takes an array of its options", describe(q)),
                    ))
                }
            };
            let mut out = Vec::with_capacity(chosen.len());
            for c in chosen {
                match c {
                    Value::String(s) if q.options.contains(&s) => {
                        if !out.contains(&Value::String(s.clone())) {
                            out.push(Value::String(s));
                        }
                    }
                    other => {
                        return Err(invalid(
                            key,
                            format!(
                                "{other} is not an option of {}; it offers {}",
                                describe(q),
                                q.options.join(", ")
                            ),
                        ))
                    }
                }
            }
            Ok(if out.is_empty() {
                Value::Null
            } else {
                Value::Array(out)
            })
        }
    }
}

fn parse_number(s: &str) -> Option<Number> {
    if let Ok(i) = s.parse::<i64>() {
        return Some(Number::from(i));
    }
    s.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .and_then(Number::from_f64)
}

/// A practical address check: one `@`, a non-empty local part, a dotted domain, no spaces.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && local.len() <= 64
        && domain.len() <= 253
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
        && !local.contains('@')
        && domain.contains('.')
        && domain
            .split('.')
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
}

fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    if parts.len() != 3
        || parts[0].len() != 4
        || parts[1].len() != 2
        || parts[2].len() != 2
        || !parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (
        parts[0].parse::<i32>(),
        parts[1].parse::<u8>(),
        parts[2].parse::<u8>(),
    ) else {
        return false;
    };
    time::Month::try_from(m)
        .ok()
        .and_then(|m| time::Date::from_calendar_date(y, m, d).ok())
        .is_some()
}

/// The answers written into a copy of the form's boxes, each box of a key getting its
/// question's answer. A drawn signature becomes ink on the page in its boxes, and those
/// boxes stop being fields: a widget would be drawn over the ink and hide it.
pub fn fill(document: &mut Document, answers: &Map<String, Value>) {
    let mut ink = Vec::new();
    document.fields.retain_mut(|f| {
        let value = answers.get(&f.key);
        match value {
            Some(drawing)
                if f.field_type == FieldType::Signature && signature::is_drawn(drawing) =>
            {
                ink.push((f.page, f.frame, drawing));
                false
            }
            _ => {
                f.value = value.cloned();
                true
            }
        }
    });
    let mut taken: HashSet<String> = document.shapes().map(|s| s.id().to_string()).collect();
    for (page, frame, drawing) in ink {
        let id = (1..)
            .map(|n| format!("signature-{n}"))
            .find(|id| !taken.contains(id))
            .unwrap_or_default();
        taken.insert(id.clone());
        let Some(path) = signature::ink(drawing, frame, id) else {
            continue;
        };
        if let Some(p) = (page as usize)
            .checked_sub(1)
            .and_then(|i| document.pages.get_mut(i))
        {
            p.shapes.push(Shape::Path(path));
        }
    }
}

/// A cell's text: booleans as yes/no, lists joined.
pub fn text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join("; "),
        Value::Object(_) if signature::is_drawn(v) => "(drawn signature)".into(),
        Value::Object(_) => v.to_string(),
    }
}

/// One line naming each answer, cut to a readable length.
pub fn summary(questions: &[Field], answers: &Map<String, Value>) -> String {
    let mut s = String::new();
    for q in questions {
        let Some(v) = answers.get(&q.key) else {
            continue;
        };
        if !s.is_empty() {
            s.push_str("; ");
        }
        let name = if q.label.trim().is_empty() {
            q.key.as_str()
        } else {
            q.label.trim()
        };
        s.push_str(name);
        s.push_str(": ");
        s.push_str(&text(v).replace(['\n', '\r'], " "));
        if s.chars().count() > SUMMARY_LEN {
            break;
        }
    }
    if s.chars().count() > SUMMARY_LEN {
        s = s.chars().take(SUMMARY_LEN - 1).collect::<String>() + "…";
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn q(key: &str, ty: &str, required: bool, options: &[&str]) -> Field {
        serde_json::from_value(json!({
            "key": key, "type": ty, "required": required, "page": 1,
            "x": 0, "y": 0, "w": 10, "h": 10, "options": options,
        }))
        .unwrap()
    }

    fn form() -> Vec<Field> {
        vec![
            q("name", "text", true, &[]),
            q("mail", "email", false, &[]),
            q("age", "number", false, &[]),
            q("born", "date", false, &[]),
            q("ok", "checkbox", false, &[]),
            q("size", "select", false, &["S", "M"]),
            q("tags", "list", false, &["a", "b"]),
        ]
    }

    fn field_of(answers: Value) -> String {
        match check(&form(), answers.as_object().unwrap()) {
            Err(Error::Unfit { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn each_rule_names_its_field() {
        assert_eq!(field_of(json!({})), "answers.name");
        assert_eq!(
            field_of(json!({"name": "A", "mail": "nope"})),
            "answers.mail"
        );
        assert_eq!(field_of(json!({"name": "A", "age": "ten"})), "answers.age");
        assert_eq!(
            field_of(json!({"name": "A", "born": "2023-02-30"})),
            "answers.born"
        );
        assert_eq!(field_of(json!({"name": "A", "ok": "yes"})), "answers.ok");
        assert_eq!(field_of(json!({"name": "A", "size": "XL"})), "answers.size");
        assert_eq!(
            field_of(json!({"name": "A", "tags": ["a", "z"]})),
            "answers.tags"
        );
        assert_eq!(field_of(json!({"name": "A", "zzz": 1})), "answers.zzz");
    }

    #[test]
    fn answers_are_normalised() {
        let a = json!({"name": "Ann", "mail": " ann@example.org ", "age": "42", "born": "2000-02-29",
                       "ok": true, "size": "M", "tags": ["b", "a", "b"]});
        let out = check(&form(), a.as_object().unwrap()).unwrap();
        assert_eq!(out["age"], json!(42));
        assert_eq!(out["mail"], json!("ann@example.org"));
        assert_eq!(out["tags"], json!(["b", "a"]));
        let keys: Vec<&String> = out.keys().collect();
        assert_eq!(keys, ["name", "mail", "age", "born", "ok", "size", "tags"]);
        assert_eq!(
            summary(&form(), &out),
            "name: Ann; mail: ann@example.org; age: 42; born: 2000-02-29; ok: yes; size: M; tags: b; a"
        );
    }

    #[test]
    fn unknown_keys_are_named_once_and_briefly() {
        let questions: Vec<Field> = (0..5_000)
            .map(|i| q(&format!("question{i}"), "text", false, &[]))
            .collect();
        let answers: Map<String, Value> = (0..4_000)
            .map(|i| (format!("made-up-{i:04}"), json!("x")))
            .collect();
        let problems = check_all(&questions, &answers).unwrap_err();
        assert_eq!(problems.len(), 1, "one problem for all unknown keys");
        let (key, sentence) = &problems[0];
        assert_eq!(key, "made-up-0000");
        assert!(sentence.len() < 400, "{} bytes: {sentence}", sentence.len());
        assert!(
            sentence.contains("and 3995 more") && sentence.contains("(5000 in all)"),
            "{sentence}"
        );
        let one = check_all(&form(), json!({"name": "A", "zzz": 1}).as_object().unwrap());
        assert_eq!(
            one.unwrap_err()[0].1,
            "the form has no question `zzz`; its keys include name, mail, age, born, ok (7 in all)"
        );
    }
}
