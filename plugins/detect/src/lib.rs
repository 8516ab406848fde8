//! Quire's form-field detector: finds the blanks of a document a person would fill in, so the
//! host can suggest fields (`GET /forms/{id}/suggest`) or place them (`detect: true`).
//!
//! It is an exporter of the document model to one format, [`MEDIA_TYPE`], because scanned
//! pages are untrusted pictures and their analysis belongs in the sandbox. The answer is
//! UTF-8 JSON:
//!
//! ```json
//! {"fields":[{"key":"field_1","type":"text","label":"Full Name","page":1,
//!             "x":72.0,"y":100.5,"w":180.0,"h":16.0}]}
//! ```
//!
//! Geometry is in page points, origin at the top left of the page (before its `rotate`),
//! like every shape of the model. Keys are `field_<n>` in reading order as the page is
//! displayed (turned by its `rotate`): page, then rows top to bottom, then left to right.
//!
//! Two finders feed it:
//! - [`vector`]: the model's own shapes. Underscore runs and `[ ]`/`☐` in text (placed with
//!   the SDK's layout, where the exporters draw them), drawn lines with room above them,
//!   empty rectangles (tick boxes, text and multi-line boxes). Labels come from the words
//!   next to a blank ([`label`]), and a label asking for a date, an e-mail address or a
//!   signature sets the type.
//! - [`scan`]: pictures covering most of a page. Ruled lines, cells and empty tick boxes are
//!   found in the pixels, read the way the page is displayed; there is no OCR, so their
//!   labels are empty unless the page also carries text shapes (an OCR layer).
//!
//! A blank that an existing field of the document already covers is not suggested again.

mod geom;
mod label;
pub mod scan;
mod vector;
mod words;

use quire_sdk::{
    Asset, ConvertError, Converter, Document, ExportRequest, Exported, Field, FieldType, Format,
    PluginInfo, Shape, ShapeWalk,
};
use serde::Serialize;

use geom::{clip, reading_order, same_blank, Candidate};

/// The one format this converter writes.
pub const MEDIA_TYPE: &str = "application/vnd.quire.fields+json";
/// Most fields suggested for one document: what the host's place-fields endpoint accepts.
pub const MAX_FIELDS: usize = 500;
/// Most candidates examined on one page (labelling and merging cost grows with them).
const MAX_PAGE_CANDIDATES: usize = 2_000;

/// The converter as the host sees it.
pub struct Detect;

impl Converter for Detect {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "detect".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: Vec::new(),
            exports: vec![Format::new(MEDIA_TYPE, "fields")],
            options: Vec::new(),
        }
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export(&request)
    }
}

/// The fields found, and what could not be examined.
#[derive(Debug, Clone, Default)]
pub struct Detection {
    pub fields: Vec<Field>,
    pub warnings: Vec<String>,
}

/// The export: the blanks of `request.document` (of page `request.page` only, when given) as
/// JSON. Usable natively (tests, benchmarks) as well as inside the component.
pub fn export(request: &ExportRequest) -> Result<Exported, ConvertError> {
    let found = detect(&request.document, &request.assets, request.page)?;
    Ok(Exported {
        bytes: to_json(&found.fields),
        media_type: MEDIA_TYPE.into(),
        warnings: found.warnings,
        headers: Vec::new(),
    })
}

/// Finds the blanks of `document` (of page `page` only, 1-based, when given).
pub fn detect(
    document: &Document,
    assets: &[Asset],
    page: Option<u32>,
) -> Result<Detection, ConvertError> {
    let count = document.pages.len();
    let pages: Vec<usize> = match page {
        None => (0..count).collect(),
        Some(n) if n >= 1 && (n as usize) <= count => vec![n as usize - 1],
        Some(n) => {
            return Err(ConvertError::InvalidRequest(format!(
                "page {n} does not exist: the document has {count} page{}",
                if count == 1 { "" } else { "s" }
            )))
        }
    };
    let mut out = Detection::default();
    let mut budget = scan::Budget {
        pixels: scan::PIXEL_BUDGET,
    };
    for index in pages {
        let number = index as u32 + 1;
        let found = page_fields(document, index, assets, &mut budget, &mut out.warnings);
        for c in found {
            if out.fields.len() >= MAX_FIELDS {
                out.warnings.push(format!(
                    "only the first {MAX_FIELDS} blanks are suggested; detect the rest page \
                     by page"
                ));
                return Ok(out);
            }
            let n = out.fields.len() + 1;
            out.fields.push(Field {
                key: format!("field_{n}"),
                field_type: c.kind,
                label: c.label,
                required: false,
                page: number,
                frame: c.rect,
                options: Vec::new(),
                value: None,
                look: None,
            });
        }
    }
    Ok(out)
}

/// The blanks of one page, labelled and in reading order.
fn page_fields(
    document: &Document,
    index: usize,
    assets: &[Asset],
    budget: &mut scan::Budget,
    warnings: &mut Vec<String>,
) -> Vec<Candidate> {
    let page = &document.pages[index];
    let number = index + 1;
    let tokens = words::tokens(page);
    let mut found = vector::candidates(page, &tokens);
    for shape in ShapeWalk::new(&page.shapes) {
        let Shape::Image(image) = shape else { continue };
        if !scan::is_scan(image, page.width, page.height) {
            continue;
        }
        let Some(asset) = assets.iter().find(|a| a.name == image.asset) else {
            warnings.push(format!(
                "page {number}: the picture `{}` is missing, so its blanks were not looked for",
                image.asset
            ));
            continue;
        };
        match scan::candidates(image, asset, page.rotate, budget) {
            Ok(c) => found.extend(c),
            Err(why) => warnings.push(format!(
                "page {number}: the picture `{}` was not read for blanks: {why}",
                image.asset
            )),
        }
    }
    let mut found: Vec<Candidate> = found
        .into_iter()
        .filter_map(|mut c| {
            c.rect = clip(c.rect, page.width, page.height)?;
            Some(c)
        })
        .collect();
    if found.len() > MAX_PAGE_CANDIDATES {
        // A page of thousands of blanks is a pattern, not a form; its work stays bounded.
        warnings.push(format!(
            "page {number}: only the first {MAX_PAGE_CANDIDATES} of {} possible blanks were \
             examined",
            found.len()
        ));
        found.truncate(MAX_PAGE_CANDIDATES);
    }
    found = dedupe(found);
    // What the document already asks on this page is not suggested again.
    let existing: Vec<_> = document
        .fields
        .iter()
        .filter(|f| f.page as usize == number)
        .map(|f| f.frame)
        .collect();
    found.retain(|c| !existing.iter().any(|e| same_blank(e, &c.rect)));
    label::assign(&mut found, &tokens);
    // Read as displayed: on a turned page, rows run across the turned page.
    let turns = scan::quarter_turns(page.rotate);
    let rects: Vec<_> = found
        .iter()
        .map(|c| geom::to_display(&c.rect, page.width, page.height, turns))
        .collect();
    let order = reading_order(&rects);
    let mut slots: Vec<Option<Candidate>> = found.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// One candidate per blank. Shapes beat pixels; a text field holding a tick box is the
/// box's row, not a blank of its own.
fn dedupe(mut found: Vec<Candidate>) -> Vec<Candidate> {
    found.sort_by_key(|c| (c.source, c.kind != FieldType::Checkbox));
    let boxes: Vec<_> = found
        .iter()
        .filter(|c| c.kind == FieldType::Checkbox)
        .map(|c| c.rect.center())
        .collect();
    let mut kept: Vec<Candidate> = Vec::with_capacity(found.len());
    for c in found {
        if c.kind != FieldType::Checkbox
            && boxes
                .iter()
                .any(|p| geom::contains_point(&c.rect, p.x, p.y))
        {
            continue;
        }
        let checkbox = c.kind == FieldType::Checkbox;
        let twin = kept.iter().any(|k| {
            (k.kind == FieldType::Checkbox) == checkbox
                && (same_blank(&k.rect, &c.rect)
                    || k.source != c.source && geom::iou(&k.rect, &c.rect) > 0.0)
        });
        if !twin {
            kept.push(c);
        }
    }
    kept
}

#[derive(Serialize)]
struct OutField<'a> {
    key: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    label: &'a str,
    page: u32,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

#[derive(Serialize)]
struct Out<'a> {
    fields: Vec<OutField<'a>>,
}

/// Hundredths of a point are finer than any viewer draws.
fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn to_json(fields: &[Field]) -> Vec<u8> {
    let out = Out {
        fields: fields
            .iter()
            .map(|f| OutField {
                key: &f.key,
                kind: f.field_type.as_str(),
                label: &f.label,
                page: f.page,
                x: round(f.frame.x),
                y: round(f.frame.y),
                w: round(f.frame.w),
                h: round(f.frame.h),
            })
            .collect(),
    };
    // Plain data with finite numbers (clipped to the page) always serialises.
    serde_json::to_vec(&out).unwrap_or_else(|_| br#"{"fields":[]}"#.to_vec())
}

quire_sdk::export_converter!(Detect);

#[cfg(test)]
mod tests {
    use super::*;
    use quire_sdk::{Kind, Page};

    fn one_page() -> Document {
        let mut d = Document::new(Kind::Paged);
        d.pages.push(Page::new(612.0, 792.0));
        d
    }

    #[test]
    fn describes_itself() {
        let info = Detect::describe();
        assert_eq!(
            (info.name.as_str(), info.version.as_str()),
            ("detect", "1.1.6")
        );
        assert!(info.imports.is_empty() && info.options.is_empty());
        assert_eq!(info.exports, [Format::new(MEDIA_TYPE, "fields")]);
    }

    #[test]
    fn a_page_without_blanks_gives_an_empty_list() {
        let request = ExportRequest {
            document: one_page(),
            assets: Vec::new(),
            media_type: MEDIA_TYPE.into(),
            page: None,
            dpi: None,
            options: Vec::new(),
        };
        let out = export(&request).unwrap();
        assert_eq!(out.bytes, br#"{"fields":[]}"#);
        assert_eq!(out.media_type, MEDIA_TYPE);
        let out = export(&ExportRequest {
            page: Some(1),
            ..request.clone()
        })
        .unwrap();
        assert_eq!(out.bytes, br#"{"fields":[]}"#);
    }

    #[test]
    fn a_page_out_of_range_is_an_invalid_request() {
        for page in [0, 2, u32::MAX] {
            let err = detect(&one_page(), &[], Some(page)).unwrap_err();
            let ConvertError::InvalidRequest(why) = err else {
                panic!("{err:?}")
            };
            assert!(why.contains("1 page"), "{why}");
        }
    }

    #[test]
    fn a_missing_picture_is_a_warning() {
        let mut d = one_page();
        d.pages[0].shapes.push(Shape::Image(quire_sdk::Image {
            id: "i".into(),
            frame: quire_sdk::Rect::new(0.0, 0.0, 612.0, 792.0),
            asset: "scan.png".into(),
            alt: None,
            link: None,
        }));
        let found = detect(&d, &[], None).unwrap();
        assert!(found.fields.is_empty());
        assert!(
            found.warnings[0].contains("scan.png"),
            "{:?}",
            found.warnings
        );
    }

    /// A scan stored sideways on a page turned a quarter clockwise: 800 x 600 pixels on an
    /// 800 x 600 pt page, showing a 600 x 800 upright form with four answer lines.
    fn sideways_scan(rotate: u16) -> (Document, Vec<Asset>) {
        // Lines as displayed: (y, x from, x to).
        const LINES: [(u32, u32, u32); 4] = [
            (200, 100, 500),
            (300, 50, 300),
            (300, 350, 550),
            (400, 150, 450),
        ];
        let shown = |x: u32, y: u32| {
            LINES
                .iter()
                .any(|&(ly, a, b)| (ly..ly + 2).contains(&y) && (a..b).contains(&x))
        };
        // The display is the stored picture turned clockwise: stored (u, v) shows at
        // (599 - v, u).
        let stored = image::GrayImage::from_fn(800, 600, |u, v| {
            image::Luma([if shown(599 - v, u) { 20 } else { 250 }])
        });
        let mut png = Vec::new();
        stored
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let mut d = Document::new(Kind::Paged);
        let mut page = Page::new(800.0, 600.0);
        page.rotate = rotate;
        page.shapes.push(Shape::Image(quire_sdk::Image {
            id: "i".into(),
            frame: quire_sdk::Rect::new(0.0, 0.0, 800.0, 600.0),
            asset: "scan.png".into(),
            alt: None,
            link: None,
        }));
        d.pages.push(page);
        let asset = Asset {
            name: "scan.png".into(),
            media_type: "image/png".into(),
            bytes: png,
        };
        (d, vec![asset])
    }

    #[test]
    fn a_sideways_scan_on_a_turned_page_is_read_as_displayed() {
        let (d, assets) = sideways_scan(90);
        let found = detect(&d, &assets, None).unwrap();
        let f = &found.fields;
        assert_eq!(f.len(), 4, "{f:?}");
        // Displayed (X, Y) is page (Y, 600 - X): a line across the display at Y stands
        // upright at page x = Y, and its blank (room above it as displayed) lies left of
        // it. In display reading order: the first line, the second row's left then right
        // half, the last line.
        let want = [
            (200.0, 100.0, 500.0),
            (300.0, 300.0, 550.0),
            (300.0, 50.0, 250.0),
        ];
        let want = [want[0], want[1], want[2], (400.0, 150.0, 450.0)];
        for (field, (x, y0, y1)) in f.iter().zip(want) {
            let r = field.frame;
            assert_eq!(field.field_type, FieldType::Text, "{field:?}");
            assert!((r.right() - x).abs() <= 3.0, "{r:?} should end at x {x}");
            assert!(r.w >= 10.0 && r.w <= 40.0, "{r:?}");
            assert!(
                (r.y - y0).abs() <= 4.0 && (r.bottom() - y1).abs() <= 4.0,
                "{r:?} should span y {y0}..{y1}"
            );
        }
        // Read unturned, the same picture's lines stand upright: not answer lines.
        let (d, assets) = sideways_scan(0);
        let unturned = detect(&d, &assets, None).unwrap().fields;
        assert!(
            unturned
                .iter()
                .all(|u| !f.iter().any(|t| same_blank(&u.frame, &t.frame))),
            "{unturned:?}"
        );
    }
}
