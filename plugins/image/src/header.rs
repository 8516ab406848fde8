//! What the headers of a PNG or JPEG say: format, size in pixels, resolution, EXIF
//! orientation. Read by hand (the image crate does not expose density), and checked against
//! what the PDF exporter can embed, so an imported picture always exports.

use quire_sdk::ConvertError;

use crate::exif;

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

    pub fn name(self) -> &'static str {
        match self {
            Kind::Png => "PNG",
            Kind::Jpeg => "JPEG",
        }
    }
}

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

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

pub fn read(bytes: &[u8]) -> Result<Header, ConvertError> {
    if bytes.starts_with(PNG_SIGNATURE) {
        png(bytes)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        jpeg(bytes)
    } else {
        Err(ConvertError::Unsupported(format!(
            "the file is {}; only PNG and JPEG pictures are imported",
            sniff(bytes)
        )))
    }
}

/// What a file that is neither PNG nor JPEG looks like, for the refusal.
fn sniff(b: &[u8]) -> &'static str {
    if b.is_empty() {
        "empty"
    } else if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        "a GIF image"
    } else if b.starts_with(b"RIFF") && b.get(8..12) == Some(b"WEBP") {
        "a WebP image"
    } else if b.starts_with(b"BM") {
        "a BMP image"
    } else if b.starts_with(b"II*\0") || b.starts_with(b"MM\0*") {
        "a TIFF image"
    } else if b.starts_with(b"%PDF") {
        "a PDF document"
    } else if b.get(4..12).is_some_and(|t| t.starts_with(b"ftyp")) {
        "an HEIF/AVIF image or a video"
    } else if b.starts_with(b"<") || b.starts_with(b"\xEF\xBB\xBF<") {
        "text (SVG or HTML?)"
    } else {
        "not a picture format this converter knows"
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

fn damaged(what: &str) -> ConvertError {
    ConvertError::Damaged(format!("the picture is damaged: {what}"))
}

fn png(bytes: &[u8]) -> Result<Header, ConvertError> {
    let mut pos = PNG_SIGNATURE.len();
    let mut header: Option<Header> = None;
    let mut phys: Option<(f64, f64)> = None;
    let mut exif: Option<exif::Exif> = None;
    while pos + 8 <= bytes.len() {
        let len = be32(&bytes[pos..]) as usize;
        let kind = &bytes[pos + 4..pos + 8];
        let start = pos + 8;
        let Some(data) = start.checked_add(len).and_then(|end| bytes.get(start..end)) else {
            // A chunk running past the end: the decoder says whether pixels are missing.
            break;
        };
        match kind {
            b"IHDR" => {
                if data.len() != 13 {
                    return Err(damaged("its PNG header chunk has the wrong length"));
                }
                let (w, h) = (be32(data), be32(&data[4..]));
                if w == 0 || h == 0 {
                    return Err(damaged("its PNG header gives a size of zero"));
                }
                header = Some(Header {
                    kind: Kind::Png,
                    width: w,
                    height: h,
                    density: None,
                    orientation: 1,
                    png_orientation: None,
                });
            }
            // Pixels per unit; unit 1 is the metre, 0 only gives the aspect ratio.
            b"pHYs" if data.len() == 9 && data[8] == 1 => {
                let (x, y) = (be32(data), be32(&data[4..]));
                if x > 0 && y > 0 {
                    phys = Some((ppm_to_dpi(x), ppm_to_dpi(y)));
                }
            }
            b"eXIf" => exif = exif::parse(data),
            b"IEND" => break,
            _ => {}
        }
        if header.is_none() {
            return Err(damaged("its first chunk is not the PNG header"));
        }
        pos = start + len + 4;
    }
    let mut header = header.ok_or_else(|| damaged("it ends before its PNG header"))?;
    header.density = phys.or(exif.and_then(|e| e.density));
    header.png_orientation = exif.and_then(|e| e.orientation).filter(|o| *o != 1);
    Ok(header)
}

/// Pixels per metre as dots per inch. A whole number of dots per metre cannot say 144 dpi
/// exactly (5669 is 143.99): within 0.05 of a whole number, the whole number was meant.
fn ppm_to_dpi(ppm: u32) -> f64 {
    let dpi = f64::from(ppm) * 0.0254;
    if (dpi - dpi.round()).abs() < 0.05 {
        dpi.round()
    } else {
        dpi
    }
}

fn jpeg(bytes: &[u8]) -> Result<Header, ConvertError> {
    let mut pos = 2;
    let mut frame: Option<(u32, u32)> = None;
    let mut jfif: Option<(f64, f64)> = None;
    let mut exif_density: Option<(f64, f64)> = None;
    let mut orientation = 1;
    loop {
        // Markers may be preceded by any number of 0xFF fill bytes.
        while bytes.get(pos) == Some(&0xFF) && bytes.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (bytes.get(pos), bytes.get(pos + 1)) else {
            return Err(damaged("the JPEG ends before its image data"));
        };
        pos += 2;
        if marker == 0x01 || (0xD0..=0xD8).contains(&marker) {
            continue;
        }
        if marker == 0xD9 {
            return Err(damaged("the JPEG has no image data"));
        }
        let len = match bytes.get(pos..pos + 2) {
            Some(b) => usize::from(u16::from_be_bytes([b[0], b[1]])),
            None => return Err(damaged("the JPEG ends inside a marker")),
        };
        if len < 2 {
            return Err(damaged("the JPEG has a marker of impossible length"));
        }
        let Some(seg) = bytes.get(pos + 2..pos + len) else {
            return Err(damaged("the JPEG ends inside a marker"));
        };
        match marker {
            0xDA => break,
            0xE0 if seg.starts_with(b"JFIF\0") && seg.len() >= 12 => {
                let (x, y) = (
                    u16::from_be_bytes([seg[8], seg[9]]),
                    u16::from_be_bytes([seg[10], seg[11]]),
                );
                let per_inch = match seg[7] {
                    1 => Some(1.0),
                    2 => Some(2.54),
                    _ => None,
                };
                if let (Some(k), true) = (per_inch, x > 0 && y > 0) {
                    jfif = Some((f64::from(x) * k, f64::from(y) * k));
                }
            }
            // As the PDF exporter reads it: every EXIF block counts, the last one wins.
            0xE1 if seg.starts_with(b"Exif\0\0") => {
                let exif = exif::parse(&seg[6..]);
                orientation = exif.and_then(|e| e.orientation).unwrap_or(1);
                if let Some(d) = exif.and_then(|e| e.density) {
                    exif_density = Some(d);
                }
            }
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                frame = Some(frame_header(marker, seg)?);
            }
            _ => {}
        }
        pos += len;
    }
    let (width, height) = frame.ok_or_else(|| damaged("the JPEG has no frame header"))?;
    // Viewers disagree on what to draw of a cut-short JPEG; the exporter refuses it too.
    if !bytes[pos..].windows(2).any(|w| w == [0xFF, 0xD9]) {
        return Err(damaged("the JPEG is cut short (no end-of-image marker)"));
    }
    Ok(Header {
        kind: Kind::Jpeg,
        width,
        height,
        density: jfif.or(exif_density),
        orientation,
        png_orientation: None,
    })
}

/// Size from a start-of-frame segment, if it is a JPEG that PDF can hold.
fn frame_header(marker: u8, seg: &[u8]) -> Result<(u32, u32), ConvertError> {
    if seg.len() < 6 {
        return Err(damaged("the JPEG frame header is too short"));
    }
    let coding = match marker {
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
    if seg[0] != 8 {
        return Err(ConvertError::Unsupported(format!(
            "the JPEG has {}-bit samples; only 8-bit JPEG can be embedded",
            seg[0]
        )));
    }
    if !matches!(seg[5], 1 | 3 | 4) {
        return Err(ConvertError::Unsupported(format!(
            "the JPEG has {} colour components; grey, RGB and CMYK can be embedded",
            seg[5]
        )));
    }
    let height = u32::from(u16::from_be_bytes([seg[1], seg[2]]));
    let width = u32::from(u16::from_be_bytes([seg[3], seg[4]]));
    if width == 0 || height == 0 {
        return Err(damaged("the JPEG does not give its size"));
    }
    Ok((width, height))
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

    fn exif(orientation: u16, dpi: u32) -> (u8, Vec<u8>) {
        let mut d = b"Exif\0\0".to_vec();
        d.extend_from_slice(&crate::exif::tests::tiff(orientation, dpi, 2));
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
