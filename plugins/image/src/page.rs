//! The page a picture becomes: its physical size.
//!
//! - The resolution the file declares (PNG `pHYs`, JPEG JFIF density, EXIF X/YResolution)
//!   is used when it is plausible for a scan or a photo (50 to 4800 dpi): a 300-dpi scan of
//!   a Letter page, 2550 x 3300 px, becomes a 612 x 792 pt page. Many tools write 1, 20 or
//!   65535 "dpi" meaning nothing; those are ignored.
//! - With no usable declaration, a picture whose pixel size is exactly a common paper size
//!   (Letter, Legal, A4, A5, A3, either way up) scanned at a common resolution (150, 200,
//!   240, 300, 400, 600 dpi), within half a percent, is taken for that scan: scanners often
//!   drop the density, and a 2550 x 3300 image is a Letter page at 300 dpi, not a 35-inch one.
//! - Otherwise 1 pixel is 1 point (72 dpi), the convention of screen pictures.
//!
//! EXIF orientations 5 to 8 turn the picture a quarter: the page takes the displayed
//! (upright) size and the resolution axes swap with it. A side past the model's limit
//! (14 400 pt, 200 inches) scales the page down, keeping its shape.

use quire_sdk::validate::MAX_PAGE_SIDE;

use crate::header::Header;

const PLAUSIBLE_DPI: std::ops::RangeInclusive<f64> = 50.0..=4800.0;
const SCAN_DPI: [f64; 6] = [150.0, 200.0, 240.0, 300.0, 400.0, 600.0];
/// Paper sizes in inches, portrait.
const PAPER: [(f64, f64); 5] = [
    (8.5, 11.0),
    (8.5, 14.0),
    (210.0 / 25.4, 297.0 / 25.4),
    (148.0 / 25.4, 210.0 / 25.4),
    (297.0 / 25.4, 420.0 / 25.4),
];

/// How the size was decided, for tests and the warning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Basis {
    Declared(f64, f64),
    Paper(f64),
    Screen,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageSize {
    pub width: f64,
    pub height: f64,
    pub basis: Basis,
    /// The page was scaled down to the largest page the model holds.
    pub shrunk: bool,
}

pub fn size(h: &Header) -> PageSize {
    let turned = matches!(h.orientation, 5..=8);
    let (w_px, h_px) = if turned {
        (h.height, h.width)
    } else {
        (h.width, h.height)
    };
    let (w_px, h_px) = (f64::from(w_px), f64::from(h_px));
    let declared = h
        .density
        .filter(|(x, y)| PLAUSIBLE_DPI.contains(x) && PLAUSIBLE_DPI.contains(y))
        .map(|(x, y)| if turned { (y, x) } else { (x, y) });
    let (dpi_x, dpi_y, basis) = match declared {
        Some((x, y)) => (x, y, Basis::Declared(x, y)),
        None => match paper_scan(w_px, h_px) {
            Some(dpi) => (dpi, dpi, Basis::Paper(dpi)),
            None => (72.0, 72.0, Basis::Screen),
        },
    };
    let (mut width, mut height) = (w_px * 72.0 / dpi_x, h_px * 72.0 / dpi_y);
    let longest = width.max(height);
    let shrunk = longest > MAX_PAGE_SIDE;
    if shrunk {
        let k = MAX_PAGE_SIDE / longest;
        width *= k;
        height *= k;
    }
    PageSize {
        width,
        height,
        basis,
        shrunk,
    }
}

/// The scan resolution at which `w x h` pixels is a paper size, if any.
fn paper_scan(w: f64, h: f64) -> Option<f64> {
    let near = |a: f64, b: f64| (a - b).abs() <= b * 0.005;
    SCAN_DPI.into_iter().find(|dpi| {
        PAPER.iter().any(|&(pw, ph)| {
            let (pw, ph) = (pw * dpi, ph * dpi);
            (near(w, pw) && near(h, ph)) || (near(w, ph) && near(h, pw))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::header::Kind;

    fn header(w: u32, h: u32, density: Option<(f64, f64)>, orientation: u8) -> Header {
        Header {
            kind: Kind::Jpeg,
            width: w,
            height: h,
            density,
            orientation,
            png_orientation: None,
        }
    }

    fn wh(s: PageSize) -> (f64, f64) {
        (
            (s.width * 100.0).round() / 100.0,
            (s.height * 100.0).round() / 100.0,
        )
    }

    #[test]
    fn declared_resolution_gives_the_physical_size() {
        assert_eq!(
            wh(size(&header(2550, 3300, Some((300.0, 300.0)), 1))),
            (612.0, 792.0)
        );
        assert_eq!(
            wh(size(&header(1412, 964, Some((144.0, 144.0)), 1))),
            (706.0, 482.0)
        );
        // Different resolutions across and down (fax-like), turned a quarter by EXIF.
        let s = size(&header(1728, 1100, Some((200.0, 100.0)), 6));
        assert_eq!(wh(s), (792.0, 622.08));
        assert_eq!(s.basis, Basis::Declared(100.0, 200.0));
    }

    #[test]
    fn implausible_or_missing_resolution() {
        // 20 dpi is a tool's placeholder, not a scan: 72 dpi it is.
        let s = size(&header(885, 1146, Some((20.0, 20.0)), 1));
        assert_eq!((wh(s), s.basis), ((885.0, 1146.0), Basis::Screen));
        // A Letter page at 300 dpi without a declaration, either way up, and A4 at 200.
        let s = size(&header(2550, 3300, None, 1));
        assert_eq!((wh(s), s.basis), ((612.0, 792.0), Basis::Paper(300.0)));
        assert_eq!(wh(size(&header(3300, 2550, None, 1))), (792.0, 612.0));
        let s = size(&header(1654, 2339, None, 1));
        assert_eq!(s.basis, Basis::Paper(200.0));
        // A photo: pixels as points, turned upright.
        assert_eq!(
            wh(size(&header(4032, 3024, Some((72.0, 72.0)), 6))),
            (3024.0, 4032.0)
        );
        assert_eq!(wh(size(&header(640, 480, None, 8))), (480.0, 640.0));
    }

    #[test]
    fn pages_past_the_limit_shrink_keeping_shape() {
        let s = size(&header(20_000, 10_000, None, 1));
        assert!(s.shrunk);
        assert_eq!(wh(s), (MAX_PAGE_SIDE, MAX_PAGE_SIDE / 2.0));
    }
}
