//! The responses CSV (RFC 4180): a submission-time column, a sender column, then one
//! column per key in the form's own order.

use serde_json::Value;

use super::answer_rules;
use super::responses::ResponseRow;

pub const TIME_COLUMN: &str = "submitted";
pub const SENDER_COLUMN: &str = "from";

/// Quotes a cell when it must be, and defuses text a spreadsheet would run as a formula
/// (a leading `=`, `+`, `-`, `@`) unless it is a plain number.
pub fn cell(out: &mut String, text: &str) {
    let formula =
        text.starts_with(['=', '+', '-', '@', '\t', '\r']) && text.parse::<f64>().is_err();
    let text = if formula {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(&text);
    }
}

fn row(cells: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for (i, c) in cells.enumerate() {
        if i > 0 {
            out.push(',');
        }
        cell(&mut out, &c);
    }
    out.push_str("\r\n");
    out
}

pub fn header(columns: &[String]) -> String {
    row([TIME_COLUMN.to_string(), SENDER_COLUMN.to_string()]
        .into_iter()
        .chain(columns.iter().cloned()))
}

/// RFC 3339 UTC with seconds, which every spreadsheet reads as a time.
pub fn timestamp(unix: f64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(unix.floor() as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let f = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    t.format(&f).unwrap_or_default()
}

pub fn line(columns: &[String], r: &ResponseRow) -> String {
    row([timestamp(r.submitted), r.from.clone().unwrap_or_default()]
        .into_iter()
        .chain(
            columns
                .iter()
                .map(|k| answer_rules::text(r.answers.get(k).unwrap_or(&Value::Null))),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_defused() {
        let mut s = String::new();
        cell(&mut s, "a, \"b\"\nc");
        assert_eq!(s, "\"a, \"\"b\"\"\nc\"");
        let mut s = String::new();
        cell(&mut s, "=HYPERLINK(\"x\")");
        assert_eq!(s, "\"'=HYPERLINK(\"\"x\"\")\"");
        let mut s = String::new();
        cell(&mut s, "-12.5");
        assert_eq!(s, "-12.5");
        assert_eq!(timestamp(86400.5), "1970-01-02T00:00:00Z");
    }
}
