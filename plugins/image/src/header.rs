//! What the headers of a PNG or JPEG say (format, size in pixels, resolution, EXIF
//! orientation, read by [`quire_sdk::image_probe`] as every exporter reads them), checked
//! against what the PDF exporter can embed, so an imported picture always exports.

use quire_sdk::image_probe::{self, ImageInfo};
use quire_sdk::ConvertError;

pub use quire_sdk::image_probe::ImageKind as Kind;

#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub kind: Kind,
    /// Pixels as stored (before any EXIF turn).
    pub width: u32,
    pub height: u32,
    /// Dots per inch across and down, as the file declares them.
    pub density: Option<(f64, f64)>,
    /// EXIF orientation 1 to 8 (JPEG only: the exporters apply it to JPEG alone).
    pub orientation: u8,
    /// An EXIF orientation in a PNG, which is not applied.
    pub png_orientation: Option<u8>,
}

pub fn read(bytes: &[u8]) -> Result<Header, ConvertError> {
    let Some(info) = image_probe::probe(bytes) else {
        return Err(ConvertError::Unsupported(format!(
            "the file is {}; only PNG and JPEG pictures are imported",
            sniff(bytes)
        )));
    };
    embeddable(&info)?;
    if let Some(defect) = info.defect {
        return Err(damaged(defect));
    }
    if info.width == 0 || info.height == 0 {
        return Err(damaged(&format!(
            "its {} header gives no size",
            info.kind.name()
        )));
    }
    Ok(Header {
        kind: info.kind,
        width: info.width,
        height: info.height,
        density: info.density,
        orientation: info.orientation,
        png_orientation: info.png_exif_orientation,
    })
}

/// What a file that is neither PNG nor JPEG looks like, for the refusal.
fn sniff(b: &[u8]) -> &'static str {
    match quire_sdk::image_probe::Signature::of(b) {
        _ if b.is_empty() => "empty",
        Some(signature) => signature.described(),
        None if b.starts_with(b"<") || b.starts_with(b"\xEF\xBB\xBF<") => "text (SVG or HTML?)",
        None => "not a picture format this converter knows",
    }
}

fn damaged(what: &str) -> ConvertError {
    ConvertError::Damaged(format!("the picture is damaged: {what}"))
}

/// A JPEG frame the PDF exporter can embed: Huffman coding, 8-bit samples, grey, RGB or CMYK.
fn embeddable(info: &ImageInfo) -> Result<(), ConvertError> {
    let Some(frame) = info.frame else {
        return Ok(());
    };
    let coding = match frame.marker {
        0xC0..=0xC2 => None,
        0xC3 | 0xC7 | 0xCB | 0xCF => Some("lossless"),
        0xC5 | 0xC6 | 0xCD | 0xCE => Some("hierarchical"),
        _ => Some("arithmetic"),
    };
    if let Some(coding) = coding {
        return Err(ConvertError::Unsupported(format!(
            "the JPEG uses {coding} coding, which PDF cannot embed; save it as a baseline or \
             progressive JPEG"
        )));
    }
    if frame.bits != 8 {
        return Err(ConvertError::Unsupported(format!(
            "the JPEG has {}-bit samples; only 8-bit JPEG can be embedded",
            frame.bits
        )));
    }
    if !matches!(frame.components, 1 | 3 | 4) {
        return Err(ConvertError::Unsupported(format!(
            "the JPEG has {} colour components; grey, RGB and CMYK can be embedded",
            frame.components
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG's markers with an empty scan: enough for the header reader.
    pub fn jpeg_markers(app: &[(u8, Vec<u8>)], sof: u8, size: (u16, u16)) -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8];
        let seg = |b: &mut Vec<u8>, m: u8, data: &[u8]| {
            b.extend_from_slice(&[0xFF, m]);
            b.extend_from_slice(&((data.len() + 2) as u16).to_be_bytes());
            b.extend_from_slice(data);
        };
        for (m, data) in app {
            seg(&mut b, *m, data);
        }
        let (w, h) = size;
        let mut frame = vec![8];
        frame.extend_from_slice(&h.to_be_bytes());
        frame.extend_from_slice(&w.to_be_bytes());
        frame.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        seg(&mut b, sof, &frame);
        seg(&mut b, 0xDA, &[1, 1, 0, 0, 0x3F, 0]);
        b.extend_from_slice(&[0x00, 0xFF, 0xD9]);
        b
    }

    fn jfif(units: u8, x: u16, y: u16) -> (u8, Vec<u8>) {
        let mut d = b"JFIF\0\x01\x02".to_vec();
        d.push(units);
        d.extend_from_slice(&x.to_be_bytes());
        d.extend_from_slice(&y.to_be_bytes());
        d.extend_from_slice(&[0, 0]);
        (0xE0, d)
    }

    /// An APP1 Exif block: big-endian IFD0 with orientation and X/Y resolution in inches.
    fn exif(orientation: u16, dpi: u32) -> (u8, Vec<u8>) {
        let mut d = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
        d.extend_from_slice(&3u16.to_be_bytes());
        // The rationals follow the IFD: 8 + 2 + 3 * 12 + 4 = 50.
        for (tag, kind, value) in [
            (0x0112, 3, u32::from(orientation) << 16),
            (0x011A, 5, 50),
            (0x011B, 5, 50),
        ] {
            d.extend_from_slice(&[tag, kind].map(u16::to_be_bytes).concat());
            d.extend_from_slice(&1u32.to_be_bytes());
            d.extend_from_slice(&u32::to_be_bytes(value));
        }
        d.extend_from_slice(&[0; 4]);
        d.extend_from_slice(&dpi.to_be_bytes());
        d.extend_from_slice(&1u32.to_be_bytes());
        (0xE1, d)
    }

    #[test]
    fn jpeg_density_orientation_and_size() {
        let h = read(&jpeg_markers(
            &[jfif(1, 300, 300), exif(6, 72)],
            0xC0,
            (400, 200),
        ))
        .unwrap();
        assert_eq!((h.kind, h.width, h.height), (Kind::Jpeg, 400, 200));
        assert_eq!((h.density, h.orientation), (Some((300.0, 300.0)), 6));
        let h = read(&jpeg_markers(
            &[jfif(0, 1, 1), exif(3, 200)],
            0xC2,
            (10, 10),
        ))
        .unwrap();
        assert_eq!((h.density, h.orientation), (Some((200.0, 200.0)), 3));
        let h = read(&jpeg_markers(&[jfif(2, 100, 100)], 0xC1, (10, 10))).unwrap();
        assert_eq!(h.density, Some((254.0, 254.0)));
    }

    #[test]
    fn jpeg_codings_pdf_cannot_hold_are_unsupported() {
        for sof in [0xC3, 0xC9, 0xC5] {
            let e = read(&jpeg_markers(&[], sof, (10, 10))).unwrap_err();
            assert!(matches!(e, ConvertError::Unsupported(_)), "{sof:x}: {e:?}");
        }
        let mut twelve = jpeg_markers(&[], 0xC0, (10, 10));
        twelve[6] = 12;
        assert!(matches!(read(&twelve), Err(ConvertError::Unsupported(m)) if m.contains("12-bit")));
    }

    #[test]
    fn cut_jpegs_are_damaged() {
        let full = jpeg_markers(&[exif(6, 72)], 0xC0, (10, 10));
        for cut in 3..full.len() - 1 {
            assert!(
                matches!(read(&full[..cut]), Err(ConvertError::Damaged(_))),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn others_are_named_and_unsupported() {
        for (bytes, name) in [
            (&b"GIF89a\x01\0\x01\0"[..], "GIF"),
            (b"RIFF\0\0\0\0WEBPVP8 ", "WebP"),
            (b"", "empty"),
            (b"<svg/>", "SVG"),
        ] {
            let e = read(bytes).unwrap_err();
            assert!(
                matches!(&e, ConvertError::Unsupported(m) if m.contains(name)),
                "{e:?}"
            );
        }
    }
}
