//! The Quire plugin SDK.
//!
//! Everything a converter author needs: the document [`model`] (the contract between
//! converters and the host), the request and result types of the WIT interface in plain Rust
//! ([`convert`]), the standard-14 font [`metrics`], text [`layout`] shared by importers and
//! exporters so every output agrees, the vector [`geometry`] of shapes and connectors every
//! drawing exporter shares, the [`placement`] of one drawing inside another, the
//! [`image_probe`] every converter reads PNG and JPEG headers with (size, EXIF orientation,
//! resolution), the HTML character references of [`text`], and [`export_converter!`], which
//! turns a type implementing [`Converter`] into a component.
//!
//! A converter is written once as ordinary Rust and runs natively (tests, benchmarks) or as a
//! `wasm32-wasip2` component inside the host's sandbox.

// Natively the system allocator serves and only the tests of the size classes run.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod call_heap;
pub mod convert;
pub mod data_uri;
pub mod drawing;
pub mod face;
pub mod flow;
pub mod fonts;
pub mod geometry;
pub mod glyph_runs;
pub mod image_probe;
pub mod jpeg_recode;
pub mod layout;
pub mod metrics;
pub mod model;
pub mod placement;
pub mod shadow;
pub mod text;
pub mod validate;

#[cfg(feature = "guest")]
pub mod guest;

/// Components allocate from a heap made for one call (see [`call_heap`]).
#[cfg(all(feature = "guest", target_arch = "wasm32"))]
#[global_allocator]
static HEAP: call_heap::CallHeap = call_heap::CallHeap::new();

pub use convert::{
    Asset, ConvertError, Converter, ExportRequest, Exported, Format, ImportRequest, Imported,
    LockInfo, OptionSpec, Permissions, PluginInfo,
};
pub use model::*;

#[cfg(feature = "guest")]
#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit",
        world: "converter-with-kinds",
        pub_export_macro: true,
        export_macro_name: "__export_quire_world",
        default_bindings_module: "quire_sdk::bindings",
    });
}

/// The shared corpus of real files the tests read: `../shared/corpus` beside the repository
/// root, or `QUIRE_CORPUS` when set. For tests and tools; components never read files.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub fn corpus_dir() -> std::path::PathBuf {
    match std::env::var_os("QUIRE_CORPUS") {
        Some(dir) => dir.into(),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}
