//! Mermaid converter: flowcharts in, flowcharts out.
//!
//! Import: text -> syntax tree ([`parse`], mermaid's flowchart grammar and membership rules;
//! other diagram types refused by name) -> styles and labels measured with the standard-14
//! metrics -> layered layout ([`layout`], reusable by any importer that needs one) -> a
//! `diagram` document with nodes, subgraph groups and attached connectors.
//!
//! Export: any diagram model -> mermaid flowchart text, with the headers the contract asks
//! for (`x-service-shapes`, `x-service-dropped`, `x-service-loose-connectors`).

mod build;
mod export;
mod label;
pub mod layout;
mod parse;
mod picture;
mod shapes;
mod style;
mod tex;
mod theme;
mod title;
mod undrawn;

use quire_sdk::{
    ConvertError, Converter, ExportRequest, Exported, Format, ImportRequest, Imported, Kind,
    PluginInfo,
};

pub use export::{escape as escape_label, MEDIA_TYPE};

/// Mermaid's own default limit is 50,000 characters; this leaves room for generated text.
pub const MAX_INPUT: usize = 4 << 20;

pub struct Mermaid;

impl Converter for Mermaid {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "mermaid".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format::new(MEDIA_TYPE, "mmd")],
            // Mermaid says boxes and arrows; a page of text has none to say.
            exports: vec![Format::new(MEDIA_TYPE, "mmd").only_for(&[Kind::Diagram])],
            options: Vec::new(),
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        import_mermaid(request)
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_mmd(&request)
    }
}

/// Mermaid flowchart text to a laid-out diagram document.
pub fn import_mermaid(request: ImportRequest) -> Result<Imported, ConvertError> {
    if request.bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the mermaid text is {} bytes; at most {MAX_INPUT} bytes (4 MiB) are accepted",
            request.bytes.len()
        )));
    }
    let bytes = request
        .bytes
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(&request.bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ConvertError::Damaged(format!(
            "the mermaid text is not UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let chart = parse::parse(&text)?;
    let resolved = parse::resolve(chart)?;
    let mut warnings = Vec::new();
    let (document, assets) = build::build(resolved, &mut warnings);
    Ok(Imported {
        document,
        assets,
        warnings,
    })
}

/// A diagram document to mermaid flowchart text (`request.page` picks one page, otherwise
/// every page goes into one flowchart).
pub fn export_mmd(request: &ExportRequest) -> Result<Exported, ConvertError> {
    export::export(request)
}

quire_sdk::export_converter!(Mermaid);
