//! Just enough PNG for embedding in PDF, on miniz_oxide alone (no image crate: it would
//! triple the component's size for what is mostly re-wrapping).
//!
//! Two ways in:
//! - [`Png::passthrough`]: an opaque, non-interlaced PNG's IDAT stream is already what PDF's
//!   `/FlateDecode` with `/Predictor 15` decodes, at every bit depth and for palettes, so the
//!   compressed bytes are embedded untouched (after checking that they inflate fully).
//! - [`Png::decode`]: everything else (alpha channels, `tRNS` transparency, Adam7
//!   interlacing) is inflated, unfiltered and split into 8-bit colour samples plus an 8-bit
//!   alpha plane for a soft mask.

use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
use quire_sdk::image_probe::PNG_SIGNATURE as SIGNATURE;

/// Pictures with more pixels than this are refused rather than decoded: a few kilobytes of
/// PNG can claim gigabytes of pixels, and the converter runs under a memory cap.
pub const MAX_PIXELS: u64 = 40_000_000;

/// Colour model of the decoded samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colors {
    Gray,
    Rgb,
}

impl Colors {
    pub fn channels(self) -> usize {
        match self {
            Colors::Gray => 1,
            Colors::Rgb => 3,
        }
    }
}

/// A parsed PNG: the header, the palette and transparency chunks, the joined IDAT data.
#[derive(Debug, Clone)]
pub struct Png {
    pub width: u32,
    pub height: u32,
    pub bit_depth: u8,
    pub color_type: u8,
    pub interlaced: bool,
    /// `PLTE` entries as RGB triples.
    pub palette: Vec<u8>,
    pub trns: Option<Vec<u8>>,
    pub idat: Vec<u8>,
}

/// A fully decoded picture: 8-bit samples, row by row, and alpha where it has any.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub colors: Colors,
    pub samples: Vec<u8>,
    pub alpha: Option<Vec<u8>>,
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

impl Png {
    /// Reads the chunks. Checksums are not verified: a viewer of the PDF does not either,
    /// and a damaged stream is caught when it is inflated.
    pub fn parse(bytes: &[u8]) -> Result<Png, String> {
        if !bytes.starts_with(SIGNATURE) {
            return Err("not a PNG file".into());
        }
        let mut pos = SIGNATURE.len();
        let mut header: Option<Png> = None;
        let mut seen_end = false;
        while pos + 8 <= bytes.len() {
            let len = be32(&bytes[pos..]) as usize;
            let kind = &bytes[pos + 4..pos + 8];
            let data_start = pos + 8;
            let Some(data_end) = data_start.checked_add(len).filter(|e| *e <= bytes.len()) else {
                // A truncated last chunk: keep what came before, the inflate check decides.
                break;
            };
            let data = &bytes[data_start..data_end];
            match kind {
                b"IHDR" => {
                    if data.len() < 13 {
                        return Err("the PNG header is too short".into());
                    }
                    header = Some(Png {
                        width: be32(data),
                        height: be32(&data[4..]),
                        bit_depth: data[8],
                        color_type: data[9],
                        interlaced: data[12] == 1,
                        palette: Vec::new(),
                        trns: None,
                        idat: Vec::new(),
                    });
                    if data[10] != 0 || data[11] != 0 || data[12] > 1 {
                        return Err(
                            "the PNG uses an unknown compression, filter or interlace method"
                                .into(),
                        );
                    }
                }
                b"PLTE" => {
                    if let Some(h) = header.as_mut() {
                        h.palette = data[..data.len() / 3 * 3].to_vec();
                    }
                }
                b"tRNS" => {
                    if let Some(h) = header.as_mut() {
                        h.trns = Some(data.to_vec());
                    }
                }
                b"IDAT" => match header.as_mut() {
                    Some(h) => h.idat.extend_from_slice(data),
                    None => return Err("the PNG has image data before its header".into()),
                },
                b"IEND" => {
                    seen_end = true;
                    break;
                }
                _ => {}
            }
            pos = data_end + 4; // skip the CRC
        }
        let _ = seen_end; // a missing IEND is harmless when the data is complete
        let png = header.ok_or("the PNG has no header")?;
        png.check()?;
        Ok(png)
    }

    fn check(&self) -> Result<(), String> {
        let ok_depth = match self.color_type {
            0 => matches!(self.bit_depth, 1 | 2 | 4 | 8 | 16),
            3 => matches!(self.bit_depth, 1 | 2 | 4 | 8),
            2 | 4 | 6 => matches!(self.bit_depth, 8 | 16),
            _ => return Err(format!("unknown PNG colour type {}", self.color_type)),
        };
        if !ok_depth {
            return Err(format!(
                "bit depth {} is not allowed for PNG colour type {}",
                self.bit_depth, self.color_type
            ));
        }
        if self.width == 0
            || self.height == 0
            || self.width > i32::MAX as u32
            || self.height > i32::MAX as u32
        {
            return Err(format!(
                "the PNG claims {} x {} pixels",
                self.width, self.height
            ));
        }
        if self.color_type == 3 && self.palette.is_empty() {
            return Err("the palette PNG has no palette".into());
        }
        if self.idat.is_empty() {
            return Err("the PNG has no image data".into());
        }
        Ok(())
    }

    /// Samples per pixel as stored.
    pub fn channels(&self) -> usize {
        match self.color_type {
            2 => 3,
            4 => 2,
            6 => 4,
            _ => 1,
        }
    }

    fn bits_per_pixel(&self) -> usize {
        self.channels() * self.bit_depth as usize
    }

    fn row_bytes(&self, width: u64) -> u64 {
        (width * self.bits_per_pixel() as u64).div_ceil(8)
    }

    /// Whether the IDAT stream can go into the PDF as it is.
    pub fn passthrough(&self) -> bool {
        !self.interlaced && matches!(self.color_type, 0 | 2 | 3) && self.trns.is_none()
    }

    /// Size of the inflated image data: each row of each pass has one filter byte.
    fn raw_len(&self) -> u64 {
        passes(self.interlaced, self.width, self.height)
            .map(|(w, h, ..)| h * (1 + self.row_bytes(w)))
            .sum()
    }

    /// Checks, without keeping the pixels, that the IDAT stream inflates to a whole picture.
    pub fn verify_stream(&self) -> Result<(), String> {
        let want = self.raw_len();
        let mut state = InflateState::new_boxed(DataFormat::Zlib);
        let mut out = vec![0u8; 64 * 1024];
        let mut input = &self.idat[..];
        let mut total: u64 = 0;
        loop {
            let res = inflate(&mut state, input, &mut out, MZFlush::None);
            input = &input[res.bytes_consumed..];
            total += res.bytes_written as u64;
            match res.status {
                Ok(MZStatus::StreamEnd) => break,
                Ok(_) if res.bytes_consumed == 0 && res.bytes_written == 0 => break,
                Ok(_) => {}
                Err(MZError::Buf) => break,
                Err(_) => return Err("the PNG's image data is damaged".into()),
            }
            if total >= want {
                break;
            }
        }
        if total < want {
            return Err("the PNG's image data is cut short".into());
        }
        Ok(())
    }

    /// Inflates, unfilters and de-interlaces into 8-bit samples and an alpha plane.
    pub fn decode(&self) -> Result<Decoded, String> {
        let pixels = self.width as u64 * self.height as u64;
        if pixels > MAX_PIXELS {
            return Err(format!(
                "{} x {} pixels is more than this converter decodes",
                self.width, self.height
            ));
        }
        let want = self.raw_len();
        let raw =
            miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&self.idat, want as usize)
                .or_else(|e| {
                    // The limit is the exact size: more data past it, or a stream that breaks off
                    // after the last row (a missing checksum), still holds a whole picture.
                    if e.output.len() as u64 >= want {
                        Ok(e.output)
                    } else {
                        Err(e)
                    }
                })
                .map_err(|_| "the PNG's image data is damaged".to_string())?;
        if (raw.len() as u64) < want {
            return Err("the PNG's image data is cut short".into());
        }

        let colors = match self.color_type {
            0 | 4 => Colors::Gray,
            _ => Colors::Rgb,
        };
        let has_alpha = matches!(self.color_type, 4 | 6) || self.trns.is_some();
        let (w, h) = (self.width as usize, self.height as usize);
        let mut samples = vec![0u8; w * h * colors.channels()];
        let mut alpha = has_alpha.then(|| vec![255u8; w * h]);

        let bpp = self.bits_per_pixel().div_ceil(8).max(1);
        let mut offset = 0usize;
        for (pw, ph, x0, y0, dx, dy) in passes(self.interlaced, self.width, self.height) {
            let stride = self.row_bytes(pw) as usize;
            let mut prev = vec![0u8; stride];
            let mut row = vec![0u8; stride];
            for r in 0..ph as usize {
                let filter = raw[offset];
                row.copy_from_slice(&raw[offset + 1..offset + 1 + stride]);
                offset += 1 + stride;
                unfilter(filter, bpp, &mut row, &prev)?;
                let y = y0 as usize + r * dy as usize;
                for c in 0..pw as usize {
                    let x = x0 as usize + c * dx as usize;
                    let i = y * w + x;
                    self.put_pixel(&row, c, i, &mut samples, alpha.as_deref_mut());
                }
                std::mem::swap(&mut row, &mut prev);
            }
        }
        Ok(Decoded {
            colors,
            samples,
            alpha,
        })
    }

    /// Reads sample `ch` of pixel `col` of an unfiltered row, at the image's bit depth.
    fn sample(&self, row: &[u8], col: usize, ch: usize) -> u16 {
        let n = self.channels();
        match self.bit_depth {
            16 => {
                let i = (col * n + ch) * 2;
                u16::from_be_bytes([row[i], row[i + 1]])
            }
            8 => row[col * n + ch] as u16,
            bd => {
                let bd = bd as usize;
                let bit = col * bd;
                let byte = row[bit / 8];
                let shift = 8 - bd - bit % 8;
                ((byte >> shift) as u16) & ((1u16 << bd) - 1)
            }
        }
    }

    /// Scales a sample of the image's bit depth to 8 bits.
    fn to8(&self, v: u16) -> u8 {
        match self.bit_depth {
            16 => (v >> 8) as u8,
            8 => v as u8,
            bd => (v as u32 * 255 / ((1u32 << bd) - 1)) as u8,
        }
    }

    fn put_pixel(
        &self,
        row: &[u8],
        col: usize,
        i: usize,
        samples: &mut [u8],
        alpha: Option<&mut [u8]>,
    ) {
        let trns = self.trns.as_deref();
        let mut a = 255u8;
        match self.color_type {
            0 => {
                let v = self.sample(row, col, 0);
                samples[i] = self.to8(v);
                if trns.is_some_and(|t| t.len() >= 2 && u16::from_be_bytes([t[0], t[1]]) == v) {
                    a = 0;
                }
            }
            4 => {
                samples[i] = self.to8(self.sample(row, col, 0));
                a = self.to8(self.sample(row, col, 1));
            }
            2 | 6 => {
                let rgb = [
                    self.sample(row, col, 0),
                    self.sample(row, col, 1),
                    self.sample(row, col, 2),
                ];
                for (k, v) in rgb.iter().enumerate() {
                    samples[i * 3 + k] = self.to8(*v);
                }
                if self.color_type == 6 {
                    a = self.to8(self.sample(row, col, 3));
                } else if let Some(t) = trns.filter(|t| t.len() >= 6) {
                    let key = [
                        u16::from_be_bytes([t[0], t[1]]),
                        u16::from_be_bytes([t[2], t[3]]),
                        u16::from_be_bytes([t[4], t[5]]),
                    ];
                    if key == rgb {
                        a = 0;
                    }
                }
            }
            _ => {
                // Palette: an index past the palette's end draws black, as libpng does.
                let idx = self.sample(row, col, 0) as usize;
                let rgb = self.palette.get(idx * 3..idx * 3 + 3).unwrap_or(&[0, 0, 0]);
                samples[i * 3..i * 3 + 3].copy_from_slice(rgb);
                a = trns.and_then(|t| t.get(idx).copied()).unwrap_or(255);
            }
        }
        if let Some(alpha) = alpha {
            alpha[i] = a;
        }
    }
}

/// The sub-images of a PNG: `(width, height, x0, y0, dx, dy)` of each Adam7 pass that has
/// pixels, or the whole picture once when not interlaced.
fn passes(
    interlaced: bool,
    width: u32,
    height: u32,
) -> impl Iterator<Item = (u64, u64, u64, u64, u64, u64)> {
    const ADAM7: [(u64, u64, u64, u64); 7] = [
        (0, 0, 8, 8),
        (4, 0, 8, 8),
        (0, 4, 4, 8),
        (2, 0, 4, 4),
        (0, 2, 2, 4),
        (1, 0, 2, 2),
        (0, 1, 1, 2),
    ];
    let (w, h) = (width as u64, height as u64);
    let list: Vec<(u64, u64, u64, u64)> = if interlaced {
        ADAM7.to_vec()
    } else {
        vec![(0, 0, 1, 1)]
    };
    list.into_iter().filter_map(move |(x0, y0, dx, dy)| {
        let pw = (w + dx - 1 - x0) / dx;
        let ph = (h + dy - 1 - y0) / dy;
        (w > x0 && h > y0 && pw > 0 && ph > 0).then_some((pw, ph, x0, y0, dx, dy))
    })
}

/// Undoes one PNG row filter in place, given the previous (already unfiltered) row.
fn unfilter(filter: u8, bpp: usize, row: &mut [u8], prev: &[u8]) -> Result<(), String> {
    match filter {
        0 => {}
        1 => {
            for i in bpp..row.len() {
                row[i] = row[i].wrapping_add(row[i - bpp]);
            }
        }
        2 => {
            for (v, p) in row.iter_mut().zip(prev) {
                *v = v.wrapping_add(*p);
            }
        }
        3 => {
            for i in 0..row.len() {
                let left = if i >= bpp { row[i - bpp] as u16 } else { 0 };
                row[i] = row[i].wrapping_add(((left + prev[i] as u16) / 2) as u8);
            }
        }
        4 => {
            for i in 0..row.len() {
                let a = if i >= bpp { row[i - bpp] } else { 0 };
                let c = if i >= bpp { prev[i - bpp] } else { 0 };
                row[i] = row[i].wrapping_add(paeth(a, prev[i], c));
            }
        }
        f => return Err(format!("unknown PNG row filter {f}")),
    }
    Ok(())
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = a as i16 + b as i16 - c as i16;
    let (pa, pb, pc) = (
        (p - a as i16).abs(),
        (p - b as i16).abs(),
        (p - c as i16).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(name: &str) -> Vec<u8> {
        let path = format!("{}/images/{name}", quire_sdk::corpus_dir().display());
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn reads_the_pngsuite_pictures() {
        let p = Png::parse(&corpus("pngsuite-basn0g01-1bit-gray.png")).unwrap();
        assert_eq!(
            (p.width, p.height, p.bit_depth, p.color_type),
            (32, 32, 1, 0)
        );
        assert!(p.passthrough());
        p.verify_stream().unwrap();
        let d = p.decode().unwrap();
        assert_eq!(d.samples.len(), 32 * 32);
        assert!(d.samples.iter().all(|v| *v == 0 || *v == 255));

        let p = Png::parse(&corpus("pngsuite-basn3p04-4bit-palette.png")).unwrap();
        assert!(p.passthrough() && p.color_type == 3);
        assert_eq!(p.decode().unwrap().samples.len(), 32 * 32 * 3);

        let p = Png::parse(&corpus("pngsuite-basn6a16-16bit-rgba.png")).unwrap();
        assert!(!p.passthrough());
        let d = p.decode().unwrap();
        assert_eq!(d.colors, Colors::Rgb);
        assert!(d.alpha.as_ref().unwrap().iter().any(|a| *a < 255));
    }

    #[test]
    fn interlaced_decodes_like_its_plain_twin() {
        let i = Png::parse(&corpus("pngsuite-ibasn6a08-interlaced-rgba.png")).unwrap();
        assert!(i.interlaced);
        let d = i.decode().unwrap();
        assert_eq!(d.samples.len(), 32 * 32 * 3);
        // The pngsuite 6a08 picture fades alpha across the image; both ends must appear.
        let alpha = d.alpha.unwrap();
        assert!(alpha.contains(&0) && alpha.contains(&255));
    }

    #[test]
    fn damage_is_a_sentence_not_a_panic() {
        let good = corpus("pngsuite-basn3p04-4bit-palette.png");
        assert!(Png::parse(b"GIF89a").is_err());
        for cut in [9, 20, 33, 60, good.len() / 2, good.len() - 13] {
            if let Ok(p) = Png::parse(&good[..cut]) {
                assert!(p.verify_stream().is_err() || p.decode().is_err() || cut > good.len() / 2);
            }
        }
        // Flip bytes inside the compressed data.
        let mut bad = good.clone();
        let idat = bad.windows(4).position(|w| w == b"IDAT").unwrap();
        for b in &mut bad[idat + 6..idat + 40] {
            *b ^= 0x5a;
        }
        if let Ok(p) = Png::parse(&bad) {
            let _ = p.verify_stream();
            let _ = p.decode();
        }
        // A header claiming a billion pixels is refused before inflating.
        let mut huge = good[..33].to_vec();
        huge[16..20].copy_from_slice(&40_000u32.to_be_bytes());
        huge[20..24].copy_from_slice(&40_000u32.to_be_bytes());
        huge.extend_from_slice(&good[33..]);
        let p = Png::parse(&huge).unwrap();
        assert!(p.decode().unwrap_err().contains("pixels"));
    }
}
