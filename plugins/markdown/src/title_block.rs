//! The title block pandoc draws at the top of the first page from the front matter: the
//! title, large and centred, then the authors (one a line) and the date, centred at the body
//! size.
//!
//! It is poured onto the pages by flow layout ahead of the body, as a level-1 heading and
//! paragraphs, so it measures, paginates and pushes the body down exactly as they do. The
//! flow IR has no alignment of its own, so the text boxes it became are centred after layout:
//! centring moves each line within its box and never changes where lines break, so every box
//! keeps the height layout gave it.

use quire_sdk::flow::{self, Block, Inline, PageSetup};
use quire_sdk::{Align, Page, Shape};

use crate::front_matter::FrontMatter;

/// The blocks of the title block: none unless the front matter has a `title`, `author` or
/// `date`. `title` is the document's title (the `title` option overrides the front matter's);
/// with no such key the option only names the document, as it always did.
pub fn blocks(front: &FrontMatter, title: Option<&str>) -> Vec<Block> {
    if front.title.is_none() && front.authors.is_empty() && front.date.is_none() {
        return Vec::new();
    }
    let mut blocks = Vec::new();
    if let Some(title) = title {
        blocks.push(Block::Heading {
            // The title: no link anchor of its own (see `Block::Heading`).
            level: 0,
            inlines: vec![Inline::plain(title)],
        });
    }
    if !front.authors.is_empty() {
        // One paragraph, a name a line, as pandoc's HTML sets them under each other.
        blocks.push(Block::Paragraph(vec![Inline::plain(
            front.authors.join("\n"),
        )]));
    }
    if let Some(date) = &front.date {
        blocks.push(Block::Paragraph(vec![Inline::plain(date.clone())]));
    }
    blocks
}

/// Centres the text boxes `title_block` became at the start of `pages`, which were laid out
/// with `setup` from `title_block` followed by the body.
pub fn centre(pages: &mut [Page], title_block: &[Block], setup: &PageSetup) {
    if title_block.is_empty() {
        return;
    }
    // Layout places blocks one after another and a block's boxes depend only on what came
    // before it, so the title block alone becomes the same boxes, however many pages a
    // hostile title spans; laying out these few lines again is cheap.
    let (alone, _) = flow::layout(title_block, setup);
    let count = alone
        .iter()
        .flat_map(|p| &p.shapes)
        .filter(|s| matches!(s, Shape::Text(_)))
        .count();
    let boxes = pages
        .iter_mut()
        .flat_map(|p| &mut p.shapes)
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        });
    for text_box in boxes.take(count) {
        text_box.text.align = Align::Center;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_block_of_several_pages_is_centred_to_its_last_box() {
        let name = "Author with a rather long name ".repeat(100);
        let front = FrontMatter {
            title: Some("T".into()),
            authors: vec![name; 32],
            ..FrontMatter::default()
        };
        let title_block = blocks(&front, Some("T"));
        let mut all = title_block.clone();
        all.push(Block::Paragraph(vec![Inline::plain("Body.")]));
        let setup = PageSetup::default();
        let (mut pages, _) = flow::layout(&all, &setup);
        assert!(pages.len() > 2, "{} pages", pages.len());
        centre(&mut pages, &title_block, &setup);
        let aligns: Vec<(String, Align)> = pages
            .iter()
            .flat_map(|p| &p.shapes)
            .filter_map(|s| match s {
                Shape::Text(t) => Some((t.text.plain_text(), t.text.align)),
                _ => None,
            })
            .collect();
        let (body, title_block) = aligns.split_last().unwrap();
        assert_eq!(*body, ("Body.".to_string(), Align::Left));
        assert!(title_block.len() > 2);
        assert!(title_block.iter().all(|(_, a)| *a == Align::Center));
    }

    #[test]
    fn no_title_author_or_date_no_block() {
        assert!(blocks(&FrontMatter::default(), Some("From the option")).is_empty());
        let dated = FrontMatter {
            date: Some("2024".into()),
            ..FrontMatter::default()
        };
        assert_eq!(
            blocks(&dated, None),
            [Block::Paragraph(vec![Inline::plain("2024")])]
        );
    }
}
