//! Tables: cells placed on a grid of columns as HTML's table model places them (spans
//! included), column widths from the cells' content and the widths the table and its cells
//! ask for, rows split across pages, the header repeated at the top of each page the table
//! continues on.

mod columns;
#[cfg(test)]
mod tests;

use super::engine::{lines_fitting, Ctx, Engine, EPS};
use super::style::*;
use super::{Borders, Cell, Extent, Inline, Insets, CELL_PADDING};
use crate::layout::{layout_text_with_starts, slice_text, text_height, Line, TextPos};
use crate::model::*;

/// The smallest a table's text is set to fit its widest words in the width: a browser
/// shrinks a page whose content overflows it to fit, down to three quarters.
const MOST_SHRUNK: f64 = 0.75;

/// Sets the text of a table whose widest words do not fit in `width` smaller, until they
/// do or it is [`MOST_SHRUNK`]; the cells' padding keeps its size. What is still too wide
/// then runs into the margin (see [`columns::widths`]).
fn shrink_to_fit(rows: &mut [Row], ncols: usize, width: f64) {
    let mut scale = 1.0;
    // The padding does not shrink, so one step falls a little short: a few more close in.
    for _ in 0..4 {
        let narrowest = columns::narrowest(rows, ncols);
        if narrowest <= width + EPS || scale <= MOST_SHRUNK + EPS {
            return;
        }
        let step = (width / narrowest).max(MOST_SHRUNK / scale);
        scale *= step;
        for run in rows
            .iter_mut()
            .flatten()
            .flat_map(|cell| &mut cell.text.runs)
        {
            run.size *= step;
        }
    }
}

/// Columns past this are not made: a cell that would start beyond it adds its text to the
/// cell before it, so a hostile row of thousands of cells costs no more than a wide one.
const MAX_COLUMNS: usize = 64;

/// How a table is drawn as a whole.
pub(super) struct Look {
    pub ruled: bool,
    pub width: Option<Extent>,
    pub frame: Option<Borders>,
}

/// The lines around a table being placed: its left edge and width, and where its part on
/// this page starts (none until a row is drawn there).
pub(super) struct OpenFrame {
    borders: Borders,
    x: f64,
    width: f64,
    top: Option<f64>,
}

/// A cell on the grid, its text ready to lay out.
#[derive(Clone)]
struct Placed {
    col: usize,
    colspan: usize,
    /// Rows covered, counted from the cell's own row, never past the end of its part of the
    /// table (header or body).
    rowspan: usize,
    text: Text,
    fill: Option<Color>,
    pad: Insets,
    valign: VAlign,
    /// The width it asks for its column, for a one-column cell.
    width: Option<Extent>,
    borders: Option<Borders>,
}

impl Placed {
    fn empty(col: usize) -> Placed {
        Placed {
            col,
            colspan: 1,
            rowspan: 1,
            text: Text::default_layout(),
            fill: None,
            pad: CELL_PADDING,
            valign: VAlign::Top,
            width: None,
            borders: None,
        }
    }

    fn pad_x(&self) -> f64 {
        self.pad.left + self.pad.right
    }

    fn pad_y(&self) -> f64 {
        self.pad.top + self.pad.bottom
    }
}

/// The cells starting in one row, left to right.
type Row = Vec<Placed>;

/// The geometry every row of one table shares.
struct Grid {
    x: f64,
    widths: Vec<f64>,
    /// Lines around the cells and a shaded header.
    ruled: bool,
}

impl Grid {
    fn left(&self, cell: &Placed) -> f64 {
        self.x + self.widths[..cell.col].iter().sum::<f64>()
    }

    fn width(&self, cell: &Placed) -> f64 {
        self.widths[cell.col..cell.col + cell.colspan].iter().sum()
    }

    /// The width of a cell's text.
    fn inner(&self, cell: &Placed) -> f64 {
        (self.width(cell) - cell.pad_x()).max(1.0)
    }

    fn text_height(&self, cell: &Placed) -> f64 {
        if cell.text.runs.is_empty() {
            0.0
        } else {
            text_height(&cell.text, self.inner(cell))
        }
    }
}

/// Where one cell of the source goes: its column and spans, and which of its row's cells
/// it shows (more than one when cells past [`MAX_COLUMNS`] were folded into it; none for
/// an empty slot no cell covered).
struct Slot {
    col: usize,
    colspan: usize,
    rowspan: usize,
    cells: Vec<usize>,
}

/// Places the cells of `rows` on the grid: each takes the first column no cell above still
/// covers; a column span stops before a covered column and at [`MAX_COLUMNS`], a row span
/// at the end of the header (for a header cell) or of the table. Slots no cell covers get
/// empty ones. Returns each row's slots, left to right, and the number of columns.
fn place(rows: &[Vec<Cell>], head_rows: usize) -> (Vec<Vec<Slot>>, usize) {
    // Per column, the first row it is free again in.
    let mut busy_until: Vec<usize> = Vec::new();
    let mut placed: Vec<Vec<Slot>> = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let part_end = if r < head_rows { head_rows } else { rows.len() };
        let free = |busy: &[usize], c: usize| busy.get(c).is_none_or(|&until| until <= r);
        let mut slots: Vec<Slot> = Vec::with_capacity(row.len());
        let mut col = 0;
        for (i, cell) in row.iter().enumerate() {
            while col < MAX_COLUMNS && !free(&busy_until, col) {
                col += 1;
            }
            if col >= MAX_COLUMNS {
                if let Some(last) = slots.last_mut() {
                    last.cells.push(i);
                }
                continue;
            }
            let mut colspan = 1;
            while colspan < usize::from(cell.colspan)
                && col + colspan < MAX_COLUMNS
                && free(&busy_until, col + colspan)
            {
                colspan += 1;
            }
            let rowspan = usize::from(cell.rowspan).clamp(1, part_end - r);
            if busy_until.len() < col + colspan {
                busy_until.resize(col + colspan, 0);
            }
            busy_until[col..col + colspan].fill(r + rowspan);
            slots.push(Slot {
                col,
                colspan,
                rowspan,
                cells: vec![i],
            });
            col += colspan;
        }
        placed.push(slots);
    }
    let ncols = busy_until.len();
    let mut busy_until = vec![0; ncols];
    for (r, slots) in placed.iter_mut().enumerate() {
        for slot in slots.iter() {
            busy_until[slot.col..slot.col + slot.colspan].fill(r + slot.rowspan);
        }
        for (col, until) in busy_until.iter_mut().enumerate() {
            if *until <= r {
                *until = r + 1;
                slots.push(Slot {
                    col,
                    colspan: 1,
                    rowspan: 1,
                    cells: Vec::new(),
                });
            }
        }
        slots.sort_by_key(|s| s.col);
    }
    (placed, ncols)
}

/// Runs of rows that cells spanning rows hold together: a row alone when none does.
fn bands(rows: &[Row]) -> Vec<&[Row]> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        let mut r = start;
        while r < end {
            for cell in &rows[r] {
                end = end.max(r + cell.rowspan);
            }
            r += 1;
        }
        let end = end.min(rows.len());
        out.push(&rows[start..end]);
        start = end;
    }
    out
}

/// Each cell's text height, row by row, and each row's height: a row is as tall as its
/// tallest one-row cell, and the last row a taller cell spans grows to hold it.
fn measure(rows: &[Row], grid: &Grid) -> (Vec<Vec<f64>>, Vec<f64>) {
    let texts: Vec<Vec<f64>> = rows
        .iter()
        .map(|row| row.iter().map(|c| grid.text_height(c)).collect())
        .collect();
    let mut heights = vec![0.0f64; rows.len()];
    for (r, row) in rows.iter().enumerate() {
        for (cell, text) in row.iter().zip(&texts[r]) {
            if cell.rowspan.min(rows.len() - r) == 1 {
                heights[r] = heights[r].max(text + cell.pad_y());
            }
        }
    }
    for (r, row) in rows.iter().enumerate() {
        for (cell, text) in row.iter().zip(&texts[r]) {
            let span = cell.rowspan.min(rows.len() - r);
            if span > 1 {
                let have: f64 = heights[r..r + span].iter().sum();
                let need = text + cell.pad_y();
                if need > have {
                    heights[r + span - 1] += need - have;
                }
            }
        }
    }
    (texts, heights)
}

impl Engine<'_> {
    pub(super) fn table(
        &mut self,
        aligns: &[Align],
        rows: &[Vec<Cell>],
        head_rows: usize,
        look: Look,
        ctx: Ctx,
    ) {
        let head_rows = head_rows.min(rows.len());
        let (slots, ncols) = place(rows, head_rows);
        if ncols == 0 {
            return;
        }
        let size = self.setup.body_size * self.setup.table_scale;
        let font = self.setup.body_font;
        let grid_rows: Vec<Row> = slots
            .into_iter()
            .enumerate()
            .map(|(r, row)| {
                row.into_iter()
                    .map(|slot| {
                        let Some(&first) = slot.cells.first() else {
                            return Placed::empty(slot.col);
                        };
                        let cell = &rows[r][first];
                        let folded: Vec<Inline>;
                        let inlines = if slot.cells.len() == 1 {
                            &cell.inlines[..]
                        } else {
                            folded = fold(slot.cells.iter().map(|&i| &rows[r][i].inlines));
                            &folded[..]
                        };
                        let base = Base {
                            font,
                            size,
                            bold: r < head_rows,
                            color: ctx.color,
                        };
                        Placed {
                            col: slot.col,
                            colspan: slot.colspan,
                            rowspan: slot.rowspan,
                            text: Text {
                                runs: runs(inlines, base),
                                // A cell's own alignment (HTML's per-cell `text-align`) over
                                // its column's.
                                align: alignment(inlines)
                                    .or(aligns.get(slot.col).copied())
                                    .unwrap_or_default(),
                                direction: direction(inlines),
                                ..Text::default_layout()
                            },
                            fill: cell.background,
                            pad: cell.padding.map_or(CELL_PADDING, sane_padding),
                            valign: cell.valign,
                            width: cell.width.filter(|_| slot.colspan == 1),
                            borders: cell.borders.map(sane_borders),
                        }
                    })
                    .collect()
            })
            .collect();
        let mut grid_rows = grid_rows;
        shrink_to_fit(&mut grid_rows, ncols, ctx.width);
        let grid = Grid {
            x: ctx.x,
            widths: columns::widths(&grid_rows, ncols, ctx.width, look.width, self.overflow(ctx)),
            ruled: look.ruled,
        };
        let (head, body) = grid_rows.split_at(head_rows);

        self.space(self.para_space());
        // The header goes with the first rows: a header alone at the foot of a page is useless.
        let head_h: f64 = measure(head, &grid).1.iter().sum();
        let body_bands = bands(body);
        let first_h: f64 = body_bands
            .first()
            .map_or(0.0, |b| measure(b, &grid).1.iter().sum());
        self.ensure((head_h + first_h).min(self.content_height()));
        // Repeat the header on continuation pages only when it is small next to a page.
        let repeat = (!head.is_empty() && head_h <= self.content_height() / 3.0).then_some(head);
        self.table_frame = look.frame.map(|borders| OpenFrame {
            borders: sane_borders(borders),
            x: grid.x,
            width: grid.widths.iter().sum(),
            top: None,
        });
        if !head.is_empty() {
            self.band(head, &grid, true, None);
        }
        for band in body_bands {
            self.band(band, &grid, false, repeat);
        }
        self.close_table_frame();
        self.table_frame = None;
        self.space(self.para_space());
    }

    /// How far a table at `ctx` may run past its width when its widest words need it: to
    /// the middle of the page's right margin, so that a word never stands at the paper's
    /// edge.
    fn overflow(&self, ctx: Ctx) -> f64 {
        let right_edge = self.setup.width - self.setup.margin_right / 2.0;
        (right_edge - (ctx.x + ctx.width)).max(0.0)
    }

    /// Draws the lines around the table's part on this page, if it has them.
    pub(super) fn close_table_frame(&mut self) {
        let Some(frame) = &mut self.table_frame else {
            return;
        };
        let Some(top) = frame.top.take() else {
            return;
        };
        let rect = Rect::new(frame.x, top, frame.width, self.y - top);
        let borders = frame.borders;
        for shape in self.border_shapes(rect, &borders) {
            self.push_decoration(shape);
        }
    }

    /// The lines of `borders` around `rect`, each centred on its edge: one outlined box
    /// when the four are alike.
    pub(super) fn border_shapes(&mut self, rect: Rect, borders: &Borders) -> Vec<Shape> {
        let Rect { x, y, w, h } = rect;
        let sides = [borders.top, borders.right, borders.bottom, borders.left];
        if let Some(line) = borders
            .top
            .filter(|_| sides.iter().all(|s| *s == borders.top))
        {
            return vec![Shape::Node(Node {
                shadow: false,
                id: self.id("n"),
                frame: rect,
                geometry: Geometry::Rect,
                fill: None,
                stroke: Some(Stroke::solid(line.color, line.width)),
                text: None,
                classes: Vec::new(),
            })];
        }
        let mut out = Vec::new();
        let lines = [
            borders
                .top
                .map(|l| (Rect::new(x, y - l.width / 2.0, w, l.width), l.color)),
            borders
                .right
                .map(|l| (Rect::new(x + w - l.width / 2.0, y, l.width, h), l.color)),
            borders
                .bottom
                .map(|l| (Rect::new(x, y + h - l.width / 2.0, w, l.width), l.color)),
            borders
                .left
                .map(|l| (Rect::new(x - l.width / 2.0, y, l.width, h), l.color)),
        ];
        for (frame, color) in lines.into_iter().flatten() {
            out.push(Shape::Node(Node {
                shadow: false,
                id: self.id("n"),
                frame,
                geometry: Geometry::Rect,
                fill: Some(color),
                stroke: None,
                text: None,
                classes: Vec::new(),
            }));
        }
        out
    }

    /// Places rows that spanning cells hold together: whole, on this page or the next,
    /// when they fit a page; else row by row, each spanning cell's text in its first row.
    fn band(&mut self, rows: &[Row], grid: &Grid, is_head: bool, head: Option<&[Row]>) {
        if let [row] = rows {
            return self.table_row(row, grid, is_head, head);
        }
        let (texts, heights) = measure(rows, grid);
        let total: f64 = heights.iter().sum();
        let head_h: f64 = head.map_or(0.0, |h| measure(h, grid).1.iter().sum());
        if total <= self.content_height() - head_h + EPS {
            if !self.fresh && total > self.room() + EPS {
                self.continue_table(grid, head);
            }
            self.draw_rows(&slices(rows), &texts, &heights, grid, is_head);
            return;
        }
        // Per column, the first row of the band no earlier cell covers: kept as the rows
        // go, so a long band costs its cells, not rows x cells.
        let mut busy_until = vec![0usize; grid.widths.len()];
        for (r, row) in rows.iter().enumerate() {
            let mut own: Row = row
                .iter()
                .map(|cell| Placed {
                    rowspan: 1,
                    ..cell.clone()
                })
                .collect();
            // The columns cells of earlier rows of the band cover are empty here.
            own.extend(
                busy_until
                    .iter()
                    .enumerate()
                    .filter(|&(_, &until)| until > r)
                    .map(|(c, _)| Placed::empty(c)),
            );
            for cell in row {
                let end = (cell.col + cell.colspan).min(busy_until.len());
                for until in &mut busy_until[cell.col.min(end)..end] {
                    *until = r + cell.rowspan;
                }
            }
            own.sort_by_key(|c| c.col);
            self.table_row(&own, grid, is_head, head);
        }
    }

    /// Places one row, cutting its cells between lines when it does not fit a page. Each
    /// cell is laid out once and the cuts planned over its lines, so a cell of many pages
    /// costs its length, not pages x length.
    fn table_row(&mut self, cells: &[Placed], grid: &Grid, is_head: bool, head: Option<&[Row]>) {
        let head_h: f64 = head.map_or(0.0, |h| measure(h, grid).1.iter().sum());
        let layouts: Vec<(Vec<Line>, Vec<TextPos>)> = cells
            .iter()
            .map(|c| layout_text_with_starts(&c.text, grid.inner(c)))
            .collect();
        let sum = |c: usize, a: usize, b: usize| -> f64 {
            layouts[c].0[a..b].iter().map(|l| l.height).sum()
        };
        let pad_y = cells.iter().map(Placed::pad_y).fold(0.0, f64::max);
        let rest = |pos: &[usize]| -> f64 {
            (0..cells.len())
                .map(|c| sum(c, pos[c], layouts[c].0.len()))
                .fold(0.0, f64::max)
        };
        let page_room = self.content_height() - head_h - pad_y;
        let mut room = self.room() - pad_y;
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
        let row_height = |texts: &[f64], cells: &[Placed]| -> f64 {
            texts
                .iter()
                .zip(cells)
                .map(|(t, c)| t + c.pad_y())
                .fold(0.0, f64::max)
        };
        if let [ranges] = &plan[..] {
            let texts = heights_of(ranges);
            let height = row_height(&texts, cells);
            self.draw_rows(&[cells], &[texts], &[height], grid, is_head);
            return;
        }
        for (n, ranges) in plan.iter().enumerate() {
            if n > 0 {
                self.continue_table(grid, head);
            }
            let mut parts = Vec::with_capacity(cells.len());
            for (c, &(a, b)) in ranges.iter().enumerate() {
                let (lines, starts) = &layouts[c];
                let cell = &cells[c];
                let text = if a == b {
                    Text {
                        runs: Vec::new(),
                        ..cell.text.clone_layout()
                    }
                } else {
                    let end = if b < lines.len() {
                        Some(starts[b])
                    } else {
                        None
                    };
                    slice_text(&cell.text, starts[a], end)
                };
                // A row cut across pages fills them: its parts stand at the top.
                parts.push(Placed {
                    text,
                    valign: VAlign::Top,
                    ..cell.clone()
                });
            }
            let texts = heights_of(ranges);
            let height = row_height(&texts, &parts);
            self.draw_rows(&[&parts], &[texts], &[height], grid, is_head);
        }
    }

    fn continue_table(&mut self, grid: &Grid, head: Option<&[Row]>) {
        self.new_page();
        if let Some(rows) = head {
            let (texts, heights) = measure(rows, grid);
            self.draw_rows(&slices(rows), &texts, &heights, grid, true);
        }
    }

    /// Draws rows of `heights` from the next block's top: each cell's box (its lines and
    /// background) as tall as the rows it spans, its text (`texts` tall) placed in it as
    /// the cell asks.
    fn draw_rows(
        &mut self,
        rows: &[&[Placed]],
        texts: &[Vec<f64>],
        heights: &[f64],
        grid: &Grid,
        is_head: bool,
    ) {
        let top = self.start_block();
        if let Some(frame) = &mut self.table_frame {
            frame.top.get_or_insert(top);
        }
        let mut y = top;
        // A cell's own lines go over every cell's background, so a neighbour's fill does
        // not cover the half of a line on its side.
        let mut lines: Vec<(Rect, Borders)> = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (cell, &text_h) in row.iter().zip(&texts[r]) {
                let span = cell.rowspan.clamp(1, rows.len() - r);
                let h: f64 = heights[r..r + span].iter().sum();
                let (x, w) = (grid.left(cell), grid.width(cell));
                // A ruled table's cell has its lines and, in the header, a shade; any cell
                // its own background, under its text, and its own lines over them.
                let fill = cell
                    .fill
                    .or((grid.ruled && is_head).then_some(TABLE_HEADER_FILL));
                let grid_line = grid.ruled && cell.borders.is_none();
                if grid_line || fill.is_some() {
                    let id = self.id("n");
                    self.push(Shape::Node(Node {
                        shadow: false,
                        id,
                        frame: Rect::new(x, y, w, h),
                        geometry: Geometry::Rect,
                        fill,
                        stroke: grid_line.then(|| Stroke::solid(TABLE_BORDER, 0.5)),
                        text: None,
                        classes: Vec::new(),
                    }));
                }
                if let Some(borders) = cell.borders {
                    lines.push((Rect::new(x, y, w, h), borders));
                }
                if !cell.text.runs.is_empty() {
                    let free = (h - cell.pad_y() - text_h).max(0.0);
                    let shift = match cell.valign {
                        VAlign::Top => 0.0,
                        VAlign::Middle => free / 2.0,
                        VAlign::Bottom => free,
                    };
                    let id = self.id("t");
                    let frame = Rect::new(
                        x + cell.pad.left,
                        y + cell.pad.top + shift,
                        grid.inner(cell),
                        text_h,
                    );
                    self.push(Shape::Text(TextBox {
                        id,
                        frame,
                        text: cell.text.clone(),
                        fill: None,
                        stroke: None,
                    }));
                }
            }
            y += heights[r];
        }
        for (rect, borders) in lines {
            for shape in self.border_shapes(rect, &borders) {
                self.push(shape);
            }
        }
        self.y = y;
    }
}

fn slices(rows: &[Row]) -> Vec<&[Placed]> {
    rows.iter().map(Vec::as_slice).collect()
}

/// The inlines of several cells as one cell's, a space between each two.
fn fold<'i>(cells: impl Iterator<Item = &'i Vec<Inline>>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::new();
    for inlines in cells {
        if !inlines.is_empty() && !out.is_empty() {
            out.push(Inline::plain(" "));
        }
        out.extend(inlines.iter().cloned());
    }
    out
}

/// Lines a page can hold: each finite, from a hair to 20 points; a side of no width has
/// none.
fn sane_borders(borders: Borders) -> Borders {
    let side = |line: Option<super::Border>| {
        line.filter(|l| l.width.is_finite() && l.width > 0.0)
            .map(|l| super::Border {
                width: l.width.clamp(0.1, 20.0),
                ..l
            })
    };
    Borders {
        top: side(borders.top),
        right: side(borders.right),
        bottom: side(borders.bottom),
        left: side(borders.left),
    }
}

/// Padding a page can hold: each side finite, from 0 to a sixth of a page's width.
fn sane_padding(pad: Insets) -> Insets {
    let side = |v: f64| {
        if v.is_finite() {
            v.clamp(0.0, 100.0)
        } else {
            0.0
        }
    };
    Insets {
        top: side(pad.top),
        right: side(pad.right),
        bottom: side(pad.bottom),
        left: side(pad.left),
    }
}
