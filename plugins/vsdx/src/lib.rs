//! Visio drawings (.vsdx, and .vsdm with macros, which are never run) to the document
//! model ([`import_vsdx`]).
//!
//! Units: Visio works in inches with y up from the bottom of the page; the model is points
//! with y down, so every coordinate is `x * 72`, `(page height - y) * 72`. Each page
//! (background pages included, as pages of their own) is a model page of the Visio page's
//! size. Shape ids are `p<page>-<ShapeID>`; a shape's text that the model cannot hold
//! inside it is a text box with id `<shape id>` + [`LABEL_SUFFIX`].

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
    let mut count = 0usize;
    for (i, info) in drawing.pages.iter().enumerate() {
        let number = i + 1;
        if info.background {
            notes.backgrounds.push((number, info.name.clone()));
        }
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
        let unit = 72.0 * scale;
        let mut page = Page::new(w * scale, h * scale);
        let contents = match info.part.as_deref() {
            Some(part) => pkg.xml(part)?,
            None => None,
        };
        let Some(contents) = contents else {
            notes.missing_pages += 1;
            document.pages.push(page);
            continue;
        };
        let rels = match info.part.as_deref() {
            Some(part) => pkg.rels(part)?,
            None => HashMap::new(),
        };
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
        let mut ctx = build::Ctx {
            drawing: &drawing,
            page: number,
            to_model: geom::Affine {
                a: unit,
                b: 0.0,
                c: 0.0,
                d: -unit,
                e: 0.0,
                f: info.height * unit,
            },
            unit,
            connects,
            present,
            rels,
            pkg: &mut pkg,
            assets: &mut assets,
            notes: &mut notes,
            taken: Default::default(),
        };
        ctx.shapes(
            &sheets,
            &geom::Affine::IDENTITY,
            None,
            None,
            0,
            &mut page.shapes,
        );
        count += quire_sdk::ShapeWalk::new(&page.shapes).count();
        if count > MAX_SHAPES {
            return Err(ConvertError::TooLarge(format!(
                "the drawing has more than {MAX_SHAPES} shapes"
            )));
        }
        document.pages.push(page);
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

quire_sdk::export_converter!(Vsdx);
