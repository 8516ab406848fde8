//! Times the conversion of one HTML file natively: `cargo run --release -p quire-html --example file -- page.html`.
fn main() {
    let path = std::env::args().nth(1).expect("an HTML file");
    let bytes = std::fs::read(&path).expect("readable");
    let t = std::time::Instant::now();
    let r = quire_sdk::ImportRequest {
        bytes,
        media_type: "text/html".into(),
        ..Default::default()
    };
    match quire_html::convert(r) {
        Ok(o) => println!(
            "{path}: {:?}, {} pages, {} shapes",
            t.elapsed(),
            o.document.pages.len(),
            o.document.shapes().count()
        ),
        Err(e) => println!("{path}: {:?}, refused: {e}", t.elapsed()),
    }
}
