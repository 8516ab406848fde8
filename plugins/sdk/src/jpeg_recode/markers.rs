//! The segments of an arithmetic-coded JPEG, as far as re-coding it needs them: the frame,
//! quantisation tables, arithmetic conditioning, restart interval, scans with their coded
//! data, and the APPn segments to carry over.

/// One component of the frame.
#[derive(Debug, Clone, Copy)]
pub struct Component {
    pub id: u8,
    /// Horizontal and vertical sampling factors, 1 to 4.
    pub h: u8,
    pub v: u8,
    /// The quantisation table it uses.
    pub table: u8,
}

#[derive(Debug)]
pub struct Frame {
    pub progressive: bool,
    pub width: u16,
    pub height: u16,
    pub components: Vec<Component>,
    pub h_max: u8,
    pub v_max: u8,
    pub mcus_wide: usize,
    pub mcus_high: usize,
}

impl Frame {
    /// The blocks a component covers on its own (a non-interleaved scan's), which the MCU
    /// grid pads to whole MCUs.
    pub fn component_blocks(&self, c: &Component) -> (usize, usize) {
        let w = (usize::from(self.width) * usize::from(c.h)).div_ceil(usize::from(self.h_max));
        let h = (usize::from(self.height) * usize::from(c.v)).div_ceil(usize::from(self.v_max));
        (w.div_ceil(8), h.div_ceil(8))
    }
}

/// A scan's header: its components (index into the frame's, DC and AC table), spectral
/// selection and successive approximation.
#[derive(Debug)]
pub struct ScanHeader {
    pub components: Vec<(usize, u8, u8)>,
    pub ss: u8,
    pub se: u8,
    pub ah: u8,
    pub al: u8,
}

pub enum Segment<'a> {
    /// A DQT segment's body, carried over as it is.
    Quantization(&'a [u8]),
    /// A DAC segment's body.
    Conditioning(&'a [u8]),
    RestartInterval(u16),
    /// An APPn segment, marker included, carried over as it is.
    Application(&'a [u8]),
    Scan {
        header: ScanHeader,
        data: &'a [u8],
    },
}

pub struct Parsed<'a> {
    pub frame: Option<Frame>,
    pub segments: Vec<Segment<'a>>,
}

/// Scans read at most: a progressive file has a dozen; more is not a real picture.
const MAX_SCANS: usize = 1000;

fn word(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]))
}

/// Reads the segments of `bytes` up to its end-of-image marker.
pub fn read(bytes: &[u8]) -> Result<Parsed<'_>, String> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return Err("it is not a JPEG".into());
    }
    let mut out = Parsed {
        frame: None,
        segments: Vec::new(),
    };
    let mut at = 2;
    let mut scans = 0;
    loop {
        // Markers may be preceded by fill bytes.
        while bytes.get(at) == Some(&0xFF) && bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let (Some(0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) else {
            return Err("the JPEG ends before its end-of-image marker".into());
        };
        at += 2;
        match marker {
            0xD9 => return Ok(out),
            0xD0..=0xD7 | 0x01 => continue,
            _ => {}
        }
        let length = usize::from(word(bytes, at).ok_or("the JPEG is cut short")?);
        let body = bytes
            .get(at + 2..at + length)
            .filter(|_| length >= 2)
            .ok_or("a JPEG segment runs past the end of the file")?;
        let start = at - 2;
        at += length;
        match marker {
            0xC9 | 0xCA => out.frame = Some(frame(body, marker == 0xCA)?),
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                return Err("the JPEG is not arithmetic-coded".into())
            }
            0xCC => out.segments.push(Segment::Conditioning(body)),
            0xDB => out.segments.push(Segment::Quantization(body)),
            0xDD => out.segments.push(Segment::RestartInterval(
                word(body, 0).ok_or("a restart interval segment is too short")?,
            )),
            0xE0..=0xEF => out.segments.push(Segment::Application(&bytes[start..at])),
            0xDA => {
                scans += 1;
                if scans > MAX_SCANS {
                    return Err("the JPEG has too many scans".into());
                }
                let frame = out.frame.as_ref().ok_or("a scan comes before the frame")?;
                let header = scan(body, frame)?;
                let end = scan_end(bytes, at);
                out.segments.push(Segment::Scan {
                    header,
                    data: &bytes[at..end],
                });
                at = end;
            }
            _ => {}
        }
    }
}

/// Where a scan's coded data ends: at the first marker that is not a stuffed zero, a
/// restart marker or fill.
fn scan_end(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    while at + 1 < bytes.len() {
        if bytes[at] == 0xFF && !matches!(bytes[at + 1], 0x00 | 0xD0..=0xD7 | 0xFF) {
            return at;
        }
        at += 1;
    }
    bytes.len()
}

fn frame(body: &[u8], progressive: bool) -> Result<Frame, String> {
    let bad = || "the JPEG's frame header is damaged".to_string();
    let (&bits, height, width, &count) = (
        body.first().ok_or_else(bad)?,
        word(body, 1).ok_or_else(bad)?,
        word(body, 3).ok_or_else(bad)?,
        body.get(5).ok_or_else(bad)?,
    );
    if bits != 8 {
        return Err(format!(
            "the JPEG has {bits}-bit samples; 8-bit ones are re-coded"
        ));
    }
    if width == 0 || height == 0 {
        return Err("the JPEG does not say its size in its frame header".into());
    }
    if !matches!(count, 1 | 3 | 4) {
        return Err(format!(
            "the JPEG has {count} components; 1, 3 or 4 are re-coded"
        ));
    }
    let mut components = Vec::new();
    for i in 0..usize::from(count) {
        let c = body.get(6 + 3 * i..9 + 3 * i).ok_or_else(bad)?;
        let (h, v) = (c[1] >> 4, c[1] & 0x0F);
        if !(1..=4).contains(&h) || !(1..=4).contains(&v) || c[2] > 3 {
            return Err(bad());
        }
        components.push(Component {
            id: c[0],
            h,
            v,
            table: c[2],
        });
    }
    let h_max = components.iter().map(|c| c.h).max().unwrap_or(1);
    let v_max = components.iter().map(|c| c.v).max().unwrap_or(1);
    Ok(Frame {
        progressive,
        width,
        height,
        mcus_wide: usize::from(width).div_ceil(8 * usize::from(h_max)),
        mcus_high: usize::from(height).div_ceil(8 * usize::from(v_max)),
        components,
        h_max,
        v_max,
    })
}

fn scan(body: &[u8], frame: &Frame) -> Result<ScanHeader, String> {
    let bad = || "a JPEG scan header is damaged".to_string();
    let count = usize::from(*body.first().ok_or_else(bad)?);
    if !(1..=4).contains(&count) {
        return Err(bad());
    }
    let mut components = Vec::new();
    for i in 0..count {
        let c = body.get(1 + 2 * i..3 + 2 * i).ok_or_else(bad)?;
        let index = frame
            .components
            .iter()
            .position(|fc| fc.id == c[0])
            .ok_or_else(bad)?;
        let (dc, ac) = (c[1] >> 4, c[1] & 0x0F);
        if dc > 3 || ac > 3 {
            return Err(bad());
        }
        components.push((index, dc, ac));
    }
    let tail = body.get(1 + 2 * count..4 + 2 * count).ok_or_else(bad)?;
    let header = ScanHeader {
        components,
        ss: tail[0],
        se: tail[1],
        ah: tail[2] >> 4,
        al: tail[2] & 0x0F,
    };
    if header.se > 63 || header.ss > header.se || header.al > 13 {
        return Err(bad());
    }
    Ok(header)
}
