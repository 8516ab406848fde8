//! What the active importers read, as the endpoints that take files offer it.

use axum::http::StatusCode;

use super::error::ApiError;
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
