//! A picture asset decoded into a small grey working image, turned the way the exporters
//! draw it.
//!
//! The analysis never needs more than about 150 dpi, so the decoded pixels are averaged down
//! by a whole factor into a grey image whose longer side is at most [`WORK_SIDE`] as they are
//! read; only the decoder's own buffer is ever full size. The turn comes last, on the small
//! image: a JPEG's EXIF orientation is applied (the PDF exporter applies it too, drawing the
//! picture upright in its frame); a PNG's is not, as no exporter applies it.

use std::io::Cursor;

use image::error::{ImageError, LimitErrorKind};
use image::metadata::Orientation;
use image::{DynamicImage, GrayImage, ImageDecoder, ImageFormat, ImageReader, Limits};

/// Longest side of the working image, in pixels: a Letter page at about 150 dpi.
pub const WORK_SIDE: u32 = 1800;
/// Widest and tallest picture decoded (as the image importer).
pub const MAX_SIDE: u32 = 20_000;
/// Most memory the decoder may allocate: the sandbox gives a call 512 MiB in all.
pub const MAX_ALLOC: u64 = 256 << 20;

/// A grey image, one byte a pixel (0 black, 255 white), rows top to bottom.
#[derive(Debug, Clone)]
pub struct Gray {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

impl Gray {
    pub fn at(&self, x: usize, y: usize) -> u8 {
        self.pixels[y * self.width + x]
    }
}

/// What the working image is and how it came to be.
#[derive(Debug)]
pub struct Decoded {
    pub gray: Gray,
    /// Pixels of the stored picture, for the caller's work budget.
    pub source_pixels: u64,
}

/// Why a picture was not analysed; the caller turns it into a warning.
#[derive(Debug)]
pub struct Skip(pub String);

/// Decodes `bytes` unless the picture has more than `budget` pixels.
pub fn decode(bytes: &[u8], budget: u64) -> Result<Decoded, Skip> {
    let format = match quire_sdk::image_probe::ImageKind::of(bytes) {
        Some(quire_sdk::image_probe::ImageKind::Png) => ImageFormat::Png,
        Some(quire_sdk::image_probe::ImageKind::Jpeg) => ImageFormat::Jpeg,
        None => return Err(Skip("it is neither PNG nor JPEG".into())),
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(reason)?;
    let (w, h) = decoder.dimensions();
    if u64::from(w) * u64::from(h) > budget {
        return Err(Skip(format!(
            "it has {w} x {h} pixels, more than this request may still decode"
        )));
    }
    let orientation = if format == ImageFormat::Jpeg {
        decoder.orientation().unwrap_or(Orientation::NoTransforms)
    } else {
        Orientation::NoTransforms
    };
    let image = DynamicImage::from_decoder(decoder).map_err(reason)?;
    let source_pixels = u64::from(image.width()) * u64::from(image.height());
    let gray = shrink(&image);
    drop(image);
    let gray = turn(gray, orientation);
    Ok(Decoded {
        gray,
        source_pixels,
    })
}

fn reason(e: ImageError) -> Skip {
    Skip(match e {
        ImageError::Limits(l) if matches!(l.kind(), LimitErrorKind::DimensionError) => {
            format!("it is larger than {MAX_SIDE} pixels on a side")
        }
        ImageError::Limits(_) => format!(
            "decoding it would need more than {} MiB of memory",
            MAX_ALLOC >> 20
        ),
        e => format!("it cannot be decoded ({e})"),
    })
}

/// The whole factor that brings the longer side to at most [`WORK_SIDE`].
pub fn factor(width: u32, height: u32) -> u32 {
    width.max(height).div_ceil(WORK_SIDE).max(1)
}

/// Luma of every pixel (transparent pixels over white), averaged over `f x f` blocks.
fn shrink(image: &DynamicImage) -> Gray {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let f = factor(image.width(), image.height()) as usize;
    let (ow, oh) = (w.div_ceil(f), h.div_ceil(f));
    let mut sums = vec![0u32; ow * oh];
    let mut counts = vec![0u32; ow * oh];
    let mut add = |x: usize, y: usize, v: u32| {
        let i = (y / f) * ow + x / f;
        sums[i] += v;
        counts[i] += 1;
    };
    // Luma by the Rec. 601 weights in integers; alpha mixes towards white.
    let luma = |r: u32, g: u32, b: u32| (299 * r + 587 * g + 114 * b + 500) / 1000;
    let over_white = |v: u32, a: u32| (v * a + 255 * (255 - a) + 127) / 255;
    match image {
        DynamicImage::ImageLuma8(img) => {
            for (x, y, p) in img.enumerate_pixels() {
                add(x as usize, y as usize, u32::from(p.0[0]));
            }
        }
        DynamicImage::ImageLumaA8(img) => {
            for (x, y, p) in img.enumerate_pixels() {
                let [v, a] = p.0;
                add(x as usize, y as usize, over_white(v.into(), a.into()));
            }
        }
        DynamicImage::ImageRgb8(img) => {
            for (x, y, p) in img.enumerate_pixels() {
                let [r, g, b] = p.0;
                add(x as usize, y as usize, luma(r.into(), g.into(), b.into()));
            }
        }
        DynamicImage::ImageRgba8(img) => {
            for (x, y, p) in img.enumerate_pixels() {
                let [r, g, b, a] = p.0;
                let v = luma(r.into(), g.into(), b.into());
                add(x as usize, y as usize, over_white(v, a.into()));
            }
        }
        other => {
            // Sixteen-bit and float pictures are rare in scans: one converted copy is fine.
            let rgba = other.to_rgba8();
            for (x, y, p) in rgba.enumerate_pixels() {
                let [r, g, b, a] = p.0;
                let v = luma(r.into(), g.into(), b.into());
                add(x as usize, y as usize, over_white(v, a.into()));
            }
        }
    }
    let pixels = sums
        .iter()
        .zip(&counts)
        .map(|(&s, &c)| (s / c.max(1)).min(255) as u8)
        .collect();
    Gray {
        width: ow,
        height: oh,
        pixels,
    }
}

/// The working image turned and mirrored as `orientation` asks.
fn turn(gray: Gray, orientation: Orientation) -> Gray {
    if orientation == Orientation::NoTransforms {
        return gray;
    }
    let Some(buffer) = GrayImage::from_raw(gray.width as u32, gray.height as u32, gray.pixels)
    else {
        // from_raw only refuses a buffer of the wrong length, which shrink never makes.
        return Gray {
            width: 0,
            height: 0,
            pixels: Vec::new(),
        };
    };
    let mut image = DynamicImage::ImageLuma8(buffer);
    image.apply_orientation(orientation);
    let out = image.into_luma8();
    Gray {
        width: out.width() as usize,
        height: out.height() as usize,
        pixels: out.into_raw(),
    }
}

/// The working image turned clockwise by `quarter_turns` (0 to 3) quarter turns: a page's
/// `rotate` turns the whole page, picture included, before anyone reads it.
pub fn rotate_cw(gray: Gray, quarter_turns: u8) -> Gray {
    let (w, h) = (gray.width, gray.height);
    let src = |u: usize, v: usize| gray.pixels[v * w + u];
    let (ow, oh, pixels): (usize, usize, Vec<u8>) = match quarter_turns % 4 {
        0 => return gray,
        // Stored (u, v) lands at (h - 1 - v, u).
        1 => (
            h,
            w,
            (0..w)
                .flat_map(|y| (0..h).map(move |x| (y, h - 1 - x)))
                .map(|(u, v)| src(u, v))
                .collect(),
        ),
        2 => (
            w,
            h,
            (0..h)
                .flat_map(|y| (0..w).map(move |x| (w - 1 - x, h - 1 - y)))
                .map(|(u, v)| src(u, v))
                .collect(),
        ),
        // Stored (u, v) lands at (v, w - 1 - u).
        _ => (
            h,
            w,
            (0..w)
                .flat_map(|y| (0..h).map(move |x| (w - 1 - y, x)))
                .map(|(u, v)| src(u, v))
                .collect(),
        ),
    };
    Gray {
        width: ow,
        height: oh,
        pixels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_brings_the_long_side_under_the_limit() {
        assert_eq!(factor(2550, 3300), 2);
        assert_eq!(factor(4032, 3024), 3);
        assert_eq!(factor(885, 1146), 1);
        assert_eq!(factor(0, 0), 1);
        assert_eq!(factor(20_000, 1), 12);
    }

    #[test]
    fn a_jpeg_is_turned_by_its_exif_orientation_and_shrunk() {
        // Stored 4032 x 3024 with orientation 6: upright it is portrait, a third the size.
        let path = quire_sdk::corpus_dir().join("images/form-patient-intake-photo.jpg");
        let bytes = std::fs::read(path).expect("the corpus photo");
        let d = decode(&bytes, u64::MAX).expect("it decodes");
        assert_eq!((d.gray.width, d.gray.height), (1008, 1344));
        assert_eq!(d.source_pixels, 4032 * 3024);
        // The form's heading is at the top left once turned: dark ink there, paper below.
        let ink = |x0: usize, y0: usize| {
            (0..40)
                .flat_map(|dy| (0..200).map(move |dx| (x0 + dx, y0 + dy)))
                .filter(|&(x, y)| d.gray.at(x, y) < 100)
                .count()
        };
        assert!(ink(25, 75) > 300, "{}", ink(25, 75));
        assert!(ink(25, 650) < 20);
        assert!(decode(&bytes, 1_000_000)
            .unwrap_err()
            .0
            .contains("4032 x 3024"));
    }

    #[test]
    fn garbage_is_skipped_with_a_reason() {
        assert!(decode(b"", u64::MAX).is_err());
        assert!(decode(b"GIF89a", u64::MAX)
            .unwrap_err()
            .0
            .contains("neither"));
        assert!(decode(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 2], u64::MAX).is_err());
        assert!(decode(b"\x89PNG\r\n\x1a\n\0\0", u64::MAX).is_err());
    }

    #[test]
    fn rotate_cw_turns_a_quarter_at_a_time() {
        // 3 x 2: a b c / d e f.
        let g = Gray {
            width: 3,
            height: 2,
            pixels: vec![1, 2, 3, 4, 5, 6],
        };
        let t = |n| {
            let r = rotate_cw(g.clone(), n);
            (r.width, r.height, r.pixels)
        };
        assert_eq!(t(0), (3, 2, vec![1, 2, 3, 4, 5, 6]));
        // Clockwise: the left column, read bottom up, becomes the top row.
        assert_eq!(t(1), (2, 3, vec![4, 1, 5, 2, 6, 3]));
        assert_eq!(t(2), (3, 2, vec![6, 5, 4, 3, 2, 1]));
        assert_eq!(t(3), (2, 3, vec![3, 6, 2, 5, 1, 4]));
        let e = Gray {
            width: 0,
            height: 5,
            pixels: Vec::new(),
        };
        assert_eq!(rotate_cw(e, 1).pixels.len(), 0);
    }
}
