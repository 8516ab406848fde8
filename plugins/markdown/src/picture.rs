//! The pixel size of a PNG or JPEG picture, read from its header: layout needs only the
//! size, and a whole image decoder would add size to the component for nothing.

/// A picture format the exporters can embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Png,
    Jpeg,
}

impl Kind {
    pub fn media_type(self) -> &'static str {
        match self {
            Kind::Png => "image/png",
            Kind::Jpeg => "image/jpeg",
        }
    }
}

/// Format and size in pixels, or `None` when the bytes are not a PNG or JPEG whose header
/// can be read (or the size is zero).
pub fn probe(bytes: &[u8]) -> Option<(Kind, u32, u32)> {
    let (kind, w, h) = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let (w, h) = png_size(bytes)?;
        (Kind::Png, w, h)
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        let (w, h) = jpeg_size(bytes)?;
        (Kind::Jpeg, w, h)
    } else {
        return None;
    };
    (w > 0 && h > 0).then_some((kind, w, h))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 4)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

fn be16(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at + 2)?;
    Some(u16::from_be_bytes([s[0], s[1]]))
}

/// The first chunk of a PNG is IHDR: width and height right after its type.
fn png_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.get(12..16)? != b"IHDR" {
        return None;
    }
    Some((be32(b, 16)?, be32(b, 20)?))
}

/// Walks the JPEG segments up to the first start-of-frame marker, which holds the size.
fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    loop {
        // Markers may be preceded by any number of 0xFF fill bytes.
        if *b.get(i)? != 0xFF {
            return None;
        }
        while *b.get(i)? == 0xFF {
            i += 1;
        }
        let marker = *b.get(i)?;
        i += 1;
        match marker {
            // Markers without a length field.
            0x01 | 0xD0..=0xD8 => continue,
            // Start of scan or end of image before any frame header: no size to be had.
            0xDA | 0xD9 => return None,
            // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let h = be16(b, i + 3)?;
                let w = be16(b, i + 5)?;
                return Some((u32::from(w), u32::from(h)));
            }
            _ => {
                let len = usize::from(be16(b, i)?);
                if len < 2 {
                    return None;
                }
                i += len;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn png(w: u32, h: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        b.extend_from_slice(&w.to_be_bytes());
        b.extend_from_slice(&h.to_be_bytes());
        b.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
        b
    }

    #[test]
    fn reads_png_and_jpeg_sizes() {
        assert_eq!(probe(&png(640, 480)), Some((Kind::Png, 640, 480)));
        // SOI, an APP0 segment, fill bytes, then SOF2 (progressive) with 300 x 200.
        let mut jpeg = vec![
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 0xFF, 0xFF, 0xC2,
        ];
        jpeg.extend_from_slice(&[0x00, 0x11, 0x08, 0x00, 200, 0x01, 0x2C, 0x03]);
        assert_eq!(probe(&jpeg), Some((Kind::Jpeg, 300, 200)));
    }

    #[test]
    fn refuses_damaged_headers_without_panicking() {
        assert_eq!(probe(b""), None);
        assert_eq!(probe(b"GIF89a"), None);
        assert_eq!(probe(&png(640, 480)[..20]), None);
        assert_eq!(probe(&png(0, 480)), None);
        assert_eq!(probe(&[0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]), None);
        assert_eq!(probe(&[0xFF, 0xD8, 0xFF, 0xDA]), None);
        assert_eq!(probe(&[0xFF, 0xD8, 0xFF, 0xC0, 0x00]), None);
        assert_eq!(probe(&[0xFF, 0xD8, 0x00]), None);
        for cut in 0..40 {
            let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 0xFF, 0xC0];
            jpeg.extend_from_slice(&[0x00, 0x11, 0x08, 0x00, 200, 0x01, 0x2C, 0x03]);
            jpeg.truncate(cut);
            let _ = probe(&jpeg);
        }
    }
}
