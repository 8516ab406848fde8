//! HTML inside another document: Markdown's raw HTML blocks (`<p align="center">`, a
//! `<table>`, `<details>`), read by the same walk as an HTML page, so they are centred,
//! bold, linked and laid out as a browser shows them within the Markdown around them.

use quire_sdk::flow::Block;
use quire_sdk::{Asset, ConvertError};

use crate::builder::Builder;
use crate::images::Images;
use crate::{parse, sheet};

/// Reads the HTML fragments of one document in turn. Pictures are found among the
/// document's supplied images and numbered across all fragments, so two fragments never
/// name two pictures alike.
pub struct Fragments<'a> {
    supplied: &'a [Asset],
    images: Option<Images<'a>>,
    warnings: Vec<String>,
    flattened: usize,
    icons: usize,
    /// What the fragments' style sheets may still cost, all together.
    budget: sheet::Budget,
}

impl<'a> Fragments<'a> {
    pub fn new(supplied: &'a [Asset]) -> Self {
        Fragments {
            supplied,
            images: Some(Images::new(supplied)),
            warnings: Vec::new(),
            flattened: 0,
            icons: 0,
            budget: sheet::Budget::default(),
        }
    }

    /// The blocks `html` holds. Links relative to the document stay links as written, as
    /// the Markdown around them keeps its own; `#name` links are left for the document's
    /// headings to resolve.
    pub fn blocks(&mut self, html: &str) -> Result<Vec<Block>, ConvertError> {
        let parsed = parse::parse(html);
        if parsed.too_many {
            return Err(ConvertError::TooLarge(format!(
                "raw HTML in the document has more than {} elements; split it into smaller \
                 documents",
                parse::MAX_ELEMENTS
            )));
        }
        self.flattened += parsed.flattened;
        let mut builder = Builder::new(self.supplied);
        if let Some(images) = self.images.take() {
            builder.images = images;
        }
        builder.keep_relative = true;
        builder.cascade = sheet::Cascade::within(&parsed.html, &mut self.budget);
        if builder.cascade.truncated {
            self.warn(
                "style sheets in the document's raw HTML are larger than Quire reads (1 MiB, \
                 4096 rules, or too many elements to match them all, in all its HTML \
                 together): the rest is shown as if they were not there"
                    .into(),
            );
        }
        builder.children(parsed.html.tree.root(), 0);
        let blocks = builder.finish();
        self.icons += builder.icons;
        for warning in std::mem::take(&mut builder.warnings) {
            self.warn(warning);
        }
        self.images = Some(builder.images);
        Ok(blocks)
    }

    fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }

    /// The pictures the fragments used, and what could not be shown.
    pub fn finish(mut self) -> (Vec<Asset>, Vec<String>) {
        if self.flattened > 0 {
            self.warn(crate::flattened_warning(self.flattened, " of raw HTML"));
        }
        if self.icons > 0 {
            self.warn(crate::icons_warning(self.icons, " of raw HTML"));
        }
        let (assets, image_warnings) = match self.images.take() {
            Some(images) => images.finish(),
            None => Default::default(),
        };
        let mut warnings = self.warnings;
        warnings.extend(image_warnings);
        (assets, warnings)
    }
}
