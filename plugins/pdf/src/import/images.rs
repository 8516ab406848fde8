//! Pictures of the source PDF turned into model assets.
//!
//! A JPEG (`/DCTDecode`) drawn upright in a plain colour space is kept byte for byte (but
//! for its EXIF orientation, set to 1, see [`passthrough_jpeg`]): no quality is lost and
//! nothing is decoded.
//! Everything else is decoded by hayro and written as PNG: grey, RGB, or RGBA when the
//! picture has a mask; black-and-white pictures (scans, fax images) as 1-bit grey, which
//! keeps them small. A picture drawn mirrored or turned by a quarter turn has its pixels
//! turned, because a model picture is always upright.

use std::collections::HashMap;

use hayro_interpret::hayro_syntax::object::{Name, Stream};
use hayro_interpret::hayro_syntax::Filter;
use hayro_interpret::kurbo::{Affine, Point};
use hayro_interpret::{ImageData, LumaData};
use quire_sdk::image_probe;
use quire_sdk::{Asset, Rect};

/// Largest picture decoded, in pixels; larger ones are asked for at a lower resolution.
pub const MAX_DECODED_PIXELS: u64 = 24_000_000;

/// Pixels in one of the eight upright orientations, as a 2x2 matrix of signs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Orientation {
    /// Source x runs along page y (a quarter turn).
    swap: bool,
    /// The page-x axis runs against the picture's (after the swap).
    flip_x: bool,
    flip_y: bool,
}

impl Orientation {
    pub const UPRIGHT: Orientation = Orientation {
        swap: false,
        flip_x: false,
        flip_y: false,
    };
}

/// Where a picture lands on the page: its frame and how its pixels must be turned to stand
/// upright in it. `None` orientation means a skewed or rotated placement the model cannot
/// draw: the picture then fills its bounding box unturned.
pub fn placement(transform: Affine, width: u32, height: u32) -> (Rect, Option<Orientation>) {
    let (w, h) = (f64::from(width), f64::from(height));
    let corners = [
        transform * Point::new(0.0, 0.0),
        transform * Point::new(w, 0.0),
        transform * Point::new(0.0, h),
        transform * Point::new(w, h),
    ];
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in corners {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    let frame = Rect::new(x0, y0, x1 - x0, y1 - y0);
    let [a, b, c, d, _, _] = transform.as_coeffs();
    let tiny = 1e-6 * (a.abs() + b.abs() + c.abs() + d.abs());
    let orientation = if b.abs() <= tiny && c.abs() <= tiny {
        Some(Orientation {
            swap: false,
            flip_x: a < 0.0,
            flip_y: d < 0.0,
        })
    } else if a.abs() <= tiny && d.abs() <= tiny {
        // Source x goes along page y (b), source y along page x (c).
        Some(Orientation {
            swap: true,
            flip_x: c < 0.0,
            flip_y: b < 0.0,
        })
    } else {
        None
    };
    (frame, orientation)
}

/// Decoded pixels, `channels` bytes each (1 grey, 3 RGB, 4 RGBA), rows top to bottom.
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub channels: usize,
    pub data: Vec<u8>,
}

impl Pixels {
    /// The pixels as they appear on the page in `orientation`.
    pub fn oriented(self, o: Orientation) -> Pixels {
        if o == Orientation::UPRIGHT {
            return self;
        }
        let (w, h, ch) = (self.width as usize, self.height as usize, self.channels);
        let (ow, oh) = if o.swap { (h, w) } else { (w, h) };
        let mut out = vec![0u8; self.data.len()];
        for y in 0..h {
            for x in 0..w {
                let (u, v) = if o.swap { (y, x) } else { (x, y) };
                let u = if o.flip_x { ow - 1 - u } else { u };
                let v = if o.flip_y { oh - 1 - v } else { v };
                let src = (y * w + x) * ch;
                let dst = (v * ow + u) * ch;
                out[dst..dst + ch].copy_from_slice(&self.data[src..src + ch]);
            }
        }
        Pixels {
            width: ow as u32,
            height: oh as u32,
            channels: ch,
            data: out,
        }
    }

    /// RGB pixels that are all grey as one grey channel: a third of the bytes to compress,
    /// and a page of black text on white can then go down to 1 bit.
    pub fn greyed(self) -> Pixels {
        if self.channels != 3
            || !self
                .data
                .chunks_exact(3)
                .all(|p| p[0] == p[1] && p[1] == p[2])
        {
            return self;
        }
        Pixels {
            width: self.width,
            height: self.height,
            channels: 1,
            data: self.data.chunks_exact(3).map(|p| p[0]).collect(),
        }
    }

    /// Encodes as PNG; grey pixels that are all black or white become a 1-bit image.
    pub fn to_png(&self) -> Result<Vec<u8>, String> {
        let color = match self.channels {
            1 => png::ColorType::Grayscale,
            3 => png::ColorType::Rgb,
            4 => png::ColorType::Rgba,
            n => return Err(format!("{n} channels cannot be written as PNG")),
        };
        let expected = self.width as usize * self.height as usize * self.channels;
        if self.width == 0 || self.height == 0 || self.data.len() != expected {
            return Err("the decoded picture has no pixels or the wrong number of them".into());
        }
        let bilevel = self.channels == 1 && self.data.iter().all(|&v| v == 0 || v == 255);
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
        encoder.set_color(color);
        encoder.set_compression(png::Compression::Fast);
        let packed;
        let data: &[u8] = if bilevel {
            encoder.set_depth(png::BitDepth::One);
            packed = pack_bits(&self.data, self.width as usize);
            &packed
        } else {
            encoder.set_depth(png::BitDepth::Eight);
            &self.data
        };
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(data).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
        Ok(out)
    }
}

/// Packs 0/255 grey samples into rows of bits, most significant bit first.
fn pack_bits(grey: &[u8], width: usize) -> Vec<u8> {
    let row_bytes = width.div_ceil(8);
    let mut out = Vec::with_capacity(row_bytes * (grey.len() / width.max(1)));
    for row in grey.chunks(width) {
        let mut bytes = vec![0u8; row_bytes];
        for (x, &v) in row.iter().enumerate() {
            if v != 0 {
                bytes[x / 8] |= 0x80 >> (x % 8);
            }
        }
        out.extend_from_slice(&bytes);
    }
    out
}

/// The JPEG bytes of an image stream that can be kept as they are: only `/DCTDecode`, grey or
/// RGB, no `/Decode` remapping and no mask (a model picture carries no separate mask). Its
/// EXIF orientation, which viewers ignore inside a PDF, is set to 1.
pub fn passthrough_jpeg(stream: &Stream<'_>) -> Option<Vec<u8>> {
    let filters = stream.filters();
    if filters.as_slice() != [Filter::DctDecode] {
        return None;
    }
    let dict = stream.dict();
    for key in [&b"SMask"[..], b"Mask", b"Decode"] {
        if dict.contains_key(key) {
            return None;
        }
    }
    if dict.get::<u32>(b"BitsPerComponent".as_slice()).unwrap_or(8) != 8 {
        return None;
    }
    let plain = match dict.get::<Name<'_>>(b"ColorSpace".as_slice()) {
        Some(name) => matches!(name.as_ref(), b"DeviceRGB" | b"DeviceGray"),
        None => false,
    };
    if !plain {
        return None;
    }
    let bytes = stream.raw_data();
    // A JPEG starts with SOI; anything else is not one, whatever its filter says.
    if bytes.len() < 4 || bytes[0] != 0xFF || bytes[1] != 0xD8 {
        return None;
    }
    let mut jpeg = bytes.into_owned();
    // PDF viewers draw a `/DCTDecode` stream as its pixels lie and ignore EXIF, but Quire's
    // exporters turn a model JPEG as its EXIF orientation says (so a phone photo comes out
    // upright). One byte per tag changes; nothing is decoded or re-encoded.
    image_probe::clear_jpeg_orientation(&mut jpeg);
    Some(jpeg)
}

/// A picture as drawn: the image object and how it is turned.
pub type ImageKey = (u128, Option<Orientation>);

/// The pictures of a document, shared across its pages: a logo drawn on every page is one
/// asset.
pub struct AssetStore {
    pub assets: Vec<Asset>,
    by_key: HashMap<ImageKey, usize>,
    bytes: usize,
    limit: usize,
}

impl AssetStore {
    pub fn new(limit: usize) -> Self {
        AssetStore {
            assets: Vec::new(),
            by_key: HashMap::new(),
            bytes: 0,
            limit,
        }
    }

    /// Name of the asset stored under `key`, if there is one already.
    pub fn find(&self, key: &ImageKey) -> Option<&str> {
        self.by_key.get(key).map(|&i| self.assets[i].name.as_str())
    }

    /// Whether another `size` bytes still fit in the document's budget.
    pub fn has_room(&self, size: usize) -> bool {
        self.bytes.saturating_add(size) <= self.limit
    }

    /// Forgets the pictures stored after the first `len` (a page read again another way).
    pub fn truncate(&mut self, len: usize) {
        for a in self.assets.drain(len.min(self.assets.len())..) {
            self.bytes -= a.bytes.len();
        }
        self.by_key.retain(|_, i| *i < len);
    }

    /// Stores a picture and returns its name, or `None` when the budget is spent.
    pub fn add(&mut self, key: Option<ImageKey>, bytes: Vec<u8>, jpeg: bool) -> Option<String> {
        if !self.has_room(bytes.len()) {
            return None;
        }
        self.bytes += bytes.len();
        let (ext, media_type) = if jpeg {
            ("jpg", "image/jpeg")
        } else {
            ("png", "image/png")
        };
        let name = format!("image-{}.{ext}", self.assets.len() + 1);
        if let Some(key) = key {
            self.by_key.insert(key, self.assets.len());
        }
        self.assets.push(Asset {
            name: name.clone(),
            media_type: media_type.into(),
            bytes,
        });
        Some(name)
    }
}

/// The resolution to decode a picture at: its own, or less when it is enormous.
pub fn target_size(w: u32, h: u32) -> Option<(u32, u32)> {
    let pixels = u64::from(w) * u64::from(h);
    if pixels <= MAX_DECODED_PIXELS {
        return None;
    }
    let k = (MAX_DECODED_PIXELS as f64 / pixels as f64).sqrt();
    Some((
        ((f64::from(w) * k) as u32).max(1),
        ((f64::from(h) * k) as u32).max(1),
    ))
}

pub fn raster_pixels(data: ImageData, alpha: Option<LumaData>, opacity: f32) -> Option<Pixels> {
    let (width, height, channels, data) = match data {
        ImageData::Rgb(d) => (d.width, d.height, 3, d.data),
        ImageData::Luma(d) => (d.width, d.height, 1, d.data),
    };
    if data.len() != width as usize * height as usize * channels {
        return None;
    }
    let alpha = alpha
        .map(|a| resample(&a, width, height))
        .filter(|a| a.iter().any(|&v| v != 255));
    if alpha.is_none() && opacity >= 1.0 {
        return Some(Pixels {
            width,
            height,
            channels,
            data,
        });
    }
    let alpha = alpha.unwrap_or_else(|| vec![255; width as usize * height as usize]);
    let mut rgba = Vec::with_capacity(alpha.len() * 4);
    for (i, a) in alpha.iter().enumerate() {
        let px = &data[i * channels..(i + 1) * channels];
        let (r, g, b) = if channels == 3 {
            (px[0], px[1], px[2])
        } else {
            (px[0], px[0], px[0])
        };
        rgba.extend_from_slice(&[r, g, b, (f32::from(*a) * opacity).round() as u8]);
    }
    Some(Pixels {
        width,
        height,
        channels: 4,
        data: rgba,
    })
}

/// A mask at the picture's own resolution (masks may come at another), nearest sample.
fn resample(mask: &LumaData, width: u32, height: u32) -> Vec<u8> {
    let (mw, mh) = (mask.width as usize, mask.height as usize);
    let (w, h) = (width as usize, height as usize);
    if mw == w && mh == h && mask.data.len() == w * h {
        return mask.data.clone();
    }
    if mw == 0 || mh == 0 || mask.data.len() != mw * mh {
        return vec![255; w * h];
    }
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        let sy = y * mh / h;
        for x in 0..w {
            out.push(mask.data[sy * mw + x * mw / w]);
        }
    }
    out
}

/// A stencil as RGBA: the paint where the stencil is set, transparent elsewhere.
pub fn stencil_pixels(luma: &LumaData, color: [u8; 4]) -> Pixels {
    let mut data = Vec::with_capacity(luma.data.len() * 4);
    for &v in &luma.data {
        data.extend_from_slice(&[color[0], color[1], color[2], v]);
    }
    Pixels {
        width: luma.width,
        height: luma.height,
        channels: 4,
        data,
    }
}

pub fn tint_stencil(p: &mut Pixels, color: [u8; 4]) {
    for px in p.data.chunks_mut(4) {
        px[0] = color[0];
        px[1] = color[1];
        px[2] = color[2];
        px[3] = ((u16::from(px[3]) * u16::from(color[3])) / 255) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(w: u32, h: u32) -> Pixels {
        Pixels {
            width: w,
            height: h,
            channels: 1,
            data: (0..(w * h) as u8).collect(),
        }
    }

    #[test]
    fn quarter_turns_and_mirrors_move_the_right_pixels() {
        // 3x2 picture: 0 1 2 / 3 4 5.
        let turn = |o| numbered(3, 2).oriented(o);
        let cw = turn(Orientation {
            swap: true,
            flip_x: true,
            flip_y: false,
        });
        assert_eq!((cw.width, cw.height), (2, 3));
        assert_eq!(cw.data, vec![3, 0, 4, 1, 5, 2]);
        let mirrored = turn(Orientation {
            swap: false,
            flip_x: true,
            flip_y: false,
        });
        assert_eq!(mirrored.data, vec![2, 1, 0, 5, 4, 3]);
        assert_eq!(turn(Orientation::UPRIGHT).data, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn placement_reads_the_image_matrix() {
        // 100x50 pixels drawn at (10, 20), 200 x 100 points, upright in y-down space.
        let t = Affine::new([2.0, 0.0, 0.0, 2.0, 10.0, 20.0]);
        let (frame, o) = placement(t, 100, 50);
        assert_eq!(frame, Rect::new(10.0, 20.0, 200.0, 100.0));
        assert_eq!(o, Some(Orientation::UPRIGHT));
        // Turned a quarter: source x runs down the page.
        let t = Affine::new([0.0, 2.0, -2.0, 0.0, 110.0, 20.0]);
        let (frame, o) = placement(t, 100, 50);
        assert_eq!(frame, Rect::new(10.0, 20.0, 100.0, 200.0));
        assert!(o.unwrap().swap);
        let skew = Affine::new([1.0, 0.5, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(placement(skew, 10, 10).1, None);
    }

    #[test]
    fn grey_rgb_becomes_one_channel() {
        let rgb = |data: Vec<u8>| Pixels {
            width: 2,
            height: 1,
            channels: 3,
            data,
        };
        assert_eq!(
            rgb(vec![9, 9, 9, 200, 200, 200]).greyed().data,
            vec![9, 200]
        );
        assert_eq!(rgb(vec![9, 9, 9, 200, 201, 200]).greyed().channels, 3);
    }

    #[test]
    fn black_and_white_becomes_one_bit_png() {
        let p = Pixels {
            width: 9,
            height: 2,
            channels: 1,
            data: vec![
                0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255,
            ],
        };
        let png = p.to_png().unwrap();
        // IHDR bit depth is the 25th byte.
        assert_eq!(png[24], 1);
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(
            &buf[..4],
            &[0b0101_0101, 0b0000_0000, 0b1111_1111, 0b1000_0000]
        );
    }
}
