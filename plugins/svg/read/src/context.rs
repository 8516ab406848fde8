//! The state of one import, and what both the shape walk and the text reader ask of it:
//! where a box lands on the page, and a paint as one colour.

use std::collections::{BTreeSet, HashSet};

use quire_sdk::{Asset, Color, ConvertError, Rect};

use super::detect::Map;

/// The state of one import.
pub struct Ctx {
    /// Pixels (after usvg's transforms) to points.
    pub scale: f64,
    /// The transform of the embedded SVG picture being walked (identity outside one): usvg
    /// gives a picture's own tree transforms relative to that picture.
    pub(super) base: usvg::Transform,
    ids: HashSet<String>,
    next_id: usize,
    count: usize,
    pub(super) assets: Vec<Asset>,
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
