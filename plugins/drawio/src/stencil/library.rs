//! The stencil libraries draw.io ships (`shape=mxgraph.cisco.routers.router`), packed into
//! `stencils/stencils.bin` by `scripts/drawio-stencils.py` (its doc comment has the layout).
//! A lookup inflates the one chunk that holds the shape; the few chunks a diagram uses
//! are kept for the rest of the conversion.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Read;
use std::rc::Rc;

static PACKED: &[u8] = include_bytes!("../../stencils/stencils.bin");

const MAGIC: &[u8; 4] = b"QST2";
const HEADER: usize = 12;
const SHAPE_RECORD: usize = 16;
const CHUNK_RECORD: usize = 12;
/// Chunks kept inflated at once (64 KiB each): a diagram draws from a few libraries.
const KEPT_CHUNKS: usize = 32;

thread_local! {
    static INFLATED: RefCell<HashMap<u16, Rc<str>>> = RefCell::new(HashMap::new());
}

/// The `<shape>` element's XML text for a style's shape name, as draw.io's registry finds
/// it (names are lower-case there; a style spelling one otherwise is tried lower-cased).
pub fn shape_xml(name: &str) -> Option<String> {
    let lower;
    let key = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = name.to_ascii_lowercase();
        lower.as_str()
    } else {
        name
    };
    lookup(PACKED, key.as_bytes())
}

fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

fn lookup(packed: &[u8], key: &[u8]) -> Option<String> {
    if packed.get(..4)? != MAGIC {
        return None;
    }
    let shapes = u32_at(packed, 4)?;
    let chunks = u32_at(packed, 8)?;
    let name_of = |i: usize| -> Option<&[u8]> {
        let at = HEADER + i * SHAPE_RECORD;
        let (offset, len) = (u32_at(packed, at)?, u16_at(packed, at + 4)?);
        packed.get(offset..offset + len)
    };
    // Binary search over the records, which are sorted by name.
    let (mut lo, mut hi) = (0usize, shapes);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match name_of(mid)?.cmp(key) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => {
                let at = HEADER + mid * SHAPE_RECORD;
                let chunk = u16_at(packed, at + 6)?;
                let (start, len) = (u32_at(packed, at + 8)?, u32_at(packed, at + 12)?);
                if chunk >= chunks {
                    return None;
                }
                let text = inflated_chunk(packed, shapes, chunk as u16)?;
                return text.get(start..start + len).map(str::to_string);
            }
        }
    }
    None
}

fn inflated_chunk(packed: &[u8], shapes: usize, chunk: u16) -> Option<Rc<str>> {
    if let Some(text) = INFLATED.with(|m| m.borrow().get(&chunk).cloned()) {
        return Some(text);
    }
    let at = HEADER + shapes * SHAPE_RECORD + chunk as usize * CHUNK_RECORD;
    let (offset, len, raw_len) = (
        u32_at(packed, at)?,
        u32_at(packed, at + 4)?,
        u32_at(packed, at + 8)?,
    );
    let mut raw = Vec::with_capacity(raw_len);
    flate2::read::DeflateDecoder::new(packed.get(offset..offset + len)?)
        .take(raw_len as u64)
        .read_to_end(&mut raw)
        .ok()?;
    let text: Rc<str> = String::from_utf8(raw).ok()?.into();
    INFLATED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= KEPT_CHUNKS {
            m.clear();
        }
        m.insert(chunk, text.clone());
    });
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_shapes_of_the_libraries_draw_io_ships_by_their_style_names() {
        for name in [
            "mxgraph.cisco.routers.router",
            "mxgraph.aws4.lambda_function",
            "mxgraph.azure.virtual_machine",
            "mxgraph.salesforce.apps",
            "mxgraph.gcp2.cloud_storage",
        ] {
            let xml = shape_xml(name).unwrap_or_else(|| panic!("{name} is missing"));
            assert!(
                xml.starts_with("<shape ") && xml.ends_with("</shape>"),
                "{name}: {xml}"
            );
        }
        // Mixed case in a style still finds the lower-case registry name.
        assert!(shape_xml("mxgraph.Cisco.Routers.Router").is_some());
        assert!(shape_xml("mxgraph.cisco.routers.no_such_router").is_none());
        assert!(shape_xml("").is_none());
        assert!(lookup(b"nope", b"x").is_none());
    }
}
