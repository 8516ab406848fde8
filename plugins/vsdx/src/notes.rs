//! What the import could not carry over exactly, counted while it runs and told as a few
//! sentences at the end; and the pictures of the drawing, one asset per distinct content.

use std::collections::HashMap;

use quire_sdk::Asset;

#[derive(Debug, Default)]
pub struct Notes {
    pub metafiles: usize,
    pub missing_pictures: usize,
    pub approximated: usize,
    pub flattened: usize,
    pub missing_pages: usize,
    /// Background pages kept as pages (the drawing has no other): their names.
    pub backgrounds: Vec<String>,
    /// Background pages no printed page is drawn over: their names.
    pub unused_backgrounds: Vec<String>,
    pub other: Vec<String>,
}

impl Notes {
    pub fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        let counted = [
            (
                self.metafiles,
                "pictures are Windows metafiles (EMF/WMF), kept as they are; exporters that \
                 cannot draw them show a placeholder",
            ),
            (
                self.missing_pictures,
                "pictures are missing from the package and were drawn as their outline",
            ),
            (
                self.approximated,
                "NURBS and spline rows were followed through their control points",
            ),
            (
                self.flattened,
                "groups nested too deep were flattened into their parent",
            ),
            (
                self.missing_pages,
                "pages have no content part and were left empty",
            ),
        ];
        for (n, what) in counted {
            if n > 0 {
                out.push(format!("{n} {what}"));
            }
        }
        if !self.backgrounds.is_empty() {
            out.push(format!(
                "the drawing has only background pages ({}); they were kept as pages",
                quoted(&self.backgrounds)
            ));
        }
        if !self.unused_backgrounds.is_empty() {
            out.push(format!(
                "background pages behind no page were left out, as Visio prints the drawing: {}",
                quoted(&self.unused_backgrounds)
            ));
        }
        out.extend(self.other.iter().cloned());
        out
    }
}

fn quoted(names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    list.join(", ")
}

#[derive(Default)]
pub struct Assets {
    pub list: Vec<Asset>,
    by_content: HashMap<(u64, usize), usize>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Assets {
    /// The asset name for these bytes, adding them if new.
    pub fn add(&mut self, media_type: &str, ext: &str, bytes: Vec<u8>) -> String {
        let key = (fnv1a(&bytes), bytes.len());
        if let Some(&i) = self.by_content.get(&key) {
            if self.list[i].bytes == bytes {
                return self.list[i].name.clone();
            }
        }
        let ext: String = ext
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .take(5)
            .collect();
        let ext = if ext.is_empty() {
            "bin".to_string()
        } else {
            ext
        };
        let name = format!("vsdx-{}.{ext}", self.list.len() + 1);
        self.by_content.insert(key, self.list.len());
        self.list.push(Asset {
            name: name.clone(),
            media_type: media_type.to_string(),
            bytes,
        });
        name
    }
}
