//! Tables: column widths from the cells' content, rows split across pages, the header
//! repeated at the top of each page the table continues on.

use super::engine::{lines_fitting, Ctx, Engine, EPS};
use super::style::*;
use super::Inline;
use crate::layout::{
    layout_text_with_starts, min_content_width, natural_width, slice_text, Line, TextPos,
};
use crate::model::*;

/// The geometry every row of one table shares.
struct Grid {
    x: f64,
    widths: Vec<f64>,
    /// Lines around the cells and a shaded header.
    ruled: bool,
}

impl Grid {
    fn inner(&self, c: usize) -> f64 {
        (self.widths[c] - 2.0 * CELL_PAD_X).max(1.0)
    }
}

/// One row of a table: its cells' text and each cell's background.
#[derive(Clone)]
struct Row {
    cells: Vec<Text>,
    fills: Vec<Option<Color>>,
}

impl Engine<'_> {
    pub(super) fn table(
        &mut self,
        aligns: &[Align],
        header: &[Vec<Inline>],
        rows: &[Vec<Vec<Inline>>],
        ruled: bool,
        ctx: Ctx,
    ) {
        let ncols = rows.iter().map(Vec::len).fold(header.len(), usize::max);
        if ncols == 0 {
            return;
        }
        let size = self.setup.body_size * TABLE_SCALE;
        let font = self.setup.body_font;
        let make_row = |cells: &[Vec<Inline>], bold: bool| -> Row {
            let texts = (0..ncols)
                .map(|c| {
                    let inlines = cells.get(c).map_or(&[][..], Vec::as_slice);
                    Text {
                        runs: runs(
                            inlines,
                            Base {
                                font,
                                size,
                                bold,
                                color: ctx.color,
                            },
                        ),
                        // A cell's own alignment (HTML's per-cell `text-align`) over its column's.
                        align: super::style::alignment(inlines)
                            .or(aligns.get(c).copied())
                            .unwrap_or_default(),
                        direction: direction(inlines),
                        ..Text::default_layout()
                    }
                })
                .collect();
            // A cell's background (HTML's `background-color`, `bgcolor`) rides on its inlines.
            let fills = (0..ncols)
                .map(|c| cells.get(c).and_then(|inlines| background(inlines)))
                .collect();
            Row {
                cells: texts,
                fills,
            }
        };
        let head = (!header.is_empty()).then(|| make_row(header, true));
        let body: Vec<Row> = rows.iter().map(|r| make_row(r, false)).collect();
        let grid = Grid {
            x: ctx.x,
            widths: column_widths(head.iter().chain(&body).map(|r| &r.cells), ncols, ctx.width),
            ruled,
        };

        self.space(self.para_space());
        // The header goes with the first row: a header alone at the foot of a page is useless.
        let head_h = head.as_ref().map_or(0.0, |h| row_height(&h.cells, &grid));
        let first_h = body.first().map_or(0.0, |r| row_height(&r.cells, &grid));
        self.ensure((head_h + first_h).min(self.content_height()));
        // Repeat the header on continuation pages only when it is small next to a page.
        let repeat = head
            .as_ref()
            .filter(|_| head_h <= self.content_height() / 3.0);
        if let Some(h) = &head {
            self.table_row(h.clone(), &grid, true, None);
        }
        for row in body {
            self.table_row(row, &grid, false, repeat);
        }
        self.space(self.para_space());
    }

    /// Places one row, cutting its cells between lines when it does not fit a page. Each
    /// cell is laid out once and the cuts planned over its lines, so a cell of many pages
    /// costs its length, not pages x length.
    fn table_row(&mut self, row: Row, grid: &Grid, is_head: bool, head: Option<&Row>) {
        let Row { cells, fills } = row;
        let head_h = head.map_or(0.0, |h| row_height(&h.cells, grid));
        let layouts: Vec<(Vec<Line>, Vec<TextPos>)> = cells
            .iter()
            .enumerate()
            .map(|(c, t)| layout_text_with_starts(t, grid.inner(c)))
            .collect();
        let sum = |c: usize, a: usize, b: usize| -> f64 {
            layouts[c].0[a..b].iter().map(|l| l.height).sum()
        };
        let rest = |pos: &[usize]| -> f64 {
            (0..cells.len())
                .map(|c| sum(c, pos[c], layouts[c].0.len()))
                .fold(0.0, f64::max)
        };
        let page_room = self.content_height() - head_h - 2.0 * CELL_PAD_Y;
        let mut room = self.room() - 2.0 * CELL_PAD_Y;
        // Whether the row sits at the top of a page (after a repeated header, if any): there,
        // moving on cannot help, and the row must be cut.
        let mut at_top = self.fresh;
        let mut move_first = false;
        let mut pos = vec![0; cells.len()];
        // Per page, the line range of every cell.
        let mut plan: Vec<Vec<(usize, usize)>> = Vec::new();
        loop {
            let remaining = rest(&pos);
            if remaining <= room + EPS {
                plan.push(
                    (0..cells.len())
                        .map(|c| (pos[c], layouts[c].0.len()))
                        .collect(),
                );
                break;
            }
            let fit: Vec<usize> = (0..cells.len())
                .map(|c| lines_fitting(&layouts[c].0[pos[c]..], room))
                .collect();
            if !at_top && (remaining <= page_room + EPS || fit.iter().all(|&k| k == 0)) {
                // The whole rest fits a new page, or nothing fits here: move on.
                move_first = true;
            } else {
                let mut ranges = Vec::with_capacity(cells.len());
                for (c, &k) in fit.iter().enumerate() {
                    let left = layouts[c].0.len() - pos[c];
                    // Progress even when a single line is taller than the page.
                    let k = if left > 0 { k.max(1).min(left) } else { 0 };
                    ranges.push((pos[c], pos[c] + k));
                    pos[c] += k;
                }
                plan.push(ranges);
                if (0..cells.len()).all(|c| pos[c] == layouts[c].0.len()) {
                    break;
                }
            }
            room = page_room;
            at_top = true;
        }
        if move_first {
            self.continue_table(grid, head);
        }
        let heights_of = |ranges: &[(usize, usize)]| -> Vec<f64> {
            ranges
                .iter()
                .enumerate()
                .map(|(c, &(a, b))| sum(c, a, b))
                .collect()
        };
        if let [ranges] = &plan[..] {
            let heights = heights_of(ranges);
            self.draw_row(cells, &fills, &heights, grid, is_head);
            return;
        }
        for (n, ranges) in plan.iter().enumerate() {
            if n > 0 {
                self.continue_table(grid, head);
            }
            let mut parts = Vec::with_capacity(cells.len());
            for (c, &(a, b)) in ranges.iter().enumerate() {
                let (lines, starts) = &layouts[c];
                parts.push(if a == b {
                    Text {
                        runs: Vec::new(),
                        ..cells[c].clone_layout()
                    }
                } else {
                    let end = if b < lines.len() {
                        Some(starts[b])
                    } else {
                        None
                    };
                    slice_text(&cells[c], starts[a], end)
                });
            }
            let heights = heights_of(ranges);
            self.draw_row(parts, &fills, &heights, grid, is_head);
        }
    }

    fn continue_table(&mut self, grid: &Grid, head: Option<&Row>) {
        self.new_page();
        if let Some(h) = head {
            let heights: Vec<f64> = h
                .cells
                .iter()
                .enumerate()
                .map(|(c, t)| crate::layout::text_height(t, grid.inner(c)))
                .collect();
            self.draw_row(h.cells.clone(), &h.fills, &heights, grid, true);
        }
    }

    fn draw_row(
        &mut self,
        cells: Vec<Text>,
        fills: &[Option<Color>],
        heights: &[f64],
        grid: &Grid,
        is_head: bool,
    ) {
        let y = self.start_block();
        let row_h = heights.iter().copied().fold(0.0, f64::max) + 2.0 * CELL_PAD_Y;
        let mut x = grid.x;
        for (c, text) in cells.into_iter().enumerate() {
            let w = grid.widths[c];
            let own_fill = fills.get(c).copied().flatten();
            // A ruled table's cell has its lines and, in the header, a shade; any cell its
            // own background, under its text.
            let fill = own_fill.or((grid.ruled && is_head).then_some(TABLE_HEADER_FILL));
            if grid.ruled || fill.is_some() {
                let id = self.id("n");
                self.push(Shape::Node(Node {
                    shadow: false,
                    id,
                    frame: Rect::new(x, y, w, row_h),
                    geometry: Geometry::Rect,
                    fill,
                    stroke: grid.ruled.then(|| Stroke::solid(TABLE_BORDER, 0.5)),
                    text: None,
                    classes: Vec::new(),
                }));
            }
            if !text.runs.is_empty() {
                let id = self.id("t");
                let frame = Rect::new(x + CELL_PAD_X, y + CELL_PAD_Y, grid.inner(c), heights[c]);
                self.push(Shape::Text(TextBox {
                    id,
                    frame,
                    text,
                    fill: None,
                    stroke: None,
                }));
            }
            x += w;
        }
        self.y = y + row_h;
    }
}

fn row_height(cells: &[Text], grid: &Grid) -> f64 {
    let content = cells
        .iter()
        .enumerate()
        .map(|(c, t)| crate::layout::text_height(t, grid.inner(c)))
        .fold(0.0, f64::max);
    content + 2.0 * CELL_PAD_Y
}

/// Column widths: natural widths when they fit; otherwise every column gets the width of its
/// longest word and the rest is shared in proportion to how much more each would like;
/// when even the longest words do not fit, those widths are scaled down (words then break).
fn column_widths<'t>(
    rows: impl Iterator<Item = &'t Vec<Text>>,
    ncols: usize,
    avail: f64,
) -> Vec<f64> {
    let pad = 2.0 * CELL_PAD_X;
    let mut natural = vec![pad + 6.0; ncols];
    let mut minimum = vec![pad + 6.0; ncols];
    for row in rows {
        for (c, text) in row.iter().enumerate() {
            natural[c] = natural[c].max(natural_width(text) + pad);
            minimum[c] = minimum[c].max(min_content_width(text) + pad);
        }
    }
    let total_natural: f64 = natural.iter().sum();
    if total_natural <= avail {
        return natural;
    }
    let total_min: f64 = minimum.iter().sum();
    if total_min <= avail {
        let want: f64 = total_natural - total_min;
        let spare = avail - total_min;
        return minimum
            .iter()
            .zip(&natural)
            .map(|(&m, &n)| {
                m + if want > 0.0 {
                    spare * (n - m) / want
                } else {
                    0.0
                }
            })
            .collect();
    }
    minimum.iter().map(|&m| m * avail / total_min).collect()
}
