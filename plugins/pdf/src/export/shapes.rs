//! Drawing each kind of shape onto a page's canvas, in the model's order (later shapes on
//! top; a group's box, then its label, then its children).

use std::collections::HashMap;

use pdf_writer::Name;
use quire_sdk::geometry::{self, Anchor};
use quire_sdk::shadow::shadows;
use quire_sdk::{
    Color, Connector, Group, Image, LineKind, Node, Page, Point, Rect, Segment, Shape, ShapeWalk,
    Stroke, TextBox,
};

use super::canvas::{num, Canvas, Link};
use super::picture::placement;
use super::resources::Resources;
use super::text::{draw_label, draw_text};

/// Everything on a page a connector can be attached to, by id. Built once per page from the
/// shapes' current frames, groups' children included. A connector attached to a shape on
/// another page finds nothing here and falls back to its end's point.
pub fn anchors(page: &Page) -> HashMap<&str, Anchor> {
    ShapeWalk::new(&page.shapes)
        .filter_map(|s| geometry::anchor_of(s).map(|a| (s.id(), a)))
        .collect()
}

/// The shadows `siblings` cast, painted before any of them is drawn.
pub fn draw_shadows(canvas: &mut Canvas, siblings: &[Shape]) {
    for s in shadows(siblings) {
        canvas.draw(&s.segments, s.fill, s.stroke.as_ref(), s.even_odd);
    }
}

pub fn draw_shape(canvas: &mut Canvas, shape: &Shape, anchors: &HashMap<&str, Anchor>) {
    match shape {
        Shape::Text(t) => draw_text_box(canvas, t),
        Shape::Image(i) => draw_image(canvas, i),
        Shape::Node(n) => draw_node(canvas, n),
        Shape::Path(p) => canvas.draw(&p.segments, p.fill, p.stroke.as_ref(), p.even_odd),
        Shape::Connector(c) => draw_connector(canvas, c, anchors),
        Shape::Group(g) => draw_group(canvas, g, anchors),
    }
}

fn draw_text_box(canvas: &mut Canvas, t: &TextBox) {
    canvas.draw(&geometry::rect(t.frame), t.fill, t.stroke.as_ref(), false);
    draw_text(canvas, &t.text, t.frame);
}

fn draw_node(canvas: &mut Canvas, n: &Node) {
    canvas.draw(
        &geometry::outline(n.geometry, n.frame),
        n.fill,
        n.stroke.as_ref(),
        false,
    );
    if let Some(stroke) = &n.stroke {
        let details = geometry::details(n.geometry, n.frame);
        canvas.draw(&details, None, Some(stroke), false);
    }
    if let Some(text) = &n.text {
        draw_text(canvas, text, geometry::text_area(n.geometry, n.frame));
    }
}

/// Space between a group's edge and its label.
const GROUP_LABEL_INSET: f64 = 4.0;

fn draw_group(canvas: &mut Canvas, g: &Group, anchors: &HashMap<&str, Anchor>) {
    canvas.draw(&geometry::rect(g.frame), g.fill, g.stroke.as_ref(), false);
    if let Some(label) = &g.label {
        let i = GROUP_LABEL_INSET
            .min(g.frame.w / 4.0)
            .min(g.frame.h / 4.0)
            .max(0.0);
        let area = Rect::new(
            g.frame.x + i,
            g.frame.y + i,
            g.frame.w - 2.0 * i,
            g.frame.h - 2.0 * i,
        );
        draw_text(canvas, label, area);
    }
    draw_shadows(canvas, &g.children);
    for child in &g.children {
        draw_shape(canvas, child, anchors);
    }
}

fn draw_image(canvas: &mut Canvas, img: &Image) {
    let r = img.frame;
    if !(r.w > 0.0 && r.h > 0.0) {
        return;
    }
    match canvas.res.image(&img.asset) {
        Some(placed) => {
            canvas.used.images.insert(placed.index);
            let frame = [r.x, canvas.page_y(r.bottom()), r.w, r.h];
            let m = placement(placed.orientation, frame);
            canvas.save();
            canvas.content.transform(m.map(num));
            canvas
                .content
                .x_object(Name(Resources::image_name(placed.index).as_bytes()));
            canvas.restore();
        }
        None => canvas.missing_picture(r),
    }
    if let Some(link) = img.link.as_ref().filter(|l| !l.trim().is_empty()) {
        let rect = canvas.pdf_rect(r);
        canvas.links.push(Link {
            rect,
            target: link.clone(),
        });
    }
}

/// The stroke a connector is drawn with: its own, or a thin black line.
fn connector_stroke(c: &Connector) -> Stroke {
    let mut s = c.stroke.unwrap_or(Stroke::solid(Color::BLACK, 1.0));
    if c.line == LineKind::Thick {
        s.width = (s.width * 2.0).max(2.0);
    }
    s
}

/// The point before `points[i]` walking away from it in direction `step`, skipping points on
/// top of it, so an arrowhead has a direction even when waypoints repeat.
fn previous_distinct(points: &[Point], i: usize, step: isize) -> Option<Point> {
    let tip = points[i];
    let mut j = i as isize + step;
    while j >= 0 && (j as usize) < points.len() {
        let p = points[j as usize];
        if (p.x - tip.x).hypot(p.y - tip.y) > 1e-9 {
            return Some(p);
        }
        j += step;
    }
    None
}

fn draw_connector(canvas: &mut Canvas, c: &Connector, anchors: &HashMap<&str, Anchor>) {
    if c.line == LineKind::Invisible {
        return;
    }
    let Some(route) = geometry::connector_route(c, |id| anchors.get(id)) else {
        return;
    };
    let stroke = connector_stroke(c);
    let last = route.len() - 1;
    let head_at = |end: &quire_sdk::End, i: usize, step: isize| {
        let from = previous_distinct(&route, i, step)?;
        geometry::arrow_head(end.head, route[i], from, stroke.width)
    };
    let start_head = head_at(&c.from, 0, 1);
    let end_head = head_at(&c.to, last, -1);

    let mut line = route.clone();
    if let Some(h) = &start_head {
        line[0] = h.line_end;
    }
    if let Some(h) = &end_head {
        line[last] = h.line_end;
    }
    let mut segments = Vec::with_capacity(line.len());
    for (i, p) in line.iter().enumerate() {
        segments.push(if i == 0 {
            Segment::MoveTo { x: p.x, y: p.y }
        } else {
            Segment::LineTo { x: p.x, y: p.y }
        });
    }
    canvas.save();
    canvas.round_joins();
    canvas.draw(&segments, None, Some(&stroke), false);
    // Heads are always solid: a dashed outline makes an arrowhead unreadable.
    let solid = Stroke {
        dash: quire_sdk::Dash::Solid,
        ..stroke
    };
    for head in [start_head, end_head].into_iter().flatten() {
        let fill = head.filled.then_some(stroke.color);
        canvas.draw(&head.segments, fill, Some(&solid), false);
    }
    canvas.restore();

    if let (Some(label), Some(mid)) = (&c.label, geometry::polyline_midpoint(&route)) {
        draw_label(canvas, label, mid, Some(Color::WHITE));
    }
}
