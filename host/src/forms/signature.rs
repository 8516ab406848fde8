//! Drawn signatures: an answer to a signature question may be the strokes a person drew
//! (with a finger, pen or mouse on the form page, or sent through the API) instead of a
//! typed name. The strokes are plain numbers, so the host never decodes a picture; the
//! filled copy gets them as ink (a path shape) inside the question's box.
//!
//! The answer is `{"width": W, "height": H, "strokes": [[x0, y0, x1, y1, ...], ...]}`:
//! each stroke a polyline in the drawing pad's own units, the pad `W` by `H`.

use quire_sdk::{Color, PathShape, Rect, Segment, Stroke};
use serde_json::{Map, Number, Value};

/// Enough for a long name written slowly; each point costs a few bytes of the response.
const MOST_POINTS: usize = 5000;
const MOST_STROKES: usize = 200;
/// A pad larger than any screen is not a pad.
const LARGEST_PAD: f64 = 10_000.0;
/// Dark blue, as a pen signs.
const INK: Color = Color::rgb(0x1a, 0x23, 0x7e);

/// Whether an answer is a drawing rather than a typed name.
pub fn is_drawn(value: &Value) -> bool {
    value.as_object().is_some_and(|o| o.contains_key("strokes"))
}

/// The drawing, checked and rounded to a tenth of a pad unit (finer is noise): `Ok(None)`
/// for a drawing with no strokes, `Err` with a sentence for anything malformed.
pub fn normalise(value: &Map<String, Value>) -> Result<Option<Value>, String> {
    let dimension = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_f64)
            .filter(|d| *d > 0.0 && *d <= LARGEST_PAD)
            .ok_or_else(|| {
                format!(
                    "a drawn signature needs `{name}`, a number above 0 and at most {LARGEST_PAD}"
                )
            })
    };
    let (width, height) = (dimension("width")?, dimension("height")?);
    let Some(Value::Array(strokes)) = value.get("strokes") else {
        return Err("a drawn signature's `strokes` is an array of strokes".into());
    };
    if strokes.len() > MOST_STROKES {
        return Err(format!(
            "a drawn signature has at most {MOST_STROKES} strokes"
        ));
    }
    if let Some(extra) = value
        .keys()
        .find(|k| !matches!(k.as_str(), "width" | "height" | "strokes"))
    {
        return Err(format!(
            "a drawn signature has `width`, `height` and `strokes`, not `{extra}`"
        ));
    }
    let mut points = 0;
    let mut kept = Vec::with_capacity(strokes.len());
    for stroke in strokes {
        let Some(numbers) = stroke.as_array() else {
            return Err("each stroke of a drawn signature is an array of numbers".into());
        };
        if numbers.len() < 2 || numbers.len() % 2 != 0 {
            return Err("each stroke is x, y pairs: an even count of numbers, at least two".into());
        }
        points += numbers.len() / 2;
        if points > MOST_POINTS {
            return Err(format!(
                "a drawn signature has at most {MOST_POINTS} points"
            ));
        }
        let mut out = Vec::with_capacity(numbers.len());
        for (i, n) in numbers.iter().enumerate() {
            let limit = if i % 2 == 0 { width } else { height };
            let n = n
                .as_f64()
                .filter(|n| n.is_finite())
                .ok_or("each point of a stroke is a pair of numbers")?;
            // A pointer dragged past the pad's edge is still signing: kept at the edge.
            let n = (n.clamp(0.0, limit) * 10.0).round() / 10.0;
            out.push(number(n));
        }
        kept.push(Value::Array(out));
    }
    if kept.is_empty() {
        return Ok(None);
    }
    let mut drawing = Map::new();
    drawing.insert("width".into(), number(width));
    drawing.insert("height".into(), number(height));
    drawing.insert("strokes".into(), Value::Array(kept));
    Ok(Some(Value::Object(drawing)))
}

/// Whole numbers stay integers, as a client most likely sent them.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        return Value::Number(Number::from(n as i64));
    }
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// The ink of a checked drawing, fitted into `frame` (whole, centred, its proportions kept).
pub fn ink(drawing: &Value, frame: Rect, id: String) -> Option<PathShape> {
    let width = drawing.get("width")?.as_f64()?;
    let height = drawing.get("height")?.as_f64()?;
    let scale = (frame.w / width).min(frame.h / height);
    let left = frame.x + (frame.w - width * scale) / 2.0;
    let top = frame.y + (frame.h - height * scale) / 2.0;
    let mut segments = Vec::new();
    for stroke in drawing.get("strokes")?.as_array()? {
        let numbers: Vec<f64> = stroke
            .as_array()?
            .iter()
            .filter_map(Value::as_f64)
            .collect();
        for (i, pair) in numbers.chunks_exact(2).enumerate() {
            let (x, y) = (left + pair[0] * scale, top + pair[1] * scale);
            segments.push(if i == 0 {
                Segment::MoveTo { x, y }
            } else {
                Segment::LineTo { x, y }
            });
        }
        // A tap is a dot: a stroke of one point still leaves a mark.
        if numbers.len() == 2 {
            let (x, y) = (left + numbers[0] * scale, top + numbers[1] * scale);
            segments.push(Segment::LineTo { x: x + 0.3, y });
        }
    }
    Some(PathShape {
        shadow: false,
        id,
        segments,
        fill: None,
        stroke: Some(Stroke::solid(INK, (frame.h / 40.0).clamp(0.6, 2.0))),
        even_odd: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_drawing_is_checked_rounded_and_clamped() {
        let drawn = json!({"width": 300, "height": 100, "strokes": [[10.04, 20.06, 400, -5]]});
        let kept = normalise(drawn.as_object().unwrap()).unwrap().unwrap();
        assert_eq!(kept["strokes"], json!([[10, 20.1, 300, 0]]));
        assert_eq!(
            normalise(
                json!({"width": 3, "height": 1, "strokes": []})
                    .as_object()
                    .unwrap()
            ),
            Ok(None)
        );
        for bad in [
            json!({"width": 0, "height": 1, "strokes": [[1, 1]]}),
            json!({"width": 3, "height": 1, "strokes": [[1]]}),
            json!({"width": 3, "height": 1, "strokes": [["a", 1]]}),
            json!({"width": 3, "height": 1, "strokes": [[1, 1]], "colour": "red"}),
            json!({"width": 3, "height": 1, "strokes": vec![json!([0, 0]); 201]}),
            json!({"width": 3, "height": 1, "strokes": [vec![1; 10_002]]}),
        ] {
            assert!(
                normalise(bad.as_object().unwrap()).is_err(),
                "{bad} was taken"
            );
        }
    }

    #[test]
    fn ink_fits_the_box_and_keeps_proportions() {
        let drawn = json!({"width": 200, "height": 100, "strokes": [[0, 0, 200, 100], [50, 50]]});
        let frame = Rect {
            x: 100.0,
            y: 500.0,
            w: 100.0,
            h: 100.0,
        };
        let path = ink(&drawn, frame, "s".into()).unwrap();
        // Scaled by 0.5 and centred vertically: 50 points of the box's 100 are ink.
        assert_eq!(path.segments[0], Segment::MoveTo { x: 100.0, y: 525.0 });
        assert_eq!(path.segments[1], Segment::LineTo { x: 200.0, y: 575.0 });
        assert_eq!(path.segments.len(), 4, "a tap leaves a dot");
    }
}
