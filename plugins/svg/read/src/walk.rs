//! Walking usvg's tree into model shapes: ids, paint, groups, paths, pictures.

use quire_sdk::{
    Asset, Color, ConvertError, Dash, Group, Image, Node, PathShape, Rect, Segment, Shape, Stroke,
};

use super::context::{bbox_frame, paint_colour, Ctx};
use super::detect::{self, Map};
use super::text;

/// Groups nest at most this deep in the model; deeper ones are flattened into their parent
/// (the model allows 64; an SVG nested thousands deep must still import).
const MAX_DEPTH: usize = 32;

/// Walks `group`'s children (drawing order) into `out`, with the opacity inherited from the
/// groups above. Groups with an id become model groups; the others are flattened.
pub fn walk_group(
    ctx: &mut Ctx,
    group: &usvg::Group,
    opacity: f64,
    depth: usize,
) -> Result<Vec<Shape>, ConvertError> {
    let mut out = Vec::new();
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => {
                if g.clip_path().is_some() {
                    ctx.warn("clipping paths were ignored: what they hid is drawn in full");
                }
                if g.mask().is_some() {
                    ctx.warn("masks were ignored");
                }
                if !g.filters().is_empty() {
                    ctx.warn("filter effects (blur, shadows, ...) were left out");
                }
                let alpha = opacity * g.opacity().get() as f64;
                if alpha <= 0.0 {
                    continue;
                }
                let keep = !g.id().trim().is_empty() && depth < MAX_DEPTH;
                let children = walk_group(ctx, g, alpha, depth + usize::from(keep))?;
                if children.is_empty() {
                    continue;
                }
                if keep {
                    out.push(group_of(ctx, g.id(), children)?);
                } else {
                    out.extend(children);
                }
            }
            usvg::Node::Path(p) => {
                if let Some(shape) = path(ctx, p, opacity)? {
                    out.push(shape);
                }
            }
            usvg::Node::Image(i) => {
                if let Some(shape) = image(ctx, i, opacity, depth)? {
                    out.push(shape);
                }
            }
            usvg::Node::Text(t) => out.extend(text::convert(ctx, t, opacity)?),
        }
    }
    Ok(out)
}

/// A model group of `children`, framed by what they draw.
fn group_of(ctx: &mut Ctx, svg_id: &str, children: Vec<Shape>) -> Result<Shape, ConvertError> {
    ctx.count()?;
    let frame = union(&children).unwrap_or_default();
    Ok(Shape::Group(Group::new(ctx.id(svg_id), frame, children)))
}

fn union(shapes: &[Shape]) -> Option<Rect> {
    let mut acc: Option<Rect> = None;
    for s in shapes {
        let r = match s {
            Shape::Path(p) => quire_sdk::geometry::bounds(&p.segments),
            other => other.frame(),
        };
        if let Some(r) = r {
            acc = Some(match acc {
                None => r,
                Some(a) => {
                    let (x0, y0) = (a.x.min(r.x), a.y.min(r.y));
                    let (x1, y1) = (a.right().max(r.right()), a.bottom().max(r.bottom()));
                    Rect::new(x0, y0, x1 - x0, y1 - y0)
                }
            });
        }
    }
    acc
}

fn fill(ctx: &mut Ctx, f: Option<&usvg::Fill>, opacity: f64) -> Option<Color> {
    let f = f?;
    paint_colour(ctx, f.paint(), opacity * f.opacity().get() as f64)
}

fn stroke(ctx: &mut Ctx, s: Option<&usvg::Stroke>, map: &Map, opacity: f64) -> Option<Stroke> {
    let s = s?;
    let color = paint_colour(ctx, s.paint(), opacity * s.opacity().get() as f64)?;
    let width = (s.width().get() as f64 * map.scale()).min(1000.0);
    if !(width.is_finite() && width > 0.0) {
        return None;
    }
    // The model knows three dash styles: short dashes about as long as the line is wide read
    // as dots, longer ones as dashes.
    let dash = match s.dasharray() {
        Some(d) if !d.is_empty() => {
            let on = d[0] as f64 * map.scale();
            if on <= width * 1.5 {
                Dash::Dotted
            } else {
                Dash::Dashed
            }
        }
        _ => Dash::Solid,
    };
    Some(Stroke { color, width, dash })
}

fn path(ctx: &mut Ctx, p: &usvg::Path, opacity: f64) -> Result<Option<Shape>, ConvertError> {
    if !p.is_visible() {
        return Ok(None);
    }
    let map = ctx.map(p.abs_transform());
    let fill_colour = fill(ctx, p.fill(), opacity);
    let stroke = stroke(ctx, p.stroke(), &map, opacity);
    if fill_colour.is_none() && stroke.is_none() {
        return Ok(None);
    }
    let segments = detect::segments(p.data(), &map);
    if segments.is_empty() || !segments.iter().all(finite) {
        return Ok(None);
    }
    ctx.count()?;
    let id = ctx.id(p.id());
    let even_odd = p
        .fill()
        .is_some_and(|f| f.rule() == usvg::FillRule::EvenOdd);
    Ok(Some(match detect::node_shape(&segments) {
        Some((geometry, frame)) => Shape::Node(Node {
            shadow: false,
            id,
            frame,
            geometry,
            fill: fill_colour,
            stroke,
            text: None,
            classes: Vec::new(),
        }),
        None => Shape::Path(PathShape {
            shadow: false,
            id,
            segments,
            fill: fill_colour,
            stroke,
            even_odd,
        }),
    }))
}

fn finite(s: &Segment) -> bool {
    match *s {
        Segment::MoveTo { x, y } | Segment::LineTo { x, y } => x.is_finite() && y.is_finite(),
        Segment::CubicTo {
            x1,
            y1,
            x2,
            y2,
            x,
            y,
        } => [x1, y1, x2, y2, x, y].iter().all(|v| v.is_finite()),
        Segment::Close => true,
    }
}

fn image(
    ctx: &mut Ctx,
    i: &usvg::Image,
    opacity: f64,
    depth: usize,
) -> Result<Option<Shape>, ConvertError> {
    if !i.is_visible() {
        return Ok(None);
    }
    let (bytes, media_type, ext) = match i.kind() {
        usvg::ImageKind::PNG(b) => (b, "image/png", "png"),
        usvg::ImageKind::JPEG(b) => (b, "image/jpeg", "jpg"),
        // A picture that is itself an SVG is a drawing: its shapes are read like the
        // file's own, as one group.
        usvg::ImageKind::SVG(tree) => {
            let outer = ctx.base;
            ctx.base = ctx.map(i.abs_transform()).ts;
            let children = walk_group(ctx, tree.root(), opacity, depth + 1);
            ctx.base = outer;
            let children = children?;
            if children.is_empty() {
                return Ok(None);
            }
            return group_of(ctx, "", children).map(Some);
        }
        // The resolver lets nothing else through.
        _ => return Ok(None),
    };
    let Some(frame) = bbox_frame(ctx, i.abs_bounding_box()) else {
        return Ok(None);
    };
    if !ctx.map(i.abs_transform()).upright() {
        ctx.warn("rotated or skewed pictures were set upright in their bounding box");
    }
    ctx.count()?;
    let id = ctx.id(i.id());
    let asset = format!("svg-image-{}.{ext}", ctx.assets.len() + 1);
    ctx.assets.push(Asset {
        name: asset.clone(),
        media_type: media_type.into(),
        bytes: bytes.as_ref().clone(),
    });
    Ok(Some(Shape::Image(Image {
        id,
        frame,
        asset,
        alt: None,
        link: None,
    })))
}
