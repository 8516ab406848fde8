//! The question a blank answers: the words next to it. To the left on the same line
//! ("Full Name: ______"), to the right for a tick box ("☐ Yes"), else the line just above.
//! A label that plainly asks for a date, an e-mail address or a signature gives the field
//! that type.

use quire_sdk::{FieldType, Rect};

use crate::geom::Candidate;
use crate::words::{Token, TokenKind};

/// Longest label kept, in characters.
const MAX_LABEL: usize = 120;
/// Farthest a label may sit from its blank, in font sizes.
const REACH: f64 = 12.0;

/// Labels every candidate from the page's words; a label stops where another candidate
/// begins.
pub fn assign(candidates: &mut [Candidate], tokens: &[Token]) {
    let mut all: Vec<&Token> = tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Word && t.rect.y.is_finite())
        .collect();
    if all.is_empty() {
        return;
    }
    // Words by their top, so each blank looks only at the few lines around it.
    all.sort_by(|a, b| a.rect.y.total_cmp(&b.rect.y));
    let tallest = all.iter().map(|t| t.size).fold(0.0, f64::max).min(200.0);
    let rects: Vec<Rect> = candidates.iter().map(|c| c.rect).collect();
    for (i, c) in candidates.iter_mut().enumerate() {
        let lo = all.partition_point(|t| t.rect.y < c.rect.y - 3.0 * tallest - 2.0);
        let hi = all.partition_point(|t| t.rect.y <= c.rect.bottom() + 2.0);
        let words = &all[lo..hi.max(lo)];
        let blocked = |a: f64, b: f64, r: &Rect| {
            rects.iter().enumerate().any(|(j, o)| {
                j != i && o.x < b && o.right() > a && o.y < r.bottom() && o.bottom() > r.y
            })
        };
        let mut label = String::new();
        if c.kind == FieldType::Checkbox {
            label = right_of(&c.rect, words, &blocked);
        }
        if label.is_empty() {
            label = left_of(&c.rect, words, &blocked);
        }
        if label.is_empty() {
            label = above(&c.rect, words);
        }
        c.label = clean(&label);
        if c.kind == FieldType::Text {
            if let Some(t) = type_from(&c.label) {
                c.kind = t;
            }
        }
    }
}

/// Whether `t` is on the same line as the blank `r`.
fn same_line(t: &Token, r: &Rect) -> bool {
    let mid = (t.rect.y + t.baseline) / 2.0;
    mid >= r.y - 2.0 && mid <= r.bottom() + 2.0
}

/// The phrase ending just left of `r`, read right to left until a wide gap.
fn left_of(r: &Rect, words: &[&Token], blocked: &dyn Fn(f64, f64, &Rect) -> bool) -> String {
    let mut row: Vec<&Token> = words
        .iter()
        .filter(|t| same_line(t, r) && t.rect.right() <= r.x + 2.0)
        .copied()
        .collect();
    row.sort_by(|a, b| b.rect.right().total_cmp(&a.rect.right()));
    let mut picked: Vec<&Token> = Vec::new();
    let mut edge = r.x;
    for t in row {
        let gap = edge - t.rect.right();
        let limit = if picked.is_empty() { REACH } else { 1.2 } * t.size.max(1.0);
        if gap > limit || blocked(t.rect.right(), edge, r) {
            break;
        }
        picked.push(t);
        edge = t.rect.x;
        if picked.len() >= 8 {
            break;
        }
    }
    picked.reverse();
    join(&picked)
}

/// The phrase starting just right of a tick box.
fn right_of(r: &Rect, words: &[&Token], blocked: &dyn Fn(f64, f64, &Rect) -> bool) -> String {
    let mut row: Vec<&Token> = words
        .iter()
        .filter(|t| same_line(t, r) && t.rect.x >= r.right() - 2.0)
        .copied()
        .collect();
    row.sort_by(|a, b| a.rect.x.total_cmp(&b.rect.x));
    let mut picked: Vec<&Token> = Vec::new();
    let mut edge = r.right();
    for t in row {
        let gap = t.rect.x - edge;
        let limit = if picked.is_empty() { 1.5 } else { 1.0 } * t.size.max(1.0);
        if gap > limit || blocked(edge, t.rect.x, r) {
            break;
        }
        picked.push(t);
        edge = t.rect.right();
        if picked.len() >= 6 {
            break;
        }
    }
    join(&picked)
}

/// The nearest line of words above `r` that overlaps it.
fn above(r: &Rect, words: &[&Token]) -> String {
    let near: Vec<&Token> = words
        .iter()
        .filter(|t| {
            let gap = r.y - t.rect.bottom();
            gap >= -2.0
                && gap <= 1.5 * t.size.max(1.0)
                && t.rect.x < r.right()
                && t.rect.right() > r.x
        })
        .copied()
        .collect();
    let Some(lowest) = near
        .iter()
        .map(|t| t.baseline)
        .max_by(|a, b| a.total_cmp(b))
    else {
        return String::new();
    };
    let mut line: Vec<&Token> = near
        .into_iter()
        .filter(|t| (t.baseline - lowest).abs() < 1.0)
        .collect();
    line.sort_by(|a, b| a.rect.x.total_cmp(&b.rect.x));
    join(&line)
}

fn join(tokens: &[&Token]) -> String {
    tokens
        .iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The label without the punctuation that introduces a blank, at most [`MAX_LABEL`] long.
pub fn clean(s: &str) -> String {
    let t = s
        .trim()
        .trim_end_matches(|c: char| {
            matches!(c, ':' | '*' | '_' | '.' | '-' | '–' | '—') || c.is_whitespace()
        })
        .trim_start_matches(|c: char| c == '*' || c.is_whitespace());
    t.chars()
        .take(MAX_LABEL)
        .collect::<String>()
        .trim()
        .to_string()
}

/// A type the label asks for plainly, if any.
pub fn type_from(label: &str) -> Option<FieldType> {
    let l = label.to_lowercase();
    let words: Vec<&str> = l
        .split(|c: char| !c.is_alphanumeric() && c != '/' && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    if has("e-mail") || has("email") || l.contains("e-mail address") {
        return Some(FieldType::Email);
    }
    if has("signature") || has("sign") || l.starts_with("signed") {
        return Some(FieldType::Signature);
    }
    let date_words = [
        "date",
        "dob",
        "d.o.b",
        "birthday",
        "mm/dd/yy",
        "mm/dd/yyyy",
        "dd/mm/yyyy",
    ];
    if date_words.iter().any(|w| has(w)) || l.contains("date of birth") || l.contains("mm/dd") {
        return Some(FieldType::Date);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_and_types() {
        assert_eq!(clean("  Full Name:  "), "Full Name");
        assert_eq!(clean("Email *"), "Email");
        assert_eq!(type_from("Date of Birth"), Some(FieldType::Date));
        assert_eq!(type_from("DOB"), Some(FieldType::Date));
        assert_eq!(type_from("Start date (mm/dd/yy)"), Some(FieldType::Date));
        assert_eq!(type_from("E-mail"), Some(FieldType::Email));
        assert_eq!(type_from("Email Address"), Some(FieldType::Email));
        assert_eq!(
            type_from("Signature of applicant"),
            Some(FieldType::Signature)
        );
        assert_eq!(type_from("Update reason"), None);
        assert_eq!(type_from("Candidate"), None);
        assert_eq!(type_from("Full Name"), None);
    }
}
