//! The SVG reader: an SVG file read into real model shapes (the SVG component's importer,
//! and how the draw.io component draws cells that hold SVG pictures).
//!
//! usvg does the hard part of SVG: CSS and `<style>` classes, `use`, inherited presentation
//! attributes, units, `switch`. What it hands back is walked into the model: rectangles and
//! ellipses become nodes, everything else drawn becomes paths (transforms applied, quadratic
//! segments turned cubic), `<text>` stays text, embedded PNG and JPEG pictures become image
//! shapes with assets, and groups with an id stay groups.
//!
//! Nothing outside the file is ever read: images that name a file or a URL are dropped, and
//! the XML parser's limits (node count, entity expansion) stop hostile inputs early.

mod context;
mod detect;
pub mod pictures;
mod text;
mod walk;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use quire_sdk::image_probe::ImageKind;
use quire_sdk::{Asset, ConvertError, Document, ImportRequest, Imported, Kind, Page, Shape};

pub const MEDIA_TYPE: &str = "image/svg+xml";

/// Largest SVG read, in bytes.
pub const MAX_BYTES: usize = 32 << 20;
/// Most XML nodes the parser builds (entity expansions included).
const MAX_XML_NODES: u32 = 1_000_000;
/// Most shapes an import produces; the model allows more, but a diagram this big is a
/// drawing exported as thousands of fragments and would be unusable to edit anyway.
pub const MAX_SHAPES: usize = 100_000;
/// Most SVG pictures (`<image>` with SVG data) read inside one file, nested ones included.
const MAX_NESTED_SVGS: usize = 64;
/// SVG pixels are CSS pixels: 96 to the inch, so 0.75 points each.
const PT_PER_PX: f64 = 0.75;
/// The model's largest page side (200 inches).
const MAX_SIDE: f64 = quire_sdk::validate::MAX_PAGE_SIDE;

/// The one face usvg lays `<text>` out with. usvg drops text it cannot lay out, and the
/// sandbox has no system fonts; the importer keeps the characters and the SVG's font names,
/// not usvg's glyphs, so one metric-compatible face is all it needs.
const LAYOUT_FONT: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../png/fonts/LiberationSans-Regular.ttf"
));

/// Reads an SVG file into a one-page diagram.
pub fn import_svg(request: ImportRequest) -> Result<Imported, ConvertError> {
    let bytes = &request.bytes;
    if bytes.len() > MAX_BYTES {
        return Err(ConvertError::TooLarge(format!(
            "the SVG is {} MB; at most {} MB is read",
            bytes.len() >> 20,
            MAX_BYTES >> 20
        )));
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Err(ConvertError::Unsupported(
            "this is a compressed SVG (svgz); send it uncompressed".into(),
        ));
    }
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
        .map_err(|_| ConvertError::Damaged("the SVG is not UTF-8 text".into()))?;
    let xml = roxmltree::Document::parse_with_options(
        text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            nodes_limit: MAX_XML_NODES,
            // No resolver: external entities (files, URLs) are never fetched.
            entity_resolver: None,
        },
    )
    .map_err(xml_error)?;
    if xml.root_element().tag_name().name() != "svg" {
        return Err(ConvertError::Unsupported(format!(
            "this is XML with a <{}> root, not SVG",
            xml.root_element().tag_name().name()
        )));
    }

    let refused_images = AtomicUsize::new(0);
    let nested_svgs = AtomicUsize::new(0);
    let options = options(&refused_images, &nested_svgs);
    let tree = usvg::Tree::from_xmltree(&xml, &options).map_err(|e| match e {
        usvg::Error::ElementsLimitReached
        | usvg::Error::ParsingFailed(roxmltree::Error::NodesLimitReached) => {
            ConvertError::TooLarge(
                "the SVG has more than a million elements once `use` references are expanded"
                    .into(),
            )
        }
        usvg::Error::InvalidSize => {
            ConvertError::Damaged("the SVG has no usable size (width, height or viewBox)".into())
        }
        other => ConvertError::Damaged(format!("the SVG could not be read: {other}")),
    })?;
    drop(xml);

    let size = tree.size();
    let (w_px, h_px) = (size.width() as f64, size.height() as f64);
    let mut warnings = Vec::new();
    // Pages larger than the model allows are scaled down to fit, not cut.
    let largest = w_px.max(h_px) * PT_PER_PX;
    let fit = if largest > MAX_SIDE {
        warnings.push(format!(
            "the drawing is {largest:.0} points across, more than the {MAX_SIDE:.0} a page \
             allows; it was scaled down to fit"
        ));
        MAX_SIDE / largest
    } else {
        1.0
    };
    let scale = PT_PER_PX * fit;
    // usvg measures in f32; rounding to a thousandth of a point drops its noise (400 pt, not
    // 399.99998).
    let page_w = detect::round(w_px * scale).clamp(1.0, MAX_SIDE);
    let page_h = detect::round(h_px * scale).clamp(1.0, MAX_SIDE);

    let mut ctx = context::Ctx::new(scale);
    let shapes = walk::walk_group(&mut ctx, tree.root(), 1.0, 0)?;
    let refused = refused_images.load(Ordering::Relaxed);
    if refused > 0 {
        ctx.warn(format!(
            "{refused} picture{} linked to a file, a URL or an unsupported format \
             (only embedded PNG and JPEG are read) and {} left out",
            if refused == 1 { " was" } else { "s were" },
            if refused == 1 { "was" } else { "were" },
        ));
    }

    let mut page = Page::new(page_w, page_h);
    let (assets, more) = ctx.finish();
    page.shapes = shapes;
    warnings.extend(more);
    let mut document = Document::new(Kind::Diagram);
    document.title = request.option("title").map(str::to_string);
    document.pages.push(page);
    Ok(Imported {
        document,
        assets,
        warnings,
    })
}

/// An SVG read as a picture to be placed inside another document (a Markdown or HTML
/// picture, a draw.io cell's): its shapes from its top-left corner, in points.
pub struct Picture {
    /// Its size in points (CSS pixels at 96 dpi, scaled down if larger than a page may be).
    pub width: f64,
    pub height: f64,
    pub shapes: Vec<Shape>,
    /// The PNG and JPEG pictures it embeds, which its image shapes name.
    pub assets: Vec<Asset>,
    pub warnings: Vec<String>,
}

/// Reads `bytes` as an SVG picture, with the same limits as an SVG file.
pub fn read_picture(bytes: Vec<u8>) -> Result<Picture, ConvertError> {
    let imported = import_svg(ImportRequest::new(bytes, MEDIA_TYPE))?;
    let page = imported
        .document
        .pages
        .into_iter()
        .next()
        .ok_or_else(|| ConvertError::Damaged("the SVG draws no page".into()))?;
    Ok(Picture {
        width: page.width,
        height: page.height,
        shapes: page.shapes,
        assets: imported.assets,
        warnings: imported.warnings,
    })
}

fn xml_error(e: roxmltree::Error) -> ConvertError {
    match e {
        roxmltree::Error::NodesLimitReached => {
            ConvertError::TooLarge(format!("the SVG has more than {MAX_XML_NODES} XML nodes"))
        }
        roxmltree::Error::EntityReferenceLoop(_) => ConvertError::Refused {
            kind: "entities".into(),
            detail: format!(
                "the SVG's entity declarations expand without bound or in a loop ({e}); \
                 such files are refused"
            ),
        },
        other => ConvertError::Damaged(format!("the SVG is not well-formed XML: {other}")),
    }
}

/// usvg options: the embedded layout font only, no system fonts, no files, no URLs; only
/// `data:` pictures that really are PNG or JPEG, or SVG (at most [`MAX_NESTED_SVGS`],
/// counted in `nested`); everything else is counted in `refused`.
fn options<'a>(refused: &'a AtomicUsize, nested: &'a AtomicUsize) -> usvg::Options<'a> {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_source(usvg::fontdb::Source::Binary(Arc::new(LAYOUT_FONT)));
    usvg::Options {
        fontdb: Arc::new(db),
        font_resolver: usvg::FontResolver {
            select_font: Box::new(|_, db| db.faces().next().map(|f| f.id)),
            select_fallback: Box::new(|_, _, _| None),
        },
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(move |mime, data, opts| {
                match ImageKind::of(&data) {
                    Some(ImageKind::Png) => return Some(usvg::ImageKind::PNG(data)),
                    Some(ImageKind::Jpeg) => return Some(usvg::ImageKind::JPEG(data)),
                    None => {}
                }
                if mime == "image/svg+xml"
                    && nested.fetch_add(1, Ordering::Relaxed) < MAX_NESTED_SVGS
                {
                    // Parsed with these same options, so its own pictures obey the same
                    // rules; the count bounds pictures inside pictures.
                    match usvg::Tree::from_data_nested(&data, opts) {
                        Ok(tree) => Some(usvg::ImageKind::SVG(tree)),
                        Err(_) => {
                            refused.fetch_add(1, Ordering::Relaxed);
                            None
                        }
                    }
                } else {
                    refused.fetch_add(1, Ordering::Relaxed);
                    None
                }
            }),
            resolve_string: Box::new(move |_, _| {
                refused.fetch_add(1, Ordering::Relaxed);
                None
            }),
        },
        ..usvg::Options::default()
    }
}
