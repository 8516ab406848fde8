//! Raw HTML inside Markdown: the tags are dropped, the text they hold is kept, and `<img>`
//! tags (READMEs centre their logo and badges with them) are pictures like `![alt](src)`.

/// Tags that end a line of text when they open or close.
const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tr",
    "ul",
];

/// Tags whose content is not text for a reader.
const HIDDEN_TAGS: &[&str] = &["script", "style", "template", "title"];

/// Elements whose content a browser shows as written, markup included (the HTML standard's
/// raw-text and RCDATA elements that are visible): `<xmp><b>x</b></xmp>` shows `<b>x</b>`.
pub const LITERAL_TAGS: &[&str] = &["xmp", "textarea", "plaintext"];

/// A paragraph of text from an HTML fragment; `heading` is the level of the `<h1>`..`<h6>`
/// it came from, if any; `literal` text keeps its markup and line breaks (a `<xmp>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paragraph {
    pub heading: Option<u8>,
    pub text: String,
    pub literal: bool,
    /// An `<img>` standing between paragraphs (`text` is empty).
    pub image: Option<ImgTag>,
}

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

/// The readable text of an HTML fragment as paragraphs: tags dropped, block-level tags
/// ending a paragraph, comments/scripts/styles removed, entities decoded, whitespace collapsed.
/// READMEs often open with an HTML `<h1>`; it stays a heading.
pub fn text_paragraphs(html: &str) -> Vec<Paragraph> {
    let mut paragraphs = Vec::new();
    let mut current = String::new();
    let mut heading: Option<u8> = None;
    let mut rest = html;
    let flush = |current: &mut String, heading: Option<u8>, out: &mut Vec<Paragraph>| {
        let text = collapse(&quire_sdk::text::decode_entities(current));
        if !text.is_empty() {
            out.push(Paragraph {
                heading,
                text,
                literal: false,
                image: None,
            });
        }
        current.clear();
    };
    while let Some((before, tag)) = rest.split_once('<') {
        current.push_str(before);
        if let Some(after) = tag.strip_prefix("!--") {
            rest = after.split_once("-->").map_or("", |(_, after)| after);
            continue;
        }
        let Some((inner, after)) = tag.split_once('>') else {
            // A `<` that opens no tag is text.
            current.push('<');
            current.push_str(tag);
            rest = "";
            break;
        };
        let closing = inner.starts_with('/');
        let name = tag_name(inner);
        rest = after;
        if !closing && HIDDEN_TAGS.contains(&name.as_str()) {
            let close = format!("</{name}");
            rest = find_ascii_ci(rest, &close)
                .and_then(|at| rest.get(at..)?.split_once('>'))
                .map_or("", |(_, after)| after);
            continue;
        }
        if !closing && LITERAL_TAGS.contains(&name.as_str()) {
            flush(&mut current, heading, &mut paragraphs);
            let (text, after) = literal_content(&name, rest);
            if !text.trim().is_empty() {
                paragraphs.push(Paragraph {
                    heading: None,
                    text,
                    literal: true,
                    image: None,
                });
            }
            rest = after;
            continue;
        }
        if let Some(image) = (!closing).then(|| img_tag(inner)).flatten() {
            flush(&mut current, heading, &mut paragraphs);
            paragraphs.push(Paragraph {
                heading: None,
                text: String::new(),
                literal: false,
                image: Some(image),
            });
            continue;
        }
        // Inline tags (`<b>`, `<span>`) just vanish: `a<b>c</b>` reads `ac`, as a browser shows it.
        if BLOCK_TAGS.contains(&name.as_str()) {
            flush(&mut current, heading, &mut paragraphs);
            heading = match name.as_bytes() {
                [b'h', level @ b'1'..=b'6'] if !closing => Some(level - b'0'),
                _ => None,
            };
        }
    }
    current.push_str(rest);
    flush(&mut current, heading, &mut paragraphs);
    paragraphs
}

/// The text of a literal element opened just before `rest`, as a browser shows it, and what
/// follows its end tag. `<textarea>` decodes character references, `<xmp>` does not,
/// `<plaintext>` never ends; a browser drops one newline right after the start tag.
fn literal_content<'h>(name: &str, rest: &'h str) -> (String, &'h str) {
    let end = if name == "plaintext" {
        None
    } else {
        find_ascii_ci(rest, &format!("</{name}"))
    };
    let (body, after) = match end.and_then(|at| rest.split_at_checked(at)) {
        Some((body, end_tag)) => (body, end_tag.split_once('>').map_or("", |(_, after)| after)),
        None => (rest, ""),
    };
    let body = body
        .strip_prefix("\r\n")
        .or_else(|| body.strip_prefix('\n'))
        .unwrap_or(body);
    let body = body.trim_end();
    let text = if name == "textarea" {
        quire_sdk::text::decode_entities(body)
    } else {
        body.to_string()
    };
    (text, after)
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

fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    let h = haystack.as_bytes();
    let n = needle.as_bytes();
    (0..(h.len() + 1).saturating_sub(n.len())).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_text_and_drops_tags() {
        let html = "<div align=\"center\">\n  <img src=\"x.png\">\n  <h1>Title &amp; more</h1>\n\
                    <p>One <b>bold</b> word</p><!-- hidden -->\n<script>var x = 1 < 2;</script>\
                    <STYLE>p {}</style>tail</div>";
        let texts = |html: &str| -> Vec<String> {
            text_paragraphs(html)
                .into_iter()
                .filter(|p| p.image.is_none())
                .map(|p| p.text)
                .collect()
        };
        assert_eq!(texts(html), ["Title & more", "One bold word", "tail"]);
        let paragraphs = text_paragraphs(html);
        assert_eq!(
            paragraphs[0].image.as_ref().map(|i| i.src.as_str()),
            Some("x.png")
        );
        assert_eq!(paragraphs[1].heading, Some(1));
        assert_eq!(paragraphs[2].heading, None);
        assert!(texts("<!-- never closed").is_empty());
        assert_eq!(texts("a < b"), ["a < b"]);
        assert!(texts("<script>unclosed").is_empty());
    }

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
    fn literal_elements_show_their_markup() {
        let paragraphs = text_paragraphs(
            "<p>before</p><xmp>\n<b>bold</b> &amp;\n  kept</xmp>after\
             <TEXTAREA rows=2><i>typed</i> &lt;ok&gt;</textarea><plaintext><p>to the end",
        );
        let shown: Vec<(&str, bool)> = paragraphs
            .iter()
            .map(|p| (p.text.as_str(), p.literal))
            .collect();
        assert_eq!(
            shown,
            [
                ("before", false),
                ("<b>bold</b> &amp;\n  kept", true),
                ("after", false),
                ("<i>typed</i> <ok>", true),
                ("<p>to the end", true),
            ]
        );
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

    /// The references of the SDK's one table, which draw.io's labels read too (Markdown's
    /// own copy once lacked `pound`, `larr` and `rarr`).
    #[test]
    fn references_are_read_as_every_converter_reads_them() {
        let texts: Vec<String> = text_paragraphs("<p>&pound;5 &larr; &rarr; &plusmn;1</p>")
            .into_iter()
            .map(|p| p.text)
            .collect();
        assert_eq!(texts, ["£5 ← → ±1"]);
    }

    #[test]
    fn non_ascii_text_around_tags() {
        let texts = |html: &str| -> Vec<String> {
            text_paragraphs(html).into_iter().map(|p| p.text).collect()
        };
        assert_eq!(
            texts("<p>caf\u{e9}</p><script>\u{e9}</script>\u{65e5}<b \u{fc}>\u{672c}</b><!--\u{e9}-->\u{1f3a8}<\u{e9}"),
            ["caf\u{e9}", "\u{65e5}\u{672c}\u{1f3a8}<\u{e9}"]
        );
    }
}
