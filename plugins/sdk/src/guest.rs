//! The glue between the WIT bindings and [`Converter`]: the model crosses as JSON text, the
//! assets as bytes beside it.

use crate::bindings::exports::quire::converter::{exporter, importer, meta};
use crate::bindings::quire::converter::types as wit;
use crate::convert::*;

/// Turns a type implementing [`Converter`](crate::Converter) into the component's exports.
/// The exports exist in the component build only (`wasm32`), so the same crate also builds
/// natively for its tests without a `cfg` of its own.
///
/// ```ignore
/// struct Markdown;
/// impl quire_sdk::Converter for Markdown { /* describe, import */ }
/// quire_sdk::export_converter!(Markdown);
/// ```
#[macro_export]
macro_rules! export_converter {
    ($ty:ident) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            use $crate::bindings::exports::quire::converter as __wit;
            impl __wit::meta::Guest for $ty {
                fn describe() -> __wit::meta::PluginInfo {
                    $crate::guest::describe::<$ty>()
                }
            }
            impl __wit::importer::Guest for $ty {
                fn import(
                    request: __wit::importer::ImportRequest,
                ) -> Result<__wit::importer::ImportResult, __wit::importer::ConvertError> {
                    $crate::guest::import::<$ty>(request)
                }
            }
            impl __wit::kinds::Guest for $ty {
                fn export_kinds() -> Vec<(String, Vec<String>)> {
                    $crate::guest::export_kinds::<$ty>()
                }
            }
            impl __wit::exporter::Guest for $ty {
                fn export(
                    request: __wit::exporter::ExportRequest,
                ) -> Result<__wit::exporter::ExportResult, __wit::exporter::ConvertError> {
                    $crate::guest::export::<$ty>(request)
                }
            }
    $crate::bindings::__export_quire_world!($ty with_types_in $crate::bindings);
        };
        // Natively the type is still the crate's converter (its tests call it).
        #[cfg(not(target_arch = "wasm32"))]
        const _: fn() -> $crate::PluginInfo = <$ty as $crate::Converter>::describe;
    };
}

#[doc(hidden)]
pub fn describe<T: Converter>() -> meta::PluginInfo {
    let info = T::describe();
    let formats = |v: Vec<Format>| {
        v.into_iter()
            .map(|f| wit::Format {
                media_type: f.media_type,
                extension: f.extension,
            })
            .collect()
    };
    wit::PluginInfo {
        name: info.name,
        version: info.version,
        imports: formats(info.imports),
        exports: formats(info.exports),
        options: info
            .options
            .into_iter()
            .map(|o| wit::OptionSpec {
                name: o.name,
                description: o.description,
            })
            .collect(),
    }
}

/// The kinds each export fits, for the formats that do not fit every kind.
#[doc(hidden)]
pub fn export_kinds<T: Converter>() -> Vec<(String, Vec<String>)> {
    T::describe()
        .exports
        .into_iter()
        .filter(|f| !f.kinds.is_empty())
        .map(|f| {
            let kinds = f.kinds.iter().map(|k| k.as_str().to_string()).collect();
            (f.media_type, kinds)
        })
        .collect()
}

fn asset_in(a: wit::Asset) -> Asset {
    Asset {
        name: a.name,
        media_type: a.media_type,
        bytes: a.bytes,
    }
}

fn asset_out(a: Asset) -> wit::Asset {
    wit::Asset {
        name: a.name,
        media_type: a.media_type,
        bytes: a.bytes,
    }
}

#[doc(hidden)]
pub fn import<T: Converter>(
    request: importer::ImportRequest,
) -> Result<importer::ImportResult, wit::ConvertError> {
    let request = ImportRequest {
        bytes: request.bytes,
        media_type: request.media_type,
        images: request.images.into_iter().map(asset_in).collect(),
        options: request.options,
    };
    let imported = T::import(request).map_err(error_out)?;
    let model = serde_json::to_string(&imported.document)
        .map_err(|e| wit::ConvertError::Damaged(format!("the model could not be written: {e}")))?;
    Ok(wit::ImportResult {
        document: wit::Document {
            model,
            assets: imported.assets.into_iter().map(asset_out).collect(),
        },
        warnings: imported.warnings,
    })
}

#[doc(hidden)]
pub fn export<T: Converter>(
    request: exporter::ExportRequest,
) -> Result<exporter::ExportResult, wit::ConvertError> {
    let document = crate::validate::parse(&request.document.model)
        .map_err(|e| wit::ConvertError::InvalidRequest(format!("model: {e}")))?;
    crate::fonts::set_lang(document.lang.as_deref().unwrap_or(""));
    let request = ExportRequest {
        document,
        assets: request.document.assets.into_iter().map(asset_in).collect(),
        media_type: request.media_type,
        page: request.page,
        dpi: request.dpi,
        options: request.options,
    };
    let out = T::export(request).map_err(error_out)?;
    Ok(wit::ExportResult {
        bytes: out.bytes,
        media_type: out.media_type,
        warnings: out.warnings,
        headers: out.headers,
    })
}

fn error_out(e: ConvertError) -> wit::ConvertError {
    match e {
        ConvertError::Unsupported(s) => wit::ConvertError::Unsupported(s),
        ConvertError::Damaged(s) => wit::ConvertError::Damaged(s),
        ConvertError::Refused { kind, detail } => {
            wit::ConvertError::Refused(wit::Refusal { kind, detail })
        }
        ConvertError::Locked(l) => wit::ConvertError::Locked(wit::LockInfo {
            opens: l.opens,
            allows: wit::Permissions {
                print: l.allows.print,
                copy: l.allows.copy,
                modify: l.allows.modify,
            },
            detail: l.detail,
        }),
        ConvertError::PasswordRequired(s) => wit::ConvertError::PasswordRequired(s),
        ConvertError::TooLarge(s) => wit::ConvertError::TooLarge(s),
        ConvertError::InvalidRequest(s) => wit::ConvertError::InvalidRequest(s),
    }
}
