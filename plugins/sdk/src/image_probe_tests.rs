use super::*;

fn segment(out: &mut Vec<u8>, marker: u8, data: &[u8]) {
    out.extend_from_slice(&[0xFF, marker]);
    out.extend_from_slice(&(data.len() as u16 + 2).to_be_bytes());
    out.extend_from_slice(data);
}

fn sof(bits: u8, w: u16, h: u16, components: u8) -> Vec<u8> {
    let mut d = vec![bits];
    d.extend_from_slice(&h.to_be_bytes());
    d.extend_from_slice(&w.to_be_bytes());
    d.push(components);
    for c in 1..=components {
        d.extend_from_slice(&[c, 0x11, 0]);
    }
    d
}

/// SOI, the segments, a scan of two bytes, EOI.
fn jpeg(segments: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut b = vec![0xFF, 0xD8];
    for (m, d) in segments {
        segment(&mut b, *m, d);
    }
    segment(&mut b, 0xDA, &[1, 1, 0, 0, 0x3F, 0]);
    b.extend_from_slice(&[0x12, 0x34, 0xFF, 0xD9]);
    b
}

/// A TIFF block with IFD0 holding `entries` (tag, type, value field), then `tail` at
/// offset 8 + 2 + 12 * n + 4.
fn tiff(big: bool, entries: &[(u16, u16, [u8; 4])], tail: &[u8]) -> Vec<u8> {
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
    t.extend_from_slice(&w16(entries.len() as u16));
    for (tag, kind, value) in entries {
        t.extend_from_slice(&w16(*tag));
        t.extend_from_slice(&w16(*kind));
        t.extend_from_slice(&w32(1));
        t.extend_from_slice(value);
    }
    t.extend_from_slice(&[0; 4]);
    t.extend_from_slice(tail);
    t
}

fn short(big: bool, v: u16) -> [u8; 4] {
    let b = if big {
        v.to_be_bytes()
    } else {
        v.to_le_bytes()
    };
    [b[0], b[1], 0, 0]
}

fn orientation_tiff(big: bool, o: u16) -> Vec<u8> {
    // ImageWidth 6 first, a SHORT like the orientation: a reader must go by tag.
    tiff(
        big,
        &[(0x0100, 3, short(big, 6)), (0x0112, 3, short(big, o))],
        &[],
    )
}

fn app1(tiff: &[u8]) -> (u8, Vec<u8>) {
    let mut d = b"Exif\0\0".to_vec();
    d.extend_from_slice(tiff);
    (0xE1, d)
}

/// An EXIF block giving `dpi` both ways in `unit` (2 inch, 3 centimetre).
fn resolution_tiff(dpi: u32, unit: u16) -> Vec<u8> {
    let at = |n: u32| (8 + 2 + 12 * 3 + 4 + n).to_be_bytes();
    let mut tail = dpi.to_be_bytes().to_vec();
    tail.extend_from_slice(&1u32.to_be_bytes());
    let entries = [
        (0x011A, 5, at(0)),
        (0x011B, 5, at(0)),
        (0x0128, 3, short(true, unit)),
    ];
    tiff(true, &entries, &tail)
}

fn png(w: u32, h: u32, chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut b = PNG_SIGNATURE.to_vec();
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let iend = (b"IEND", Vec::new());
    for (kind, data) in [(b"IHDR", ihdr)].iter().chain(chunks).chain([&iend]) {
        b.extend_from_slice(&(data.len() as u32).to_be_bytes());
        b.extend_from_slice(*kind);
        b.extend_from_slice(data);
        b.extend_from_slice(&[0; 4]); // the CRC is not the probe's business
    }
    b
}

fn stored(info: &ImageInfo) -> (ImageKind, u32, u32) {
    (info.kind, info.width, info.height)
}

#[test]
fn jpeg_size_frame_and_orientation_in_both_byte_orders() {
    for big in [true, false] {
        for o in 1..=8 {
            let b = jpeg(&[app1(&orientation_tiff(big, o)), (0xC2, sof(8, 300, 200, 3))]);
            let info = probe(&b).unwrap();
            assert_eq!(stored(&info), (ImageKind::Jpeg, 300, 200));
            assert_eq!((info.orientation, info.defect), (o as u8, None));
            let frame = Frame {
                marker: 0xC2,
                bits: 8,
                components: 3,
            };
            assert_eq!(info.frame, Some(frame));
        }
    }
    let info = probe(&jpeg(&[(0xC0, sof(12, 1, 65535, 1))])).unwrap();
    assert_eq!((info.width, info.height, info.orientation), (1, 65535, 1));
    assert_eq!(
        info.frame.map(|f| (f.marker, f.bits, f.components)),
        Some((0xC0, 12, 1))
    );
}

#[test]
fn fill_bytes_and_standalone_markers_are_stepped_over() {
    let mut b = vec![0xFF, 0xD8, 0xFF, 0xFF, 0xFF];
    segment(&mut b, 0xE0, &[0xAA, 0xBB]);
    b.extend_from_slice(&[0xFF, 0xD0, 0xFF, 0x01, 0xFF, 0xFF]); // RST0, TEM, fill
    segment(&mut b, 0xC1, &sof(8, 640, 480, 3));
    segment(&mut b, 0xDA, &[1, 1, 0, 0, 0x3F, 0]);
    b.extend_from_slice(&[0xFF, 0x00, 0xFF, 0xD0, 0x55, 0xFF, 0xD9]);
    let info = probe(&b).unwrap();
    assert_eq!((info.width, info.height, info.defect), (640, 480, None));
}

#[test]
fn the_last_exif_block_and_the_first_orientation_tag_count() {
    let frame = (0xC0, sof(8, 10, 10, 3));
    let read = |segments: &[(u8, Vec<u8>)]| probe(&jpeg(segments)).unwrap().orientation;
    let (six, three) = (
        app1(&orientation_tiff(true, 6)),
        app1(&orientation_tiff(false, 3)),
    );
    assert_eq!(read(&[six.clone(), three.clone(), frame.clone()]), 3);
    // An Exif block after the frame header still comes before the scan.
    assert_eq!(read(&[three, frame.clone(), six.clone()]), 6);
    // A later block without an orientation, or with one out of range, sets it back to 1.
    let plain = app1(&tiff(true, &[(0x0100, 3, short(true, 6))], &[]));
    assert_eq!(read(&[six.clone(), plain, frame.clone()]), 1);
    assert_eq!(
        read(&[six, app1(&orientation_tiff(true, 9)), frame.clone()]),
        1
    );
    let twice = tiff(
        false,
        &[(0x0112, 3, short(false, 8)), (0x0112, 3, short(false, 2))],
        &[],
    );
    assert_eq!(read(&[app1(&twice), frame.clone()]), 8);
    // XMP in APP1 and an Exif lookalike in APP2 are not EXIF.
    let mut xmp = b"http://ns.adobe.com/xap/1.0/\0".to_vec();
    xmp.extend_from_slice(&orientation_tiff(true, 6));
    let (_, lookalike) = app1(&orientation_tiff(true, 6));
    assert_eq!(read(&[(0xE1, xmp), (0xE2, lookalike), frame]), 1);
}

#[test]
fn declared_resolution() {
    let frame = (0xC0, sof(8, 10, 10, 3));
    let jfif = |units: u8, d: u16| {
        let mut s = b"JFIF\0\x01\x02".to_vec();
        s.push(units);
        s.extend_from_slice(&d.to_be_bytes());
        s.extend_from_slice(&d.to_be_bytes());
        s.extend_from_slice(&[0, 0]);
        (0xE0, s)
    };
    let density = |s: &[(u8, Vec<u8>)]| probe(&jpeg(s)).unwrap().density;
    let exif = app1(&resolution_tiff(200, 2));
    assert_eq!(
        density(&[jfif(1, 300), exif.clone(), frame.clone()]),
        Some((300.0, 300.0))
    );
    assert_eq!(
        density(&[jfif(2, 100), frame.clone()]),
        Some((254.0, 254.0))
    );
    // JFIF units 0 only give the aspect ratio: EXIF says the rest.
    assert_eq!(
        density(&[jfif(0, 1), exif, frame.clone()]),
        Some((200.0, 200.0))
    );
    let cm = app1(&resolution_tiff(100, 3));
    assert_eq!(density(&[cm, frame.clone()]), Some((254.0, 254.0)));
    let unknown_unit = app1(&resolution_tiff(100, 1));
    assert_eq!(density(&[unknown_unit, frame]), None);

    let phys = |ppm: u32| {
        let mut d = ppm.to_be_bytes().to_vec();
        d.extend_from_slice(&ppm.to_be_bytes());
        d.push(1);
        (b"pHYs", d)
    };
    let info = probe(&png(7, 5, &[phys(5669)])).unwrap();
    assert_eq!(
        (stored(&info), info.density),
        ((ImageKind::Png, 7, 5), Some((144.0, 144.0)))
    );
    // pHYs wins over eXIf; an eXIf orientation is reported, never applied.
    let exif = resolution_tiff(300, 2);
    let info = probe(&png(7, 5, &[(b"eXIf", exif.clone()), phys(3780)])).unwrap();
    assert_eq!(info.density, Some((96.0, 96.0)));
    let info = probe(&png(7, 5, &[(b"eXIf", exif)])).unwrap();
    assert_eq!(info.density, Some((300.0, 300.0)));
    let info = probe(&png(7, 5, &[(b"eXIf", orientation_tiff(false, 6))])).unwrap();
    assert_eq!((info.orientation, info.png_exif_orientation), (1, Some(6)));
    let info = probe(&png(7, 5, &[(b"eXIf", orientation_tiff(false, 1))])).unwrap();
    assert_eq!((info.png_exif_orientation, info.defect), (None, None));
}

#[test]
fn damaged_headers_say_why() {
    let defect = |b: &[u8]| probe(b).unwrap().defect.unwrap_or("whole");
    let frame = (0xC0, sof(8, 10, 10, 3));
    let whole = jpeg(std::slice::from_ref(&frame));
    assert_eq!(defect(&whole), "whole");
    assert!(defect(&whole[..whole.len() - 2]).contains("cut short"));
    assert!(defect(&[0xFF, 0xD8, 0xFF, 0xD9]).contains("no image data"));
    assert!(defect(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 1, 0xFF, 0xD9]).contains("impossible"));
    assert!(defect(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 9, 0]).contains("inside a marker"));
    assert!(defect(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0x00]).contains("before its image data"));
    assert!(defect(&jpeg(&[])).contains("no frame header"));
    assert!(defect(&jpeg(&[(0xC0, vec![8, 0, 10, 0, 10])])).contains("too short"));
    let two = jpeg(&[frame, (0xC2, sof(8, 99, 99, 1))]);
    let info = probe(&two).unwrap();
    assert_eq!(
        (info.width, info.defect),
        (10, Some("the JPEG has two frame headers"))
    );

    assert_eq!(probe(b""), None);
    assert_eq!(probe(b"GIF89a"), None);
    assert_eq!(probe(&[0xFF, 0xD8]), None);
    let mut bad_len = png(3, 2, &[]);
    bad_len[11] = 12;
    let info = probe(&bad_len).unwrap();
    assert_eq!((info.width, info.height), (3, 2));
    assert!(info.defect.unwrap().contains("wrong length"));
    let mut not_first = png(3, 2, &[]);
    not_first[12..16].copy_from_slice(b"IDAT");
    assert_eq!(probe(&not_first).unwrap().width, 0);
    assert_eq!(
        probe(&png(0, 2, &[])).unwrap().defect,
        None,
        "zero is the caller's call"
    );

    // For layout a size is enough, whole file or not; no size, or zero, is none.
    assert_eq!(size(&two), Some((ImageKind::Jpeg, 10, 10)));
    assert_eq!(
        size(&whole[..whole.len() - 2]),
        Some((ImageKind::Jpeg, 10, 10))
    );
    assert_eq!(size(&bad_len), Some((ImageKind::Png, 3, 2)));
    assert_eq!(size(&png(0, 2, &[])), None);
    assert_eq!(size(&jpeg(&[])), None);
    assert_eq!(size(b"GIF89a"), None);
}

#[test]
fn every_cut_is_a_defect_and_nothing_panics() {
    let full = jpeg(&[
        (0xE0, b"JFIF\0\x01\x02\x01\0\x48\0\x48\0\0".to_vec()),
        app1(&resolution_tiff(72, 2)),
        app1(&orientation_tiff(false, 6)),
        (0xEE, b"Adobe\0\x64\0\0\0\0\x02".to_vec()),
        (0xC0, sof(8, 300, 200, 4)),
    ]);
    let info = probe(&full).unwrap();
    assert_eq!((info.orientation, info.adobe, info.defect), (6, true, None));
    for cut in 3..full.len() {
        let info = probe(&full[..cut]).unwrap();
        assert!(info.defect.is_some(), "cut at {cut}");
        assert!(info.width == 0 || info.width == 300, "cut at {cut}");
    }
    let full = png(
        640,
        480,
        &[(b"pHYs", vec![0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1])],
    );
    for cut in 8..full.len() {
        let info = probe(&full[..cut]).unwrap();
        assert!(info.defect.is_some() == (cut < 29), "cut at {cut}");
        assert!(
            (info.width, info.height) == (0, 0) || cut >= 24,
            "cut at {cut}"
        );
    }
}

#[test]
fn hostile_headers_end_quickly() {
    // Offsets and counts pointing anywhere: IFD0 at u32::MAX, 65535 entries claimed in 14
    // bytes, a rational stored past the end, a PNG chunk of 4 GiB.
    let mut far = orientation_tiff(true, 6);
    far[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
    let mut many = orientation_tiff(false, 6);
    many[8..10].copy_from_slice(&u16::MAX.to_le_bytes());
    let lost = tiff(
        true,
        &[(0x011A, 5, u32::MAX.to_be_bytes()), (0x011B, 5, [0; 4])],
        &[],
    );
    for (t, orientation) in [(far, 1), (many, 6), (lost, 1)] {
        let info = probe(&jpeg(&[app1(&t), (0xC0, sof(8, 1, 1, 1))])).unwrap();
        assert_eq!(
            (info.orientation, info.density, info.defect),
            (orientation, None, None)
        );
    }
    let mut huge = png(1, 1, &[]);
    huge[33..37].copy_from_slice(&u32::MAX.to_be_bytes());
    assert_eq!(probe(&huge).unwrap().defect, None);

    // Megabytes of fill bytes, and of one-byte segments that are all fill.
    let mut fill = vec![0xFF; 4 << 20];
    fill[1] = 0xD8;
    assert!(probe(&fill).unwrap().defect.is_some());
    let mut rst = vec![0xFF, 0xD8];
    rst.extend(std::iter::repeat_n([0xFF, 0xD0], 1 << 20).flatten());
    assert!(probe(&rst).unwrap().defect.is_some());

    // Noise after each signature, and single bytes of a real header overwritten.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let base = jpeg(&[
        app1(&resolution_tiff(72, 2)),
        app1(&orientation_tiff(true, 6)),
    ]);
    for _ in 0..20_000 {
        let mut b = match next() % 3 {
            0 => vec![0xFF, 0xD8, 0xFF],
            1 => PNG_SIGNATURE.to_vec(),
            _ => base.clone(),
        };
        if b.len() > 8 {
            let at = 2 + next() as usize % (b.len() - 2);
            b[at] = next() as u8;
        } else {
            b.extend((0..next() % 300).map(|_| next() as u8));
        }
        if let Some(info) = probe(&b) {
            assert!((1..=8).contains(&info.orientation));
        }
        clear_jpeg_orientation(&mut b);
    }
}

#[test]
fn orientation_is_cleared_in_place_and_nothing_else_changes() {
    for big in [true, false] {
        let frame = (0xC0, sof(8, 4, 3, 3));
        let blocks = [
            app1(&orientation_tiff(big, 6)),
            app1(&orientation_tiff(!big, 8)),
        ];
        let before = jpeg(&[blocks[0].clone(), frame.clone(), blocks[1].clone()]);
        let mut after = before.clone();
        clear_jpeg_orientation(&mut after);
        let upright = [
            app1(&orientation_tiff(big, 1)),
            app1(&orientation_tiff(!big, 1)),
        ];
        assert_eq!(
            after,
            jpeg(&[upright[0].clone(), frame, upright[1].clone()])
        );
        // The width entries, whose values are 6 and 8 too, are untouched.
        assert_eq!(before.iter().zip(&after).filter(|(a, b)| a != b).count(), 2);
        assert_eq!(probe(&after).unwrap().orientation, 1);
    }
    // A lookalike after the scan is entropy-coded data, not a header; a PNG is left alone.
    let mut b = jpeg(&[(0xC0, sof(8, 4, 3, 3))]);
    let (_, fake) = app1(&orientation_tiff(true, 6));
    let end = b.len() - 2;
    b.splice(
        end..end,
        [0xFF, 0xE1, 0, fake.len() as u8 + 2]
            .into_iter()
            .chain(fake),
    );
    let mut png_bytes = png(1, 1, &[(b"eXIf", orientation_tiff(true, 6))]);
    for bytes in [&mut b, &mut png_bytes] {
        let before = bytes.clone();
        clear_jpeg_orientation(bytes);
        assert_eq!(*bytes, before);
    }
    let whole = jpeg(&[app1(&orientation_tiff(false, 8))]);
    for cut in 0..whole.len() {
        let mut part = whole[..cut].to_vec();
        clear_jpeg_orientation(&mut part);
        let changed = part.iter().zip(&whole).filter(|(a, b)| a != b).count();
        assert!(changed <= 1, "cut at {cut}: {changed} bytes changed");
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn corpus_pictures_read_as_an_independent_reader_reads_them() {
    // Size, frame, orientation: `file` (libmagic 5) on each file. Resolution: IFD0 rationals
    // and pHYs read with Python's struct module.
    type Expected = (&'static str, u32, u32, u8, Option<f64>, Option<(u8, u8)>);
    #[rustfmt::skip]
    let expected: [Expected; 12] = [
        ("form-cms1500-claim.png", 2550, 3300, 1, None, None),
        ("form-employment-application.png", 1362, 1038, 1, Some(144.0), None),
        ("form-patient-intake-photo.jpg", 4032, 3024, 6, Some(72.0), Some((0xC0, 3))),
        ("form-vaccination-card.png", 1412, 964, 1, Some(144.0), None),
        ("form-verification-of-employment.png", 885, 1146, 1, Some(20.0), None),
        ("photo-cmyk.jpg", 640, 682, 1, Some(200.0), Some((0xC0, 4))),
        ("pngsuite-basn0g01-1bit-gray.png", 32, 32, 1, None, None),
        ("pngsuite-basn3p04-4bit-palette.png", 32, 32, 1, None, None),
        ("pngsuite-basn6a16-16bit-rgba.png", 32, 32, 1, None, None),
        ("pngsuite-ftbrn2c08-bkgd.png", 32, 32, 1, None, None),
        ("pngsuite-ibasn6a08-interlaced-rgba.png", 32, 32, 1, None, None),
        ("scan-linn-brochure.png", 2550, 3300, 1, None, None),
    ];
    let dir = crate::corpus_dir().join("images");
    for (name, w, h, orientation, dpi, frame) in expected {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let info = probe(&bytes).unwrap();
        assert_eq!(
            (info.width, info.height, info.orientation),
            (w, h, orientation),
            "{name}"
        );
        assert_eq!(info.density, dpi.map(|d| (d, d)), "{name}");
        assert_eq!(
            info.frame.map(|f| (f.marker, f.components)),
            frame,
            "{name}"
        );
        assert_eq!(
            (info.defect, info.png_exif_orientation),
            (None, None),
            "{name}"
        );
        assert_eq!(info.adobe, name == "photo-cmyk.jpg", "{name}");
        assert_eq!(info.frame.map_or(8, |f| f.bits), 8, "{name}");
    }
    // The photo's only orientation tag is cleared; every other byte stays.
    let photo = std::fs::read(dir.join("form-patient-intake-photo.jpg")).unwrap();
    let mut upright = photo.clone();
    clear_jpeg_orientation(&mut upright);
    assert_eq!(
        photo.iter().zip(&upright).filter(|(a, b)| a != b).count(),
        1
    );
    assert_eq!(probe(&upright).unwrap().orientation, 1);
    // The resvg reference renderings, 300 x 300 each by `file`.
    let svg_refs = std::fs::read_dir(crate::corpus_dir().join("svg")).unwrap();
    let mut seen = 0;
    for path in svg_refs.map(|e| e.unwrap().path()) {
        if path.extension().is_some_and(|x| x == "png") {
            let info = probe(&std::fs::read(&path).unwrap()).unwrap();
            assert_eq!(
                stored(&info),
                (ImageKind::Png, 300, 300),
                "{}",
                path.display()
            );
            assert_eq!(info.defect, None, "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 11, "{seen} reference PNGs");
}

#[test]
fn signatures_name_what_people_send() {
    let cases: [(&[u8], Option<Signature>); 11] = [
        (b"\x89PNG\r\n\x1a\n....", Some(Signature::Png)),
        (&[0xFF, 0xD8, 0xFF, 0xE0], Some(Signature::Jpeg)),
        (b"GIF87a..", Some(Signature::Gif)),
        (b"RIFF\0\0\0\0WEBPVP8 ", Some(Signature::WebP)),
        (b"BM....", Some(Signature::Bmp)),
        (b"MM\0*....", Some(Signature::Tiff)),
        (b"%PDF-1.7", Some(Signature::Pdf)),
        (b"\0\0\0\x1cftypavif", Some(Signature::IsoMedia)),
        (
            b"<?xml version=\"1.0\"?>\n<SVG xmlns=\"...\">",
            Some(Signature::Svg),
        ),
        (b"<html><body>no picture</body></html>", None),
        (&[0xFF, 0xD8, 0x00], None),
    ];
    for (bytes, expected) in cases {
        assert_eq!(
            Signature::of(bytes),
            expected,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    assert_eq!(Signature::Svg.picture_media_type(), Some("image/svg+xml"));
    assert_eq!(Signature::Pdf.picture_media_type(), None);
}
