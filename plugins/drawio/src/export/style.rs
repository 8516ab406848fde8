//! Model shapes to draw.io style strings. Each outline is written the way draw.io's own
//! sidebar writes it, and the importer reads every one back to the same outline.

use base64::Engine;
use quire_sdk::{
    ArrowHead, Color, Connector, Dash, Geometry, Group, LineKind, Node, Stroke, TextBox,
};

use crate::mxfile::BASE64;

/// A number with at most two decimals and no exponent; `-0` is `0`.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let s = format!("{:.2}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() {
        "0".into()
    } else {
        s.to_string()
    }
}

fn outline(g: Geometry) -> &'static str {
    match g {
        Geometry::Rect => "rounded=0;",
        Geometry::Rounded => "rounded=1;",
        Geometry::Stadium => "rounded=1;arcSize=50;",
        Geometry::Ellipse => "ellipse;",
        Geometry::Circle => "ellipse;aspect=fixed;",
        Geometry::DoubleCircle => "ellipse;shape=doubleEllipse;aspect=fixed;",
        Geometry::Diamond => "rhombus;",
        Geometry::Hexagon => "shape=hexagon;perimeter=hexagonPerimeter2;fixedSize=1;",
        Geometry::Parallelogram => {
            "shape=parallelogram;perimeter=parallelogramPerimeter;fixedSize=1;"
        }
        Geometry::ParallelogramAlt => {
            "shape=parallelogram;perimeter=parallelogramPerimeter;fixedSize=1;flipH=1;"
        }
        Geometry::Trapezoid => "shape=trapezoid;perimeter=trapezoidPerimeter;fixedSize=1;",
        Geometry::TrapezoidAlt => {
            "shape=trapezoid;perimeter=trapezoidPerimeter;fixedSize=1;flipV=1;"
        }
        Geometry::Cylinder => "shape=cylinder3;boundedLbl=1;backgroundOutline=1;size=15;",
        Geometry::Subroutine => "shape=process;backgroundOutline=1;",
        Geometry::Document => "shape=document;boundedLbl=1;",
        Geometry::Triangle => "triangle;direction=north;",
        Geometry::Flag => "shape=step;perimeter=stepPerimeter;fixedSize=1;",
        Geometry::Note => "shape=note;size=15;",
    }
}

/// `key=#rrggbb;` plus an opacity key for a translucent colour, or `key=none;`.
fn color(key: &str, opacity_key: &str, c: Option<Color>, out: &mut String) {
    match c {
        None => out.push_str(&format!("{key}=none;")),
        Some(c) => {
            out.push_str(&format!("{key}={};", Color { a: 255, ..c }.to_hex()));
            if c.a != 255 {
                out.push_str(&format!(
                    "{opacity_key}={};",
                    number(c.a as f64 * 100.0 / 255.0)
                ));
            }
        }
    }
}

fn stroke(s: Option<&Stroke>, out: &mut String) {
    color("strokeColor", "strokeOpacity", s.map(|s| s.color), out);
    if let Some(s) = s {
        if s.width != 1.0 {
            out.push_str(&format!("strokeWidth={};", number(s.width)));
        }
        match s.dash {
            Dash::Solid => {}
            Dash::Dashed => out.push_str("dashed=1;"),
            Dash::Dotted => out.push_str("dashed=1;dashPattern=1 2;"),
        }
    }
}

pub fn node(n: &Node) -> String {
    let mut s = String::from(outline(n.geometry));
    s.push_str("whiteSpace=wrap;");
    color("fillColor", "fillOpacity", n.fill, &mut s);
    stroke(n.stroke.as_ref(), &mut s);
    shadow(n.shadow, &mut s);
    s
}

pub fn text_box(t: &TextBox) -> String {
    let mut s = String::from("text;whiteSpace=wrap;");
    color("fillColor", "fillOpacity", t.fill, &mut s);
    stroke(t.stroke.as_ref(), &mut s);
    s
}

pub fn group(g: &Group) -> String {
    if g.label.is_none() && g.fill.is_none() && g.stroke.is_none() {
        return "group;".into();
    }
    let mut s = String::from("container=1;collapsible=0;whiteSpace=wrap;");
    color("fillColor", "fillOpacity", g.fill, &mut s);
    stroke(g.stroke.as_ref(), &mut s);
    shadow(g.shadow, &mut s);
    s
}

/// `shadow=1;` for a shape that casts one.
pub fn shadow(casts: bool, out: &mut String) {
    if casts {
        out.push_str("shadow=1;");
    }
}

/// A picture cell. draw.io leaves `;base64` out of data URIs in styles (`;` ends a
/// value) and reads the payload as base64 all the same.
pub fn image(media_type: &str, bytes: &[u8]) -> String {
    format!(
        "shape=image;html=1;imageAspect=0;aspect=fixed;verticalLabelPosition=bottom;\
         verticalAlign=top;image=data:{media_type},{};",
        BASE64.encode(bytes)
    )
}

fn marker(h: ArrowHead) -> (&'static str, bool) {
    match h {
        ArrowHead::None => ("none", true),
        ArrowHead::Arrow => ("classic", true),
        ArrowHead::Open => ("open", true),
        ArrowHead::Circle => ("oval", true),
        ArrowHead::Cross => ("cross", true),
        ArrowHead::Diamond => ("diamond", true),
    }
}

pub fn edge(c: &Connector) -> String {
    // Straight segments (or one smooth curve) through the waypoints: the model's own routing.
    let mut s = String::from("edgeStyle=none;rounded=0;");
    if c.curved {
        s.push_str("curved=1;");
    }
    let (start, start_fill) = marker(c.from.head);
    let (end, end_fill) = marker(c.to.head);
    s.push_str(&format!(
        "startArrow={start};startFill={};endArrow={end};endFill={};",
        start_fill as u8, end_fill as u8
    ));
    match c.line {
        LineKind::Invisible => s.push_str("strokeColor=none;"),
        LineKind::Thick if c.stroke.is_none() => s.push_str("strokeWidth=3;"),
        _ => {
            if let Some(st) = &c.stroke {
                stroke(Some(st), &mut s);
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::{kind, Kind};
    use crate::style::Style;

    #[test]
    fn numbers_are_short_and_plain() {
        assert_eq!(number(10.0), "10");
        assert_eq!(number(0.126), "0.13");
        assert_eq!(number(-0.001), "0");
        assert_eq!(number(1e-9), "0");
        assert_eq!(number(12345.5), "12345.5");
        assert_eq!(number(f64::NAN), "0");
    }

    #[test]
    fn every_outline_reads_back_as_itself() {
        use Geometry::*;
        for g in [
            Rect,
            Rounded,
            Stadium,
            Ellipse,
            Circle,
            DoubleCircle,
            Diamond,
            Hexagon,
            Parallelogram,
            ParallelogramAlt,
            Trapezoid,
            TrapezoidAlt,
            Cylinder,
            Subroutine,
            Document,
            Flag,
            Note,
        ] {
            assert_eq!(kind(&Style::parse(outline(g))), Kind::Outline(g), "{g:?}");
        }
        // The triangle is read back through its direction (draw.io's points east).
        assert_eq!(
            kind(&Style::parse(outline(Triangle))),
            Kind::Outline(Triangle)
        );
    }

    #[test]
    fn translucent_and_missing_colours() {
        let mut s = String::new();
        color(
            "fillColor",
            "fillOpacity",
            Some(Color {
                r: 255,
                g: 0,
                b: 0,
                a: 128,
            }),
            &mut s,
        );
        color("strokeColor", "strokeOpacity", None, &mut s);
        assert_eq!(s, "fillColor=#ff0000;fillOpacity=50.2;strokeColor=none;");
    }
}
