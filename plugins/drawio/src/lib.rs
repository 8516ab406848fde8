//! draw.io (diagrams.net) files to the document model ([`import_drawio`]) and back
//! ([`export_drawio`]).
//!
//! Units: one draw.io unit is one point (draw.io's own PDF export does the same), so
//! coordinates keep their values; see [`fit`] for how the page is chosen. Every `<diagram>`
//! is a page; vertices become nodes, text boxes, pictures, paths or groups; edges become
//! connectors attached to their source and target by id. What could not be carried over
//! exactly is said in the warnings, counted by kind.
//!
//! Labels that the model cannot put inside their shape (below an icon, on a picture) become
//! a text box whose id is the shape's id plus [`LABEL_SUFFIX`].

mod coded;
mod export;
pub mod fit;
mod import;
mod label;
pub mod mxfile;
mod notes;
mod route;
mod shapes;
mod stencil;
mod style;
mod svg_picture;
mod unique;
mod vertex;
mod xml;

use std::collections::HashMap;

use quire_sdk::validate::{self, MAX_SHAPES};
use quire_sdk::{
    ConvertError, Converter, Document, ExportRequest, Exported, Format, ImportRequest, Imported,
    Kind, OptionSpec, PluginInfo,
};

pub use export::{export_drawio, EXPORT_MEDIA_TYPE};
pub use vertex::{LABEL_SUFFIX, STYLE_CLASS};

/// The media type draw.io files are registered under.
pub const MEDIA_TYPE: &str = "application/vnd.jgraph.mxfile";
/// Media types also read when the bytes are a draw.io file.
pub const XML_MEDIA_TYPES: [&str; 2] = ["application/xml", "text/xml"];
/// The converter's version, as `describe` reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Input larger than this is refused before parsing.
pub const MAX_INPUT: usize = 64 << 20;

pub struct Drawio;

impl Converter for Drawio {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "drawio".into(),
            version: VERSION.into(),
            imports: vec![Format::new(MEDIA_TYPE, "drawio")],
            // A diagram editor's file: a page of set text would arrive as loose text boxes.
            exports: vec![Format::new(EXPORT_MEDIA_TYPE, "drawio").only_for(&[Kind::Diagram])],
            options: vec![OptionSpec {
                name: "title".into(),
                description: "Document title".into(),
            }],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        import_drawio(request)
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_drawio(&request)
    }
}

/// Reads a draw.io file into the model; usable natively as well as inside the component.
pub fn import_drawio(request: ImportRequest) -> Result<Imported, ConvertError> {
    let media_type = request
        .media_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if !(media_type.is_empty()
        || media_type == MEDIA_TYPE
        || XML_MEDIA_TYPES.contains(&media_type.as_str()))
    {
        return Err(ConvertError::Unsupported(format!(
            "the draw.io converter does not read {media_type}"
        )));
    }
    if request.bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the file is {} bytes; at most {MAX_INPUT} bytes (64 MiB) are accepted",
            request.bytes.len()
        )));
    }
    let text = mxfile::decode_text(&request.bytes)?;
    if media_type != MEDIA_TYPE && !mxfile::looks_like_drawio(&text) {
        return Err(ConvertError::Unsupported(
            "this XML is not a draw.io file (no <mxfile> or <mxGraphModel>)".into(),
        ));
    }
    let diagrams = mxfile::read(&text)?;
    drop(text);

    let page_numbers: HashMap<String, usize> = diagrams
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.id.clone().map(|id| (id, i + 1)))
        .collect();
    let mut ids = unique::Ids::default();
    let mut assets = unique::Assets::default();
    let mut notes = notes::Notes::default();
    let mut document = Document::new(Kind::Diagram);
    document.title = request
        .option("title")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    let mut count = 0usize;
    for (i, d) in diagrams.iter().enumerate() {
        let mut ctx = import::Ctx {
            ids: &mut ids,
            assets: &mut assets,
            notes: &mut notes,
            page_numbers: &page_numbers,
        };
        let page = import::page(d, i + 1, &mut ctx);
        count += quire_sdk::ShapeWalk::new(&page.shapes).count();
        if count > MAX_SHAPES {
            return Err(ConvertError::TooLarge(format!(
                "the diagram has more than {MAX_SHAPES} shapes"
            )));
        }
        document.pages.push(page);
    }
    validate::check(&document, assets.list.iter().map(|a| a.name.as_str())).map_err(|e| {
        ConvertError::Damaged(format!(
            "the diagram could not be made into a valid model: {e}"
        ))
    })?;
    Ok(Imported {
        document,
        assets: assets.list,
        warnings: notes.sentences(),
    })
}

quire_sdk::export_converter!(Drawio);
