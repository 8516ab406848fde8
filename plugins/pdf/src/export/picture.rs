//! Pictures (assets) turned into what a PDF image XObject needs: JPEG goes in as it is
//! (`/DCTDecode`), PNG through [`super::png`]. The format is recognised by its bytes, not by
//! the asset's declared media type, which a client may have got wrong.

use quire_sdk::image_probe::{self, ImageKind};

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
    match ImageKind::of(bytes) {
        Some(ImageKind::Png) => load_png(bytes),
        Some(ImageKind::Jpeg) => load_jpeg(bytes),
        None if bytes.is_empty() => Err("it is empty".into()),
        None => Err("it is neither PNG nor JPEG".into()),
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

/// A JPEG goes in as it is, so its header decides: a coding and sample size PDF's DCTDecode
/// draws, Adobe's APP14 marker (its CMYK is stored inverted), the EXIF orientation. The scan
/// itself is left to the viewer, but a file that never reaches its end-of-image marker is
/// refused: viewers disagree on what to draw of a cut-short JPEG, and the user deserves the
/// warning.
fn load_jpeg(bytes: &[u8]) -> Result<Picture, String> {
    // Arithmetic coding, which viewers do not draw, is re-coded without loss first (an
    // HTML or Markdown picture; the image importer has already done it for its own).
    let recoded;
    let bytes = if quire_sdk::jpeg_recode::is_arithmetic(bytes) {
        recoded = quire_sdk::jpeg_recode::recode(bytes)?;
        &recoded[..]
    } else {
        bytes
    };
    let info = image_probe::probe(bytes).ok_or("it is neither PNG nor JPEG")?;
    if let Some(frame) = info.frame {
        if !matches!(frame.marker, 0xC0..=0xC2) {
            return Err("the JPEG uses a coding (lossless or arithmetic) PDF cannot hold".into());
        }
        if frame.bits != 8 {
            return Err(format!(
                "the JPEG has {}-bit samples; PDF holds 8-bit JPEG",
                frame.bits
            ));
        }
    }
    if let Some(defect) = info.defect {
        return Err(defect.into());
    }
    let (Some(frame), width @ 1.., height @ 1..) = (info.frame, info.width, info.height) else {
        return Err("the JPEG does not give its size".into());
    };
    let (space, decode) = match frame.components {
        1 => (Space::Gray, None),
        3 => (Space::Rgb, None),
        // Photoshop writes CMYK JPEGs with inverted values and says so with its APP14
        // marker; viewers expect the /Decode array to undo that.
        4 => (
            Space::Cmyk,
            info.adobe
                .then(|| vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]),
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
        orientation: info.orientation,
    })
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
    }
}
