//! EXIF orientation of a JPEG taken from a PDF, made harmless.
//!
//! PDF viewers draw a `/DCTDecode` stream as its pixels lie and ignore any EXIF inside it,
//! but a model JPEG asset is drawn the way an image file is: turned as its EXIF orientation
//! says (Quire's exporters do, so a phone photo comes out upright). A JPEG kept from a PDF
//! is therefore given orientation 1, in place: one byte of the tag's value changes, the
//! segment keeps its length and the picture is not decoded or re-encoded.

/// Sets every EXIF orientation tag (IFD0, tag 0x0112) in the APP1 `Exif` segments before the
/// scan to 1. Bytes that are not a well-formed JPEG header or EXIF block are left alone:
/// they carry no orientation an exporter could read either.
pub fn neutralise_exif_orientation(jpeg: &mut [u8]) {
    let mut pos = 2;
    loop {
        // Markers may be preceded by any number of 0xFF fill bytes.
        while jpeg.get(pos) == Some(&0xFF) && jpeg.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (jpeg.get(pos), jpeg.get(pos + 1)) else {
            return;
        };
        pos += 2;
        if marker == 0x01 || (0xD0..=0xD8).contains(&marker) {
            continue; // markers without a length
        }
        if marker == 0xD9 || marker == 0xDA {
            return; // end of image, or the scan: no header segments follow
        }
        let Some(len) = jpeg
            .get(pos..pos + 2)
            .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])))
        else {
            return;
        };
        if len < 2 {
            return;
        }
        let Some(seg) = jpeg.get_mut(pos + 2..pos + len) else {
            return;
        };
        if marker == 0xE1 && seg.starts_with(b"Exif\0\0") {
            upright_ifd0(&mut seg[6..]);
        }
        pos += len;
    }
}

/// Writes 1 into the value of each orientation entry of IFD0 of a TIFF-structured block.
fn upright_ifd0(tiff: &mut [u8]) {
    let big = match tiff.get(0..2) {
        Some(b"MM") => true,
        Some(b"II") => false,
        _ => return,
    };
    let u16_at = |t: &[u8], i: usize| -> Option<u16> {
        let b = t.get(i..i.checked_add(2)?)?;
        Some(if big {
            u16::from_be_bytes([b[0], b[1]])
        } else {
            u16::from_le_bytes([b[0], b[1]])
        })
    };
    let Some(ifd) = tiff.get(4..8).map(|b| {
        let a = [b[0], b[1], b[2], b[3]];
        (if big {
            u32::from_be_bytes(a)
        } else {
            u32::from_le_bytes(a)
        }) as usize
    }) else {
        return;
    };
    let Some(count) = u16_at(tiff, ifd) else {
        return;
    };
    // An entry is 12 bytes; a segment (64 KiB) holds fewer than 6000, so the count bounds
    // the walk.
    for e in 0..usize::from(count) {
        let Some(at) = ifd.checked_add(2 + e * 12) else {
            return;
        };
        let Some(tag) = u16_at(tiff, at) else {
            return;
        };
        if tag != 0x0112 {
            continue;
        }
        // A SHORT value sits left-justified in the entry's 4-byte value field.
        let one = if big { [0, 1] } else { [1, 0] };
        if let Some(value) = tiff.get_mut(at + 8..at + 10) {
            value.copy_from_slice(&one);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG header: SOI, APP1 Exif with `tiff`, a DQT-like segment, SOS, data, EOI.
    fn jpeg_with(tiff: &[u8]) -> Vec<u8> {
        let mut j = vec![0xFF, 0xD8, 0xFF, 0xE1];
        j.extend_from_slice(&((tiff.len() + 8) as u16).to_be_bytes());
        j.extend_from_slice(b"Exif\0\0");
        j.extend_from_slice(tiff);
        j.extend_from_slice(&[0xFF, 0xDB, 0x00, 0x04, 0x12, 0x34]);
        j.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x02, 0x06, 0x00, 0x06, 0xFF, 0xD9]);
        j
    }

    /// IFD0 with two entries: ImageWidth, then Orientation = `o`.
    fn tiff(big: bool, o: u16) -> Vec<u8> {
        let w16 = |v: u16| {
            if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        };
        let w32 = |v: u32| {
            if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        };
        let mut t = if big { b"MM".to_vec() } else { b"II".to_vec() };
        t.extend_from_slice(&w16(42));
        t.extend_from_slice(&w32(8));
        t.extend_from_slice(&w16(2));
        for (tag, kind, value) in [(0x0100, 3, 6), (0x0112, 3, o)] {
            t.extend_from_slice(&w16(tag));
            t.extend_from_slice(&w16(kind));
            t.extend_from_slice(&w32(1));
            t.extend_from_slice(&w16(value));
            t.extend_from_slice(&[0, 0]);
        }
        t.extend_from_slice(&w32(0));
        t
    }

    #[test]
    fn orientation_becomes_one_and_nothing_else_changes() {
        for big in [true, false] {
            let before = jpeg_with(&tiff(big, 6));
            let mut after = before.clone();
            neutralise_exif_orientation(&mut after);
            assert_eq!(after, jpeg_with(&tiff(big, 1)), "big-endian {big}");
            let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
            assert_eq!(changed, 1);
            // The width entry, whose value is 6 too, is untouched.
            assert_eq!(after.len(), before.len());
        }
    }

    #[test]
    fn bytes_after_the_scan_and_broken_headers_are_left_alone() {
        // An "Exif" APP1 lookalike inside the entropy-coded data is not a header.
        let mut j = jpeg_with(&tiff(true, 1));
        let tail_at = j.len() - 2;
        let mut fake = vec![0xFF, 0xE1, 0x00, 0x20];
        fake.extend_from_slice(b"Exif\0\0");
        fake.extend_from_slice(&tiff(true, 6));
        j.splice(tail_at..tail_at, fake);
        let before = j.clone();
        neutralise_exif_orientation(&mut j);
        assert_eq!(j, before);

        // Cut short, impossible lengths, an IFD offset past the end: no panic, no change.
        let whole = jpeg_with(&tiff(false, 8));
        for cut in 0..whole.len() {
            let mut part = whole[..cut].to_vec();
            neutralise_exif_orientation(&mut part);
            let changed = part.iter().zip(&whole).filter(|(a, b)| a != b).count();
            assert!(changed <= 1, "cut at {cut}: {changed} bytes changed");
        }
        let mut bad = tiff(false, 8);
        bad[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        let mut j = jpeg_with(&bad);
        let before = j.clone();
        neutralise_exif_orientation(&mut j);
        assert_eq!(j, before);
        let mut zero_len = vec![0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00, 0xFF, 0xD9];
        neutralise_exif_orientation(&mut zero_len);
        assert_eq!(zero_len[4..6], [0, 0]);
    }
}
