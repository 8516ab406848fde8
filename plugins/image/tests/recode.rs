//! Re-coding checked against the files jpegtran made the arithmetic ones from: the same
//! coefficients decode to the same pixels.

use quire_sdk::jpeg_recode::{is_arithmetic, recode};

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn pixels(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let image = image::load_from_memory_with_format(bytes, image::ImageFormat::Jpeg)
        .expect("the JPEG decodes");
    let rgb = image.to_rgb8();
    (rgb.width(), rgb.height(), rgb.into_raw())
}

/// Each arithmetic file (sequential 4:2:0, with restart markers, progressive colour and
/// grey, CMYK) re-codes to a Huffman JPEG whose pixels are the original's, exactly.
#[test]
fn arithmetic_jpegs_recode_to_the_same_pixels() {
    for (arithmetic, original) in [
        ("photo-420-arithmetic.jpg", "photo-420.jpg"),
        ("photo-420-arithmetic-restarts.jpg", "photo-420.jpg"),
        ("photo-420-arithmetic-progressive.jpg", "photo-420.jpg"),
        ("grey-arithmetic-progressive.jpg", "grey.jpg"),
        ("cmyk-arithmetic.jpg", "cmyk.jpg"),
    ] {
        let input = fixture(arithmetic);
        assert!(is_arithmetic(&input), "{arithmetic}");
        let output = recode(&input).unwrap_or_else(|e| panic!("{arithmetic}: {e}"));
        let frame = quire_sdk::image_probe::probe(&output)
            .and_then(|i| i.frame)
            .expect("a frame");
        assert_eq!(frame.marker, 0xC0, "{arithmetic}: baseline");
        assert_eq!(pixels(&output), pixels(&fixture(original)), "{arithmetic}");
    }
}

/// Cut short or with bytes changed, a file is refused or re-coded, never a panic.
#[test]
fn damaged_arithmetic_jpegs_do_not_panic() {
    let input = fixture("photo-420-arithmetic-progressive.jpg");
    for cut in [10, 100, 700, 5000, input.len() - 2] {
        let _ = recode(&input[..cut]);
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        let mut changed = input.clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed as usize) % changed.len();
            changed[at] = (seed >> 32) as u8;
        }
        let _ = recode(&changed);
    }
}

/// Imported, an arithmetic JPEG is kept re-coded (the asset is the Huffman file), and the
/// warning says so; checked independently with djpeg while this was written (the same
/// pixels from the arithmetic file, its original and the re-coded one).
#[test]
fn an_arithmetic_jpeg_imports_recoded_with_a_warning() {
    let request = quire_sdk::ImportRequest::new(fixture("photo-420-arithmetic.jpg"), "image/jpeg");
    let imported = quire_image::convert(request).expect("imported");
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.contains("arithmetic-coded")),
        "{:?}",
        imported.warnings
    );
    let asset = &imported.assets[0].bytes;
    assert!(!is_arithmetic(asset));
    assert_eq!(pixels(asset), pixels(&fixture("photo-420.jpg")));
}
