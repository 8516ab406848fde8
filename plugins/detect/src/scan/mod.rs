//! Blanks on scanned pages: pictures that cover most of a page are decoded ([`raster`]),
//! their ink traced into strokes ([`ink`]) and the strokes read as tick boxes, answer lines
//! and cells ([`blanks`]). What is found in pixels is mapped onto the picture's frame on the
//! page, the way the exporters draw it.

pub mod blanks;
pub mod ink;
pub mod raster;

use quire_sdk::{Asset, FieldType, Image, Rect};

use crate::geom::{Candidate, Source};
use ink::{Ink, Paper, Seg, SegRules};
use raster::Gray;

/// Radius of the window a pixel is compared with, in working pixels.
const WINDOW: usize = 15;

const RULES: SegRules = SegRules {
    min_run: 6,
    gap: 2,
    max_thick: 7.0,
    max_runs: 400_000,
    max_bridged: 0.1,
};

/// A picture is read as a scan when it covers at least this share of its page.
pub const MIN_COVER: f64 = 0.4;

/// The strokes of a working image.
pub struct Strokes {
    pub ink: Ink,
    pub paper: Paper,
    /// Edges of shaded bands, which bound fields as lines do.
    pub tints: Vec<Seg>,
    pub horizontal: Vec<Seg>,
    pub vertical: Vec<Seg>,
}

pub fn strokes(gray: &Gray) -> Strokes {
    let ink = ink::threshold(gray.width, gray.height, &gray.pixels, WINDOW);
    let horizontal = ink::segments(&ink, RULES);
    let vertical = ink::segments(&ink.transposed(), RULES);
    let tints = ink::tint_edges(gray.width, gray.height, &gray.pixels, &ink, 100);
    Strokes {
        ink,
        tints,
        paper: Paper::new(gray.width, gray.height, &gray.pixels),
        horizontal,
        vertical,
    }
}

/// Blanks in a working image, in its pixels.
pub fn find(gray: &Gray) -> Vec<blanks::Blank> {
    if gray.width < 8 || gray.height < 8 {
        return Vec::new();
    }
    blanks::find(&strokes(gray))
}

/// How much decoding one request may do: a document of a thousand scanned pages must not
/// run past the sandbox's deadline.
pub struct Budget {
    /// Stored pixels still allowed.
    pub pixels: u64,
}

/// About forty Letter pages at 300 dpi.
pub const PIXEL_BUDGET: u64 = 350_000_000;

/// Whether `image` covers enough of a `width x height` page to be read as a scan.
pub fn is_scan(image: &Image, width: f64, height: f64) -> bool {
    let page = Rect::new(0.0, 0.0, width, height);
    let covered = crate::geom::intersection(&image.frame, &page);
    width > 0.0 && height > 0.0 && covered >= MIN_COVER * width * height
}

/// The blanks of `image` (one of the page's shapes) as page candidates, or why it was not
/// read.
pub fn candidates(
    image: &Image,
    asset: &Asset,
    budget: &mut Budget,
) -> Result<Vec<Candidate>, String> {
    let decoded = raster::decode(&asset.bytes, budget.pixels).map_err(|s| s.0)?;
    budget.pixels = budget.pixels.saturating_sub(decoded.source_pixels);
    let gray = &decoded.gray;
    let found = find(gray);
    // The working image fills the frame: its pixels stretch to the frame's size.
    let f = image.frame;
    let sx = f.w / gray.width.max(1) as f64;
    let sy = f.h / gray.height.max(1) as f64;
    Ok(found
        .into_iter()
        .map(|b| {
            let rect = Rect::new(
                f.x + b.x0 * sx,
                f.y + b.y0 * sy,
                (b.x1 - b.x0) * sx,
                (b.y1 - b.y0) * sy,
            );
            let kind = match b.kind {
                blanks::Kind::Text => FieldType::Text,
                blanks::Kind::Multiline => FieldType::Multiline,
                blanks::Kind::Checkbox => FieldType::Checkbox,
            };
            Candidate::new(rect, kind, Source::Pixels)
        })
        .collect())
}
