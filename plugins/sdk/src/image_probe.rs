//! What a PNG or JPEG says about itself before its pixels: size, EXIF orientation, declared
//! resolution, and for a JPEG its frame header. One reader for every converter, so that an
//! importer and each exporter agree on how a picture is sized and turned.
//!
//! The bytes are untrusted: every read goes through `get`, every loop advances over the
//! input or is bounded by a 16-bit count, and a damaged header gives what could be read plus
//! the first [`ImageInfo::defect`] instead of a panic.

/// The 8-byte signature every PNG starts with.
pub const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

const TAG_ORIENTATION: u16 = 0x0112;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
}

impl ImageKind {
    /// The format by signature, whatever media type the bytes were declared as (clients get
    /// it wrong). A JPEG is its start-of-image marker and the `0xFF` of the next marker.
    pub fn of(bytes: &[u8]) -> Option<ImageKind> {
        if bytes.starts_with(PNG_SIGNATURE) {
            Some(ImageKind::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageKind::Jpeg)
        } else {
            None
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ImageKind::Png => "PNG",
            ImageKind::Jpeg => "JPEG",
        }
    }
}

/// What a file's first bytes say it is: the pictures converters meet, and the files people
/// send in their place. One sniffer for every converter (draw.io's pictures, the image
/// importer's refusals, the detector's decoder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signature {
    Png,
    Jpeg,
    Gif,
    WebP,
    Bmp,
    Tiff,
    Pdf,
    /// An ISO media file (`ftyp`): HEIF, AVIF, or a video.
    IsoMedia,
    /// An `<svg` element within the first 512 bytes of text.
    Svg,
}

/// The media type of the picture `bytes` hold, by their first bytes (a client's declared
/// type may be wrong); `None` for what is no picture a page can show.
pub fn picture_media_type(bytes: &[u8]) -> Option<&'static str> {
    Signature::of(bytes)?.picture_media_type()
}

impl Signature {
    pub fn of(bytes: &[u8]) -> Option<Signature> {
        if let Some(kind) = ImageKind::of(bytes) {
            return Some(match kind {
                ImageKind::Png => Signature::Png,
                ImageKind::Jpeg => Signature::Jpeg,
            });
        }
        Some(
            if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
                Signature::Gif
            } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
                Signature::WebP
            } else if bytes.starts_with(b"BM") {
                Signature::Bmp
            } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
                Signature::Tiff
            } else if bytes.starts_with(b"%PDF") {
                Signature::Pdf
            } else if bytes.get(4..12).is_some_and(|t| t.starts_with(b"ftyp")) {
                Signature::IsoMedia
            } else if String::from_utf8_lossy(&bytes[..bytes.len().min(512)])
                .to_ascii_lowercase()
                .contains("<svg")
            {
                Signature::Svg
            } else {
                return None;
            },
        )
    }

    /// The media type a picture of this kind is served as; `None` for what is no picture a
    /// page can show (a PDF, a TIFF, an ISO media file).
    pub fn picture_media_type(self) -> Option<&'static str> {
        Some(match self {
            Signature::Png => "image/png",
            Signature::Jpeg => "image/jpeg",
            Signature::Gif => "image/gif",
            Signature::WebP => "image/webp",
            Signature::Bmp => "image/bmp",
            Signature::Svg => "image/svg+xml",
            Signature::Tiff | Signature::Pdf | Signature::IsoMedia => return None,
        })
    }

    /// What the file is, for a sentence ("... is a GIF image").
    pub fn described(self) -> &'static str {
        match self {
            Signature::Png => "a PNG image",
            Signature::Jpeg => "a JPEG image",
            Signature::Gif => "a GIF image",
            Signature::WebP => "a WebP image",
            Signature::Bmp => "a BMP image",
            Signature::Tiff => "a TIFF image",
            Signature::Pdf => "a PDF document",
            Signature::IsoMedia => "an HEIF/AVIF image or a video",
            Signature::Svg => "an SVG picture",
        }
    }
}

/// A JPEG's start-of-frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// The SOFn marker: 0xC0 baseline, 0xC1 extended, 0xC2 progressive (the Huffman codings
    /// browsers and PDF's `/DCTDecode` draw); the others are lossless, hierarchical or
    /// arithmetic.
    pub marker: u8,
    /// Bits per sample.
    pub bits: u8,
    pub components: u8,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ImageInfo {
    pub kind: ImageKind,
    /// Pixels as stored, before any EXIF turn; 0 when the header ends before saying.
    pub width: u32,
    pub height: u32,
    /// The EXIF orientation (1 to 8) the exporters apply: a JPEG's, from its last APP1 Exif
    /// block, 1 when it has none. Always 1 for a PNG, see `png_exif_orientation`.
    pub orientation: u8,
    /// An orientation other than 1 in a PNG's `eXIf` chunk: viewers disagree on it, so it is
    /// reported and never applied.
    pub png_exif_orientation: Option<u8>,
    /// Dots per inch across and down as the file declares them (PNG `pHYs` in metres, JPEG
    /// JFIF density, then EXIF X/YResolution).
    pub density: Option<(f64, f64)>,
    /// The JPEG's frame header, when it was read.
    pub frame: Option<Frame>,
    /// A JPEG with Adobe's APP14 marker, whose CMYK samples are stored inverted.
    pub adobe: bool,
    /// Why the header is not whole, in words for a warning. A JPEG must reach its scan and
    /// have an end-of-image marker after it (viewers disagree on what to draw of one cut
    /// short); a PNG's IHDR must be whole. Pixel data itself is not checked.
    pub defect: Option<&'static str>,
}

/// Reads the headers of a PNG or JPEG; `None` when the bytes are neither.
pub fn probe(bytes: &[u8]) -> Option<ImageInfo> {
    let mut info = ImageInfo {
        kind: ImageKind::of(bytes)?,
        width: 0,
        height: 0,
        orientation: 1,
        png_exif_orientation: None,
        density: None,
        frame: None,
        adobe: false,
        defect: None,
    };
    match info.kind {
        ImageKind::Png => png(bytes, &mut info),
        ImageKind::Jpeg => jpeg(bytes, &mut info),
    }
    Some(info)
}

/// Format and stored size when the header gives a size, whole file or not: what layout needs.
pub fn size(bytes: &[u8]) -> Option<(ImageKind, u32, u32)> {
    let p = probe(bytes)?;
    (p.width > 0 && p.height > 0).then_some((p.kind, p.width, p.height))
}

/// Sets every EXIF orientation of a JPEG (each tag 0x0112 of IFD0 of each APP1 Exif block
/// the probe reads) to 1, in place: only those values change and nothing moves. For pixels
/// turned by someone else (a PDF draws them as they lie; an exporter turns them itself).
pub fn clear_jpeg_orientation(jpeg: &mut [u8]) {
    if ImageKind::of(jpeg) != Some(ImageKind::Jpeg) {
        return;
    }
    let mut slots = Vec::new();
    let _ = walk_jpeg(jpeg, |marker, at, seg| {
        if let Some(tiff) = exif_block(marker, seg).and_then(Tiff::new) {
            let tags = tiff
                .entries()
                .filter(|e| tiff.u16(*e) == Some(TAG_ORIENTATION));
            slots.extend(tags.map(|entry| (at + 6 + entry + 8, tiff.big)));
        }
    });
    for (at, big) in slots {
        if let Some(value) = jpeg.get_mut(at..at + 2) {
            value.copy_from_slice(if big { &[0, 1] } else { &[1, 0] });
        }
    }
}

fn bytes<const N: usize>(b: &[u8], at: usize) -> Option<[u8; N]> {
    b.get(at..at.checked_add(N)?)?.try_into().ok()
}

fn be16(b: &[u8], at: usize) -> Option<u16> {
    bytes(b, at).map(u16::from_be_bytes)
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    bytes(b, at).map(u32::from_be_bytes)
}

fn png(b: &[u8], info: &mut ImageInfo) {
    const SHORT: &str = "the PNG ends before its header";
    let (Some(w), Some(h)) = (be32(b, 16), be32(b, 20)) else {
        info.defect = Some(SHORT);
        return;
    };
    if b.get(12..16) != Some(&b"IHDR"[..]) {
        info.defect = Some("the PNG does not start with its header chunk");
        return;
    }
    (info.width, info.height) = (w, h);
    if be32(b, 8) != Some(13) {
        info.defect = Some("the PNG header chunk has the wrong length");
    } else if b.len() < 29 {
        info.defect = Some(SHORT);
    }
    // A chunk running past the end stops the walk: the decoder says whether pixels are missing.
    let (mut pos, mut phys, mut exif) = (PNG_SIGNATURE.len(), None, (None, None));
    while let (Some(len), Some(kind)) = (be32(b, pos), b.get(pos + 4..pos + 8)) {
        let start = pos + 8;
        let end = start.checked_add(len as usize);
        let Some(data) = end.and_then(|end| b.get(start..end)) else {
            break;
        };
        match kind {
            // Pixels per unit; unit 1 is the metre, 0 only gives the aspect ratio.
            b"pHYs" if data.len() == 9 && data[8] == 1 => {
                if let (Some(x @ 1..), Some(y @ 1..)) = (be32(data, 0), be32(data, 4)) {
                    phys = Some((ppm_to_dpi(x), ppm_to_dpi(y)));
                }
            }
            b"eXIf" => exif = exif_tags(data),
            b"IEND" => break,
            _ => {}
        }
        pos = start + data.len() + 4;
    }
    info.density = phys.or(exif.1);
    info.png_exif_orientation = exif.0.filter(|o| *o != 1);
}

/// A whole number of dots per metre cannot say 144 dpi exactly (5669 is 143.99): within
/// 0.05 of a whole number, the whole number was meant.
fn ppm_to_dpi(ppm: u32) -> f64 {
    let dpi = f64::from(ppm) * 0.0254;
    if (dpi - dpi.round()).abs() < 0.05 {
        dpi.round()
    } else {
        dpi
    }
}

fn jpeg(b: &[u8], info: &mut ImageInfo) {
    let (mut jfif, mut exif_density, mut defect) = (None, None, None);
    let walked = walk_jpeg(b, |marker, _, seg| match marker {
        // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC). Decoders refuse a second frame
        // header before the scan; the first one stands.
        0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => match (info.frame, seg) {
            (Some(_), _) => _ = defect.get_or_insert("the JPEG has two frame headers"),
            (None, &[bits, h0, h1, w0, w1, components, ..]) => {
                info.frame = Some(Frame {
                    marker,
                    bits,
                    components,
                });
                info.height = u32::from(u16::from_be_bytes([h0, h1]));
                info.width = u32::from(u16::from_be_bytes([w0, w1]));
            }
            (None, _) => _ = defect.get_or_insert("the JPEG frame header is too short"),
        },
        0xE0 if seg.starts_with(b"JFIF\0") && seg.len() >= 12 => {
            let per_inch = match seg[7] {
                1 => 1.0,
                2 => 2.54,
                _ => return,
            };
            if let (Some(x @ 1..), Some(y @ 1..)) = (be16(seg, 8), be16(seg, 10)) {
                jfif = Some((f64::from(x) * per_inch, f64::from(y) * per_inch));
            }
        }
        // Every Exif block counts and the last one wins, orientation or none.
        0xE1 => {
            if let Some(tiff) = exif_block(marker, seg) {
                let (orientation, density) = exif_tags(tiff);
                info.orientation = orientation.unwrap_or(1);
                exif_density = density.or(exif_density);
            }
        }
        0xEE if seg.starts_with(b"Adobe") => info.adobe = true,
        _ => {}
    });
    info.density = jfif.or(exif_density);
    let ends = |scan: usize| {
        b.get(scan..)
            .is_some_and(|d| d.windows(2).any(|w| w == [0xFF, 0xD9]))
    };
    info.defect = defect.or(match walked {
        Err(why) => Some(why),
        Ok(_) if info.frame.is_none() => Some("the JPEG has no frame header"),
        Ok(scan) if !ends(scan) => Some("the JPEG is cut short (no end-of-image marker)"),
        Ok(_) => None,
    });
}

/// Walks the marker segments of a JPEG up to its scan, giving each as (marker, offset of its
/// data, data), and returns where the entropy-coded data begins, or why the header ends
/// before it. Every step moves forward, so the walk ends within `b.len()` steps.
fn walk_jpeg(b: &[u8], mut segment: impl FnMut(u8, usize, &[u8])) -> Result<usize, &'static str> {
    const CUT: &str = "the JPEG ends inside a marker";
    let mut pos = 2;
    loop {
        // Any number of 0xFF fill bytes may come before a marker.
        while b.get(pos) == Some(&0xFF) && b.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (b.get(pos), b.get(pos + 1)) else {
            return Err("the JPEG ends before its image data");
        };
        pos += 2;
        match marker {
            // TEM, RST0..7 and SOI stand alone, without a length.
            0x01 | 0xD0..=0xD8 => continue,
            0xD9 => return Err("the JPEG has no image data"),
            _ => {}
        }
        let len = usize::from(be16(b, pos).ok_or(CUT)?);
        if len < 2 {
            return Err("the JPEG has a marker of impossible length");
        }
        let data = b.get(pos + 2..pos + len).ok_or(CUT)?;
        if marker == 0xDA {
            return Ok(pos + len);
        }
        segment(marker, pos + 2, data);
        pos += len;
    }
}

/// The TIFF structure inside an APP1 Exif segment.
fn exif_block(marker: u8, seg: &[u8]) -> Option<&[u8]> {
    (marker == 0xE1).then_some(seg.strip_prefix(b"Exif\0\0")?)
}

/// A TIFF structure (EXIF): byte order mark, offset to IFD0, 12-byte entries.
#[derive(Clone, Copy)]
struct Tiff<'a> {
    b: &'a [u8],
    big: bool,
}

impl<'a> Tiff<'a> {
    fn new(b: &'a [u8]) -> Option<Self> {
        let big = match b.get(0..2)? {
            b"MM" => true,
            b"II" => false,
            _ => return None,
        };
        Some(Tiff { b, big })
    }

    fn read<const N: usize>(&self, at: usize) -> Option<[u8; N]> {
        let mut v: [u8; N] = bytes(self.b, at)?;
        if !self.big {
            v.reverse();
        }
        Some(v)
    }

    fn u16(&self, at: usize) -> Option<u16> {
        self.read(at).map(u16::from_be_bytes)
    }

    fn u32(&self, at: usize) -> Option<u32> {
        self.read(at).map(u32::from_be_bytes)
    }

    /// Offsets of IFD0's entries while their tags can be read. The count is 16 bits, so at
    /// most 65,535 steps whatever the data claims.
    fn entries(self) -> impl Iterator<Item = usize> + 'a {
        let ifd = self.u32(4).and_then(|o| usize::try_from(o).ok());
        let count = ifd.and_then(|i| self.u16(i)).unwrap_or(0);
        (0..usize::from(count))
            .map_while(move |e| ifd?.checked_add(2 + e * 12))
            .take_while(move |at| self.u16(*at).is_some())
    }

    /// A RATIONAL entry's value, stored at an offset.
    fn rational(&self, entry: usize) -> Option<f64> {
        let at = usize::try_from(self.u32(entry + 8)?).ok()?;
        let (n, d) = (self.u32(at)?, self.u32(at.checked_add(4)?)?);
        (d != 0).then(|| f64::from(n) / f64::from(d))
    }
}

/// The orientation (first tag, 1 to 8) and density (dots per inch) of IFD0 of an EXIF block.
type Exif = (Option<u8>, Option<(f64, f64)>);

fn exif_tags(b: &[u8]) -> Exif {
    let Some(tiff) = Tiff::new(b) else {
        return (None, None);
    };
    let mut orientation = None;
    let (mut x, mut y, mut unit) = (None, None, 2);
    for at in tiff.entries() {
        // A SHORT sits in the first two bytes of the value field. Its type is not checked:
        // cameras write the tag as they like and viewers still honour it.
        match (tiff.u16(at), tiff.u16(at + 2)) {
            (Some(TAG_ORIENTATION), _) if orientation.is_none() => {
                orientation = Some(tiff.u16(at + 8).filter(|v| (1..=8).contains(v)));
            }
            (Some(0x011A), Some(5)) => x = tiff.rational(at),
            (Some(0x011B), Some(5)) => y = tiff.rational(at),
            (Some(0x0128), Some(3)) => unit = tiff.u16(at + 8).unwrap_or(2),
            _ => {}
        }
    }
    let per_inch = match unit {
        2 => Some(1.0),
        3 => Some(2.54),
        _ => None,
    };
    let density = x.zip(y).zip(per_inch).map(|((x, y), k)| (x * k, y * k));
    (orientation.flatten().map(|v| v as u8), density)
}

#[cfg(test)]
#[path = "image_probe_tests.rs"]
mod tests;
