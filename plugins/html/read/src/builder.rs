//! The flow IR under construction: the stack of open containers (quotes, lists, items), the
//! inline buffer of the paragraph being read, the inline style in force, and the binding of
//! element ids to headings. The DOM walk ([`crate::walk`]) drives it.
//!
//! Whitespace follows CSS `white-space: normal`: every run of ASCII whitespace is one space,
//! a space after a space (across element boundaries too) or at the start of a line is
//! dropped, and spaces at the end of a line go when the paragraph is finished.

use quire_sdk::flow::{self, Block, BoxLook, FontSize, Inline};
use quire_sdk::model::{Align, Color, Direction, FontFamily};
use quire_sdk::Asset;

use crate::images::{Images, Picture};
use crate::sheet::{Case, Decoration};

pub enum Container {
    Root(Vec<Block>),
    Quote(Vec<Block>),
    /// A block the style sheets draw a box around.
    Boxed {
        look: BoxLook,
        blocks: Vec<Block>,
    },
    List {
        ordered: bool,
        start: u64,
        items: Vec<Vec<Block>>,
        tight: bool,
    },
    Item(Vec<Block>),
    /// A container past the depth limit: its blocks go to the one below.
    Flat,
}

/// Inline content waiting for its paragraph to end: text, or a picture that becomes a block
/// of its own when the paragraph is cut around it.
enum Piece {
    Text(Inline),
    Image(Block),
}

/// What a block element becomes where only inline content can go (a heading, a table cell):
/// the line it would have started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sep {
    /// A new line (table cells keep their paragraphs apart).
    Line,
    /// A space (headings are one line of text).
    Space,
}

#[derive(Default)]
struct Buffer {
    pieces: Vec<Piece>,
    /// The buffer is empty, or ends in a space or a line break: a following space collapses.
    no_space: bool,
}

impl Buffer {
    fn new() -> Self {
        Buffer {
            pieces: Vec::new(),
            no_space: true,
        }
    }

    fn ends_with_newline(&self) -> bool {
        match self.pieces.last() {
            Some(Piece::Text(i)) => i.text.ends_with('\n'),
            Some(Piece::Image(_)) => true,
            None => true,
        }
    }

    /// The last character of the buffered text; `None` at its start or after a picture.
    fn last_char(&self) -> Option<char> {
        match self.pieces.last() {
            Some(Piece::Text(i)) => i.text.chars().next_back(),
            _ => None,
        }
    }
}

/// Whether a letter after `prev` starts a word, as a browser's `capitalize` sees words:
/// after a space or punctuation, not inside one (`o'neill`, `3d`).
fn starts_word(prev: Option<char>) -> bool {
    prev.is_none_or(|p| !(p.is_alphanumeric() || matches!(p, '\'' | '\u{2019}' | '_')))
}

#[derive(Default)]
pub struct Style {
    pub bold: u32,
    pub italic: u32,
    pub code: u32,
    pub strike: u32,
    /// Open links, innermost last; `None` for an `<a>` without a usable target.
    pub links: Vec<Option<String>>,
    /// Languages, families and block directions (`None`: `dir="auto"`) of the open
    /// elements that set one, innermost last ([`crate::attrs`]).
    pub langs: Vec<String>,
    pub fonts: Vec<FontFamily>,
    pub dirs: Vec<Option<Direction>>,
    /// Colours of the open elements the style sheets colour, innermost last.
    pub colors: Vec<Color>,
    /// Per open link, how many of `colors` were set outside it: a link's text takes only
    /// a colour set on the link or inside it (else it is link blue, as in a browser).
    pub link_colors: Vec<usize>,
    /// Alignments of the open blocks that set one (`text-align`, `align`, `<center>`).
    pub aligns: Vec<Align>,
    /// Font sizes of the open elements that set one, resolved against the size around
    /// them, innermost last.
    pub sizes: Vec<FontSize>,
    /// `text-transform` of the open elements that set one, innermost last.
    pub cases: Vec<Case>,
    /// The lines of the open elements that draw or remove some (`<u>`, `text-decoration`),
    /// innermost last.
    pub decorations: Vec<Decoration>,
}

pub struct Builder<'a> {
    pub images: Images<'a>,
    pub warnings: Vec<String>,
    pub style: Style,
    stack: Vec<Container>,
    buf: Buffer,
    /// The inline-only places being collected (separator, name for warnings), innermost
    /// last.
    inline_only: Vec<(Sep, &'static str)>,
    /// Ids met since the last block, waiting for a heading to claim them.
    pending_ids: Vec<String>,
    /// Collecting a heading: ids met inside belong to it.
    heading_ids: Option<Vec<String>>,
    /// Ids bound to each heading emitted, in order.
    pub headings: Vec<Vec<String>>,
    /// The document's `<base href>`, when relative links can be joined to it.
    pub base: Option<String>,
    /// The document's language (`<html lang>`): runs in it need no `lang` of their own.
    pub doc_lang: Option<String>,
    /// The distinct languages runs were given, at most [`MAX_RUN_LANGS`]: past them a run
    /// keeps the document's, before the layout's own bound (`fonts::Lang::MAX`) would
    /// drop languages in an order that differs between import and export.
    run_langs: std::cell::RefCell<Vec<String>>,
    /// Links left unclickable because they are relative to an unknown address, and the
    /// first of them.
    pub relative_links: usize,
    pub first_relative: Option<String>,
    /// Relative links stay links as written (raw HTML in Markdown, whose own relative
    /// links are kept) instead of plain text.
    pub keep_relative: bool,
    /// Inline `<svg>` icons left out of lines of text.
    pub icons: usize,
    /// What the page's style sheets hide.
    pub cascade: crate::sheet::Cascade,
    /// The named page (`page: name`, by hash) of the blocks so far, and that of each open
    /// element: a block on another named page than the blocks before it starts a new page.
    pub named_page: Option<u64>,
    pub named_pages: Vec<Option<u64>>,
}

/// How many distinct run languages a page may have (real pages have a handful).
pub const MAX_RUN_LANGS: usize = 64;

impl<'a> Builder<'a> {
    pub fn new(images: &'a [Asset]) -> Self {
        Builder {
            images: Images::new(images),
            warnings: Vec::new(),
            style: Style::default(),
            stack: vec![Container::Root(Vec::new())],
            buf: Buffer::new(),
            inline_only: Vec::new(),
            pending_ids: Vec::new(),
            heading_ids: None,
            headings: Vec::new(),
            base: None,
            doc_lang: None,
            run_langs: Default::default(),
            relative_links: 0,
            keep_relative: false,
            icons: 0,
            first_relative: None,
            cascade: Default::default(),
            named_page: None,
            named_pages: Vec::new(),
        }
    }

    /// The blocks read, every open container closed.
    pub fn finish(&mut self) -> Vec<Block> {
        self.end_paragraph();
        while self.stack.len() > 1 {
            self.close();
        }
        match self.stack.pop() {
            Some(Container::Root(blocks)) => blocks,
            _ => Vec::new(),
        }
    }

    pub fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }

    // --- containers -----------------------------------------------------------------------

    pub fn inline_mode(&self) -> bool {
        !self.inline_only.is_empty()
    }

    /// The inline-only place being collected (`a table cell`), if any.
    pub fn inline_place(&self) -> Option<&'static str> {
        self.inline_only.last().map(|(_, place)| *place)
    }

    fn depth(&self) -> usize {
        self.stack.len() - 1
    }

    pub fn open(&mut self, container: Container) {
        if self.depth() >= flow::MAX_DEPTH {
            self.stack.push(Container::Flat);
        } else {
            self.stack.push(container);
        }
    }

    /// Whether a `<li>` here is an item of a list (possibly one flattened by depth).
    pub fn in_list(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Container::List { .. } | Container::Flat)
        )
    }

    pub fn in_item(&self) -> bool {
        matches!(self.stack.last(), Some(Container::Item(_)))
    }

    /// Marks the list around the current item loose: its items hold paragraphs.
    pub fn mark_loose(&mut self) {
        let n = self.stack.len();
        if n >= 2 && matches!(self.stack[n - 1], Container::Item(_)) {
            if let Container::List { tight, .. } = &mut self.stack[n - 2] {
                *tight = false;
            }
        }
    }

    pub fn close(&mut self) {
        let Some(container) = self.stack.pop() else {
            return;
        };
        if self.stack.is_empty() {
            // The root is never closed but by `finish`.
            self.stack.push(container);
            return;
        }
        match container {
            Container::Flat | Container::Root(_) => {}
            Container::Quote(blocks) => self.emit(Block::Quote(blocks)),
            Container::Boxed { look, blocks } => {
                if !blocks.is_empty() {
                    self.emit(Block::Boxed { blocks, look })
                }
            }
            Container::List {
                ordered,
                start,
                items,
                tight,
            } => {
                if !items.is_empty() {
                    self.emit(Block::List {
                        ordered,
                        start,
                        items,
                        tight,
                    })
                }
            }
            Container::Item(blocks) => match self.stack.last_mut() {
                Some(Container::List { items, .. }) => items.push(blocks),
                // An item whose list was flattened: its blocks join the container below.
                _ => blocks.into_iter().for_each(|b| self.emit(b)),
            },
        }
    }

    /// Appends a block to the innermost real container.
    pub fn emit(&mut self, block: Block) {
        if !matches!(block, Block::Heading { .. }) {
            self.pending_ids.clear();
        }
        for c in self.stack.iter_mut().rev() {
            match c {
                Container::Flat => continue,
                Container::Root(blocks)
                | Container::Quote(blocks)
                | Container::Item(blocks)
                | Container::Boxed { blocks, .. } => {
                    blocks.push(block);
                    return;
                }
                // Content straight inside `<ul>`, outside any `<li>`: an item of its own.
                Container::List { items, .. } => {
                    items.push(vec![block]);
                    return;
                }
            }
        }
    }

    /// Starts a new page here (a style sheet's `break-before`/`break-after`). Not inside a
    /// table cell or a heading, where no page can start.
    pub fn page_break(&mut self) {
        if self.inline_mode() {
            return;
        }
        self.end_paragraph();
        self.emit(Block::PageBreak);
    }

    pub fn emit_heading(&mut self, level: u8, inlines: Vec<Inline>, mut ids: Vec<String>) {
        let inlines = tidy(inlines);
        if inlines.is_empty() {
            // Nothing to show: ids wait for the next heading.
            self.pending_ids.append(&mut ids);
            return;
        }
        ids.splice(0..0, std::mem::take(&mut self.pending_ids));
        self.headings.push(ids);
        self.emit(Block::Heading { level, inlines });
    }

    // --- anchors --------------------------------------------------------------------------

    pub fn anchor(&mut self, id: &str) {
        let id = id.to_string();
        match &mut self.heading_ids {
            Some(ids) => ids.push(id),
            None => self.pending_ids.push(id),
        }
    }

    // --- inline content -------------------------------------------------------------------

    fn styled(&self, text: String) -> Inline {
        Inline {
            text,
            bold: self.style.bold > 0,
            italic: self.style.italic > 0,
            code: self.style.code > 0,
            strike: self.style.strike > 0
                || self.style.decorations.last().is_some_and(|d| d.strike),
            underline: self.style.decorations.last().map(|d| d.underline),
            link: self.style.links.iter().rev().flatten().next().cloned(),
            font: self.style.fonts.last().copied(),
            color: match self.style.link_colors.last() {
                Some(&outside) if self.style.colors.len() <= outside => None,
                _ => self.style.colors.last().copied(),
            },
            align: self.style.aligns.last().copied(),
            lang: self.run_lang(),
            dir: self.style.dirs.last().copied().flatten(),
            size: self.style.sizes.last().copied(),
            // A table cell sets its own (`table`); text elsewhere has no box to fill.
        }
    }

    /// The language of a run here: the innermost `lang` when it is not the document's and
    /// is among the first [`MAX_RUN_LANGS`] distinct ones.
    fn run_lang(&self) -> Option<String> {
        let lang = self.style.langs.last()?;
        if self
            .doc_lang
            .as_ref()
            .is_some_and(|d| d.eq_ignore_ascii_case(lang))
        {
            return None;
        }
        let mut known = self.run_langs.borrow_mut();
        if !known.contains(lang) {
            if known.len() >= MAX_RUN_LANGS {
                return None;
            }
            known.push(lang.clone());
        }
        Some(lang.clone())
    }

    /// An invisible bidi control (an isolate or override around an element's text), which
    /// leaves the collapsing of spaces around it as it was.
    pub fn control(&mut self, ch: char) {
        let no_space = self.buf.no_space;
        let inline = self.styled(ch.to_string());
        self.push_inline(inline);
        self.buf.no_space = no_space;
    }

    fn push_inline(&mut self, inline: Inline) {
        if inline.text.is_empty() {
            return;
        }
        if let Some(Piece::Text(last)) = self.buf.pieces.last_mut() {
            if same_style(last, &inline) {
                last.text.push_str(&inline.text);
                return;
            }
        }
        self.buf.pieces.push(Piece::Text(inline));
    }

    /// Text as a browser shows it in normal flow: whitespace collapsed.
    pub fn text(&mut self, raw: &str) {
        let mut out = String::with_capacity(raw.len());
        for c in raw.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C') {
                if !self.buf.no_space {
                    out.push(' ');
                    self.buf.no_space = true;
                }
            } else {
                self.push_cased(c, &mut out);
                self.buf.no_space = false;
            }
        }
        let inline = self.styled(out);
        self.push_inline(inline);
    }

    /// Pushes `c` as the innermost `text-transform` writes it (a word of `capitalize`
    /// may have begun in an earlier text node).
    fn push_cased(&self, c: char, out: &mut String) {
        match self.style.cases.last() {
            None | Some(Case::AsWritten) => out.push(c),
            Some(Case::Upper) => out.extend(c.to_uppercase()),
            Some(Case::Lower) => out.extend(c.to_lowercase()),
            Some(Case::Capitalize) => {
                let prev = out.chars().next_back().or_else(|| self.buf.last_char());
                if starts_word(prev) {
                    out.extend(c.to_uppercase());
                } else {
                    out.push(c);
                }
            }
        }
    }

    /// Text kept as it is (preformatted content inside an inline-only place).
    pub fn verbatim(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.buf.no_space = text.ends_with(['\n', ' ']);
        let inline = self.styled(text.to_string());
        self.push_inline(inline);
    }

    pub fn line_break(&mut self) {
        let inline = self.styled("\n".into());
        self.push_inline(inline);
        self.buf.no_space = true;
    }

    /// Where a block element starts or ends: the paragraph ends, or, in an inline-only
    /// place, a line or a space separates.
    pub fn boundary(&mut self) {
        match self.inline_only.last().map(|(sep, _)| sep) {
            None => self.end_paragraph(),
            Some(Sep::Space) => self.text(" "),
            Some(Sep::Line) => {
                if !self.buf.ends_with_newline() {
                    self.line_break();
                }
            }
        }
    }

    pub fn picture(&mut self, picture: Picture, alt: &str, place: Option<&str>) {
        let link = self.style.links.iter().rev().flatten().next().cloned();
        if let Some(place) = place {
            self.warn(format!(
                "image `{}` in {place} is shown as its alt text",
                picture.source.name()
            ));
            self.alt_text(alt);
            return;
        }
        self.buf.pieces.push(Piece::Image(Block::Image {
            source: picture.source,
            width: picture.width,
            height: picture.height,
            alt: alt.to_string(),
            link,
            align: self.style.aligns.last().copied().unwrap_or_default(),
        }));
        self.buf.no_space = true;
    }

    /// The alt text of a picture that cannot be shown, set in italics like markdown does.
    pub fn alt_text(&mut self, alt: &str) {
        if alt.trim().is_empty() {
            return;
        }
        // The picture's box stood between words: spaces keep its text apart from them.
        self.text(" ");
        self.style.italic += 1;
        self.text(alt);
        self.style.italic -= 1;
        self.text(" ");
    }

    /// Ends the paragraph being read: emitted, cut around its pictures.
    pub fn end_paragraph(&mut self) {
        if self.inline_mode() {
            return;
        }
        let pieces = std::mem::take(&mut self.buf.pieces);
        self.buf.no_space = true;
        let mut text: Vec<Inline> = Vec::new();
        for piece in pieces {
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

    fn emit_paragraph(&mut self, inlines: Vec<Inline>) {
        let inlines = tidy(inlines);
        if !inlines.is_empty() {
            self.emit(Block::Paragraph(inlines));
        }
    }

    /// Runs `walk` with the content it produces collected as inlines, its block elements
    /// separated by `sep`; the paragraph being read before is left as it was.
    pub fn collect(
        &mut self,
        sep: Sep,
        place: &'static str,
        walk: impl FnOnce(&mut Self),
    ) -> Vec<Inline> {
        let saved = std::mem::replace(&mut self.buf, Buffer::new());
        self.inline_only.push((sep, place));
        walk(self);
        self.inline_only.pop();
        let buf = std::mem::replace(&mut self.buf, saved);
        let inlines = buf
            .pieces
            .into_iter()
            .filter_map(|p| match p {
                Piece::Text(i) => Some(i),
                Piece::Image(_) => None,
            })
            .collect();
        tidy(inlines)
    }

    /// Collects a heading's inlines, binding the ids met inside to it.
    pub fn collect_heading(&mut self, walk: impl FnOnce(&mut Self)) -> (Vec<Inline>, Vec<String>) {
        let outer = self.heading_ids.replace(Vec::new());
        let inlines = self.collect(Sep::Space, "a heading", walk);
        let ids = std::mem::replace(&mut self.heading_ids, outer).unwrap_or_default();
        (inlines, ids)
    }
}

fn same_style(a: &Inline, b: &Inline) -> bool {
    a.bold == b.bold
        && a.italic == b.italic
        && a.code == b.code
        && a.strike == b.strike
        && a.underline == b.underline
        && a.link == b.link
        && a.font == b.font
        && a.lang == b.lang
        && a.dir == b.dir
        && a.color == b.color
        && a.align == b.align
        && a.size == b.size
}

/// Drops what would show as stray space: whitespace at either end, and spaces next to a
/// line break (a browser does not show spaces at the end or start of a line). Preformatted
/// text (a `<pre>` in a table cell, whose lines are code with their own line breaks) keeps
/// its lines' indentation.
pub fn tidy(inlines: Vec<Inline>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::with_capacity(inlines.len());
    for mut inline in inlines {
        let preformatted = inline.code && inline.text.contains('\n');
        if inline.text.contains('\n') && !preformatted {
            inline.text = inline
                .text
                .split('\n')
                .enumerate()
                .map(|(i, line)| {
                    let line = if i > 0 {
                        line.trim_start_matches(' ')
                    } else {
                        line
                    };
                    line
                })
                .collect::<Vec<_>>()
                .join("\n");
            while inline.text.contains(" \n") {
                inline.text = inline.text.replace(" \n", "\n");
            }
            if inline.text.starts_with('\n') {
                trim_last(&mut out);
            }
        }
        let at_line_start = out.last().is_none_or(|l| l.text.ends_with('\n'));
        if at_line_start && !preformatted {
            inline.text = inline.text.trim_start_matches(' ').to_string();
        }
        if out.is_empty() && !preformatted {
            inline.text = inline.text.trim_start().to_string();
        }
        if !inline.text.is_empty() {
            out.push(inline);
        }
    }
    while let Some(last) = out.last_mut() {
        let keep = last.text.trim_end().len();
        last.text.truncate(keep);
        if !last.text.is_empty() {
            break;
        }
        out.pop();
    }
    out
}

/// Trailing spaces of the last inline removed (the line ends after it).
fn trim_last(out: &mut Vec<Inline>) {
    while let Some(last) = out.last_mut() {
        let keep = last.text.trim_end_matches(' ').len();
        last.text.truncate(keep);
        if !last.text.is_empty() {
            break;
        }
        out.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(inlines: &[Inline]) -> Vec<&str> {
        inlines.iter().map(|i| i.text.as_str()).collect()
    }

    #[test]
    fn tidy_trims_around_line_breaks() {
        let bold = |t: &str| Inline {
            bold: true,
            ..Inline::plain(t)
        };
        let out = tidy(vec![
            Inline::plain(" \n first "),
            bold("second "),
            Inline::plain("\n third \n\n fourth "),
            Inline::plain("\n "),
        ]);
        assert_eq!(texts(&out), ["first ", "second", "\nthird\n\nfourth"]);
    }

    /// A `<pre>` in a table cell keeps its lines' indentation, as a browser shows it.
    #[test]
    fn tidy_keeps_the_indentation_of_preformatted_lines() {
        let code = |t: &str| Inline {
            code: true,
            ..Inline::plain(t)
        };
        let out = tidy(vec![
            code("  if x:\n      y()\n  end"),
            Inline::plain("\n  after"),
        ]);
        assert_eq!(texts(&out), ["  if x:\n      y()\n  end", "\nafter"]);
    }

    #[test]
    fn whitespace_collapses_across_elements() {
        let mut b = Builder::new(&[]);
        b.text("  one \n\t two ");
        b.style.bold += 1;
        b.text(" three");
        b.style.bold -= 1;
        b.line_break();
        b.text("   four  ");
        let blocks = b.finish();
        let [Block::Paragraph(p)] = &blocks[..] else {
            panic!("{blocks:?}")
        };
        assert_eq!(texts(p), ["one two ", "three", "\nfour"]);
        assert!(p[1].bold);
    }
}
