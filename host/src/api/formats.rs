//! What the active converters offer right now: the media types the importers read (as the
//! endpoints that take files resolve them) and the downloads the exporters serve.

use axum::http::StatusCode;
use quire_sdk::Kind;

use super::error::ApiError;
use crate::app::App;
use crate::file_kinds;

/// The media types the active importers read, as an endpoint offers them, and the file
/// name extensions they declare (for uploads named by their file name only).
pub struct Readable {
    pub types: Vec<String>,
    /// (extension without the dot, media type), e.g. ("md", "text/markdown").
    pub extensions: Vec<(String, String)>,
}

impl Readable {
    /// The media type a file name stands for: an importer's own extension, or a common
    /// other spelling of one (`.jpeg`, `.markdown`, `.htm`); for `.xml`, the format its
    /// root element names (draw.io or SVG).
    pub fn by_file_name(&self, file_name: &str, bytes: &[u8]) -> Option<String> {
        let (_, ext) = file_name.rsplit_once('.')?;
        if file_kinds::is_generic_xml(ext) {
            return file_kinds::sniff_xml(bytes).and_then(|t| self.resolve(t));
        }
        let ext = file_kinds::canonical_extension(ext);
        self.extensions
            .iter()
            .find(|(e, _)| *e == ext)
            .map(|(_, media_type)| media_type.clone())
    }

    /// [`Readable::resolve`], reading the root element of a body declared only as XML.
    pub fn resolve_content(&self, given: &str, bytes: &[u8]) -> Option<String> {
        if file_kinds::is_generic_xml(given) {
            return file_kinds::sniff_xml(bytes).and_then(|t| self.resolve(t));
        }
        self.resolve(given)
    }

    /// The media type the importer is asked for when a client says `given`: an exact match,
    /// else the registered spelling of an experimental one (`text/x-markdown` is read as
    /// `text/markdown`, `image/jpg` as `image/jpeg`) when only that is served.
    pub fn resolve(&self, given: &str) -> Option<String> {
        let given = given.trim().to_ascii_lowercase();
        if self.types.contains(&given) {
            return Some(given);
        }
        let (top, sub) = given.split_once('/')?;
        let candidates = [
            sub.strip_prefix("x-").map(|s| format!("{top}/{s}")),
            (given == "image/jpg").then(|| "image/jpeg".to_string()),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|c| self.types.contains(c))
    }

    /// The picture kinds among these (what the `image` source may be).
    pub fn pictures(&self) -> Readable {
        Readable {
            types: self
                .types
                .iter()
                .filter(|t| t.starts_with("image/"))
                .cloned()
                .collect(),
            extensions: Vec::new(),
        }
    }

    pub fn list(&self) -> String {
        if self.types.is_empty() {
            "none (no importer is active)".into()
        } else {
            self.types.join(", ")
        }
    }

    pub fn unsupported(&self, what: String) -> ApiError {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "{what}; readable kinds are application/json (with a source field) and {}",
                self.list()
            ),
        )
        .with("readable", self.types.clone())
    }
}

/// What clients can send and download right now: the active converters' formats.
pub struct Formats {
    /// Media types a create or replace takes as a raw body (or in `file` with `type`).
    pub readable: Vec<quire_sdk::Format>,
    /// Download extensions and their media types, the model's `.json` among them.
    pub servable: Vec<(String, String)>,
    /// The download extensions that fit each kind of document.
    pub fitting: Vec<(Kind, Vec<(String, String)>)>,
}

impl Formats {
    pub fn of(app: &App) -> Formats {
        Formats {
            readable: app.plugins.public_formats(false),
            servable: servable(app),
            fitting: Kind::ALL
                .into_iter()
                .map(|k| (k, fitting(app, k)))
                .collect(),
        }
    }

    /// The kinds of document the download `extension` fits.
    pub(super) fn kinds_of(&self, extension: &str) -> Vec<Kind> {
        self.fitting
            .iter()
            .filter(|(_, served)| served.iter().any(|(e, _)| e == extension))
            .map(|(k, _)| *k)
            .collect()
    }

    pub(super) fn readable_types(&self) -> Vec<&str> {
        let mut types: Vec<&str> = self
            .readable
            .iter()
            .map(|f| f.media_type.as_str())
            .collect();
        types.dedup();
        types
    }
}

/// The media types clients may send now: whatever the active importers read.
pub fn readable(app: &App) -> Readable {
    let formats = app.plugins.public_formats(false);
    let mut types: Vec<String> = formats.iter().map(|f| f.media_type.clone()).collect();
    types.dedup();
    Readable {
        types,
        extensions: formats
            .into_iter()
            .map(|f| (f.extension, f.media_type))
            .collect(),
    }
}

/// Download extensions served now: every active exporter's, and the model as `.json`.
pub fn servable(app: &App) -> Vec<(String, String)> {
    served(app, None)
}

/// The downloads that mean something for a document of `kind`, as the exporters say: what
/// the pages offer. The API serves every format to every document, as the contract says.
pub fn fitting(app: &App, kind: Kind) -> Vec<(String, String)> {
    served(app, Some(kind))
}

fn served(app: &App, kind: Option<Kind>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = app
        .plugins
        .public_formats(true)
        .into_iter()
        .filter(|f| kind.is_none_or(|k| f.fits(k)))
        .map(|f| (f.extension, f.media_type))
        .chain([(MODEL_EXTENSION.to_string(), MODEL_MEDIA_TYPE.to_string())])
        .collect();
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The document's own model is the host's to serve, whatever converters are active.
pub const MODEL_EXTENSION: &str = "json";
const MODEL_MEDIA_TYPE: &str = "application/json";
