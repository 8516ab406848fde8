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

/// About twelve Letter pages at 300 dpi: measured in the sandbox, a 2550 x 3300 RGBA scan
/// costs about 3.2e9 fuel (0.4e9 a megapixel), so this stays well inside the 50e9 a call
/// gets, and inside its deadline.
pub const PIXEL_BUDGET: u64 = 100_000_000;

/// Whether `image` covers enough of a `width x height` page to be read as a scan.
pub fn is_scan(image: &Image, width: f64, height: f64) -> bool {
    let page = Rect::new(0.0, 0.0, width, height);
    let covered = crate::geom::intersection(&image.frame, &page);
    width > 0.0 && height > 0.0 && covered >= MIN_COVER * width * height
}

/// Clockwise quarter turns of a page's `rotate` (90, 180 or 270; anything else is none).
pub fn quarter_turns(rotate: u16) -> u8 {
    match rotate % 360 {
        90 => 1,
        180 => 2,
        270 => 3,
        _ => 0,
    }
}

/// The blanks of `image` (one of the page's shapes, on a page turned `rotate` degrees
/// clockwise for display) as page candidates, or why it was not read.
///
/// The pixels are read as the page is displayed, so that a form's answer lines lie across
/// as they were drawn; what is found is mapped back into the unrotated page, where the
/// model keeps all geometry.
pub fn candidates(
    image: &Image,
    asset: &Asset,
    rotate: u16,
    budget: &mut Budget,
) -> Result<Vec<Candidate>, String> {
    let decoded = raster::decode(&asset.bytes, budget.pixels).map_err(|s| s.0)?;
    budget.pixels = budget.pixels.saturating_sub(decoded.source_pixels);
    let (w, h) = (decoded.gray.width as f64, decoded.gray.height as f64);
    let turns = quarter_turns(rotate);
    let shown = raster::rotate_cw(decoded.gray, turns);
    let found = find(&shown);
    // The working image fills the frame: its pixels stretch to the frame's size.
    let f = image.frame;
    let sx = f.w / w.max(1.0);
    let sy = f.h / h.max(1.0);
    Ok(found
        .into_iter()
        .map(|b| {
            let (x0, y0, x1, y1) = unturn(&b, turns, w, h);
            let rect = Rect::new(f.x + x0 * sx, f.y + y0 * sy, (x1 - x0) * sx, (y1 - y0) * sy);
            let kind = match b.kind {
                blanks::Kind::Text => FieldType::Text,
                blanks::Kind::Multiline => FieldType::Multiline,
                blanks::Kind::Checkbox => FieldType::Checkbox,
            };
            Candidate::new(rect, kind, Source::Pixels)
        })
        .collect())
}

/// A blank found on the working image turned `turns` quarters clockwise, as edges
/// (x0, y0, x1, y1) on the unturned `w x h` image.
fn unturn(b: &blanks::Blank, turns: u8, w: f64, h: f64) -> (f64, f64, f64, f64) {
    match turns % 4 {
        0 => (b.x0, b.y0, b.x1, b.y1),
        // Turned (x, y) was unturned (y, h - x).
        1 => (b.y0, h - b.x1, b.y1, h - b.x0),
        2 => (w - b.x1, h - b.y1, w - b.x0, h - b.y0),
        // Turned (x, y) was unturned (w - y, x).
        _ => (w - b.y1, b.x0, w - b.y0, b.x1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gray(width: usize, height: usize, f: impl Fn(usize, usize) -> u8) -> Gray {
        let pixels = (0..width * height)
            .map(|i| f(i % width, i / width))
            .collect();
        Gray {
            width,
            height,
            pixels,
        }
    }

    #[test]
    fn blank_black_and_noisy_pictures_give_nothing_or_little() {
        assert!(find(&gray(600, 800, |_, _| 255)).is_empty());
        assert!(find(&gray(600, 800, |_, _| 0)).is_empty());
        assert!(find(&gray(3, 3, |_, _| 0)).is_empty());
        assert!(find(&gray(1, 900, |_, _| 0)).is_empty());
        // Pseudo-random noise, salt and pepper: no lines, no boxes.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let noise: Vec<u8> = (0..640 * 480)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state.is_multiple_of(7) {
                    0
                } else {
                    255
                }
            })
            .collect();
        let noisy = Gray {
            width: 640,
            height: 480,
            pixels: noise,
        };
        assert!(find(&noisy).len() <= 2);
    }

    #[test]
    fn a_drawn_form_gives_its_line_and_its_box() {
        // A 2-pixel line 300 long with room above it, and a 24-pixel box, on white.
        let g = gray(600, 400, |x, y| {
            let line = (100..400).contains(&x) && (200..202).contains(&y);
            let in_box = (450..474).contains(&x) && (180..204).contains(&y);
            let edge = in_box && !((452..472).contains(&x) && (182..202).contains(&y));
            if line || edge {
                20
            } else {
                250
            }
        });
        let found = find(&g);
        assert_eq!(found.len(), 2, "{found:?}");
        let line = found.iter().find(|b| b.kind == blanks::Kind::Text).unwrap();
        assert!(
            (line.x0 - 100.0).abs() <= 2.0 && (line.x1 - 400.0).abs() <= 2.0,
            "{line:?}"
        );
        assert!(
            line.y1 <= 200.0 && line.y1 >= 195.0 && line.y1 - line.y0 >= 20.0,
            "{line:?}"
        );
        let b = found
            .iter()
            .find(|b| b.kind == blanks::Kind::Checkbox)
            .unwrap();
        assert!(
            (b.x0 - 450.5).abs() <= 1.5 && (b.y1 - 202.5).abs() <= 1.5,
            "{b:?}"
        );
    }

    #[test]
    fn graph_paper_is_bounded_work_and_no_tick_boxes() {
        // 1600 x 1600 pixels ruled every 20: thousands of squares and line pieces.
        let g = gray(1600, 1600, |x, y| {
            if x % 20 == 0 || y % 20 == 0 {
                30
            } else {
                250
            }
        });
        let start = std::time::Instant::now();
        let found = find(&g);
        assert!(found.iter().all(|b| b.kind != blanks::Kind::Checkbox));
        // Generous for unoptimised test builds; a release build takes well under a second.
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    }
}
