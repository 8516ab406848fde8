//! The OPC package (a ZIP of XML parts tied together by relationship parts), read with
//! limits checked before anything is inflated: the number of entries, the sizes the
//! central directory declares, and, because a header can lie, the bytes actually inflated.

use std::collections::HashMap;
use std::io::{Cursor, Read};

use quire_sdk::ConvertError;
use zip::result::ZipError;
use zip::ZipArchive;

use crate::xml::{self, Element, XmlError};

/// More entries than this is not a drawing anyone made by hand or by Visio.
pub const MAX_ENTRIES: usize = 10_000;
/// Declared uncompressed size of all entries together.
pub const MAX_TOTAL: u64 = 256 << 20;
/// One part, inflated.
pub const MAX_PART: u64 = 64 << 20;

pub struct Package<'a> {
    archive: ZipArchive<Cursor<&'a [u8]>>,
    /// Lower-cased part name -> entry index (OPC names are case-insensitive).
    names: HashMap<String, usize>,
    /// Bytes that may still be inflated.
    budget: u64,
}

fn zip_error(e: ZipError) -> ConvertError {
    match e {
        ZipError::UnsupportedArchive(what) => ConvertError::Unsupported(format!(
            "the Visio package uses a ZIP feature this converter does not read ({what})"
        )),
        other => ConvertError::Damaged(format!("the Visio package is damaged: {other}")),
    }
}

/// Resolves `target` against the folder of `base` (a part name), OPC style.
pub fn resolve(base: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if let Some(abs) = target.strip_prefix('/') {
        return normalize(abs.split('/').collect());
    } else {
        base.split('/').collect()
    };
    parts.pop();
    parts.extend(target.split('/'));
    normalize(parts)
}

fn normalize(parts: Vec<&str>) -> String {
    let mut out: Vec<&str> = Vec::new();
    for p in parts {
        match p {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            p => out.push(p),
        }
    }
    out.join("/")
}

impl<'a> Package<'a> {
    pub fn open(bytes: &'a [u8]) -> Result<Package<'a>, ConvertError> {
        if !bytes.starts_with(b"PK\x03\x04") && !bytes.starts_with(b"PK\x05\x06") {
            let what = if bytes.starts_with(b"\xD0\xCF\x11\xE0") {
                "an OLE compound file (an old binary .vsd, or an encrypted drawing)"
            } else {
                "not a ZIP package"
            };
            return Err(ConvertError::Unsupported(format!(
                "this is not a .vsdx drawing: it is {what}"
            )));
        }
        let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| match e {
            ZipError::InvalidArchive(_) => {
                ConvertError::Damaged(format!("the Visio package is not a readable ZIP: {e}"))
            }
            e => zip_error(e),
        })?;
        if archive.len() > MAX_ENTRIES {
            return Err(ConvertError::TooLarge(format!(
                "the package has {} entries; at most {MAX_ENTRIES} are read",
                archive.len()
            )));
        }
        let mut names = HashMap::with_capacity(archive.len());
        let mut total = 0u64;
        for i in 0..archive.len() {
            let entry = archive.by_index_raw(i).map_err(zip_error)?;
            total = total.saturating_add(entry.size());
            if let Ok(name) = entry.name() {
                names.insert(name.trim_start_matches('/').to_ascii_lowercase(), i);
            }
        }
        if total > MAX_TOTAL {
            return Err(ConvertError::TooLarge(format!(
                "the package would inflate to {} MiB; at most {} MiB are read",
                total >> 20,
                MAX_TOTAL >> 20
            )));
        }
        Ok(Package {
            archive,
            names,
            budget: MAX_TOTAL,
        })
    }

    pub fn has(&self, part: &str) -> bool {
        self.names.contains_key(&part.to_ascii_lowercase())
    }

    /// The bytes of a part, `None` when the package has no such part.
    pub fn read(&mut self, part: &str) -> Result<Option<Vec<u8>>, ConvertError> {
        let Some(&index) = self.names.get(&part.to_ascii_lowercase()) else {
            return Ok(None);
        };
        let mut entry = self.archive.by_index(index).map_err(zip_error)?;
        if entry.size() > MAX_PART {
            return Err(ConvertError::TooLarge(format!(
                "part {part} is {} MiB; at most {} MiB are read",
                entry.size() >> 20,
                MAX_PART >> 20
            )));
        }
        let limit = MAX_PART.min(self.budget);
        let mut out = Vec::with_capacity(entry.size().min(limit) as usize);
        (&mut entry)
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| ConvertError::Damaged(format!("part {part} does not inflate: {e}")))?;
        if out.len() as u64 > limit {
            return Err(ConvertError::TooLarge(format!(
                "part {part} inflates to more than its header says, beyond {} MiB",
                limit >> 20
            )));
        }
        self.budget -= out.len() as u64;
        Ok(Some(out))
    }

    /// A part parsed as XML, `None` when missing.
    pub fn xml(&mut self, part: &str) -> Result<Option<Element>, ConvertError> {
        let Some(bytes) = self.read(part)? else {
            return Ok(None);
        };
        let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes))
            .map_err(|_| ConvertError::Damaged(format!("part {part} is not UTF-8 XML")))?;
        xml::parse(text).map(Some).map_err(|e| match e {
            XmlError::TooBig(s) => ConvertError::TooLarge(format!("part {part}: {s}")),
            XmlError::Syntax(s) => {
                ConvertError::Damaged(format!("part {part} is not well-formed XML: {s}"))
            }
        })
    }

    /// The relationships of a part: id -> (type, target part name).
    pub fn rels(&mut self, part: &str) -> Result<HashMap<String, (String, String)>, ConvertError> {
        let (folder, file) = match part.rsplit_once('/') {
            Some((d, f)) => (format!("{d}/"), f),
            None => (String::new(), part),
        };
        let rels_part = format!("{folder}_rels/{file}.rels");
        let mut out = HashMap::new();
        if let Some(rels) = self.xml(&rels_part)? {
            for r in rels.children.iter().filter(|c| c.name == "Relationship") {
                if r.attr("TargetMode") == Some("External") {
                    continue;
                }
                if let (Some(id), Some(target)) = (r.attr("Id"), r.attr("Target")) {
                    out.insert(
                        id.to_string(),
                        (
                            r.attr("Type").unwrap_or_default().to_string(),
                            resolve(part, target),
                        ),
                    );
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_against_their_part() {
        assert_eq!(
            resolve("visio/pages/pages.xml", "page1.xml"),
            "visio/pages/page1.xml"
        );
        assert_eq!(
            resolve("visio/pages/page1.xml", "../media/image1.emf"),
            "visio/media/image1.emf"
        );
        assert_eq!(resolve("", "/visio/document.xml"), "visio/document.xml");
        // The package's own relationships resolve against the root.
        assert_eq!(resolve("", "visio/document.xml"), "visio/document.xml");
    }

    #[test]
    fn not_a_zip_is_unsupported() {
        assert!(matches!(
            Package::open(b"hello").err(),
            Some(ConvertError::Unsupported(_))
        ));
        assert!(matches!(
            Package::open(b"\xD0\xCF\x11\xE0rest").err(),
            Some(ConvertError::Unsupported(_))
        ));
        assert!(matches!(
            Package::open(b"PK\x03\x04truncated").err(),
            Some(ConvertError::Damaged(_))
        ));
    }
}
