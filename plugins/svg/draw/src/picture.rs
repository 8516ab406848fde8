//! Picture assets checked before they are embedded as `data:` URLs: the format is recognised
//! by its bytes (not the asset's declared type, which a client may have got wrong), the size
//! is read from the header so a decompression bomb never reaches a renderer, and a JPEG's
//! EXIF orientation is taken out of the file and applied by the exporter, so every viewer
//! shows the picture the same way up (some honour the tag, some do not).

/// Pictures above this many pixels are not embedded: decoding one would take gigabytes in
/// the renderer (a 1 KB PNG can claim 100,000 by 100,000 pixels).
pub const MAX_PIXELS: u64 = 64_000_000;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A picture ready to embed.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub media_type: &'static str,
    pub width: u32,
    pub height: u32,
    /// EXIF orientation (1 to 8); 1 is upright.
    pub orientation: u8,
    /// The file to embed, with its orientation tag reset to 1 when it had one.
    pub bytes: Vec<u8>,
}

/// Reads an asset's bytes as a picture SVG renderers can show, or says why not.
pub fn load(bytes: &[u8]) -> Result<Picture, String> {
    let (media_type, width, height, orientation) = if bytes.starts_with(PNG_SIGNATURE) {
        let (w, h) = png_size(bytes)?;
        ("image/png", w, h, None)
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        let info = jpeg_info(bytes)?;
        ("image/jpeg", info.width, info.height, info.orientation)
    } else if bytes.is_empty() {
        return Err("it is empty".into());
    } else {
        return Err("it is neither PNG nor JPEG".into());
    };
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
    let orientation = match orientation {
        Some(Orientation { value, at, big }) => {
            if let Some(slot) = bytes.get_mut(at..at + 2) {
                slot.copy_from_slice(&if big {
                    1u16.to_be_bytes()
                } else {
                    1u16.to_le_bytes()
                });
            }
            value
        }
        None => 1,
    };
    Ok(Picture {
        media_type,
        width,
        height,
        orientation,
        bytes,
    })
}

fn png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    // The IHDR chunk comes first: length, "IHDR", width, height.
    let ihdr = bytes.get(8..24).ok_or("the PNG ends before its header")?;
    if &ihdr[4..8] != b"IHDR" {
        return Err("the PNG does not start with its header chunk".into());
    }
    let w = u32::from_be_bytes([ihdr[8], ihdr[9], ihdr[10], ihdr[11]]);
    let h = u32::from_be_bytes([ihdr[12], ihdr[13], ihdr[14], ihdr[15]]);
    Ok((w, h))
}

struct JpegInfo {
    width: u32,
    height: u32,
    orientation: Option<Orientation>,
}

/// An EXIF orientation tag: its value, the offset of its 2-byte value in the file, and the
/// byte order it is written in.
struct Orientation {
    value: u8,
    at: usize,
    big: bool,
}

/// Walks the JPEG markers up to the scan for the frame size and the EXIF orientation.
fn jpeg_info(bytes: &[u8]) -> Result<JpegInfo, String> {
    let mut pos = 2;
    let mut frame = None;
    let mut orientation = None;
    loop {
        while bytes.get(pos) == Some(&0xFF) && bytes.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (bytes.get(pos), bytes.get(pos + 1)) else {
            return Err("the JPEG ends before its image data".into());
        };
        pos += 2;
        if marker == 0x01 || (0xD0..=0xD8).contains(&marker) {
            continue;
        }
        if marker == 0xD9 {
            return Err("the JPEG has no image data".into());
        }
        let len = match bytes.get(pos..pos + 2) {
            Some(b) => u16::from_be_bytes([b[0], b[1]]) as usize,
            None => return Err("the JPEG ends inside a marker".into()),
        };
        let seg = bytes
            .get(pos + 2..pos + len.max(2))
            .ok_or("the JPEG ends inside a marker")?;
        if len < 2 {
            return Err("the JPEG has a marker of impossible length".into());
        }
        match marker {
            0xDA => break,
            0xE1 if seg.starts_with(b"Exif\0\0") && orientation.is_none() => {
                let tiff_at = pos + 2 + 6;
                orientation = exif_orientation(&seg[6..]).map(|(value, off, big)| Orientation {
                    value,
                    at: tiff_at + off,
                    big,
                });
            }
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                if seg.len() < 5 {
                    return Err("the JPEG frame header is cut short".into());
                }
                let h = u16::from_be_bytes([seg[1], seg[2]]) as u32;
                let w = u16::from_be_bytes([seg[3], seg[4]]) as u32;
                frame = Some((w, h));
            }
            _ => {}
        }
        pos += len;
    }
    let (width, height) = frame.ok_or("the JPEG has no frame header")?;
    if !bytes[pos..].windows(2).any(|w| w == [0xFF, 0xD9]) {
        return Err("the JPEG is cut short".into());
    }
    Ok(JpegInfo {
        width,
        height,
        orientation,
    })
}

/// The orientation tag (0x0112) of IFD0 of a TIFF-structured EXIF block, and the offset of
/// its value within the block, and whether the block is big-endian.
fn exif_orientation(tiff: &[u8]) -> Option<(u8, usize, bool)> {
    let big = match tiff.get(0..2)? {
        b"MM" => true,
        b"II" => false,
        _ => return None,
    };
    let u16_at = |i: usize| -> Option<u16> {
        let b = tiff.get(i..i + 2)?;
        Some(if big {
            u16::from_be_bytes([b[0], b[1]])
        } else {
            u16::from_le_bytes([b[0], b[1]])
        })
    };
    let b = tiff.get(4..8)?;
    let ifd = if big {
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    } else {
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    } as usize;
    let count = u16_at(ifd)? as usize;
    for e in 0..count.min(512) {
        let at = ifd.checked_add(2 + e * 12)?;
        if u16_at(at)? == 0x0112 {
            let v = u16_at(at + 8)?;
            return (1..=8).contains(&v).then_some((v as u8, at + 8, big));
        }
    }
    None
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
        let mut bomb = PNG_SIGNATURE.to_vec();
        bomb.extend_from_slice(&[0, 0, 0, 13]);
        bomb.extend_from_slice(b"IHDR");
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        assert!(load(&bomb).unwrap_err().contains("megapixels"));
        let jpeg = std::fs::read(quire_sdk::corpus_dir().join("images/photo-cmyk.jpg")).unwrap();
        assert!(load(&jpeg).is_ok());
        for cut in [2, 3, 4, 10, 50, 200, jpeg.len() - 2] {
            assert!(load(&jpeg[..cut]).is_err(), "cut at {cut}");
        }
    }
}
