//! Block-level flow layout shared by the Markdown and HTML importers.
//!
//! An importer turns its syntax tree into a small IR of [`Block`]s holding styled [`Inline`]s,
//! and [`layout`] pours it onto pages as model shapes: one [`TextBox`](crate::TextBox) per
//! paragraph (or per page-part of one), images, and nodes/paths for rules, table borders,
//! quote bars and code backgrounds. Text boxes are wrapped with [`crate::layout`], so every
//! box is exactly as tall as the text the exporters will draw in it.
//!
//! Typography, chosen once here so every importer looks the same:
//! - body text in Times-Roman 11 pt (configurable in [`PageSetup`]): a serif body against
//!   sans-serif headings is the classic printed-document contrast, and Times sets more words
//!   per line than Helvetica at the same size;
//! - headings bold, 24/18/14/12/11/10 pt for levels 1 to 6, in Helvetica (configurable:
//!   HTML sets them in the text's family, as browsers do);
//! - code blocks in Courier 9.5 pt on a light grey background (configurable), inline code
//!   in Courier;
//! - links blue and underlined, with [`Run::link`](crate::Run) set so exporters make them
//!   clickable; `#anchor` links to a heading become `#page=N`;
//! - an inline's own family and language go to its run; a paragraph, heading or table cell
//!   takes the direction of its first inline that has one, and a right-to-left one is set
//!   flush right (list markers and quote bars stay on the left);
//! - A4 pages with 56.7 pt (2 cm) margins by default.
//!
//! Paragraphs, code blocks and table rows that run past the bottom of a page are split
//! between two lines; headings move to the next page with the start of what follows them.
//!
//! The IR is a tree: producers must bound its depth (the importers stop nesting at
//! [`MAX_DEPTH`]), since layout recurses over it.

mod boxes;
mod engine;
mod margins;
mod style;
mod table;

pub use crate::model::Insets;
use crate::model::{Align, Color, Direction, FontFamily, Page, Shape, VAlign};

/// How deep importers nest lists and quotes before flattening; deeper levels are laid out at
/// this depth. Layout also stops indenting here, so text keeps a usable width.
pub const MAX_DEPTH: usize = 32;

/// A run of text with one inline style.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inline {
    /// The text; `\n` is a hard line break.
    pub text: String,
    pub bold: bool,
    pub italic: bool,
    /// Inline code, set in Courier.
    pub code: bool,
    pub strike: bool,
    /// Whether the text is underlined; `None` is the default: a link is, other text is
    /// not (HTML's `<u>`, `text-decoration`).
    pub underline: Option<bool>,
    /// Link target: a URL, or `#anchor` for a heading of the same document.
    pub link: Option<String>,
    /// The family the source asked for (HTML `font-family`, `<font face>`), instead of the
    /// block's; inline code stays in Courier.
    pub font: Option<FontFamily>,
    /// The language of the text when it is not the document's ([`Run::lang`](crate::Run)).
    pub lang: Option<String>,
    /// The alignment of the block the text is in (HTML's `text-align`, `align`, `<center>`):
    /// as with `dir`, the first inline of a paragraph or heading that has one sets its
    /// [`Text::align`](crate::Text).
    pub align: Option<Align>,
    /// The colour the source asked for (HTML's `color`), instead of the block's; on a link,
    /// the link's own colour (set on the link or inside it), without which it is link
    /// blue.
    pub color: Option<Color>,
    /// The base direction of the block the text is in (HTML `dir`): the first inline of a
    /// paragraph, heading or table cell that has one sets its [`Text::direction`](crate::Text).
    pub dir: Option<Direction>,
    /// The size the source asked for (HTML's `font-size`), instead of the block's.
    pub size: Option<FontSize>,
}

/// A font size a source asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FontSize {
    /// So many points, whatever the block.
    Points(f64),
    /// A multiple of the size the block would set the text in (`1.2em`, `80%`, `smaller`).
    Scale(f64),
}

impl FontSize {
    /// Smallest and largest sizes a source gets: below a point text is a line, and the
    /// model refuses sizes past [`MAX_FONT_SIZE`](crate::validate::MAX_FONT_SIZE).
    const RANGE: (f64, f64) = (1.0, 400.0);

    /// The size in points of text whose block would set it at `base`.
    pub fn of(self, base: f64) -> f64 {
        let size = match self {
            FontSize::Points(p) => p,
            FontSize::Scale(s) => base * s,
        };
        if size.is_finite() {
            size.clamp(Self::RANGE.0, Self::RANGE.1)
        } else {
            base
        }
    }

    /// This size inside an element whose text is `outer` (sizes nest as CSS's do: a scale
    /// of a scale multiplies, a scale of points is points).
    pub fn within(self, outer: Option<FontSize>) -> FontSize {
        match (self, outer) {
            (FontSize::Scale(s), Some(FontSize::Points(p))) => FontSize::Points(p * s),
            (FontSize::Scale(s), Some(FontSize::Scale(t))) => FontSize::Scale(s * t),
            (own, _) => own,
        }
    }
}

impl Inline {
    pub fn plain(text: impl Into<String>) -> Self {
        Inline {
            text: text.into(),
            ..Inline::default()
        }
    }
}

/// One block of the flow.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Level 1 to 6 (others are clamped), or 0 for the document's title (pandoc's title
    /// block): set as level 1, centred, with no link anchor, so a body heading of the same
    /// text keeps the anchor `#its-slug`.
    Heading {
        level: u8,
        inlines: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    /// Each item is a list of blocks. `start` numbers the first item of an ordered list.
    /// Tight lists (no blank lines between items in Markdown) are set closer together.
    List {
        ordered: bool,
        start: u64,
        items: Vec<Vec<Block>>,
        tight: bool,
    },
    Quote(Vec<Block>),
    /// Blocks in a box of their own (HTML's `<div>` with a background, border, padding or
    /// width): filled under them and framed, on each page it runs over.
    Boxed {
        blocks: Vec<Block>,
        look: BoxLook,
    },
    /// Preformatted text, kept line for line (long lines wrap).
    Code {
        text: String,
    },
    /// A horizontal rule.
    Rule,
    /// `aligns` per column (missing ones are left). Each cell of a row takes the first
    /// column no cell above still covers, as in HTML's table model; slots no cell covers get
    /// empty cells. The first `head_rows` rows are the header: bold, repeated at the top of
    /// each page the table continues on. A `ruled` table has lines around its cells and a
    /// shaded header (Markdown's tables, HTML's `border` tables); without, its cells stand on
    /// the page as text, as a browser shows a layout table. `width` is the table's (HTML's
    /// `width`); without one it is as wide as its content, at most the text width.
    Table {
        aligns: Vec<Align>,
        rows: Vec<Vec<Cell>>,
        head_rows: usize,
        ruled: bool,
        width: Option<Extent>,
        /// Lines around the whole table (HTML's `border` on `<table>` in a style sheet),
        /// drawn around its part on each page.
        frame: Option<Borders>,
    },
    /// A picture, with the size of its box in pixels (the caller reads it from the file or
    /// the document); it is set at 96 dpi and scaled down to fit the text width.
    Image {
        source: ImageSource,
        width: u32,
        height: u32,
        alt: String,
        link: Option<String>,
        /// Where it stands across the column (HTML's `align`, `text-align` of the block
        /// it is in, `<center>`); justified is left.
        align: Align,
    },
    /// Start a new page (ignored at the top of an empty page).
    PageBreak,
}

/// One cell of a [`Block::Table`].
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub inlines: Vec<Inline>,
    /// The columns and rows it covers, at least 1 (HTML's `colspan`, `rowspan`); a span
    /// stops at the table's edge and at a column a cell above still covers.
    pub colspan: u16,
    pub rowspan: u16,
    /// The width it asks for its column, padding not included (HTML's `width`); a cell of
    /// several columns asks for none.
    pub width: Option<Extent>,
    /// The room between its edges and its text, in points; `None` is the table's default.
    pub padding: Option<Insets>,
    /// Where its text stands when the row is taller than it (HTML's `vertical-align`).
    pub valign: VAlign,
    /// The colour filling it under its text (HTML's `background-color`, `bgcolor`).
    pub background: Option<Color>,
    /// Its own lines, each centred on its edge (HTML's `border` in a style sheet, as with
    /// `border-collapse`); `None` takes the table's (a ruled table's grid, else none).
    pub borders: Option<Borders>,
}

impl Cell {
    /// A one-column, one-row cell holding `inlines`, its text at the top.
    pub fn new(inlines: Vec<Inline>) -> Cell {
        Cell {
            inlines,
            colspan: 1,
            rowspan: 1,
            width: None,
            padding: None,
            valign: VAlign::Top,
            background: None,
            borders: None,
        }
    }
}

/// A line along one side of a box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Border {
    /// In points.
    pub width: f64,
    pub color: Color,
}

/// The lines along a box's sides; a side without one has none.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Borders {
    pub top: Option<Border>,
    pub right: Option<Border>,
    pub bottom: Option<Border>,
    pub left: Option<Border>,
}

/// How a [`Block::Boxed`] is drawn. Its width is the border box's (what it asks for, at
/// most `max_width`, at most the room inside its side margins), set at the left of that
/// room or in its middle (`centred`, CSS's `margin: auto`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BoxLook {
    pub background: Option<Color>,
    pub borders: Borders,
    /// Between the borders and the blocks, in points.
    pub padding: Insets,
    /// Outside the borders: above and below as space between blocks, at the sides as
    /// indentation.
    pub margin: Insets,
    pub width: Option<Extent>,
    pub max_width: Option<Extent>,
    pub centred: bool,
}

/// A length a source asks for: so many points, or a share of the width available.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Extent {
    Points(f64),
    /// `0.5` is half the width available (`50%`).
    Share(f64),
}

impl Extent {
    /// The length in points where `available` points are available; a length that is not
    /// a finite positive number is none.
    pub fn of(self, available: f64) -> Option<f64> {
        let points = match self {
            Extent::Points(p) => p,
            Extent::Share(s) => s * available,
        };
        (points.is_finite() && points > 0.0).then_some(points)
    }
}

/// The padding of a table cell that asks for none.
pub const CELL_PADDING: Insets = Insets {
    top: style::CELL_PAD_Y,
    right: style::CELL_PAD_X,
    bottom: style::CELL_PAD_Y,
    left: style::CELL_PAD_X,
};

/// What a picture shows.
#[derive(Debug, Clone, PartialEq)]
pub enum ImageSource {
    /// The asset holding it (a PNG or JPEG).
    Asset(String),
    /// A drawing (an SVG picture read into shapes), fitted into the picture's box with its
    /// aspect kept, as a browser fits an SVG `<img>`.
    Drawing(Drawing),
}

/// A drawing placed as a picture: its shapes from its top-left corner, its size in points.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// What the drawing is called in warnings (its file name).
    pub name: String,
    pub width: f64,
    pub height: f64,
    pub shapes: Vec<Shape>,
}

impl ImageSource {
    /// What warnings call the picture.
    pub fn name(&self) -> &str {
        match self {
            ImageSource::Asset(name) => name,
            ImageSource::Drawing(d) => &d.name,
        }
    }
}

/// The text of the document's first top-level heading of the highest level it uses (its
/// `#` or `<h1>` when it has one), whitespace collapsed: the title of a document that names
/// none of its own. The title block (level 0) is the named title and is not counted.
pub fn first_heading(blocks: &[Block]) -> Option<String> {
    let headings = blocks.iter().filter_map(|b| match b {
        Block::Heading { level, inlines } if *level > 0 => {
            let text: String = inlines.iter().map(|i| i.text.as_str()).collect();
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            (!text.is_empty()).then_some((*level, text))
        }
        _ => None,
    });
    let mut best: Option<(u8, String)> = None;
    for (level, text) in headings {
        if best.as_ref().is_none_or(|(top, _)| level < *top) {
            best = Some((level, text));
        }
    }
    best.map(|(_, text)| text)
}

/// Page size, margins and body font.
#[derive(Debug, Clone, PartialEq)]
pub struct PageSetup {
    pub width: f64,
    pub height: f64,
    pub margin_top: f64,
    pub margin_right: f64,
    pub margin_bottom: f64,
    pub margin_left: f64,
    pub body_font: FontFamily,
    pub body_size: f64,
    /// The family headings are set in (bold).
    pub heading_font: FontFamily,
    /// A table's text size against the body's: Markdown's tables are set a little smaller,
    /// a browser sets them at the body's size.
    pub table_scale: f64,
    /// The grey behind code blocks; `None` sets them on the page as they are.
    pub code_background: Option<Color>,
    /// The colour of every page's area inside its margins (HTML's `background` of
    /// `<body>`).
    pub background: Option<Color>,
    /// The colour of the whole sheet, margins included (CSS's `@page { background }`).
    pub sheet_color: Option<Color>,
    /// Text set in the margins of every page (CSS's `@page { @bottom-center { content:
    /// counter(page) } }`).
    pub margin_boxes: Vec<MarginBox>,
    /// What the first page has of its own (CSS's `@page :first`).
    pub first_page: FirstPage,
}

/// The first page's own sheet colour and margin boxes, over every page's (a title page's
/// colour, a "first page of the document" footer): a box here takes the place of every
/// page's box at the same place, the others stay, as CSS cascades margin boxes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FirstPage {
    pub sheet_color: Option<Color>,
    pub margin_boxes: Vec<MarginBox>,
}

/// Text in a page's top or bottom margin, at its left, centre or right.
#[derive(Debug, Clone, PartialEq)]
pub struct MarginBox {
    /// In the top margin (else the bottom one).
    pub top: bool,
    /// Left, centre or right of the page's text width.
    pub align: Align,
    pub content: Vec<MarginText>,
}

/// A piece of a margin box's text.
#[derive(Debug, Clone, PartialEq)]
pub enum MarginText {
    Text(String),
    /// The page's number, from 1.
    PageNumber,
    /// How many pages the document has.
    PageCount,
}

impl PageSetup {
    /// The default setup on the paper an importer's `paper` option names: `a4` (or none)
    /// or `letter`.
    pub fn for_paper(paper: Option<&str>) -> Result<PageSetup, crate::ConvertError> {
        let mut setup = PageSetup::default();
        match paper.map(|p| p.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") | Some("a4") => {}
            Some("letter") => {
                setup.width = 612.0;
                setup.height = 792.0;
            }
            Some(other) => {
                return Err(crate::ConvertError::InvalidRequest(format!(
                    "paper `{other}` is not known; use `a4` or `letter`"
                )))
            }
        }
        Ok(setup)
    }
}

impl Default for PageSetup {
    /// A4 portrait, 2 cm margins, Times 11 pt.
    fn default() -> Self {
        PageSetup {
            width: 595.28,
            height: 841.89,
            margin_top: 56.7,
            margin_right: 56.7,
            margin_bottom: 56.7,
            margin_left: 56.7,
            body_font: FontFamily::Times,
            body_size: 11.0,
            heading_font: FontFamily::Helvetica,
            table_scale: style::TABLE_SCALE,
            code_background: Some(style::CODE_BACKGROUND),
            background: None,
            sheet_color: None,
            margin_boxes: Vec::new(),
            first_page: FirstPage::default(),
        }
    }
}

impl PageSetup {
    /// The setup with numbers that cannot produce a page (non-finite, negative, margins
    /// larger than the page) replaced by the defaults, so layout always terminates.
    fn sanitized(&self) -> PageSetup {
        let d = PageSetup::default();
        let ok = |v: f64, lo: f64, hi: f64| v.is_finite() && v >= lo && v <= hi;
        let mut s = self.clone();
        if !ok(s.width, 72.0, crate::validate::MAX_PAGE_SIDE)
            || !ok(s.height, 72.0, crate::validate::MAX_PAGE_SIDE)
        {
            s.width = d.width;
            s.height = d.height;
        }
        let margins_ok = [s.margin_top, s.margin_right, s.margin_bottom, s.margin_left]
            .iter()
            .all(|&m| ok(m, 0.0, f64::MAX))
            && s.width - s.margin_left - s.margin_right >= 36.0
            && s.height - s.margin_top - s.margin_bottom >= 72.0;
        if !margins_ok {
            s.margin_top = d.margin_top.min(s.height / 4.0);
            s.margin_bottom = d.margin_bottom.min(s.height / 4.0);
            s.margin_left = d.margin_left.min(s.width / 4.0);
            s.margin_right = d.margin_right.min(s.width / 4.0);
        }
        if !ok(s.body_size, 4.0, 72.0) {
            s.body_size = d.body_size;
        }
        if !ok(s.table_scale, 0.25, 4.0) {
            s.table_scale = d.table_scale;
        }
        s
    }
}

/// Lays `blocks` out on pages. Always returns at least one page (an empty document is one
/// empty page). The warnings are sentences about what could not be placed as asked.
pub fn layout(blocks: &[Block], setup: &PageSetup) -> (Vec<Page>, Vec<String>) {
    let setup = setup.sanitized();
    let mut engine = engine::Engine::new(&setup);
    engine.run(blocks);
    engine.finish()
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    out
}

#[cfg(test)]
mod tests;
