//! The front matter `title`, drawn as mermaid-cli draws it: one line of 18 px text in the
//! theme's text colour, centred over the diagram's bounding box with room below it
//! (mermaid's `insertTitle` with the flowchart's `titleTopMargin`).
//!
//! The title is a text box with a reserved id, so the exporter can tell it from a text node
//! and write it back as the front matter rather than as a node.

use quire_sdk::layout::{natural_width, text_height};
use quire_sdk::{Align, Color, Page, Point, Rect, Shape, ShapeWalk, Text, TextBox};

use crate::style::PX;

/// The id of the text box that draws the title. Mermaid node ids cannot hold a `:`; a quoted
/// subgraph id or an edge id can, so the builder renames those out of the way.
pub const ID: &str = "mermaid:title";
/// Mermaid's `.flowchartTitleText` font size.
const SIZE: f64 = 18.0 * PX;
/// From the bottom of the title's line to the top of the diagram: mermaid puts the baseline
/// 25 px above the diagram, less the line's descent.
const GAP: f64 = 15.0;
/// Mermaid never wraps a title; past this width (or the diagram's, if wider) it wraps here,
/// so a hostile title makes a tall page that is scaled to fit, not an unbounded line.
const MAX_WIDTH: f64 = 600.0;
/// Room so rounding never forces an extra line break.
const SLACK: f64 = 0.01;

/// Whether `shape` is the drawn front matter title.
pub fn is_title(shape: &Shape) -> bool {
    matches!(shape, Shape::Text(t) if t.id == ID)
}

/// Puts `title` above everything on `page`, centred over the drawing, and grows the page to
/// hold it; `margin` is the space the layout left around the drawing.
pub fn place(page: &mut Page, title: &str, margin: f64, color: Color) {
    let mut run = quire_sdk::Run::plain(title, SIZE);
    run.color = Some(color);
    let text = Text {
        runs: vec![run],
        align: Align::Center,
        ..Text::default_layout()
    };
    let bounds = drawing_bounds(&page.shapes).unwrap_or(Rect::new(
        margin,
        margin,
        (page.width - 2.0 * margin).max(0.0),
        0.0,
    ));
    let width = natural_width(&text).min(MAX_WIDTH.max(bounds.w)) + SLACK;
    let height = text_height(&text, width);
    let centre = bounds.x + bounds.w / 2.0;
    let dx = (margin - (centre - width / 2.0)).max(0.0);
    let dy = (margin + height + GAP - bounds.y).max(0.0);
    shift(&mut page.shapes, dx, dy);
    page.width = (page.width + dx).max(centre + dx + width / 2.0 + margin);
    page.height += dy;
    page.shapes.insert(
        0,
        Shape::Text(TextBox {
            id: ID.to_string(),
            frame: Rect::new(centre + dx - width / 2.0, margin, width, height),
            text,
            fill: None,
            stroke: None,
        }),
    );
}

/// The box around every frame and link bend on the page, if there is anything.
fn drawing_bounds(shapes: &[Shape]) -> Option<Rect> {
    let mut points: Vec<Point> = Vec::new();
    for shape in ShapeWalk::new(shapes) {
        if let Shape::Connector(c) = shape {
            points.extend(c.waypoints.iter().copied());
        } else if let Some(f) = shape.frame() {
            points.push(Point { x: f.x, y: f.y });
            points.push(Point {
                x: f.x + f.w,
                y: f.y + f.h,
            });
        }
    }
    quire_sdk::geometry::points_bounds(&points)
}

/// Moves every shape, nested ones and link bends included, by (`dx`, `dy`).
fn shift(shapes: &mut [Shape], dx: f64, dy: f64) {
    let mut stack: Vec<&mut Shape> = shapes.iter_mut().collect();
    while let Some(shape) = stack.pop() {
        let frame = match shape {
            Shape::Node(n) => &mut n.frame,
            Shape::Text(t) => &mut t.frame,
            Shape::Image(i) => &mut i.frame,
            Shape::Group(g) => {
                stack.extend(g.children.iter_mut());
                &mut g.frame
            }
            Shape::Connector(c) => {
                for p in c.waypoints.iter_mut() {
                    p.x += dx;
                    p.y += dy;
                }
                continue;
            }
            Shape::Path(_) => continue,
        };
        frame.x += dx;
        frame.y += dy;
    }
}
