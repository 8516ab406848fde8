//! `<table>` to a flow table: rows from `thead`/`tbody`/`tfoot` (the foot last, as browsers
//! draw it), `colspan` and `rowspan` kept in the grid by padding with empty cells (flow
//! tables have no spans), each cell aligned as it asks (its own `text-align` or `align`, else
//! its row's or row group's, else what it inherits), carried on its inlines.
//!
//! Cells hold inline content only: block elements inside a cell (paragraphs, lists, nested
//! tables) become lines of its text.

use quire_sdk::flow::{Block, Inline};
use quire_sdk::{Align, Color};
use scraper::node::Element;
use scraper::Node;

use crate::builder::{Builder, Sep};
use crate::css_values::parse_align;
use crate::dom::DomNode;
use crate::sheet::attribute_color;

/// Columns beyond this are folded into the last one: a hundred columns on a page would be
/// a character wide each.
pub const MAX_COLUMNS: usize = 32;
/// `rowspan` is capped as the HTML standard caps it, lower: spans never outlast the table.
const MAX_ROWSPAN: u32 = 1000;

struct Cell {
    inlines: Vec<Inline>,
    colspan: usize,
    rowspan: u32,
    header: bool,
}

struct Row {
    cells: Vec<Cell>,
    /// From `<thead>`.
    head: bool,
}

/// What a row takes from the row group and table around it.
#[derive(Clone, Copy, Default)]
struct Around {
    align: Option<Align>,
    background: Option<Color>,
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
        // A table's background shows behind every cell that has none of its own.
        let table_background = match node.value() {
            Node::Element(e) => self.background_of(node, e),
            _ => None,
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
                        background: self.background_of(child, e).or(table_background),
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
                    let around = Around {
                        align: None,
                        background: table_background,
                    };
                    let row = self.row(child, false, around, depth + 1);
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
        if let Some(table) = grid(rows, self.ruled(node)) {
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

    fn row(&mut self, tr: DomNode<'_>, head: bool, group: Around, depth: usize) -> Row {
        let (row_align, row_background) = match tr.value() {
            Node::Element(e) => (
                self.align_of(tr, e).or(group.align),
                self.background_of(tr, e).or(group.background),
            ),
            _ => (group.align, group.background),
        };
        let mut cells = Vec::new();
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
            let mut inlines = self.collect(Sep::Line, "a table cell", |b| {
                if let Some(id) = e.id() {
                    b.anchor(id);
                }
                let scope = b.enter(td, e);
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
            // Its background is the cell's own, else its row's, group's or table's; it too
            // rides on the inlines (an empty cell has none to carry it).
            let background = self.background_of(td, e).or(row_background);
            inlines.iter_mut().for_each(|i| i.background = background);
            let span = |name: &str| e.attr(name).and_then(|v| v.trim().parse::<u32>().ok());
            cells.push(Cell {
                inlines,
                colspan: span("colspan").unwrap_or(1).clamp(1, MAX_COLUMNS as u32) as usize,
                rowspan: span("rowspan").unwrap_or(1).clamp(1, MAX_ROWSPAN),
                header,
            });
        }
        Row { cells, head }
    }
}

/// The flow table of the rows read, or `None` when there is no cell at all.
fn grid(rows: Vec<Row>, ruled: bool) -> Option<Block> {
    if rows.iter().all(|r| r.cells.is_empty()) {
        return None;
    }
    // The header row: the first row of `<thead>`, or a first row made only of `<th>`.
    let first_is_header = rows
        .first()
        .is_some_and(|r| r.head || (!r.cells.is_empty() && r.cells.iter().all(|c| c.header)));
    // Rows still covered by a cell above, per column.
    let mut covered: Vec<u32> = Vec::new();
    let mut out: Vec<Vec<Vec<Inline>>> = Vec::with_capacity(rows.len());
    for row in rows {
        let mut cells: Vec<Vec<Inline>> = Vec::new();
        let skip_covered = |cells: &mut Vec<Vec<Inline>>, covered: &mut Vec<u32>| {
            while let Some(left) = covered.get_mut(cells.len()).filter(|n| **n > 0) {
                *left -= 1;
                cells.push(Vec::new());
            }
        };
        let head = row.head;
        for cell in row.cells {
            skip_covered(&mut cells, &mut covered);
            if cells.len() >= MAX_COLUMNS {
                fold_into_last(&mut cells, cell.inlines);
                continue;
            }
            let col = cells.len();
            let span = cell.colspan.min(MAX_COLUMNS - col);
            if covered.len() < col + span {
                covered.resize(col + span, 0);
            }
            for left in &mut covered[col..col + span] {
                *left = (*left).max(cell.rowspan - 1);
            }
            let mut inlines = cell.inlines;
            if head {
                inlines.iter_mut().for_each(|i| i.bold = true);
            }
            cells.push(inlines);
            cells.extend((1..span).map(|_| Vec::new()));
        }
        skip_covered(&mut cells, &mut covered);
        out.push(cells);
    }
    let header = if first_is_header {
        let mut h = out.remove(0);
        h.iter_mut().flatten().for_each(|i| i.bold = false);
        h
    } else {
        Vec::new()
    };
    Some(Block::Table {
        // Cells carry their alignment on their inlines.
        aligns: Vec::new(),
        header,
        rows: out,
        ruled,
    })
}

fn fold_into_last(cells: &mut [Vec<Inline>], inlines: Vec<Inline>) {
    if let Some(last) = cells.last_mut() {
        if !inlines.is_empty() && !last.is_empty() {
            last.push(Inline::plain(" "));
        }
        last.extend(inlines);
    }
}
