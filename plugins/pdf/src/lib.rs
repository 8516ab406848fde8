//! Quire's PDF converter. It exports the document model as PDF ([`export_pdf`]) and imports
//! PDF into the model ([`import_pdf`]): page by page as editable text, paths and pictures,
//! or (`mode=image`) each page as one picture, with the PDF's interactive form read into
//! the model's `fields`; locked and password-protected files are opened as the contract's
//! `unlock` and `password` options say.

pub mod export;
pub mod import;

pub use export::export_pdf;
pub use import::import_pdf;

use quire_sdk::{
    ConvertError, Converter, ExportRequest, Exported, Format, ImportRequest, Imported, OptionSpec,
    PluginInfo,
};

/// The converter as the host sees it.
pub struct Pdf;

fn option(name: &str, description: &str) -> OptionSpec {
    OptionSpec {
        name: name.into(),
        description: description.into(),
    }
}

impl Converter for Pdf {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "pdf".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format::new(import::MEDIA_TYPE, "pdf")],
            exports: vec![Format::new(export::MEDIA_TYPE, "pdf")],
            options: vec![
                option(
                    "mode",
                    "Import: `image` keeps each page as a picture instead of importing its \
                     text, paths and pictures",
                ),
                option(
                    "unlock",
                    "Import of a locked PDF: `1` removes the lock keeping the document intact \
                     where possible, otherwise redrawing its pages as pictures; `decrypt` \
                     insists on keeping it intact; `rebuild` always redraws",
                ),
                option(
                    "password",
                    "Import: the password of a PDF that cannot be opened without one",
                ),
                option("title", "Import: document title; overrides the PDF's own"),
                option(
                    "page",
                    "Import: only this page (1-based), as a one-page document: one page of a \
                     long PDF without reading the others",
                ),
            ],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        import_pdf(request)
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        export_pdf(&request)
    }
}

quire_sdk::export_converter!(Pdf);
