//! Pictures in labels: `<img src="data:...">`, which mermaid's HTML labels show above the
//! text after them. A picture embedded in the label (PNG, JPEG or SVG in a `data:` URI) is
//! drawn, at the size its `width` and `height` ask for (else its own), in the node's text
//! area above the text: an SVG as shapes (through the SVG reader's [`Pictures`], which reads
//! each picture once and bounds what one document's pictures draw), a PNG or JPEG as an
//! image. The shapes stand in a group of their own
//! ([`PICTURE_CLASS`]) beside the node; the `.mmd` written back skips that group, since the
//! label's source (see [`crate::undrawn::SOURCE_CLASS`]) still holds the `<img>`.
//! A picture elsewhere (a URL: converters have no network) stays undrawn, with a warning.

use quire_sdk::data_uri;
use quire_sdk::flow::Drawing;
use quire_sdk::geometry::text_area;
use quire_sdk::image_probe;
use quire_sdk::placement::{adopt, Placement};
use quire_sdk::{Asset, Group, Image, Node, Rect, Shape};
use quire_svg_read::pictures::Pictures;

/// The class of the group that holds a label's picture.
pub const PICTURE_CLASS: &str = "mermaid:label-picture";
/// Bytes one label's picture may hold.
const MAX_PICTURE_BYTES: usize = 4 << 20;
/// The largest side of a picture, whatever its attributes or its own size say.
const MAX_SIDE: f64 = 1000.0;
/// Characters of one `<img>` tag read: past it the tag is not a picture.
const MAX_TAG: usize = 4 * MAX_PICTURE_BYTES + 4096;

/// A label's picture, read and sized.
pub struct LabelPicture {
    content: Content,
    pub width: f64,
    pub height: f64,
}

enum Content {
    Drawing(Drawing),
    /// A PNG or JPEG: its media type and bytes.
    Raster(&'static str, Vec<u8>),
}

/// The first picture of node `owner`'s label source that can be drawn; `None` without
/// one. SVGs are read through `pictures`, once per `data:` URI.
pub fn of_label(source: &str, owner: &str, pictures: &mut Pictures) -> Option<LabelPicture> {
    img_tags(source).find_map(|attributes| {
        let attribute = |name: &str| {
            attributes
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        let src = attribute("src")?;
        let uri = data_uri::decode(src, MAX_PICTURE_BYTES)?;
        let content = if uri.media_type == quire_svg_read::MEDIA_TYPE {
            let bytes = uri.bytes;
            let drawing = pictures.drawing(src, owner, || bytes, |_| false).ok()?;
            Content::Drawing(drawing)
        } else {
            Content::Raster(image_probe::picture_media_type(&uri.bytes)?, uri.bytes)
        };
        let (own_w, own_h) = match &content {
            Content::Drawing(d) => (d.width, d.height),
            Content::Raster(_, bytes) => {
                let (_, w, h) = image_probe::size(bytes)?;
                (f64::from(w), f64::from(h))
            }
        };
        if !(own_w > 0.0 && own_h > 0.0 && own_w.is_finite() && own_h.is_finite()) {
            return None;
        }
        let length = |name: &str| {
            attribute(name)
                .map(|v| v.trim().trim_end_matches("px"))
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        let (width, height) = match (length("width"), length("height")) {
            (Some(w), Some(h)) => (w, h),
            (Some(w), None) => (w, w * own_h / own_w),
            (None, Some(h)) => (h * own_w / own_h, h),
            (None, None) => (own_w, own_h),
        };
        let shrink = (MAX_SIDE / width.max(height)).min(1.0);
        Some(LabelPicture {
            content,
            width: width * shrink,
            height: height * shrink,
        })
    })
}

/// Each `<img ...>` tag's attributes, in order. Quoted values may hold `>`.
fn img_tags(source: &str) -> impl Iterator<Item = Vec<(String, String)>> + '_ {
    let mut rest = source;
    std::iter::from_fn(move || loop {
        let at = find_ignoring_case(rest, "<img")?;
        let tag = rest.get(at + 4..).unwrap_or_default();
        if !tag.starts_with(|c: char| c.is_whitespace() || c == '/' || c == '>') {
            rest = tag;
            continue;
        }
        let (attributes, used) = attributes(tag);
        // Past the cut of a tag too long to read (maybe inside a character): nothing more.
        rest = tag.get(used..).unwrap_or_default();
        return Some(attributes);
    })
}

fn find_ignoring_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack.char_indices().map(|(i, _)| i).find(|&i| {
        haystack
            .get(i..i + needle.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(needle))
    })
}

/// The attributes at the start of `tag` (after `<img`) and the bytes read, up to and with
/// the closing `>`.
fn attributes(tag: &str) -> (Vec<(String, String)>, usize) {
    let bytes = tag.as_bytes();
    let end = bytes.len().min(MAX_TAG);
    let mut out = Vec::new();
    let mut i = 0;
    let skip_space = |i: &mut usize| {
        while *i < end && (bytes[*i].is_ascii_whitespace() || bytes[*i] == b'/') {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if i >= end || bytes[i] == b'>' {
            return (out, (i + 1).min(bytes.len()));
        }
        let name_start = i;
        while i < end && !matches!(bytes[i], b'=' | b'>' | b'/') && !bytes[i].is_ascii_whitespace()
        {
            i += 1;
        }
        let name = tag.get(name_start..i).unwrap_or_default().to_string();
        while i < end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < end && bytes[i] == b'=' {
            i += 1;
            while i < end && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let quote = bytes.get(i).copied().filter(|q| matches!(q, b'"' | b'\''));
            let start = i + usize::from(quote.is_some());
            i = start;
            while i < end
                && match quote {
                    Some(q) => bytes[i] != q,
                    None => !bytes[i].is_ascii_whitespace() && bytes[i] != b'>',
                }
            {
                i += 1;
            }
            value = tag.get(start..i).unwrap_or_default().to_string();
            if quote.is_some() {
                i += 1;
            }
        }
        if !name.is_empty() {
            out.push((name, value));
        }
    }
}

/// The space the picture takes above the text in a node's text area.
pub fn room(picture: &LabelPicture, text: (f64, f64)) -> (f64, f64) {
    (text.0.max(picture.width), text.1 + picture.height)
}

/// The picture's shapes, in a group, at the top of `node`'s text area (centred across it,
/// the text and picture together centred down it, as the label's text is); a PNG or JPEG
/// is added to `assets` (where the SVGs' own pictures already are).
pub fn drawn(
    picture: LabelPicture,
    node: &Node,
    text_height: f64,
    assets: &mut Vec<Asset>,
) -> Option<Shape> {
    let area = text_area(node.geometry, node.frame);
    let top = area.y + ((area.h - text_height - picture.height) / 2.0).max(0.0);
    let frame = Rect::new(
        area.x + (area.w - picture.width) / 2.0,
        top,
        picture.width,
        picture.height,
    );
    let group_id = format!("{}:picture", node.id);
    let children = match picture.content {
        Content::Drawing(drawing) => {
            let place = Placement::fit(drawing.width, drawing.height, frame)?;
            let mut shapes = drawing.shapes;
            place.shapes(&mut shapes);
            adopt(&mut shapes, |old| format!("{group_id}.{old}"), |_| None);
            shapes
        }
        Content::Raster(media_type, bytes) => {
            let name = format!("{group_id}-{}", assets.len());
            assets.push(Asset {
                name: name.clone(),
                media_type: media_type.to_string(),
                bytes,
            });
            vec![Shape::Image(Image {
                id: format!("{group_id}.image"),
                frame,
                asset: name,
                alt: None,
                link: None,
            })]
        }
    };
    let mut group = Group::new(group_id, frame, children);
    group.classes.push(PICTURE_CLASS.to_string());
    Some(Shape::Group(group))
}

/// Whether `shape` is a label's picture (which the `.mmd` export leaves to the label).
pub fn is_picture(shape: &Shape) -> bool {
    matches!(shape, Shape::Group(g) if g.classes.iter().any(|c| c == PICTURE_CLASS))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED_CIRCLE: &str = "<img height='100' width='100' src='data:image/svg+xml,%3Csvg viewBox=%220 0 100 100%22 xmlns=%22http://www.w3.org/2000/svg%22%3E%3Ccircle cx=%2250%22 cy=%2250%22 r=%2240%22 fill=%22red%22 /%3E%3C/svg%3E'/> <br/> Red Circle";

    #[test]
    fn a_data_uri_picture_is_read_at_the_size_its_tag_asks() {
        let mut pictures = Pictures::new();
        let p = of_label(RED_CIRCLE, "F", &mut pictures).unwrap();
        assert_eq!((p.width, p.height), (100.0, 100.0));
        assert!(matches!(p.content, Content::Drawing(_)));
        // Only a width: the height keeps the picture's shape (a 2:1 viewBox).
        let wide = "<IMG width=60 src=\"data:image/svg+xml,%3Csvg viewBox='0 0 20 10' xmlns='http://www.w3.org/2000/svg'/%3E\">";
        let p = of_label(wide, "W", &mut pictures).unwrap();
        assert_eq!((p.width, p.height), (60.0, 30.0));
    }

    #[test]
    fn a_picture_is_at_most_1000_points_on_its_longer_side() {
        let huge = RED_CIRCLE.replace("height='100' width='100'", "height='10' width='5000'");
        let p = of_label(&huge, "H", &mut Pictures::new()).unwrap();
        assert_eq!((p.width, p.height), (MAX_SIDE, 2.0));
    }

    #[test]
    fn pictures_that_cannot_be_drawn_are_none() {
        let mut pictures = Pictures::new();
        let mut none = |label: &str| of_label(label, "N", &mut pictures).is_none();
        assert!(none("<img src='https://example.com/a.png'> text"));
        assert!(none("<img src='data:image/png;base64,AAAA'>"));
        assert!(none("<imgx src='data:,x'>"));
        assert!(none("no picture"));
        assert!(none("<img src="));
    }
}
