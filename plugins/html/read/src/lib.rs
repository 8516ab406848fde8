//! HTML importer: a page's text set as real text (headings, paragraphs, lists, tables,
//! quotes, code, links, pictures), laid out on pages with the SDK's flow layout, the same
//! closed vocabulary and typography as the Markdown importer.
//!
//! Pipeline: bytes -> text ([`charset`]: byte-order mark, the media type's charset, `<meta>`,
//! UTF-8, else windows-1252) -> an HTML5 tree (`scraper`, i.e. html5ever: malformed markup is
//! repaired exactly as browsers repair it) -> flow IR ([`walk`], [`table`]) -> pages
//! ([`quire_sdk::flow::layout`]).
//!
//! Scripts, styles, forms' controls, embedded objects and elements marked `hidden` or
//! hidden by `display: none` (inline, or from the page's `<style>` sheets as printed:
//! [`sheet`]) are dropped; `<math>` becomes a line of text ([`math`]). `lang`, `dir`
//! (`<bdi>`, `<bdo>`) and inline `font-family` (`<font face>`) go to the runs and paragraphs
//! ([`attrs`]). Pictures come only from `request.images` (by name), from `data:` URIs of PNG,
//! JPEG or SVG, or from the page's own `<svg>` elements ([`inline_svg`]); an SVG becomes a
//! drawing, drawn as vectors with its text kept ([`images`]); nothing is fetched. Links are
//! clickable when absolute (http, https, mailto, ftp, tel) or joined to the page's
//! `<base href>`; `#id` links to a heading jump to its page.

mod attrs;
mod boxes;
mod builder;
mod charset;
mod css_values;
mod dom;
mod fragment;
mod images;
mod inline_svg;
mod links;
mod math;
mod parse;
mod sheet;
mod table;
mod walk;

use ego_tree::NodeRef;
use quire_sdk::flow::{self, PageSetup};
use quire_sdk::validate::{MAX_PAGES, MAX_SHAPES};
use quire_sdk::{ConvertError, Document, ImportRequest, Imported, Kind};

pub use fragment::Fragments;
use scraper::Node;

/// HTML larger than this is refused before parsing: 16 MiB is thousands of pages.
pub const MAX_INPUT: usize = 16 << 20;

/// Converts HTML to the document model; usable natively (tests, benchmarks) as well as
/// inside the component.
pub fn convert(request: ImportRequest) -> Result<Imported, ConvertError> {
    if request.bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the HTML is {} bytes; at most {MAX_INPUT} bytes (16 MiB) are accepted",
            request.bytes.len()
        )));
    }
    let mut setup = browser_page(request.option("paper"))?;
    let decoded = charset::decode(&request.bytes, &request.media_type);
    let parsed = parse::parse(&decoded.text);
    drop(decoded.text);
    if parsed.too_many {
        return Err(ConvertError::TooLarge(format!(
            "the HTML has more than {} elements; split it into smaller documents",
            parse::MAX_ELEMENTS
        )));
    }
    let html = parsed.html;

    let root = html.tree.root();
    let title = match request.option("title").map(str::trim) {
        Some(t) if !t.is_empty() => Some(t.to_string()),
        _ => page_title(root),
    };
    let lang = document_lang(root);
    // Before the layout: the language picks glyph forms, and so widths.
    quire_sdk::fonts::set_lang(lang.as_deref().unwrap_or(""));
    let mut builder = builder::Builder::new(&request.images);
    builder.base = base_href(root);
    builder.doc_lang = lang.clone();
    builder.cascade = sheet::Cascade::of(&html);
    // The page's `@page` gives paper and margins (and `@page :first` the first page's colour
    // and margin boxes); the caller's `paper` option overrides them.
    if request.option("paper").is_none_or(|p| p.trim().is_empty()) {
        builder.cascade.page.apply(&mut setup);
        builder.cascade.first_page.apply_to_first(&mut setup);
    }
    // Inside the page's margins, `<body>`'s own (8 px unless the page says otherwise).
    let body = boxes::body_margins(&html, &builder.cascade);
    setup.margin_top += body.top;
    setup.margin_right += body.right;
    setup.margin_bottom += body.bottom;
    setup.margin_left += body.left;
    setup.background = boxes::page_background(&html, &builder.cascade);
    let css_truncated = builder.cascade.truncated;
    builder.children(root, 0);
    let mut blocks = builder.finish();
    let title = title.or_else(|| flow::first_heading(&blocks));
    drop(html);
    links::resolve_fragments(&mut blocks, &builder.headings);

    // Each paragraph, heading, code block and table row takes at least a line: refuse what
    // cannot fit the page limit before spending the time to lay it out.
    let lines = min_lines(&blocks);
    let room = setup.height - setup.margin_top - setup.margin_bottom;
    if lines as f64 * MIN_LINE / room > MAX_PAGES as f64 {
        return Err(ConvertError::TooLarge(format!(
            "the HTML holds {lines} paragraphs, headings and table rows: more than fit on \
             {MAX_PAGES} pages, the most a document may have"
        )));
    }
    let (pages, flow_warnings) = flow::layout(&blocks, &setup);
    drop(blocks);
    if pages.len() > MAX_PAGES {
        return Err(ConvertError::TooLarge(format!(
            "the HTML lays out to {} pages; at most {MAX_PAGES} are accepted",
            pages.len()
        )));
    }
    let shapes: usize = pages.iter().map(|p| p.shapes.len()).sum();
    if shapes > MAX_SHAPES {
        return Err(ConvertError::TooLarge(format!(
            "the HTML lays out to {shapes} shapes; at most {MAX_SHAPES} are accepted"
        )));
    }

    let mut warnings = Vec::new();
    warnings.extend(decoded.warning);
    if parsed.flattened > 0 {
        warnings.push(flattened_warning(parsed.flattened, ""));
    }
    if css_truncated {
        warnings.push(
            "the page's style sheets are larger than Quire reads (1 MiB, 4096 rules that hide \
             elements, or too many elements to match them all): the rest of the page is shown \
             as if they were not there"
                .into(),
        );
    }
    warnings.append(&mut builder.warnings);
    if let Some(first) = &builder.first_relative {
        let n = builder.relative_links;
        warnings.push(format!(
            "{n} relative link{} (first: `{first}`) kept as plain text: the page has no \
             `<base href>` to say where {} lead",
            if n == 1 { " is" } else { "s are" },
            if n == 1 { "it would" } else { "they" },
        ));
    }
    if builder.icons > 0 {
        warnings.push(icons_warning(builder.icons, ""));
    }
    let (assets, image_warnings) = builder.images.finish();
    warnings.extend(image_warnings);
    warnings.extend(flow_warnings);

    let mut document = Document::new(Kind::Paged);
    document.title = title;
    document.lang = lang;
    document.pages = pages;
    Ok(Imported {
        document,
        assets,
        warnings,
    })
}

/// What was said of `n` elements nested past the parser's depth (`of`: where they stood,
/// for HTML inside another document).
fn flattened_warning(n: usize, of: &str) -> String {
    format!(
        "{n} elements{of} nested more than {} levels deep were flattened: their text is kept, \
         their structure is not",
        parse::MAX_OPEN
    )
}

/// What was said of `n` inline SVG icons left out of lines of text.
fn icons_warning(n: usize, of: &str) -> String {
    format!(
        "{n} inline SVG icon{}{of} (at most 32 pixels each way) set in lines of text {} left out",
        if n == 1 { "" } else { "s" },
        if n == 1 { "was" } else { "were" },
    )
}

/// The height of the smallest line flow layout sets (9.5 pt code at 1.25), rounded down.
const MIN_LINE: f64 = 11.0;
/// Chromium's print margins: 0.4 in.
const BROWSER_MARGIN: f64 = 28.8;
/// A browser's text size: 16 px.
pub const BODY_SIZE: f64 = 12.0;

/// The page a browser prints on the paper the caller names (A4 by default): 16 px (12 pt)
/// text, headings and tables in the text's family and size, cells padded as a browser pads
/// them, preformatted text on the page as it is, and
/// Chromium's 0.4 in margins, before the page's own `@page` and `<body>` margins.
pub fn browser_page(paper: Option<&str>) -> Result<PageSetup, ConvertError> {
    let mut setup = PageSetup::for_paper(paper)?;
    setup.body_size = BODY_SIZE;
    setup.heading_font = setup.body_font;
    setup.table_scale = 1.0;
    setup.code_background = None;
    setup.margin_top = BROWSER_MARGIN;
    setup.margin_right = BROWSER_MARGIN;
    setup.margin_bottom = BROWSER_MARGIN;
    setup.margin_left = BROWSER_MARGIN;
    Ok(setup)
}

/// Blocks that take at least one line each. The IR's depth is bounded (flow::MAX_DEPTH).
fn min_lines(blocks: &[flow::Block]) -> usize {
    blocks
        .iter()
        .map(|b| match b {
            flow::Block::Paragraph(_) | flow::Block::Heading { .. } | flow::Block::Code { .. } => 1,
            flow::Block::Table { rows, .. } => rows.len(),
            flow::Block::List { items, .. } => items.iter().map(|i| min_lines(i)).sum(),
            flow::Block::Quote(inner) | flow::Block::Boxed { blocks: inner, .. } => {
                min_lines(inner)
            }
            _ => 0,
        })
        .sum()
}

/// The text of `<head><title>`, whitespace collapsed.
fn page_title(root: NodeRef<'_, Node>) -> Option<String> {
    let title = root
        .descendants()
        .find(|n| is_element(n, "title") && n.parent().is_some_and(|p| is_element(&p, "head")))?;
    let text: String = title
        .descendants()
        .filter_map(|n| n.value().as_text().map(|t| &**t))
        .collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// The document's language: `lang` (or `xml:lang`) on `<html>`, when it is a language tag.
fn document_lang(root: NodeRef<'_, Node>) -> Option<String> {
    root.descendants()
        .find_map(|n| match n.value() {
            Node::Element(e) if e.name() == "html" => attrs::lang_attr(e),
            _ => None,
        })
        .map(str::to_string)
}

/// The first `<base href>`, when it is an absolute http(s) URL.
fn base_href(root: NodeRef<'_, Node>) -> Option<String> {
    root.descendants()
        .find_map(|n| match n.value() {
            Node::Element(e) if e.name() == "base" => e.attr("href"),
            _ => None,
        })
        .and_then(links::usable_base)
}

fn is_element(n: &NodeRef<'_, Node>, name: &str) -> bool {
    matches!(n.value(), Node::Element(e) if e.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_option() {
        assert_eq!(PageSetup::for_paper(Some("Letter")).unwrap().width, 612.0);
        assert!(matches!(
            PageSetup::for_paper(Some("a5")),
            Err(ConvertError::InvalidRequest(_))
        ));
    }
}
