//! Drawing each kind of shape onto a page's canvas, in the model's order (later shapes on
//! top; a group's box, then its label, then its children).

use pdf_writer::Name;
use quire_sdk::drawing::{self, Anchors, Painted, LABEL_BACKGROUND};
use quire_sdk::geometry;
use quire_sdk::shadow::shadows;
use quire_sdk::{Connector, Group, Image, Node, Shape, TextBox};

use super::canvas::{num, Canvas, Link};
use super::picture::placement;
use super::resources::Resources;
use super::text::{draw_label, draw_text};

/// The shadows `siblings` cast, painted before any of them is drawn.
pub fn draw_shadows(canvas: &mut Canvas, siblings: &[Shape]) {
    for s in shadows(siblings) {
        canvas.draw(&s.segments, s.fill, s.stroke.as_ref(), s.even_odd);
    }
}

pub fn draw_shape(canvas: &mut Canvas, shape: &Shape, anchors: &Anchors) {
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
    let drawn = drawing::node(n);
    paint(canvas, &drawn.outline);
    if let Some(details) = &drawn.details {
        paint(canvas, details);
    }
    if let Some(text) = &n.text {
        draw_text(canvas, text, drawn.text_area);
    }
}

fn paint(canvas: &mut Canvas, p: &Painted) {
    canvas.draw(&p.segments, p.fill, p.stroke.as_ref(), false);
}

fn draw_group(canvas: &mut Canvas, g: &Group, anchors: &Anchors) {
    canvas.draw(&geometry::rect(g.frame), g.fill, g.stroke.as_ref(), false);
    if let Some(label) = &g.label {
        draw_text(canvas, label, drawing::group_label_area(g));
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

fn draw_connector(canvas: &mut Canvas, c: &Connector, anchors: &Anchors) {
    let Some(drawn) = drawing::connector(c, anchors) else {
        return;
    };
    canvas.save();
    canvas.round_joins();
    paint(canvas, &drawn.line);
    for head in &drawn.heads {
        paint(canvas, head);
    }
    canvas.restore();
    if let Some((label, at)) = drawn.label {
        canvas.labels.push((label.clone(), at));
    }
}

/// The links' labels, over every line and shape of the page (as mermaid draws them), so
/// no later link's line runs through an earlier one's words.
pub fn draw_link_labels(canvas: &mut Canvas) {
    for (label, at) in std::mem::take(&mut canvas.labels) {
        draw_label(canvas, &label, at, Some(LABEL_BACKGROUND));
    }
}
