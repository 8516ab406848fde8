//! Link targets: which `href`s become clickable, and `#id` links turned into heading
//! anchors the flow layout resolves to `#page=N`.

use std::collections::HashMap;

use quire_sdk::flow::{slug, Block, Inline};

/// Schemes a reader can follow from a document. Script and file URLs never become links.
const SCHEMES: &[&str] = &["http", "https", "mailto", "ftp", "tel"];

/// What an `href` turns into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// An absolute URL to keep.
    Url(String),
    /// `#id` inside the document, resolved after layout order is known.
    Fragment(String),
    /// Relative to a page address the document does not carry: not clickable.
    Relative,
    /// A scheme that must not be followed (`javascript:`, `file:`, ...) or nothing at all.
    None,
}

/// Judges `href` against the document's `<base href>` (when it is an absolute http(s) URL).
pub fn judge(href: &str, base: Option<&str>) -> Target {
    // URL parsers drop tabs and newlines anywhere and spaces at either end.
    let href: String = href
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    if href.is_empty() {
        return Target::None;
    }
    if let Some(fragment) = href.strip_prefix('#') {
        return if fragment.is_empty() {
            Target::None
        } else {
            Target::Fragment(fragment.to_string())
        };
    }
    if let Some(scheme) = scheme(&href) {
        return if SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()) {
            Target::Url(href)
        } else {
            Target::None
        };
    }
    match base {
        Some(base) => Target::Url(join(base, &href)),
        None if href.starts_with("//") => Target::Url(format!("https:{href}")),
        None => Target::Relative,
    }
}

/// The scheme of an absolute URL (`http` of `http://...`), per the URL standard's syntax.
fn scheme(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
        .then_some(scheme)
}

/// A base URL if it is absolute http(s), the only kind relative links can be joined to.
pub fn usable_base(href: &str) -> Option<String> {
    let href = href.trim();
    let lower = href.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    (!rest.is_empty()).then(|| href.to_string())
}

/// `relative` resolved against the absolute http(s) URL `base`; dot segments are left for
/// the viewer, which normalises them as browsers do.
fn join(base: &str, relative: &str) -> String {
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let after_scheme = base.get(scheme_end..).unwrap_or("");
    let authority_end = scheme_end
        + after_scheme
            .find(['/', '?', '#'])
            .unwrap_or(after_scheme.len());
    if relative.starts_with("//") {
        // The scheme and its colon, `https:`.
        let scheme = base.get(..scheme_end.saturating_sub(2)).unwrap_or("");
        return format!("{scheme}{relative}");
    }
    if relative.starts_with('/') {
        let origin = base.get(..authority_end).unwrap_or(base);
        return format!("{origin}{relative}");
    }
    let no_fragment = base.split('#').next().unwrap_or(base);
    if relative.starts_with('?') {
        let no_query = no_fragment.split('?').next().unwrap_or(no_fragment);
        return format!("{no_query}{relative}");
    }
    // The path cut after its last `/`: the origin alone when it has none.
    let path = no_fragment.split('?').next().unwrap_or(no_fragment);
    let (origin, path) = path.split_at_checked(authority_end).unwrap_or((path, ""));
    let dir = path.rfind('/').and_then(|i| path.get(..i)).unwrap_or("");
    format!("{origin}{dir}/{relative}")
}

/// Rewrites `#id` links: to `#slug` of the heading the id belongs to (the form flow layout
/// turns into `#page=N`), and drops those whose id names no heading, which would lead
/// nowhere in a PDF. `heading_ids[n]` are the ids bound to the n-th heading emitted.
pub fn resolve_fragments(blocks: &mut [Block], heading_ids: &[Vec<String>]) {
    // Heading anchors as flow layout makes them: in layout order, duplicates numbered.
    let mut slugs: Vec<String> = Vec::new();
    let mut seen: HashMap<String, ()> = HashMap::new();
    visit(blocks, &mut |block| {
        if let Block::Heading { inlines, .. } = block {
            if !inlines.iter().any(|i| !i.text.trim().is_empty()) {
                return;
            }
            let text: String = inlines.iter().map(|i| i.text.as_str()).collect();
            let mut anchor = slug(&text);
            if seen.contains_key(&anchor) {
                let base = anchor.clone();
                let mut n = 1;
                while seen.contains_key(&anchor) {
                    anchor = format!("{base}-{n}");
                    n += 1;
                }
            }
            seen.insert(anchor.clone(), ());
            slugs.push(anchor);
        }
    });
    let mut by_id: HashMap<&str, &str> = HashMap::new();
    for (ids, slug) in heading_ids.iter().zip(&slugs) {
        for id in ids {
            by_id.entry(id.as_str()).or_insert(slug.as_str());
        }
    }
    let fix = |link: &mut Option<String>| {
        let Some(fragment) = link.as_deref().and_then(|l| l.strip_prefix('#')) else {
            return;
        };
        let decoded = percent_decode(fragment);
        *link = by_id
            .get(fragment)
            .or_else(|| by_id.get(decoded.as_str()))
            .map(|s| format!("#{s}"));
    };
    visit_mut(blocks, &mut |block| {
        let fix_all = |inlines: &mut Vec<Inline>| inlines.iter_mut().for_each(|i| fix(&mut i.link));
        match block {
            Block::Heading { inlines, .. } | Block::Paragraph(inlines) => fix_all(inlines),
            Block::Table { rows, .. } => rows
                .iter_mut()
                .flatten()
                .for_each(|cell| fix_all(&mut cell.inlines)),
            Block::Image { link, .. } => fix(link),
            _ => {}
        }
    });
}

/// Every block in layout order, containers before their content. The IR's depth is bounded
/// by the builder (flow::MAX_DEPTH), so recursion is too.
fn visit(blocks: &[Block], f: &mut impl FnMut(&Block)) {
    for block in blocks {
        f(block);
        match block {
            Block::List { items, .. } => items.iter().for_each(|i| visit(i, f)),
            Block::Quote(inner) | Block::Boxed { blocks: inner, .. } => visit(inner, f),
            _ => {}
        }
    }
}

fn visit_mut(blocks: &mut [Block], f: &mut impl FnMut(&mut Block)) {
    for block in blocks {
        f(block);
        match block {
            Block::List { items, .. } => items.iter_mut().for_each(|i| visit_mut(i, f)),
            Block::Quote(inner) | Block::Boxed { blocks: inner, .. } => visit_mut(inner, f),
            _ => {}
        }
    }
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_hrefs() {
        let url = |s: &str| Target::Url(s.to_string());
        assert_eq!(judge(" https://a.org/x ", None), url("https://a.org/x"));
        assert_eq!(judge("MAILTO:me@a.org", None), url("MAILTO:me@a.org"));
        assert_eq!(judge("java\nscript:alert(1)", None), Target::None);
        assert_eq!(judge("file:///etc/passwd", None), Target::None);
        assert_eq!(judge("#", None), Target::None);
        assert_eq!(judge("#Intro", None), Target::Fragment("Intro".into()));
        assert_eq!(judge("/wiki/X", None), Target::Relative);
        assert_eq!(judge("//cdn.org/a", None), url("https://cdn.org/a"));
        let base = Some("http://site.org/docs/page.html?q=1#top");
        assert_eq!(judge("/wiki/X", base), url("http://site.org/wiki/X"));
        assert_eq!(
            judge("other.html", base),
            url("http://site.org/docs/other.html")
        );
        assert_eq!(
            judge("?p=2", base),
            url("http://site.org/docs/page.html?p=2")
        );
        assert_eq!(judge("//cdn.org/a", base), url("http://cdn.org/a"));
        assert_eq!(
            judge("a.html", Some("https://site.org")),
            url("https://site.org/a.html")
        );
        // Non-ASCII hosts and paths join alike.
        let base = Some("https://caf\u{e9}.org/\u{65e5}\u{672c}/p\u{e4}ge.html#\u{e9}");
        assert_eq!(
            judge("d\u{e9}.html", base),
            url("https://caf\u{e9}.org/\u{65e5}\u{672c}/d\u{e9}.html")
        );
        assert_eq!(judge("/\u{fc}", base), url("https://caf\u{e9}.org/\u{fc}"));
        assert_eq!(judge("//\u{e9}.org", base), url("https://\u{e9}.org"));
        assert_eq!(
            judge("x", Some("https://\u{e9}\u{e9}")),
            url("https://\u{e9}\u{e9}/x")
        );
        assert_eq!(usable_base("ftp://x"), None);
        assert_eq!(usable_base("https://x/").as_deref(), Some("https://x/"));
    }

    #[test]
    fn fragments_point_at_heading_slugs() {
        let link = |t: &str, l: &str| Inline {
            link: Some(l.into()),
            ..Inline::plain(t)
        };
        let heading = |t: &str| Block::Heading {
            level: 2,
            inlines: vec![Inline::plain(t)],
        };
        let mut blocks = vec![
            Block::Paragraph(vec![
                link("a", "#hist"),
                link("b", "#nowhere"),
                link("c", "#s%C3%A9"),
            ]),
            heading("History"),
            Block::List {
                ordered: false,
                start: 1,
                items: vec![vec![
                    heading("History"),
                    Block::Paragraph(vec![link("d", "#again")]),
                ]],
                tight: true,
            },
            heading("Sé"),
        ];
        let ids = vec![
            vec!["hist".to_string()],
            vec!["again".into()],
            vec!["sé".into()],
        ];
        resolve_fragments(&mut blocks, &ids);
        let Block::Paragraph(p) = &blocks[0] else {
            panic!()
        };
        let links: Vec<_> = p.iter().map(|i| i.link.clone()).collect();
        assert_eq!(links, [Some("#history".into()), None, Some("#sé".into())]);
        let Block::List { items, .. } = &blocks[2] else {
            panic!()
        };
        let Block::Paragraph(p) = &items[0][1] else {
            panic!()
        };
        assert_eq!(p[0].link.as_deref(), Some("#history-1"));
    }
}
