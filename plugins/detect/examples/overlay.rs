//! Draws what the scan analysis sees on a picture, for tuning: the working image with its
//! ink darkened, tick boxes in magenta, text fields in green, multi-line fields in blue.
//!
//! ```text
//! cargo run -p quire-detect --release --example overlay -- scan.png /tmp/overlay.png
//! ```

use image::{Rgb, RgbImage};
use quire_detect::scan::blanks::Kind;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(input), Some(output)) = (args.next(), args.next()) else {
        eprintln!("usage: overlay <picture> <out.png>");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let start = std::time::Instant::now();
    let decoded = quire_detect::scan::raster::decode(&bytes, u64::MAX)
        .unwrap_or_else(|e| panic!("{input}: {}", e.0));
    let decoded_at = start.elapsed();
    let strokes = quire_detect::scan::strokes(&decoded.gray);
    let blanks = quire_detect::scan::blanks::find(&strokes);
    eprintln!(
        "{}x{} working pixels; decode {decoded_at:?}, all {:?}; {} blanks",
        decoded.gray.width,
        decoded.gray.height,
        start.elapsed(),
        blanks.len()
    );
    let g = &decoded.gray;
    let mut img = RgbImage::from_fn(g.width as u32, g.height as u32, |x, y| {
        let v = g.at(x as usize, y as usize) / 2;
        let v = if strokes.ink.is_dark(x as usize, y as usize) {
            v
        } else {
            v + 128
        };
        Rgb([v, v, v])
    });
    let (w, h) = (img.width() as i64, img.height() as i64);
    let mut put = |x: i64, y: i64, c: Rgb<u8>| {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            img.put_pixel(x as u32, y as u32, c);
        }
    };
    for b in &blanks {
        let c = match b.kind {
            Kind::Text => Rgb([0, 160, 0]),
            Kind::Multiline => Rgb([0, 0, 255]),
            Kind::Checkbox => Rgb([255, 0, 255]),
        };
        let (x0, y0, x1, y1) = (b.x0 as i64, b.y0 as i64, b.x1 as i64, b.y1 as i64);
        for x in x0..=x1 {
            put(x, y0, c);
            put(x, y1, c);
        }
        for y in y0..=y1 {
            put(x0, y, c);
            put(x1, y, c);
        }
    }
    img.save(&output)
        .unwrap_or_else(|e| panic!("{output}: {e}"));
}
