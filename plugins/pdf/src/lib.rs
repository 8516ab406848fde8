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

// The component's exports: what `quire_sdk::export_converter!(Pdf)` expands to. That macro
// calls `$crate::__export_quire_world!`, but wit-bindgen re-exports the world macro under
// that name only inside `quire_sdk::bindings` (its `#[macro_export]` original is
// `quire_sdk::__export_converter_impl`), so the one-liner does not build for wasm32 yet.
// Go back to `quire_sdk::export_converter!(Pdf);` once the SDK macro names
// `$crate::bindings::__export_quire_world`.
#[cfg(target_arch = "wasm32")]
const _: () = {
    use quire_sdk::bindings::exports::quire::converter as wit;
    impl wit::meta::Guest for Pdf {
        fn describe() -> wit::meta::PluginInfo {
            quire_sdk::guest::describe::<Pdf>()
        }
    }
    impl wit::importer::Guest for Pdf {
        fn import(
            request: wit::importer::ImportRequest,
        ) -> Result<wit::importer::ImportResult, wit::importer::ConvertError> {
            quire_sdk::guest::import::<Pdf>(request)
        }
    }
    impl wit::exporter::Guest for Pdf {
        fn export(
            request: wit::exporter::ExportRequest,
        ) -> Result<wit::exporter::ExportResult, wit::exporter::ConvertError> {
            quire_sdk::guest::export::<Pdf>(request)
        }
    }
    quire_sdk::bindings::__export_quire_world!(Pdf with_types_in quire_sdk::bindings);
};
