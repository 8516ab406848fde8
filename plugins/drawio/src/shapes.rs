//! What a cell's style means in the model: outline, fill, stroke, label text. The defaults
//! are those of draw.io's default stylesheet, so a style that says nothing draws as draw.io
//! draws it (white fill, black 1 px stroke, 12 px Helvetica centred).

use quire_sdk::{Align, ArrowHead, Color, Dash, Geometry, Insets, Rect, Run, Stroke, Text, VAlign};

use crate::label;
use crate::style::{font_family, Style};

pub const VERTEX_FONT_SIZE: f64 = 12.0;
pub const EDGE_FONT_SIZE: f64 = 11.0;

/// The stylesheet values draw.io gives a named style (`text;...`) unless the cell
/// overrides them.
fn stylesheet(name: &str, key: &str) -> Option<&'static str> {
    let v = match (name, key) {
        ("text" | "edgeLabel", "fillColor" | "strokeColor") => "none",
        ("text" | "edgeLabel", "align") => "left",
        ("text" | "edgeLabel", "verticalAlign") => "top",
        ("edgeLabel", "fontSize") => "11",
        ("group", "fillColor" | "strokeColor") => "none",
        ("group", "verticalAlign") => "top",
        ("swimlane", "fontStyle") => "1",
        ("swimlane", "startSize") => "23",
        ("label", "fontStyle") => "1",
        ("label", "align") => "left",
        ("label", "rounded") => "1",
        ("image" | "icon", "verticalLabelPosition") => "bottom",
        ("image" | "icon", "verticalAlign") => "top",
        ("line", "strokeWidth") => "4",
        _ => return None,
    };
    Some(v)
}

/// A style value: the cell's own, else its named style's default.
pub fn lookup<'a>(style: &'a Style, key: &str) -> Option<&'a str> {
    style
        .get(key)
        .or_else(|| style.names.iter().find_map(|n| stylesheet(n, key)))
}

fn lookup_num(style: &Style, key: &str) -> Option<f64> {
    lookup(style, key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

/// `opacity` and `fillOpacity`/`strokeOpacity` (percentages) as an alpha byte.
fn alpha(style: &Style, specific: &str) -> u8 {
    let pct = |k: &str| style.num(k).map(|v| v.clamp(0.0, 100.0) / 100.0);
    let a = pct("opacity").unwrap_or(1.0) * pct(specific).unwrap_or(1.0);
    (a * 255.0).round() as u8
}

fn with_alpha(mut c: Color, a: u8) -> Color {
    c.a = ((c.a as u16 * a as u16) / 255) as u8;
    c
}

fn color_or(style: &Style, key: &str, default: Option<Color>) -> Option<Color> {
    match lookup(style, key) {
        Some(v) => crate::style::parse_color(v).unwrap_or(default),
        None => default,
    }
}

pub fn fill(style: &Style) -> Option<Color> {
    color_or(style, "fillColor", Some(Color::WHITE))
        .map(|c| with_alpha(c, alpha(style, "fillOpacity")))
}

pub fn stroke(style: &Style) -> Option<Stroke> {
    let color = color_or(style, "strokeColor", Some(Color::BLACK))?;
    let width = lookup_num(style, "strokeWidth")
        .unwrap_or(1.0)
        .clamp(0.0, 1000.0);
    Some(Stroke {
        color: with_alpha(color, alpha(style, "strokeOpacity")),
        width,
        dash: dash(style),
    })
}

fn dash(style: &Style) -> Dash {
    if !style.flag("dashed") {
        return Dash::Solid;
    }
    // A pattern whose dashes are no longer than a line is wide reads as dots.
    let dots = style
        .get("dashPattern")
        .and_then(|p| p.split_whitespace().next())
        .and_then(|d| d.parse::<f64>().ok())
        .is_some_and(|d| d <= 1.0);
    if dots {
        Dash::Dotted
    } else {
        Dash::Dashed
    }
}

/// The run every piece of the label starts from.
pub fn base_run(style: &Style, default_size: f64) -> Run {
    let size = lookup_num(style, "fontSize")
        .filter(|s| *s > 0.0)
        .unwrap_or(default_size)
        .clamp(1.0, 500.0);
    let mut run = Run::plain("", size);
    let bits = lookup_num(style, "fontStyle").unwrap_or(0.0).max(0.0) as u32;
    run.bold = bits & 1 != 0;
    run.italic = bits & 2 != 0;
    run.underline = bits & 4 != 0;
    run.strike = bits & 8 != 0;
    run.color = match color_or(style, "fontColor", None) {
        Some(c) if c == Color::BLACK => None,
        c => c,
    };
    if let Some(f) = lookup(style, "fontFamily") {
        run.font = font_family(f);
    }
    run
}

pub fn align(style: &Style, default: Align) -> Align {
    match lookup(style, "align") {
        Some("left") => Align::Left,
        Some("right") => Align::Right,
        Some("center") => Align::Center,
        Some("justify") => Align::Justify,
        _ => default,
    }
}

pub fn valign(style: &Style, default: VAlign) -> VAlign {
    match lookup(style, "verticalAlign") {
        Some("top") => VAlign::Top,
        Some("bottom") => VAlign::Bottom,
        Some("middle") => VAlign::Middle,
        _ => default,
    }
}

/// The label as model text, `None` when it has no visible characters.
pub fn label_text(
    label: &str,
    style: &Style,
    default_size: f64,
    link: Option<&str>,
) -> Option<Text> {
    if label.trim().is_empty() {
        return None;
    }
    let mut base = base_run(style, default_size);
    base.link = link.map(str::to_string);
    let read = label::read(label, style.get("html") == Some("1"), &base);
    if read.runs.iter().all(|r| r.text.trim().is_empty()) {
        return None;
    }
    Some(Text {
        runs: read.runs,
        align: read.align.unwrap_or_else(|| align(style, Align::Center)),
        valign: valign(style, VAlign::Middle),
        line_height: 1.2,
        direction: None,
        padding: padding(style),
    })
}

/// The room a label keeps from its area's edges beyond draw.io's own (`spacingLeft`, ...;
/// an icon's width at a container's top left), when the style asks for any.
fn padding(style: &Style) -> Option<Insets> {
    let side = |key: &str| {
        lookup(style, key)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
            .map_or(0.0, |v| v.min(1000.0))
    };
    let p = Insets {
        top: side("spacingTop"),
        right: side("spacingRight"),
        bottom: side("spacingBottom"),
        left: side("spacingLeft"),
    };
    (p != Insets::default()).then_some(p)
}

/// draw.io sets a label without `whiteSpace=wrap` on one line and lets a label run past
/// its shape; the model wraps at the text's area instead. Where the label's side spacing
/// would leave it less room than its line (or, wrapped, its longest word) needs, the sides'
/// spacing shrinks to what leaves that room, so no word breaks (the top and bottom's stays).
pub fn fit_side_spacing(text: &mut Text, style: &Style, area: Rect) {
    let Some(mut pad) = text.padding else {
        return;
    };
    let need = if lookup(style, "whiteSpace") == Some("wrap") {
        quire_sdk::layout::min_content_width(text)
    } else {
        quire_sdk::layout::natural_width(text)
    };
    let sides = pad.left + pad.right;
    let excess = need - (area.w - sides);
    if excess > 0.0 && sides > 0.0 {
        let keep = ((sides - excess) / sides).max(0.0);
        pad.left *= keep;
        pad.right *= keep;
    }
    text.padding = (pad != Insets::default()).then_some(pad);
}

/// Where a vertex's label sits relative to its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelPlace {
    Inside,
    Below,
    Above,
    Left,
    Right,
}

pub fn label_place(style: &Style) -> LabelPlace {
    match (
        lookup(style, "verticalLabelPosition"),
        lookup(style, "labelPosition"),
    ) {
        (Some("bottom"), _) => LabelPlace::Below,
        (Some("top"), _) => LabelPlace::Above,
        (_, Some("left")) => LabelPlace::Left,
        (_, Some("right")) => LabelPlace::Right,
        _ => LabelPlace::Inside,
    }
}

/// The shape a vertex draws as, before the model's geometry is chosen.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Outline(Geometry),
    Text,
    Image,
    Line,
    Waypoint,
    Stencil(String),
    /// A shape the model has no outline for; drawn as a rectangle.
    Unknown(String),
}

/// The model outline nearest to a draw.io shape name; `None` for shapes it has none for.
pub fn outline_for(shape: &str) -> Option<Geometry> {
    use Geometry::*;
    let g = match shape {
        "rect"
        | "rectangle"
        | "label"
        | "partialRectangle"
        | "swimlane"
        | "table"
        | "tableRow"
        | "umlLifeline"
        | "umlFrame"
        | "module"
        | "component"
        | "folder"
        | "internalStorage"
        | "cube"
        | "callout"
        | "message"
        | "mxgraph.flowchart.process"
        | "mxgraph.basic.rect"
        | "mxgraph.flowchart.annotation_1"
        | "mxgraph.flowchart.annotation_2"
        | "mxgraph.flowchart.card" => Rect,
        "ellipse"
        | "cloud"
        | "or"
        | "xor"
        | "sumEllipse"
        | "orEllipse"
        | "mxgraph.flowchart.start_1"
        | "mxgraph.flowchart.start_2"
        | "mxgraph.flowchart.or"
        | "mxgraph.flowchart.summing_function"
        | "mxgraph.flowchart.on-page_reference"
        | "mxgraph.basic.oval" => Ellipse,
        "doubleEllipse" => DoubleCircle,
        "rhombus"
        | "mxgraph.flowchart.decision"
        | "mxgraph.bpmn.gateway"
        | "mxgraph.bpmn.gateway2" => Diamond,
        "hexagon"
        | "loopLimit"
        | "mxgraph.flowchart.preparation"
        | "mxgraph.flowchart.loop_limit" => Hexagon,
        "parallelogram" | "mxgraph.flowchart.data" => Parallelogram,
        "trapezoid" | "manualInput" | "mxgraph.flowchart.manual_input" => Trapezoid,
        "mxgraph.flowchart.manual_operation" => TrapezoidAlt,
        "cylinder"
        | "cylinder2"
        | "cylinder3"
        | "datastore"
        | "dataStorage"
        | "mxgraph.flowchart.database"
        | "mxgraph.flowchart.stored_data" => Cylinder,
        "process" | "mxgraph.flowchart.predefined_process" => Subroutine,
        "document"
        | "tape"
        | "mxgraph.flowchart.document"
        | "mxgraph.flowchart.multi-document"
        | "mxgraph.flowchart.paper_tape" => Document,
        "triangle" | "mxgraph.flowchart.extract_or_measurement" => Triangle,
        "note" | "note2" | "card" | "mxgraph.bpmn.data" => Note,
        "step" | "offPageConnector" => Flag,
        "delay"
        | "display"
        | "mxgraph.flowchart.terminator"
        | "mxgraph.flowchart.delay"
        | "mxgraph.flowchart.display" => Stadium,
        "mxgraph.bpmn.task" | "mxgraph.bpmn.task2" => Rounded,
        "mxgraph.bpmn.event" | "mxgraph.bpmn.shape" | "startState" | "endState" => Circle,
        _ => return None,
    };
    Some(g)
}

pub fn kind(style: &Style) -> Kind {
    let shape = style.shape().unwrap_or("rect");
    if shape.starts_with("stencil(") {
        return Kind::Stencil(shape.to_string());
    }
    match shape {
        "text" | "edgeLabel" => return Kind::Text,
        "image" | "icon" if style.get("image").is_some() => return Kind::Image,
        "line" => return Kind::Line,
        "waypoint" => return Kind::Waypoint,
        _ => {}
    }
    if style.has_name("text") && style.get("shape").is_none() {
        return Kind::Text;
    }
    match outline_for(shape) {
        Some(g) => Kind::Outline(refine(g, style)),
        // Named styles that are not shapes (`html`, `whiteSpace`) leave the default box.
        None if style.get("shape").is_none() && !shape.contains('.') => {
            Kind::Outline(refine(Geometry::Rect, style))
        }
        None => Kind::Unknown(shape.to_string()),
    }
}

/// Rounding, flips and the aspect lock turn a base outline into its variant.
fn refine(g: Geometry, style: &Style) -> Geometry {
    match g {
        Geometry::Rect if lookup(style, "rounded") == Some("1") => {
            if style.num("arcSize").is_some_and(|a| a >= 50.0) && !style.flag("absoluteArcSize") {
                Geometry::Stadium
            } else {
                Geometry::Rounded
            }
        }
        Geometry::Ellipse if style.get("aspect") == Some("fixed") => Geometry::Circle,
        Geometry::Parallelogram if style.flag("flipH") => Geometry::ParallelogramAlt,
        Geometry::Trapezoid if style.flag("flipV") => Geometry::TrapezoidAlt,
        g => g,
    }
}

/// The arrowhead for a draw.io marker name; `fill` is `startFill`/`endFill` (open
/// variants when `0`).
pub fn arrow_head(marker: Option<&str>, default: ArrowHead, fill: bool) -> ArrowHead {
    let Some(m) = marker else { return default };
    match m {
        "none" | "" => ArrowHead::None,
        "classic" | "classicThin" | "block" | "blockThin" | "async" | "ERone" if fill => {
            ArrowHead::Arrow
        }
        "classic" | "classicThin" | "block" | "blockThin" | "async" | "open" | "openThin"
        | "openAsync" => ArrowHead::Open,
        "oval" | "dot" | "circle" | "circlePlus" | "ERzeroToOne" | "ERzeroToMany" => {
            ArrowHead::Circle
        }
        "diamond" | "diamondThin" | "ERmany" | "ERoneToMany" => ArrowHead::Diamond,
        "cross" | "dash" | "ERmandOne" | "halfCircle" => ArrowHead::Cross,
        _ => ArrowHead::Arrow,
    }
}

/// The frame rotated by a quarter turn about its centre (for shapes that look the same
/// after it).
pub fn quarter_turn(r: Rect) -> Rect {
    let c = r.center();
    Rect::new(c.x - r.h / 2.0, c.y - r.w / 2.0, r.h, r.w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stylesheet_defaults_apply_under_names() {
        let s = Style::parse("text;html=1;");
        assert_eq!(kind(&s), Kind::Text);
        assert_eq!(fill(&s), None);
        assert_eq!(stroke(&s), None);
        assert_eq!(align(&s, Align::Center), Align::Left);
        let s = Style::parse("rounded=0;whiteSpace=wrap;html=1;fillColor=#dae8fc;opacity=50");
        assert_eq!(kind(&s), Kind::Outline(Geometry::Rect));
        assert_eq!(fill(&s).map(|c| c.a), Some(128));
        assert_eq!(
            stroke(&s).unwrap().color,
            Color {
                a: 128,
                ..Color::BLACK
            }
        );
    }

    #[test]
    fn shapes_and_markers() {
        let k = |s: &str| kind(&Style::parse(s));
        assert_eq!(
            k("ellipse;whiteSpace=wrap"),
            Kind::Outline(Geometry::Ellipse)
        );
        assert_eq!(k("rhombus"), Kind::Outline(Geometry::Diamond));
        assert_eq!(k("rounded=1;arcSize=50"), Kind::Outline(Geometry::Stadium));
        assert_eq!(
            k("shape=mxgraph.flowchart.decision"),
            Kind::Outline(Geometry::Diamond)
        );
        assert_eq!(
            k("shape=mxgraph.aws4.iot"),
            Kind::Unknown("mxgraph.aws4.iot".into())
        );
        assert_eq!(k("whiteSpace=wrap;html=1"), Kind::Outline(Geometry::Rect));
        assert_eq!(k("shape=image;image=data:image/png,AA"), Kind::Image);
        assert_eq!(arrow_head(None, ArrowHead::Arrow, true), ArrowHead::Arrow);
        assert_eq!(
            arrow_head(Some("block"), ArrowHead::None, false),
            ArrowHead::Open
        );
        assert_eq!(
            arrow_head(Some("oval"), ArrowHead::None, true),
            ArrowHead::Circle
        );
    }

    #[test]
    fn font_style_bits() {
        let r = base_run(
            &Style::parse("fontStyle=7;fontSize=20;fontColor=#ff0000"),
            12.0,
        );
        assert!(r.bold && r.italic && r.underline && !r.strike);
        assert_eq!(r.size, 20.0);
        assert_eq!(r.color, Some(Color::rgb(255, 0, 0)));
        assert!(base_run(&Style::parse("swimlane"), 12.0).bold);
    }
}
