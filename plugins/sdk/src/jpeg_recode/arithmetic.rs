//! Arithmetic decoding of JPEG scans (ITU-T T.81): the QM-coder of Annex D with its
//! probability estimation table (Table D.3), the sequential procedures of F.2.4 and the
//! progressive ones of G.1.3 (DC first and refinement, AC first and refinement), each
//! decoding into the quantised coefficients of the blocks it covers, in zig-zag order.

use super::markers::{Frame, ScanHeader};
use super::Plane;

/// Table D.3: for each state, (Qe, next state after an LPS, next state after an MPS,
/// whether an LPS switches the sense of the MPS). The last entry is the fixed estimate of
/// 0.5 used for signs and refinement bits (T.851 Table 5).
const STATES: [(u16, u8, u8, bool); 114] = [
    (0x5a1d, 1, 1, true),
    (0x2586, 14, 2, false),
    (0x1114, 16, 3, false),
    (0x080b, 18, 4, false),
    (0x03d8, 20, 5, false),
    (0x01da, 23, 6, false),
    (0x00e5, 25, 7, false),
    (0x006f, 28, 8, false),
    (0x0036, 30, 9, false),
    (0x001a, 33, 10, false),
    (0x000d, 35, 11, false),
    (0x0006, 9, 12, false),
    (0x0003, 10, 13, false),
    (0x0001, 12, 13, false),
    (0x5a7f, 15, 15, true),
    (0x3f25, 36, 16, false),
    (0x2cf2, 38, 17, false),
    (0x207c, 39, 18, false),
    (0x17b9, 40, 19, false),
    (0x1182, 42, 20, false),
    (0x0cef, 43, 21, false),
    (0x09a1, 45, 22, false),
    (0x072f, 46, 23, false),
    (0x055c, 48, 24, false),
    (0x0406, 49, 25, false),
    (0x0303, 51, 26, false),
    (0x0240, 52, 27, false),
    (0x01b1, 54, 28, false),
    (0x0144, 56, 29, false),
    (0x00f5, 57, 30, false),
    (0x00b7, 59, 31, false),
    (0x008a, 60, 32, false),
    (0x0068, 62, 33, false),
    (0x004e, 63, 34, false),
    (0x003b, 32, 35, false),
    (0x002c, 33, 9, false),
    (0x5ae1, 37, 37, true),
    (0x484c, 64, 38, false),
    (0x3a0d, 65, 39, false),
    (0x2ef1, 67, 40, false),
    (0x261f, 68, 41, false),
    (0x1f33, 69, 42, false),
    (0x19a8, 70, 43, false),
    (0x1518, 72, 44, false),
    (0x1177, 73, 45, false),
    (0x0e74, 74, 46, false),
    (0x0bfb, 75, 47, false),
    (0x09f8, 77, 48, false),
    (0x0861, 78, 49, false),
    (0x0706, 79, 50, false),
    (0x05cd, 48, 51, false),
    (0x04de, 50, 52, false),
    (0x040f, 50, 53, false),
    (0x0363, 51, 54, false),
    (0x02d4, 52, 55, false),
    (0x025c, 53, 56, false),
    (0x01f8, 54, 57, false),
    (0x01a4, 55, 58, false),
    (0x0160, 56, 59, false),
    (0x0125, 57, 60, false),
    (0x00f6, 58, 61, false),
    (0x00cb, 59, 62, false),
    (0x00ab, 61, 63, false),
    (0x008f, 61, 32, false),
    (0x5b12, 65, 65, true),
    (0x4d04, 80, 66, false),
    (0x412c, 81, 67, false),
    (0x37d8, 82, 68, false),
    (0x2fe8, 83, 69, false),
    (0x293c, 84, 70, false),
    (0x2379, 86, 71, false),
    (0x1edf, 87, 72, false),
    (0x1aa9, 87, 73, false),
    (0x174e, 72, 74, false),
    (0x1424, 72, 75, false),
    (0x119c, 74, 76, false),
    (0x0f6b, 74, 77, false),
    (0x0d51, 75, 78, false),
    (0x0bb6, 77, 79, false),
    (0x0a40, 77, 48, false),
    (0x5832, 80, 81, true),
    (0x4d1c, 88, 82, false),
    (0x438e, 89, 83, false),
    (0x3bdd, 90, 84, false),
    (0x34ee, 91, 85, false),
    (0x2eae, 92, 86, false),
    (0x299a, 93, 87, false),
    (0x2516, 86, 71, false),
    (0x5570, 88, 89, true),
    (0x4ca9, 95, 90, false),
    (0x44d9, 96, 91, false),
    (0x3e22, 97, 92, false),
    (0x3824, 99, 93, false),
    (0x32b4, 99, 94, false),
    (0x2e17, 93, 86, false),
    (0x56a8, 95, 96, true),
    (0x4f46, 101, 97, false),
    (0x47e5, 102, 98, false),
    (0x41cf, 103, 99, false),
    (0x3c3d, 104, 100, false),
    (0x375e, 99, 93, false),
    (0x5231, 105, 102, false),
    (0x4c0f, 106, 103, false),
    (0x4639, 107, 104, false),
    (0x415e, 103, 99, false),
    (0x5627, 105, 106, true),
    (0x50e7, 108, 107, false),
    (0x4b85, 109, 103, false),
    (0x5597, 110, 109, false),
    (0x504f, 111, 107, false),
    (0x5a10, 110, 111, true),
    (0x5522, 112, 109, false),
    (0x59eb, 112, 111, true),
    (0x5a1d, 113, 113, false),
];

/// The state of the fixed 0.5 estimate.
const FIXED: u8 = 113;
/// Statistics bins per table (F.1.4.4.1.3, F.1.4.4.2).
const DC_BINS: usize = 64;
const AC_BINS: usize = 256;

/// The conditioning a DAC segment sets per table: DC's lower and upper bounds L and U, AC's
/// K (F.1.4.4.1.4, F.1.4.4.2.1); the defaults are 0, 1 and 5.
pub struct Conditioning {
    dc_l: [u8; 4],
    dc_u: [u8; 4],
    ac_k: [u8; 4],
}

impl Default for Conditioning {
    fn default() -> Self {
        Conditioning {
            dc_l: [0; 4],
            dc_u: [1; 4],
            ac_k: [5; 4],
        }
    }
}

impl Conditioning {
    /// Reads a DAC segment's body.
    pub fn set(&mut self, body: &[u8]) {
        for entry in body.chunks_exact(2) {
            let (class, table) = (entry[0] >> 4, usize::from(entry[0] & 0x0F));
            if table > 3 {
                continue;
            }
            if class == 0 {
                self.dc_l[table] = (entry[1] & 0x0F).min(15);
                self.dc_u[table] = (entry[1] >> 4).max(self.dc_l[table]);
            } else {
                self.ac_k[table] = entry[1].clamp(1, 63);
            }
        }
    }
}

/// The QM decoder over one scan's coded data.
struct Decoder<'a> {
    data: &'a [u8],
    at: usize,
    /// The code register (interval base and the bits read ahead of it), the interval size,
    /// and how many read-ahead bits C holds below its 16-bit base (-16 before the first two
    /// bytes are in).
    c: i64,
    a: i64,
    ct: i32,
    /// A marker was met: zeros are read from here on, until a restart.
    at_marker: bool,
    fixed: u8,
}

/// The statistics bins of the scan's tables.
struct Stats {
    dc: [[u8; DC_BINS]; 4],
    ac: [[u8; AC_BINS]; 4],
}

impl Stats {
    fn new() -> Self {
        Stats {
            dc: [[0; DC_BINS]; 4],
            ac: [[0; AC_BINS]; 4],
        }
    }
}

impl<'a> Decoder<'a> {
    fn new(data: &'a [u8]) -> Self {
        Decoder {
            data,
            at: 0,
            c: 0,
            a: 0,
            ct: -16,
            at_marker: false,
            fixed: FIXED,
        }
    }

    /// The next byte of coded data: a stuffed `FF 00` is `FF`; at a marker (or the end),
    /// zeros.
    fn byte(&mut self) -> i64 {
        if self.at_marker {
            return 0;
        }
        let Some(&b) = self.data.get(self.at) else {
            self.at_marker = true;
            return 0;
        };
        if b != 0xFF {
            self.at += 1;
            return i64::from(b);
        }
        let mut next = self.at + 1;
        while self.data.get(next) == Some(&0xFF) {
            next += 1;
        }
        if self.data.get(next) == Some(&0x00) {
            self.at = next + 1;
            0xFF
        } else {
            // A marker: left where it is for the restart that follows.
            self.at_marker = true;
            0
        }
    }

    /// One binary decision with the statistics bin `st` (Annex D.2: renormalisation, then
    /// the decision and the estimate's update).
    fn decide(&mut self, st: &mut u8) -> bool {
        while self.a < 0x8000 {
            self.ct -= 1;
            if self.ct < 0 {
                let data = self.byte();
                self.c = (self.c << 8) | data;
                self.ct += 8;
                if self.ct < 0 {
                    self.ct += 1;
                    if self.ct == 0 {
                        // Both first bytes are in: A starts at 0x10000 after the shift.
                        self.a = 0x8000;
                    }
                }
            }
            self.a <<= 1;
        }
        let sense = *st & 0x80;
        let (qe, next_lps, next_mps, switch) = STATES[usize::from(*st & 0x7F).min(113)];
        let qe = i64::from(qe);
        let mut mps = sense != 0;
        self.a -= qe;
        let chunk = self.a << self.ct;
        let lps_next = |st: &mut u8| {
            *st = if switch { sense ^ 0x80 } else { sense } | next_lps;
        };
        if self.c >= chunk {
            self.c -= chunk;
            if self.a < qe {
                // Conditional exchange: the MPS after all.
                self.a = qe;
                *st = sense | next_mps;
            } else {
                self.a = qe;
                lps_next(st);
                mps = !mps;
            }
        } else if self.a < 0x8000 {
            if self.a < qe {
                lps_next(st);
                mps = !mps;
            } else {
                *st = sense | next_mps;
            }
        }
        mps
    }

    fn fixed_bit(&mut self) -> bool {
        let mut st = self.fixed;
        let bit = self.decide(&mut st);
        self.fixed = st;
        bit
    }

    /// Skips to the data after the next restart marker and starts coding afresh.
    fn restart(&mut self) {
        let mut at = self.at;
        while at + 1 < self.data.len()
            && !(self.data[at] == 0xFF && (0xD0..=0xD7).contains(&self.data[at + 1]))
        {
            at += 1;
        }
        self.at = (at + 2).min(self.data.len());
        self.at_marker = false;
        self.c = 0;
        self.a = 0;
        self.ct = -16;
    }
}

/// Magnitude categories past this are damage: no 8-bit coefficient needs them.
const MAX_CATEGORY: i32 = 0x8000;

/// A DC difference (F.2.4.1, figures F.19 to F.24) with the conditioning `context` of the
/// component's last one; returns the difference and the next context.
fn dc_diff(
    d: &mut Decoder,
    s: &mut [u8; DC_BINS],
    context: usize,
    l: u8,
    u: u8,
) -> Result<(i32, usize), String> {
    if !d.decide(&mut s[context]) {
        return Ok((0, 0));
    }
    let negative = d.decide(&mut s[context + 1]);
    let mut st = context + 2 + usize::from(negative);
    let mut m: i32 = i32::from(d.decide(&mut s[st]));
    if m != 0 {
        // X1 and on (Table F.4).
        st = 20;
        while d.decide(&mut s[st]) {
            m <<= 1;
            if m >= MAX_CATEGORY {
                return Err(damaged());
            }
            st += 1;
        }
    }
    // F.1.4.4.1.2: the next difference's conditioning.
    let next = if m < (1 << l) >> 1 {
        0
    } else if m > (1 << u) >> 1 {
        12 + 4 * usize::from(negative)
    } else {
        4 + 4 * usize::from(negative)
    };
    let v = bits(d, s, st + 14, m);
    Ok((if negative { -v } else { v }, next))
}

/// The low bits of a value of category `m` (figure F.24) from bins starting at `st`, plus 1.
fn bits(d: &mut Decoder, s: &mut [u8], st: usize, m: i32) -> i32 {
    let mut v = m;
    let mut bit = m >> 1;
    while bit > 0 {
        if d.decide(&mut s[st]) {
            v |= bit;
        }
        bit >>= 1;
    }
    v + 1
}

/// A nonzero AC value at zig-zag position `k` whose bins start at `st` (figures F.21 to
/// F.24: the sign at the fixed estimate, then the category).
fn ac_value(
    d: &mut Decoder,
    s: &mut [u8; AC_BINS],
    st: usize,
    k: usize,
    kx: u8,
) -> Result<i32, String> {
    let negative = d.fixed_bit();
    let mut st = st + 2;
    let mut m: i32 = i32::from(d.decide(&mut s[st]));
    if m != 0 && d.decide(&mut s[st]) {
        m <<= 1;
        st = if k <= usize::from(kx) { 189 } else { 217 };
        while d.decide(&mut s[st]) {
            m <<= 1;
            if m >= MAX_CATEGORY {
                return Err(damaged());
            }
            st += 1;
        }
    }
    let v = bits(d, s, st + 14, m);
    Ok(if negative { -v } else { v })
}

fn damaged() -> String {
    "the JPEG's coded data is damaged".into()
}

fn coefficient(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// How one scan codes its blocks.
#[derive(Clone, Copy, PartialEq)]
enum Pass {
    Sequential,
    DcFirst,
    DcRefine,
    AcFirst,
    AcRefine,
}

/// Decodes one scan's coded `data` into `planes`.
pub fn decode_scan(
    frame: &Frame,
    header: &ScanHeader,
    conditioning: &Conditioning,
    restart_interval: u16,
    data: &[u8],
    planes: &mut [Plane],
) -> Result<(), String> {
    let pass = match (frame.progressive, header.ss, header.ah) {
        (false, ..) => Pass::Sequential,
        (true, 0, 0) => Pass::DcFirst,
        (true, 0, _) => Pass::DcRefine,
        (true, _, 0) => Pass::AcFirst,
        (true, _, _) => Pass::AcRefine,
    };
    if frame.progressive {
        let ac = header.ss != 0;
        if (!ac && header.se != 0) || (ac && header.components.len() != 1) {
            return Err("a progressive JPEG scan is malformed".into());
        }
        if header.ah != 0 && header.ah != header.al + 1 {
            return Err("a progressive JPEG scan is malformed".into());
        }
    }
    let mut d = Decoder::new(data);
    let mut stats = Stats::new();
    let mut dc_last = [0i32; 4];
    let mut dc_context = [0usize; 4];
    let single = header.components.len() == 1;
    let (mcus_wide, mcus_high) = if single {
        frame.component_blocks(&frame.components[header.components[0].0])
    } else {
        (frame.mcus_wide, frame.mcus_high)
    };
    let mut left = restart_interval;
    for my in 0..mcus_high {
        for mx in 0..mcus_wide {
            if restart_interval > 0 {
                if left == 0 {
                    d.restart();
                    stats = Stats::new();
                    dc_last = [0; 4];
                    dc_context = [0; 4];
                    left = restart_interval;
                }
                left -= 1;
            }
            for (n, &(ci, dc_table, ac_table)) in header.components.iter().enumerate() {
                let c = frame.components[ci];
                let (h, v) = if single { (1, 1) } else { (c.h, c.v) };
                for by in 0..usize::from(v) {
                    for bx in 0..usize::from(h) {
                        let (x, y) = if single {
                            (mx, my)
                        } else {
                            (mx * usize::from(c.h) + bx, my * usize::from(c.v) + by)
                        };
                        let plane = &mut planes[ci];
                        let index = y * plane.blocks_wide + x;
                        let Some(block) = plane.blocks.get_mut(index) else {
                            return Err(damaged());
                        };
                        let (dc, ac) = (usize::from(dc_table), usize::from(ac_table));
                        match pass {
                            Pass::Sequential | Pass::DcFirst => {
                                let (diff, next) = dc_diff(
                                    &mut d,
                                    &mut stats.dc[dc],
                                    dc_context[n],
                                    conditioning.dc_l[dc],
                                    conditioning.dc_u[dc],
                                )?;
                                dc_context[n] = next;
                                dc_last[n] = dc_last[n].wrapping_add(diff);
                                block[0] = coefficient(dc_last[n] << header.al);
                                if pass == Pass::Sequential {
                                    let k = conditioning.ac_k[ac];
                                    ac_first(&mut d, &mut stats.ac[ac], block, (1, 63, 0), k)?;
                                }
                            }
                            Pass::DcRefine => {
                                if d.fixed_bit() {
                                    block[0] |= 1 << header.al;
                                }
                            }
                            Pass::AcFirst => ac_first(
                                &mut d,
                                &mut stats.ac[ac],
                                block,
                                (usize::from(header.ss), usize::from(header.se), header.al),
                                conditioning.ac_k[ac],
                            )?,
                            Pass::AcRefine => ac_refine(
                                &mut d,
                                &mut stats.ac[ac],
                                block,
                                (usize::from(header.ss), usize::from(header.se), header.al),
                            )?,
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// AC coefficients `ss..=se` of a block, first pass (F.2.4.2, G.1.3.2), scaled by `al`
/// (`band` is `(ss, se, al)`).
fn ac_first(
    d: &mut Decoder,
    s: &mut [u8; AC_BINS],
    block: &mut [i16; 64],
    (ss, se, al): (usize, usize, u8),
    kx: u8,
) -> Result<(), String> {
    let mut k = ss.max(1);
    while k <= se {
        let mut st = 3 * (k - 1);
        if d.decide(&mut s[st]) {
            break; // end of block
        }
        while !d.decide(&mut s[st + 1]) {
            st += 3;
            k += 1;
            if k > se {
                return Err(damaged());
            }
        }
        let v = ac_value(d, s, st, k, kx)?;
        block[k] = coefficient(v << al);
        k += 1;
    }
    Ok(())
}

/// AC refinement (G.1.3.3): a bit more of each coefficient already nonzero, and the
/// coefficients that become nonzero at this bit.
fn ac_refine(
    d: &mut Decoder,
    s: &mut [u8; AC_BINS],
    block: &mut [i16; 64],
    (ss, se, al): (usize, usize, u8),
) -> Result<(), String> {
    let (p1, m1) = (1i32 << al, -1i32 << al);
    // The previous passes' end of block.
    let mut end = se;
    while end > 0 && block[end] == 0 {
        end -= 1;
    }
    let mut k = ss.max(1);
    while k <= se {
        let mut st = 3 * (k - 1);
        if k > end && d.decide(&mut s[st]) {
            break;
        }
        loop {
            let coef = i32::from(block[k]);
            if coef != 0 {
                if d.decide(&mut s[st + 2]) {
                    block[k] = coefficient(if coef < 0 { coef + m1 } else { coef + p1 });
                }
                break;
            }
            if d.decide(&mut s[st + 1]) {
                block[k] = coefficient(if d.fixed_bit() { m1 } else { p1 });
                break;
            }
            st += 3;
            k += 1;
            if k > se {
                return Err(damaged());
            }
        }
        k += 1;
    }
    Ok(())
}
