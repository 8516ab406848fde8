//! Pictures end to end: every PNG flavour of the corpus, RGB and CMYK JPEG, EXIF
//! orientation, and the grey stand-in for a picture that cannot be read.

mod common;

use common::*;
use quire_sdk::*;

fn image(id: &str, frame: Rect, asset: &str) -> Shape {
    Shape::Image(Image {
        id: id.into(),
        frame,
        asset: asset.into(),
        alt: None,
        link: None,
    })
}

#[test]
fn pictures_png_and_jpeg_embed_and_a_broken_one_is_a_grey_box() {
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(600.0, 500.0);
    page.background = Some(Color::rgb(0x30, 0x60, 0x90));
    let pngs = [
        ("gray1", "pngsuite-basn0g01-1bit-gray.png"),
        ("pal4", "pngsuite-basn3p04-4bit-palette.png"),
        ("rgba16", "pngsuite-basn6a16-16bit-rgba.png"),
        ("rgb8", "pngsuite-ftbrn2c08-bkgd.png"),
        ("interlaced", "pngsuite-ibasn6a08-interlaced-rgba.png"),
    ];
    let mut assets = Vec::new();
    for (i, (name, file)) in pngs.iter().enumerate() {
        page.shapes.push(image(
            name,
            Rect::new(20.0 + i as f64 * 110.0, 20.0, 96.0, 96.0),
            name,
        ));
        assets.push(asset(name, file, "image/png"));
    }
    page.shapes
        .push(image("cmyk", Rect::new(20.0, 140.0, 160.0, 170.0), "cmyk"));
    assets.push(asset("cmyk", "photo-cmyk.jpg", "image/jpeg"));
    // 4032 x 3024 stored, EXIF orientation 6: upright it is portrait.
    page.shapes.push(image(
        "phone",
        Rect::new(200.0, 140.0, 120.0, 160.0),
        "phone",
    ));
    assets.push(asset(
        "phone",
        "form-patient-intake-photo.jpg",
        "image/jpeg",
    ));
    page.shapes
        .push(image("scan", Rect::new(340.0, 140.0, 120.0, 155.0), "scan"));
    assets.push(asset("scan", "scan-linn-brochure.png", "image/png"));
    page.shapes.push(image(
        "broken",
        Rect::new(480.0, 140.0, 100.0, 100.0),
        "broken",
    ));
    assets.push(Asset {
        name: "broken".into(),
        media_type: "image/png".into(),
        bytes: b"\x89PNG\r\n\x1a\nnot really".to_vec(),
    });
    page.shapes.push(image(
        "broken-again",
        Rect::new(480.0, 260.0, 100.0, 100.0),
        "broken",
    ));
    doc.pages.push(page);

    let (path, out) = export_checked(&request(doc, assets), "pictures");
    assert_eq!(
        out.warnings.len(),
        1,
        "one warning per unreadable picture: {:?}",
        out.warnings
    );
    assert!(
        out.warnings[0].starts_with("picture `broken` could not be read"),
        "{}",
        out.warnings[0]
    );

    let list = tool("pdfimages", &["-list", path.to_str().unwrap()]);
    let list = String::from_utf8_lossy(&list.stdout);
    for needle in ["jpeg", "cmyk", "smask", "index", "gray"] {
        assert!(
            list.contains(needle),
            "pdfimages lists no {needle}:\n{list}"
        );
    }

    let r = render(&path, 1, 72);
    // The grey stand-in: light grey off its cross, darker grey on the diagonal.
    let px = r.at(530, 160);
    assert!(
        px.iter().all(|c| (0xd8..=0xf0).contains(c)),
        "grey box: {px:?}"
    );
    // The 16-bit RGBA picture lets the blue background through where it is transparent.
    let seen: Vec<[u8; 3]> = (0..96).map(|i| r.at(240 + i, 20 + i)).collect();
    assert!(
        seen.iter().any(|p| p == &[0x30, 0x60, 0x90]) || seen.iter().any(|p| p[2] > p[0]),
        "no transparency"
    );
    // The CMYK photo is not a negative: its pixels are not mostly dark.
    let mean: u32 = (0..150)
        .map(|i| r.at(25 + i, 145 + i).iter().map(|c| *c as u32).sum::<u32>())
        .sum::<u32>()
        / 450;
    assert!(mean > 60, "the CMYK JPEG looks inverted (mean {mean})");
}

/// A PNG written by hand, so every colour type and bit depth can be checked against known
/// pixel values (the corpus has only a few of the fifteen combinations).
struct Synthetic {
    width: u32,
    height: u32,
    color_type: u8,
    bit_depth: u8,
    interlaced: bool,
    /// Samples per pixel in stored order (palette index, gray, gray+alpha, rgb, rgba), at
    /// the PNG's bit depth, row by row.
    pixels: Vec<Vec<u16>>,
    palette: Vec<u8>,
    trns: Option<Vec<u8>>,
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

impl Synthetic {
    /// Packs one row of pixels (given by column indices) at the bit depth, filter byte 0.
    fn row(&self, y: usize, columns: impl Iterator<Item = usize>) -> Vec<u8> {
        let mut bits: Vec<u8> = Vec::new();
        let mut acc: u32 = 0;
        let mut n = 0;
        let bd = self.bit_depth as u32;
        for x in columns {
            for &s in &self.pixels[y * self.width as usize + x] {
                if bd == 16 {
                    bits.extend(s.to_be_bytes());
                } else if bd == 8 {
                    bits.push(s as u8);
                } else {
                    acc = (acc << bd) | s as u32;
                    n += bd;
                    if n == 8 {
                        bits.push(acc as u8);
                        acc = 0;
                        n = 0;
                    }
                }
            }
        }
        if n > 0 {
            bits.push((acc << (8 - n)) as u8);
        }
        let mut row = vec![0u8];
        row.extend(bits);
        row
    }

    fn encode(&self) -> Vec<u8> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut raw = Vec::new();
        if self.interlaced {
            // Adam7, written out pass by pass from the specification's table.
            let passes = [
                (0, 0, 8, 8),
                (4, 0, 8, 8),
                (0, 4, 4, 8),
                (2, 0, 4, 4),
                (0, 2, 2, 4),
                (1, 0, 2, 2),
                (0, 1, 1, 2),
            ];
            for (x0, y0, dx, dy) in passes {
                for y in (y0..h).step_by(dy) {
                    let cols: Vec<usize> = (x0..w).step_by(dx).collect();
                    if !cols.is_empty() {
                        raw.extend(self.row(y, cols.into_iter()));
                    }
                }
            }
        } else {
            for y in 0..h {
                raw.extend(self.row(y, 0..w));
            }
        }
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut chunk = |kind: &[u8], data: &[u8]| {
            out.extend((data.len() as u32).to_be_bytes());
            let mut body = kind.to_vec();
            body.extend(data);
            out.extend(&body);
            out.extend(crc32(&body).to_be_bytes());
        };
        let mut ihdr = Vec::new();
        ihdr.extend(self.width.to_be_bytes());
        ihdr.extend(self.height.to_be_bytes());
        ihdr.extend([self.bit_depth, self.color_type, 0, 0, self.interlaced as u8]);
        chunk(b"IHDR", &ihdr);
        if !self.palette.is_empty() {
            chunk(b"PLTE", &self.palette);
        }
        if let Some(t) = &self.trns {
            chunk(b"tRNS", t);
        }
        chunk(
            b"IDAT",
            &miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6),
        );
        chunk(b"IEND", &[]);
        out
    }
}

fn synthetic(color_type: u8, bit_depth: u8, pixels: [&[u16]; 2]) -> Synthetic {
    Synthetic {
        width: 2,
        height: 1,
        color_type,
        bit_depth,
        interlaced: false,
        pixels: pixels.iter().map(|p| p.to_vec()).collect(),
        palette: Vec::new(),
        trns: None,
    }
}

#[test]
fn every_png_colour_type_and_depth_renders_its_pixels() {
    const BG: [u8; 3] = [0x80, 0x80, 0x80];
    let gray = |v: u8| [v, v, v];
    let mut cases: Vec<(&str, Synthetic, [[u8; 3]; 2])> = vec![
        ("g1", synthetic(0, 1, [&[0], &[1]]), [gray(0), gray(255)]),
        ("g2", synthetic(0, 2, [&[1], &[2]]), [gray(85), gray(170)]),
        ("g4", synthetic(0, 4, [&[3], &[12]]), [gray(51), gray(204)]),
        (
            "g8",
            synthetic(0, 8, [&[10], &[200]]),
            [gray(10), gray(200)],
        ),
        (
            "g16",
            synthetic(0, 16, [&[0x1234], &[0xF0F0]]),
            [gray(0x12), gray(0xF0)],
        ),
        (
            "rgb8",
            synthetic(2, 8, [&[255, 0, 0], &[0, 0, 255]]),
            [[255, 0, 0], [0, 0, 255]],
        ),
        (
            "rgb16",
            synthetic(2, 16, [&[0xFFFF, 0x8000, 0], &[0, 0x4000, 0xFFFF]]),
            [[255, 128, 0], [0, 64, 255]],
        ),
        (
            "ga8",
            synthetic(4, 8, [&[50, 0], &[50, 255]]),
            [BG, gray(50)],
        ),
        (
            "ga16",
            synthetic(4, 16, [&[0xC8C8, 0xFFFF], &[0x3232, 0]]),
            [gray(200), BG],
        ),
        (
            "rgba8",
            synthetic(6, 8, [&[255, 0, 0, 255], &[0, 255, 0, 0]]),
            [[255, 0, 0], BG],
        ),
        (
            "rgba16",
            synthetic(6, 16, [&[0, 0, 0xFFFF, 0], &[0, 0xFFFF, 0, 0xFFFF]]),
            [BG, [0, 255, 0]],
        ),
    ];
    let mut p1 = synthetic(3, 1, [&[0], &[1]]);
    p1.palette = vec![10, 20, 30, 200, 100, 50];
    cases.push(("p1", p1, [[10, 20, 30], [200, 100, 50]]));
    let mut p8t = synthetic(3, 8, [&[0], &[1]]);
    p8t.palette = vec![255, 0, 0, 0, 0, 255];
    p8t.trns = Some(vec![0]);
    cases.push(("p8-trns", p8t, [BG, [0, 0, 255]]));
    let mut g8t = synthetic(0, 8, [&[10], &[200]]);
    g8t.trns = Some(vec![0, 10]);
    cases.push(("g8-trns", g8t, [BG, gray(200)]));
    let mut rgbt = synthetic(2, 8, [&[255, 0, 0], &[0, 0, 255]]);
    rgbt.trns = Some(vec![0, 255, 0, 0, 0, 0]);
    cases.push(("rgb8-trns", rgbt, [BG, [0, 0, 255]]));
    for (name, ct, bd, a, b, want) in [
        (
            "i-g8",
            0,
            8,
            &[10u16][..],
            &[200u16][..],
            [gray(10), gray(200)],
        ),
        (
            "i-rgba8",
            6,
            8,
            &[0, 0, 255, 255][..],
            &[0, 0, 0, 0][..],
            [[0, 0, 255], BG],
        ),
        ("i-g1", 0, 1, &[1][..], &[0][..], [gray(255), gray(0)]),
    ] {
        // 9 x 9 so every Adam7 pass has pixels: column 0 is `a`, the rest `b`.
        let mut s = synthetic(ct, bd, [a, b]);
        s.width = 9;
        s.height = 9;
        s.interlaced = true;
        s.pixels = (0..81)
            .map(|i| if i % 9 == 0 { a.to_vec() } else { b.to_vec() })
            .collect();
        cases.push((name, s, want));
    }

    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(200.0, 40.0 * cases.len() as f64);
    page.background = Some(Color::rgb(BG[0], BG[1], BG[2]));
    let mut assets = Vec::new();
    for (i, (name, png, _)) in cases.iter().enumerate() {
        // Each stored pixel becomes a 40-point square (interlaced ones: the first column
        // 40 wide, the other eight 160 wide in all).
        let w = if png.interlaced { 360.0 } else { 80.0 };
        page.shapes
            .push(image(name, Rect::new(0.0, i as f64 * 40.0, w, 40.0), name));
        assets.push(Asset {
            name: name.to_string(),
            media_type: "image/png".into(),
            bytes: png.encode(),
        });
    }
    page.width = 400.0;
    doc.pages.push(page);
    let (path, out) = export_checked(&request(doc, assets), "png-flavours");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let r = render(&path, 1, 72);
    let mut wrong = Vec::new();
    for (i, (name, _, want)) in cases.iter().enumerate() {
        let y = i * 40 + 20;
        for (x, want) in [(20, want[0]), (60, want[1])] {
            let got = r.at(x, y);
            if got
                .iter()
                .zip(want)
                .any(|(g, w)| (*g as i32 - w as i32).abs() > 2)
            {
                wrong.push(format!("{name} at x={x}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// An arithmetic-coded JPEG another importer passed on (an HTML page's picture) is
/// re-coded without loss and embedded: the page shows the same pixels as the file it was
/// made from (jpegtran's `-arithmetic` of it).
#[test]
fn an_arithmetic_jpeg_is_recoded_and_drawn_as_its_original() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../image/tests/fixtures");
    let page_of = |file: &str, name: &str| {
        let mut doc = Document::new(Kind::Paged);
        let mut page = Page::new(200.0, 260.0);
        page.shapes
            .push(image("photo", Rect::new(10.0, 10.0, 180.0, 240.0), "photo"));
        doc.pages.push(page);
        let bytes = std::fs::read(fixtures.join(file)).expect("the fixture");
        let asset = Asset {
            name: "photo".into(),
            media_type: "image/jpeg".into(),
            bytes,
        };
        let (path, out) = export_checked(&request(doc, vec![asset]), name);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        render(&path, 1, 72)
    };
    let arithmetic = page_of("photo-420-arithmetic-progressive.jpg", "arithmetic");
    let original = page_of("photo-420.jpg", "arithmetic-original");
    let mut differing = 0;
    for y in 10..250 {
        for x in 10..190 {
            if arithmetic.at(x, y) != original.at(x, y) {
                differing += 1;
            }
        }
    }
    assert_eq!(differing, 0, "pixels differ from the original's");
}
