//! Labels to styled runs. With `html=1` a label is a fragment of HTML as draw.io's editor
//! writes it: `<b>`, `<i>`, `<u>`, `<font color>`, `<span style>`, `<br>`, `<div>` lines.
//! That subset is read here by hand (a full HTML parser would be most of the component's
//! size); anything else contributes its text only.

use quire_sdk::{Align, Run};

use crate::style::{font_family, parse_color};

/// Tags whose content is never text.
const SKIPPED: [&str; 4] = ["script", "style", "head", "title"];
const VOID: [&str; 8] = ["br", "img", "hr", "input", "meta", "link", "wbr", "col"];
const BLOCKS: [&str; 16] = [
    "div",
    "p",
    "li",
    "tr",
    "ul",
    "ol",
    "table",
    "blockquote",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
];

/// A label read: its runs, and the alignment its HTML blocks ask for.
pub struct Label {
    pub runs: Vec<Run>,
    /// The `text-align` (or `align`) of the label's blocks when they agree, as draw.io's
    /// editor writes a justified label (`<div style="text-align: justify">`); `None`
    /// leaves the cell style's `align`.
    pub align: Option<Align>,
}

/// The runs of a label: `html` says whether it is HTML or plain text. `base` gives the
/// font, size, colour and weight from the cell's style.
pub fn read(label: &str, html: bool, base: &Run) -> Label {
    let mut b = Builder::default();
    if html {
        b.html(label, base);
    } else {
        let text = label.replace("\r\n", "\n").replace('\r', "\n");
        b.push_raw(&text, base);
    }
    let align = match b.aligns {
        Aligns::One(align) => Some(align),
        Aligns::None | Aligns::Mixed => None,
    };
    Label {
        runs: b.finish(),
        align,
    }
}

/// The runs of a label, without its blocks' alignment (see [`read`]).
#[cfg(test)]
pub fn runs(label: &str, html: bool, base: &Run) -> Vec<Run> {
    read(label, html, base).runs
}

#[derive(Default)]
struct Builder {
    runs: Vec<Run>,
    aligns: Aligns,
}

/// The alignments a label's blocks asked for so far.
#[derive(Default, Clone, Copy, PartialEq, Debug)]
enum Aligns {
    #[default]
    None,
    One(Align),
    Mixed,
}

impl Aligns {
    fn add(&mut self, align: Align) {
        *self = match *self {
            Aligns::None => Aligns::One(align),
            Aligns::One(a) if a == align => Aligns::One(a),
            _ => Aligns::Mixed,
        };
    }
}

/// The alignment a block tag asks for: its style's `text-align`, else its `align`.
fn block_align(tag: &Tag) -> Option<Align> {
    let from_css = tag.attr("style").and_then(|css| {
        css.split(';').rev().find_map(|decl| {
            let (name, value) = decl.split_once(':')?;
            (name.trim().eq_ignore_ascii_case("text-align")).then(|| value.trim())
        })
    });
    let value = from_css.or_else(|| tag.attr("align"))?;
    match value.to_ascii_lowercase().as_str() {
        "left" | "start" => Some(Align::Left),
        "center" => Some(Align::Center),
        "right" | "end" => Some(Align::Right),
        "justify" => Some(Align::Justify),
        _ => None,
    }
}

fn same_style(a: &Run, b: &Run) -> bool {
    a.font == b.font
        && a.size == b.size
        && a.bold == b.bold
        && a.italic == b.italic
        && a.underline == b.underline
        && a.strike == b.strike
        && a.color == b.color
        && a.link == b.link
}

impl Builder {
    fn push_raw(&mut self, text: &str, style: &Run) {
        if text.is_empty() {
            return;
        }
        match self.runs.last_mut() {
            Some(last) if same_style(last, style) => last.text.push_str(text),
            _ => {
                let mut run = style.clone();
                run.text = text.to_string();
                self.runs.push(run);
            }
        }
    }

    fn last_char(&self) -> Option<char> {
        self.runs.iter().rev().find_map(|r| r.text.chars().last())
    }

    /// HTML whitespace: a run of spaces and line ends is one space, and none at the start
    /// of a line.
    fn push_collapsed(&mut self, text: &str, style: &Run) {
        let mut out = String::with_capacity(text.len());
        let mut space = matches!(self.last_char(), None | Some(' ') | Some('\n'));
        for ch in text.chars() {
            if ch.is_whitespace() && ch != '\u{a0}' {
                if !space {
                    out.push(' ');
                    space = true;
                }
            } else {
                out.push(if ch == '\u{a0}' { ' ' } else { ch });
                space = false;
            }
        }
        self.push_raw(&out, style);
    }

    fn trim_line_end(&mut self) {
        while let Some(last) = self.runs.last_mut() {
            let trimmed = last.text.trim_end_matches(' ').len();
            last.text.truncate(trimmed);
            if last.text.is_empty() {
                self.runs.pop();
            } else {
                break;
            }
        }
    }

    fn newline(&mut self, style: &Run) {
        self.trim_line_end();
        self.push_raw("\n", style);
    }

    /// A line break unless one is already there (block boundaries).
    fn block_break(&mut self, style: &Run) {
        if !matches!(self.last_char(), None | Some('\n')) {
            self.newline(style);
        }
    }

    fn html(&mut self, src: &str, base: &Run) {
        let mut stack: Vec<(String, Run)> = Vec::new();
        let mut skip_depth = 0usize;
        let mut rest = src;
        while !rest.is_empty() {
            let current = stack.last().map(|(_, s)| s).unwrap_or(base).clone();
            let Some((text, from_lt)) = rest.find('<').and_then(|lt| rest.split_at_checked(lt))
            else {
                if skip_depth == 0 {
                    self.push_collapsed(&quire_sdk::text::decode_entities(rest), &current);
                }
                break;
            };
            if !text.is_empty() && skip_depth == 0 {
                self.push_collapsed(&quire_sdk::text::decode_entities(text), &current);
            }
            rest = from_lt;
            if let Some(after) = rest.strip_prefix("<!--") {
                rest = after.split_once("-->").map_or("", |(_, after)| after);
                continue;
            }
            let Some((inner, after)) = split_tag(rest) else {
                // A lone `<` is text.
                if skip_depth == 0 {
                    self.push_collapsed("<", &current);
                }
                rest = rest.strip_prefix('<').unwrap_or("");
                continue;
            };
            let tag = Tag::parse(inner);
            rest = after;
            let Some(tag) = tag else { continue };
            if SKIPPED.contains(&tag.name.as_str()) {
                if tag.closing {
                    skip_depth = skip_depth.saturating_sub(1);
                } else if !tag.self_closing {
                    skip_depth += 1;
                }
                continue;
            }
            if skip_depth > 0 {
                continue;
            }
            let name = tag.name.as_str();
            if tag.closing {
                if let Some(pos) = stack.iter().rposition(|(n, _)| n == name) {
                    stack.truncate(pos);
                }
                if BLOCKS.contains(&name) {
                    self.block_break(&current);
                } else if matches!(name, "td" | "th") {
                    self.push_collapsed(" ", &current);
                }
                continue;
            }
            match name {
                "br" => self.newline(&current),
                "hr" => self.block_break(&current),
                _ if BLOCKS.contains(&name) => self.block_break(&current),
                _ => {}
            }
            if name == "li" {
                self.push_raw("• ", &current);
            }
            if BLOCKS.contains(&name) {
                if let Some(align) = block_align(&tag) {
                    self.aligns.add(align);
                }
            }
            if tag.self_closing || VOID.contains(&name) {
                continue;
            }
            let mut style = current;
            tag.apply(&mut style);
            stack.push((tag.name, style));
            // Unclosed tags in broken labels must not pile up without bound.
            if stack.len() > 256 {
                stack.remove(0);
            }
        }
    }

    fn finish(mut self) -> Vec<Run> {
        self.trim_line_end();
        while let Some(last) = self.runs.last_mut() {
            let len = last.text.trim_end().len();
            last.text.truncate(len);
            if last.text.is_empty() {
                self.runs.pop();
            } else {
                break;
            }
        }
        while let Some(first) = self.runs.first_mut() {
            let trimmed = first.text.trim_start().to_string();
            if trimmed.is_empty() {
                self.runs.remove(0);
            } else {
                first.text = trimmed;
                break;
            }
        }
        self.runs
    }
}

/// A tag at the start of `s` (`<` first) split at the `>` closing it, skipping quoted
/// attribute values: the text between `<` and `>`, and what follows `>`. `None` when `<`
/// does not start a tag.
fn split_tag(s: &str) -> Option<(&str, &str)> {
    let body = s.strip_prefix('<')?;
    let second = body.chars().next()?;
    if !(second.is_ascii_alphabetic() || second == '/' || second == '!') {
        return None;
    }
    let mut quote: Option<char> = None;
    for (i, ch) in body.char_indices() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"') | (None, '\'') => quote = Some(ch),
            (None, '>') => {
                let (inner, after) = body.split_at_checked(i)?;
                return Some((inner, after.strip_prefix('>')?));
            }
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

struct Tag {
    name: String,
    closing: bool,
    self_closing: bool,
    attrs: Vec<(String, String)>,
}

impl Tag {
    fn parse(inner: &str) -> Option<Tag> {
        let (closing, inner) = match inner.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, inner),
        };
        let self_closing = inner.trim_end().ends_with('/');
        let inner = inner.trim_end().trim_end_matches('/');
        let (name, attrs) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
        let name = name.to_ascii_lowercase();
        if name.is_empty() || name.starts_with('!') {
            return None;
        }
        Some(Tag {
            name,
            closing,
            self_closing,
            attrs: parse_attrs(attrs),
        })
    }

    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn apply(&self, run: &mut Run) {
        match self.name.as_str() {
            "b" | "strong" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => run.bold = true,
            "i" | "em" | "cite" => run.italic = true,
            "u" | "ins" => run.underline = true,
            "s" | "strike" | "del" => run.strike = true,
            "code" | "tt" | "kbd" | "pre" => run.font = quire_sdk::FontFamily::Courier,
            "a" => {
                if let Some(href) = self.attr("href").filter(|h| !h.trim().is_empty()) {
                    run.link = Some(href.trim().to_string());
                }
            }
            "font" => {
                if let Some(Some(c)) = self.attr("color").and_then(parse_color) {
                    run.color = Some(c);
                }
                if let Some(face) = self.attr("face") {
                    run.font = font_family(face);
                }
                if let Some(size) = self.attr("size").and_then(|s| s.trim().parse::<u8>().ok()) {
                    // The sizes of HTML's <font size=1..7>, in pixels (= points here).
                    const SIZES: [f64; 7] = [10.0, 13.0, 16.0, 18.0, 24.0, 32.0, 48.0];
                    run.size = SIZES[(size.clamp(1, 7) - 1) as usize];
                }
            }
            _ => {}
        }
        if let Some(css) = self.attr("style") {
            apply_css(css, run);
        }
    }
}

fn parse_attrs(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let key_end = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let (key, after_key) = rest.split_at_checked(key_end).unwrap_or((rest, ""));
        let key = key.to_ascii_lowercase();
        rest = after_key.trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let quoted = ['"', '\'']
                .into_iter()
                .find_map(|q| Some((q, after.strip_prefix(q)?)));
            if let Some((q, body)) = quoted {
                let (inside, tail) = body.split_once(q).unwrap_or((body, ""));
                value = quire_sdk::text::decode_entities(inside);
                rest = tail;
            } else {
                let (raw, tail) = after.split_once(char::is_whitespace).unwrap_or((after, ""));
                value = quire_sdk::text::decode_entities(raw);
                rest = tail;
            }
        }
        let consumed = key_end > 0 || !value.is_empty();
        if !key.is_empty() {
            out.push((key, value));
        }
        rest = rest.trim_start();
        if !consumed {
            // Nothing consumed (stray `=`): step over it.
            rest = rest.get(1..).unwrap_or("");
        }
    }
    out
}

/// The CSS declarations draw.io writes in `style` attributes.
fn apply_css(css: &str, run: &mut Run) {
    for decl in css.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim().to_ascii_lowercase();
        let value = value.trim().trim_end_matches("!important").trim();
        let lower = value.to_ascii_lowercase();
        match prop.as_str() {
            "color" => {
                if let Some(Some(c)) = parse_color(value) {
                    run.color = Some(c);
                }
            }
            "font-size" => {
                if let Some(size) = css_size(&lower, run.size) {
                    run.size = size;
                }
            }
            "font-weight" => {
                run.bold = lower == "bold"
                    || lower == "bolder"
                    || lower.parse::<u32>().is_ok_and(|w| w >= 600);
            }
            "font-style" => run.italic = lower == "italic" || lower == "oblique",
            "text-decoration" | "text-decoration-line" => {
                run.underline |= lower.contains("underline");
                run.strike |= lower.contains("line-through");
            }
            "font-family" => run.font = font_family(value),
            _ => {}
        }
    }
}

/// A CSS length as points: draw.io pixels are points here; `em` and `%` scale the
/// current size.
fn css_size(v: &str, current: f64) -> Option<f64> {
    let (number, factor) = if let Some(n) = v.strip_suffix("px") {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix("pt") {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix("em") {
        (n, current)
    } else if let Some(n) = v.strip_suffix('%') {
        (n, current / 100.0)
    } else {
        (v, 1.0)
    };
    let size = number.trim().parse::<f64>().ok()? * factor;
    (size.is_finite() && size > 0.0).then(|| size.clamp(1.0, 500.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::Color;

    fn base() -> Run {
        Run::plain("", 12.0)
    }

    fn text(runs: &[Run]) -> String {
        runs.iter().map(|r| r.text.as_str()).collect()
    }

    #[test]
    fn html_lines_and_styles() {
        let r = runs(
            "<b>Status Dashboard<br>(Context)</b><div>[Software&nbsp;System]</div><br><div>Sends  <i>SMS</i>\n notes</div>",
            true,
            &base(),
        );
        assert_eq!(
            text(&r),
            "Status Dashboard\n(Context)\n[Software System]\n\nSends SMS notes"
        );
        assert!(r[0].bold);
        assert!(r.iter().any(|x| x.italic && x.text == "SMS"));
    }

    #[test]
    fn fonts_css_links_and_broken_markup() {
        let r = runs(
            "<font color=\"#ff0000\" style=\"font-size: 20px\">Hot</font> <span style=\"font-weight:700;text-decoration:underline\">x</span> <a href=\"https://e.org\">l</a> 1 < 2 &unknown; <script>no</script>",
            true,
            &base(),
        );
        assert_eq!(text(&r), "Hot x l 1 < 2 &unknown;");
        assert_eq!(r[0].color, Some(Color::rgb(255, 0, 0)));
        assert_eq!(r[0].size, 20.0);
        assert!(r.iter().any(|x| x.bold && x.underline && x.text == "x"));
        assert!(r.iter().any(|x| x.link.as_deref() == Some("https://e.org")));
        // Unclosed tags and stray brackets do not lose text.
        assert_eq!(text(&runs("<b>a<i>b</b>c <", true, &base())), "abc <");
    }

    #[test]
    fn the_blocks_alignment_is_the_labels_when_they_agree() {
        let align = |label: &str| read(label, true, &base()).align;
        assert_eq!(
            align("<div style=\"text-align: justify;\">a b</div>"),
            Some(Align::Justify)
        );
        assert_eq!(
            align("<div style=\"TEXT-ALIGN:right\">a</div><div>b</div>"),
            Some(Align::Right)
        );
        assert_eq!(align("<p align=\"center\">a</p>"), Some(Align::Center));
        assert_eq!(
            align("<div style=\"text-align: justify\">a</div><div style=\"text-align: center\">b</div>"),
            None
        );
        assert_eq!(align("<span style=\"text-align: justify\">a</span>"), None);
        assert_eq!(align("plain <b>text</b>"), None);
    }

    #[test]
    fn plain_labels_keep_their_lines() {
        let r = runs("  one\r\ntwo <b>  ", false, &base());
        assert_eq!(text(&r), "one\ntwo <b>");
        assert!(runs("<br>&nbsp;<div></div>", true, &base()).is_empty());
    }

    #[test]
    fn non_ascii_text_tags_and_attributes() {
        let r = runs(
            "\u{e9}<b \u{fc}=\u{e9} title='\u{65e5}'>\u{65e5}</b><\u{e9}>&\u{e9};&amp;\u{1f3a8}<!--\u{e9}-->\
             <span style=\"color:#ff0000\">\u{fc}</span>",
            true,
            &base(),
        );
        assert_eq!(text(&r), "\u{e9}\u{65e5}<\u{e9}>&\u{e9};&\u{1f3a8}\u{fc}");
        assert!(r.iter().any(|x| x.bold && x.text == "\u{65e5}"));
        assert!(r
            .iter()
            .any(|x| x.color == Some(Color::rgb(255, 0, 0)) && x.text == "\u{fc}"));
        let tag = Tag::parse("a \u{e9}=\"x\" href=\u{fc}\u{e9} =\"\"\u{e9}").unwrap();
        assert_eq!(tag.attr("\u{e9}"), Some("x"));
        assert_eq!(tag.attr("href"), Some("\u{fc}\u{e9}"));
    }
}
