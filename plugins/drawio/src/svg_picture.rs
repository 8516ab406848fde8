//! Cells whose picture is an SVG (draw.io's icon libraries and pasted drawings are): the
//! picture read by Quire's SVG reader into model shapes, fitted into the cell as draw.io
//! fits a picture (its aspect kept, centred), so every exporter draws it as vectors and
//! its text stays text. A picture the reader refuses stays an SVG asset.

use std::collections::HashMap;

use quire_sdk::{ImportRequest, Rect, Shape};

use crate::fit::Transform;
use crate::unique::Assets;
use crate::unique::Ids;

/// The picture's shapes placed in `frame`, their ids made unique under `owner` and their
/// pictures added to `assets`; `None` when the SVG cannot be read.
pub fn shapes(
    bytes: Vec<u8>,
    frame: Rect,
    owner: &str,
    page: usize,
    ids: &mut Ids,
    assets: &mut Assets,
) -> Option<Vec<Shape>> {
    let imported =
        quire_svg_read::import_svg(ImportRequest::new(bytes, quire_svg_read::MEDIA_TYPE)).ok()?;
    let drawing = imported.document.pages.into_iter().next()?;
    if !(drawing.width > 0.0 && drawing.height > 0.0) {
        return None;
    }
    let scale = (frame.w / drawing.width).min(frame.h / drawing.height);
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let left = frame.x + (frame.w - drawing.width * scale) / 2.0;
    let top = frame.y + (frame.h - drawing.height * scale) / 2.0;
    let place = Transform {
        dx: left / scale,
        dy: top / scale,
        scale,
    };
    let renamed_assets: HashMap<String, String> = imported
        .assets
        .into_iter()
        .map(|a| {
            let name = assets.add(&a.media_type, a.bytes);
            (a.name, name)
        })
        .collect();
    let mut renamed_ids = HashMap::new();
    let mut shapes = drawing.shapes;
    for shape in &mut shapes {
        place.shape(shape);
        adopt(shape, owner, page, ids, &mut renamed_ids, &renamed_assets);
    }
    for shape in &mut shapes {
        reattach(shape, &renamed_ids);
    }
    Some(shapes)
}

/// Gives a shape of the picture (and its children) an id of the document's own, under the
/// cell's, and the asset names the document knows its pictures by.
fn adopt(
    shape: &mut Shape,
    owner: &str,
    page: usize,
    ids: &mut Ids,
    renamed_ids: &mut HashMap<String, String>,
    renamed_assets: &HashMap<String, String>,
) {
    let id = ids.alloc(page, &format!("{owner}.{}", shape.id()));
    renamed_ids.insert(shape.id().to_string(), id.clone());
    match shape {
        Shape::Text(s) => s.id = id,
        Shape::Image(s) => {
            s.id = id;
            if let Some(name) = renamed_assets.get(&s.asset) {
                s.asset = name.clone();
            }
        }
        Shape::Node(s) => s.id = id,
        Shape::Path(s) => s.id = id,
        Shape::Connector(s) => s.id = id,
        Shape::Group(g) => {
            g.id = id;
            for child in &mut g.children {
                adopt(child, owner, page, ids, renamed_ids, renamed_assets);
            }
        }
    }
}

/// Connectors of the picture keep their ends on the renamed shapes.
fn reattach(shape: &mut Shape, renamed_ids: &HashMap<String, String>) {
    match shape {
        Shape::Connector(c) => {
            for end in [&mut c.from, &mut c.to] {
                if let Some(new) = end.shape.as_ref().and_then(|s| renamed_ids.get(s)) {
                    end.shape = Some(new.clone());
                }
            }
        }
        Shape::Group(g) => {
            for child in &mut g.children {
                reattach(child, renamed_ids);
            }
        }
        _ => {}
    }
}
