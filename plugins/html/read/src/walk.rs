//! The DOM walk: each element of the closed vocabulary mapped onto the builder.
//!
//! Recursion follows the DOM, so it is bounded: below [`MAX_DOM_DEPTH`] levels the rest of a
//! subtree is read iteratively as flat text (its words kept, its structure dropped).

use ego_tree::iter::Edge;
use scraper::node::Element;
use scraper::Node;

use quire_sdk::flow::ImageSource;

use crate::builder::{Builder, Container};
use crate::dom::{is_block, DomNode, BLOCKS};
use crate::images::Picture;
use crate::links::{self, Target};
use crate::math;

/// DOM depth past which content is flattened. Real pages stay under ~40; each level costs
/// a few stack frames, and this keeps the walk well inside a 1 MiB stack.
pub const MAX_DOM_DEPTH: usize = 160;

/// Elements whose content is not for reading: scripts and styles, embedded objects and
/// media (their content is fallback for old browsers), form controls (but a text area shows
/// its text), vector graphics, the head (its `<title>` is read separately).
/// Dropped elements that take room on a line in a browser (a picture, a control): where
/// they stood between two words, a space keeps the words apart.
const REPLACED: &[&str] = &[
    "applet", "audio", "button", "canvas", "embed", "iframe", "input", "meter", "object",
    "progress", "select", "svg", "video",
];

const DROPPED: &[&str] = &[
    "applet", "area", "audio", "base", "button", "canvas", "datalist", "embed", "frame",
    "frameset", "head", "iframe", "input", "link", "map", "meta", "meter", "noembed", "noframes",
    "noscript", "object", "optgroup", "option", "param", "progress", "script", "select", "source",
    "style", "template", "title", "track", "video",
];

/// An inline `<svg>` at most this many CSS pixels each way is an icon set in a line of text
/// (a link's arrow, a heading's anchor mark); the flow sets pictures as blocks of their own,
/// which would break the line, so icons are left out as before and counted in a warning.
const ICON_PX: u32 = 32;

#[derive(Clone, Copy)]
enum Mark {
    Bold,
    Italic,
    Code,
    Strike,
}

/// Whether an element is hidden the way a browser would hide it without a style sheet.
pub fn hidden(e: &Element) -> bool {
    e.attr("hidden").is_some() || (e.name() == "dialog" && e.attr("open").is_none())
}

impl Builder<'_> {
    /// Whether the element `e` (at `node`) shows nothing: not for reading, hidden by its
    /// attributes, or hidden by the page's style sheets.
    pub fn dropped(&self, node: DomNode<'_>, e: &Element) -> bool {
        DROPPED.contains(&e.name()) || hidden(e) || self.cascade.hides(node.id())
    }

    pub fn children(&mut self, node: DomNode<'_>, depth: usize) {
        if depth >= MAX_DOM_DEPTH {
            self.flat(node);
            return;
        }
        for child in node.children() {
            self.node(child, depth + 1);
        }
    }

    fn node(&mut self, node: DomNode<'_>, depth: usize) {
        match node.value() {
            Node::Text(t) => self.text(t),
            Node::Element(e) => self.element(node, e, depth),
            Node::Document | Node::Fragment => self.children(node, depth),
            _ => {}
        }
    }

    pub fn element(&mut self, node: DomNode<'_>, e: &Element, depth: usize) {
        let name = e.name();
        if self.dropped(node, e) {
            if REPLACED.contains(&name) {
                self.text(" ");
            }
            return;
        }
        if let Some(id) = e.id() {
            self.anchor(id);
        }
        if name == "a" {
            if let Some(n) = e.attr("name") {
                self.anchor(n);
            }
        }
        if self.cascade.breaks_before(node.id()) {
            self.page_break();
        }
        // Named pages (`page: cover`): the page's used value is its own or its parent's; a
        // block whose value differs from the blocks' before it starts a new page.
        let parent_page = self.named_pages.last().copied().flatten();
        let page = self.cascade.named_page(node.id()).or(parent_page);
        if page != self.named_page && is_block(name) {
            self.page_break();
            self.named_page = page;
        }
        self.named_pages.push(page);
        let scope = self.enter(node, e);
        let boxed = self.box_look(node, name);
        if let Some(look) = boxed {
            self.end_paragraph();
            self.open(Container::Boxed {
                look,
                blocks: Vec::new(),
            });
        }
        self.contents(node, e, depth);
        if boxed.is_some() {
            self.end_paragraph();
            self.close();
        }
        self.leave(scope);
        self.named_pages.pop();
        if self.cascade.breaks_after(node.id()) {
            self.page_break();
        }
    }

    /// What element `e` holds, by its name.
    fn contents(&mut self, node: DomNode<'_>, e: &Element, depth: usize) {
        let name = e.name();
        match name {
            "br" => self.line_break(),
            "img" => self.img(e),
            "svg" => self.inline_svg(node, e),
            "hr" => {
                if self.inline_mode() {
                    self.boundary();
                } else {
                    self.end_paragraph();
                    self.emit(quire_sdk::flow::Block::Rule);
                }
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let level = name.as_bytes()[1] - b'0';
                self.heading(level, node, depth);
            }
            "p" => {
                if self.in_item() {
                    self.mark_loose();
                }
                self.block(node, depth);
            }
            // A text area shows its text as written, in a monospace font, as browsers do.
            "pre" | "listing" | "xmp" | "plaintext" | "textarea" => self.pre(node),
            "ul" | "ol" | "menu" => self.list(node, e, depth),
            "li" => self.item(node, depth),
            "blockquote" => self.quote(node, depth),
            "table" => self.table(node, depth),
            "td" | "th" => {
                // Cells outside a table the builder reads (only in inline-only places).
                self.children(node, depth);
                self.text(" ");
            }
            "dt" => {
                self.boundary();
                self.marked(Mark::Bold, node, depth);
                self.boundary();
            }
            "figcaption" | "address" => {
                self.boundary();
                self.marked(Mark::Italic, node, depth);
                self.boundary();
            }
            "math" => {
                let display = e.attr("display") == Some("block");
                if display {
                    self.boundary();
                }
                self.text(&math::linearize(node));
                if display {
                    self.boundary();
                }
            }
            "q" => {
                self.text("\u{201c}");
                self.children(node, depth);
                self.text("\u{201d}");
            }
            "b" | "strong" => self.marked(Mark::Bold, node, depth),
            "i" | "em" | "cite" | "var" | "dfn" => self.marked(Mark::Italic, node, depth),
            "s" | "del" | "strike" => self.marked(Mark::Strike, node, depth),
            "code" | "kbd" | "samp" | "tt" => self.marked(Mark::Code, node, depth),
            "a" => self.link(node, e, depth),
            n if BLOCKS.contains(&n) => self.block(node, depth),
            // Everything else (span, u, ins, sub, sup, small, abbr, label, custom elements)
            // is transparent: the flow IR has no underline, no raised or lowered text.
            _ => self.children(node, depth),
        }
    }

    fn block(&mut self, node: DomNode<'_>, depth: usize) {
        self.boundary();
        self.children(node, depth);
        self.boundary();
    }

    fn marked(&mut self, mark: Mark, node: DomNode<'_>, depth: usize) {
        *self.counter(mark) += 1;
        self.children(node, depth);
        let c = self.counter(mark);
        *c = c.saturating_sub(1);
    }

    fn counter(&mut self, mark: Mark) -> &mut u32 {
        match mark {
            Mark::Bold => &mut self.style.bold,
            Mark::Italic => &mut self.style.italic,
            Mark::Code => &mut self.style.code,
            Mark::Strike => &mut self.style.strike,
        }
    }

    fn heading(&mut self, level: u8, node: DomNode<'_>, depth: usize) {
        if self.inline_mode() {
            self.boundary();
            self.marked(Mark::Bold, node, depth);
            self.boundary();
            return;
        }
        self.end_paragraph();
        let (inlines, ids) = self.collect_heading(|b| b.children(node, depth));
        self.emit_heading(level, inlines, ids);
    }

    fn list(&mut self, node: DomNode<'_>, e: &Element, depth: usize) {
        if self.inline_mode() {
            self.block(node, depth);
            return;
        }
        self.end_paragraph();
        let start = e
            .attr("start")
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(1);
        self.open(Container::List {
            ordered: e.name() == "ol",
            start,
            items: Vec::new(),
            tight: true,
        });
        self.children(node, depth);
        self.end_paragraph();
        self.close();
    }

    fn item(&mut self, node: DomNode<'_>, depth: usize) {
        if self.inline_mode() {
            self.boundary();
            self.text("\u{2022} ");
            self.children(node, depth);
            self.boundary();
            return;
        }
        if !self.in_list() {
            // An `<li>` outside a list reads as a paragraph.
            self.block(node, depth);
            return;
        }
        self.end_paragraph();
        self.open(Container::Item(Vec::new()));
        self.children(node, depth);
        self.end_paragraph();
        self.close();
    }

    fn quote(&mut self, node: DomNode<'_>, depth: usize) {
        if self.inline_mode() {
            self.block(node, depth);
            return;
        }
        self.end_paragraph();
        self.open(Container::Quote(Vec::new()));
        self.children(node, depth);
        self.end_paragraph();
        self.close();
    }

    fn pre(&mut self, node: DomNode<'_>) {
        let text = self.pre_text(node);
        let text = text.trim_end();
        if self.inline_mode() {
            self.boundary();
            self.style.code += 1;
            self.verbatim(text);
            self.style.code -= 1;
            self.boundary();
            return;
        }
        self.end_paragraph();
        if !text.trim().is_empty() {
            self.emit(quire_sdk::flow::Block::Code {
                text: text.to_string(),
            });
        }
    }

    fn link(&mut self, node: DomNode<'_>, e: &Element, depth: usize) {
        let link = match e
            .attr("href")
            .map(|h| links::judge(h, self.base.as_deref()))
        {
            Some(Target::Url(url)) => Some(url),
            Some(Target::Fragment(id)) => Some(format!("#{id}")),
            Some(Target::Relative) if self.keep_relative => {
                e.attr("href").map(|h| h.trim().to_string())
            }
            Some(Target::Relative) => {
                self.relative_links += 1;
                if self.first_relative.is_none() {
                    self.first_relative = e.attr("href").map(|h| crate::images::shorten(h.trim()));
                }
                None
            }
            Some(Target::None) | None => None,
        };
        // The link's own colour, if the style sheets give it one, is on top of `colors`.
        let own = self
            .cascade
            .text_style(node.id())
            .is_some_and(|t| t.color.is_some());
        let outside = self.style.colors.len() - usize::from(own);
        self.style.links.push(link);
        self.style.link_colors.push(outside);
        self.children(node, depth);
        self.style.link_colors.pop();
        self.style.links.pop();
    }

    fn img(&mut self, e: &Element) {
        let alt = e.attr("alt").unwrap_or("").to_string();
        let Some(mut picture) = self.images.resolve(e.attr("src").unwrap_or("")) else {
            self.alt_text(&alt);
            return;
        };
        // `width`/`height` attributes are CSS pixels, as the flow sets pictures (96 dpi).
        let (w, h) = (css_px(e.attr("width")), css_px(e.attr("height")));
        let ratio = f64::from(picture.height) / f64::from(picture.width);
        match (w, h) {
            (Some(w), Some(h)) => (picture.width, picture.height) = (w, h),
            (Some(w), None) => {
                picture.height = ((f64::from(w) * ratio).round() as u32).max(1);
                picture.width = w;
            }
            (None, Some(h)) => {
                picture.width = ((f64::from(h) / ratio).round() as u32).max(1);
                picture.height = h;
            }
            (None, None) => {}
        }
        let place = self.inline_place();
        self.picture(picture, &alt, place);
    }

    /// An `<svg>` drawn in the page: a picture, unless it is an icon in a line of text.
    fn inline_svg(&mut self, node: DomNode<'_>, e: &Element) {
        let declared = |name: &str| css_px(e.attr(name)).is_some_and(|px| px <= ICON_PX);
        if declared("width") && declared("height") {
            // An icon by its own account: not worth reading.
            self.icons += 1;
            self.text(" ");
            return;
        }
        let picture = crate::inline_svg::write(node).and_then(|svg| self.images.inline_svg(svg));
        let draws =
            |p: &Picture| !matches!(&p.source, ImageSource::Drawing(d) if d.shapes.is_empty());
        match picture {
            // Definitions only (clip paths, symbols for `<use>` elsewhere): nothing to see.
            Some(p) if !draws(&p) => self.text(" "),
            Some(p) if p.width > ICON_PX || p.height > ICON_PX => {
                let place = self.inline_place();
                self.picture(p, "", place);
            }
            Some(_) => {
                self.icons += 1;
                self.text(" ");
            }
            None => self.text(" "),
        }
    }

    /// A subtree past the depth limit, read without recursion: its text, line breaks and
    /// block boundaries, nothing else.
    fn flat(&mut self, node: DomNode<'_>) {
        let mut skip = 0usize;
        for edge in node.traverse().skip(1) {
            match edge {
                Edge::Open(n) => match n.value() {
                    Node::Element(e) => {
                        if skip > 0 || self.dropped(n, e) || e.name() == "svg" {
                            skip += 1;
                        } else if e.name() == "br" {
                            self.line_break();
                        } else if e.name() == "img" {
                            self.img(e);
                        } else if is_block(e.name()) {
                            self.boundary();
                        }
                    }
                    Node::Text(t) if skip == 0 => self.text(t),
                    _ => {}
                },
                Edge::Close(n) => {
                    if let Node::Element(e) = n.value() {
                        if skip > 0 {
                            skip -= 1;
                        } else if is_block(e.name()) {
                            self.boundary();
                        }
                    }
                }
            }
        }
    }
}

impl Builder<'_> {
    /// The text of a `<pre>` as it stands, line breaks from `<br>` included, without recursion.
    fn pre_text(&self, node: DomNode<'_>) -> String {
        let mut out = String::new();
        let mut skip = 0usize;
        for edge in node.traverse() {
            match edge {
                Edge::Open(n) => match n.value() {
                    Node::Element(e) => {
                        if skip > 0 || self.dropped(n, e) || e.name() == "svg" {
                            skip += 1;
                        } else if e.name() == "br" {
                            out.push('\n');
                        }
                    }
                    Node::Text(t) if skip == 0 => out.push_str(t),
                    _ => {}
                },
                Edge::Close(n) => {
                    if matches!(n.value(), Node::Element(_)) && skip > 0 {
                        skip -= 1;
                    }
                }
            }
        }
        out
    }
}

/// A `width`/`height` attribute as a number of CSS pixels; percentages and nonsense give
/// `None`, so the picture keeps its own size.
fn css_px(value: Option<&str>) -> Option<u32> {
    let v = value?.trim();
    let v = v.strip_suffix("px").unwrap_or(v).trim();
    let n: f64 = v.parse().ok()?;
    (n.is_finite() && n >= 1.0).then(|| n.min(20_000.0).round() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_attributes() {
        assert_eq!(css_px(Some(" 120 ")), Some(120));
        assert_eq!(css_px(Some("64px")), Some(64));
        assert_eq!(css_px(Some("50%")), None);
        assert_eq!(css_px(Some("0")), None);
        assert_eq!(css_px(Some("1e9")), Some(20_000));
        assert_eq!(css_px(None), None);
    }
}
