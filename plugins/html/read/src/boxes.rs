//! Boxes from the style sheets: an element's background, borders, padding, width and
//! margins, read for a table's cells and for blocks. A block (`<div>`, `<section>`, `<p>`,
//! ...) the style sheets give a background, a border, padding or a width becomes a flow
//! box around what it holds; the page's own background (`<body>`'s or `<html>`'s) colours
//! every page.

use ego_tree::NodeRef;
use quire_sdk::flow::{Border, Borders, BoxLook, Extent, Insets};
use quire_sdk::Color;
use scraper::{Html, Node};

use crate::builder::Builder;
use crate::dom::{is_block, DomNode};
use crate::sheet::{attribute_color, Length};

/// Chromium's default font size, which an `em` of an element that sets none is.
pub const DEFAULT_EM: f64 = 12.0;

/// Elements a box is never made for: a table and its parts lay out their own boxes, a list
/// item stays an item, and the page's own background colours the page.
const NOT_BOXED: &[&str] = &[
    "table", "caption", "thead", "tbody", "tfoot", "tr", "td", "th", "li", "html", "body",
];

/// A length of the style sheets as a flow extent; `em` is `em_points`.
pub fn extent(length: Length, em_points: f64) -> Extent {
    match length {
        Length::Points(points) => Extent::Points(points),
        Length::Em(em) => Extent::Points(em * em_points),
        Length::Share(share) => Extent::Share(share),
    }
}

/// A length in points, when it is one (an `em` is `em_points`; a share is not).
fn points(length: Length, em_points: f64) -> Option<f64> {
    match extent(length, em_points) {
        Extent::Points(points) => Some(points),
        Extent::Share(_) => None,
    }
}

/// The first `<name>` element of the page (`<body>`, `<html>`), near the top of the tree.
fn find<'h>(html: &'h Html, name: &str) -> Option<NodeRef<'h, Node>> {
    html.tree
        .root()
        .descendants()
        .take(64)
        .find(|n| matches!(n.value(), Node::Element(e) if e.name() == name))
}

/// `<body>`'s margins: 8 CSS px (6 points) on each side unless the style sheets set them
/// (a share of a width, or `auto`, counts as none).
pub fn body_margins(html: &Html, cascade: &crate::sheet::Cascade) -> Insets {
    const BODY_MARGIN: f64 = 6.0;
    let declared = find(html, "body")
        .and_then(|body| cascade.box_style(body.id()))
        .map(|b| b.margin)
        .unwrap_or_default();
    let side = |m: Option<Option<Length>>| match m {
        Some(length) => length
            .and_then(|l| points(l, DEFAULT_EM))
            .map_or(0.0, |p| p.clamp(0.0, 200.0)),
        None => BODY_MARGIN,
    };
    let [top, right, bottom, left] = declared;
    Insets {
        top: side(top),
        right: side(right),
        bottom: side(bottom),
        left: side(left),
    }
}

/// The page's background: `<body>`'s (style sheets or `bgcolor`), else `<html>`'s.
pub fn page_background(html: &Html, cascade: &crate::sheet::Cascade) -> Option<Color> {
    let of = |node: Option<NodeRef<'_, Node>>| {
        let node = node?;
        let Node::Element(e) = node.value() else {
            return None;
        };
        cascade
            .background(node.id())
            .or_else(|| e.attr("bgcolor").and_then(attribute_color))
    };
    of(find(html, "body")).or_else(|| of(find(html, "html")))
}

impl Builder<'_> {
    /// The lines the style sheets draw along an element's sides, if a border declaration
    /// applies to it; `currentcolor` is `text`.
    pub fn borders_of(&self, node: DomNode<'_>, text: Color) -> Option<Borders> {
        let sides = self.cascade.box_style(node.id())?.borders?;
        let [top, right, bottom, left] = sides.map(|side| {
            side.map(|line| Border {
                width: line.width,
                color: line.color.unwrap_or(text),
            })
        });
        Some(Borders {
            top,
            right,
            bottom,
            left,
        })
    }

    /// The colour the text of the element being read is set in.
    pub fn text_color(&self) -> Color {
        self.style.colors.last().copied().unwrap_or(Color::BLACK)
    }

    /// The font size, in points, of the element being read.
    pub fn em_points(&self) -> f64 {
        self.style
            .sizes
            .last()
            .map_or(DEFAULT_EM, |s| s.of(DEFAULT_EM))
    }

    /// The box a block element is drawn in, when the style sheets give it one: a
    /// background, a visible border, padding or a width. Read inside the element's scope
    /// (its colour and size are its own).
    pub fn box_look(&self, node: DomNode<'_>, name: &str) -> Option<BoxLook> {
        if self.inline_mode() || !is_block(name) || NOT_BOXED.contains(&name) {
            return None;
        }
        self.drawn_box(node, self.cascade.background(node.id()))
    }

    /// The box the style sheets draw for the element `node` on `background`, if it has a
    /// background, a visible border, padding or a width.
    pub fn drawn_box(&self, node: DomNode<'_>, background: Option<Color>) -> Option<BoxLook> {
        let declared = self.cascade.box_style(node.id());
        if background.is_none() && declared.is_none() {
            return None;
        }
        let declared = declared.unwrap_or_default();
        let em = self.em_points();
        let borders = self.borders_of(node, self.text_color()).unwrap_or_default();
        let side = |l: Option<Length>| l.and_then(|l| points(l, em)).unwrap_or(0.0);
        let [top, right, bottom, left] = declared.padding;
        let padding = Insets {
            top: side(top),
            right: side(right),
            bottom: side(bottom),
            left: side(left),
        };
        let [m_top, m_right, m_bottom, m_left] = declared.margin;
        let margin = Insets {
            top: side(m_top.flatten()),
            right: side(m_right.flatten()),
            bottom: side(m_bottom.flatten()),
            left: side(m_left.flatten()),
        };
        let look = BoxLook {
            background,
            borders,
            padding,
            margin,
            width: declared.width.map(|l| extent(l, em)),
            max_width: declared.max_width.map(|l| extent(l, em)),
            // `margin: 0 auto`: both side margins `auto`.
            centred: m_left == Some(None) && m_right == Some(None),
        };
        let drawn = look.background.is_some()
            || [borders.top, borders.right, borders.bottom, borders.left]
                .iter()
                .any(Option::is_some)
            || [padding.top, padding.right, padding.bottom, padding.left]
                .iter()
                .any(|p| *p > 0.0)
            || look.width.is_some()
            || look.max_width.is_some();
        drawn.then_some(look)
    }
}
