//! Margin boxes: text set in the top or bottom margin of every page (a running title, the
//! page's number and the count of pages), centred in the margin's height and aligned in
//! the page's text width, as CSS's `@page` margin boxes are.

use super::{MarginBox, MarginText, PageSetup};
use crate::layout::text_height;
use crate::model::*;

/// Margin boxes drawn; more are left out (CSS has sixteen).
const MAX_BOXES: usize = 16;
/// Characters of one box's text kept.
const MAX_TEXT: usize = 1000;

/// The text of `margin_box` on page `number` of `count`.
fn text_of(margin_box: &MarginBox, number: usize, count: usize) -> String {
    let mut out = String::new();
    for part in &margin_box.content {
        match part {
            MarginText::Text(t) => out.push_str(t),
            MarginText::PageNumber => out.push_str(&number.to_string()),
            MarginText::PageCount => out.push_str(&count.to_string()),
        }
        if out.chars().count() > MAX_TEXT {
            out = out.chars().take(MAX_TEXT).collect();
            break;
        }
    }
    out
}

/// The margin boxes of page `index` (from 0): the first page's own, then every page's
/// boxes at places the first page's leave free.
fn boxes_of(setup: &PageSetup, index: usize) -> impl Iterator<Item = &MarginBox> {
    let own: &[MarginBox] = match index {
        0 => &setup.first_page.margin_boxes,
        _ => &[],
    };
    let taken = |b: &MarginBox| own.iter().any(|o| o.top == b.top && o.align == b.align);
    own.iter()
        .chain(setup.margin_boxes.iter().filter(move |b| !taken(b)))
}

/// Adds the setup's margin boxes to every page.
pub(super) fn draw(pages: &mut [Page], setup: &PageSetup) {
    let count = pages.len();
    let width = setup.width - setup.margin_left - setup.margin_right;
    for (n, page) in pages.iter_mut().enumerate() {
        for (b, margin_box) in boxes_of(setup, n).take(MAX_BOXES).enumerate() {
            let text = text_of(margin_box, n + 1, count);
            if text.trim().is_empty() {
                continue;
            }
            let text = Text {
                align: margin_box.align,
                ..Text::plain(text, setup.body_size)
            };
            let h = text_height(&text, width);
            let (top, room) = if margin_box.top {
                (0.0, setup.margin_top)
            } else {
                (setup.height - setup.margin_bottom, setup.margin_bottom)
            };
            // Centred in the margin, kept on the page when the margin is too low for it.
            let y = (top + (room - h) / 2.0).clamp(0.0, (setup.height - h).max(0.0));
            page.shapes.push(Shape::Text(TextBox {
                id: format!("margin-{}-{b}", n + 1),
                frame: Rect::new(setup.margin_left, y, width, h),
                text,
                fill: None,
                stroke: None,
            }));
        }
    }
}
