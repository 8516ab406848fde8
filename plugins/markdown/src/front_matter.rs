//! YAML front matter (`---` ... `---` at the very top, as Jekyll, Hugo and pandoc write it).
//!
//! Done here rather than with pulldown-cmark's metadata blocks: those are recognised
//! anywhere in the document, and would swallow a thematic break followed by a setext heading
//! in the middle of a text. Only the `title` and `lang` keys are read; the rest is skipped.

/// What the front matter says.
#[derive(Debug, Default, PartialEq)]
pub struct FrontMatter {
    pub title: Option<String>,
    /// `lang:` (BCP 47), as pandoc reads it.
    pub lang: Option<String>,
}

/// The text after any front matter, and the front matter's title and language.
pub fn split_all(text: &str) -> (&str, FrontMatter) {
    let (body, lines) = block(text);
    let matter = FrontMatter {
        title: title(&lines),
        lang: lines
            .iter()
            .find_map(|l| l.strip_prefix("lang:"))
            .map(|v| unquote(v.trim()).trim().to_string())
            .filter(|v| quire_sdk::validate::is_language_tag(v)),
    };
    (body, matter)
}

/// The text after any front matter, and the front matter's lines (none without one).
fn block(text: &str) -> (&str, Vec<&str>) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return (text, Vec::new());
    };
    let mut offset = 0;
    let mut lines = Vec::new();
    for line in rest.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        offset += line.len();
        if content.trim_end() == "---" || content.trim_end() == "..." {
            if !lines.iter().all(|l: &&str| looks_like_yaml(l)) {
                return (text, Vec::new());
            }
            // `offset` counts whole lines: a character boundary.
            return rest
                .get(offset..)
                .map_or((text, Vec::new()), |body| (body, lines));
        }
        lines.push(content);
    }
    // Never closed: not front matter but a thematic break and text.
    (text, Vec::new())
}

/// Whether a line can belong to a YAML mapping: `key: value`, a list item, an indented
/// continuation, a comment or a blank line. A paragraph of prose between two `---` lines does
/// not pass, so it stays Markdown.
fn looks_like_yaml(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') || line.starts_with([' ', '\t']) || t.starts_with("- ") {
        return true;
    }
    match t.split_once(':') {
        Some((key, value)) => {
            let key = key.trim_matches(['"', '\'']);
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '))
                && (value.is_empty() || value.starts_with(' '))
        }
        None => false,
    }
}

fn title(lines: &[&str]) -> Option<String> {
    let (at, value) = lines
        .iter()
        .enumerate()
        .find_map(|(at, l)| Some((at, l.strip_prefix("title:")?.trim())))?;
    let value = if value.starts_with(['|', '>']) {
        // A block scalar: the indented lines that follow, joined.
        let parts: Vec<&str> = lines[at + 1..]
            .iter()
            .take_while(|l| l.starts_with([' ', '\t']) || l.trim().is_empty())
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect();
        parts.join(" ")
    } else {
        unquote(value)
    };
    let value = value.trim().to_string();
    (!value.is_empty()).then_some(value)
}

fn unquote(v: &str) -> String {
    if let Some(inner) = v.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        inner.replace("\\\"", "\"").replace("\\\\", "\\")
    } else if let Some(inner) = v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        inner.replace("''", "'")
    } else {
        // A plain scalar ends at a comment.
        v.split(" #").next().unwrap_or(v).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> (&str, Option<String>) {
        let (body, matter) = split_all(text);
        (body, matter.title)
    }

    #[test]
    fn reads_the_language_and_refuses_what_is_not_a_tag() {
        let (_, m) = split_all("---\ntitle: T\nlang: ja\n---\ntext");
        assert_eq!(m.lang.as_deref(), Some("ja"));
        let (_, m) = split_all("---\nlang: \"zh-Hant\"\n---\ntext");
        assert_eq!(m.lang.as_deref(), Some("zh-Hant"));
        let (_, m) = split_all("---\nlang: not a tag!\n---\ntext");
        assert_eq!(m.lang, None);
    }

    #[test]
    fn skips_front_matter_and_reads_the_title() {
        let (body, title) = split("---\ntitle: \"My \\\"Doc\\\"\"\ntags:\n  - a\n---\n# Hi\n");
        assert_eq!(body, "# Hi\n");
        assert_eq!(title.as_deref(), Some("My \"Doc\""));
        let (body, title) = split("---\nlayout: post\n...\ntext");
        assert_eq!((body, title), ("text", None));
        let (_, title) = split("---\ntitle: >\n  Two\n  lines\n---\n");
        assert_eq!(title.as_deref(), Some("Two lines"));
        let (_, title) = split("---\ntitle: plain # comment\n---\n");
        assert_eq!(title.as_deref(), Some("plain"));
        let (body, title) =
            split("---\nt\u{e9}: \u{e9}\ntitle: '\u{65e5}\u{672c}'\n---\n\u{1f3a8} \u{e9}\n");
        assert_eq!(body, "\u{1f3a8} \u{e9}\n");
        assert_eq!(title.as_deref(), Some("\u{65e5}\u{672c}"));
    }

    #[test]
    fn leaves_markdown_alone() {
        let text = "---\nJust a paragraph, not YAML.\n---\n";
        assert_eq!(split(text), (text, None));
        let text = "---\nnever closed: yes\n";
        assert_eq!(split(text), (text, None));
        let text = "# Title\n---\n";
        assert_eq!(split(text), (text, None));
    }
}
