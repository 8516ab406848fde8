//! The WIT interface's requests and results as plain Rust, so a converter is ordinary code
//! that runs natively as well as inside the sandbox.

use crate::model::{Document, Kind};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    pub media_type: String,
    pub extension: String,
    /// For an export: the kinds of document it fits; empty means every kind.
    pub kinds: Vec<Kind>,
}

impl Format {
    pub fn new(media_type: &str, extension: &str) -> Self {
        Format {
            media_type: media_type.into(),
            extension: extension.into(),
            kinds: Vec::new(),
        }
    }

    /// An export that fits only `kinds` (mermaid text of a Markdown report means nothing).
    pub fn only_for(mut self, kinds: &[Kind]) -> Self {
        self.kinds = kinds.to_vec();
        self
    }

    /// Whether this export fits a document of `kind`.
    pub fn fits(&self, kind: Kind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&kind)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginInfo {
    pub name: String,
    pub version: String,
    pub imports: Vec<Format>,
    pub exports: Vec<Format>,
    pub options: Vec<OptionSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    pub name: String,
    pub media_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Default)]
pub struct ImportRequest {
    pub bytes: Vec<u8>,
    pub media_type: String,
    pub images: Vec<Asset>,
    pub options: Vec<(String, String)>,
}

impl ImportRequest {
    /// A request for `bytes` of `media_type`, without side images or options.
    pub fn new(bytes: impl Into<Vec<u8>>, media_type: &str) -> Self {
        ImportRequest {
            bytes: bytes.into(),
            media_type: media_type.into(),
            ..ImportRequest::default()
        }
    }

    pub fn option(&self, name: &str) -> Option<&str> {
        find_option(&self.options, name)
    }
}

#[derive(Debug, Clone)]
pub struct Imported {
    pub document: Document,
    pub assets: Vec<Asset>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct ExportRequest {
    pub document: Document,
    pub assets: Vec<Asset>,
    pub media_type: String,
    pub page: Option<u32>,
    pub dpi: Option<u32>,
    pub options: Vec<(String, String)>,
}

impl ExportRequest {
    /// A request for the whole `document` as `media_type`, at the default resolution,
    /// without options.
    pub fn new(document: Document, assets: Vec<Asset>, media_type: &str) -> Self {
        ExportRequest {
            document,
            assets,
            media_type: media_type.into(),
            page: None,
            dpi: None,
            options: Vec::new(),
        }
    }

    pub fn option(&self, name: &str) -> Option<&str> {
        find_option(&self.options, name)
    }

    pub fn asset(&self, name: &str) -> Option<&Asset> {
        self.assets.iter().find(|a| a.name == name)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub bytes: Vec<u8>,
    pub media_type: String,
    pub warnings: Vec<String>,
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Permissions {
    pub print: bool,
    pub copy: bool,
    pub modify: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockInfo {
    pub opens: bool,
    pub allows: Permissions,
    pub detail: String,
}

/// Why a conversion did not happen; mirrors the WIT `convert-error` variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvertError {
    Unsupported(String),
    Damaged(String),
    Refused { kind: String, detail: String },
    Locked(LockInfo),
    PasswordRequired(String),
    TooLarge(String),
    InvalidRequest(String),
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvertError::Unsupported(s)
            | ConvertError::Damaged(s)
            | ConvertError::PasswordRequired(s)
            | ConvertError::TooLarge(s)
            | ConvertError::InvalidRequest(s) => f.write_str(s),
            ConvertError::Refused { detail, .. } => f.write_str(detail),
            ConvertError::Locked(l) => f.write_str(&l.detail),
        }
    }
}

impl std::error::Error for ConvertError {}

/// A converter. Implement `describe` and whichever of `import`/`export` the formats in
/// `describe` call for; the defaults refuse, and the host never routes to a direction the
/// description does not list.
pub trait Converter {
    fn describe() -> PluginInfo;

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        Err(ConvertError::Unsupported(format!(
            "this converter does not read {}",
            request.media_type
        )))
    }

    fn export(request: ExportRequest) -> Result<Exported, ConvertError> {
        Err(ConvertError::Unsupported(format!(
            "this converter does not write {}",
            request.media_type
        )))
    }
}

fn find_option<'a>(options: &'a [(String, String)], name: &str) -> Option<&'a str> {
    options
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}
