//! Each kind of shape as SVG, in the model's order (later shapes on top; a group's box, then
//! its label, then its children). Outlines, connector routes and arrowheads come from
//! `quire_sdk::geometry`, the same functions the PDF exporter draws with.

use std::collections::HashMap;

use base64::Engine;
use quire_sdk::geometry::{self, Anchor};
use quire_sdk::shadow::shadows;
use quire_sdk::{
    Color, Connector, Dash, End, Group, Image, LineKind, Node, Page, Point, Rect, Segment, Shape,
    ShapeWalk, Stroke, TextBox,
};

use super::picture::{self, orientation_matrix};
use super::text::{draw_label, draw_text, safe_href};
use super::xml::{num, opacity, path_data, rgb, Tag};
use super::Writer;

/// Everything on a page a connector can be attached to, by id, groups' children included.
pub fn anchors(page: &Page) -> HashMap<&str, Anchor> {
    ShapeWalk::new(&page.shapes)
        .filter_map(|s| geometry::anchor_of(s).map(|a| (s.id(), a)))
        .collect()
}

/// The shadows `siblings` cast, painted before any of them is drawn.
pub fn draw_shadows(w: &mut Writer, siblings: &[Shape]) {
    for s in shadows(siblings) {
        draw_path(w, None, &s.segments, s.fill, s.stroke.as_ref(), s.even_odd);
    }
}

pub fn draw_shape(w: &mut Writer, shape: &Shape, anchors: &HashMap<&str, Anchor>) {
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
    let outline = geometry::outline(n.geometry, n.frame);
    draw_path(w, None, &outline, n.fill, n.stroke.as_ref(), false);
    if let Some(stroke) = &n.stroke {
        let details = geometry::details(n.geometry, n.frame);
        draw_path(w, None, &details, None, Some(stroke), false);
    }
    if let Some(text) = &n.text {
        draw_text(w, text, geometry::text_area(n.geometry, n.frame));
    }
    w.out.push_str("</g>");
}

/// Space between a group's edge and its label.
const GROUP_LABEL_INSET: f64 = 4.0;

fn draw_group(w: &mut Writer, g: &Group, anchors: &HashMap<&str, Anchor>) {
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
        draw_text(w, label, area);
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

/// The stand-in for a picture that could not be read: a light grey box with a cross, as in
/// the PDF.
fn missing_picture(w: &mut Writer, id: &str, r: Rect) {
    let grey = Color::rgb(0xe6, 0xe6, 0xe6);
    let edge = Stroke::solid(Color::rgb(0x99, 0x99, 0x99), 0.75);
    open_group(w, id, None);
    draw_path(w, None, &geometry::rect(r), Some(grey), Some(&edge), false);
    let cross = [
        Segment::MoveTo { x: r.x, y: r.y },
        Segment::LineTo {
            x: r.right(),
            y: r.bottom(),
        },
        Segment::MoveTo {
            x: r.right(),
            y: r.y,
        },
        Segment::LineTo {
            x: r.x,
            y: r.bottom(),
        },
    ];
    draw_path(w, None, &cross, None, Some(&edge), false);
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
    let tip = *points.get(i)?;
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

fn draw_connector(w: &mut Writer, c: &Connector, anchors: &HashMap<&str, Anchor>) {
    if c.line == LineKind::Invisible {
        return;
    }
    let Some(route) = geometry::connector_route(c, |id| anchors.get(id)) else {
        return;
    };
    let stroke = connector_stroke(c);
    let last = route.len() - 1;
    let head_at = |end: &End, i: usize, step: isize| {
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
    let segments: Vec<Segment> = line
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i == 0 {
                Segment::MoveTo { x: p.x, y: p.y }
            } else {
                Segment::LineTo { x: p.x, y: p.y }
            }
        })
        .collect();
    // Round joins and caps: the look of diagram editors, and no miter spikes on the sharp
    // corners of arrowheads.
    Tag::new("g")
        .attr("id", &c.id)
        .attr("stroke-linejoin", "round")
        .attr("stroke-linecap", "round")
        .open(&mut w.out);
    draw_path(w, None, &segments, None, Some(&stroke), false);
    // Heads are always solid: a dashed outline makes an arrowhead unreadable.
    let solid = Stroke {
        dash: Dash::Solid,
        ..stroke
    };
    for head in [start_head, end_head].into_iter().flatten() {
        let fill = head.filled.then_some(stroke.color);
        draw_path(w, None, &head.segments, fill, Some(&solid), false);
    }
    if let (Some(label), Some(mid)) = (&c.label, geometry::polyline_midpoint(&route)) {
        draw_label(w, label, mid, Some(Color::WHITE));
    }
    w.out.push_str("</g>");
}
