//! Mermaid shapes mapped to the model's geometries, both ways, and node sizes that fit the
//! label inside the text area exporters draw it in.

use quire_sdk::geometry::text_area;
use quire_sdk::layout::{natural_width, text_height};
use quire_sdk::{Geometry, Rect, Text};

use crate::parse::{Classic, ShapeName};

/// Labels wrap at this width (mermaid wraps at 200 px).
pub const MAX_TEXT_WIDTH: f64 = 150.0;
/// Room between a label and the text area's edges: with the text area's own 4 pt inset, a
/// box is mermaid's size, the label plus its `padding` (15 px) twice across and once down
/// on each side (mermaid's `drawRect`: 30 px and 15 px a side).
const PAD_X: f64 = 18.5;
const PAD_Y: f64 = 7.25;
/// Mermaid's circle: the label's width and its 15 px padding across.
const CIRCLE_PAD: f64 = 11.25;
/// Text boxes grow by this much so rounding never forces an extra line break.
const SLACK: f64 = 0.01;

/// What a mermaid shape becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapped {
    pub geometry: Geometry,
    /// Text without a box (`@{ shape: text }`): no fill, no border.
    pub bare: bool,
}

fn mapped(geometry: Geometry) -> Mapped {
    Mapped {
        geometry,
        bare: false,
    }
}

pub fn classic(c: Classic) -> Geometry {
    match c {
        Classic::Square => Geometry::Rect,
        Classic::Round => Geometry::Rounded,
        Classic::Stadium => Geometry::Stadium,
        Classic::Subroutine => Geometry::Subroutine,
        Classic::Cylinder => Geometry::Cylinder,
        Classic::Circle => Geometry::Circle,
        Classic::DoubleCircle => Geometry::DoubleCircle,
        Classic::Ellipse => Geometry::Ellipse,
        Classic::Odd => Geometry::Flag,
        Classic::Diamond => Geometry::Diamond,
        Classic::Hexagon => Geometry::Hexagon,
        Classic::LeanRight => Geometry::Parallelogram,
        Classic::LeanLeft => Geometry::ParallelogramAlt,
        Classic::Trapezoid => Geometry::Trapezoid,
        Classic::InvTrapezoid => Geometry::TrapezoidAlt,
    }
}

/// The geometry of a shape name; `None` for a name mermaid does not know.
pub fn map(shape: Option<&ShapeName>) -> Option<Mapped> {
    let name = match shape {
        None => return Some(mapped(Geometry::Rect)),
        Some(ShapeName::Classic(c)) => return Some(mapped(classic(*c))),
        Some(ShapeName::Named(n)) => n.trim().to_ascii_lowercase(),
    };
    use Geometry::*;
    let g = match name.as_str() {
        "text" => {
            return Some(Mapped {
                geometry: Rect,
                bare: true,
            })
        }
        "rect" | "rectangle" | "proc" | "process" | "square" | "icon" | "image" | "div-rect"
        | "div-proc" | "divided-rectangle" | "divided-process" | "win-pane"
        | "internal-storage" | "window-pane" | "st-rect" | "procs" | "processes"
        | "stacked-rectangle" | "fork" | "join" => Rect,
        "rounded" | "event" => Rounded,
        "stadium"
        | "pill"
        | "terminal"
        | "delay"
        | "half-rounded-rectangle"
        | "curv-trap"
        | "curved-trapezoid"
        | "display"
        | "bow-rect"
        | "stored-data"
        | "bow-tie-rectangle" => Stadium,
        "subproc" | "subprocess" | "subroutine" | "fr-rect" | "framed-rectangle" | "lin-rect"
        | "lined-rectangle" | "lin-proc" | "lined-process" | "shaded-process" => Subroutine,
        "cyl"
        | "cylinder"
        | "database"
        | "db"
        | "das"
        | "h-cyl"
        | "horizontal-cylinder"
        | "direct-access-storage"
        | "lin-cyl"
        | "disk"
        | "lined-cylinder"
        | "datastore"
        | "data-store" => Cylinder,
        "circle" | "circ" | "sm-circ" | "small-circle" | "start" | "f-circ" | "filled-circle"
        | "junction" | "cross-circ" | "crossed-circle" | "summary" | "anchor" => Circle,
        "dbl-circ" | "double-circle" | "fr-circ" | "framed-circle" | "stop" => DoubleCircle,
        "bang" | "cloud" | "ellipse" | "oval" => Ellipse,
        "odd" | "bolt" | "com-link" | "lightning-bolt" => Flag,
        "diam" | "diamond" | "decision" | "question" | "hourglass" | "collate" => Diamond,
        "hex" | "hexagon" | "prepare" => Hexagon,
        "lean-r" | "lean-right" | "in-out" | "sl-rect" | "manual-input" | "sloped-rectangle" => {
            Parallelogram
        }
        "lean-l" | "lean-left" | "out-in" => ParallelogramAlt,
        "trap-b" | "trapezoid-bottom" | "priority" | "trapezoid" | "notch-pent" | "loop-limit"
        | "notched-pentagon" => Trapezoid,
        "trap-t" | "trapezoid-top" | "manual" | "inv-trapezoid" => TrapezoidAlt,
        "doc" | "document" | "lin-doc" | "lined-document" | "docs" | "documents" | "st-doc"
        | "stacked-document" | "tag-doc" | "tagged-document" | "flag" | "paper-tape" => Document,
        "tri" | "triangle" | "extract" | "flip-tri" | "flipped-triangle" | "manual-file" => {
            Triangle
        }
        "notch-rect" | "card" | "notched-rectangle" | "tag-rect" | "tagged-rectangle"
        | "tag-proc" | "tagged-process" | "comment" | "brace" | "brace-l" | "brace-r"
        | "braces" => Note,
        _ => return None,
    };
    Some(mapped(g))
}

/// The mermaid syntax that draws `g`: bracket pairs where classic syntax has one, a v11
/// shape name otherwise.
pub enum Syntax {
    Brackets(&'static str, &'static str),
    Named(&'static str),
}

pub fn syntax(g: Geometry) -> Syntax {
    use Syntax::*;
    match g {
        Geometry::Rect => Brackets("[", "]"),
        Geometry::Rounded => Brackets("(", ")"),
        Geometry::Stadium => Brackets("([", "])"),
        Geometry::Subroutine => Brackets("[[", "]]"),
        Geometry::Cylinder => Brackets("[(", ")]"),
        Geometry::Circle => Brackets("((", "))"),
        Geometry::DoubleCircle => Brackets("(((", ")))"),
        Geometry::Flag => Brackets(">", "]"),
        Geometry::Diamond => Brackets("{", "}"),
        Geometry::Hexagon => Brackets("{{", "}}"),
        Geometry::Parallelogram => Brackets("[/", "/]"),
        Geometry::ParallelogramAlt => Brackets("[\\", "\\]"),
        Geometry::Trapezoid => Brackets("[/", "\\]"),
        Geometry::TrapezoidAlt => Brackets("[\\", "/]"),
        Geometry::Ellipse => Named("bang"),
        Geometry::Document => Named("doc"),
        Geometry::Triangle => Named("tri"),
        Geometry::Note => Named("notch-rect"),
    }
}

/// The width the label wraps at and the size it takes.
pub fn text_box(text: &Text) -> (f64, f64) {
    let w = natural_width(text).min(MAX_TEXT_WIDTH) + SLACK;
    (w, text_height(text, w))
}

/// The smallest comfortable frame of `geometry` whose text area (the one every exporter
/// draws the label in) holds a `tw` x `th` label.
pub fn node_size(geometry: Geometry, tw: f64, th: f64) -> (f64, f64) {
    let circle = matches!(geometry, Geometry::Circle | Geometry::DoubleCircle);
    // Mermaid draws a circle round its label with half its padding each side (`radius =
    // width / 2 + padding / 2`), no more: the label only has to fit the text area.
    let (pad_x, pad_y) = if circle { (1.0, 0.5) } else { (PAD_X, PAD_Y) };
    let (cw, ch) = ((tw + 2.0 * pad_x).max(16.0), (th + 2.0 * pad_y).max(12.0));
    let (mut w, mut h) = (cw + 8.0, ch + 8.0);
    if matches!(geometry, Geometry::Circle | Geometry::DoubleCircle) {
        let d = w.max(h);
        (w, h) = (d, d);
    }
    // Newton steps on each side in turn: the text area grows piecewise linearly with the
    // frame, so a few steps land on the exact size.
    for _ in 0..40 {
        let a = text_area(geometry, Rect::new(0.0, 0.0, w, h));
        let short_w = cw - a.w;
        let short_h = ch - a.h;
        if short_w <= 1e-9 && short_h <= 1e-9 {
            break;
        }
        if short_w > 1e-9 {
            let b = text_area(geometry, Rect::new(0.0, 0.0, w + 10.0, h));
            let slope = (b.w - a.w) / 10.0;
            w = if slope > 0.05 {
                w + short_w / slope + 1e-6
            } else {
                w * 1.5
            };
        }
        if short_h > 1e-9 {
            let b = text_area(geometry, Rect::new(0.0, 0.0, w, h + 10.0));
            let slope = (b.h - a.h) / 10.0;
            h = if slope > 0.05 {
                h + short_h / slope + 1e-6
            } else {
                h * 1.5
            };
        }
        if matches!(geometry, Geometry::Circle | Geometry::DoubleCircle) {
            let d = w.max(h);
            (w, h) = (d, d);
        }
    }
    // Newton overshoots where the area's growth changes pace (a stadium narrower than tall):
    // bisect each side back down to the least size that still fits.
    let fits = |w: f64, h: f64| {
        let a = text_area(geometry, Rect::new(0.0, 0.0, w, h));
        a.w >= cw - 1e-9 && a.h >= ch - 1e-9
    };
    if !fits(w, h) {
        return (w, h);
    }
    if matches!(geometry, Geometry::Circle | Geometry::DoubleCircle) {
        let (mut lo, mut hi) = (cw.max(ch), w);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if fits(mid, mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let d = hi.max(tw + CIRCLE_PAD).max(th + CIRCLE_PAD);
        return (d, d);
    }
    for _ in 0..2 {
        let (mut lo, mut hi) = (cw, w);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if fits(mid, h) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        w = hi;
        let (mut lo, mut hi) = (ch, h);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if fits(w, mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        h = hi;
    }
    (w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Geometry; 18] = [
        Geometry::Rect,
        Geometry::Rounded,
        Geometry::Stadium,
        Geometry::Ellipse,
        Geometry::Circle,
        Geometry::DoubleCircle,
        Geometry::Diamond,
        Geometry::Hexagon,
        Geometry::Parallelogram,
        Geometry::ParallelogramAlt,
        Geometry::Trapezoid,
        Geometry::TrapezoidAlt,
        Geometry::Cylinder,
        Geometry::Subroutine,
        Geometry::Document,
        Geometry::Triangle,
        Geometry::Flag,
        Geometry::Note,
    ];

    #[test]
    fn every_geometry_has_a_syntax_that_maps_back() {
        for g in ALL {
            let back = match syntax(g) {
                Syntax::Named(n) => map(Some(&ShapeName::Named(n.into()))).map(|m| m.geometry),
                Syntax::Brackets(open, _) => {
                    let c = [
                        Classic::Square,
                        Classic::Round,
                        Classic::Stadium,
                        Classic::Subroutine,
                        Classic::Cylinder,
                        Classic::Circle,
                        Classic::DoubleCircle,
                        Classic::Odd,
                        Classic::Diamond,
                        Classic::Hexagon,
                        Classic::LeanRight,
                        Classic::LeanLeft,
                        Classic::Trapezoid,
                        Classic::InvTrapezoid,
                    ]
                    .into_iter()
                    .find(|&c| classic(c) == g);
                    assert!(c.is_some(), "{g:?} via {open}");
                    c.map(classic)
                }
            };
            assert_eq!(back, Some(g));
        }
    }

    /// Sizes as mermaid gives them (its `drawRect` and `circle`, 15 px of padding): a box
    /// is its label plus 30 px each side across and 15 px down, a circle round a short
    /// label its label plus 7.5 px each side, in points (a longer label needs the circle's
    /// text area, three quarters of it across).
    #[test]
    fn boxes_and_circles_are_mermaids_size() {
        let (tw, th) = (40.0, 14.4);
        let (w, h) = node_size(Geometry::Rect, tw, th);
        assert!(
            (w - (tw + 45.0)).abs() < 0.01 && (h - (th + 22.5)).abs() < 0.01,
            "{w}x{h}"
        );
        let (d, e) = node_size(Geometry::Circle, 20.0, th);
        assert!((d - (20.0 + 11.25)).abs() < 0.01 && d == e, "{d}");
    }

    #[test]
    fn frames_hold_their_text_in_every_geometry() {
        for g in ALL {
            for (tw, th) in [(10.0, 14.4), (150.0, 14.4), (60.0, 72.0), (3.0, 3.0)] {
                let (w, h) = node_size(g, tw, th);
                let a = text_area(g, Rect::new(0.0, 0.0, w, h));
                assert!(
                    a.w >= tw && a.h >= th,
                    "{g:?} {tw}x{th}: {w}x{h} gives {a:?}"
                );
                // Not absurdly larger than needed either.
                assert!(w.max(h) < 2.5 * (tw.max(th) + 30.0), "{g:?} {w}x{h}");
            }
        }
    }
}
