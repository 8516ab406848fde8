//! Walking usvg's tree into model shapes: ids, paint, groups, paths, pictures.

use std::collections::{BTreeSet, HashSet};

use quire_sdk::{
    Asset, Color, ConvertError, Dash, Group, Image, Node, PathShape, Rect, Segment, Shape, Stroke,
};

use super::detect::{self, Map};
use super::text;

/// Groups nest at most this deep in the model; deeper ones are flattened into their parent
/// (the model allows 64; an SVG nested thousands deep must still import).
const MAX_DEPTH: usize = 32;

/// The state of one import.
pub struct Ctx {
    /// Pixels (after usvg's transforms) to points.
    pub scale: f64,
    /// The transform of the embedded SVG picture being walked (identity outside one): usvg
    /// gives a picture's own tree transforms relative to that picture.
    base: usvg::Transform,
    ids: HashSet<String>,
    next_id: usize,
    count: usize,
    assets: Vec<Asset>,
    warnings: BTreeSet<String>,
}

impl Ctx {
    pub fn new(scale: f64) -> Self {
        Ctx {
            scale,
            base: usvg::Transform::default(),
            ids: HashSet::new(),
            next_id: 1,
            count: 0,
            assets: Vec::new(),
            warnings: BTreeSet::new(),
        }
    }

    /// Notes something lossy, once per distinct sentence.
    pub fn warn(&mut self, s: impl Into<String>) {
        self.warnings.insert(s.into());
    }

    /// A unique shape id: the SVG element's own when it has a free one, so ids survive a
    /// round trip, otherwise `svg-N`.
    pub fn id(&mut self, svg_id: &str) -> String {
        let own = svg_id.trim();
        if !own.is_empty() && self.ids.insert(own.to_string()) {
            return own.to_string();
        }
        loop {
            let id = format!("svg-{}", self.next_id);
            self.next_id += 1;
            if self.ids.insert(id.clone()) {
                return id;
            }
        }
    }

    /// Counts one more shape, refusing documents with too many.
    pub fn count(&mut self) -> Result<(), ConvertError> {
        self.count += 1;
        if self.count > super::MAX_SHAPES {
            return Err(ConvertError::TooLarge(format!(
                "the SVG draws more than {} shapes",
                super::MAX_SHAPES
            )));
        }
        Ok(())
    }

    pub fn map(&self, ts: usvg::Transform) -> Map {
        Map {
            ts: self.base.pre_concat(ts),
            k: self.scale,
        }
    }

    /// The pictures and warnings collected along the way.
    pub fn finish(self) -> (Vec<Asset>, Vec<String>) {
        (self.assets, self.warnings.into_iter().collect())
    }
}

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

/// usvg's absolute bounding box (pixels) as a model frame in points: the box around its
/// corners, so a turned picture still gets the box it covers.
pub fn bbox_frame(ctx: &Ctx, r: usvg::Rect) -> Option<Rect> {
    let map = ctx.map(usvg::Transform::default());
    let corners = [
        map.point(r.left(), r.top()),
        map.point(r.right(), r.top()),
        map.point(r.right(), r.bottom()),
        map.point(r.left(), r.bottom()),
    ];
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in corners {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    let f = Rect::new(x0, y0, x1 - x0, y1 - y0);
    [f.x, f.y, f.w, f.h]
        .iter()
        .all(|v| v.is_finite())
        .then_some(f)
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

/// A paint as one colour: gradients by their first stop, patterns by the colour of their
/// first shape (none for a translucent texture).
pub fn paint_colour(ctx: &mut Ctx, paint: &usvg::Paint, opacity: f64) -> Option<Color> {
    let (c, stop_opacity) = match paint {
        usvg::Paint::Color(c) => (*c, 1.0),
        usvg::Paint::LinearGradient(g) => {
            ctx.warn("gradients were replaced by their first colour");
            let s = g.stops().first()?;
            (s.color(), s.opacity().get() as f64)
        }
        usvg::Paint::RadialGradient(g) => {
            ctx.warn("gradients were replaced by their first colour");
            let s = g.stops().first()?;
            (s.color(), s.opacity().get() as f64)
        }
        usvg::Paint::Pattern(p) => {
            ctx.warn("pattern fills were replaced by the colour of their first shape");
            let (c, a) = first_fill(p.root())?;
            // A translucent texture over what lies beneath (a sketch's streaks, a light
            // hatching) tints it a little: an opaque colour would hide it, text included.
            if a <= 0.5 {
                return None;
            }
            (c, a)
        }
    };
    let a = (opacity * stop_opacity).clamp(0.0, 1.0);
    (a > 0.0).then(|| Color {
        r: c.red,
        g: c.green,
        b: c.blue,
        a: (a * 255.0).round() as u8,
    })
}

/// The plain colour and opacity of the first filled shape of a pattern's tile.
fn first_fill(group: &usvg::Group) -> Option<(usvg::Color, f64)> {
    group.children().iter().find_map(|node| match node {
        usvg::Node::Path(path) => match path.fill().map(|f| (f.paint(), f.opacity().get())) {
            Some((usvg::Paint::Color(c), opacity)) => Some((*c, f64::from(opacity))),
            _ => None,
        },
        usvg::Node::Group(g) => {
            first_fill(g).map(|(c, opacity)| (c, opacity * f64::from(g.opacity().get())))
        }
        _ => None,
    })
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
