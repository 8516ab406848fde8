//! One page of the document model as vector SVG: the drawing behind Quire's SVG exporter
//! (`quire-svg`) and PNG exporter (`quire-png`, which rasterises it).
//!
//! The page is `width`×`height` points (`pt` units on the root) with a viewBox in model units,
//! so one user unit is one point and coordinates are written as the model holds them. Text
//! stays text, shapes are drawn with the SDK's geometry, pictures are embedded as `data:`
//! URLs. Output is deterministic: the same model always gives the same bytes.

mod picture;
mod shapes;
mod text;
mod xml;

use std::collections::{BTreeSet, HashMap, HashSet};

use quire_sdk::{Asset, ConvertError, Document, ExportRequest, Exported, Page};

pub use text::{font_stack, safe_href};

pub const MEDIA_TYPE: &str = "image/svg+xml";

/// Smallest and largest page side (1 point to 200 inches, as in the PDF exporter).
const MIN_SIDE: f64 = 1.0;
const MAX_SIDE: f64 = 14_400.0;
/// US Letter, for a page whose size is not a number at all.
const FALLBACK_SIZE: (f64, f64) = (612.0, 792.0);

/// One page drawn as SVG, with the size it is shown at.
#[derive(Debug, Clone)]
pub struct PageSvg {
    pub svg: String,
    /// Width and height as displayed, in points (a page rotated a quarter swaps them).
    pub width: f64,
    pub height: f64,
    pub warnings: Vec<String>,
}

/// Draws page `request.page` (1-based, the first when absent) as an SVG file.
pub fn export_svg(request: &ExportRequest) -> Result<Exported, ConvertError> {
    if !request.media_type.is_empty() && request.media_type != MEDIA_TYPE {
        return Err(ConvertError::Unsupported(format!(
            "this converter writes {MEDIA_TYPE}, not {}",
            request.media_type
        )));
    }
    let page = render_page(&request.document, &request.assets, request.page)?;
    Ok(Exported {
        bytes: page.svg.into_bytes(),
        media_type: MEDIA_TYPE.to_string(),
        warnings: page.warnings,
        headers: Vec::new(),
    })
}

/// Draws one page (1-based `page`, the first when `None`) of `doc` as SVG text.
pub fn render_page(
    doc: &Document,
    assets: &[Asset],
    page: Option<u32>,
) -> Result<PageSvg, ConvertError> {
    render_page_with(doc, assets, page, TextLayer::Searchable)
}

/// Whether text drawn as glyph outlines gets an invisible text layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextLayer {
    /// For SVG files: readers select, search and copy it.
    Searchable,
    /// For pictures (the PNG exporter rasterises the drawing): nothing would read it.
    None,
}

/// [`render_page`] with the choice of text layer. The PNG exporter rasterises exactly this
/// drawing, without the layer.
pub fn render_page_with(
    doc: &Document,
    assets: &[Asset],
    page: Option<u32>,
    layer: TextLayer,
) -> Result<PageSvg, ConvertError> {
    let index = select_page(doc, page)?;
    let page = &doc.pages[index];
    let (width, height) = page_size(page);
    let rotate = page.rotate % 360 / 90 * 90;
    let (shown_w, shown_h) = if rotate % 180 == 90 {
        (height, width)
    } else {
        (width, height)
    };

    let mut w = Writer::new(assets, layer == TextLayer::Searchable);
    w.out
        .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml::Tag::new("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("xmlns:xlink", "http://www.w3.org/1999/xlink")
        .attr("version", "1.1")
        .attr("width", format!("{}pt", xml::num(shown_w)))
        .attr("height", format!("{}pt", xml::num(shown_h)))
        .attr(
            "viewBox",
            format!("0 0 {} {}", xml::num(shown_w), xml::num(shown_h)),
        )
        // Spaces inside a fragment (indented code, runs of spaces) are drawn as laid out.
        .attr("xml:space", "preserve")
        // PDF's default miter limit, so sharp corners look the same in both.
        .attr("stroke-miterlimit", "10")
        // The layout measured standard text with the fonts' own advances, as the PDF draws
        // it; a renderer's kerning would pull `WA` together and leave a gap before the next
        // piece (renderers read this property only from `style`).
        .attr("style", "font-kerning:none")
        .open(&mut w.out);
    w.out.push('\n');
    if let Some(title) = doc.title.as_deref().filter(|t| !t.trim().is_empty()) {
        w.out.push_str("<title>");
        w.out.push_str(&xml::escape(title));
        w.out.push_str("</title>\n");
    }
    let turn = match rotate {
        90 => Some(format!("translate({} 0) rotate(90)", xml::num(height))),
        180 => Some(format!(
            "translate({} {}) rotate(180)",
            xml::num(width),
            xml::num(height)
        )),
        270 => Some(format!("translate(0 {}) rotate(270)", xml::num(width))),
        _ => None,
    };
    if let Some(t) = &turn {
        xml::Tag::new("g").attr("transform", t).open(&mut w.out);
    }
    if let Some(bg) = page.background {
        xml::Tag::new("rect")
            .attr("width", xml::num(width))
            .attr("height", xml::num(height))
            .attr("fill", xml::rgb(bg))
            .attr_opt("fill-opacity", xml::opacity(bg))
            .empty(&mut w.out);
        w.out.push('\n');
    }
    let anchors = quire_sdk::drawing::anchors(page);
    shapes::draw_shadows(&mut w, &page.shapes);
    for shape in &page.shapes {
        shapes::draw_shape(&mut w, shape, &anchors);
        w.out.push('\n');
    }
    shapes::draw_link_labels(&mut w);
    if turn.is_some() {
        w.out.push_str("</g>\n");
    }
    w.out.push_str("</svg>\n");
    w.warn_missing_characters();
    Ok(PageSvg {
        svg: w.out,
        width: shown_w,
        height: shown_h,
        warnings: w.warnings,
    })
}

/// The state of one page being written.
pub(crate) struct Writer<'a> {
    pub out: String,
    assets: &'a [Asset],
    /// Each asset's orientation and `data:` URL, or `None` when it cannot be shown; read
    /// and encoded once however often the page shows it.
    pictures: HashMap<String, Option<(u8, String)>>,
    pub warnings: Vec<String>,
    /// Library glyphs whose outlines the page has defined, by face and glyph id.
    pub glyphs: HashSet<(u32, u16)>,
    /// Whether glyphs drawn as outlines get an invisible text layer.
    pub text_layer: bool,
    /// Characters no installed font has, drawn as boxes.
    pub boxed: BTreeSet<char>,
    /// Links' labels (with their link's id), drawn over everything else on the page once
    /// it is drawn.
    pub labels: Vec<(String, quire_sdk::Text, quire_sdk::Point)>,
}

impl<'a> Writer<'a> {
    fn new(assets: &'a [Asset], text_layer: bool) -> Self {
        Writer {
            out: String::new(),
            assets,
            pictures: HashMap::new(),
            warnings: Vec::new(),
            glyphs: HashSet::new(),
            text_layer,
            boxed: BTreeSet::new(),
            labels: Vec::new(),
        }
    }

    fn warn_missing_characters(&mut self) {
        if !self.boxed.is_empty() {
            let chars: Vec<char> = self.boxed.iter().copied().collect();
            self.warnings
                .push(quire_sdk::glyph_runs::boxed_warning(&chars));
        }
    }

    /// The orientation and `data:` URL of asset `name`, warning once when it cannot be shown.
    pub fn picture(&mut self, name: &str) -> Option<(u8, String)> {
        if let Some(known) = self.pictures.get(name) {
            return known.clone();
        }
        let loaded = match self.assets.iter().find(|a| a.name == name) {
            None => Err("it was not supplied with the document".to_string()),
            Some(a) => picture::load(&a.bytes),
        };
        let entry = match loaded {
            Ok(p) => Some((p.orientation, shapes::data_url(&p))),
            Err(why) => {
                self.warnings.push(format!(
                    "picture `{name}` could not be drawn ({why}); a grey box stands in for it"
                ));
                None
            }
        };
        self.pictures.insert(name.to_string(), entry.clone());
        entry
    }
}

/// Index of the page to draw: the one asked for, or the first.
fn select_page(doc: &Document, page: Option<u32>) -> Result<usize, ConvertError> {
    let total = doc.pages.len();
    if total == 0 {
        return Err(ConvertError::InvalidRequest(
            "the document has no pages to draw".into(),
        ));
    }
    match page {
        None => Ok(0),
        Some(n) if n >= 1 && n as usize <= total => Ok(n as usize - 1),
        Some(n) => Err(ConvertError::InvalidRequest(format!(
            "page {n} does not exist; the document has {total} page{}, numbered from 1",
            if total == 1 { "" } else { "s" }
        ))),
    }
}

/// The page's size as drawn: finite and within what viewers accept.
pub fn page_size(page: &Page) -> (f64, f64) {
    let side = |v: f64, fallback: f64| {
        if v.is_finite() {
            v.clamp(MIN_SIDE, MAX_SIDE)
        } else {
            fallback
        }
    };
    (
        side(page.width, FALLBACK_SIZE.0),
        side(page.height, FALLBACK_SIZE.1),
    )
}
