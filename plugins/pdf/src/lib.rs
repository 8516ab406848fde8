//! Quire's PDF converter. It exports the document model as PDF ([`export_pdf`]); a PDF
//! importer will live beside the exporter under `src/import/`.

pub mod export;

pub use export::export_pdf;

use quire_sdk::{ConvertError, Converter, ExportRequest, Exported, Format, PluginInfo};

/// The converter as the host sees it.
pub struct Pdf;

impl Converter for Pdf {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "pdf".into(),
            version: "1.0.0".into(),
            imports: Vec::new(),
            exports: vec![Format::new(export::MEDIA_TYPE, "pdf")],
            options: Vec::new(),
        }
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_pdf(&request)
    }
}

#[cfg(target_arch = "wasm32")]
quire_sdk::export_converter!(Pdf);
