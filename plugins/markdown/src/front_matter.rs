//! YAML front matter (`---` ... `---` at the very top, as Jekyll, Hugo and pandoc write it).
//!
//! Done here rather than with pulldown-cmark's metadata blocks: those are recognised
//! anywhere in the document, and would swallow a thematic break followed by a setext heading
//! in the middle of a text. Only the `title`, `author`, `date` and `lang` keys are read; the
//! rest is skipped.
//!
//! Everything read is bounded, since the file is untrusted: the first [`MAX_LINES`] lines of
//! the block, [`MAX_VALUE`] bytes per value and [`MAX_AUTHORS`] authors.

/// Lines of front matter kept for reading keys; a longer block is still skipped whole, but
/// keys past this are not looked at. Jekyll and Hugo blocks are tens of lines.
const MAX_LINES: usize = 4096;
/// Bytes kept of one value (a title, an author, a date); the rest is cut at a character.
const MAX_VALUE: usize = 4096;
/// Authors kept of an `author:` list.
const MAX_AUTHORS: usize = 32;

/// What the front matter says.
#[derive(Debug, Default, PartialEq)]
pub struct FrontMatter {
    pub title: Option<String>,
    /// `author:` as pandoc reads it: one name, or a list of them.
    pub authors: Vec<String>,
    /// `date:`, as written.
    pub date: Option<String>,
    /// `lang:` (BCP 47), as pandoc reads it.
    pub lang: Option<String>,
}

/// The text after any front matter, and what the front matter says.
pub fn split_all(text: &str) -> (&str, FrontMatter) {
    let (body, lines) = block(text);
    let matter = FrontMatter {
        title: scalar(&lines, "title"),
        authors: authors(&lines),
        date: scalar(&lines, "date"),
        lang: lines
            .iter()
            .find_map(|l| l.strip_prefix("lang:"))
            .map(|v| unquote(v.trim()).trim().to_string())
            .filter(|v| quire_sdk::validate::is_language_tag(v)),
    };
    (body, matter)
}

/// The text after any front matter, and the front matter's first [`MAX_LINES`] lines (none
/// without one).
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
            // `offset` counts whole lines: a character boundary.
            return rest
                .get(offset..)
                .map_or((text, Vec::new()), |body| (body, lines));
        }
        if !looks_like_yaml(content) {
            return (text, Vec::new());
        }
        if lines.len() < MAX_LINES {
            lines.push(content);
        }
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

/// The top-level key `key:`: where it is among the lines, and its value on that line.
fn find_key<'a>(lines: &[&'a str], key: &str) -> Option<(usize, &'a str)> {
    lines.iter().enumerate().find_map(|(at, l)| {
        let value = l.strip_prefix(key)?.strip_prefix(':')?;
        (value.is_empty() || value.starts_with([' ', '\t'])).then(|| (at, value.trim()))
    })
}

/// A one-line or block scalar (`|`, `>`) value, unquoted and bounded; `None` when empty.
fn scalar(lines: &[&str], key: &str) -> Option<String> {
    let (at, value) = find_key(lines, key)?;
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
    bounded(&value)
}

/// `author:` as one name, an inline list (`[Ana, "Smith, Jo"]`) or a block list (`- Ana` lines,
/// where an item may be a mapping whose `name:` is the name, as pandoc's templates allow).
fn authors(lines: &[&str]) -> Vec<String> {
    let Some((at, value)) = find_key(lines, "author") else {
        return Vec::new();
    };
    let names: Vec<String> =
        if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            flow_list_items(inner)
                .take(MAX_AUTHORS)
                .map(|item| unquote(item.trim()))
                .collect()
        } else if value.is_empty() {
            let items = lines[at + 1..]
                .iter()
                .take_while(|l| l.starts_with([' ', '\t', '-']) || l.trim().is_empty());
            // Items at the first item's indentation: deeper ones belong to an item's mapping
            // (`affiliations:` lists and the like).
            let mut indent = None;
            items
                .filter_map(|l| {
                    let item = l.trim_start();
                    let depth = l.len() - item.len();
                    let item = item.strip_prefix('-')?;
                    (*indent.get_or_insert(depth) == depth).then_some(item.trim())
                })
                .take(MAX_AUTHORS)
                .map(|item| unquote(item.strip_prefix("name:").map_or(item, str::trim)))
                .collect()
        } else {
            // One name, though it may name several people ("Ana and Jo"): shown as written.
            scalar(lines, "author").into_iter().collect()
        };
    names.iter().filter_map(|n| bounded(n)).collect()
}

/// The items of a YAML flow sequence's inside, split at commas outside quotes.
fn flow_list_items(inner: &str) -> impl Iterator<Item = &str> {
    let mut quote: Option<char> = None;
    let mut start = 0;
    let mut chars = inner.char_indices();
    std::iter::from_fn(move || {
        if start > inner.len() {
            return None;
        }
        for (i, c) in chars.by_ref() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), _) if c == q => quote = None,
                (None, ',') => {
                    // `start` and `i` are at or just after an ASCII comma: boundaries.
                    let item = inner.get(start..i);
                    start = i + 1;
                    return item;
                }
                _ => {}
            }
        }
        let item = inner.get(start..);
        start = inner.len() + 1;
        item
    })
}

/// The value trimmed and cut to [`MAX_VALUE`] bytes at a character boundary; `None` when
/// nothing is left.
fn bounded(value: &str) -> Option<String> {
    let value = value.trim();
    let end = value.floor_char_boundary(MAX_VALUE);
    let value = value.get(..end).unwrap_or_default().trim_end();
    (!value.is_empty()).then(|| value.to_string())
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
    fn reads_authors_and_the_date() {
        let (body, m) = split_all("---\ntitle: T\nauthor: Ana Lima\ndate: 12 mars 2024\n---\nx");
        assert_eq!(body, "x");
        assert_eq!(m.authors, ["Ana Lima"]);
        assert_eq!(m.date.as_deref(), Some("12 mars 2024"));
        let (_, m) =
            split_all("---\nauthor: [Ana, \"Smith, Jo\", 'O''Brien', ]\ndate: '2024-01-28'\n---\n");
        assert_eq!(m.authors, ["Ana", "Smith, Jo", "O'Brien"]);
        assert_eq!(m.date.as_deref(), Some("2024-01-28"));
        let yaml = "---\nauthor:\n- Ana # lead\n- \"Jo\"\ntags: [a]\n---\n";
        assert_eq!(split_all(yaml).1.authors, ["Ana", "Jo"]);
        let yaml =
            "---\nauthor:\n  - name: Ana\n    affiliations:\n      - Uni\n  - name: Jo\n---\n";
        assert_eq!(split_all(yaml).1.authors, ["Ana", "Jo"]);
        // `authors:` and `dated:` are other keys.
        let (_, m) = split_all("---\nauthors: X\ndated: Y\n---\n");
        assert_eq!((m.authors.len(), m.date), (0, None));
    }

    #[test]
    fn bounds_what_it_reads() {
        let many: Vec<String> = (0..1000).map(|i| format!("A{i}")).collect();
        let (_, m) = split_all(&format!("---\nauthor: [{}]\n---\n", many.join(", ")));
        assert_eq!(m.authors.len(), MAX_AUTHORS);
        let (_, m) = split_all(&format!("---\nauthor:\n- {}\n---\n", many.join("\n- ")));
        assert_eq!(m.authors[..2], ["A0", "A1"]);
        assert_eq!(m.authors.len(), MAX_AUTHORS);
        let long = "\u{e9}".repeat(MAX_VALUE);
        let (_, m) = split_all(&format!("---\ntitle: {long}\ndate: {long}\n---\n"));
        let title = m.title.unwrap();
        assert!(title.len() <= MAX_VALUE && title.len() > MAX_VALUE - 2);
        assert_eq!(m.date.unwrap(), title);
        // A block longer than what is kept is still skipped whole.
        let yaml = format!("---\n{}title: late\n---\nbody", "k: v\n".repeat(MAX_LINES));
        let (body, m) = split_all(&yaml);
        assert_eq!((body, m.title), ("body", None));
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
