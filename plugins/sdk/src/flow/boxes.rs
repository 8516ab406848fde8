//! Boxes: blocks set on a background and inside borders, with padding and a width of their
//! own. A box cut by a page break is filled to the foot of the page and goes on at the top
//! of the next, as a browser slices it: its top border on its first part, its bottom border
//! on its last.

use super::engine::{Ctx, Engine, EPS};
use super::{Block, Border, Borders, BoxLook, Insets};
use crate::model::*;

/// The narrowest a box's content gets: padding and borders give way first.
const MIN_INSIDE: f64 = 36.0;

/// A box whose blocks are being placed.
pub(super) struct OpenBox {
    look: BoxLook,
    x: f64,
    width: f64,
    /// Where its part on this page starts.
    start: f64,
    /// The shapes this page held when its part started: its background goes under the rest.
    index: usize,
    /// Whether this part is its first, which has the top border.
    first: bool,
}

/// Where a box stands in the room `ctx` gives it.
struct Placement {
    look: BoxLook,
    x: f64,
    width: f64,
    /// The room its blocks get.
    inner: Ctx,
    /// Border and padding above and below its blocks.
    above: f64,
    below: f64,
}

fn line(side: Option<Border>) -> f64 {
    side.map_or(0.0, |l| l.width)
}

/// The box `look` asks for in `ctx`: numbers that could not make a page (negative,
/// not finite) are none, margins take at most a quarter of the room each, and padding and
/// borders shrink together so that the blocks keep some width.
fn placement(look: &BoxLook, ctx: Ctx) -> Placement {
    let clean = |v: f64, most: f64| {
        if v.is_finite() {
            v.clamp(0.0, most)
        } else {
            0.0
        }
    };
    let mut look = *look;
    let quarter = ctx.width / 4.0;
    let m = look.margin;
    look.margin = Insets {
        top: clean(m.top, 200.0),
        right: clean(m.right, quarter),
        bottom: clean(m.bottom, 200.0),
        left: clean(m.left, quarter),
    };
    // The margins leave the box at least what its blocks need, where there is that much.
    let room = (ctx.width - look.margin.left - look.margin.right).max(MIN_INSIDE.min(ctx.width));
    let overflow = (look.margin.left + look.margin.right + room - ctx.width).max(0.0);
    look.margin.left = (look.margin.left - overflow).max(0.0);
    let asked = |e: Option<super::Extent>| e.and_then(|e| e.of(ctx.width));
    let mut width = asked(look.width).map_or(room, |w| w.min(room));
    if let Some(most) = asked(look.max_width) {
        width = width.min(most);
    }
    let p = look.padding;
    look.padding = Insets {
        top: clean(p.top, 200.0),
        right: clean(p.right, 200.0),
        bottom: clean(p.bottom, 200.0),
        left: clean(p.left, 200.0),
    };
    let b = look.borders;
    let inside = look.padding.left + look.padding.right + line(b.left) + line(b.right);
    let most = (width - MIN_INSIDE.min(width)).max(0.0);
    if inside > most {
        let k = most / inside;
        let p = &mut look.padding;
        (p.left, p.right) = (p.left * k, p.right * k);
        for l in [&mut look.borders.left, &mut look.borders.right]
            .into_iter()
            .flatten()
        {
            l.width *= k;
        }
    }
    let (b, p) = (look.borders, look.padding);
    let x = ctx.x
        + look.margin.left
        + if look.centred {
            (room - width) / 2.0
        } else {
            0.0
        };
    let inner = Ctx {
        x: x + line(b.left) + p.left,
        width: (width - line(b.left) - line(b.right) - p.left - p.right).max(1.0),
        depth: ctx.depth + 1,
        ..ctx
    };
    Placement {
        look,
        x,
        width,
        inner,
        above: line(b.top) + p.top,
        below: line(b.bottom) + p.bottom,
    }
}

impl Engine<'_> {
    /// The room a box's blocks get in `ctx`, and the border and padding above them.
    pub(super) fn box_inside(&self, look: &BoxLook, ctx: Ctx) -> (Ctx, f64) {
        if ctx.depth >= super::MAX_DEPTH {
            return (ctx, 0.0);
        }
        let g = placement(look, ctx);
        (g.inner, g.above)
    }

    pub(super) fn boxed(&mut self, blocks: &[Block], look: &BoxLook, ctx: Ctx) {
        if ctx.depth >= super::MAX_DEPTH {
            // Deeper boxes are laid out as their blocks, so text keeps a usable width.
            return self.blocks(blocks, ctx);
        }
        let g = placement(look, ctx);
        self.space(g.look.margin.top);
        if let Some(first) = blocks.first() {
            let h = g.above + self.first_chunk(first, g.inner);
            self.ensure(h.min(self.content_height()));
        }
        let start = self.start_block();
        self.boxes.push(OpenBox {
            look: g.look,
            x: g.x,
            width: g.width,
            start,
            index: self.placed(),
            first: true,
        });
        // Top border and padding take at most a quarter of what is left of the page above
        // its last inch, so that boxes in boxes still leave their blocks room.
        let spare = (self.bottom() - start - 72.0).max(0.0);
        self.y = start + g.above.min(spare / 4.0);
        self.blocks(blocks, g.inner);
        let bottom = (self.y + g.below).min(self.bottom().max(self.y));
        if let Some(open) = self.boxes.pop() {
            self.draw_box_part(&open, bottom, true);
        }
        self.y = bottom;
        self.fresh = false;
        self.space(g.look.margin.bottom);
    }

    /// Ends the part of every open box on this page at its foot (innermost first, so an
    /// outer background goes under an inner one); their next parts start at the top of
    /// the next page.
    pub(super) fn cut_boxes(&mut self) {
        let open = std::mem::take(&mut self.boxes);
        let bottom = self.bottom();
        for b in open.iter().rev() {
            self.draw_box_part(b, bottom, false);
        }
        let top = self.top();
        self.boxes = open
            .into_iter()
            .map(|b| OpenBox {
                start: top,
                index: 0,
                first: false,
                ..b
            })
            .collect();
    }

    fn draw_box_part(&mut self, part: &OpenBox, bottom: f64, last: bool) {
        let h = bottom - part.start;
        if h <= EPS {
            return;
        }
        let rect = Rect::new(part.x, part.start, part.width, h);
        if let Some(fill) = part.look.background.filter(|c| c.a > 0) {
            let id = self.id("n");
            self.insert_under(
                part.index,
                Shape::Node(Node {
                    shadow: false,
                    id,
                    frame: rect,
                    geometry: Geometry::Rect,
                    fill: Some(fill),
                    stroke: None,
                    text: None,
                    classes: Vec::new(),
                }),
            );
        }
        let b = part.look.borders;
        let borders = Borders {
            top: b.top.filter(|_| part.first),
            bottom: b.bottom.filter(|_| last),
            ..b
        };
        // The lines lie inside the box: each is centred half its width in from the edge.
        let inset = Rect::new(
            rect.x + line(borders.left) / 2.0,
            rect.y + line(borders.top) / 2.0,
            rect.w - (line(borders.left) + line(borders.right)) / 2.0,
            rect.h - (line(borders.top) + line(borders.bottom)) / 2.0,
        );
        for shape in self.border_shapes(inset, &borders) {
            self.push_decoration(shape);
        }
    }
}

#[cfg(test)]
mod tests;
