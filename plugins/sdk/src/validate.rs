//! Reading and checking a model. The host runs this on every import result and every
//! `model` upload, so a malformed model becomes a sentence, never a panic downstream.

use std::collections::{HashMap, HashSet};

use crate::model::*;

/// Limits that keep one document from exhausting an exporter.
pub const MAX_PAGES: usize = 10_000;
pub const MAX_SHAPES: usize = 500_000;
pub const MAX_PAGE_SIDE: f64 = 14_400.0; // 200 inches, the PDF user-space limit
pub const MAX_FONT_SIZE: f64 = 1_000.0;
pub const MAX_GROUP_DEPTH: usize = 64;
/// How far a form field may reach past its page's edge: a box computed in another unit or
/// snapped to a grid lands a fraction of a point out, which is rounding, not a mistake.
pub const FIELD_EDGE_TOLERANCE: f64 = 0.5;

/// The one placement rule for form fields, used by the API's field placement and by the
/// model check alike (so a document's own model always reads back): a positive size, and
/// inside the page give or take [`FIELD_EDGE_TOLERANCE`].
pub fn field_fits_page(frame: &Rect, page_width: f64, page_height: f64) -> bool {
    let t = FIELD_EDGE_TOLERANCE;
    frame.w > 0.0
        && frame.h > 0.0
        && frame.x >= -t
        && frame.y >= -t
        && frame.x + frame.w <= page_width + t
        && frame.y + frame.h <= page_height + t
}

/// What is wrong with a model, with the JSON path where it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ModelError {}

fn err(path: impl Into<String>, message: impl Into<String>) -> ModelError {
    ModelError {
        path: path.into(),
        message: message.into(),
    }
}

/// Parses model JSON, naming the path of the first type error.
/// Whether `s` has the shape of a BCP 47 tag (`ja`, `zh-Hant-TW`); what the font library
/// makes of it is its business.
pub fn is_language_tag(s: &str) -> bool {
    (1..=35).contains(&s.len())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !s.starts_with('-')
}

pub fn parse(json: &str) -> Result<Document, ModelError> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        err(path, e.into_inner().to_string())
    })
}

/// Reads an already-parsed JSON value as a model (the API's `model` field).
pub fn from_value(value: serde_json::Value) -> Result<Document, ModelError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        err(path, e.into_inner().to_string())
    })
}

/// Parses and checks in one step.
pub fn parse_and_check<'a>(
    json: &str,
    asset_names: impl IntoIterator<Item = &'a str>,
) -> Result<Document, ModelError> {
    let doc = parse(json)?;
    check(&doc, asset_names)?;
    Ok(doc)
}

/// Checks what serde cannot: version, sizes, unique ids, references between shapes, assets
/// and fields.
pub fn check<'a>(
    doc: &Document,
    asset_names: impl IntoIterator<Item = &'a str>,
) -> Result<(), ModelError> {
    if doc.model != MODEL_VERSION {
        return Err(err(
            "model",
            format!(
                "unknown model version `{}`; this host reads `{MODEL_VERSION}`",
                doc.model
            ),
        ));
    }
    if doc.pages.is_empty() {
        return Err(err("pages", "a document needs at least one page"));
    }
    if let Some(lang) = &doc.lang {
        if !is_language_tag(lang) {
            return Err(err(
                "lang",
                "must be a BCP 47 language tag: at most 35 of A-Z a-z 0-9 and -",
            ));
        }
    }
    if doc.pages.len() > MAX_PAGES {
        return Err(err("pages", format!("more than {MAX_PAGES} pages")));
    }
    let assets: HashSet<&str> = asset_names.into_iter().collect();
    let mut ids: HashMap<&str, String> = HashMap::new();
    let mut connectors: Vec<(&Connector, String)> = Vec::new();
    let mut count = 0usize;
    for (p, page) in doc.pages.iter().enumerate() {
        let at = format!("pages[{p}]");
        for (name, v) in [("width", page.width), ("height", page.height)] {
            if !v.is_finite() || v <= 0.0 || v > MAX_PAGE_SIDE {
                return Err(err(
                    format!("{at}.{name}"),
                    format!("must be a number of points above 0 and at most {MAX_PAGE_SIDE}"),
                ));
            }
        }
        if page.rotate % 90 != 0 || page.rotate >= 360 {
            return Err(err(format!("{at}.rotate"), "must be 0, 90, 180 or 270"));
        }
        let mut ctx = Ctx {
            ids: &mut ids,
            assets: &assets,
            connectors: &mut connectors,
            count: &mut count,
        };
        check_shapes(&page.shapes, &format!("{at}.shapes"), 0, &mut ctx)?;
    }
    for (c, at) in connectors {
        for (name, end) in [("from", &c.from), ("to", &c.to)] {
            match (&end.shape, &end.point) {
                (Some(id), _) => {
                    if let Some(port) = &end.port {
                        let inside = |v: f64| (0.0..=1.0).contains(&v);
                        if !(inside(port.x) && inside(port.y)) {
                            return Err(err(
                                format!("{at}.{name}.port"),
                                "a port is a fraction of the shape's frame: x and y from 0 to 1",
                            ));
                        }
                    }
                    if !ids.contains_key(id.as_str()) {
                        return Err(err(
                            format!("{at}.{name}.shape"),
                            format!(
                                "connector `{}` is attached to `{id}`, which no shape has as id",
                                c.id
                            ),
                        ));
                    }
                }
                (None, Some(pt)) => finite_point(pt, &format!("{at}.{name}.point"))?,
                (None, None) => {
                    return Err(err(
                        format!("{at}.{name}"),
                        "a connector end needs a `shape` it is attached to or a loose `point`",
                    ))
                }
            }
        }
    }
    check_fields(doc)?;
    Ok(())
}

struct Ctx<'a, 'b> {
    ids: &'a mut HashMap<&'b str, String>,
    assets: &'a HashSet<&'b str>,
    connectors: &'a mut Vec<(&'b Connector, String)>,
    count: &'a mut usize,
}

fn check_shapes<'b>(
    shapes: &'b [Shape],
    at: &str,
    depth: usize,
    ctx: &mut Ctx<'_, 'b>,
) -> Result<(), ModelError> {
    if depth > MAX_GROUP_DEPTH {
        return Err(err(
            at,
            format!("groups nest deeper than {MAX_GROUP_DEPTH}"),
        ));
    }
    for (i, shape) in shapes.iter().enumerate() {
        let here = format!("{at}[{i}]");
        *ctx.count += 1;
        if *ctx.count > MAX_SHAPES {
            return Err(err(
                here,
                format!("more than {MAX_SHAPES} shapes in the document"),
            ));
        }
        let id = shape.id();
        if id.is_empty() {
            return Err(err(
                format!("{here}.id"),
                "every shape needs a non-empty id",
            ));
        }
        if let Some(first) = ctx.ids.insert(id, here.clone()) {
            return Err(err(
                format!("{here}.id"),
                format!("id `{id}` is used twice (first at {first})"),
            ));
        }
        if let Some(frame) = shape.frame() {
            check_frame(&frame, &here)?;
        }
        match shape {
            Shape::Text(t) => check_text(&t.text, &here)?,
            Shape::Image(img) => {
                if !ctx.assets.contains(img.asset.as_str()) {
                    return Err(err(
                        format!("{here}.asset"),
                        format!(
                            "image asset `{}` was not supplied with the document",
                            img.asset
                        ),
                    ));
                }
            }
            Shape::Node(n) => {
                if let Some(t) = &n.text {
                    check_text(t, &format!("{here}.text"))?;
                }
                check_stroke(n.stroke.as_ref(), &here)?;
            }
            Shape::Path(p) => {
                if p.segments.is_empty() {
                    return Err(err(
                        format!("{here}.segments"),
                        "a path needs at least one segment",
                    ));
                }
                if !matches!(p.segments[0], Segment::MoveTo { .. }) {
                    return Err(err(
                        format!("{here}.segments[0]"),
                        "a path starts with move_to",
                    ));
                }
                for (s, seg) in p.segments.iter().enumerate() {
                    let ok = match *seg {
                        Segment::MoveTo { x, y } | Segment::LineTo { x, y } => finite(&[x, y]),
                        Segment::CubicTo {
                            x1,
                            y1,
                            x2,
                            y2,
                            x,
                            y,
                        } => finite(&[x1, y1, x2, y2, x, y]),
                        Segment::Close => true,
                    };
                    if !ok {
                        return Err(err(
                            format!("{here}.segments[{s}]"),
                            "coordinates must be finite numbers",
                        ));
                    }
                }
                check_stroke(p.stroke.as_ref(), &here)?;
            }
            Shape::Connector(c) => {
                for (w, pt) in c.waypoints.iter().enumerate() {
                    finite_point(pt, &format!("{here}.waypoints[{w}]"))?;
                }
                if let Some(t) = &c.label {
                    check_text(t, &format!("{here}.label"))?;
                }
                check_stroke(c.stroke.as_ref(), &here)?;
                ctx.connectors.push((c, here.clone()));
            }
            Shape::Group(g) => {
                if let Some(t) = &g.label {
                    check_text(t, &format!("{here}.label"))?;
                }
                check_shapes(&g.children, &format!("{here}.children"), depth + 1, ctx)?;
            }
        }
    }
    Ok(())
}

fn finite(values: &[f64]) -> bool {
    values.iter().all(|v| v.is_finite())
}

fn finite_point(p: &Point, at: &str) -> Result<(), ModelError> {
    if finite(&[p.x, p.y]) {
        Ok(())
    } else {
        Err(err(at, "coordinates must be finite numbers"))
    }
}

fn check_frame(r: &Rect, at: &str) -> Result<(), ModelError> {
    if !finite(&[r.x, r.y, r.w, r.h]) {
        return Err(err(at, "x, y, w and h must be finite numbers"));
    }
    if r.w < 0.0 || r.h < 0.0 {
        return Err(err(at, "w and h must not be negative"));
    }
    Ok(())
}

fn check_stroke(stroke: Option<&Stroke>, at: &str) -> Result<(), ModelError> {
    match stroke {
        Some(s) if !s.width.is_finite() || s.width < 0.0 || s.width > 1000.0 => Err(err(
            format!("{at}.stroke.width"),
            "must be between 0 and 1000",
        )),
        _ => Ok(()),
    }
}

fn check_text(t: &Text, at: &str) -> Result<(), ModelError> {
    if !t.line_height.is_finite() || t.line_height <= 0.0 || t.line_height > 10.0 {
        return Err(err(
            format!("{at}.line_height"),
            "must be above 0 and at most 10",
        ));
    }
    if let Some(p) = &t.padding {
        let sides = [
            ("top", p.top),
            ("right", p.right),
            ("bottom", p.bottom),
            ("left", p.left),
        ];
        if let Some((side, _)) = sides
            .iter()
            .find(|(_, v)| !v.is_finite() || *v < 0.0 || *v > MAX_PAGE_SIDE)
        {
            return Err(err(
                format!("{at}.padding.{side}"),
                format!("must be between 0 and {MAX_PAGE_SIDE}"),
            ));
        }
    }
    for (r, run) in t.runs.iter().enumerate() {
        if !run.size.is_finite() || run.size <= 0.0 || run.size > MAX_FONT_SIZE {
            return Err(err(
                format!("{at}.runs[{r}].size"),
                format!("font size must be above 0 and at most {MAX_FONT_SIZE}"),
            ));
        }
        if run.lang.as_deref().is_some_and(|l| !is_language_tag(l)) {
            return Err(err(
                format!("{at}.runs[{r}].lang"),
                "must be a BCP 47 language tag: at most 35 of A-Z a-z 0-9 and -",
            ));
        }
    }
    Ok(())
}

fn check_fields(doc: &Document) -> Result<(), ModelError> {
    // One key is one question: every box of a key must agree on type and options.
    let mut first_of_key: HashMap<&str, &Field> = HashMap::new();
    for (i, f) in doc.fields.iter().enumerate() {
        let at = format!("fields[{i}]");
        if f.key.trim().is_empty() {
            return Err(err(format!("{at}.key"), "a field needs a non-empty key"));
        }
        if f.page == 0 || f.page as usize > doc.pages.len() {
            return Err(err(
                format!("{at}.page"),
                format!(
                    "page {} does not exist; pages run from 1 to {}",
                    f.page,
                    doc.pages.len()
                ),
            ));
        }
        check_frame(&f.frame, &at)?;
        if let Some(look) = &f.look {
            if !(0.0..=12.0).contains(&look.border_width) {
                return Err(err(
                    format!("{at}.look.border_width"),
                    "must be between 0 and 12",
                ));
            }
        }
        let page = &doc.pages[f.page as usize - 1];
        if !field_fits_page(&f.frame, page.width, page.height) {
            return Err(err(
                at,
                format!(
                    "field `{}` must lie inside page {} ({} x {} points) with a positive size",
                    f.key, f.page, page.width, page.height
                ),
            ));
        }
        if f.field_type.chooses() && f.options.is_empty() {
            return Err(err(
                format!("{at}.options"),
                format!(
                    "a {} field needs options to choose from",
                    f.field_type.as_str()
                ),
            ));
        }
        if let Some(first) = first_of_key.get(f.key.as_str()) {
            if first.field_type != f.field_type {
                return Err(err(
                    format!("{at}.type"),
                    format!(
                        "key `{}` is one question and already has type {}",
                        f.key,
                        first.field_type.as_str()
                    ),
                ));
            }
        } else {
            first_of_key.insert(&f.key, f);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_page(shapes: serde_json::Value) -> String {
        serde_json::json!({
            "model": "quire/1", "kind": "diagram",
            "pages": [{"width": 200, "height": 100, "shapes": shapes}]
        })
        .to_string()
    }

    #[test]
    fn reads_a_connected_diagram() {
        let json = one_page(serde_json::json!([
            {"type": "node", "id": "a", "x": 0, "y": 0, "w": 40, "h": 20, "geometry": "diamond"},
            {"type": "group", "id": "g", "x": 50, "y": 0, "w": 100, "h": 80, "children": [
                {"type": "node", "id": "b", "x": 60, "y": 10, "w": 40, "h": 20}
            ]},
            {"type": "connector", "id": "e", "from": {"shape": "a"}, "to": {"shape": "b", "head": "arrow"}}
        ]));
        let doc = parse_and_check(&json, []).unwrap();
        assert_eq!(doc.shapes().count(), 4);
    }

    #[test]
    fn a_field_may_reach_half_a_point_past_its_page() {
        let page = |w: f64| {
            serde_json::json!({
                "model": "quire/1", "kind": "pdf",
                "pages": [{"width": 200, "height": 100, "shapes": []}],
                "fields": [{"key": "k", "type": "text", "label": "K", "page": 1,
                            "x": 100, "y": 10, "w": w, "h": 20}]
            })
            .to_string()
        };
        assert!(parse_and_check(&page(100.4), []).is_ok());
        let e = parse_and_check(&page(100.6), []).unwrap_err();
        assert!(e.message.contains("must lie inside page 1"), "{e}");
        assert!(!field_fits_page(&Rect::new(0.0, 0.0, 0.0, 5.0), 10.0, 10.0));
    }

    #[test]
    fn names_the_path_of_a_type_error() {
        let json = one_page(
            serde_json::json!([{"type": "node", "id": "a", "x": "left", "y": 0, "w": 1, "h": 1}]),
        );
        let e = parse(&json).unwrap_err();
        assert!(e.to_string().contains("pages[0].shapes[0]"), "{e}");
    }

    #[test]
    fn refuses_dangling_connector_and_duplicate_ids() {
        let json = one_page(serde_json::json!([
            {"type": "connector", "id": "e", "from": {"shape": "nope"}, "to": {"point": {"x": 1, "y": 2}}}
        ]));
        let e = parse_and_check(&json, []).unwrap_err();
        assert!(e.message.contains("`nope`"), "{e}");

        let json = one_page(serde_json::json!([
            {"type": "node", "id": "a", "x": 0, "y": 0, "w": 1, "h": 1},
            {"type": "text", "id": "a", "x": 0, "y": 0, "w": 1, "h": 1, "runs": []}
        ]));
        assert!(parse_and_check(&json, [])
            .unwrap_err()
            .message
            .contains("used twice"));
    }

    /// A text's padding is a length on each side: negative, huge or not a number is refused
    /// with the side named.
    #[test]
    fn a_texts_padding_is_a_length_on_each_side() {
        let with_padding = |left: serde_json::Value| {
            one_page(serde_json::json!([
                {"type": "text", "id": "t", "x": 0, "y": 0, "w": 100, "h": 20, "runs": [],
                 "padding": {"top": 0, "right": 2, "bottom": 0, "left": left}}
            ]))
        };
        assert!(parse_and_check(&with_padding(serde_json::json!(30)), []).is_ok());
        for bad in [serde_json::json!(-1), serde_json::json!(1e9)] {
            let e = parse_and_check(&with_padding(bad), []).unwrap_err();
            assert!(e.path.ends_with("padding.left"), "{e}");
        }
    }

    #[test]
    fn a_port_lies_on_its_shape() {
        let with_port = |x: f64| {
            one_page(serde_json::json!([
                {"type": "node", "id": "a", "x": 0, "y": 0, "w": 10, "h": 10},
                {"type": "connector", "id": "e", "from": {"shape": "a", "port": {"x": x, "y": 1}},
                 "to": {"point": {"x": 50, "y": 50}}}
            ]))
        };
        assert!(parse_and_check(&with_port(0.25), []).is_ok());
        let e = parse_and_check(&with_port(1.5), []).unwrap_err();
        assert_eq!(e.path, "pages[0].shapes[1].from.port", "{e}");
    }

    #[test]
    fn run_lang_and_text_direction() {
        let text = |run: serde_json::Value, dir: &str| {
            one_page(serde_json::json!([{
                "type": "text", "id": "t", "x": 0, "y": 0, "w": 100, "h": 20,
                "runs": [run], "direction": dir
            }]))
        };
        let json = text(serde_json::json!({"text": "骨", "lang": "zh-Hant"}), "rtl");
        let doc = parse_and_check(&json, []).unwrap();
        let Some(crate::Shape::Text(t)) = doc.pages[0].shapes.first() else {
            panic!("{doc:?}")
        };
        assert_eq!(t.text.runs[0].lang.as_deref(), Some("zh-Hant"));
        assert_eq!(t.text.direction, Some(crate::Direction::Rtl));
        // Written back as read; absent fields stay absent.
        let again = serde_json::to_value(&doc).unwrap();
        assert_eq!(again["pages"][0]["shapes"][0]["direction"], "rtl");
        assert!(serde_json::to_value(crate::Run::plain("a", 10.0))
            .unwrap()
            .get("lang")
            .is_none());

        let json = text(serde_json::json!({"text": "a", "lang": "ja jp"}), "ltr");
        let e = parse_and_check(&json, []).unwrap_err();
        assert_eq!(e.path, "pages[0].shapes[0].runs[0].lang", "{e}");
        assert!(parse(&text(serde_json::json!({"text": "a"}), "up")).is_err());
    }

    #[test]
    fn refuses_missing_asset_bad_colour_and_field_off_page() {
        let json = one_page(serde_json::json!([
            {"type": "image", "id": "i", "x": 0, "y": 0, "w": 1, "h": 1, "asset": "logo.png"}
        ]));
        assert!(parse_and_check(&json, [])
            .unwrap_err()
            .message
            .contains("logo.png"));
        assert!(parse_and_check(&json, ["logo.png"]).is_ok());

        let json = one_page(serde_json::json!([
            {"type": "node", "id": "a", "x": 0, "y": 0, "w": 1, "h": 1, "fill": "red"}
        ]));
        assert!(parse(&json).unwrap_err().message.contains("not a colour"));

        let json = serde_json::json!({
            "model": "quire/1", "kind": "pdf",
            "pages": [{"width": 200, "height": 100}],
            "fields": [{"key": "name", "type": "text", "page": 1, "x": 150, "y": 10, "w": 100, "h": 20}]
        })
        .to_string();
        assert!(parse_and_check(&json, [])
            .unwrap_err()
            .message
            .contains("inside page 1"));
    }

    #[test]
    fn refuses_other_versions_and_empty_documents() {
        let json = r#"{"model": "quire/9", "kind": "pdf", "pages": [{"width": 1, "height": 1}]}"#;
        assert!(parse_and_check(json, [])
            .unwrap_err()
            .message
            .contains("quire/9"));
        let json = r#"{"model": "quire/1", "kind": "pdf", "pages": []}"#;
        assert!(parse_and_check(json, [])
            .unwrap_err()
            .message
            .contains("at least one page"));
    }
}
