//! The hayro [`Device`] that collects what a page draws: glyphs with their text, position,
//! size, face and colour; filled and stroked paths; pictures.
//!
//! Coordinates arrive already in model space (points, origin top left, y down), because the
//! interpretation starts from a transform that flips the page. Clipping is not kept: the
//! model has none, so a clipped drawing shows whole. Everything collected is bounded by
//! [`Budget`] so a page of millions of operators costs bounded memory.

use hayro_interpret::font::{Glyph, GlyphRun};
use hayro_interpret::kurbo::{Affine, BezPath, PathEl, Point};
use hayro_interpret::{
    BlendMode, CacheKey, ClipPath, Device, DrawMode, DrawProps, Image, ImageDrawProps, Paint,
    SoftMask,
};
use quire_sdk::metrics::FontFace;
use quire_sdk::{Color, Dash, Image as ImageShape, PathShape, Segment, Shape, Stroke};

use super::fonts::{self, FontIndex, FontTraits, Sample};
use super::images::{self, AssetStore, ImageKey, Orientation, Pixels};

/// What one page may collect.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub glyphs: usize,
    pub items: usize,
    pub segments: usize,
}

/// A glyph placed on the page, upright.
#[derive(Debug, Clone)]
pub struct PlacedGlyph {
    pub text: String,
    /// Left end of the glyph on its baseline.
    pub x: f64,
    /// Where the next glyph would start without extra spacing.
    pub end: f64,
    pub baseline: f64,
    pub size: f64,
    pub face: FontFace,
    pub color: Color,
}

/// Things the page lost or changed, counted for the warnings.
#[derive(Debug, Default, Clone, Copy)]
pub struct Notes {
    pub no_unicode: usize,
    pub rotated_glyphs: usize,
    pub dropped_glyphs: usize,
    pub patterns: usize,
    pub skewed_images: usize,
    pub unreadable_images: usize,
    pub images_over_budget: usize,
    pub dropped_items: usize,
}

impl Notes {
    pub fn add(&mut self, other: &Notes) {
        self.no_unicode += other.no_unicode;
        self.rotated_glyphs += other.rotated_glyphs;
        self.dropped_glyphs += other.dropped_glyphs;
        self.patterns += other.patterns;
        self.skewed_images += other.skewed_images;
        self.unreadable_images += other.unreadable_images;
        self.images_over_budget += other.images_over_budget;
        self.dropped_items += other.dropped_items;
    }
}

pub struct Collector<'s> {
    fonts: FontIndex,
    store: &'s mut AssetStore,
    budget: Budget,
    pub glyphs: Vec<PlacedGlyph>,
    /// Paths and pictures in painting order; ids are given later.
    pub items: Vec<Shape>,
    pub notes: Notes,
    segments: usize,
    opacity: Vec<f32>,
    /// The last filled glyph run (count, first glyph's transform), so the stroke pass of
    /// fill-and-stroke text is not collected twice.
    last_fill: Option<(usize, [f64; 6])>,
}

impl<'s> Collector<'s> {
    pub fn new(fonts: FontIndex, store: &'s mut AssetStore, budget: Budget) -> Self {
        Collector {
            fonts,
            store,
            budget,
            glyphs: Vec::new(),
            items: Vec::new(),
            notes: Notes::default(),
            segments: 0,
            opacity: Vec::new(),
            last_fill: None,
        }
    }

    fn opacity(&self) -> f32 {
        self.opacity.iter().product()
    }

    fn color_of(&mut self, paint: &Paint<'_>) -> Color {
        let opacity = self.opacity();
        match paint {
            Paint::Color(c) => {
                let [r, g, b, a] = c.to_rgba().to_rgba8();
                Color {
                    r,
                    g,
                    b,
                    a: (f32::from(a) * opacity).round() as u8,
                }
            }
            Paint::Pattern(_) => {
                // Gradients and tilings have no model equivalent: a mid grey keeps the
                // area visible without pretending to know its colours.
                self.notes.patterns += 1;
                Color {
                    r: 160,
                    g: 160,
                    b: 160,
                    a: (255.0 * opacity).round() as u8,
                }
            }
        }
    }

    fn push_item(&mut self, shape: Shape) {
        if self.items.len() >= self.budget.items {
            self.notes.dropped_items += 1;
            return;
        }
        self.items.push(shape);
    }

    /// `path` under `transform` as model segments, within the page's segment budget.
    fn segments(&mut self, path: &BezPath, transform: Affine) -> Option<Vec<Segment>> {
        let out = to_segments(path, transform)?;
        if self.segments + out.len() > self.budget.segments {
            self.notes.dropped_items += 1;
            return None;
        }
        self.segments += out.len();
        Some(out)
    }

    fn face_of_run(&mut self, run: &GlyphRun<'_, '_>) -> FontFace {
        let first = run.glyphs().first();
        if let Some(Glyph::Outline(g)) = first.map(|g| &**g) {
            if let Some(data) = g.font_data() {
                if data.postscript_name.is_some() {
                    return fonts::face_for(&FontTraits {
                        name: data.postscript_name.as_deref(),
                        weight: data.weight,
                        italic_angle: data.is_italic.then_some(-12.0),
                        serif: Some(data.is_serif),
                        monospace: Some(data.is_monospace),
                        ..FontTraits::default()
                    });
                }
            }
        }
        let samples: Vec<Sample> = run
            .glyphs()
            .iter()
            .filter_map(|g| {
                let advance = advance_of(g)?;
                let ch = match g.as_unicode() {
                    Some(hayro_interpret::hayro_cmap::BfString::Char(c)) => Some(c),
                    _ => None,
                };
                Some(Sample {
                    code: g.char_code(),
                    advance,
                    ch,
                })
            })
            .collect();
        let (mut face, slant_unsure) = match self.fonts.match_widths(&samples) {
            Some(found) => found,
            // Widths alone never tell an oblique cut from its upright one.
            None => (
                fonts::closest_by_metrics(&samples).unwrap_or(FontFace::new(
                    quire_sdk::FontFamily::Helvetica,
                    false,
                    false,
                )),
                true,
            ),
        };
        if slant_unsure {
            if let Some(italic) = slanted(run) {
                face.italic = italic;
            }
        }
        face
    }
}

/// Whether a run's glyphs lean like italic or oblique type, from their outlines: leaning
/// letters get narrower when sheared back upright, upright ones get wider. `None` when the
/// glyphs do not say (round letters, no outlines).
fn slanted(run: &GlyphRun<'_, '_>) -> Option<bool> {
    // Italic angles are mostly 9 to 15 degrees; 12 tells both apart.
    const SHEAR: f64 = 0.2126;
    let (mut lean, mut upright) = (0, 0);
    for g in run.glyphs().iter().take(12) {
        let Glyph::Outline(o) = &**g else { continue };
        let outline = o.outline();
        let mut plain = (f64::MAX, f64::MIN);
        let mut sheared = (f64::MAX, f64::MIN);
        for el in outline.elements() {
            let p = match *el {
                PathEl::MoveTo(p) | PathEl::LineTo(p) => p,
                PathEl::QuadTo(_, p) | PathEl::CurveTo(_, _, p) => p,
                PathEl::ClosePath => continue,
            };
            let s = p.x - SHEAR * p.y;
            plain = (plain.0.min(p.x), plain.1.max(p.x));
            sheared = (sheared.0.min(s), sheared.1.max(s));
        }
        let (wp, ws) = (plain.1 - plain.0, sheared.1 - sheared.0);
        if !(wp.is_finite() && ws.is_finite()) || wp <= 0.0 {
            continue;
        }
        if ws < wp * 0.95 {
            lean += 1;
        } else if wp < ws * 0.95 {
            upright += 1;
        }
    }
    (lean != upright).then_some(lean > upright)
}

/// Typographic ligatures as their letters: the standard fonts have no ligature glyphs, and
/// `office` should be found by searching for "office".
/// Whether `c` is a compatibility form readers spell out (NFKC): ligatures (`ﬁ`), the
/// Hebrew and Arabic presentation forms (joined letters, `ﻻ`) and the CJK radicals. Writers
/// that build `/ToUnicode` from a font's cmap name them for the glyphs a shaper picked
/// (Chromium's Skia: `ﻟ` for an initial lam, `⼈` for `人`, since one glyph serves both
/// code points), and poppler's pdftotext normalises them back; so does this importer, or the
/// text would be stored as look-alikes no one can search for, edit or lay out again.
fn is_compatibility_form(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x2FDF | 0xFB00..=0xFDFF | 0xFE70..=0xFEFE)
}

/// `text` with its compatibility forms spelled out (see [`is_compatibility_form`]).
fn unligature(text: String) -> String {
    use unicode_normalization::char::decompose_compatible;
    if !text.chars().any(is_compatibility_form) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        if is_compatibility_form(c) {
            decompose_compatible(c, |d| out.push(d));
        } else {
            out.push(c);
        }
    }
    // Decomposition splits e.g. a letter with a mark into two; composing again gives
    // the characters a keyboard types.
    unicode_normalization::UnicodeNormalization::nfc(out.as_str()).collect()
}

fn advance_of(g: &Glyph<'_>) -> Option<f32> {
    let a = match g {
        Glyph::Outline(o) => o.advance_width(),
        Glyph::Type3(t) => t.advance_width(),
    }?;
    (a.is_finite() && a >= 0.0).then_some(a)
}

/// Model segments of `path` mapped by `t`; `None` for an empty path or one with a
/// coordinate that is not a number.
pub fn to_segments(path: &BezPath, t: Affine) -> Option<Vec<Segment>> {
    let mut out = Vec::with_capacity(path.elements().len());
    let mut last = Point::ZERO;
    let mut open = false;
    for el in path.elements() {
        match *el {
            PathEl::MoveTo(p) => {
                let p = t * p;
                out.push(Segment::MoveTo { x: p.x, y: p.y });
                last = p;
                open = true;
            }
            PathEl::LineTo(p) => {
                let p = t * p;
                if !open {
                    out.push(Segment::MoveTo {
                        x: last.x,
                        y: last.y,
                    });
                    open = true;
                }
                out.push(Segment::LineTo { x: p.x, y: p.y });
                last = p;
            }
            PathEl::QuadTo(c, p) => {
                let (c, p) = (t * c, t * p);
                if !open {
                    out.push(Segment::MoveTo {
                        x: last.x,
                        y: last.y,
                    });
                    open = true;
                }
                // A quadratic is the cubic with controls two thirds of the way to its own.
                let c1 = last + (c - last) * (2.0 / 3.0);
                let c2 = p + (c - p) * (2.0 / 3.0);
                out.push(Segment::CubicTo {
                    x1: c1.x,
                    y1: c1.y,
                    x2: c2.x,
                    y2: c2.y,
                    x: p.x,
                    y: p.y,
                });
                last = p;
            }
            PathEl::CurveTo(c1, c2, p) => {
                let (c1, c2, p) = (t * c1, t * c2, t * p);
                if !open {
                    out.push(Segment::MoveTo {
                        x: last.x,
                        y: last.y,
                    });
                    open = true;
                }
                out.push(Segment::CubicTo {
                    x1: c1.x,
                    y1: c1.y,
                    x2: c2.x,
                    y2: c2.y,
                    x: p.x,
                    y: p.y,
                });
                last = p;
            }
            PathEl::ClosePath => {
                if open {
                    out.push(Segment::Close);
                }
            }
        }
    }
    let finite = out.iter().all(|s| match *s {
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
    });
    (finite && out.len() > 1).then_some(out)
}

/// How much a transform scales lengths (the square root of its area scale).
fn scale_of(t: Affine) -> f64 {
    t.determinant().abs().sqrt()
}

fn stroke_of(props: &hayro_interpret::StrokeProps, t: Affine, color: Color) -> Stroke {
    let width = (f64::from(props.line_width) * scale_of(t)).clamp(0.0, 1000.0);
    let dash = match props.dash_array.iter().copied().find(|d| *d > 0.0) {
        None => Dash::Solid,
        Some(on) if f64::from(on) * scale_of(t) <= width.max(1.0) * 1.5 => Dash::Dotted,
        Some(_) => Dash::Dashed,
    };
    Stroke { color, width, dash }
}

impl<'a> Device<'a> for Collector<'_> {
    fn draw_path(&mut self, path: &BezPath, props: DrawProps<'a>, draw_mode: &DrawMode) {
        let mut color = self.color_of(&props.paint);
        if matches!(
            props.blend_mode,
            BlendMode::Multiply | BlendMode::Darken | BlendMode::ColorBurn
        ) {
            // A highlighter (multiply) darkens what lies under it instead of hiding it; the
            // model has no blend modes, and half opacity keeps the content under it legible.
            color.a /= 2;
        }
        let (fill, stroke, even_odd) = match draw_mode {
            DrawMode::Fill(rule) => (
                Some(color),
                None,
                matches!(rule, hayro_interpret::FillRule::EvenOdd),
            ),
            DrawMode::Stroke(s) => (None, Some(stroke_of(s, props.transform, color)), false),
            DrawMode::FillAndStroke(rule, s) => (
                Some(color),
                Some(stroke_of(s, props.transform, color)),
                matches!(rule, hayro_interpret::FillRule::EvenOdd),
            ),
            DrawMode::Invisible => return,
        };
        if fill.is_some_and(|c| c.a == 0) && stroke.is_none() {
            return;
        }
        if self.items.len() >= self.budget.items {
            self.notes.dropped_items += 1;
            return;
        }
        let Some(segments) = self.segments(path, props.transform) else {
            return;
        };
        self.push_item(Shape::Path(PathShape {
            shadow: false,
            id: String::new(),
            segments,
            fill,
            stroke,
            even_odd,
        }));
    }

    fn push_clip_path(&mut self, _: &ClipPath) {}

    fn push_transparency_group(&mut self, opacity: f32, _: Option<SoftMask<'a>>, _: BlendMode) {
        self.opacity.push(if opacity.is_finite() {
            opacity.clamp(0.0, 1.0)
        } else {
            1.0
        });
    }

    fn draw_glyph_run(&mut self, run: &GlyphRun<'_, 'a>, props: DrawProps<'a>, mode: &DrawMode) {
        let Some(first) = run.glyphs().first() else {
            return;
        };
        let signature = (
            run.glyphs().len(),
            (props.transform * first.transform()).as_coeffs(),
        );
        let invisible = match mode {
            DrawMode::Fill(_) | DrawMode::FillAndStroke(..) => {
                self.last_fill = Some(signature);
                false
            }
            DrawMode::Stroke(_) => {
                if self.last_fill == Some(signature) {
                    return;
                }
                false
            }
            DrawMode::Invisible => true,
        };
        let mut color = self.color_of(&props.paint);
        if invisible {
            // Hidden text (the OCR layer of a scan) stays searchable but is not drawn.
            color.a = 0;
        }
        let face = self.face_of_run(run);
        let mut outline = BezPath::new();
        for g in run.glyphs() {
            let t = props.transform * g.transform();
            let [a, b, c, d, e, f] = t.as_coeffs();
            let upright = a > 0.0 && d < 0.0 && b.abs() <= 1e-3 * a && c.abs() <= 1e-3 * -d;
            if !upright {
                self.notes.rotated_glyphs += 1;
                // Turned text cannot be a text box; drawn as outlines it at least looks right.
                if let (Glyph::Outline(o), false) = (&**g, invisible) {
                    outline.extend(t * o.outline());
                }
                continue;
            }
            let Some(text) = g.as_unicode().map(|u| match u {
                hayro_interpret::hayro_cmap::BfString::Char(c) => unligature(c.to_string()),
                hayro_interpret::hayro_cmap::BfString::String(s) => unligature(s),
            }) else {
                self.notes.no_unicode += 1;
                continue;
            };
            if text.chars().all(|c| c.is_whitespace() || c.is_control()) {
                // Spaces come back from the gaps between words.
                continue;
            }
            let size = (c * c + d * d).sqrt() * 1000.0;
            if !(size.is_finite() && e.is_finite() && f.is_finite()) || size < 0.5 {
                continue;
            }
            let size = size.min(quire_sdk::validate::MAX_FONT_SIZE);
            let advance = advance_of(g)
                .map(f64::from)
                .filter(|w| *w > 0.0 && *w < 5000.0)
                .unwrap_or_else(|| text.chars().map(|ch| face.char_width(ch)).sum());
            let end = (t * Point::new(advance, 0.0)).x;
            if self.glyphs.len() >= self.budget.glyphs {
                self.notes.dropped_glyphs += 1;
                continue;
            }
            self.glyphs.push(PlacedGlyph {
                text,
                x: e,
                end: end.max(e),
                baseline: f,
                size,
                face,
                color,
            });
        }
        if outline.elements().is_empty() {
            return;
        }
        let Some(segments) = self.segments(&outline, Affine::IDENTITY) else {
            return;
        };
        let (fill, stroke) = match mode {
            DrawMode::Stroke(s) => (None, Some(stroke_of(s, props.transform, color))),
            _ => (Some(color), None),
        };
        self.push_item(Shape::Path(PathShape {
            shadow: false,
            id: String::new(),
            segments,
            fill,
            stroke,
            even_odd: false,
        }));
    }

    fn draw_image(&mut self, image: Image<'a, '_>, props: ImageDrawProps<'a>) {
        let (w, h) = (image.width(), image.height());
        if w == 0 || h == 0 || self.items.len() >= self.budget.items {
            self.notes.dropped_items += usize::from(w > 0 && h > 0);
            return;
        }
        let (frame, orientation) = images::placement(props.transform, w, h);
        if ![frame.x, frame.y, frame.w, frame.h]
            .iter()
            .all(|v| v.is_finite())
            || frame.w <= 0.0
            || frame.h <= 0.0
        {
            return;
        }
        if orientation.is_none() {
            self.notes.skewed_images += 1;
        }
        // A stencil takes the colour it is painted with, which is only known once it is
        // decoded, so stencils are not shared between uses.
        let key = match &image {
            Image::Stencil(_) => None,
            Image::Raster(_) => Some((image.cache_key(), orientation)),
        };
        let name = match key.as_ref().and_then(|k| self.store.find(k)) {
            Some(name) => Some(name.to_string()),
            None => self.picture(image, orientation, key),
        };
        if let Some(asset) = name {
            self.push_item(Shape::Image(ImageShape {
                id: String::new(),
                frame,
                asset,
                alt: None,
                link: None,
            }));
        }
    }

    fn pop_clip(&mut self) {}

    fn pop_transparency_group(&mut self) {
        self.opacity.pop();
    }
}

impl Collector<'_> {
    /// Decodes (or passes through) one picture and stores it; `None` when it cannot be read
    /// or the document's picture budget is spent.
    fn picture(
        &mut self,
        image: Image<'_, '_>,
        orientation: Option<Orientation>,
        key: Option<ImageKey>,
    ) -> Option<String> {
        let (w, h) = (image.width(), image.height());
        let target = images::target_size(w, h);
        let orient = orientation.unwrap_or(Orientation::UPRIGHT);
        let mut pixels: Option<Pixels> = None;
        let opacity = self.opacity();
        match &image {
            Image::Raster(r) => {
                if orientation == Some(Orientation::UPRIGHT) {
                    if let Some(jpeg) = images::passthrough_jpeg(r.stream()) {
                        return self.store_or_note(key, jpeg, true);
                    }
                }
                r.with_rgba(
                    |data, alpha| pixels = images::raster_pixels(data, alpha, opacity),
                    target,
                );
            }
            Image::Stencil(s) => {
                let mut paint_color = None;
                s.with_stencil(
                    |luma, paint| {
                        paint_color = Some(paint.clone());
                        pixels = Some(images::stencil_pixels(&luma, [0, 0, 0, 255]));
                    },
                    target,
                );
                if let (Some(p), Some(paint)) = (pixels.as_mut(), paint_color) {
                    let c = self.color_of(&paint);
                    images::tint_stencil(p, [c.r, c.g, c.b, c.a]);
                }
            }
        }
        let Some(pixels) = pixels else {
            self.notes.unreadable_images += 1;
            return None;
        };
        let raw = pixels.width as usize * pixels.height as usize * pixels.channels;
        if !self.store.has_room(raw / 8) {
            self.notes.images_over_budget += 1;
            return None;
        }
        match pixels.oriented(orient).to_png() {
            Ok(png) => self.store_or_note(key, png, false),
            Err(_) => {
                self.notes.unreadable_images += 1;
                None
            }
        }
    }

    fn store_or_note(
        &mut self,
        key: Option<ImageKey>,
        bytes: Vec<u8>,
        jpeg: bool,
    ) -> Option<String> {
        let name = self.store.add(key, bytes, jpeg);
        if name.is_none() {
            self.notes.images_over_budget += 1;
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_forms_read_as_what_they_stand_for() {
        assert_eq!(unligature("世界⼈权宣⾔ ﬁne".into()), "世界人权宣言 fine");
        assert_eq!(unligature("⿕ ⺟".into()), "龠 母");
        assert_eq!(unligature("⺀ plain".into()), "⺀ plain");
        // Joined Arabic letters and the lam-alef ligature.
        assert_eq!(unligature("ﻟﺎ ﻻ".into()), "لا لا");
        assert_eq!(unligature("שּׁ".into()), "שּׁ");
    }

    #[test]
    fn ligatures_become_letters() {
        assert_eq!(
            unligature("\u{FB01}nd the o\u{FB03}ce".into()),
            "find the office"
        );
        assert_eq!(unligature("plain".into()), "plain");
    }
}
