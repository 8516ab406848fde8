//! `<table>` to a flow table: rows from `thead`/`tbody`/`tfoot` (the foot last, as browsers
//! draw it; the head's rows are the header), cells with their `colspan` and `rowspan`, the
//! widths the table and its cells ask for (`width`, the style sheets'), each cell's padding
//! (`padding`, `cellpadding`), vertical alignment (`vertical-align`, `valign`; middle, as
//! browsers have it, unless asked), horizontal alignment (its own `text-align` or `align`,
//! else its row's or row group's, else what it inherits, carried on its inlines) and
//! background (its own, else its row's, group's or table's).
//!
//! Cells hold inline content only: block elements inside a cell (paragraphs, lists, nested
//! tables) become lines of its text.

use quire_sdk::flow::{Block, Cell, Extent, Insets, CELL_PADDING};
use quire_sdk::{Align, Color, VAlign};
use scraper::node::Element;
use scraper::Node;

use crate::builder::{Builder, Sep};
use crate::css_values::parse_align;
use crate::dom::DomNode;
use crate::sheet::{attribute_color, Length};

/// Spans are capped as the HTML standard caps them (lower for rows): the flow table stops
/// them at its edges in any case.
const MAX_COLSPAN: u16 = 1000;
const MAX_ROWSPAN: u16 = 1000;
/// Chromium's default font size, which an `em` of a cell that sets none is.
const DEFAULT_EM: f64 = 12.0;

struct Row {
    cells: Vec<Cell>,
    /// From `<thead>`.
    head: bool,
    /// Made only of `<th>`.
    all_th: bool,
}

/// What a row takes from the row group and table around it.
#[derive(Clone, Copy, Default)]
struct Around {
    align: Option<Align>,
    background: Option<Color>,
    valign: Option<VAlign>,
    /// The table's `cellpadding`, in points.
    cellpadding: Option<f64>,
}

impl Builder<'_> {
    pub fn table(&mut self, node: DomNode<'_>, depth: usize) {
        if self.inline_mode() {
            // A table inside a cell or heading: its rows become lines.
            self.boundary();
            self.children(node, depth);
            self.boundary();
            return;
        }
        self.end_paragraph();
        let Node::Element(table) = node.value() else {
            return;
        };
        // A table's background shows behind every cell that has none of its own.
        let around_table = Around {
            align: None,
            background: self.background_of(node, table),
            valign: None,
            cellpadding: table
                .attr("cellpadding")
                .and_then(|v| v.trim().trim_end_matches("px").parse::<f64>().ok())
                .filter(|p| p.is_finite() && *p >= 0.0)
                .map(|px| px * 0.75),
        };
        let mut caption = Vec::new();
        let mut rows = Vec::new();
        let mut foot = Vec::new();
        for child in node.children() {
            let Node::Element(e) = child.value() else {
                continue;
            };
            if self.dropped(child, e) {
                continue;
            }
            match e.name() {
                "caption" => {
                    caption = self.collect(Sep::Line, "a table caption", |b| {
                        b.children(child, depth + 1)
                    })
                }
                "thead" | "tbody" | "tfoot" => {
                    let group = Around {
                        align: self.align_of(child, e),
                        background: self.background_of(child, e).or(around_table.background),
                        valign: self.valign_of(child, e),
                        cellpadding: around_table.cellpadding,
                    };
                    for tr in child.children() {
                        if let Node::Element(r) = tr.value() {
                            if r.name() == "tr" && !self.dropped(tr, r) {
                                let row = self.row(tr, e.name() == "thead", group, depth + 2);
                                if e.name() == "tfoot" {
                                    foot.push(row);
                                } else {
                                    rows.push(row);
                                }
                            }
                        }
                    }
                }
                "tr" => {
                    let row = self.row(child, false, around_table, depth + 1);
                    rows.push(row);
                }
                _ => {}
            }
        }
        rows.extend(foot);
        if !caption.is_empty() {
            for inline in &mut caption {
                inline.italic = true;
            }
            self.emit(Block::Paragraph(caption));
        }
        let width = self.width_of(node, table, DEFAULT_EM);
        if let Some(table) = flow_table(rows, self.ruled(node), width) {
            self.emit(table);
        }
    }

    /// Whether a table draws lines: `border` other than 0, or a border from the style
    /// sheets on it or on a cell, as a browser draws them; a layout table has none.
    fn ruled(&self, table: DomNode<'_>) -> bool {
        let Node::Element(e) = table.value() else {
            return false;
        };
        let by_attribute = e
            .attr("border")
            .is_some_and(|b| b.trim().parse::<u32>().map_or(true, |n| n > 0));
        by_attribute
            || self.cascade.bordered(table.id())
            || table.descendants().any(|n| {
                matches!(n.value(), Node::Element(c) if matches!(c.name(), "td" | "th"))
                    && self.cascade.bordered(n.id())
            })
    }

    /// An element's horizontal alignment: the style sheets' `text-align` (the `style`
    /// attribute included), else its `align`.
    fn align_of(&self, node: DomNode<'_>, e: &Element) -> Option<Align> {
        self.cascade
            .text_style(node.id())
            .and_then(|t| t.align)
            .or_else(|| e.attr("align").and_then(parse_align))
    }

    /// An element's background: the style sheets' (the `style` attribute included), else
    /// its `bgcolor`.
    fn background_of(&self, node: DomNode<'_>, e: &Element) -> Option<Color> {
        self.cascade
            .background(node.id())
            .or_else(|| e.attr("bgcolor").and_then(attribute_color))
    }

    /// An element's vertical alignment: the style sheets' `vertical-align`, else its
    /// `valign`.
    fn valign_of(&self, node: DomNode<'_>, e: &Element) -> Option<VAlign> {
        self.cascade
            .box_style(node.id())
            .and_then(|b| b.valign)
            .or_else(
                || match e.attr("valign")?.trim().to_ascii_lowercase().as_str() {
                    "top" | "baseline" => Some(VAlign::Top),
                    "middle" | "center" => Some(VAlign::Middle),
                    "bottom" => Some(VAlign::Bottom),
                    _ => None,
                },
            )
    }

    /// The width an element asks for: the style sheets' `width`, else its `width`
    /// attribute (pixels or a percentage); `em` is `em_points`.
    fn width_of(&self, node: DomNode<'_>, e: &Element, em_points: f64) -> Option<Extent> {
        match self.cascade.box_style(node.id()).and_then(|b| b.width) {
            Some(length) => Some(extent(length, em_points)),
            None => {
                let value = e.attr("width")?.trim();
                match value.strip_suffix('%') {
                    Some(share) => Some(Extent::Share(share.trim().parse::<f64>().ok()? / 100.0)),
                    None => Some(Extent::Points(
                        value.trim_end_matches("px").parse::<f64>().ok()? * 0.75,
                    )),
                }
            }
        }
        .filter(|w| w.of(1.0).is_some())
    }

    /// A cell's padding: the style sheets' sides, else the table's `cellpadding`, else the
    /// flow table's default.
    fn padding_of(&self, node: DomNode<'_>, cellpadding: Option<f64>, em: f64) -> Option<Insets> {
        let declared = self.cascade.box_style(node.id()).map(|b| b.padding);
        if declared.is_none() && cellpadding.is_none() {
            return None;
        }
        let [top, right, bottom, left] = declared.unwrap_or_default();
        let side = |length: Option<Length>, default: f64| match length.map(|l| extent(l, em)) {
            Some(Extent::Points(points)) => points,
            _ => cellpadding.unwrap_or(default),
        };
        Some(Insets {
            top: side(top, CELL_PADDING.top),
            right: side(right, CELL_PADDING.right),
            bottom: side(bottom, CELL_PADDING.bottom),
            left: side(left, CELL_PADDING.left),
        })
    }

    fn row(&mut self, tr: DomNode<'_>, head: bool, group: Around, depth: usize) -> Row {
        let (row_align, row_background, row_valign) = match tr.value() {
            Node::Element(e) => (
                self.align_of(tr, e).or(group.align),
                self.background_of(tr, e).or(group.background),
                self.valign_of(tr, e).or(group.valign),
            ),
            _ => (group.align, group.background, group.valign),
        };
        let mut cells = Vec::new();
        let mut all_th = true;
        for td in tr.children() {
            let Node::Element(e) = td.value() else {
                continue;
            };
            if !matches!(e.name(), "td" | "th") || self.dropped(td, e) {
                continue;
            }
            let header = e.name() == "th";
            let row_scope = match tr.value() {
                Node::Element(r) => Some(self.enter(tr, r)),
                _ => None,
            };
            // The cell's font size, which its `em` lengths are.
            let mut em = DEFAULT_EM;
            let mut inlines = self.collect(Sep::Line, "a table cell", |b| {
                if let Some(id) = e.id() {
                    b.anchor(id);
                }
                let scope = b.enter(td, e);
                em = b
                    .style
                    .sizes
                    .last()
                    .map_or(DEFAULT_EM, |s| s.of(DEFAULT_EM));
                b.children(td, depth + 1);
                b.leave(scope);
            });
            if let Some(scope) = row_scope {
                self.leave(scope);
            }
            if header && !head {
                // Row headers in the body: bold, as browsers draw `<th>`.
                inlines.iter_mut().for_each(|i| i.bold = true);
            }
            // The cell's alignment is the text's: stated on the cell or its row (group),
            // it wins over what the inlines inherited from outside the table.
            if let Some(align) = self.align_of(td, e).or(row_align) {
                inlines.iter_mut().for_each(|i| i.align = Some(align));
            }
            let span = |name: &str, most: u16| {
                e.attr(name)
                    .and_then(|v| v.trim().parse::<u32>().ok())
                    .map_or(1, |n| n.clamp(1, u32::from(most)) as u16)
            };
            cells.push(Cell {
                inlines,
                colspan: span("colspan", MAX_COLSPAN),
                rowspan: span("rowspan", MAX_ROWSPAN),
                width: self.width_of(td, e, em),
                padding: self.padding_of(td, group.cellpadding, em),
                valign: self
                    .valign_of(td, e)
                    .or(row_valign)
                    .unwrap_or(VAlign::Middle),
                background: self.background_of(td, e).or(row_background),
            });
            all_th &= header;
        }
        Row {
            all_th: all_th && !cells.is_empty(),
            cells,
            head,
        }
    }
}

/// A length of the style sheets as a flow extent; `em` is `em_points`.
fn extent(length: Length, em_points: f64) -> Extent {
    match length {
        Length::Points(points) => Extent::Points(points),
        Length::Em(em) => Extent::Points(em * em_points),
        Length::Share(share) => Extent::Share(share),
    }
}

/// The flow table of the rows read, or `None` when there is no cell at all. The header is
/// the head's rows, else a first row made only of `<th>`.
fn flow_table(rows: Vec<Row>, ruled: bool, width: Option<Extent>) -> Option<Block> {
    if rows.iter().all(|r| r.cells.is_empty()) {
        return None;
    }
    let head_rows = match rows.iter().take_while(|r| r.head).count() {
        0 => usize::from(rows.first().is_some_and(|r| r.all_th)),
        n => n,
    };
    Some(Block::Table {
        // Cells carry their alignment on their inlines.
        aligns: Vec::new(),
        rows: rows.into_iter().map(|r| r.cells).collect(),
        head_rows,
        ruled,
        width,
    })
}
