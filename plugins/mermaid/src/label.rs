//! Label text as mermaid shows it: entity codes (`#quot;`, `#9829;`, `&amp;`), `<br>` line
//! breaks, simple HTML emphasis (`<b>`, `<i>`, ...), and markdown strings ("`**bold** _it_`")
//! turned into styled runs. Lines are trimmed: indentation inside a quoted label is layout of
//! the source, not of the text.

use quire_sdk::{Align, Run, Text, VAlign};

use crate::parse::Label;
use crate::style::Look;

/// Mermaid's default font is 16 px: 12 points.
pub const FONT_SIZE: f64 = 12.0;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Marks {
    bold: bool,
    italic: bool,
    underline: bool,
    strike: bool,
}

/// One character of a label with its emphasis; `'\n'` is a line break.
type Styled = (char, Marks);

/// The label as model text in the look's colour, size and weight, centred.
pub fn to_text(label: &Label, look: &Look, link: Option<&str>) -> Text {
    let (text, _) = crate::undrawn::strip(label);
    let text = crate::tex::linearize_formulas(&text);
    let chars = if label.markdown {
        markdown(&decode_entities(&text))
    } else {
        html(&decode_entities(&text))
    };
    let lines = tidy(chars);
    let size = look.font_size.unwrap_or(FONT_SIZE);
    let mut runs: Vec<Run> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut line = line.clone();
        if i + 1 < lines.len() {
            line.push(('\n', Marks::default()));
        }
        for (ch, m) in line {
            let same = runs.last().is_some_and(|r: &Run| {
                r.bold == (m.bold || look.bold == Some(true))
                    && r.italic == (m.italic || look.italic == Some(true))
                    && r.underline == m.underline
                    && r.strike == m.strike
            });
            if !same {
                let mut run = Run::plain("", size);
                run.bold = m.bold || look.bold == Some(true);
                run.italic = m.italic || look.italic == Some(true);
                run.underline = m.underline;
                run.strike = m.strike;
                run.color = look.color;
                run.link = link.map(str::to_string);
                runs.push(run);
            }
            if let Some(r) = runs.last_mut() {
                r.text.push(ch);
            }
        }
    }
    Text {
        runs,
        align: Align::Center,
        valign: VAlign::Middle,
        line_height: 1.2,
        direction: None,
        padding: None,
    }
}

/// Splits into lines, trims each, and drops empty lines at both ends.
fn tidy(chars: Vec<Styled>) -> Vec<Vec<Styled>> {
    let mut lines: Vec<Vec<Styled>> = vec![Vec::new()];
    for (ch, m) in chars {
        match ch {
            '\n' => lines.push(Vec::new()),
            '\r' => {}
            '\t' => lines.last_mut().into_iter().for_each(|l| l.push((' ', m))),
            _ => lines.last_mut().into_iter().for_each(|l| l.push((ch, m))),
        }
    }
    for line in lines.iter_mut() {
        while line.last().is_some_and(|c| c.0.is_whitespace()) {
            line.pop();
        }
        let lead = line.iter().take_while(|c| c.0.is_whitespace()).count();
        line.drain(..lead);
    }
    while lines.last().is_some_and(Vec::is_empty) && lines.len() > 1 {
        lines.pop();
    }
    let lead = lines.iter().take_while(|l| l.is_empty()).count();
    if lead < lines.len() {
        lines.drain(..lead);
    }
    lines
}

/// Replaces mermaid's `#name;` / `#123;` codes and HTML's `&name;` / `&#123;` / `&#x7b;`.
pub fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some((before, mark, after)) = split_at_mark(rest) {
        out.push_str(before);
        let body_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .unwrap_or(after.len());
        let decoded = after
            .split_at_checked(body_len)
            .filter(|(body, _)| !body.is_empty())
            .and_then(|(body, tail)| Some((entity(mark, body)?, tail.strip_prefix(';')?)));
        match decoded {
            Some((c, tail)) => {
                out.push(c);
                rest = tail;
            }
            None => {
                out.push(mark);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `s` around its first `#` or `&`: the text before, the mark, the text after.
fn split_at_mark(s: &str) -> Option<(&str, char, &str)> {
    let (i, mark) = s.char_indices().find(|&(_, c)| c == '#' || c == '&')?;
    let (before, from) = s.split_at_checked(i)?;
    Some((before, mark, from.strip_prefix(mark)?))
}

/// What a reference after `mark` names: mermaid's `#` takes a name or a bare number
/// (`#quot;`, `#9829;`), HTML's `&` a name or `#` and a number.
fn entity(mark: char, body: &str) -> Option<char> {
    let named = quire_sdk::text::entity(body);
    match mark {
        '#' => named.or_else(|| quire_sdk::text::entity(&format!("#{body}"))),
        _ => named,
    }
}

/// HTML the way mermaid's HTML labels show it: `<br>` breaks the line, emphasis tags style
/// the text, other known tags disappear, anything else that merely looks like a tag stays.
fn html(s: &str) -> Vec<Styled> {
    let mut out = Vec::with_capacity(s.len());
    let mut m = Marks::default();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some((name, closing, after)) = tag(rest) {
                let on = !closing;
                match name.as_str() {
                    "br" => out.push(('\n', m)),
                    "b" | "strong" => m.bold = on,
                    "i" | "em" => m.italic = on,
                    "u" | "ins" => m.underline = on,
                    "s" | "del" | "strike" => m.strike = on,
                    "p" | "div" if closing => out.push(('\n', m)),
                    _ => {}
                }
                rest = after;
                continue;
            }
        }
        out.push((c, m));
        let mut chars = rest.chars();
        chars.next();
        rest = chars.as_str();
    }
    out
}

/// A known tag at the start of `s`: (lower-case name, is closing, the text after it).
fn tag(s: &str) -> Option<(String, bool, &str)> {
    const KNOWN: &[&str] = &[
        "br", "b", "strong", "i", "em", "u", "ins", "s", "del", "strike", "span", "div", "p",
        "small", "big", "code", "sub", "sup", "font", "center", "a", "mark", "img",
    ];
    // `<` directly followed by a letter or `/`, as in HTML; `a < b` is text.
    let body = s.strip_prefix('<')?;
    if !body.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') {
        return None;
    }
    let (inner, rest) = body.split_once('>')?;
    let inner = inner.trim();
    if inner.contains('<') {
        return None;
    }
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(r) => (true, r.trim_start()),
        None => (false, inner),
    };
    let name: String = inner
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    // The name is ASCII: its length is a character boundary.
    let after = inner.get(name.len()..).unwrap_or("");
    let plain_end = after.is_empty()
        || after.starts_with(char::is_whitespace)
        || after.trim() == "/"
        || after.starts_with('/');
    (KNOWN.contains(&name.as_str()) && plain_end).then_some((name, closing, rest))
}

/// A markdown string: `**bold**`/`__bold__`, `*italic*`/`_italic_`, line breaks kept, `<br>`
/// honoured. An emphasis mark without a partner is plain text.
fn markdown(s: &str) -> Vec<Styled> {
    let base = html(s);
    let chars: Vec<char> = base.iter().map(|c| c.0).collect();
    // Delimiter runs: (position, length, kind).
    let mut delims: Vec<(usize, usize, char)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '*' || c == '_' {
            let n = if chars.get(i + 1) == Some(&c) { 2 } else { 1 };
            let word = |j: Option<usize>| {
                j.and_then(|j| chars.get(j))
                    .is_some_and(|c| c.is_alphanumeric())
            };
            // Underscores inside a word are part of it (snake_case).
            let inside = c == '_' && word(i.checked_sub(1)) && word(Some(i + n));
            if !inside {
                delims.push((i, n, c));
            }
            i += n;
        } else {
            i += 1;
        }
    }
    let mut pair_of: Vec<Option<usize>> = vec![None; delims.len()];
    let mut open: Vec<usize> = Vec::new();
    for (k, &(_, n, c)) in delims.iter().enumerate() {
        match open
            .iter()
            .rposition(|&o| delims[o].1 == n && delims[o].2 == c)
        {
            Some(pos) => {
                let o = open[pos];
                pair_of[o] = Some(k);
                pair_of[k] = Some(o);
                open.truncate(pos);
            }
            None => open.push(k),
        }
    }
    let mut skip = vec![false; chars.len()];
    let mut toggle: Vec<Option<usize>> = vec![None; chars.len()];
    for (k, &(pos, n, _)) in delims.iter().enumerate() {
        if pair_of[k].is_some() {
            for s in skip.iter_mut().skip(pos).take(n) {
                *s = true;
            }
            toggle[pos] = Some(n);
        }
    }
    let mut out = Vec::with_capacity(chars.len());
    let mut bold = false;
    let mut italic = false;
    for (i, &(c, m)) in base.iter().enumerate() {
        match toggle[i] {
            Some(2) => bold = !bold,
            Some(_) => italic = !italic,
            None => {}
        }
        if !skip[i] {
            let mut m = m;
            m.bold |= bold;
            m.italic |= italic;
            out.push((c, m));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str, markdown: bool) -> Text {
        to_text(
            &Label {
                text: s.into(),
                markdown,
            },
            &Look::default(),
            None,
        )
    }

    #[test]
    fn entities_and_line_breaks() {
        assert_eq!(
            decode_entities("A double quote:#quot;"),
            "A double quote:\""
        );
        assert_eq!(decode_entities("A dec char:#9829;"), "A dec char:♥");
        assert_eq!(
            decode_entities("a &amp; b &#x41; #notone; c#"),
            "a & b A #notone; c#"
        );
        let t = text("flowDetector.ts<br/>detector(txt, config)", false);
        assert_eq!(t.plain_text(), "flowDetector.ts\ndetector(txt, config)");
        let t = text("\n\n提交申请\n熊大\n", false);
        assert_eq!(t.plain_text(), "提交申请\n熊大");
        assert_eq!(text("a < b > c", false).plain_text(), "a < b > c");
    }

    #[test]
    fn non_ascii_text_around_entities_and_tags() {
        assert_eq!(
            decode_entities("\u{e9}#quot;\u{65e5}&amp;\u{1f3a8}#\u{e9};&\u{fc}#35;"),
            "\u{e9}\"\u{65e5}&\u{1f3a8}#\u{e9};&\u{fc}#"
        );
        let t = text(
            "\u{e9}<b>\u{65e5}</b><\u{fc}> <i \u{e9}>\u{1f3a8}</i>",
            false,
        );
        assert_eq!(t.plain_text(), "\u{e9}\u{65e5}<\u{fc}> \u{1f3a8}");
        assert!(t.runs.iter().any(|r| r.bold && r.text == "\u{65e5}"));
        assert!(t.runs.iter().any(|r| r.italic && r.text == "\u{1f3a8}"));
    }

    #[test]
    fn html_emphasis_becomes_runs() {
        let t = text("plain <b>bold</b> <i>it</i>", false);
        let bold: Vec<&str> = t
            .runs
            .iter()
            .filter(|r| r.bold)
            .map(|r| r.text.as_str())
            .collect();
        assert_eq!(bold, ["bold"]);
        assert!(t.runs.iter().any(|r| r.italic && r.text == "it"));
    }

    #[test]
    fn markdown_strings() {
        let t = text("The **cat**\n  in the hat", true);
        assert_eq!(t.plain_text(), "The cat\nin the hat");
        assert!(t.runs.iter().any(|r| r.bold && r.text == "cat"));
        let t = text("This **is** _Markdown_", true);
        assert!(t.runs.iter().any(|r| r.italic && r.text == "Markdown"));
        let t = text("snake_case and 2 * 3", true);
        assert_eq!(t.plain_text(), "snake_case and 2 * 3");
        assert!(t.runs.iter().all(|r| !r.italic));
    }
}
