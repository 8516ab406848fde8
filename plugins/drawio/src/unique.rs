//! What must be unique across a whole file's import: its model ids (draw.io's are unique
//! per page only) and its pictures (one asset per distinct content).

use std::collections::{HashMap, HashSet};

use quire_sdk::Asset;

/// Model ids are unique in the whole document while draw.io's are unique per page: an id
/// seen on an earlier page gets the page number in front.
#[derive(Default)]
pub struct Ids {
    used: HashSet<String>,
}

impl Ids {
    pub fn alloc(&mut self, page: usize, wanted: &str) -> String {
        let base = if wanted.trim().is_empty() {
            format!("p{page}-cell")
        } else {
            wanted.to_string()
        };
        if self.used.insert(base.clone()) {
            return base;
        }
        let prefixed = format!("p{page}-{base}");
        if self.used.insert(prefixed.clone()) {
            return prefixed;
        }
        let mut n = 2usize;
        loop {
            let candidate = format!("{prefixed}-{n}");
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

/// Pictures of the document, one asset per distinct content.
#[derive(Default)]
pub struct Assets {
    pub list: Vec<quire_sdk::Asset>,
    by_content: HashMap<(u64, usize), usize>,
}

impl Assets {
    /// The asset name for these bytes, adding them if new.
    pub fn add(&mut self, media_type: &str, bytes: Vec<u8>) -> String {
        let key = (fnv1a(&bytes), bytes.len());
        if let Some(&i) = self.by_content.get(&key) {
            if self.list[i].bytes == bytes {
                return self.list[i].name.clone();
            }
        }
        let ext = match media_type {
            "image/png" => "png",
            "image/jpeg" => "jpg",
            "image/gif" => "gif",
            "image/svg+xml" => "svg",
            "image/webp" => "webp",
            _ => "bin",
        };
        let name = format!("drawio-{}.{ext}", self.list.len() + 1);
        self.by_content.insert(key, self.list.len());
        self.list.push(Asset {
            name: name.clone(),
            media_type: media_type.to_string(),
            bytes,
        });
        name
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
