//! SVG pictures of a Markdown or HTML document (`![logo](logo.svg)`, an `<img>` of SVG, an
//! inline `<svg>`): each read once into a drawing the flow layout fits into the picture's
//! box, so every exporter draws it as vectors and its text stays text. The PNG and JPEG
//! pictures an SVG embeds become assets of the document under names of their own.

use std::collections::HashMap;

use quire_sdk::flow::{Drawing, ImageSource};
use quire_sdk::image_probe;
use quire_sdk::placement::adopt;
use quire_sdk::{Asset, ShapeWalk};

use crate::MAX_SHAPES;
pub use crate::MEDIA_TYPE;

/// Most SVG pictures one document reads (copies of one file count once): a page of icons
/// has dozens; each read parses a whole file.
pub const MAX_PICTURES: usize = 1_000;

/// The SVG pictures of one document.
#[derive(Default)]
pub struct Pictures {
    /// Each SVG read so far, by the key its caller gave (an asset name, a `data:` URI), to
    /// its drawing or why it cannot be drawn.
    read: HashMap<String, Result<Drawing, String>>,
    /// Shapes placed so far, copies included: a picture placed a thousand times costs its
    /// shapes a thousand times.
    placed_shapes: usize,
    /// The pictures the SVGs embed, under the document's names for them.
    pub assets: Vec<Asset>,
    /// Lossy things the reader noted, once each.
    pub warnings: Vec<String>,
}

impl Pictures {
    pub fn new() -> Self {
        Self::default()
    }

    /// The drawing of the SVG `bytes` known as `key` (read on its first use; `name` is what
    /// warnings call it), or why it cannot be drawn: `Some(reason)` for this picture, `None`
    /// when a bound of the document leaves it out (said once in [`Self::warnings`]).
    /// `taken` says which asset names the document already uses.
    pub fn drawing(
        &mut self,
        key: &str,
        name: &str,
        bytes: impl FnOnce() -> Vec<u8>,
        taken: impl Fn(&str) -> bool,
    ) -> Result<Drawing, Option<String>> {
        if !self.read.contains_key(key) {
            if self.read.len() >= MAX_PICTURES {
                self.note(format!(
                    "the document has more than {MAX_PICTURES} SVG pictures; the rest are \
                     left out and their alt text stands in"
                ));
                return Err(None);
            }
            let read = self.read(name, bytes(), &taken);
            self.read.insert(key.to_string(), read);
        }
        let drawing = self.read[key].clone().map_err(Some)?;
        let cost = ShapeWalk::new(&drawing.shapes).count().max(1);
        if self.placed_shapes + cost > MAX_SHAPES {
            self.note(format!(
                "the document's SVG pictures would draw more than {MAX_SHAPES} shapes; the \
                 rest are left out and their alt text stands in"
            ));
            return Err(None);
        }
        self.placed_shapes += cost;
        Ok(drawing)
    }

    fn note(&mut self, warning: String) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }

    /// A picture the request supplied, as the flow shows it, with its size in pixels: a PNG
    /// or JPEG as the asset (added to `used` once), an SVG as a drawing; or a warning saying
    /// why it cannot be shown (`None` when a document's bound left it out, said once). `supplied` is every picture of the request, whose names the
    /// SVG's own pictures must not take.
    pub fn supplied(
        &mut self,
        asset: &Asset,
        supplied: &[Asset],
        used: &mut Vec<Asset>,
    ) -> Result<(ImageSource, u32, u32), Option<String>> {
        if let Some((kind, width, height)) = image_probe::size(&asset.bytes) {
            if !used.iter().any(|a| a.name == asset.name) {
                let mut kept = asset.clone();
                if kept.media_type.is_empty() {
                    kept.media_type = kind.media_type().to_string();
                }
                used.push(kept);
            }
            return Ok((ImageSource::Asset(asset.name.clone()), width, height));
        }
        if !looks_like_svg(&asset.bytes) {
            return Err(Some(format!(
                "image `{}` is not a readable PNG, JPEG or SVG picture; its alt text stands in",
                asset.name
            )));
        }
        let taken = |name: &str| supplied.iter().chain(used.iter()).any(|a| a.name == name);
        let drawing = self
            .drawing(&asset.name, &asset.name, || asset.bytes.clone(), taken)
            .map_err(|why| why.map(|why| unreadable(&asset.name, &why)))?;
        let (width, height) = pixel_size(&drawing);
        Ok((ImageSource::Drawing(drawing), width, height))
    }

    fn read(
        &mut self,
        name: &str,
        bytes: Vec<u8>,
        taken: &dyn Fn(&str) -> bool,
    ) -> Result<Drawing, String> {
        let picture = crate::read_picture(bytes).map_err(|e| e.to_string())?;
        let mut renamed = HashMap::new();
        for asset in picture.assets {
            let stem = name.rsplit(['/', '\\']).next().unwrap_or(name);
            let mut n = 1;
            let own = loop {
                let candidate = format!("{stem}-{n}-{}", asset.name);
                let clash = |a: &Asset| a.name == candidate;
                if !taken(&candidate) && !self.assets.iter().any(clash) {
                    break candidate;
                }
                n += 1;
            };
            renamed.insert(asset.name.clone(), own.clone());
            self.assets.push(Asset { name: own, ..asset });
        }
        let mut shapes = picture.shapes;
        adopt(&mut shapes, str::to_string, |old| renamed.get(old).cloned());
        for warning in picture.warnings {
            let warning = format!("SVG picture `{name}`: {warning}");
            if !self.warnings.contains(&warning) {
                self.warnings.push(warning);
            }
        }
        Ok(Drawing {
            name: name.to_string(),
            width: picture.width,
            height: picture.height,
            shapes,
        })
    }
}

/// Why an SVG picture cannot be drawn, as a warning says it.
pub fn unreadable(name: &str, why: &str) -> String {
    format!("SVG picture `{name}` could not be read ({why}); its alt text stands in")
}

/// A drawing's size in CSS pixels (96 dpi), as the flow sizes pictures: at least 1 each way.
pub fn pixel_size(drawing: &Drawing) -> (u32, u32) {
    let px = |pt: f64| ((pt / crate::PT_PER_PX).round() as u32).max(1);
    (px(drawing.width), px(drawing.height))
}

/// Whether `bytes` look like an SVG file (its root element, after any XML declaration,
/// comments and doctype), the way a browser's `<img>` takes an SVG it is given.
pub fn looks_like_svg(bytes: &[u8]) -> bool {
    quire_sdk::image_probe::Signature::of(bytes) == Some(quire_sdk::image_probe::Signature::Svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use quire_sdk::Shape;

    const LOGO: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect id="box" x="0" y="0" width="120" height="60" fill="#0d6efd"/><text x="10" y="40" font-size="20">Quire</text></svg>"##;

    #[test]
    fn a_picture_is_read_once_in_points_with_its_text_kept() {
        let mut pictures = Pictures::new();
        let mut reads = 0;
        for _ in 0..3 {
            let d = pictures
                .drawing(
                    "logo.svg",
                    "logo.svg",
                    || {
                        reads += 1;
                        LOGO.as_bytes().to_vec()
                    },
                    |_| false,
                )
                .unwrap();
            assert_eq!((d.width, d.height), (90.0, 45.0));
            let texts: Vec<String> = ShapeWalk::new(&d.shapes)
                .filter_map(|s| match s {
                    Shape::Text(t) => Some(t.text.runs.iter().map(|r| r.text.as_str()).collect()),
                    _ => None,
                })
                .collect();
            assert_eq!(texts, ["Quire"]);
        }
        assert_eq!(reads, 1);
        let broken = pictures.drawing("x.svg", "x.svg", || b"<svg".to_vec(), |_| false);
        assert!(broken.unwrap_err().unwrap().contains("well-formed"));
    }

    /// A PNG an SVG embeds becomes an asset of the document under a name no other asset
    /// has, and the picture's image shape names it.
    #[test]
    fn embedded_pictures_get_names_of_their_own() {
        let png = std::fs::read(
            quire_sdk::corpus_dir().join("images/pngsuite-basn3p04-4bit-palette.png"),
        )
        .unwrap();
        let b64 = base64::engine::general_purpose::STANDARD.encode(&png);
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><image href="data:image/png;base64,{b64}" width="32" height="32"/></svg>"#
        );
        let mut pictures = Pictures::new();
        let taken = |n: &str| n == "a.svg-1-svg-image-1.png";
        let d = pictures
            .drawing("a.svg", "a.svg", || svg.into_bytes(), taken)
            .unwrap();
        assert_eq!(pictures.assets.len(), 1);
        assert_eq!(pictures.assets[0].name, "a.svg-2-svg-image-1.png");
        let Shape::Image(i) = &d.shapes[0] else {
            panic!("{:?}", d.shapes)
        };
        assert_eq!(i.asset, "a.svg-2-svg-image-1.png");
    }

    /// Placing one big picture again and again stops at the shape bound.
    #[test]
    fn copies_of_a_picture_count_against_the_shape_bound() {
        let rects: String = (0..1000)
            .map(|i| format!(r#"<rect x="{i}" y="0" width="1" height="1"/>"#))
            .collect();
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="10">{rects}</svg>"#
        );
        let mut pictures = Pictures::new();
        let placed = (0..200)
            .take_while(|_| {
                pictures
                    .drawing("big", "big.svg", || svg.clone().into_bytes(), |_| false)
                    .is_ok()
            })
            .count();
        assert_eq!(placed, MAX_SHAPES / 1000);
        // Left out by the bound: said once, not once per picture.
        for _ in 0..5 {
            let again = pictures.drawing("big", "big.svg", || svg.clone().into_bytes(), |_| false);
            assert_eq!(again.unwrap_err(), None);
        }
        assert_eq!(pictures.warnings.len(), 1, "{:?}", pictures.warnings);
    }

    /// Past [`MAX_PICTURES`] distinct pictures the rest are not read (their bytes are not
    /// even asked for), with one warning.
    #[test]
    fn a_document_reads_at_most_so_many_pictures() {
        let mut pictures = Pictures::new();
        let icon = br#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>"#;
        for n in 0..MAX_PICTURES {
            let key = format!("icon {n}");
            assert!(pictures
                .drawing(&key, &key, || icon.to_vec(), |_| false)
                .is_ok());
        }
        for n in 0..3 {
            let key = format!("more {n}");
            let left_out = pictures.drawing(&key, &key, || unreachable!("not read"), |_| false);
            assert_eq!(left_out.unwrap_err(), None);
        }
        assert_eq!(pictures.warnings.len(), 1, "{:?}", pictures.warnings);
        assert!(pictures.warnings[0].contains("more than 1000 SVG pictures"));
    }
}
