//! Shapes draw.io draws in code rather than from a stencil: the AWS icon tiles
//! (`mxgraph.aws4.resourceIcon`, `productIcon`: a tile with a library icon on it), the
//! floor plan's walls, windows, rooms and doors (`mxFloorplan.js`) and the rack cabinet. Each is drawn here as
//! draw.io's `paintVertexShape` does, in the cell's box laid out upright (see
//! [`Placement::laid_out`]); the caller turns the parts with the cell.

use quire_sdk::{geometry, Align, Color, Point, Rect, Segment, Stroke, Text, VAlign};

use crate::stencil::{self, Paint, Painted, Placement};
use crate::style::Style;

/// The parts of shape `name` in `placement`, or `None` when draw.io does not draw it in
/// code (or not in a way this module knows).
pub fn draw(
    name: &str,
    style: &Style,
    placement: Placement,
    paint: &Paint,
) -> Option<Vec<Painted>> {
    let frame = placement.laid_out();
    let parts = match name {
        "mxgraph.aws4.resourceIcon" | "mxgraph.aws4.productIcon" => {
            aws_tile(name, style, frame, placement, paint)
        }
        "mxgraph.rackGeneral.container" => {
            let mut parts = rack(style, frame, paint);
            stencil::turn(&mut parts, placement);
            parts
        }
        _ => {
            let mut parts = floor_plan(name, style, frame, paint)?;
            stencil::turn(&mut parts, placement);
            parts
        }
    };
    Some(parts)
}

/// draw.io's mxShapeAws4ResourceIcon and mxShapeAws4ProductIcon: a tile, and the named
/// icon on it in the stroke colour.
fn aws_tile(
    name: &str,
    style: &Style,
    frame: Rect,
    placement: Placement,
    paint: &Paint,
) -> Vec<Painted> {
    let (w, h) = (frame.w, frame.h);
    let at = |x: f64, y: f64, w: f64, h: f64| Rect::new(frame.x + x, frame.y + y, w, h);
    let solid = |r: Rect, color: Option<Color>| Painted {
        segments: geometry::rect(r),
        fill: color,
        stroke: None,
    };
    let (mut parts, icon, icon_box) = if name == "mxgraph.aws4.resourceIcon" {
        (
            vec![solid(frame, paint.fill)],
            style.get("resIcon"),
            at(0.1 * w, 0.1 * h, 0.8 * w, 0.8 * h),
        )
    } else {
        (
            vec![
                solid(frame, paint.stroke),
                solid(at(1.0, 1.0, w - 2.0, w - 2.0), paint.fill),
            ],
            style.get("prIcon"),
            at(1.0 + 0.15 * w, 1.0 + 0.15 * w, 0.7 * w - 2.0, 0.7 * w - 2.0),
        )
    };
    stencil::turn(&mut parts, placement);
    if let Some(program) = icon.and_then(stencil::named) {
        let on_tile = Paint {
            fill: paint.stroke,
            stroke: None,
            ..*paint
        };
        let placement = Placement {
            frame: icon_box,
            ..placement
        };
        parts.extend(stencil::draw(&program, placement, &on_tile).unwrap_or_default());
    }
    parts
}

/// A figure drawn in a box's own coordinates (`mxAbstractCanvas2D` after `translate`).
struct Figure {
    origin: Point,
    segments: Vec<Segment>,
    pen: Point,
}

impl Figure {
    fn new(frame: Rect) -> Figure {
        Figure {
            origin: Point {
                x: frame.x,
                y: frame.y,
            },
            segments: Vec::new(),
            pen: Point::default(),
        }
    }

    fn at(&self, x: f64, y: f64) -> Point {
        Point {
            x: self.origin.x + x,
            y: self.origin.y + y,
        }
    }

    fn move_to(mut self, x: f64, y: f64) -> Figure {
        let p = self.at(x, y);
        self.segments.push(Segment::MoveTo { x: p.x, y: p.y });
        self.pen = p;
        self
    }

    fn line_to(mut self, x: f64, y: f64) -> Figure {
        let p = self.at(x, y);
        self.segments.push(Segment::LineTo { x: p.x, y: p.y });
        self.pen = p;
        self
    }

    fn arc_to(mut self, r: f64, sweep: bool, x: f64, y: f64) -> Figure {
        let to = self.at(x, y);
        for (c1, c2, end) in stencil::svg_arc(self.pen, r, r, 0.0, false, sweep, to) {
            self.segments.push(Segment::CubicTo {
                x1: c1.x,
                y1: c1.y,
                x2: c2.x,
                y2: c2.y,
                x: end.x,
                y: end.y,
            });
        }
        self.pen = to;
        self
    }

    fn rect(self, x: f64, y: f64, w: f64, h: f64) -> Figure {
        self.move_to(x, y)
            .line_to(x + w, y)
            .line_to(x + w, y + h)
            .line_to(x, y + h)
            .close()
    }

    fn close(mut self) -> Figure {
        self.segments.push(Segment::Close);
        self
    }

    fn filled(self, paint: &Paint) -> Painted {
        Painted {
            segments: self.segments,
            fill: paint.fill,
            stroke: outline(paint),
        }
    }

    fn stroked(self, paint: &Paint) -> Painted {
        Painted {
            segments: self.segments,
            fill: None,
            stroke: outline(paint),
        }
    }
}

fn outline(paint: &Paint) -> Option<Stroke> {
    paint.stroke.map(|color| Stroke {
        color,
        width: paint.width,
        dash: paint.dash,
    })
}

/// draw.io's rack cabinet (`mxgraph.rackGeneral.container`, mxRackContainer): a frame of
/// rails with its mounting holes, and the rack units numbered down the left side, 20
/// points each (`rackUnitSize`). The numbers are text: [`rack_numbers`].
fn rack(style: &Style, frame: Rect, paint: &Paint) -> Vec<Painted> {
    let numbered = style.get("numDisp") != Some("off");
    let left = if numbered { RACK_NUMBERS } else { 0.0 };
    let body = Rect::new(frame.x + left, frame.y, (frame.w - left).max(0.0), frame.h);
    let (w, h) = (body.w, body.h);
    let fig = || Figure::new(body);
    let cabinet = Paint {
        fill: style
            .get("fillColor2")
            .and_then(crate::style::parse_color)
            .unwrap_or(Some(Color::rgb(0xf4, 0xf4, 0xf4))),
        ..*paint
    };
    let mut parts = vec![fig().rect(0.0, 0.0, w, h).filled(paint)];
    if w > 18.0 + 24.0 && h > 42.0 {
        for (x, y, rw, rh) in [
            (0.0, 0.0, w, 21.0),
            (0.0, h - 21.0, w, 21.0),
            (0.0, 21.0, 9.0, h - 42.0),
            (w - 9.0, 21.0, 9.0, h - 42.0),
        ] {
            parts.push(fig().rect(x, y, rw, rh).filled(&cabinet));
        }
        for (x, y) in [
            (2.5, 7.5),
            (w - 8.5, 7.5),
            (2.5, h - 13.5),
            (w - 8.5, h - 13.5),
        ] {
            let hole = geometry::ellipse(body.x + x + 3.0, body.y + y + 3.0, 3.0, 3.0);
            parts.push(Painted {
                segments: hole,
                fill: None,
                stroke: outline(paint),
            });
        }
    }
    if numbered && w > 42.0 {
        let unit = rack_unit(style);
        let units = ((h - 42.0) / unit).floor().max(0.0) as usize;
        let mut ticks = Figure::new(frame);
        for i in 0..=units.min(MAX_RACK_UNITS) {
            let y = 21.0 + i as f64 * unit;
            ticks = ticks.move_to(0.0, y).line_to(RACK_NUMBERS, y);
        }
        parts.push(ticks.stroked(paint));
    }
    parts
}

/// The text a shape drawn in code writes (the rack container's unit numbers), each in its
/// box: ascending from the bottom as draw.io numbers them, or from the top with
/// `numDisp=descend`.
pub fn labels(name: &str, style: &Style, frame: Rect) -> Vec<(Rect, Text)> {
    if name != "mxgraph.rackGeneral.container" || style.get("numDisp") == Some("off") {
        return Vec::new();
    }
    if frame.w - RACK_NUMBERS <= 42.0 {
        return Vec::new();
    }
    let unit = rack_unit(style);
    let units = (((frame.h - 42.0) / unit).floor().max(0.0) as usize).min(MAX_RACK_UNITS);
    let descending = style.get("numDisp") == Some("descend");
    (0..units)
        .map(|i| {
            let number = if descending { i + 1 } else { units - i };
            let at = Rect::new(
                frame.x,
                frame.y + 21.0 + i as f64 * unit,
                RACK_NUMBERS,
                unit,
            );
            let mut text = Text::plain(number.to_string(), 12.0);
            text.align = Align::Center;
            text.valign = VAlign::Middle;
            for run in &mut text.runs {
                run.color = Some(rack_text_color(style));
            }
            (at, text)
        })
        .collect()
}

/// Width of the numbered strip left of a rack, and the most units numbered.
const RACK_NUMBERS: f64 = 24.0;
const MAX_RACK_UNITS: usize = 500;

fn rack_unit(style: &Style) -> f64 {
    style
        .num("rackUnitSize")
        .filter(|u| u.is_finite() && *u >= 1.0)
        .unwrap_or(20.0)
}

fn rack_text_color(style: &Style) -> Color {
    style
        .get("textColor")
        .and_then(crate::style::parse_color)
        .flatten()
        .unwrap_or(Color::rgb(0x66, 0x66, 0x66))
}

/// draw.io's floor plan shapes (mxFloorplan.js), walls `wallThickness` thick (10).
fn floor_plan(name: &str, style: &Style, frame: Rect, paint: &Paint) -> Option<Vec<Painted>> {
    let (w, h) = (frame.w, frame.h);
    let d = style
        .num("wallThickness")
        .filter(|t| t.is_finite())
        .unwrap_or(10.0)
        .clamp(0.0, w.max(h));
    let fig = || Figure::new(frame);
    let parts = match name.strip_prefix("mxgraph.floorplan.")? {
        "wall" => vec![fig().rect(0.0, 0.5 * h - 0.5 * d, w, d).filled(paint)],
        "wallCorner" => vec![fig()
            .move_to(0.0, h)
            .line_to(0.0, 0.0)
            .line_to(w, 0.0)
            .line_to(w, d)
            .line_to(d, d)
            .line_to(d, h)
            .close()
            .filled(paint)],
        "wallU" => vec![fig()
            .move_to(0.0, h)
            .line_to(0.0, 0.0)
            .line_to(w, 0.0)
            .line_to(w, h)
            .line_to(w - d, h)
            .line_to(w - d, d)
            .line_to(d, d)
            .line_to(d, h)
            .close()
            .filled(paint)],
        "room" => vec![fig()
            .rect(0.0, 0.0, w, h)
            .move_to(d, d)
            .line_to(d, h - d)
            .line_to(w - d, h - d)
            .line_to(w - d, d)
            .close()
            .filled(paint)],
        "window" => vec![
            fig().rect(0.0, 0.5 * h - 0.5 * d, w, d).filled(paint),
            fig()
                .move_to(0.0, 0.5 * h)
                .line_to(w, 0.5 * h)
                .stroked(paint),
        ],
        "doorLeft" => vec![
            fig().rect(0.0, 0.0, w, 5.0).filled(paint),
            fig()
                .move_to(w, 5.0)
                .arc_to(w, true, 0.0, 5.0 + w)
                .line_to(0.0, 5.0)
                .stroked(paint),
        ],
        "doorRight" => vec![
            fig().rect(0.0, 0.0, w, 5.0).filled(paint),
            fig()
                .move_to(0.0, 5.0)
                .arc_to(w, false, w, 5.0 + w)
                .line_to(w, 5.0)
                .stroked(paint),
        ],
        "doorDouble" => {
            let half = 0.5 * w;
            vec![
                fig().rect(0.0, 0.0, w, 5.0).filled(paint),
                fig()
                    .move_to(half, 0.0)
                    .line_to(half, 5.0)
                    .move_to(half, 5.0)
                    .arc_to(half, true, 0.0, 5.0 + half)
                    .line_to(0.0, 5.0)
                    .move_to(half, 5.0)
                    .arc_to(half, false, w, 5.0 + half)
                    .line_to(w, 5.0)
                    .stroked(paint),
            ]
        }
        _ => return None,
    };
    Some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paint() -> Paint {
        Paint {
            fill: Some(Color::BLACK),
            stroke: Some(Color::BLACK),
            width: 1.0,
            dash: quire_sdk::Dash::Solid,
        }
    }

    fn bounds(parts: &[Painted]) -> Rect {
        let all: Vec<Segment> = parts.iter().flat_map(|p| p.segments.clone()).collect();
        geometry::bounds(&all).unwrap()
    }

    /// A wall is a bar of its thickness across the middle of its cell, not a filled box;
    /// turned south it runs down its cell.
    #[test]
    fn a_wall_is_a_bar_of_its_thickness_turned_with_the_cell() {
        let frame = Rect::new(0.0, 0.0, 100.0, 40.0);
        let style = Style::parse("shape=mxgraph.floorplan.wall;fillColor=#000000;");
        let parts = draw(
            "mxgraph.floorplan.wall",
            &style,
            Placement::upright(frame),
            &paint(),
        )
        .unwrap();
        assert_eq!(bounds(&parts), Rect::new(0.0, 15.0, 100.0, 10.0));
        // draw.io swaps a cell's sides when it turns it south: this one stands upright.
        let thick = Style::parse("wallThickness=4");
        let turned = Placement {
            degrees: 90.0,
            across: true,
            ..Placement::upright(Rect::new(0.0, 0.0, 40.0, 100.0))
        };
        let parts = draw("mxgraph.floorplan.wall", &thick, turned, &paint()).unwrap();
        let b = bounds(&parts);
        assert!(
            (b.w - 4.0).abs() < 1e-9 && (b.h - 100.0).abs() < 1e-9,
            "{b:?}"
        );
        assert!(draw("mxgraph.floorplan.sofa", &style, turned, &paint()).is_none());
    }

    /// A door's leaf swings a quarter circle as wide as the door.
    #[test]
    fn a_door_swings_a_quarter_circle() {
        let frame = Rect::new(0.0, 0.0, 80.0, 85.0);
        let parts = draw(
            "mxgraph.floorplan.doorLeft",
            &Style::default(),
            Placement::upright(frame),
            &paint(),
        )
        .unwrap();
        assert_eq!(parts.len(), 2);
        assert!(parts[1].fill.is_none());
        let b = bounds(&parts[1..]);
        assert!(
            (b.h - 80.0).abs() < 1.0 && (b.w - 80.0).abs() < 1.0,
            "{b:?}"
        );
    }
}
