//! The imported phone photo (EXIF orientation 6) exported through the PDF exporter and
//! rendered by poppler is upright: it matches the photo turned by the `image` crate's own
//! reading of its EXIF orientation, and not the photo turned the other way.

use std::path::PathBuf;
use std::process::Command;

use image::{DynamicImage, ImageDecoder, ImageReader, RgbImage};
use quire_sdk::{ExportRequest, ImportRequest};

const PHOTO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/corpus/images/form-patient-intake-photo.jpg"
);

fn mean_difference(a: &RgbImage, b: &RgbImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

#[test]
fn the_exported_photo_is_upright() {
    let bytes = std::fs::read(PHOTO).expect("corpus photo");
    let imported = quire_image::convert(ImportRequest {
        bytes: bytes.clone(),
        media_type: "image/jpeg".into(),
        images: Vec::new(),
        options: Vec::new(),
    })
    .expect("imports");
    let page = &imported.document.pages[0];
    assert!(
        page.width < page.height,
        "the photo is portrait once turned"
    );

    let pdf = quire_pdf::export_pdf(&ExportRequest {
        document: imported.document,
        assets: imported.assets,
        media_type: "application/pdf".into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    })
    .expect("exports");

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("quire-image-export");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pdf_path = dir.join("photo.pdf");
    std::fs::write(&pdf_path, &pdf.bytes).expect("written");
    let status = Command::new("pdftoppm")
        .args(["-r", "20", "-png", "-singlefile"])
        .arg(&pdf_path)
        .arg(dir.join("photo"))
        .status()
        .expect("pdftoppm runs (poppler-utils)");
    assert!(status.success());
    let rendered = image::open(dir.join("photo.png"))
        .expect("poppler's rendering")
        .to_rgb8();
    let (w, h) = rendered.dimensions();
    // 3024 x 4032 pt at 20 dpi.
    assert_eq!((w, h), (840, 1120));

    // The reference: the photo turned as the image crate reads its EXIF orientation.
    let mut decoder = ImageReader::new(std::io::Cursor::new(&bytes))
        .with_guessed_format()
        .expect("format")
        .into_decoder()
        .expect("decoder");
    let orientation = decoder.orientation().expect("orientation");
    let mut upright = DynamicImage::from_decoder(decoder).expect("decodes");
    upright.apply_orientation(orientation);
    let reference = |img: &DynamicImage| {
        img.resize_exact(w, h, image::imageops::FilterType::Triangle)
            .to_rgb8()
    };
    let good = mean_difference(&rendered, &reference(&upright));
    let flipped = mean_difference(&rendered, &reference(&upright.rotate180()));
    println!("mean difference upright {good:.1}, turned over {flipped:.1}");
    assert!(
        good < 12.0,
        "the rendering matches the upright photo ({good:.1})"
    );
    assert!(
        flipped > 2.0 * good,
        "and not the photo turned over ({flipped:.1})"
    );
}
