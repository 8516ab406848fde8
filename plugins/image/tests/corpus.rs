//! Every picture of the shared corpus converts to a one-page document of the right physical
//! size; hostile and broken files are refused with the right error.

use std::path::{Path, PathBuf};

use quire_sdk::{ConvertError, ImportRequest, Imported, Shape};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/images");

fn request(bytes: Vec<u8>, media_type: &str) -> ImportRequest {
    ImportRequest::new(bytes, media_type)
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(CORPUS).join(name)).expect("corpus file")
}

fn import(bytes: Vec<u8>) -> Result<Imported, ConvertError> {
    quire_image::convert(request(bytes, "image/png"))
}

#[test]
fn every_corpus_picture_converts_to_one_covering_image() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 12);
    for path in files {
        let bytes = std::fs::read(&path).expect("readable");
        let out = quire_image::convert(request(bytes.clone(), "image/png"))
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let doc = &out.document;
        quire_sdk::validate::check(doc, out.assets.iter().map(|a| a.name.as_str()))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(doc.pages.len(), 1);
        let page = &doc.pages[0];
        let [Shape::Image(img)] = &page.shapes[..] else {
            panic!("{}: one image shape, got {:?}", path.display(), page.shapes)
        };
        assert_eq!(
            (img.frame.x, img.frame.y, img.frame.w, img.frame.h),
            (0.0, 0.0, page.width, page.height),
            "{}: the picture covers the page",
            path.display()
        );
        assert_eq!(out.assets.len(), 1);
        assert_eq!(out.assets[0].name, img.asset);
        assert_eq!(
            out.assets[0].bytes, bytes,
            "the original bytes, not re-encoded"
        );
        let jpeg = path.extension().is_some_and(|e| e == "jpg");
        assert_eq!(
            out.assets[0].media_type,
            if jpeg { "image/jpeg" } else { "image/png" }
        );
        assert!(
            out.warnings.is_empty(),
            "{}: {:?}",
            path.display(),
            out.warnings
        );
    }
}

fn page_size(name: &str) -> (f64, f64) {
    let out = import(corpus(name)).expect("converts");
    let p = &out.document.pages[0];
    (
        (p.width * 100.0).round() / 100.0,
        (p.height * 100.0).round() / 100.0,
    )
}

#[test]
fn page_sizes_follow_the_declared_or_recognised_resolution() {
    // SOURCES.md: 2550 x 3300, a 300-dpi Letter scan; neither file declares its density.
    assert_eq!(page_size("form-cms1500-claim.png"), (612.0, 792.0));
    assert_eq!(page_size("scan-linn-brochure.png"), (612.0, 792.0));
    // pHYs of 5669 px/m = 144 dpi: 1412 x 964 and 1362 x 1038 px.
    assert_eq!(page_size("form-vaccination-card.png"), (706.0, 482.0));
    assert_eq!(page_size("form-employment-application.png"), (681.0, 519.0));
    // pHYs of 787 px/m (20 dpi) is a placeholder: 885 x 1146 px at 72 dpi.
    assert_eq!(
        page_size("form-verification-of-employment.png"),
        (885.0, 1146.0)
    );
    // 4032 x 3024 photo, EXIF orientation 6 and 72 dpi: upright, pixels as points.
    assert_eq!(page_size("form-patient-intake-photo.jpg"), (3024.0, 4032.0));
    // 640 x 682 at the 200 dpi of its EXIF block.
    assert_eq!(page_size("photo-cmyk.jpg"), (230.4, 245.52));
    assert_eq!(page_size("pngsuite-basn0g01-1bit-gray.png"), (32.0, 32.0));
}

// --- hand-made PNGs ---------------------------------------------------------------------

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
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

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

/// A zlib stream of `data` in one stored (uncompressed) block.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut z = vec![0x78, 0x01, 0x01];
    let len = data.len() as u16;
    z.extend_from_slice(&len.to_le_bytes());
    z.extend_from_slice(&(!len).to_le_bytes());
    z.extend_from_slice(data);
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    z
}

fn png(width: u32, height: u32, depth: u8, color: u8, idat: &[u8]) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[depth, color, 0, 0, 0]);
    chunk(&mut b, b"IHDR", &ihdr);
    chunk(&mut b, b"IDAT", idat);
    chunk(&mut b, b"IEND", &[]);
    b
}

#[test]
fn a_hand_made_png_converts() {
    // 2 x 2 grey, filter byte 0 per row.
    let ok = png(2, 2, 8, 0, &zlib_stored(&[0, 10, 20, 0, 30, 40]));
    let out = import(ok).expect("a valid tiny PNG converts");
    assert_eq!(out.document.pages[0].width, 2.0);
}

#[test]
fn decompression_bombs_are_too_large() {
    // 100 000 x 100 000 declared, a few bytes of zlib.
    let bomb = png(100_000, 100_000, 8, 6, &zlib_stored(&[0; 64]));
    assert!(bomb.len() < 200);
    let e = import(bomb).unwrap_err();
    assert!(
        matches!(&e, ConvertError::TooLarge(m) if m.contains("100000 x 100000 pixels")),
        "{e:?}"
    );
    // Within the side limit, but 16-bit RGBA: 2 GB of pixels.
    let wide = png(16_000, 16_000, 16, 6, &zlib_stored(&[0; 64]));
    let e = import(wide).unwrap_err();
    assert!(
        matches!(&e, ConvertError::TooLarge(m) if m.contains("16000 x 16000") && m.contains("MiB")),
        "{e:?}"
    );
}

#[test]
fn truncated_and_corrupt_files_are_damaged() {
    let full = corpus("form-vaccination-card.png");
    for cut in [40, full.len() / 2, full.len() - 20] {
        let e = import(full[..cut].to_vec()).unwrap_err();
        assert!(matches!(e, ConvertError::Damaged(_)), "cut at {cut}: {e:?}");
    }
    let mut corrupt = full.clone();
    let mid = corrupt.len() / 2;
    corrupt[mid] ^= 0xFF;
    assert!(matches!(import(corrupt), Err(ConvertError::Damaged(_))));
    // The 2 x 2 PNG with its pixel rows cut short.
    let short = png(2, 2, 8, 0, &zlib_stored(&[0, 10]));
    assert!(matches!(import(short), Err(ConvertError::Damaged(_))));

    let jpeg = corpus("photo-cmyk.jpg");
    for cut in [4, 300, jpeg.len() / 2] {
        let e = import(jpeg[..cut].to_vec()).unwrap_err();
        assert!(
            matches!(&e, ConvertError::Damaged(m) if m.contains("JPEG")),
            "{e:?}"
        );
    }
}

#[test]
fn other_formats_are_unsupported() {
    let gif = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
    let e = import(gif.to_vec()).unwrap_err();
    assert!(
        matches!(&e, ConvertError::Unsupported(m) if m.contains("GIF")),
        "{e:?}"
    );
    assert!(matches!(
        import(Vec::new()),
        Err(ConvertError::Unsupported(_))
    ));
    assert!(matches!(
        import(b"%PDF-1.7\n".to_vec()),
        Err(ConvertError::Unsupported(m)) if m.contains("PDF")
    ));
}

#[test]
fn oversized_input_is_too_large() {
    let big = vec![0u8; quire_image::MAX_INPUT + 1];
    assert!(matches!(import(big), Err(ConvertError::TooLarge(_))));
}
