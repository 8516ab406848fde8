//! Arithmetic-coded JPEG (SOF9 sequential, SOF10 progressive) re-coded without loss as a
//! baseline Huffman JPEG: the scans are decoded to their quantised DCT coefficients
//! (`arithmetic`, ITU-T T.81 Annex D, F.2.4 and G.1.3) and written again with the standard
//! Huffman tables of Annex K (`huffman`), keeping the quantisation tables, sampling and the
//! APPn segments (EXIF orientation, ICC profile, Adobe's colour transform). The pixels a
//! decoder draws from the new file are the ones it would draw from the old: what changes is
//! only how the same numbers are packed, into the coding browsers and PDF's `/DCTDecode` read.
//! The image importer keeps a re-coded file as its asset; the PDF exporter re-codes one
//! another importer passed on (an HTML page's picture).

mod arithmetic;
mod huffman;
mod markers;

use markers::{Frame, Segment};

/// Blocks of 64 coefficients held at most (4:4:4 at about 40 megapixels): their memory
/// (128 bytes each) stays well inside the converter's.
const MAX_BLOCKS: usize = 2_000_000;

/// Whether `bytes` is a JPEG whose frame is arithmetic-coded with 8-bit samples (the kinds
/// [`recode`] re-codes).
pub fn is_arithmetic(bytes: &[u8]) -> bool {
    crate::image_probe::probe(bytes)
        .and_then(|info| info.frame)
        .is_some_and(|f| matches!(f.marker, 0xC9 | 0xCA) && f.bits == 8)
}

/// One component's coefficients, block by block in raster order over the MCU grid, each
/// block's 64 in zig-zag order.
pub(crate) struct Plane {
    pub blocks_wide: usize,
    pub blocks: Vec<[i16; 64]>,
}

/// The file re-coded as a baseline Huffman JPEG; an error names what is wrong with it.
pub fn recode(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let parsed = markers::read(bytes)?;
    let frame = parsed
        .frame
        .as_ref()
        .ok_or("the JPEG has no frame header")?;
    let mut planes = planes(frame)?;
    let mut conditioning = arithmetic::Conditioning::default();
    let mut restart_interval = 0u16;
    let mut scans = 0;
    for segment in &parsed.segments {
        match segment {
            Segment::Conditioning(tables) => conditioning.set(tables),
            Segment::RestartInterval(n) => restart_interval = *n,
            Segment::Scan { header, data } => {
                arithmetic::decode_scan(
                    frame,
                    header,
                    &conditioning,
                    restart_interval,
                    data,
                    &mut planes,
                )?;
                scans += 1;
            }
            Segment::Quantization(_) | Segment::Application(_) => {}
        }
    }
    if scans == 0 {
        return Err("the JPEG has no scan".into());
    }
    Ok(huffman::write(frame, &parsed.segments, &planes))
}

/// Zeroed coefficient planes for every component of `frame`, over whole MCUs; refused
/// before anything is allocated when they would be too many.
fn planes(frame: &Frame) -> Result<Vec<Plane>, String> {
    let sizes: Vec<(usize, usize)> = frame
        .components
        .iter()
        .map(|c| {
            (
                frame.mcus_wide * usize::from(c.h),
                frame.mcus_high * usize::from(c.v),
            )
        })
        .collect();
    let total = sizes.iter().fold(0usize, |sum, (w, h)| {
        sum.saturating_add(w.saturating_mul(*h))
    });
    if total > MAX_BLOCKS {
        return Err(format!(
            "the JPEG is {} x {} pixels; at most about 40 megapixels are re-coded",
            frame.width, frame.height
        ));
    }
    Ok(sizes
        .into_iter()
        .map(|(wide, high)| Plane {
            blocks_wide: wide,
            blocks: vec![[0; 64]; wide * high],
        })
        .collect())
}
