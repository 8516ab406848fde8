//! pulldown-cmark events to the flow IR.
//!
//! The event stream is flat; a stack of open containers (quotes, lists, items, footnotes)
//! rebuilds the tree. Inline content collects in a buffer until its block ends. Nesting
//! deeper than [`flow::MAX_DEPTH`] is flattened into the deepest allowed container, so
//! neither layout nor dropping the tree can recurse without bound.

use std::collections::HashMap;

use pulldown_cmark::{BlockQuoteKind, Event, Tag, TagEnd};
use quire_html_read::Fragments;
use quire_sdk::flow::{self, Block, Cell, ImageSource, Inline};
use quire_sdk::{Align, Asset, ConvertError};
use quire_svg_read::pictures::Pictures;

use crate::html::{self, Wrapping};

enum Container {
    Root(Vec<Block>),
    Quote(Vec<Block>),
    List {
        ordered: bool,
        start: u64,
        items: Vec<Vec<Block>>,
        tight: bool,
    },
    Item(Vec<Block>),
    Footnote {
        label: String,
        blocks: Vec<Block>,
    },
    /// A container past the depth limit: its blocks go to the one below.
    Flat,
}

/// Inline content waiting for its block to end: text, or a picture that will become a block
/// of its own when the paragraph is cut around it.
enum Piece {
    Text(Inline),
    Image(Block),
}

/// What the current leaf block is collecting.
enum Leaf {
    None,
    Paragraph,
    Heading(u8),
    Code(String),
    Html(String),
    Cell,
}

#[derive(Default)]
struct Table {
    aligns: Vec<Align>,
    header: Vec<Vec<Inline>>,
    rows: Vec<Vec<Vec<Inline>>>,
    row: Vec<Vec<Inline>>,
}

/// An image being read: its alt text arrives as text events before its end.
struct OpenImage {
    dest: String,
    alt: String,
    /// The size an HTML `<img>` gives, in CSS pixels.
    width: Option<u32>,
    height: Option<u32>,
}

impl OpenImage {
    fn from_tag(tag: html::ImgTag) -> Self {
        OpenImage {
            dest: tag.src,
            alt: tag.alt,
            width: tag.width,
            height: tag.height,
        }
    }
}

pub struct Builder<'a> {
    images: &'a [Asset],
    pub warnings: Vec<String>,
    /// The supplied images the document uses, by name.
    pub used: Vec<Asset>,
    /// The SVG pictures it uses, read into drawings.
    pub pictures: Pictures,
    stack: Vec<Container>,
    leaf: Leaf,
    pieces: Vec<Piece>,
    bold: u32,
    italic: u32,
    strike: u32,
    links: Vec<Option<String>>,
    image: Option<OpenImage>,
    table: Option<Table>,
    /// A task-list marker waiting for the item's first text.
    task: Option<bool>,
    /// The literal element (`xmp`, `textarea`) open in the paragraph, whose tags are text.
    literal: Option<&'static str>,
    footnote_numbers: HashMap<String, usize>,
    footnotes: Vec<(String, Vec<Block>)>,
    /// The raw HTML blocks, read as an HTML page is ([`quire_html_read`]).
    pub fragments: Fragments<'a>,
    /// Why the document cannot be read (raw HTML too large to read), found mid-way.
    pub refused: Option<ConvertError>,
}

impl<'a> Builder<'a> {
    pub fn new(images: &'a [Asset]) -> Self {
        Builder {
            images,
            warnings: Vec::new(),
            used: Vec::new(),
            pictures: Pictures::new(),
            stack: vec![Container::Root(Vec::new())],
            leaf: Leaf::None,
            pieces: Vec::new(),
            bold: 0,
            italic: 0,
            strike: 0,
            links: Vec::new(),
            image: None,
            table: None,
            task: None,
            literal: None,
            footnote_numbers: HashMap::new(),
            footnotes: Vec::new(),
            fragments: Fragments::new(images),
            refused: None,
        }
    }

    pub fn build<'e>(mut self, events: impl Iterator<Item = Event<'e>>) -> (Vec<Block>, Self) {
        let mut wrapping: Option<Wrapping> = None;
        for event in events {
            if let Some(span) = wrapping.as_mut() {
                if span.take(event) {
                    let html = wrapping.take().map(Wrapping::html).unwrap_or_default();
                    self.raw_html(&html);
                }
                continue;
            }
            // A raw HTML block between top-level blocks may wrap the Markdown after it;
            // inside a list or quote it is read alone (its span could not end there).
            if html::starts_html_block(&event) && self.stack.len() == 1 && self.table.is_none() {
                self.end_leaf();
                let mut span = Wrapping::new();
                span.take(event);
                wrapping = Some(span);
                continue;
            }
            self.event(event);
        }
        if let Some(span) = wrapping {
            // Wrappers never closed: the rest of the document is inside them.
            self.raw_html(&span.html());
        }
        self.end_leaf();
        // Close whatever the parser left open (it should not, but input is hostile).
        while self.stack.len() > 1 {
            self.close_container();
        }
        let mut blocks = match self.stack.pop() {
            Some(Container::Root(blocks)) => blocks,
            _ => Vec::new(),
        };
        self.append_footnotes(&mut blocks);
        (blocks, self)
    }

    fn depth(&self) -> usize {
        self.stack.len() - 1
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.text(&text),
            Event::Code(text) => {
                if let Some(img) = &mut self.image {
                    img.alt.push_str(&text);
                } else {
                    let inline = Inline {
                        code: true,
                        ..self.styled(&text)
                    };
                    self.push_inline(inline);
                }
            }
            Event::InlineMath(text) | Event::DisplayMath(text) => self.text(&text),
            Event::Html(text) => match &mut self.leaf {
                Leaf::Html(buf) => buf.push_str(&text),
                _ => self.inline_html(&text),
            },
            Event::InlineHtml(text) => self.inline_html(&text),
            Event::FootnoteReference(label) => {
                let next = self.footnote_numbers.len() + 1;
                let n = *self
                    .footnote_numbers
                    .entry(label.to_string())
                    .or_insert(next);
                self.push_inline(self.styled(&format!("[{n}]")));
            }
            Event::SoftBreak => self.text(" "),
            Event::HardBreak => self.text("\n"),
            Event::Rule => {
                self.end_leaf();
                self.emit(Block::Rule);
            }
            Event::TaskListMarker(checked) => self.task = Some(checked),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {
                self.end_leaf();
                // Paragraph tags inside an item mean the list is loose.
                if let Some(Container::Item(_)) = self.top() {
                    self.mark_loose();
                }
                self.leaf = Leaf::Paragraph;
            }
            Tag::Heading { level, .. } => {
                self.end_leaf();
                self.leaf = Leaf::Heading(level as u8);
            }
            Tag::BlockQuote(kind) => {
                self.end_leaf();
                self.open(Container::Quote(Vec::new()));
                if let Some(kind) = kind {
                    let label = match kind {
                        BlockQuoteKind::Note => "Note",
                        BlockQuoteKind::Tip => "Tip",
                        BlockQuoteKind::Important => "Important",
                        BlockQuoteKind::Warning => "Warning",
                        BlockQuoteKind::Caution => "Caution",
                    };
                    self.emit(Block::Paragraph(vec![Inline {
                        bold: true,
                        ..Inline::plain(label)
                    }]));
                }
            }
            Tag::CodeBlock(_) => {
                self.end_leaf();
                self.leaf = Leaf::Code(String::new());
            }
            Tag::HtmlBlock => {
                self.end_leaf();
                self.leaf = Leaf::Html(String::new());
            }
            Tag::List(start) => {
                self.end_leaf();
                self.open(Container::List {
                    ordered: start.is_some(),
                    start: start.unwrap_or(1),
                    items: Vec::new(),
                    tight: true,
                });
            }
            Tag::Item => {
                self.end_leaf();
                self.open(Container::Item(Vec::new()));
            }
            Tag::FootnoteDefinition(label) => {
                self.end_leaf();
                // Footnotes are collected at any depth and set at the end of the document.
                self.stack.push(Container::Footnote {
                    label: label.to_string(),
                    blocks: Vec::new(),
                });
            }
            Tag::Table(aligns) => {
                self.end_leaf();
                let aligns = aligns
                    .iter()
                    .map(|a| match a {
                        pulldown_cmark::Alignment::Center => Align::Center,
                        pulldown_cmark::Alignment::Right => Align::Right,
                        _ => Align::Left,
                    })
                    .collect();
                self.table = Some(Table {
                    aligns,
                    ..Table::default()
                });
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = &mut self.table {
                    t.row.clear();
                }
            }
            Tag::TableCell => {
                self.pieces.clear();
                self.leaf = Leaf::Cell;
            }
            Tag::Emphasis => self.italic += 1,
            Tag::Strong => self.bold += 1,
            Tag::Strikethrough => self.strike += 1,
            Tag::Link { dest_url, .. } => {
                let dest = dest_url.trim();
                self.links
                    .push((!dest.is_empty()).then(|| dest.to_string()));
            }
            Tag::Image { dest_url, .. } => {
                self.image = Some(OpenImage {
                    dest: dest_url.to_string(),
                    alt: String::new(),
                    width: None,
                    height: None,
                });
            }
            // Not enabled; their text still arrives as text events.
            Tag::Superscript
            | Tag::Subscript
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::HtmlBlock => {
                self.end_leaf()
            }
            TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Item | TagEnd::FootnoteDefinition => {
                self.end_leaf();
                self.close_container();
            }
            TagEnd::TableCell => {
                let cell = self.take_inlines("a table cell");
                self.leaf = Leaf::None;
                if let Some(t) = &mut self.table {
                    t.row.push(cell);
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = &mut self.table {
                    t.header = std::mem::take(&mut t.row);
                }
            }
            TagEnd::TableRow => {
                if let Some(t) = &mut self.table {
                    let row = std::mem::take(&mut t.row);
                    t.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    let head_rows = usize::from(!t.header.is_empty());
                    let rows = std::iter::once(t.header)
                        .filter(|h| !h.is_empty())
                        .chain(t.rows)
                        .map(|row| row.into_iter().map(Cell::new).collect())
                        .collect();
                    self.emit(Block::Table {
                        aligns: t.aligns,
                        rows,
                        head_rows,
                        ruled: true,
                        width: None,
                        frame: None,
                    });
                }
            }
            TagEnd::Emphasis => self.italic = self.italic.saturating_sub(1),
            TagEnd::Strong => self.bold = self.bold.saturating_sub(1),
            TagEnd::Strikethrough => self.strike = self.strike.saturating_sub(1),
            TagEnd::Link => {
                self.links.pop();
            }
            TagEnd::Image => {
                if let Some(img) = self.image.take() {
                    self.finish_image(img);
                }
            }
            TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::MetadataBlock(_) => {}
        }
    }

    // --- containers -----------------------------------------------------------------------

    fn top(&self) -> Option<&Container> {
        self.stack
            .iter()
            .rev()
            .find(|c| !matches!(c, Container::Flat))
    }

    fn open(&mut self, container: Container) {
        if self.depth() >= flow::MAX_DEPTH {
            self.stack.push(Container::Flat);
        } else {
            self.stack.push(container);
        }
    }

    fn mark_loose(&mut self) {
        let mut seen_item = false;
        for c in self.stack.iter_mut().rev() {
            match c {
                Container::Flat => {}
                Container::Item(_) if !seen_item => seen_item = true,
                Container::List { tight, .. } if seen_item => {
                    *tight = false;
                    return;
                }
                _ => return,
            }
        }
    }

    /// Appends a block to the innermost real container.
    fn emit(&mut self, block: Block) {
        for c in self.stack.iter_mut().rev() {
            match c {
                Container::Flat => continue,
                Container::Root(blocks)
                | Container::Quote(blocks)
                | Container::Item(blocks)
                | Container::Footnote { blocks, .. } => {
                    blocks.push(block);
                    return;
                }
                // Blocks directly in a list (not in an item) only come from broken input:
                // give them an item of their own.
                Container::List { items, .. } => {
                    items.push(vec![block]);
                    return;
                }
            }
        }
    }

    fn close_container(&mut self) {
        let Some(container) = self.stack.pop() else {
            return;
        };
        if self.stack.is_empty() {
            // The root is never closed by an end tag; put it back.
            self.stack.push(container);
            return;
        }
        match container {
            Container::Flat | Container::Root(_) => {}
            Container::Quote(blocks) => self.emit(Block::Quote(blocks)),
            Container::List {
                ordered,
                start,
                items,
                tight,
            } => self.emit(Block::List {
                ordered,
                start,
                items,
                tight,
            }),
            Container::Item(blocks) => match self.stack.last_mut() {
                Some(Container::List { items, .. }) => items.push(blocks),
                // An item whose list was flattened: its blocks join the container below.
                _ => blocks.into_iter().for_each(|b| self.emit(b)),
            },
            Container::Footnote { label, blocks } => self.footnotes.push((label, blocks)),
        }
    }

    fn append_footnotes(&mut self, blocks: &mut Vec<Block>) {
        if self.footnotes.is_empty() {
            return;
        }
        // Numbered in the order of their first reference; unreferenced ones follow.
        let mut notes = std::mem::take(&mut self.footnotes);
        let unnumbered = usize::MAX;
        notes.sort_by_key(|(label, _)| *self.footnote_numbers.get(label).unwrap_or(&unnumbered));
        blocks.push(Block::Rule);
        let mut items = Vec::with_capacity(notes.len());
        for (label, mut note) in notes {
            if !self.footnote_numbers.contains_key(&label) {
                // Not referenced: keep its label so the reader can tell what it was.
                note.insert(
                    0,
                    Block::Paragraph(vec![Inline::plain(format!("[^{label}]"))]),
                );
            }
            items.push(note);
        }
        blocks.push(Block::List {
            ordered: true,
            start: 1,
            items,
            tight: true,
        });
    }

    // --- inline content -------------------------------------------------------------------

    fn styled(&self, text: &str) -> Inline {
        Inline {
            text: text.to_string(),
            bold: self.bold > 0,
            italic: self.italic > 0,
            code: self.literal.is_some(),
            strike: self.strike > 0,
            link: self.links.iter().rev().flatten().next().cloned(),
            ..Inline::default()
        }
    }

    fn text(&mut self, text: &str) {
        if let Some(img) = &mut self.image {
            img.alt.push_str(text);
            return;
        }
        match &mut self.leaf {
            Leaf::Code(buf) | Leaf::Html(buf) => buf.push_str(text),
            _ => {
                let inline = self.styled(text);
                self.push_inline(inline);
            }
        }
    }

    fn inline_html(&mut self, tag: &str) {
        if let Some(name) = &self.literal {
            // Inside `<xmp>` or `<textarea>` a browser shows the tags as written.
            if html::closes(tag, name) {
                self.literal = None;
            } else {
                self.text(tag);
            }
            return;
        }
        if html::is_line_break(tag) {
            self.text("\n");
        } else if let Some(image) = html::img_tag(tag) {
            self.finish_image(OpenImage::from_tag(image));
        } else if let Some(name) = html::opens_literal(tag) {
            self.literal = Some(name);
        }
        // Any other tag is dropped; the text between tags arrives as text events.
    }

    fn push_inline(&mut self, inline: Inline) {
        if matches!(self.leaf, Leaf::None) {
            // Text straight inside a list item (a tight list) or a footnote.
            self.leaf = Leaf::Paragraph;
        }
        if let Some(checked) = self.task.take() {
            let marker = if checked { "[x] " } else { "[ ] " };
            self.pieces.push(Piece::Text(Inline {
                code: true,
                ..Inline::plain(marker)
            }));
        }
        self.pieces.push(Piece::Text(inline));
    }

    /// The collected inlines, with pictures replaced by their alt text (for places a
    /// picture cannot go: headings, table cells).
    fn take_inlines(&mut self, place: &str) -> Vec<Inline> {
        let mut out = Vec::with_capacity(self.pieces.len());
        for piece in std::mem::take(&mut self.pieces) {
            match piece {
                Piece::Text(inline) => out.push(inline),
                Piece::Image(Block::Image {
                    source, alt, link, ..
                }) => {
                    self.warn(format!(
                        "image `{}` in {place} is shown as its alt text",
                        source.name()
                    ));
                    out.push(Inline {
                        italic: true,
                        link,
                        ..Inline::plain(alt)
                    });
                }
                Piece::Image(_) => {}
            }
        }
        out
    }

    fn end_leaf(&mut self) {
        match std::mem::replace(&mut self.leaf, Leaf::None) {
            Leaf::None | Leaf::Paragraph => {
                // Cut the paragraph around its pictures: each becomes a block of its own.
                let mut text: Vec<Inline> = Vec::new();
                for piece in std::mem::take(&mut self.pieces) {
                    match piece {
                        Piece::Text(inline) => text.push(inline),
                        Piece::Image(block) => {
                            self.emit_paragraph(std::mem::take(&mut text));
                            self.emit(block);
                        }
                    }
                }
                self.emit_paragraph(text);
            }
            Leaf::Heading(level) => {
                let inlines = self.take_inlines("a heading");
                if inlines.iter().any(|i| !i.text.trim().is_empty()) {
                    self.emit(Block::Heading { level, inlines });
                }
            }
            Leaf::Code(text) => self.emit(Block::Code { text }),
            Leaf::Html(text) => self.raw_html(&text),
            Leaf::Cell => self.pieces.clear(),
        }
    }

    /// Raw HTML, read as the HTML importer reads a page.
    fn raw_html(&mut self, html: &str) {
        match self.fragments.blocks(html) {
            Ok(blocks) => blocks.into_iter().for_each(|block| self.emit(block)),
            Err(why) => {
                self.refused.get_or_insert(why);
            }
        }
    }

    fn emit_paragraph(&mut self, inlines: Vec<Inline>) {
        let inlines = tidy_breaks(inlines);
        if !inlines.is_empty() {
            self.emit(Block::Paragraph(inlines));
        }
    }

    // --- pictures -------------------------------------------------------------------------

    fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }

    /// The supplied image a reference names: exactly, or with `./`, a query or percent
    /// escapes removed, or by file name alone.
    fn find_image(&self, dest: &str) -> Option<&'a Asset> {
        let images = self.images;
        let exact = |name: &str| images.iter().find(|a| a.name == name);
        let trimmed = dest.trim_start_matches("./");
        let no_query = trimmed.split(['?', '#']).next().unwrap_or(trimmed);
        let decoded = percent_decode(no_query);
        let file_name = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
        exact(dest)
            .or_else(|| exact(trimmed))
            .or_else(|| exact(no_query))
            .or_else(|| exact(&decoded))
            .or_else(|| {
                let wanted = file_name(&decoded);
                images.iter().find(|a| file_name(&a.name) == wanted)
            })
    }

    /// What a supplied picture shows and its size in pixels; `None` (with a warning) when
    /// it cannot be shown.
    fn picture_of(&mut self, asset: &'a Asset) -> Option<(ImageSource, u32, u32)> {
        match self.pictures.supplied(asset, self.images, &mut self.used) {
            Ok(picture) => Some(picture),
            Err(warning) => {
                if let Some(warning) = warning {
                    self.warn(warning);
                }
                None
            }
        }
    }

    fn finish_image(&mut self, img: OpenImage) {
        let alt = img.alt.trim().to_string();
        let link = self.links.iter().rev().flatten().next().cloned();
        let found = self.find_image(&img.dest);
        let block = match found {
            None => {
                self.warn(format!(
                    "image `{}` was not supplied with the request; its alt text stands in",
                    img.dest
                ));
                None
            }
            Some(asset) => self.picture_of(asset).map(|(source, width, height)| {
                let (width, height) = sized(width, height, img.width, img.height);
                Block::Image {
                    source,
                    width,
                    height,
                    alt: alt.clone(),
                    link: link.clone(),
                    align: Align::Left,
                }
            }),
        };
        match block {
            Some(block) => {
                if matches!(self.leaf, Leaf::None) {
                    self.leaf = Leaf::Paragraph;
                }
                self.task.take();
                self.pieces.push(Piece::Image(block));
            }
            None if !alt.is_empty() => {
                let inline = Inline {
                    italic: true,
                    link,
                    ..self.styled(&alt)
                };
                self.push_inline(inline);
            }
            None => {}
        }
    }
}

/// A picture's size in pixels with an `<img>`'s `width`/`height` applied as a browser does:
/// both as given, or one of them with the picture's aspect kept.
fn sized(width: u32, height: u32, asked_w: Option<u32>, asked_h: Option<u32>) -> (u32, u32) {
    let ratio = f64::from(height) / f64::from(width.max(1));
    let scaled = |n: f64| (n.round() as u32).max(1);
    match (asked_w, asked_h) {
        (Some(w), Some(h)) => (w, h),
        (Some(w), None) => (w, scaled(f64::from(w) * ratio)),
        (None, Some(h)) => (scaled(f64::from(h) / ratio), h),
        (None, None) => (width, height),
    }
}

/// Drops what would show as stray space: whitespace at either end of a paragraph (a
/// trailing `<br>` would add an empty line) and spaces that start a line after a hard break
/// (the source's indentation after `<br>`), which layout would keep as an indent.
fn tidy_breaks(inlines: Vec<Inline>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::with_capacity(inlines.len());
    let mut line_start = true;
    for mut inline in inlines {
        if inline.text.contains('\n') {
            let lines: Vec<&str> = inline.text.split('\n').collect();
            let mut text = String::with_capacity(inline.text.len());
            for (i, line) in lines.iter().enumerate() {
                if i > 0 {
                    text.push('\n');
                }
                text.push_str(if i > 0 {
                    line.trim_start_matches(' ')
                } else {
                    line
                });
            }
            inline.text = text;
        }
        if out.is_empty() {
            inline.text = inline.text.trim_start().to_string();
        } else if line_start {
            inline.text = inline.text.trim_start_matches(' ').to_string();
        }
        if inline.text.is_empty() {
            continue;
        }
        line_start = inline.text.ends_with('\n');
        out.push(inline);
    }
    while let Some(last) = out.last_mut() {
        let trimmed = last.text.trim_end().len();
        last.text.truncate(trimmed);
        if !last.text.is_empty() {
            break;
        }
        out.pop();
    }
    out
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(inlines: &[Inline]) -> Vec<&str> {
        inlines.iter().map(|i| i.text.as_str()).collect()
    }

    fn blocks(markdown: &str) -> Vec<Block> {
        let parser = pulldown_cmark::Parser::new(markdown);
        Builder::new(&[]).build(parser).0
    }

    #[test]
    fn xmp_and_textarea_show_their_markup_as_a_browser_does() {
        let out = blocks(
            "Para\n\n<xmp>\n<b>raw</b>\n</xmp>\n\n<textarea>\ntyped <i>x</i>\n</textarea>\n",
        );
        let codes: Vec<&str> = out
            .iter()
            .filter_map(|b| match b {
                Block::Code { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        // HTML's parser drops the newline after `<textarea>` (and `<pre>`), not `<xmp>`'s:
        // a browser shows that one as a blank first line.
        assert_eq!(codes, ["\n<b>raw</b>", "typed <i>x</i>"]);

        let out = blocks("Body <xmp><b>raw</b></xmp> and <i>gone</i> tags");
        let [Block::Paragraph(inlines)] = &out[..] else {
            panic!("{out:?}")
        };
        let shown: String = inlines.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(shown, "Body <b>raw</b> and gone tags");
        let literal: Vec<&str> = inlines
            .iter()
            .filter(|i| i.code)
            .map(|i| i.text.as_str())
            .collect();
        assert_eq!(literal, ["<b>", "raw", "</b>"]);
    }

    #[test]
    fn tidy_breaks_drops_stray_space_only() {
        let out = tidy_breaks(vec![
            Inline::plain(" \nfirst\n   indented"),
            Inline {
                bold: true,
                ..Inline::plain(" bold\n")
            },
            Inline::plain("\n  after blank\n"),
            Inline::plain(" \n"),
        ]);
        assert_eq!(texts(&out), ["first\nindented", " bold\n", "\nafter blank"]);
    }
}
