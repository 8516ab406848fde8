//! The page cursor and the placement of each kind of block.

use std::collections::HashMap;

use super::style::*;
use super::{slug, Block, Drawing, ImageSource, Inline, PageSetup, MAX_DEPTH};
use crate::layout::{layout_text, layout_text_with_starts, slice_text, text_height, Line};
use crate::metrics::FontFace;
use crate::model::*;
use crate::placement::{adopt, Placement};

/// Slack for comparisons of summed line heights against the room left.
pub(super) const EPS: f64 = 1e-6;

/// Where blocks are being placed: the column, and what nesting they inherit.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ctx {
    pub x: f64,
    pub width: f64,
    /// Lists and quotes around this point.
    pub depth: usize,
    pub list_depth: usize,
    pub color: Option<Color>,
    /// Inside an item of a tight list: paragraphs sit closer.
    pub tight: bool,
}

/// A quote whose bar is still being drawn: it is cut at each page break.
struct OpenQuote {
    x: f64,
    start: f64,
}

pub(super) struct Engine<'a> {
    pub(super) setup: &'a PageSetup,
    pages: Vec<Page>,
    shapes: Vec<Shape>,
    /// Bottom of what was placed last on this page.
    pub(super) y: f64,
    /// Space owed before the next block; collapsed (largest wins) and dropped at a page top.
    pending: f64,
    /// Nothing placed on this page yet.
    pub(super) fresh: bool,
    /// Just placed a list marker: the item's first block must start level with it.
    item_start: bool,
    next_id: u64,
    pub(super) warnings: Vec<String>,
    quotes: Vec<OpenQuote>,
    /// Heading anchors and the 1-based page each starts on.
    anchors: HashMap<String, usize>,
    /// The lines around the table being placed, drawn around its part on each page.
    pub(super) table_frame: Option<super::table::OpenFrame>,
    /// The boxes being filled, outermost first.
    pub(super) boxes: Vec<super::boxes::OpenBox>,
}

impl<'a> Engine<'a> {
    pub(super) fn new(setup: &'a PageSetup) -> Self {
        Engine {
            setup,
            pages: Vec::new(),
            shapes: Vec::new(),
            y: setup.margin_top,
            pending: 0.0,
            fresh: true,
            item_start: false,
            next_id: 0,
            warnings: Vec::new(),
            quotes: Vec::new(),
            anchors: HashMap::new(),
            table_frame: None,
            boxes: Vec::new(),
        }
    }

    pub(super) fn run(&mut self, blocks: &[Block]) {
        let ctx = Ctx {
            x: self.setup.margin_left,
            width: self.setup.width - self.setup.margin_left - self.setup.margin_right,
            depth: 0,
            list_depth: 0,
            color: None,
            tight: false,
        };
        self.blocks(blocks, ctx);
    }

    pub(super) fn finish(mut self) -> (Vec<Page>, Vec<String>) {
        if !self.shapes.is_empty() || self.pages.is_empty() {
            self.new_page();
        }
        super::margins::draw(&mut self.pages, self.setup);
        let mut pages = self.pages;
        resolve_anchors(&mut pages, &self.anchors);
        (pages, self.warnings)
    }

    // --- the cursor -----------------------------------------------------------------------

    pub(super) fn top(&self) -> f64 {
        self.setup.margin_top
    }

    pub(super) fn bottom(&self) -> f64 {
        self.setup.height - self.setup.margin_bottom
    }

    pub(super) fn content_height(&self) -> f64 {
        self.bottom() - self.top()
    }

    pub(super) fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    /// Asks for at least `s` points before the next block.
    pub(super) fn space(&mut self, s: f64) {
        if !self.item_start {
            self.pending = self.pending.max(s);
        }
    }

    fn next_y(&self) -> f64 {
        if self.fresh {
            self.y
        } else {
            self.y + self.pending
        }
    }

    /// Height left on this page for the next block.
    pub(super) fn room(&self) -> f64 {
        self.bottom() - self.next_y()
    }

    /// Moves to a new page unless `h` points fit here (or this page is still empty).
    pub(super) fn ensure(&mut self, h: f64) {
        if !self.fresh && h > self.room() + EPS {
            self.new_page();
        }
    }

    /// Commits the owed space and returns where the next block starts.
    pub(super) fn start_block(&mut self) -> f64 {
        self.y = self.next_y();
        self.pending = 0.0;
        self.y
    }

    pub(super) fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
        self.fresh = false;
        self.item_start = false;
    }

    /// Adds a shape that is not content (a frame's line): the page stays as fresh as it was.
    pub(super) fn push_decoration(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    /// Puts a shape under those placed on this page from `index` on (a box's background).
    pub(super) fn insert_under(&mut self, index: usize, shape: Shape) {
        let index = index.min(self.shapes.len());
        self.shapes.insert(index, shape);
    }

    /// How many shapes this page holds so far.
    pub(super) fn placed(&self) -> usize {
        self.shapes.len()
    }

    pub(super) fn new_page(&mut self) {
        self.close_quote_bars();
        self.close_table_frame();
        self.cut_boxes();
        let mut page = Page::new(self.setup.width, self.setup.height);
        page.background = match self.pages.is_empty() {
            true => self.setup.first_page.sheet_color.or(self.setup.sheet_color),
            false => self.setup.sheet_color,
        };
        page.shapes = std::mem::take(&mut self.shapes);
        if let Some(fill) = self.setup.background {
            // A printed page's background covers its area inside the margins, as
            // Chromium prints a page's.
            let s = self.setup;
            let frame = Rect::new(
                s.margin_left,
                s.margin_top,
                s.width - s.margin_left - s.margin_right,
                s.height - s.margin_top - s.margin_bottom,
            );
            let id = self.id("n");
            page.shapes.insert(
                0,
                Shape::Node(Node {
                    shadow: false,
                    id,
                    frame,
                    geometry: Geometry::Rect,
                    fill: Some(fill),
                    stroke: None,
                    text: None,
                    classes: Vec::new(),
                }),
            );
        }
        self.pages.push(page);
        self.y = self.top();
        self.pending = 0.0;
        self.fresh = true;
        let top = self.top();
        for q in &mut self.quotes {
            q.start = top;
        }
    }

    fn close_quote_bars(&mut self) {
        let bars: Vec<(f64, f64)> = self.quotes.iter().map(|q| (q.x, q.start)).collect();
        for (x, start) in bars {
            self.quote_bar(x, start, self.y);
        }
    }

    fn quote_bar(&mut self, x: f64, from: f64, to: f64) {
        if to - from > EPS {
            let id = self.id("n");
            self.shapes.push(Shape::Node(Node {
                shadow: false,
                id,
                frame: Rect::new(x, from, QUOTE_BAR_WIDTH, to - from),
                geometry: Geometry::Rect,
                fill: Some(QUOTE_BAR),
                stroke: None,
                text: None,
                classes: Vec::new(),
            }));
        }
    }

    pub(super) fn para_space(&self) -> f64 {
        self.setup.body_size * 0.6
    }

    fn body_line(&self) -> f64 {
        self.setup.body_size * BODY_LINE_HEIGHT
    }

    pub(super) fn body_text(&self, inlines: &[Inline], ctx: Ctx) -> Text {
        let base = Base {
            font: self.setup.body_font,
            size: self.setup.body_size,
            bold: false,
            color: ctx.color,
        };
        Text {
            runs: runs(inlines, base),
            line_height: BODY_LINE_HEIGHT,
            direction: direction(inlines),
            align: alignment(inlines).unwrap_or_default(),
            ..Text::default_layout()
        }
    }

    /// Indentation for one more level of nesting, or none once nesting is too deep or the
    /// column too narrow to give any away.
    fn indent(&self, ctx: Ctx, wanted: f64) -> f64 {
        if ctx.depth >= MAX_DEPTH || ctx.width - wanted < 72.0 {
            0.0
        } else {
            wanted
        }
    }

    // --- text -----------------------------------------------------------------------------

    /// Places `text` in a column at `x`, `w` wide, cutting it between lines at page bottoms.
    /// `pad` is inner padding and `background` a fill behind each page's part (code blocks).
    pub(super) fn place_text(
        &mut self,
        text: Text,
        x: f64,
        w: f64,
        pad: f64,
        background: Option<Color>,
    ) {
        let inner = (w - 2.0 * pad).max(1.0);
        // One layout, then the page cuts are planned over its lines: re-laying out the rest
        // after each page would make a paragraph of many pages cost pages x length.
        let (lines, starts) = layout_text_with_starts(&text, inner);
        if lines.is_empty() {
            return;
        }
        let full_page = self.content_height() - 2.0 * pad;
        let mut move_first = false;
        let mut room = self.room() - 2.0 * pad;
        let mut fresh = self.fresh;
        // Line ranges, one per page.
        let mut parts: Vec<(usize, usize)> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let k = lines_fitting(&lines[i..], room);
            if i + k >= lines.len() {
                parts.push((i, lines.len()));
                break;
            }
            // A lone first line at the foot of a page reads badly: start on the next page.
            if !fresh && (k == 0 || (k == 1 && lines.len() - i > 1)) {
                move_first = true;
            } else {
                // On an empty page a line taller than the page still has to go somewhere.
                let k = k.max(1);
                parts.push((i, i + k));
                i += k;
            }
            room = full_page;
            fresh = true;
        }
        if move_first {
            self.new_page();
        }
        if let [(a, b)] = parts[..] {
            let h = lines[a..b].iter().map(|l| l.height).sum();
            self.put_text(text, x, w, h, pad, background);
            return;
        }
        for (n, &(a, b)) in parts.iter().enumerate() {
            if n > 0 {
                self.new_page();
            }
            let h = lines[a..b].iter().map(|l| l.height).sum();
            let part = slice_text(&text, starts[a], starts.get(b).copied());
            self.put_text(part, x, w, h, pad, background);
        }
    }

    fn put_text(&mut self, text: Text, x: f64, w: f64, h: f64, pad: f64, bg: Option<Color>) {
        let y = self.start_block();
        if let Some(fill) = bg {
            let id = self.id("n");
            self.push(Shape::Node(Node {
                shadow: false,
                id,
                frame: Rect::new(x, y, w, h + 2.0 * pad),
                geometry: Geometry::Rect,
                fill: Some(fill),
                stroke: None,
                text: None,
                classes: Vec::new(),
            }));
        }
        let id = self.id("t");
        let frame = Rect::new(x + pad, y + pad, (w - 2.0 * pad).max(1.0), h);
        self.push(Shape::Text(TextBox {
            id,
            frame,
            text,
            fill: None,
            stroke: None,
        }));
        self.y = y + h + 2.0 * pad;
    }

    // --- blocks ---------------------------------------------------------------------------

    pub(super) fn blocks(&mut self, blocks: &[Block], ctx: Ctx) {
        for (i, block) in blocks.iter().enumerate() {
            self.block(block, blocks.get(i + 1), ctx);
        }
    }

    fn block(&mut self, block: &Block, next: Option<&Block>, ctx: Ctx) {
        match block {
            Block::Heading { level, inlines } => self.heading(*level, inlines, next, ctx),
            Block::Paragraph(inlines) => self.paragraph(inlines, ctx),
            Block::List {
                ordered,
                start,
                items,
                tight,
            } => self.list(*ordered, *start, items, *tight, ctx),
            Block::Quote(blocks) => self.quote(blocks, ctx),
            Block::Boxed { blocks, look } => self.boxed(blocks, look, ctx),
            Block::Code { text } => self.code(text, ctx),
            Block::Rule => self.rule(ctx),
            Block::Table {
                aligns,
                rows,
                head_rows,
                ruled,
                width,
                frame,
            } => {
                let look = super::table::Look {
                    ruled: *ruled,
                    width: *width,
                    frame: *frame,
                };
                self.table(aligns, rows, *head_rows, look, ctx)
            }
            Block::Image {
                source,
                width,
                height,
                alt,
                link,
                align,
            } => self.image(source, (*width, *height), *align, alt, link.as_deref(), ctx),
            Block::PageBreak => {
                if !self.fresh {
                    self.new_page();
                }
            }
        }
    }

    fn paragraph(&mut self, inlines: &[Inline], ctx: Ctx) {
        if !has_text(inlines) {
            return;
        }
        let text = self.body_text(inlines, ctx);
        self.place_text(text, ctx.x, ctx.width, 0.0, None);
        self.space(if ctx.tight { 2.0 } else { self.para_space() });
    }

    fn heading_text(&self, level: u8, inlines: &[Inline], ctx: Ctx) -> (Text, f64) {
        let size = HEADING_SIZES[usize::from(level.clamp(1, 6)) - 1];
        let base = Base {
            font: self.setup.heading_font,
            size,
            bold: true,
            color: ctx.color,
        };
        (
            Text {
                runs: runs(inlines, base),
                direction: direction(inlines),
                align: alignment(inlines).unwrap_or_default(),
                ..Text::default_layout()
            },
            size,
        )
    }

    fn heading(&mut self, level: u8, inlines: &[Inline], next: Option<&Block>, ctx: Ctx) {
        if !has_text(inlines) {
            return;
        }
        let (text, size) = self.heading_text(level, inlines, ctx);
        self.space(size * HEADING_SPACE_BEFORE);
        let h = text_height(&text, ctx.width);
        let after = size * HEADING_SPACE_AFTER;
        // Keep the heading with the start of what follows, when both fit on a page at all.
        let with_next = h + after + next.map_or(0.0, |b| self.first_chunk(b, ctx));
        self.ensure(if with_next <= self.content_height() {
            with_next
        } else {
            h
        });
        let mut text = text;
        if level == 0 {
            text.align = Align::Center;
        } else {
            let mut anchor = slug(&text.plain_text());
            if self.anchors.contains_key(&anchor) {
                let base = anchor.clone();
                let mut n = 1;
                while self.anchors.contains_key(&anchor) {
                    anchor = format!("{base}-{n}");
                    n += 1;
                }
            }
            self.anchors.insert(anchor, self.pages.len() + 1);
        }
        self.place_text(text, ctx.x, ctx.width, 0.0, None);
        self.space(after);
    }

    /// Height of the smallest piece `block` can start with: what must fit below a heading
    /// or beside a list marker for them not to be left alone at the foot of a page.
    pub(super) fn first_chunk(&self, block: &Block, ctx: Ctx) -> f64 {
        match block {
            Block::Paragraph(inlines) => opening_lines(&self.body_text(inlines, ctx), ctx.width),
            Block::Heading { level, inlines } => {
                let (text, size) = self.heading_text(*level, inlines, ctx);
                text_height(&text, ctx.width) + size * HEADING_SPACE_AFTER
            }
            Block::Code { .. } => CODE_SIZE * CODE_LINE_HEIGHT + 2.0 * CODE_PAD,
            Block::List { items, .. } => {
                let inner = Ctx {
                    x: ctx.x + LIST_INDENT,
                    width: ctx.width - LIST_INDENT,
                    ..ctx
                };
                match items.first().and_then(|item| item.first()) {
                    Some(b) => self.first_chunk(b, inner),
                    None => self.body_line(),
                }
            }
            Block::Quote(blocks) => blocks.first().map_or(0.0, |b| self.first_chunk(b, ctx)),
            Block::Boxed { blocks, look } => {
                let (inner, above) = self.box_inside(look, ctx);
                above + blocks.first().map_or(0.0, |b| self.first_chunk(b, inner))
            }
            Block::Table { .. } => {
                2.0 * (self.setup.body_size * self.setup.table_scale * 1.2 + 2.0 * CELL_PAD_Y)
            }
            Block::Image { width, height, .. } => self.image_size(*width, *height, ctx.width).1,
            Block::Rule => 1.0,
            Block::PageBreak => 0.0,
        }
    }

    fn list(&mut self, ordered: bool, start: u64, items: &[Vec<Block>], tight: bool, ctx: Ctx) {
        let body = Base {
            font: self.setup.body_font,
            size: self.setup.body_size,
            bold: false,
            color: ctx.color,
        };
        let face = FontFace::new(body.font, false, false);
        // Numbers take the room their widest marker needs; bullets one indent.
        let last = start.saturating_add(items.len().saturating_sub(1) as u64);
        let wanted = if ordered {
            let widest = face.text_width(&format!("{last}."), body.size) + MARKER_GAP;
            widest.max(LIST_INDENT)
        } else {
            LIST_INDENT
        };
        let indent = self.indent(ctx, wanted);
        // A right-to-left list is indented from the right, its markers to the right of it.
        let rtl = items.first().is_some_and(|item| reads_right_to_left(item));
        let inner = Ctx {
            x: if rtl { ctx.x } else { ctx.x + indent },
            width: ctx.width - indent,
            depth: ctx.depth + 1,
            list_depth: ctx.list_depth + 1,
            tight,
            ..ctx
        };
        let gap = if ctx.tight { 2.0 } else { self.para_space() };
        self.space(gap);
        for (n, item) in items.iter().enumerate() {
            // In a right-to-left list `3.` reads `.3`, as browsers show it (the number keeps
            // its own order, the full stop follows it leftwards).
            let marker = if ordered && rtl {
                format!(".{}", start.saturating_add(n as u64))
            } else if ordered {
                format!("{}.", start.saturating_add(n as u64))
            } else {
                bullet(ctx.list_depth).to_string()
            };
            let first = item
                .first()
                .map_or(self.body_line(), |b| self.first_chunk(b, inner));
            self.ensure(first.min(self.content_height()));
            let y0 = self.start_block();
            let page = self.pages.len();
            // Either way the marker hugs the item's text.
            let marker_text = Text {
                runs: runs(&[Inline::plain(marker)], body),
                align: if rtl { Align::Left } else { Align::Right },
                line_height: BODY_LINE_HEIGHT,
                ..Text::default_layout()
            };
            let marker_h = text_height(&marker_text, f64::INFINITY);
            if indent > MARKER_GAP {
                let id = self.id("t");
                let marker_x = if rtl {
                    ctx.x + ctx.width - indent + MARKER_GAP
                } else {
                    ctx.x
                };
                let frame = Rect::new(marker_x, y0, indent - MARKER_GAP, marker_h);
                self.push(Shape::Text(TextBox {
                    id,
                    frame,
                    text: marker_text,
                    fill: None,
                    stroke: None,
                }));
                self.item_start = true;
            }
            self.blocks(item, inner);
            self.item_start = false;
            // An empty item still takes the line its marker stands on.
            if self.pages.len() == page && self.y < y0 + marker_h {
                self.y = y0 + marker_h;
            }
            self.space(if tight { 2.0 } else { self.para_space() });
        }
        self.space(gap);
    }

    fn quote(&mut self, blocks: &[Block], ctx: Ctx) {
        let indent = self.indent(ctx, QUOTE_INDENT);
        // A right-to-left quote is indented from the right, its bar on the right edge.
        let rtl = reads_right_to_left(blocks);
        let inner = Ctx {
            x: if rtl { ctx.x } else { ctx.x + indent },
            width: ctx.width - indent,
            depth: ctx.depth + 1,
            color: Some(QUOTE_TEXT),
            ..ctx
        };
        self.space(self.para_space());
        if let Some(first) = blocks.first() {
            self.ensure(self.first_chunk(first, inner).min(self.content_height()));
        }
        let y0 = self.start_block();
        self.quotes.push(OpenQuote {
            x: if rtl {
                ctx.x + ctx.width - QUOTE_BAR_WIDTH
            } else {
                ctx.x
            },
            start: y0,
        });
        self.blocks(blocks, inner);
        if let Some(q) = self.quotes.pop() {
            self.quote_bar(q.x, q.start, self.y);
        }
        self.space(self.para_space());
    }

    fn code(&mut self, text: &str, ctx: Ctx) {
        let text = expand_tabs(text.strip_suffix('\n').unwrap_or(text));
        let text = text.strip_suffix('\r').unwrap_or(&text).to_string();
        // An empty fence still shows as an (empty) code box one line high.
        let text = if text.is_empty() {
            " ".to_string()
        } else {
            text
        };
        let run = Run {
            font: FontFamily::Courier,
            color: ctx.color,
            ..Run::plain(text, CODE_SIZE)
        };
        let text = Text {
            runs: vec![run],
            line_height: CODE_LINE_HEIGHT,
            ..Text::default_layout()
        };
        self.space(self.para_space());
        self.place_text(text, ctx.x, ctx.width, CODE_PAD, self.setup.code_background);
        self.space(self.para_space());
    }

    fn rule(&mut self, ctx: Ctx) {
        self.space(self.para_space());
        self.ensure(1.0);
        let y = self.start_block() + 0.5;
        let id = self.id("p");
        self.push(Shape::Path(PathShape {
            shadow: false,
            id,
            segments: vec![
                Segment::MoveTo { x: ctx.x, y },
                Segment::LineTo {
                    x: ctx.x + ctx.width,
                    y,
                },
            ],
            fill: None,
            stroke: Some(Stroke::solid(RULE_COLOR, 0.75)),
            even_odd: false,
        }));
        self.y = y + 0.5;
        self.space(self.para_space());
    }

    /// Size in points of a picture `w_px` x `h_px` pixels: 96 dpi, scaled down to fit the
    /// column width and the page height, aspect ratio kept.
    fn image_size(&self, w_px: u32, h_px: u32, max_w: f64) -> (f64, f64) {
        if w_px == 0 || h_px == 0 {
            return (0.0, 0.0);
        }
        let (w, h) = (f64::from(w_px) * 0.75, f64::from(h_px) * 0.75);
        let scale = (max_w / w).min(self.content_height() / h).min(1.0);
        (w * scale, h * scale)
    }

    fn image(
        &mut self,
        source: &ImageSource,
        (w_px, h_px): (u32, u32),
        align: Align,
        alt: &str,
        link: Option<&str>,
        ctx: Ctx,
    ) {
        let (w, h) = self.image_size(w_px, h_px, ctx.width);
        if w <= 0.0 || h <= 0.0 {
            self.warnings.push(format!(
                "image `{}` has no size ({w_px} x {h_px} pixels); its alt text stands in",
                source.name()
            ));
            let alt = Inline {
                italic: true,
                link: link.map(str::to_string),
                ..Inline::plain(alt)
            };
            self.paragraph(&[alt], ctx);
            return;
        }
        self.space(self.para_space());
        self.ensure(h);
        let y = self.start_block();
        let id = self.id("i");
        let x = match align {
            Align::Center => ctx.x + (ctx.width - w) / 2.0,
            Align::Right => ctx.x + ctx.width - w,
            Align::Left | Align::Justify => ctx.x,
        };
        let frame = Rect::new(x, y, w, h);
        let alt = Some(alt.to_string()).filter(|a| !a.is_empty());
        let shape = match source {
            ImageSource::Asset(asset) => Shape::Image(Image {
                id,
                frame,
                asset: asset.clone(),
                alt,
                link: link.map(str::to_string),
            }),
            ImageSource::Drawing(drawing) => self.drawing(drawing, id, frame, link),
        };
        self.push(shape);
        self.y = y + h;
        self.space(self.para_space());
    }

    /// A drawing fitted into `frame` as one group whose members' ids start with the
    /// group's, so two copies of one picture on a page stay apart.
    fn drawing(&mut self, drawing: &Drawing, id: String, frame: Rect, link: Option<&str>) -> Shape {
        let mut children = drawing.shapes.clone();
        if let Some(place) = Placement::fit(drawing.width, drawing.height, frame) {
            place.shapes(&mut children);
        }
        adopt(&mut children, |old| format!("{id}.{old}"), |_| None);
        if link.is_some() {
            self.warnings.push(format!(
                "the link of picture `{}` was left out: a drawing placed as a picture is not a link",
                drawing.name
            ));
        }
        Shape::Group(Group::new(id, frame, children))
    }
}

/// How many of `lines`, from the first, fit in `room` points.
pub(super) fn lines_fitting(lines: &[Line], room: f64) -> usize {
    let mut used = 0.0;
    for (k, line) in lines.iter().enumerate() {
        used += line.height;
        if used > room + EPS {
            return k;
        }
    }
    lines.len()
}

/// The height of the lines a paragraph must start a page's foot with: one line when it has
/// only one, else two, since [`Engine::place_text`] never leaves a lone first line there.
fn opening_lines(text: &Text, width: f64) -> f64 {
    layout_text(text, width)
        .iter()
        .take(2)
        .map(|l| l.height)
        .sum()
}

/// Turns `#anchor` links to headings into `#page=N`, the form exporters understand.
fn resolve_anchors(pages: &mut [Page], anchors: &HashMap<String, usize>) {
    if anchors.is_empty() {
        return;
    }
    for page in pages {
        for shape in &mut page.shapes {
            if let Shape::Text(t) = shape {
                for run in &mut t.text.runs {
                    let Some(link) = &run.link else { continue };
                    let Some(anchor) = link.strip_prefix('#') else {
                        continue;
                    };
                    if let Some(page) = anchors.get(anchor) {
                        run.link = Some(format!("#page={page}"));
                    }
                }
            }
        }
    }
}
