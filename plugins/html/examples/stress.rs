//! Hostile 16 MiB inputs timed natively: `cargo run --release -p quire-html --example stress`.
fn fill(prefix: &str, unit: &str) -> String {
    let mut s = String::from(prefix);
    let mut i = 0u64;
    while s.len() + unit.len() + 16 < quire_html::MAX_INPUT {
        s.push_str(&unit.replace("{N}", &i.to_string()));
        i += 1;
    }
    s
}

fn main() {
    let cases = [
        ("nested div", fill("", "<div>")),
        ("p at depth 127", fill(&"<div>".repeat(127), "<p>x</p>")),
        ("b with ids", fill("", "<div><b id={N}>x</div>")),
        ("anchors", fill("", "<a href=#{N}>x")),
        ("nested tables", fill("", "<table><tr><td>")),
        ("nested lists", fill("", "<ul><li>")),
        (
            "paragraphs",
            fill("", "<p>Some words in a paragraph of text.</p>\n"),
        ),
        (
            "table cells",
            fill("<table>", "<tr><td>a</td><td>b</td><td>c</td></tr>"),
        ),
    ];
    for (name, html) in cases {
        let t = std::time::Instant::now();
        let r = quire_sdk::ImportRequest {
            bytes: html.into_bytes(),
            media_type: "text/html".into(),
            ..Default::default()
        };
        let out = quire_html::convert(r);
        match out {
            Ok(o) => println!(
                "{name}: {:?} pages {} warnings {:?}",
                t.elapsed(),
                o.document.pages.len(),
                o.warnings
                    .iter()
                    .map(|w| w.chars().take(60).collect::<String>())
                    .collect::<Vec<_>>()
            ),
            Err(e) => println!("{name}: {:?} error {e}", t.elapsed()),
        }
    }
}
