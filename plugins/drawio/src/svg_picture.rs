//! Cells whose picture is an SVG (draw.io's icon libraries and pasted drawings are): the
//! picture read by Quire's SVG reader into model shapes, fitted into the cell as draw.io
//! fits a picture (its aspect kept, centred), so every exporter draws it as vectors and
//! its text stays text. A picture the reader refuses stays an SVG asset.

use std::collections::HashMap;

use quire_sdk::placement::{adopt, Placement};
use quire_sdk::{Rect, Shape};

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
    let picture = quire_svg_read::read_picture(bytes).ok()?;
    let place = Placement::fit(picture.width, picture.height, frame)?;
    let renamed_assets: HashMap<String, String> = picture
        .assets
        .into_iter()
        .map(|a| {
            let name = assets.add(&a.media_type, a.bytes);
            (a.name, name)
        })
        .collect();
    let mut shapes = picture.shapes;
    place.shapes(&mut shapes);
    adopt(
        &mut shapes,
        |old| ids.alloc(page, &format!("{owner}.{old}")),
        |name| renamed_assets.get(name).cloned(),
    );
    Some(shapes)
}
