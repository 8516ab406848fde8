//! Visio drawings (.vsdx, and .vsdm with macros, which are never run) to the document
//! model ([`import_vsdx`]).
//!
//! Units: Visio works in inches with y up from the bottom of the page; the model is points
//! with y down, so every coordinate is `x * 72`, `(page height - y) * 72`. Each foreground
//! page is a model page of the Visio page's size, with the shapes of its background pages
//! drawn first, as Visio prints it (a drawing of background pages only keeps them as pages).
//! Shape ids are `p<page>-<ShapeID>`, and `p<page>-b<background page ID>-<ShapeID>` for the
//! background's shapes; a shape's text that the model cannot hold inside it is a text box
//! with id `<shape id>` + [`LABEL_SUFFIX`].

mod build;
mod doc;
mod geom;
mod notes;
pub mod package;
mod sheet;
mod xml;

use std::collections::{HashMap, HashSet};

use quire_sdk::validate::{self, MAX_PAGE_SIDE, MAX_SHAPES};
use quire_sdk::{
    ConvertError, Converter, Document, Format, ImportRequest, Imported, Kind, OptionSpec, Page,
    PluginInfo,
};

pub use build::LABEL_SUFFIX;

/// The media type of .vsdx drawings.
pub const MEDIA_TYPE: &str = "application/vnd.ms-visio.drawing";
/// The type Microsoft registers for .vsdx packages (Office and browsers send this one).
pub const MAIN_MEDIA_TYPE: &str = "application/vnd.ms-visio.drawing.main+xml";
/// The macro-enabled variant (.vsdm); read the same way, macros ignored.
pub const MACRO_MEDIA_TYPE: &str = "application/vnd.ms-visio.drawing.macroEnabled.main+xml";
/// The converter's version, as `describe` reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Input larger than this is refused before it is opened.
pub const MAX_INPUT: usize = 128 << 20;

pub struct Vsdx;

impl Converter for Vsdx {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "vsdx".into(),
            version: VERSION.into(),
            imports: vec![
                Format::new(MEDIA_TYPE, "vsdx"),
                Format::new(MAIN_MEDIA_TYPE, "vsdx"),
                Format::new(MACRO_MEDIA_TYPE, "vsdm"),
            ],
            exports: Vec::new(),
            options: vec![OptionSpec {
                name: "title".into(),
                description: "Document title".into(),
            }],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        import_vsdx(request)
    }
}

fn accepted(media_type: &str) -> bool {
    let m = media_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    m.is_empty()
        || m == MEDIA_TYPE
        || m == MACRO_MEDIA_TYPE.to_ascii_lowercase()
        || m.starts_with("application/vnd.ms-visio.")
        || m == "application/zip"
        || m == "application/octet-stream"
}

/// Reads a Visio drawing into the model; usable natively as well as inside the component.
pub fn import_vsdx(request: ImportRequest) -> Result<Imported, ConvertError> {
    if !accepted(&request.media_type) {
        return Err(ConvertError::Unsupported(format!(
            "the Visio converter does not read {}",
            request.media_type
        )));
    }
    if request.bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the file is {} bytes; at most {MAX_INPUT} bytes (128 MiB) are accepted",
            request.bytes.len()
        )));
    }
    let mut pkg = package::Package::open(&request.bytes)?;
    let drawing = doc::load(&mut pkg)?;
    let mut assets = notes::Assets::default();
    let mut notes = notes::Notes::default();
    let mut document = Document::new(Kind::Diagram);
    document.title = request
        .option("title")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    // Visio prints the foreground pages, each over its background pages; a drawing of
    // background pages only keeps them as pages of their own.
    let mut printed: Vec<&doc::PageInfo> = drawing.pages.iter().filter(|p| !p.background).collect();
    if printed.is_empty() {
        printed = drawing.pages.iter().collect();
        notes.backgrounds = printed.iter().map(|p| p.name.clone()).collect();
    }
    let mut behind_some_page = HashSet::new();
    let mut count = 0usize;
    for (i, info) in printed.into_iter().enumerate() {
        let number = i + 1;
        let (w, h) = (info.width * 72.0, info.height * 72.0);
        // A page larger than the model allows is scaled down, everything on it alike.
        let scale = (MAX_PAGE_SIDE / w).min(MAX_PAGE_SIDE / h).min(1.0);
        if scale < 1.0 {
            notes.other.push(format!(
                "page {number} is {:.0} x {:.0} in, larger than a page may be; it was scaled to {:.0}%",
                info.width,
                info.height,
                scale * 100.0
            ));
        }
        let mut page = Page::new(w * scale, h * scale);
        page.name = Some(info.name.trim().to_string()).filter(|n| !n.is_empty());
        let mut sheet = PageSheet {
            pkg: &mut pkg,
            drawing: &drawing,
            assets: &mut assets,
            notes: &mut notes,
            unit: 72.0 * scale,
            height: info.height,
        };
        for back in backgrounds_of(&drawing.pages, info) {
            behind_some_page.insert(back.id);
            let prefix = format!("p{number}-b{}", back.id.unwrap_or_default());
            sheet.draw(back, prefix, &mut page.shapes)?;
        }
        if !sheet.draw(info, format!("p{number}"), &mut page.shapes)? {
            notes.missing_pages += 1;
        }
        count += quire_sdk::ShapeWalk::new(&page.shapes).count();
        if count > MAX_SHAPES {
            return Err(ConvertError::TooLarge(format!(
                "the drawing has more than {MAX_SHAPES} shapes"
            )));
        }
        document.pages.push(page);
    }
    if notes.backgrounds.is_empty() {
        notes.unused_backgrounds = drawing
            .pages
            .iter()
            .filter(|p| p.background && !behind_some_page.contains(&p.id))
            .map(|p| p.name.clone())
            .collect();
    }
    validate::check(&document, assets.list.iter().map(|a| a.name.as_str())).map_err(|e| {
        ConvertError::Damaged(format!(
            "the drawing could not be made into a valid model: {e}"
        ))
    })?;
    Ok(Imported {
        document,
        assets: assets.list,
        warnings: notes.sentences(),
    })
}

/// Background pages behind background pages are allowed; a deeper chain (or a loop) stops.
const MAX_BACKGROUNDS: usize = 8;

/// The background pages behind `page`, the farthest first (the order they are drawn in).
fn backgrounds_of<'d>(pages: &'d [doc::PageInfo], page: &doc::PageInfo) -> Vec<&'d doc::PageInfo> {
    let mut chain: Vec<&doc::PageInfo> = Vec::new();
    let mut next = page.back_page;
    while let Some(id) = next.filter(|_| chain.len() < MAX_BACKGROUNDS) {
        let Some(back) = pages.iter().find(|p| p.background && p.id == Some(id)) else {
            break;
        };
        if chain.iter().any(|c| c.id == back.id) || page.id == back.id {
            break;
        }
        chain.push(back);
        next = back.back_page;
    }
    chain.reverse();
    chain
}

/// What drawing one Visio page's shapes onto a model page needs.
struct PageSheet<'a, 'p> {
    pkg: &'a mut package::Package<'p>,
    drawing: &'a doc::Drawing,
    assets: &'a mut notes::Assets,
    notes: &'a mut notes::Notes,
    /// Points per inch after any scaling of the page.
    unit: f64,
    /// The printed page's height in inches (Visio's y runs up from its bottom).
    height: f64,
}

impl PageSheet<'_, '_> {
    /// Draws the shapes of `info` into `out`, their ids starting with `prefix`; false when
    /// the page has no content part.
    fn draw(
        &mut self,
        info: &doc::PageInfo,
        prefix: String,
        out: &mut Vec<quire_sdk::Shape>,
    ) -> Result<bool, ConvertError> {
        let Some(part) = info.part.as_deref() else {
            return Ok(false);
        };
        let Some(contents) = self.pkg.xml(part)? else {
            return Ok(false);
        };
        let rels = self.pkg.rels(part)?;
        let sheets: Vec<sheet::Sheet> = contents
            .child("Shapes")
            .map(|s| {
                s.children
                    .iter()
                    .filter(|c| c.name == "Shape")
                    .map(sheet::Sheet::parse)
                    .collect()
            })
            .unwrap_or_default();
        let mut present = HashSet::new();
        fn collect(sheets: &[sheet::Sheet], into: &mut HashSet<u32>) {
            for s in sheets {
                into.insert(s.id);
                collect(&s.children, into);
            }
        }
        collect(&sheets, &mut present);
        let mut connects: HashMap<u32, [Option<u32>; 2]> = HashMap::new();
        if let Some(list) = contents.child("Connects") {
            for c in list.children.iter().filter(|c| c.name == "Connect") {
                let num = |k: &str| c.attr(k).and_then(|v| v.parse::<u32>().ok());
                let (Some(from), Some(to)) = (num("FromSheet"), num("ToSheet")) else {
                    continue;
                };
                let slot = match c.attr("FromCell") {
                    Some("BeginX") => 0,
                    Some("EndX") => 1,
                    _ => continue,
                };
                connects.entry(from).or_default()[slot] = Some(to);
            }
        }
        let unit = self.unit;
        let mut ctx = build::Ctx {
            drawing: self.drawing,
            prefix,
            to_model: geom::Affine {
                a: unit,
                b: 0.0,
                c: 0.0,
                d: -unit,
                e: 0.0,
                f: self.height * unit,
            },
            unit,
            connects,
            present,
            rels,
            pkg: &mut *self.pkg,
            assets: &mut *self.assets,
            notes: &mut *self.notes,
            taken: Default::default(),
        };
        ctx.shapes(&sheets, &geom::Affine::IDENTITY, None, None, 0, out);
        Ok(true)
    }
}

quire_sdk::export_converter!(Vsdx);
