//! The border declarations: `border`, its sides' shorthands (`border-bottom: 1px solid
//! #eee`), the per-component ones for all sides (`border-color`, 1 to 4 values) and for one
//! (`border-left-width`). A shorthand sets every component it covers, the ones it does not
//! name to their initial values (medium width, no line, the text's colour), as in CSS.

use super::{four_sides, Declaration, Length, Property, Setting, Val, Value};
use quire_sdk::model::Color;

const WIDTH: [Property; 4] = [
    Property::BorderTopWidth,
    Property::BorderRightWidth,
    Property::BorderBottomWidth,
    Property::BorderLeftWidth,
];
const STYLE: [Property; 4] = [
    Property::BorderTopStyle,
    Property::BorderRightStyle,
    Property::BorderBottomStyle,
    Property::BorderLeftStyle,
];
const COLOR: [Property; 4] = [
    Property::BorderTopColor,
    Property::BorderRightColor,
    Property::BorderBottomColor,
    Property::BorderLeftColor,
];
const SIDES: [&str; 4] = ["top", "right", "bottom", "left"];

/// Each side's width, style and colour properties, top, right, bottom, left.
pub const BORDER_SIDES: [[Property; 3]; 4] = [
    [WIDTH[0], STYLE[0], COLOR[0]],
    [WIDTH[1], STYLE[1], COLOR[1]],
    [WIDTH[2], STYLE[2], COLOR[2]],
    [WIDTH[3], STYLE[3], COLOR[3]],
];

/// `medium`, the initial width: 3 CSS pixels.
pub const MEDIUM: f64 = 2.25;

/// A width keyword or length, in points (an `em` as 12 points, the initial font size).
fn width(value: &Value) -> Option<f64> {
    match value {
        Value::Length(points) => Some(*points),
        Value::Em(em) => Some(em * 12.0),
        Value::Keyword(k) => match k.as_str() {
            "thin" => Some(0.75),
            "medium" => Some(MEDIUM),
            "thick" => Some(3.75),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a style keyword draws a line (`none` and `hidden` do not); none for a word that
/// is not a style.
fn style(value: &Value) -> Option<bool> {
    let Value::Keyword(k) = value else {
        return None;
    };
    match k.as_str() {
        "none" | "hidden" => Some(false),
        "solid" | "dotted" | "dashed" | "double" | "groove" | "ridge" | "inset" | "outset" => {
            Some(true)
        }
        _ => None,
    }
}

/// A colour value; `Some(None)` for `currentcolor`.
fn color(value: &Value) -> Option<Option<Color>> {
    match value {
        Value::Color(c) => Some(Some(*c)),
        Value::Keyword(k) if k == "currentcolor" => Some(None),
        Value::Keyword(k) if k == "transparent" => Some(Some(Color {
            a: 0,
            ..Color::WHITE
        })),
        _ => None,
    }
}

impl Declaration {
    /// The border components this declaration sets; none when it is not a border
    /// declaration or holds a value that is not one.
    pub(super) fn border_settings(&self) -> Vec<Setting> {
        let Some(rest) = self.name.strip_prefix("border") else {
            return Vec::new();
        };
        let rest = match rest.strip_prefix('-') {
            Some(rest) => rest,
            None if rest.is_empty() => rest,
            None => return Vec::new(),
        };
        // `border-top-width`, `border-top`, `border-width` or `border`.
        let (side, component) = match rest.split_once('-') {
            Some((side, component)) => (Some(side), component),
            None if SIDES.contains(&rest) => (Some(rest), ""),
            None => (None, rest),
        };
        if !matches!(component, "" | "width" | "style" | "color") {
            return Vec::new();
        }
        let sides: &[usize] = match side {
            None => &[0, 1, 2, 3],
            Some(side) => match SIDES.iter().position(|s| *s == side) {
                Some(i) => &[0, 1, 2, 3][i..=i],
                None => return Vec::new(),
            },
        };
        let set = |properties: [Property; 4], values: [Val; 4]| {
            sides
                .iter()
                .map(|&i| (properties[i], values[i], self.important))
                .collect::<Vec<Setting>>()
        };
        let each = |read: &dyn Fn(&Value) -> Option<Val>| -> Option<[Val; 4]> {
            let values: Option<Vec<Val>> = self.values.iter().map(read).collect();
            let values = values?;
            match sides.len() {
                1 => match values.as_slice() {
                    [one] => Some([*one; 4]),
                    _ => None,
                },
                _ => four_sides(&values),
            }
        };
        let width_of = |v: &Value| width(v).map(|w| Val::Length(Some(Length::Points(w))));
        let style_of = |v: &Value| style(v).map(Val::Flag);
        let color_of = |v: &Value| color(v).map(Val::Paint);
        match component {
            "width" => each(&width_of).map_or_else(Vec::new, |v| set(WIDTH, v)),
            "style" => each(&style_of).map_or_else(Vec::new, |v| set(STYLE, v)),
            "color" => each(&color_of).map_or_else(Vec::new, |v| set(COLOR, v)),
            // A shorthand: width, style and colour in any order, each at most once.
            _ => {
                let (mut w, mut s, mut c) = (None, None, None);
                for value in &self.values {
                    if let (Some(v), None) = (width(value), w) {
                        w = Some(v);
                    } else if let (Some(v), None) = (style(value), s) {
                        s = Some(v);
                    } else if let (Some(v), None) = (color(value), c) {
                        c = Some(v);
                    } else {
                        return Vec::new();
                    }
                }
                let mut out = set(
                    WIDTH,
                    [Val::Length(Some(Length::Points(w.unwrap_or(MEDIUM)))); 4],
                );
                out.extend(set(STYLE, [Val::Flag(s.unwrap_or(false)); 4]));
                out.extend(set(COLOR, [Val::Paint(c.flatten()); 4]));
                out
            }
        }
    }
}
