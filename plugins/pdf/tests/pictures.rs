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
    let mut doc = Document::new(Kind::Pdf);
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
