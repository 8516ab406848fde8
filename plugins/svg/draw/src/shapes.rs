//! Each kind of shape as SVG, in the model's order (later shapes on top; a group's box, then
//! its label, then its children). What each shape draws (outlines, connector lines and
//! heads, label areas, the missing-picture box) comes from `quire_sdk::drawing`, as for the
//! PDF exporter; this module only writes it as SVG.

use base64::Engine;
use quire_sdk::drawing::{self, Anchors, Painted, LABEL_BACKGROUND};
use quire_sdk::geometry;
use quire_sdk::shadow::shadows;
use quire_sdk::{Color, Connector, Group, Image, Node, Rect, Segment, Shape, Stroke, TextBox};

use super::picture::{self, orientation_matrix};
use super::text::{draw_label, draw_text, safe_href};
use super::xml::{num, opacity, path_data, rgb, Tag};
use super::Writer;

/// The shadows `siblings` cast, painted before any of them is drawn.
pub fn draw_shadows(w: &mut Writer, siblings: &[Shape]) {
    for s in shadows(siblings) {
        draw_path(w, None, &s.segments, s.fill, s.stroke.as_ref(), s.even_odd);
    }
}

pub fn draw_shape(w: &mut Writer, shape: &Shape, anchors: &Anchors) {
    match shape {
        Shape::Text(t) => draw_text_box(w, t),
        Shape::Image(i) => draw_image(w, i),
        Shape::Node(n) => draw_node(w, n),
        Shape::Path(p) => draw_path(
            w,
            Some(&p.id),
            &p.segments,
            p.fill,
            p.stroke.as_ref(),
            p.even_odd,
        ),
        Shape::Connector(c) => draw_connector(w, c, anchors),
        Shape::Group(g) => draw_group(w, g, anchors),
    }
}

/// Whether a stroke paints anything (the PDF exporter skips the same ones).
fn visible(s: &Stroke) -> bool {
    s.width.is_finite() && s.width > 0.0 && s.color.a > 0
}

/// Adds fill and stroke attributes to `tag`.
fn paint(tag: Tag, fill: Option<Color>, stroke: Option<&Stroke>) -> Tag {
    let fill = fill.filter(|c| c.a > 0);
    let mut tag = match fill {
        Some(c) => tag
            .attr("fill", rgb(c))
            .attr_opt("fill-opacity", opacity(c)),
        None => tag.attr("fill", "none"),
    };
    if let Some(s) = stroke.filter(|s| visible(s)) {
        tag = tag
            .attr("stroke", rgb(s.color))
            .attr_opt("stroke-opacity", opacity(s.color))
            .num("stroke-width", s.width);
        if let Some([on, off]) = geometry::dash_pattern(s.dash, s.width) {
            tag = tag.attr("stroke-dasharray", format!("{} {}", num(on), num(off)));
        }
    }
    tag
}

/// A filled and/or stroked path; nothing when it paints nothing.
fn draw_path(
    w: &mut Writer,
    id: Option<&str>,
    segments: &[Segment],
    fill: Option<Color>,
    stroke: Option<&Stroke>,
    even_odd: bool,
) {
    let paints = fill.is_some_and(|c| c.a > 0) || stroke.is_some_and(visible);
    let d = path_data(segments);
    if !paints || d.is_empty() {
        return;
    }
    let tag = Tag::new("path").attr_opt("id", id).attr("d", d);
    paint(tag, fill, stroke)
        .attr_opt("fill-rule", even_odd.then_some("evenodd"))
        .empty(&mut w.out);
}

fn open_group(w: &mut Writer, id: &str, label: Option<String>) {
    Tag::new("g")
        .attr("id", id)
        .attr_opt("aria-label", label.filter(|l| !l.trim().is_empty()))
        .open(&mut w.out);
}

fn draw_text_box(w: &mut Writer, t: &TextBox) {
    open_group(w, &t.id, None);
    draw_path(
        w,
        None,
        &geometry::rect(t.frame),
        t.fill,
        t.stroke.as_ref(),
        false,
    );
    draw_text(w, &t.text, t.frame);
    w.out.push_str("</g>");
}

fn draw_node(w: &mut Writer, n: &Node) {
    open_group(w, &n.id, None);
    let drawn = drawing::node(n);
    paint_path(w, &drawn.outline);
    if let Some(details) = &drawn.details {
        paint_path(w, details);
    }
    if let Some(text) = &n.text {
        draw_text(w, text, drawn.text_area);
    }
    w.out.push_str("</g>");
}

fn paint_path(w: &mut Writer, p: &Painted) {
    draw_path(w, None, &p.segments, p.fill, p.stroke.as_ref(), false);
}

fn draw_group(w: &mut Writer, g: &Group, anchors: &Anchors) {
    open_group(w, &g.id, g.label.as_ref().map(|l| l.plain_text()));
    draw_path(
        w,
        None,
        &geometry::rect(g.frame),
        g.fill,
        g.stroke.as_ref(),
        false,
    );
    if let Some(label) = &g.label {
        draw_text(w, label, drawing::group_label_area(g));
    }
    draw_shadows(w, &g.children);
    for child in &g.children {
        draw_shape(w, child, anchors);
    }
    w.out.push_str("</g>");
}

fn draw_image(w: &mut Writer, img: &Image) {
    let r = img.frame;
    if !(r.w > 0.0 && r.h > 0.0) {
        return;
    }
    let href = img.link.as_deref().and_then(safe_href);
    if let Some(href) = &href {
        Tag::new("a")
            .attr("href", href)
            .attr("xlink:href", href)
            .open(&mut w.out);
    }
    match w.picture(&img.asset) {
        Some((orientation, url)) => {
            let (sw, sh) = if orientation >= 5 {
                (r.h, r.w)
            } else {
                (r.w, r.h)
            };
            let m = orientation_matrix(orientation, r.x, r.y, sw, sh);
            let mut tag = Tag::new("image").attr("id", &img.id);
            tag = if orientation == 1 {
                tag.num("x", r.x).num("y", r.y)
            } else {
                tag.attr("transform", matrix(m))
            };
            tag.num("width", sw)
                .num("height", sh)
                .attr("preserveAspectRatio", "none")
                .attr_opt("aria-label", img.alt.as_deref())
                .attr("href", url)
                .empty(&mut w.out);
        }
        None => missing_picture(w, &img.id, r),
    }
    if href.is_some() {
        w.out.push_str("</a>");
    }
}

fn matrix(m: [f64; 6]) -> String {
    format!(
        "matrix({} {} {} {} {} {})",
        num(m[0]),
        num(m[1]),
        num(m[2]),
        num(m[3]),
        num(m[4]),
        num(m[5])
    )
}

/// The stand-in for a picture that could not be read, as in the PDF.
fn missing_picture(w: &mut Writer, id: &str, r: Rect) {
    open_group(w, id, None);
    for part in &drawing::missing_picture(r) {
        paint_path(w, part);
    }
    w.out.push_str("</g>");
}

/// A `data:` URL for a picture's bytes.
pub fn data_url(p: &picture::Picture) -> String {
    format!(
        "data:{};base64,{}",
        p.media_type,
        base64::engine::general_purpose::STANDARD.encode(&p.bytes)
    )
}

fn draw_connector(w: &mut Writer, c: &Connector, anchors: &Anchors) {
    let Some(drawn) = drawing::connector(c, anchors) else {
        return;
    };
    Tag::new("g")
        .attr("id", &c.id)
        .attr("stroke-linejoin", "round")
        .attr("stroke-linecap", "round")
        .open(&mut w.out);
    paint_path(w, &drawn.line);
    for head in &drawn.heads {
        paint_path(w, head);
    }
    if let Some((label, at)) = drawn.label {
        w.labels.push((c.id.clone(), label.clone(), at));
    }
    w.out.push_str("</g>");
}

/// The links' labels, over every line and shape of the page (as mermaid draws them), so
/// no later link's line runs through an earlier one's words.
pub fn draw_link_labels(w: &mut Writer) {
    for (id, label, at) in std::mem::take(&mut w.labels) {
        Tag::new("g")
            .attr("id", format!("{id}-label"))
            .open(&mut w.out);
        draw_label(w, &label, at, Some(LABEL_BACKGROUND));
        w.out.push_str("</g>\n");
    }
}
