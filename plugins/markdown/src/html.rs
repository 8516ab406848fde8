//! Raw HTML inside Markdown.
//!
//! Blocks are read by the HTML reader ([`quire_html_read::Fragments`]). A block that opens
//! an element it does not close (`<div align="center">`, a `<table>` whose cells hold
//! Markdown) takes in the Markdown that follows until the element closes, rendered to HTML
//! ([`Wrapping`]), as a browser reads the page GitHub or pandoc makes of the file.
//!
//! Inline HTML inside paragraphs: line breaks, `<img>` tags (pictures like `![alt](src)`)
//! and literal elements (`<xmp>`); other tags are dropped and the text they hold kept.

use pulldown_cmark::{Event, Tag};

/// Elements that wrap blocks and whose end a page writes: while one is open, the Markdown
/// after it is its content. (`<p>`, `<li>` and table cells end by themselves in HTML, and
/// READMEs often write `<p>` where they meant `</p>`: they are not counted.)
const WRAPPERS: &[&str] = &[
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "div",
    "dl",
    "figure",
    "footer",
    "header",
    "main",
    "nav",
    "ol",
    "section",
    "table",
    "ul",
];

/// A raw HTML block read together with the Markdown it wraps.
pub struct Wrapping {
    events: Vec<Event<'static>>,
    /// Wrapper elements opened and not yet closed.
    open: usize,
    /// Markdown blocks open inside the span (a wrapper closes only between blocks).
    depth: usize,
}

impl Wrapping {
    pub fn new() -> Self {
        Wrapping {
            events: Vec::new(),
            open: 0,
            depth: 0,
        }
    }

    /// Takes `event` into the span; true when the span is complete: every wrapper it
    /// opened is closed and no Markdown block is open.
    pub fn take(&mut self, event: Event<'_>) -> bool {
        match &event {
            Event::Html(text) | Event::InlineHtml(text) => {
                let (opened, closed) = wrapper_tags(text);
                self.open = (self.open + opened).saturating_sub(closed);
            }
            Event::Start(_) => self.depth += 1,
            Event::End(_) => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.events.push(event.into_static());
        self.open == 0 && self.depth == 0
    }

    /// The span as HTML: its raw HTML as written, its Markdown rendered as CommonMark's
    /// reference renderer does.
    pub fn html(self) -> String {
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, self.events.into_iter());
        html
    }
}

/// Whether `event` starts a raw HTML block.
pub fn starts_html_block(event: &Event<'_>) -> bool {
    matches!(event, Event::Start(Tag::HtmlBlock))
}

/// How many wrapper elements `html` opens and closes; comments are skipped.
fn wrapper_tags(html: &str) -> (usize, usize) {
    let (mut opened, mut closed) = (0, 0);
    let mut rest = html;
    while let Some((_, tag)) = rest.split_once('<') {
        rest = tag;
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.split_once("-->").map_or("", |(_, after)| after);
            continue;
        }
        let closing = rest.starts_with('/');
        let name = tag_name(rest);
        if WRAPPERS.contains(&name.as_str()) {
            // Looked for up to the next `<` only, so a run of unclosed tags stays linear.
            let inside = rest.split(['<']).next().unwrap_or_default();
            let self_closed = inside
                .split_once('>')
                .is_some_and(|(inner, _)| inner.ends_with('/'));
            if closing {
                closed += 1;
            } else if !self_closed {
                opened += 1;
            }
        }
    }
    (opened, closed)
}

/// Elements whose content a browser shows as written, markup included (the HTML standard's
/// raw-text and RCDATA elements that are visible): `<xmp><b>x</b></xmp>` shows `<b>x</b>`.
pub const LITERAL_TAGS: &[&str] = &["xmp", "textarea", "plaintext"];

/// What an `<img>` tag says: where the picture is, its alt text, and its size in CSS
/// pixels where the tag gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImgTag {
    pub src: String,
    pub alt: String,
    pub width: Option<u32>,
    pub height: Option<u32>,
}

/// The `<img>` a tag's text (between `<` and `>`, or whole) is, if it is one.
pub fn img_tag(tag: &str) -> Option<ImgTag> {
    let inner = tag.trim().trim_start_matches('<').trim_end_matches('>');
    if inner.starts_with('/') || tag_name(inner) != "img" {
        return None;
    }
    let attributes = attributes(inner.get(3..)?);
    let value = |name: &str| {
        attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| quire_sdk::text::decode_entities(v))
    };
    // `width="200"` or `width="200px"`; a percentage is of a box the flow does not have.
    let pixels = |name: &str| {
        let v = value(name)?;
        let digits = v.trim().strip_suffix("px").unwrap_or(v.trim());
        digits
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 1.0 && *n <= 100_000.0)
            .map(|n| n.round() as u32)
    };
    Some(ImgTag {
        src: value("src").unwrap_or_default().trim().to_string(),
        alt: value("alt").unwrap_or_default(),
        width: pixels("width"),
        height: pixels("height"),
    })
}

/// The attributes of a start tag's text after its name: (lower-case name, raw value), as
/// HTML's tokenizer reads them (quoted with `"` or `'`, or unquoted up to a space).
fn attributes(mut rest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // A tag holds a few attributes; a hostile one cannot make this loop long.
    while out.len() < 64 {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '/');
        let name_end = rest
            .find(|c: char| c.is_ascii_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        if name_end == 0 {
            break;
        }
        let (name, after) = rest.split_at(name_end);
        let after = after.trim_start();
        let Some(value_part) = after.strip_prefix('=') else {
            out.push((name.to_ascii_lowercase(), String::new()));
            rest = after;
            continue;
        };
        let value_part = value_part.trim_start();
        let (value, tail) = match value_part.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = value_part.strip_prefix(q).unwrap_or(value_part);
                match body.split_once(q) {
                    Some((v, tail)) => (v, tail),
                    None => (body, ""),
                }
            }
            _ => value_part.split_at(
                value_part
                    .find(|c: char| c.is_ascii_whitespace())
                    .unwrap_or(value_part.len()),
            ),
        };
        out.push((name.to_ascii_lowercase(), value.to_string()));
        rest = tail;
    }
    out
}

/// The literal element an inline HTML start tag opens (`<xmp>`, `<textarea rows=2>`).
pub fn opens_literal(tag: &str) -> Option<&'static str> {
    let inner = tag.trim().strip_prefix('<')?;
    let name = tag_name(inner);
    let open = !inner.starts_with('/') && !inner.trim_end_matches('>').ends_with('/');
    LITERAL_TAGS.iter().copied().find(|t| open && *t == name)
}

/// Whether an inline HTML tag is the end tag of `name`.
pub fn closes(tag: &str, name: &str) -> bool {
    let inner = tag.trim().trim_start_matches('<');
    inner.starts_with('/') && tag_name(inner) == name
}

/// Whether an inline HTML tag is a line break (`<br>`, `<br/>`, `<BR />`).
pub fn is_line_break(tag: &str) -> bool {
    let inner = tag.trim().trim_start_matches('<');
    tag_name(inner) == "br" && !inner.starts_with('/')
}

/// The lower-case name of a tag from the text between `<` and `>`; closing tags give their
/// name too, declarations and comments give an empty name.
fn tag_name(inner: &str) -> String {
    let inner = inner.strip_prefix('/').unwrap_or(inner);
    inner
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `<img>` attributes as HTML's tokenizer reads them: quoted either way or not, any
    /// case, entities decoded, sizes in pixels; anything else is no picture.
    #[test]
    fn img_tags_are_read_with_their_attributes() {
        let tag = img_tag(
            r#"<IMG Alt='Logo &amp; name' SRC="docs/logo.svg" width=200px height="80" data-x>"#,
        )
        .unwrap();
        assert_eq!(
            tag,
            ImgTag {
                src: "docs/logo.svg".into(),
                alt: "Logo & name".into(),
                width: Some(200),
                height: Some(80),
            }
        );
        let bare = img_tag("<img src=a.png width=50% />").unwrap();
        assert_eq!((bare.src.as_str(), bare.width), ("a.png", None));
        assert!(img_tag("</img>").is_none() && img_tag("<image src=a.png>").is_none());
        assert_eq!(img_tag("<img src=\"unclosed").unwrap().src, "unclosed");
    }

    #[test]
    fn wrapper_elements_are_counted_open_and_closed() {
        assert_eq!(wrapper_tags("<div align=\"center\">"), (1, 0));
        assert_eq!(
            wrapper_tags("<DIV><table><tr><td>x</td></tr></table></div>"),
            (2, 2)
        );
        // `<p>` ends by itself; comments and self-closed tags open nothing.
        assert_eq!(
            wrapper_tags("<p align=center>logo<p><!-- <div> --><div/>"),
            (0, 0)
        );
        assert_eq!(wrapper_tags("</details>"), (0, 1));
        assert_eq!(wrapper_tags("a < b <divx>"), (0, 0));
    }

    #[test]
    fn line_breaks_and_literal_elements() {
        assert!(is_line_break("<br>"));
        assert!(is_line_break("<BR />"));
        assert!(!is_line_break("</br>"));
        assert!(!is_line_break("<b>"));
        assert_eq!(opens_literal("<XMP>"), Some("xmp"));
        assert_eq!(opens_literal("<textarea rows=\"2\">"), Some("textarea"));
        assert_eq!(opens_literal("<textarea/>"), None);
        assert_eq!(opens_literal("</xmp>"), None);
        assert!(closes("</XMP >", "xmp"));
        assert!(!closes("<xmp>", "xmp"));
    }
}
