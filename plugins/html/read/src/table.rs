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

use quire_sdk::flow::{Block, Borders, Cell, Extent, Insets};
use quire_sdk::{Align, Color, VAlign};
use scraper::node::Element;
use scraper::Node;

use crate::boxes::{extent, DEFAULT_EM};
use crate::builder::{Builder, Container, Sep};
use crate::css_values::parse_align;
use crate::dom::{is_block, DomNode};
use crate::sheet::{attribute_color, Length};

/// A cell's padding in a browser without style sheets, in points: 1 px of its own and 1 px,
/// half the table's 2 px `border-spacing`.
const BROWSER_CELL_PADDING: f64 = 1.5;

/// Spans are capped as the HTML standard caps them (lower for rows): the flow table stops
/// them at its edges in any case.
const MAX_COLSPAN: u16 = 1000;
const MAX_ROWSPAN: u16 = 1000;

/// How the table is drawn as a whole.
#[derive(Clone, Copy)]
struct Look {
    ruled: bool,
    width: Option<Extent>,
    frame: Option<Borders>,
}

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
        let look = Look {
            ruled: Self::ruled(table),
            width: self.width_of(node, table, DEFAULT_EM),
            frame: self.borders_of(node, self.text_color()),
        };
        let columns = column_count(node);
        for child in node.children() {
            if let Node::Element(e) = child.value() {
                if e.name() == "caption" && !self.dropped(child, e) {
                    let mut caption = self.collect(Sep::Line, "a table caption", |b| {
                        b.children(child, depth + 1)
                    });
                    // Centred, as a browser's own style sheet sets a caption, unless the
                    // page aligns it.
                    for inline in &mut caption {
                        inline.align = inline.align.or(Some(Align::Center));
                    }
                    if !caption.is_empty() {
                        self.emit(Block::Paragraph(caption));
                    }
                }
            }
        }
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
                "thead" | "tbody" | "tfoot" => {
                    let group = Around {
                        align: self.align_of(child, e),
                        background: self.background_of(child, e).or(around_table.background),
                        valign: self.valign_of(child, e),
                        cellpadding: around_table.cellpadding,
                    };
                    for tr in child.children() {
                        let Node::Element(r) = tr.value() else {
                            continue;
                        };
                        if r.name() != "tr" || self.dropped(tr, r) {
                            continue;
                        }
                        if e.name() == "tfoot" {
                            foot.push(self.row(tr, false, group, depth + 2));
                        } else {
                            let head = e.name() == "thead";
                            self.row_or_stack(tr, head, group, depth + 2, columns, &mut rows, look);
                        }
                    }
                }
                "tr" => self.row_or_stack(
                    child,
                    false,
                    around_table,
                    depth + 1,
                    columns,
                    &mut rows,
                    look,
                ),
                _ => {}
            }
        }
        rows.extend(foot);
        if let Some(table) = flow_table(rows, look) {
            self.emit(table);
        }
    }

    /// Reads the row `tr` into `rows`; or, when its one cell spans the table and holds a
    /// table of its own (a page laid out in nested tables), ends the table read so far and
    /// lays the cell's content out as blocks below it, as the browser stacks them.
    #[allow(clippy::too_many_arguments)]
    fn row_or_stack(
        &mut self,
        tr: DomNode<'_>,
        head: bool,
        around: Around,
        depth: usize,
        columns: usize,
        rows: &mut Vec<Row>,
        look: Look,
    ) {
        let Some((td, e)) = stacked_cell(tr, columns) else {
            rows.push(self.row(tr, head, around, depth));
            return;
        };
        if let Some(table) = flow_table(std::mem::take(rows), look) {
            self.emit(table);
        }
        let Node::Element(r) = tr.value() else {
            return;
        };
        let scope = self.enter(tr, r);
        // The cell's box (its background, or its row's or table's; its padding, borders
        // and width) goes around what it holds.
        let background = self
            .background_of(td, e)
            .or(self.background_of(tr, r))
            .or(around.background);
        let boxed = self.drawn_box(td, background);
        if let Some(look) = boxed {
            self.open(Container::Boxed {
                look,
                blocks: Vec::new(),
            });
        }
        self.element(td, e, depth + 1);
        self.end_paragraph();
        if boxed.is_some() {
            self.close();
        }
        self.leave(scope);
    }

    /// Whether a table draws a grid: `border` other than 0. Lines from the style sheets
    /// are the cells' own and the table's frame.
    fn ruled(e: &Element) -> bool {
        e.attr("border")
            .is_some_and(|b| b.trim().parse::<u32>().map_or(true, |n| n > 0))
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

    /// The box of the one inline element a cell holds, when the style sheets pad or border
    /// it (an email's button: an `<a>` with `padding: 12px 24px` in a blue cell): its room
    /// widens the cell as it widens the button in a browser, and its background fills the
    /// cell where the cell has none. `None` when the cell holds more, or a block.
    fn lone_inline_box(&self, td: DomNode<'_>, em: f64) -> Option<(Insets, Option<Color>)> {
        let mut content = td.children().filter(|c| match c.value() {
            Node::Text(t) => !t.trim().is_empty(),
            Node::Element(_) => true,
            _ => false,
        });
        let only = content.next()?;
        if content.next().is_some() {
            return None;
        }
        let Node::Element(e) = only.value() else {
            return None;
        };
        if is_block(e.name()) || self.dropped(only, e) {
            return None;
        }
        let b = self.cascade.box_style(only.id())?;
        let side = |i: usize| {
            let pad = match b.padding[i].map(|l| extent(l, em)) {
                Some(Extent::Points(p)) if p.is_finite() => p.clamp(0.0, 200.0),
                _ => 0.0,
            };
            let line = b
                .borders
                .and_then(|s| s[i])
                .map_or(0.0, |l| l.width.clamp(0.0, 50.0));
            pad + line
        };
        let room = Insets {
            top: side(0),
            right: side(1),
            bottom: side(2),
            left: side(3),
        };
        (room != Insets::default()).then(|| (room, self.cascade.background(only.id())))
    }

    /// A cell's padding: the style sheets' sides, else the table's `cellpadding`, else a
    /// browser's: its 1 px and half of the 2 px `border-spacing` between cells, so columns
    /// are as narrow as Chromium sets them and words fit where they fit there.
    fn padding_of(&self, node: DomNode<'_>, cellpadding: Option<f64>, em: f64) -> Insets {
        let declared = self.cascade.box_style(node.id()).map(|b| b.padding);
        let [top, right, bottom, left] = declared.unwrap_or_default();
        let side = |length: Option<Length>| match length.map(|l| extent(l, em)) {
            Some(Extent::Points(points)) => points,
            _ => cellpadding.unwrap_or(BROWSER_CELL_PADDING),
        };
        Insets {
            top: side(top),
            right: side(right),
            bottom: side(bottom),
            left: side(left),
        }
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
            // The cell's font size, which its `em` lengths are, and text colour, which its
            // lines are unless they say otherwise.
            let mut em = DEFAULT_EM;
            let mut text = Color::BLACK;
            let mut inlines = self.collect(Sep::Line, "a table cell", |b| {
                if let Some(id) = e.id() {
                    b.anchor(id);
                }
                let scope = b.enter(td, e);
                em = b.em_points();
                text = b.text_color();
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
            let mut padding = self.padding_of(td, group.cellpadding, em);
            let lone = self.lone_inline_box(td, em);
            if let Some((inner, _)) = lone {
                padding.top += inner.top;
                padding.right += inner.right;
                padding.bottom += inner.bottom;
                padding.left += inner.left;
            }
            cells.push(Cell {
                inlines,
                colspan: span("colspan", MAX_COLSPAN),
                rowspan: span("rowspan", MAX_ROWSPAN),
                width: self.width_of(td, e, em),
                padding: Some(padding),
                valign: self
                    .valign_of(td, e)
                    .or(row_valign)
                    .unwrap_or(VAlign::Middle),
                background: self
                    .background_of(td, e)
                    .or(row_background)
                    .or(lone.and_then(|(_, fill)| fill)),
                borders: self.borders_of(td, text),
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

/// The columns the widest row of `table` makes (cells and their `colspan`s).
fn column_count(table: DomNode<'_>) -> usize {
    let rows = table.children().flat_map(|child| match child.value() {
        Node::Element(e) if matches!(e.name(), "thead" | "tbody" | "tfoot") => {
            child.children().collect::<Vec<_>>()
        }
        _ => vec![child],
    });
    rows.filter(|tr| matches!(tr.value(), Node::Element(e) if e.name() == "tr"))
        .map(|tr| {
            tr.children()
                .filter_map(|td| match td.value() {
                    Node::Element(e) if matches!(e.name(), "td" | "th") => Some(colspan(e)),
                    _ => None,
                })
                .sum::<usize>()
        })
        .max()
        .unwrap_or(0)
}

fn colspan(e: &Element) -> usize {
    e.attr("colspan")
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(1, |n| n.clamp(1, usize::from(MAX_COLSPAN)))
}

/// The cell of the row `tr` that holds a table among its elements (or its one wrapping
/// element's) when the row spans all `columns` and its other cells are empty: a page laid
/// out in nested tables (an email's wrapper, empty spacer cells at its sides).
fn stacked_cell(tr: DomNode<'_>, columns: usize) -> Option<(DomNode<'_>, &Element)> {
    fn elements(node: DomNode<'_>) -> Vec<DomNode<'_>> {
        node.children()
            .filter(|c| matches!(c.value(), Node::Element(_)))
            .collect()
    }
    let cells: Vec<_> = elements(tr)
        .into_iter()
        .filter(|c| matches!(c.value(), Node::Element(e) if matches!(e.name(), "td" | "th")))
        .collect();
    let spanned: usize = cells
        .iter()
        .map(|c| match c.value() {
            Node::Element(e) => colspan(e),
            _ => 0,
        })
        .sum();
    if spanned < columns {
        return None;
    }
    // Spacer cells hold nothing but white space (`&nbsp;` included).
    let empty = |cell: &DomNode<'_>| {
        cell.children().all(|c| match c.value() {
            Node::Text(t) => t.chars().all(|ch| ch.is_whitespace()),
            Node::Comment(_) => true,
            _ => false,
        })
    };
    let mut full = cells.into_iter().filter(|c| !empty(c));
    let (Some(td), None) = (full.next(), full.next()) else {
        return None;
    };
    let Node::Element(e) = td.value() else {
        return None;
    };
    let is_table = |n: &DomNode<'_>| matches!(n.value(), Node::Element(t) if t.name() == "table");
    let inside = elements(td);
    let holds_table = inside.iter().any(is_table)
        || matches!(&inside[..], [wrapper] if elements(*wrapper).iter().any(is_table));
    holds_table.then_some((td, e))
}

/// The flow table of the rows read, or `None` when there is no cell at all. The header is
/// the head's rows, else a first row made only of `<th>`.
fn flow_table(rows: Vec<Row>, look: Look) -> Option<Block> {
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
        ruled: look.ruled,
        width: look.width,
        frame: look.frame,
    })
}
