//! Pictures (assets) turned into what a PDF image XObject needs: JPEG goes in as it is
//! (`/DCTDecode`), PNG through [`super::png`]. The format is recognised by its bytes, not by
//! the asset's declared media type, which a client may have got wrong.

use super::png::{Colors, Png};

/// Colour space of an embedded picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Space {
    Gray,
    Rgb,
    Cmyk,
    /// A palette of RGB triples, indexed by the samples.
    Indexed(Vec<u8>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// JPEG bytes, decoded by the viewer.
    Dct,
    /// A zlib stream; with `png_columns`, of PNG-filtered rows (`/Predictor 15`).
    Flate { png_columns: Option<u32> },
}

/// A picture ready to be written as an image XObject.
#[derive(Debug, Clone)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub space: Space,
    pub bits: u8,
    pub encoding: Encoding,
    pub data: Vec<u8>,
    /// `/Decode` array, for Adobe's inverted CMYK JPEGs.
    pub decode: Option<Vec<f32>>,
    /// Zlib-compressed 8-bit alpha plane, written as a `/SMask`.
    pub alpha: Option<Vec<u8>>,
    /// EXIF orientation (1 to 8); 1 is upright.
    pub orientation: u8,
}

/// Compression level of re-encoded pixels: a balance of size against time in the sandbox.
const LEVEL: u8 = 6;

/// Reads an asset's bytes as a picture PDF can hold.
pub fn load(bytes: &[u8]) -> Result<Picture, String> {
    if bytes.starts_with(super::png::SIGNATURE) {
        load_png(bytes)
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        load_jpeg(bytes)
    } else if bytes.is_empty() {
        Err("it is empty".into())
    } else {
        Err("it is neither PNG nor JPEG".into())
    }
}

fn load_png(bytes: &[u8]) -> Result<Picture, String> {
    let png = Png::parse(bytes)?;
    if png.passthrough() {
        png.verify_stream()?;
        let space = match png.color_type {
            0 => Space::Gray,
            2 => Space::Rgb,
            _ => Space::Indexed(png.palette.clone()),
        };
        return Ok(Picture {
            width: png.width,
            height: png.height,
            space,
            bits: png.bit_depth,
            encoding: Encoding::Flate {
                png_columns: Some(png.width),
            },
            data: png.idat,
            decode: None,
            alpha: None,
            orientation: 1,
        });
    }
    let decoded = png.decode()?;
    let alpha = decoded
        .alpha
        // A tRNS chunk that marks nothing transparent needs no mask.
        .filter(|a| a.iter().any(|v| *v != 255))
        .map(|a| miniz_oxide::deflate::compress_to_vec_zlib(&a, LEVEL));
    Ok(Picture {
        width: png.width,
        height: png.height,
        space: match decoded.colors {
            Colors::Gray => Space::Gray,
            Colors::Rgb => Space::Rgb,
        },
        bits: 8,
        encoding: Encoding::Flate { png_columns: None },
        data: miniz_oxide::deflate::compress_to_vec_zlib(&decoded.samples, LEVEL),
        decode: None,
        alpha,
        orientation: 1,
    })
}

/// Reads the JPEG markers up to the scan: size and components from the frame header, the
/// Adobe APP14 marker (its CMYK is stored inverted), the EXIF orientation. The scan itself is
/// left to the viewer, but a file that never reaches its end-of-image marker is refused:
/// viewers disagree on what to draw of a cut-short JPEG, and the user deserves the warning.
fn load_jpeg(bytes: &[u8]) -> Result<Picture, String> {
    let mut pos = 2;
    let mut adobe = false;
    let mut orientation = 1;
    let mut frame: Option<(u32, u32, u8)> = None;
    loop {
        // Markers may be preceded by any number of 0xFF fill bytes.
        while bytes.get(pos) == Some(&0xFF) && bytes.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (bytes.get(pos), bytes.get(pos + 1)) else {
            return Err("the JPEG ends before its image data".into());
        };
        pos += 2;
        if marker == 0x01 || (0xD0..=0xD8).contains(&marker) {
            continue; // markers without a length
        }
        if marker == 0xD9 {
            return Err("the JPEG has no image data".into());
        }
        let len = match bytes.get(pos..pos + 2) {
            Some(b) => u16::from_be_bytes([b[0], b[1]]) as usize,
            None => return Err("the JPEG ends inside a marker".into()),
        };
        if len < 2 {
            return Err("the JPEG has a marker of impossible length".into());
        }
        let Some(seg) = bytes.get(pos + 2..pos + len) else {
            return Err("the JPEG ends inside a marker".into());
        };
        match marker {
            0xDA => break,
            0xE1 if seg.starts_with(b"Exif\0\0") => {
                orientation = exif_orientation(&seg[6..]).unwrap_or(1);
            }
            0xEE if seg.starts_with(b"Adobe") => adobe = true,
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                frame = Some(frame_header(marker, seg)?);
            }
            _ => {}
        }
        pos += len;
    }
    let (width, height, comps) = frame.ok_or("the JPEG has no frame header")?;
    if !bytes[pos..].windows(2).any(|w| w == [0xFF, 0xD9]) {
        return Err("the JPEG is cut short".into());
    }
    let (space, decode) = match comps {
        1 => (Space::Gray, None),
        3 => (Space::Rgb, None),
        // Photoshop writes CMYK JPEGs with inverted values and says so with its APP14
        // marker; viewers expect the /Decode array to undo that.
        4 => (
            Space::Cmyk,
            adobe.then(|| vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]),
        ),
        n => return Err(format!("the JPEG has {n} colour components")),
    };
    Ok(Picture {
        width,
        height,
        space,
        bits: 8,
        encoding: Encoding::Dct,
        data: bytes.to_vec(),
        decode,
        alpha: None,
        orientation,
    })
}

/// Width, height and component count from a SOFn segment PDF's DCTDecode can draw.
fn frame_header(marker: u8, seg: &[u8]) -> Result<(u32, u32, u8), String> {
    if seg.len() < 6 {
        return Err("the JPEG frame header is too short".into());
    }
    if !matches!(marker, 0xC0..=0xC2) {
        return Err("the JPEG uses a coding (lossless or arithmetic) PDF cannot hold".into());
    }
    let bits = seg[0];
    if bits != 8 {
        return Err(format!(
            "the JPEG has {bits}-bit samples; PDF holds 8-bit JPEG"
        ));
    }
    let height = u16::from_be_bytes([seg[1], seg[2]]) as u32;
    let width = u16::from_be_bytes([seg[3], seg[4]]) as u32;
    if width == 0 || height == 0 {
        return Err("the JPEG does not give its size".into());
    }
    Ok((width, height, seg[5]))
}

/// The orientation tag (0x0112) of IFD0 of a TIFF-structured EXIF block.
fn exif_orientation(tiff: &[u8]) -> Option<u8> {
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
    let u32_at = |i: usize| -> Option<u32> {
        let b = tiff.get(i..i + 4)?;
        let a = [b[0], b[1], b[2], b[3]];
        Some(if big {
            u32::from_be_bytes(a)
        } else {
            u32::from_le_bytes(a)
        })
    };
    let ifd = u32_at(4)? as usize;
    let count = u16_at(ifd)? as usize;
    for e in 0..count.min(512) {
        let at = ifd.checked_add(2 + e * 12)?;
        if u16_at(at)? == 0x0112 {
            let v = u16_at(at + 8)?;
            return (1..=8).contains(&v).then_some(v as u8);
        }
    }
    None
}

/// The matrix placing a picture's unit square (as stored, top row at v = 1) into `frame`
/// (PDF coordinates: `[x, y, w, h]` with y at the bottom), turned and mirrored as its EXIF
/// orientation asks so it appears upright.
pub fn placement(orientation: u8, frame: [f64; 4]) -> [f64; 6] {
    // (a, b, c, d, e, f) mapping the stored unit square onto the upright unit square.
    let (a, b, c, d, e, f) = match orientation {
        2 => (-1.0, 0.0, 0.0, 1.0, 1.0, 0.0),  // mirrored left-right
        3 => (-1.0, 0.0, 0.0, -1.0, 1.0, 1.0), // turned 180
        4 => (1.0, 0.0, 0.0, -1.0, 0.0, 1.0),  // mirrored top-bottom
        5 => (0.0, -1.0, -1.0, 0.0, 1.0, 1.0), // transposed
        6 => (0.0, -1.0, 1.0, 0.0, 0.0, 1.0),  // needs a quarter turn clockwise
        7 => (0.0, 1.0, 1.0, 0.0, 0.0, 0.0),   // transversed
        8 => (0.0, 1.0, -1.0, 0.0, 1.0, 0.0),  // needs a quarter turn anticlockwise
        _ => (1.0, 0.0, 0.0, 1.0, 0.0, 0.0),
    };
    let [x, y, w, h] = frame;
    [w * a, h * b, w * c, h * d, w * e + x, h * f + y]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(name: &str) -> Vec<u8> {
        let path = format!("{}/images/{name}", quire_sdk::corpus_dir().display());
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn cmyk_jpeg_from_photoshop_is_inverted_back() {
        let p = load(&corpus("photo-cmyk.jpg")).unwrap();
        assert_eq!(p.space, Space::Cmyk);
        assert_eq!(p.encoding, Encoding::Dct);
        assert!(p.width > 0 && p.height > 0);
        assert_eq!(
            p.decode.as_deref(),
            Some(&[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0][..])
        );
    }

    #[test]
    fn rgb_jpeg_and_pngs_load() {
        let p = load(&corpus("form-patient-intake-photo.jpg")).unwrap();
        assert!(matches!(p.space, Space::Rgb | Space::Gray));
        let p = load(&corpus("pngsuite-basn3p04-4bit-palette.png")).unwrap();
        assert!(matches!(p.space, Space::Indexed(_)) && p.bits == 4);
        let p = load(&corpus("pngsuite-basn6a16-16bit-rgba.png")).unwrap();
        assert!(p.alpha.is_some() && p.bits == 8);
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        assert!(load(b"").unwrap_err().contains("empty"));
        assert!(load(b"hello").unwrap_err().contains("neither"));
        assert!(load(&[0xFF, 0xD8, 0xFF]).is_err());
        assert!(load(&[0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF]).is_err());
        let jpeg = corpus("photo-cmyk.jpg");
        for cut in [2, 3, 4, 10, 50, 200] {
            let _ = load(&jpeg[..cut.min(jpeg.len())]);
        }
    }

    #[test]
    fn orientation_six_turns_the_picture_clockwise() {
        // Stored top-left corner (0, 1) must land at the frame's top right.
        let m = placement(6, [10.0, 20.0, 100.0, 50.0]);
        let (u, v) = (0.0, 1.0);
        let x = m[0] * u + m[2] * v + m[4];
        let y = m[1] * u + m[3] * v + m[5];
        assert_eq!((x, y), (110.0, 70.0));
        let tiff_be = [
            b'M', b'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0,
        ];
        assert_eq!(exif_orientation(&tiff_be), Some(6));
        assert_eq!(exif_orientation(&tiff_be[..12]), None);
    }
}
