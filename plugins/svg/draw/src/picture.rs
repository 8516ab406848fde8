//! Picture assets checked before they are embedded as `data:` URLs: the format is recognised
//! by its bytes (not the asset's declared type, which a client may have got wrong), the size
//! is read from the header so a decompression bomb never reaches a renderer, and a JPEG's
//! EXIF orientation is taken out of the file and applied by the exporter, so every viewer
//! shows the picture the same way up (some honour the tag, some do not). Headers are read by
//! [`quire_sdk::image_probe`], as the PDF exporter reads them.

use quire_sdk::image_probe;

/// Pictures above this many pixels are not embedded: decoding one would take gigabytes in
/// the renderer (a 1 KB PNG can claim 100,000 by 100,000 pixels).
pub const MAX_PIXELS: u64 = 64_000_000;

/// A picture ready to embed.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub media_type: &'static str,
    pub width: u32,
    pub height: u32,
    /// EXIF orientation (1 to 8); 1 is upright.
    pub orientation: u8,
    /// The file to embed, with its orientation tags reset to 1 when it had any.
    pub bytes: Vec<u8>,
}

/// Reads an asset's bytes as a picture SVG renderers can show, or says why not.
pub fn load(bytes: &[u8]) -> Result<Picture, String> {
    let Some(info) = image_probe::probe(bytes) else {
        return Err(if bytes.is_empty() {
            "it is empty".into()
        } else {
            "it is neither PNG nor JPEG".into()
        });
    };
    if let Some(defect) = info.defect {
        return Err(defect.into());
    }
    let (width, height) = (info.width, info.height);
    if width == 0 || height == 0 {
        return Err("it has no pixels".into());
    }
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(format!(
            "it is {width} by {height} pixels, more than {} megapixels",
            MAX_PIXELS / 1_000_000
        ));
    }
    let mut bytes = bytes.to_vec();
    // Every tag, not only the one read: a viewer that reads another must still see 1.
    image_probe::clear_jpeg_orientation(&mut bytes);
    Ok(Picture {
        media_type: info.kind.media_type(),
        width,
        height,
        orientation: info.orientation,
        bytes,
    })
}

/// The SVG transform that puts a picture stored as `sw` by `sh` user units (drawn at the
/// origin) into the box at `(x, y)` the right way up for its EXIF `orientation`. For
/// orientations 5 to 8 the stored picture is the frame turned a quarter, so `sw` is the
/// frame's height.
pub fn orientation_matrix(orientation: u8, x: f64, y: f64, sw: f64, sh: f64) -> [f64; 6] {
    match orientation {
        2 => [-1.0, 0.0, 0.0, 1.0, x + sw, y],
        3 => [-1.0, 0.0, 0.0, -1.0, x + sw, y + sh],
        4 => [1.0, 0.0, 0.0, -1.0, x, y + sh],
        5 => [0.0, 1.0, 1.0, 0.0, x, y],
        6 => [0.0, 1.0, -1.0, 0.0, x + sh, y],
        7 => [0.0, -1.0, -1.0, 0.0, x + sh, y + sw],
        8 => [0.0, -1.0, 1.0, 0.0, x, y + sw],
        _ => [1.0, 0.0, 0.0, 1.0, x, y],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(m: [f64; 6], u: f64, v: f64) -> (f64, f64) {
        (m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5])
    }

    #[test]
    fn every_orientation_fills_the_frame_exactly() {
        let (x, y, w, h) = (10.0, 20.0, 100.0, 50.0);
        for o in 1..=8u8 {
            let (sw, sh) = if o >= 5 { (h, w) } else { (w, h) };
            let m = orientation_matrix(o, x, y, sw, sh);
            let corners = [(0.0, 0.0), (sw, 0.0), (0.0, sh), (sw, sh)].map(|(u, v)| apply(m, u, v));
            let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for (cx, cy) in corners {
                x0 = x0.min(cx);
                y0 = y0.min(cy);
                x1 = x1.max(cx);
                y1 = y1.max(cy);
            }
            assert_eq!((x0, y0, x1, y1), (x, y, x + w, y + h), "orientation {o}");
        }
        // 6 turns clockwise: the stored top-left corner lands at the frame's top right.
        assert_eq!(
            apply(orientation_matrix(6, x, y, h, w), 0.0, 0.0),
            (x + w, y)
        );
        // 8 turns anticlockwise: it lands at the bottom left.
        assert_eq!(
            apply(orientation_matrix(8, x, y, h, w), 0.0, 0.0),
            (x, y + h)
        );
    }

    #[test]
    fn the_orientation_tag_is_read_and_reset() {
        let path = quire_sdk::corpus_dir().join("images/form-patient-intake-photo.jpg");
        let bytes = std::fs::read(path).unwrap();
        let p = load(&bytes).unwrap();
        assert_eq!(p.orientation, 6);
        assert_eq!((p.width, p.height), (4032, 3024));
        assert_eq!(p.bytes.len(), bytes.len());
        assert_eq!(load(&p.bytes).unwrap().orientation, 1);
    }

    #[test]
    fn bad_pictures_are_refused_with_a_reason() {
        assert!(load(b"").unwrap_err().contains("empty"));
        assert!(load(b"GIF89a").unwrap_err().contains("neither"));
        let mut bomb = image_probe::PNG_SIGNATURE.to_vec();
        bomb.extend_from_slice(&[0, 0, 0, 13]);
        bomb.extend_from_slice(b"IHDR");
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        // A header cut short is damaged, whatever size it claims.
        assert!(load(&bomb).unwrap_err().contains("ends before its header"));
        bomb.extend_from_slice(&[8, 6, 0, 0, 0]);
        assert!(load(&bomb).unwrap_err().contains("megapixels"));
        let jpeg = std::fs::read(quire_sdk::corpus_dir().join("images/photo-cmyk.jpg")).unwrap();
        assert!(load(&jpeg).is_ok());
        for cut in [2, 3, 4, 10, 50, 200, jpeg.len() - 2] {
            assert!(load(&jpeg[..cut]).is_err(), "cut at {cut}");
        }
    }
}
