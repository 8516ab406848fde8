//! The little XML writing the exporter needs: escaping, numbers, and an element builder that
//! cannot produce malformed markup whatever the model holds.

use std::fmt::Write;

use quire_sdk::{Color, Segment};

/// Coordinates beyond this are clamped: the host checks models, but a converter must never
/// write `NaN` or absurd numbers whatever it is given.
const LIMIT: f64 = 1.0e6;

/// A model number as SVG text: finite, within [`LIMIT`], at most three decimals, no trailing
/// zeros (`12`, `0.5`, `-3.125`).
pub fn num(v: f64) -> String {
    let v = if v.is_finite() {
        v.clamp(-LIMIT, LIMIT)
    } else {
        0.0
    };
    let mut s = format!("{v:.3}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// Whether XML 1.0 allows `c` in a document at all. Other control characters cannot be
/// written even as character references, so they are dropped.
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Escapes `s` for text content and for double-quoted attribute values alike.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Attribute values normalise raw tabs and newlines to spaces; references keep them.
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if allowed(c) => out.push(c),
            _ => {}
        }
    }
    out
}

/// `#rrggbb`, the form every SVG renderer reads (alpha goes into an `*-opacity` attribute).
pub fn rgb(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// An alpha byte as an opacity, or `None` when opaque.
pub fn opacity(c: Color) -> Option<String> {
    (c.a < 255).then(|| num(c.a as f64 / 255.0))
}

/// Path data for `segments`. A segment with no current point starts a new subpath at its end
/// (as the PDF exporter does), so any list of segments draws.
pub fn path_data(segments: &[Segment]) -> String {
    let mut d = String::new();
    let mut open = false;
    for seg in segments {
        if !d.is_empty() {
            d.push(' ');
        }
        match *seg {
            Segment::MoveTo { x, y } => {
                let _ = write!(d, "M{} {}", num(x), num(y));
                open = true;
            }
            Segment::LineTo { x, y } if open => {
                let _ = write!(d, "L{} {}", num(x), num(y));
            }
            Segment::CubicTo {
                x1,
                y1,
                x2,
                y2,
                x,
                y,
            } if open => {
                let _ = write!(
                    d,
                    "C{} {} {} {} {} {}",
                    num(x1),
                    num(y1),
                    num(x2),
                    num(y2),
                    num(x),
                    num(y)
                );
            }
            Segment::LineTo { x, y } | Segment::CubicTo { x, y, .. } => {
                let _ = write!(d, "M{} {}", num(x), num(y));
                open = true;
            }
            Segment::Close if open => d.push('Z'),
            Segment::Close => {}
        }
    }
    d.trim_end().to_string()
}

/// An element being written: `Tag::new("rect").attr("x", ..)` then [`Tag::empty`] or
/// [`Tag::open`]. Names are the exporter's own constants; every value is escaped.
pub struct Tag {
    text: String,
}

impl Tag {
    pub fn new(name: &str) -> Self {
        Tag {
            text: format!("<{name}"),
        }
    }

    pub fn attr(mut self, name: &str, value: impl AsRef<str>) -> Self {
        let _ = write!(self.text, " {name}=\"{}\"", escape(value.as_ref()));
        self
    }

    pub fn attr_opt(self, name: &str, value: Option<impl AsRef<str>>) -> Self {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    pub fn num(self, name: &str, value: f64) -> Self {
        self.attr(name, num(value))
    }

    /// `<name .../>`
    pub fn empty(mut self, out: &mut String) {
        self.text.push_str("/>");
        out.push_str(&self.text);
    }

    /// `<name ...>`; the caller writes the content and `</name>`.
    pub fn open(mut self, out: &mut String) {
        self.text.push('>');
        out.push_str(&self.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_finite() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(-3.1254), "-3.125");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(f64::INFINITY), "0");
        assert_eq!(num(1e300), "1000000");
    }

    #[test]
    fn escaping_covers_markup_quotes_and_forbidden_characters() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"
        );
        assert_eq!(escape("a\u{0}b\u{1b}c\u{FFFE}"), "abc");
        assert_eq!(escape("é 漢字 😀"), "é 漢字 😀");
    }

    #[test]
    fn stray_segments_start_subpaths() {
        let d = path_data(&[
            Segment::LineTo { x: 1.0, y: 2.0 },
            Segment::Close,
            Segment::LineTo { x: 3.0, y: 4.0 },
            Segment::Close,
        ]);
        assert_eq!(d, "M1 2 Z L3 4 Z");
        assert_eq!(path_data(&[Segment::Close]), "");
    }
}
