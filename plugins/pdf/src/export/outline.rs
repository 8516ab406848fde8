//! The document outline (a reader's bookmarks): one entry per page the source named (draw.io
//! and Visio pages), each opening its page at the top. No outline when no page has a name.

use pdf_writer::{Pdf, Ref, TextStr};
use quire_sdk::Document;

use super::refs::Refs;
use super::DrawnPage;

/// Writes the outline of the named pages among `drawn`; its id for the catalog.
pub(super) fn write(
    pdf: &mut Pdf,
    refs: &mut Refs,
    doc: &Document,
    drawn: &[DrawnPage],
) -> Option<Ref> {
    let named: Vec<(&str, &DrawnPage)> = drawn
        .iter()
        .filter_map(|p| {
            let name = doc.pages.get(p.number as usize - 1)?.name.as_deref()?;
            Some((name, p)).filter(|(n, _)| !n.trim().is_empty())
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    let outline = refs.alloc();
    let items: Vec<Ref> = named.iter().map(|_| refs.alloc()).collect();
    pdf.outline(outline)
        .first(items[0])
        .last(items[items.len() - 1])
        .count(items.len() as i32);
    for (i, ((name, page), &id)) in named.iter().zip(&items).enumerate() {
        let mut item = pdf.outline_item(id);
        item.title(TextStr(name)).parent(outline);
        if i > 0 {
            item.prev(items[i - 1]);
        }
        if let Some(&next) = items.get(i + 1) {
            item.next(next);
        }
        item.dest()
            .page(page.page)
            .xyz(0.0, page.height as f32, None);
    }
    Some(outline)
}
