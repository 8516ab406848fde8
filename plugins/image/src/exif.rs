//! The few EXIF tags of IFD0 a page needs: orientation and resolution. EXIF is a TIFF
//! structure (byte order mark, offset to the first IFD, 12-byte entries).

/// What IFD0 says, where it says it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Exif {
    /// 1 to 8; anything else is left out.
    pub orientation: Option<u8>,
    /// Dots per inch across and down, when the resolution unit is inch or centimetre.
    pub density: Option<(f64, f64)>,
}

/// Entries read at most: IFD0 of a camera holds a few dozen.
const MAX_ENTRIES: usize = 512;

pub fn parse(tiff: &[u8]) -> Option<Exif> {
    let big = match tiff.get(0..2)? {
        b"MM" => true,
        b"II" => false,
        _ => return None,
    };
    let u16_at = |i: usize| -> Option<u16> {
        let b = tiff.get(i..i.checked_add(2)?)?;
        Some(if big {
            u16::from_be_bytes([b[0], b[1]])
        } else {
            u16::from_le_bytes([b[0], b[1]])
        })
    };
    let u32_at = |i: usize| -> Option<u32> {
        let b = tiff.get(i..i.checked_add(4)?)?;
        let a = [b[0], b[1], b[2], b[3]];
        Some(if big {
            u32::from_be_bytes(a)
        } else {
            u32::from_le_bytes(a)
        })
    };
    // A RATIONAL is two LONGs at an offset.
    let rational_at = |entry: usize| -> Option<f64> {
        let at = u32_at(entry + 8)? as usize;
        let (n, d) = (u32_at(at)?, u32_at(at.checked_add(4)?)?);
        (d != 0).then(|| f64::from(n) / f64::from(d))
    };
    let ifd = u32_at(4)? as usize;
    let count = usize::from(u16_at(ifd)?);
    let mut exif = Exif::default();
    let (mut x, mut y, mut unit) = (None, None, 2u16);
    let mut seen_orientation = false;
    for e in 0..count.min(MAX_ENTRIES) {
        let at = ifd.checked_add(2 + e * 12)?;
        let (Some(tag), Some(kind)) = (u16_at(at), u16_at(at + 2)) else {
            break;
        };
        match (tag, kind) {
            // SHORT values sit in the first two bytes of the value field. The type is not
            // checked, as the PDF exporter does not check it: both must read the same.
            (0x0112, _) if !seen_orientation => {
                seen_orientation = true;
                exif.orientation = u16_at(at + 8)
                    .filter(|v| (1..=8).contains(v))
                    .map(|v| v as u8)
            }
            (0x011A, 5) => x = rational_at(at),
            (0x011B, 5) => y = rational_at(at),
            (0x0128, 3) => unit = u16_at(at + 8).unwrap_or(2),
            _ => {}
        }
    }
    let per_inch = match unit {
        2 => Some(1.0),
        3 => Some(2.54),
        _ => None,
    };
    if let (Some(x), Some(y), Some(k)) = (x, y, per_inch) {
        exif.density = Some((x * k, y * k));
    }
    Some(exif)
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A big-endian TIFF with orientation, X/Y resolution and resolution unit.
    pub fn tiff(orientation: u16, dpi: u32, unit: u16) -> Vec<u8> {
        let mut t = b"MM\0\x2a\0\0\0\x08".to_vec();
        t.extend_from_slice(&4u16.to_be_bytes());
        let entry = |t: &mut Vec<u8>, tag: u16, kind: u16, value: [u8; 4]| {
            t.extend_from_slice(&tag.to_be_bytes());
            t.extend_from_slice(&kind.to_be_bytes());
            t.extend_from_slice(&1u32.to_be_bytes());
            t.extend_from_slice(&value);
        };
        // Rationals after the IFD: 8 + 2 + 4 * 12 + 4 = 62.
        let o = orientation.to_be_bytes();
        entry(&mut t, 0x0112, 3, [o[0], o[1], 0, 0]);
        entry(&mut t, 0x011A, 5, 62u32.to_be_bytes());
        entry(&mut t, 0x011B, 5, 70u32.to_be_bytes());
        let u = unit.to_be_bytes();
        entry(&mut t, 0x0128, 3, [u[0], u[1], 0, 0]);
        t.extend_from_slice(&[0; 4]);
        for _ in 0..2 {
            t.extend_from_slice(&dpi.to_be_bytes());
            t.extend_from_slice(&1u32.to_be_bytes());
        }
        t
    }

    #[test]
    fn reads_orientation_and_resolution() {
        let e = parse(&tiff(6, 300, 2)).unwrap();
        assert_eq!(e.orientation, Some(6));
        assert_eq!(e.density, Some((300.0, 300.0)));
        let e = parse(&tiff(1, 100, 3)).unwrap();
        assert_eq!(e.density, Some((254.0, 254.0)));
        let e = parse(&tiff(9, 72, 1)).unwrap();
        assert_eq!((e.orientation, e.density), (None, None));
    }

    #[test]
    fn cut_or_garbage_tiff_gives_what_it_can() {
        let t = tiff(6, 300, 2);
        for cut in 0..t.len() {
            let _ = parse(&t[..cut]);
        }
        assert_eq!(parse(b"XX\0\x2a"), None);
        // The orientation entry is whole at 22 bytes; the resolutions are not there yet.
        let e = parse(&t[..22]).unwrap();
        assert_eq!((e.orientation, e.density), (Some(6), None));
    }
}
