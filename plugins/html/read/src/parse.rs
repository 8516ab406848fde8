//! The HTML5 parse (html5ever, building scraper's tree), with a guard between tokenizer and
//! tree builder against inputs that make a spec-compliant tree builder quadratic:
//!
//! - Deep nesting: every block start tag looks through the stack of open elements ("is a
//!   `p` in button scope?"), so 25 000 nested `<div>`s take seconds and a 16 MiB file of
//!   them would take hours. The guard keeps its own estimate of the open elements and drops
//!   start tags (and their end tags) past [`MAX_OPEN`] levels: their text stays, flattened
//!   into the deepest element.
//! - Formatting elements that differ only by attributes (`<b id=1>`, `<b id=2>`, ...): the
//!   "Noah's Ark" rule keeps at most three *identical* entries in the list of active
//!   formatting elements, and distinct attributes defeat it, so a page of
//!   `<div><b id=N>x</div>` re-creates every earlier `<b>` in each `div` (80 KB of it built
//!   eight million nodes in 50 s). The guard strips the attributes of the formatting elements
//!   (`b`, `i`, `font`, ...; not `a`, of which only one is ever active), but for what the
//!   importer reads of them ([`crate::attrs`]): `lang`, `dir`, and the family of `face` and
//!   of `style`'s `font-family` as a generic name ([`crate::attrs::canonical`]), in at most
//!   [`MAX_FORMATTING_SETS`] distinct (element, attributes) pairs per page. Ids on such elements are lost, so they cannot be link targets.
//!
//! The estimate only decides when to drop; below the limit every token reaches the tree
//! builder as the tokenizer produced it (attributes of formatting elements aside), so the
//! tree is the one a browser builds.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts, TreeSink};
use html5ever::{LocalName, TokenizerResult};
use scraper::{Html, HtmlTreeSink};

/// Elements the guard lets the tree builder create. Each costs about 200 bytes of tree and
/// a look through the open elements; a 1 MB Wikipedia article has about 25 000. Past this the
/// parse stops and the document is refused as too large.
pub const MAX_ELEMENTS: usize = 500_000;

/// Open elements the guard lets through. Real pages stay under ~40 (Wikipedia ~30); the
/// walk's own limit is above this, so flattening happens here first.
pub const MAX_OPEN: usize = 128;

/// Formatting elements as the tree builder's "active formatting elements" list knows them.
const FORMATTING: &[&str] = &[
    "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

/// How many distinct (element, kept attributes) pairs formatting elements may have; past
/// them, a formatting element loses its attributes like one with an id. The tree builder
/// rebuilds up to three of each distinct pair at every block, so this bounds that work at
/// 3 x (13 bare tags + 8) elements, near the 39 of attribute-less formatting.
const MAX_FORMATTING_SETS: usize = 8;

/// A formatting element's kept attributes, sorted by name, values canonical.
type KeptAttributes = Vec<(String, String)>;

/// Elements that never hold child elements.
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// Elements whose content the tokenizer reads as raw text once the tree builder has seen
/// the start tag: they are always let through, or their content would turn into markup.
const RAW_TEXT: &[&str] = &[
    "iframe",
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
    "script",
    "style",
    "textarea",
    "title",
    "xmp",
];

/// Start tags that close an open `p` (the HTML standard's "close a p element" list).
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "ul",
    "xmp",
];

/// What the parse produced and how much the guard flattened.
pub struct Parsed {
    pub html: Html,
    /// Start tags dropped for being nested too deep.
    pub flattened: usize,
    /// The document has more than [`MAX_ELEMENTS`] elements; the tree holds only the first.
    pub too_many: bool,
}

pub fn parse(text: &str) -> Parsed {
    let builder = TreeBuilder::new(
        HtmlTreeSink::new(Html::new_document()),
        TreeBuilderOpts::default(),
    );
    let tokenizer = Tokenizer::new(Guard::new(builder), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(text));
    // Script results ask the caller to run a script; there is none to run.
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    let flattened = tokenizer.sink.dropped_total.get();
    let too_many = tokenizer.sink.elements.get() > MAX_ELEMENTS;
    let html = tokenizer.sink.inner.sink.finish();
    Parsed {
        html,
        flattened,
        too_many,
    }
}

struct Guard<S> {
    inner: S,
    open: RefCell<Open>,
    /// Dropped start tags whose end tags have not come yet, by name.
    dropped: RefCell<HashMap<LocalName, usize>>,
    dropped_total: Cell<usize>,
    /// Start tags let through.
    elements: Cell<usize>,
    /// The distinct (tag, kept attributes) pairs let through, at most [`MAX_FORMATTING_SETS`].
    formatting_sets: RefCell<Vec<(String, KeptAttributes)>>,
}

/// The estimated stack of open elements (below `html`/`head`/`body`), with counts of the
/// names implied closing looks for, so most start tags need no scan of the stack.
#[derive(Default)]
struct Open {
    names: Vec<LocalName>,
    counts: [usize; GROUPS],
}

const GROUPS: usize = 11;
const FOREIGN: usize = 10;

/// The group a name is counted in; members of a group close each other.
fn group(name: &str) -> Option<usize> {
    Some(match name {
        "p" => 0,
        "li" => 1,
        "dt" | "dd" => 2,
        "td" | "th" => 3,
        "tr" => 4,
        "thead" | "tbody" | "tfoot" => 5,
        "option" => 6,
        "optgroup" => 7,
        "rb" | "rt" | "rtc" | "rp" => 8,
        "a" => 9,
        "svg" | "math" => FOREIGN,
        _ => return None,
    })
}

impl Open {
    fn push(&mut self, name: LocalName) {
        if let Some(g) = group(&name) {
            self.counts[g] += 1;
        }
        self.names.push(name);
    }

    fn truncate(&mut self, len: usize) {
        for name in &self.names[len.min(self.names.len())..] {
            if let Some(g) = group(name) {
                self.counts[g] -= 1;
            }
        }
        self.names.truncate(len);
    }

    /// Pops up to and including the innermost element of `closing`'s group, unless an
    /// element of `stop` comes first.
    fn pop_to(&mut self, closing: &str, stop: &[&str]) {
        let Some(g) = group(closing) else { return };
        if self.counts[g] == 0 {
            return;
        }
        for i in (0..self.names.len()).rev() {
            let n: &str = &self.names[i];
            if group(n) == Some(g) {
                self.truncate(i);
                return;
            }
            if stop.contains(&n) {
                return;
            }
        }
    }

    /// Pops what a start tag closes implicitly, the way the tree builder will (close enough
    /// for an estimate: it decides only when to flatten).
    fn close_implied(&mut self, name: &str) {
        const SCOPE: &[&str] = &[
            "applet", "button", "caption", "html", "marquee", "object", "table", "td", "template",
            "th",
        ];
        if CLOSES_P.contains(&name) {
            self.pop_to("p", SCOPE);
        }
        match name {
            "li" => self.pop_to(name, &["ul", "ol", "menu", "table", "td", "th"]),
            "dt" | "dd" => self.pop_to(name, &["dl", "table", "td", "th"]),
            "td" | "th" => self.pop_to(name, &["tr", "table"]),
            "tr" => self.pop_to(name, &["table", "thead", "tbody", "tfoot"]),
            "thead" | "tbody" | "tfoot" => self.pop_to(name, &["table"]),
            "option" => self.pop_to(name, &["select", "datalist"]),
            "optgroup" => {
                self.pop_to("option", &["select"]);
                self.pop_to(name, &["select"]);
            }
            "rb" | "rt" | "rtc" | "rp" => self.pop_to(name, &["ruby"]),
            "a" => self.pop_to(name, SCOPE),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let heading = self
                    .names
                    .last()
                    .is_some_and(|n| matches!(&**n, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"));
                if heading {
                    self.truncate(self.names.len() - 1);
                }
            }
            _ => {}
        }
    }
}

impl<S> Guard<S> {
    fn new(inner: S) -> Self {
        Guard {
            inner,
            open: RefCell::new(Open::default()),
            dropped: RefCell::new(HashMap::new()),
            dropped_total: Cell::new(0),
            elements: Cell::new(0),
            formatting_sets: RefCell::new(Vec::new()),
        }
    }

    /// Strips a formatting element's attributes to what the importer reads, in canonical
    /// form, while few distinct sets of them have been seen; else entirely.
    fn strip_formatting(&self, tag: &str, attrs: &mut Vec<html5ever::Attribute>) {
        let mut kept: KeptAttributes = Vec::new();
        for a in attrs.iter() {
            if let Some(v) = crate::attrs::canonical(&a.name.local, &a.value) {
                kept.push((a.name.local.to_string(), v));
            }
        }
        kept.sort();
        let mut sets = self.formatting_sets.borrow_mut();
        let known = sets.iter().any(|(t, k)| t == tag && *k == kept);
        if kept.is_empty() || (!known && sets.len() >= MAX_FORMATTING_SETS) {
            attrs.clear();
            return;
        }
        if !known {
            sets.push((tag.to_string(), kept.clone()));
        }
        attrs.retain(|a| kept.iter().any(|(n, _)| *n == *a.name.local));
        for a in attrs.iter_mut() {
            if let Some((_, v)) = kept.iter().find(|(n, _)| *n == *a.name.local) {
                a.value = StrTendril::from(v.as_str());
            }
        }
    }

    /// The tag as it should reach the tree builder, or `None` to drop it.
    fn filter(&self, mut tag: Tag) -> Option<Tag> {
        let name: &str = &tag.name;
        match tag.kind {
            TagKind::StartTag => {
                let n = self.elements.get() + 1;
                self.elements.set(n);
                if n > MAX_ELEMENTS {
                    return None;
                }
                if FORMATTING.contains(&name) {
                    let name = name.to_string();
                    self.strip_formatting(&name, &mut tag.attrs);
                }
                if matches!(name, "html" | "head" | "body") {
                    return Some(tag);
                }
                let mut open = self.open.borrow_mut();
                open.close_implied(name);
                let foreign = open.counts[FOREIGN] > 0;
                if VOID.contains(&name) || (tag.self_closing && foreign) {
                    return Some(tag);
                }
                if open.names.len() >= MAX_OPEN && !RAW_TEXT.contains(&name) {
                    *self
                        .dropped
                        .borrow_mut()
                        .entry(tag.name.clone())
                        .or_insert(0) += 1;
                    self.dropped_total.set(self.dropped_total.get() + 1);
                    return None;
                }
                open.push(tag.name.clone());
                Some(tag)
            }
            TagKind::EndTag => {
                let mut open = self.open.borrow_mut();
                if let Some(at) = open.names.iter().rposition(|n| *n == tag.name) {
                    open.truncate(at);
                    return Some(tag);
                }
                let mut dropped = self.dropped.borrow_mut();
                match dropped.get_mut(&tag.name) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        None
                    }
                    // Not one the guard knows of: the tree builder decides.
                    _ => Some(tag),
                }
            }
        }
    }
}

impl<S: TokenSink> TokenSink for Guard<S> {
    type Handle = S::Handle;

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<S::Handle> {
        if self.elements.get() > MAX_ELEMENTS {
            // Refused already: the rest is tokenised (cheaply) and dropped.
            return TokenSinkResult::Continue;
        }
        let token = match token {
            // Nobody reads parse errors; skipping them saves building their messages.
            Token::ParseError(_) => return TokenSinkResult::Continue,
            Token::TagToken(tag) => match self.filter(tag) {
                Some(tag) => Token::TagToken(tag),
                None => return TokenSinkResult::Continue,
            },
            other => other,
        };
        self.inner.process_token(token, line)
    }

    fn end(&self) {
        self.inner.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Node;

    fn depth(html: &Html) -> usize {
        html.tree
            .nodes()
            .map(|n| n.ancestors().count())
            .max()
            .unwrap_or(0)
    }

    fn text(html: &Html) -> String {
        html.tree
            .nodes()
            .filter_map(|n| match n.value() {
                Node::Text(t) => Some(&**t),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn ordinary_pages_parse_as_html5ever_parses_them() {
        let page = "<!doctype html><title>T</title><ul><li>a<li>b<ul><li>c</ul></ul>\
                    <p>one<p>two<div>three</div><table><tr><td>x<td>y<tr><td>z</table>\
                    <p><b>bold <i>both</b> it</i><svg><path/><path/><g><circle/></g></svg>\
                    <script>if (a < b) { document.write('<p>') }</script>";
        let ours = parse(page);
        assert_eq!(ours.flattened, 0);
        assert_eq!(ours.html.html(), Html::parse_document(page).html());
    }

    /// Element names with their depth, and texts, in document order.
    fn shape(html: &Html) -> Vec<(usize, String)> {
        html.tree
            .nodes()
            .filter_map(|n| {
                let d = n.ancestors().count();
                match n.value() {
                    Node::Element(e) => Some((d, format!("<{}>", e.name()))),
                    Node::Text(t) => Some((d, t.to_string())),
                    _ => None,
                }
            })
            .collect()
    }

    #[test]
    fn the_corpus_parses_into_the_same_tree_as_without_the_guard() {
        let dir = quire_sdk::corpus_dir().join("html");
        for entry in std::fs::read_dir(&dir).expect("the corpus") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("UTF-8 corpus file");
            let ours = parse(&text);
            assert_eq!(ours.flattened, 0, "{}", path.display());
            assert!(
                shape(&ours.html) == shape(&Html::parse_document(&text)),
                "{}: the guarded parse differs",
                path.display()
            );
        }
    }

    #[test]
    fn deep_nesting_is_flattened_and_keeps_its_text() {
        let mut page = String::new();
        for _ in 0..5_000 {
            page.push_str("<div><blockquote>");
        }
        page.push_str("deep<script>hidden()</script>");
        for _ in 0..5_000 {
            page.push_str("</blockquote></div>");
        }
        page.push_str("<p>after</p>");
        let parsed = parse(&page);
        assert!(parsed.flattened > 9_000);
        assert!(
            depth(&parsed.html) < MAX_OPEN + 10,
            "{}",
            depth(&parsed.html)
        );
        assert_eq!(text(&parsed.html), "deephidden()after");
        // The script stayed a script: its text is inside a <script> element.
        let script = parsed
            .html
            .tree
            .nodes()
            .find(|n| matches!(n.value(), Node::Element(e) if e.name() == "script"));
        assert!(script.is_some());
    }

    #[test]
    fn formatting_elements_with_distinct_attributes_do_not_multiply() {
        let mut page = String::new();
        for i in 0..3_000 {
            page.push_str(&format!("<div><b id=b{i}>x</div>"));
        }
        let start = std::time::Instant::now();
        let parsed = parse(&page);
        assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
        // At most three reconstructed <b> per div (Noah's Ark), not one per earlier div.
        assert!(parsed.html.tree.nodes().count() < 3_000 * 8);
    }

    #[test]
    fn formatting_elements_keep_what_the_importer_reads_in_a_few_sets() {
        let parsed = parse(
            "<b id=x lang=ja dir=RTL onclick=y>a</b><font face='Courier New' color=red>b</font>\
             <i class=' warn  k warn' style='color: red; font-family: Georgia; margin: 0; font-weight: 700'>c</i>",
        );
        let attrs = |name: &str| -> Vec<(String, String)> {
            let e = parsed
                .html
                .tree
                .nodes()
                .find_map(|n| n.value().as_element().filter(|e| e.name() == name))
                .unwrap();
            let mut a: Vec<_> = e
                .attrs()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            a.sort();
            a
        };
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(attrs("b"), [pair("dir", "rtl"), pair("lang", "ja")]);
        assert_eq!(attrs("font"), [pair("face", "monospace")]);
        assert_eq!(
            attrs("i"),
            [
                pair("class", "k warn"),
                pair(
                    "style",
                    "color: rgba(255, 0, 0, 1); font-weight: bold; font-family: serif"
                )
            ]
        );

        // Distinct languages cannot defeat Noah's Ark: past a few sets they are dropped.
        let mut page = String::new();
        for i in 0..3_000 {
            page.push_str(&format!("<div><b lang=x{i}>x</div>"));
        }
        let start = std::time::Instant::now();
        let parsed = parse(&page);
        assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
        assert!(parsed.html.tree.nodes().count() < 3_000 * 8 + 3_000 * 3 * MAX_FORMATTING_SETS);
    }

    /// Noah's Ark keeps three of each distinct formatting element, and the tree builder
    /// rebuilds them all in every block: the kept attribute sets are counted per element
    /// with one cap for all, so 13 tags in 9 variants each cannot make every block rebuild
    /// 13 x 9 x 3 elements.
    #[test]
    fn kept_attribute_sets_bound_the_formatting_every_block_rebuilds() {
        let mut opening = String::new();
        for tag in FORMATTING {
            for variant in 0..9 {
                let attrs = if variant == 0 {
                    String::new()
                } else {
                    format!(" lang=x{variant}")
                };
                for _ in 0..3 {
                    opening.push_str(&format!("<p><{tag}{attrs}>x"));
                }
            }
        }
        let blocks = 300;
        let before = parse(&opening).html.tree.nodes().count();
        let parsed = parse(&format!("{opening}{}", "<p>x".repeat(blocks)));
        let per_block = (parsed.html.tree.nodes().count() - before) / blocks;
        let bound = 3 * (FORMATTING.len() + MAX_FORMATTING_SETS) + 2;
        assert!(
            per_block <= bound,
            "{per_block} nodes per block, bound {bound}"
        );
    }
}
