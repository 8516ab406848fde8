//! Writing the coefficients again as a sequential Huffman JPEG: Annex K's standard
//! luminance tables for every component (they code every DC category and AC run/size an
//! 8-bit picture has), one interleaved scan (a scan per component where an MCU would hold
//! more than ten blocks), no restart intervals.

use super::markers::{Frame, Segment};
use super::Plane;

/// Table K.3: DC code counts per length and values.
const DC_BITS: [u8; 16] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES: [u8; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/// Table K.5: AC code counts per length and values.
const AC_BITS: [u8; 16] = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_VALUES: [u8; 162] = [
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
    0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
    0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
    0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
    0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
    0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
    0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
    0xf9, 0xfa,
];

/// Blocks an interleaved scan's MCU may hold (B.2.3).
const MAX_BLOCKS_IN_MCU: usize = 10;

/// Each symbol's code and length (Annex C).
struct Codes {
    code: [u16; 256],
    size: [u8; 256],
}

impl Codes {
    fn new(bits: &[u8; 16], values: &[u8]) -> Codes {
        let mut codes = Codes {
            code: [0; 256],
            size: [0; 256],
        };
        let (mut code, mut k) = (0u16, 0usize);
        for (length, &count) in bits.iter().enumerate() {
            for _ in 0..count {
                let symbol = usize::from(values[k]);
                codes.code[symbol] = code;
                codes.size[symbol] = length as u8 + 1;
                code += 1;
                k += 1;
            }
            code <<= 1;
        }
        codes
    }
}

/// Entropy-coded bits, `FF` bytes stuffed with `00`.
struct Bits<'o> {
    out: &'o mut Vec<u8>,
    acc: u32,
    count: u32,
}

impl Bits<'_> {
    fn put(&mut self, value: u32, size: u8) {
        for i in (0..u32::from(size)).rev() {
            self.acc = (self.acc << 1) | ((value >> i) & 1);
            self.count += 1;
            if self.count == 8 {
                let byte = self.acc as u8;
                self.out.push(byte);
                if byte == 0xFF {
                    self.out.push(0);
                }
                self.acc = 0;
                self.count = 0;
            }
        }
    }

    /// Pads the last byte with 1 bits.
    fn flush(&mut self) {
        if self.count > 0 {
            let pad = 8 - self.count as u8;
            self.put((1 << pad) - 1, pad);
        }
    }
}

/// The category (bit count) of a value and its bits as written (negative values in one's
/// complement).
fn category(v: i32) -> (u8, u32) {
    let size = (32 - v.unsigned_abs().leading_zeros()) as u8;
    let bits = if v < 0 { v - 1 } else { v };
    (size, (bits as u32) & ((1u32 << size) - 1))
}

fn segment(out: &mut Vec<u8>, marker: u8, body: &[u8]) {
    out.extend([0xFF, marker]);
    out.extend(((body.len() + 2) as u16).to_be_bytes());
    out.extend(body);
}

/// The whole file.
pub fn write(frame: &Frame, segments: &[Segment], planes: &[Plane]) -> Vec<u8> {
    let mut out = vec![0xFF, 0xD8];
    let mut sixteen_bit = false;
    for s in segments {
        if let Segment::Application(raw) = s {
            out.extend(*raw);
        }
    }
    for s in segments {
        if let Segment::Quantization(body) = s {
            let mut at = 0;
            while let Some(&pq_tq) = body.get(at) {
                sixteen_bit |= pq_tq >> 4 != 0;
                at += 1 + if pq_tq >> 4 != 0 { 128 } else { 64 };
            }
            segment(&mut out, 0xDB, body);
        }
    }
    // Baseline unless a table is 16-bit, which extended sequential coding allows.
    let mut sof = vec![8];
    sof.extend(frame.height.to_be_bytes());
    sof.extend(frame.width.to_be_bytes());
    sof.push(frame.components.len() as u8);
    for c in &frame.components {
        sof.extend([c.id, (c.h << 4) | c.v, c.table]);
    }
    segment(&mut out, if sixteen_bit { 0xC1 } else { 0xC0 }, &sof);
    let mut dht = vec![0x00];
    dht.extend(DC_BITS);
    dht.extend(DC_VALUES);
    dht.push(0x10);
    dht.extend(AC_BITS);
    dht.extend(AC_VALUES);
    segment(&mut out, 0xC4, &dht);

    let (dc, ac) = (
        Codes::new(&DC_BITS, &DC_VALUES),
        Codes::new(&AC_BITS, &AC_VALUES),
    );
    let in_mcu: usize = frame
        .components
        .iter()
        .map(|c| usize::from(c.h) * usize::from(c.v))
        .sum();
    if frame.components.len() > 1 && in_mcu <= MAX_BLOCKS_IN_MCU {
        scan(
            &mut out,
            frame,
            &(0..frame.components.len()).collect::<Vec<_>>(),
            planes,
            &dc,
            &ac,
        );
    } else {
        for i in 0..frame.components.len() {
            scan(&mut out, frame, &[i], planes, &dc, &ac);
        }
    }
    out.extend([0xFF, 0xD9]);
    out
}

/// One scan of the components `which`.
fn scan(
    out: &mut Vec<u8>,
    frame: &Frame,
    which: &[usize],
    planes: &[Plane],
    dc: &Codes,
    ac: &Codes,
) {
    let mut sos = vec![which.len() as u8];
    for &i in which {
        sos.extend([frame.components[i].id, 0x00]);
    }
    sos.extend([0, 63, 0]);
    segment(out, 0xDA, &sos);
    let mut bits = Bits {
        out,
        acc: 0,
        count: 0,
    };
    let mut predictions = vec![0i32; which.len()];
    let mut block = |bits: &mut Bits, n: usize, coefficients: &[i16; 64]| {
        let diff = i32::from(coefficients[0]) - predictions[n];
        predictions[n] = i32::from(coefficients[0]);
        let (size, value) = category(diff);
        bits.put(
            u32::from(dc.code[usize::from(size)]),
            dc.size[usize::from(size)],
        );
        bits.put(value, size);
        let mut run = 0;
        for &coefficient in &coefficients[1..] {
            if coefficient == 0 {
                run += 1;
                continue;
            }
            while run > 15 {
                bits.put(u32::from(ac.code[0xF0]), ac.size[0xF0]);
                run -= 16;
            }
            let (size, value) = category(i32::from(coefficient));
            let symbol = (run << 4) | usize::from(size.min(10));
            bits.put(u32::from(ac.code[symbol]), ac.size[symbol]);
            bits.put(value, size);
            run = 0;
        }
        if run > 0 {
            bits.put(u32::from(ac.code[0x00]), ac.size[0x00]);
        }
    };
    if let [only] = which {
        let c = &frame.components[*only];
        let (wide, high) = frame.component_blocks(c);
        let plane = &planes[*only];
        for y in 0..high {
            for x in 0..wide {
                block(&mut bits, 0, &plane.blocks[y * plane.blocks_wide + x]);
            }
        }
    } else {
        for my in 0..frame.mcus_high {
            for mx in 0..frame.mcus_wide {
                for (n, &i) in which.iter().enumerate() {
                    let c = &frame.components[i];
                    let plane = &planes[i];
                    for by in 0..usize::from(c.v) {
                        for bx in 0..usize::from(c.h) {
                            let (x, y) = (mx * usize::from(c.h) + bx, my * usize::from(c.v) + by);
                            block(&mut bits, n, &plane.blocks[y * plane.blocks_wide + x]);
                        }
                    }
                }
            }
        }
    }
    bits.flush();
}
