//! A free path as a picture: draw.io has no cell for an arbitrary path, so the path is
//! drawn in a small SVG placed where the path lies, stroke included.

use quire_sdk::geometry;
use quire_sdk::{Color, Dash, PathShape, Rect, Segment};

use super::style::{image, number};

fn paint(c: Option<Color>) -> String {
    match c {
        None => "none".into(),
        Some(c) => Color { a: 255, ..c }.to_hex(),
    }
}

/// The picture cell's style and frame for `p`.
pub fn path_picture(p: &PathShape) -> (String, Rect) {
    let width = p.stroke.map(|s| s.width).unwrap_or(0.0);
    let pad = width / 2.0;
    let b = geometry::bounds(&p.segments).unwrap_or_default();
    let frame = Rect::new(b.x - pad, b.y - pad, b.w + 2.0 * pad, b.h + 2.0 * pad);
    let mut d = String::new();
    let pt = |x: f64, y: f64| format!("{} {}", number(x - frame.x), number(y - frame.y));
    for seg in &p.segments {
        match *seg {
            Segment::MoveTo { x, y } => d.push_str(&format!("M{} ", pt(x, y))),
            Segment::LineTo { x, y } => d.push_str(&format!("L{} ", pt(x, y))),
            Segment::CubicTo {
                x1,
                y1,
                x2,
                y2,
                x,
                y,
            } => d.push_str(&format!("C{} {} {} ", pt(x1, y1), pt(x2, y2), pt(x, y))),
            Segment::Close => d.push_str("Z "),
        }
    }
    let mut attrs = format!("d=\"{}\" fill=\"{}\"", d.trim_end(), paint(p.fill));
    if let Some(a) = p.fill.map(|c| c.a).filter(|a| *a != 255) {
        attrs.push_str(&format!(" fill-opacity=\"{}\"", number(a as f64 / 255.0)));
    }
    if p.even_odd {
        attrs.push_str(" fill-rule=\"evenodd\"");
    }
    match &p.stroke {
        Some(s) => {
            attrs.push_str(&format!(
                " stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\"",
                paint(Some(s.color)),
                number(s.width)
            ));
            if s.color.a != 255 {
                attrs.push_str(&format!(
                    " stroke-opacity=\"{}\"",
                    number(s.color.a as f64 / 255.0)
                ));
            }
            if let Some([on, off]) =
                geometry::dash_pattern(s.dash, s.width).filter(|_| s.dash != Dash::Solid)
            {
                attrs.push_str(&format!(
                    " stroke-dasharray=\"{} {}\"",
                    number(on),
                    number(off)
                ));
            }
        }
        None => attrs.push_str(" stroke=\"none\""),
    }
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\"><path {attrs}/></svg>",
        w = number(frame.w.max(0.01)),
        h = number(frame.h.max(0.01))
    );
    (image("image/svg+xml", svg.as_bytes()), frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::Stroke;

    #[test]
    fn the_picture_covers_the_path_and_its_stroke() {
        let p = PathShape {
            shadow: false,
            id: "p".into(),
            segments: vec![
                Segment::MoveTo { x: 10.0, y: 20.0 },
                Segment::LineTo { x: 30.0, y: 20.0 },
            ],
            fill: None,
            stroke: Some(Stroke::solid(Color::rgb(0, 0, 255), 4.0)),
            even_odd: false,
        };
        let (style, frame) = path_picture(&p);
        assert_eq!(frame, Rect::new(8.0, 18.0, 24.0, 4.0));
        assert!(style.starts_with("shape=image;"));
        let uri = style
            .split(';')
            .find_map(|kv| kv.strip_prefix("image="))
            .unwrap();
        let (kind, bytes) = crate::vertex::decode_data_uri(uri).unwrap();
        assert_eq!(kind, "image/svg+xml");
        let svg = String::from_utf8(bytes).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let path = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
        assert_eq!(path.attribute("d"), Some("M2 2 L22 2"));
        assert_eq!(path.attribute("stroke"), Some("#0000ff"));
    }
}
