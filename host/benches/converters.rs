//! Quire's converters against the tools people use today, on the same inputs, in one run:
//! - Markdown -> PDF of a 10-page document: Quire vs pandoc (WeasyPrint as its engine) and
//!   vs WeasyPrint alone on pandoc's HTML (goal: Quire at least 20x faster than the fastest);
//! - one PDF page -> PNG at 110 dpi: Quire vs pdftoppm (goal: within 2x);
//! - mermaid -> SVG of a 50-node flowchart: Quire vs mermaid-cli in Debian's Chromium
//!   (`QUIRE_MMDC`, set up by scripts/bench.sh; goal: 100x faster and at most 5 ms).
//!
//! Quire is timed through the library path `quire convert` uses (sandboxed converters);
//! the peers as the processes they are. Peers missing from the machine are reported, not
//! skipped silently. Run with `make bench`.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

mod common;

use common::median;

fn peer(runs: usize, cmd: &mut Command) -> Option<Duration> {
    let probe = cmd.output().ok()?;
    if !probe.status.success() {
        eprintln!(
            "  {:?} failed: {}",
            cmd.get_program(),
            String::from_utf8_lossy(&probe.stderr)
        );
        return None;
    }
    Some(median(runs, || {
        cmd.output().unwrap();
    }))
}

fn ten_pages() -> String {
    let mut s = String::from("# A ten-page report\n\n");
    for i in 0..34 {
        s.push_str(&format!(
            "## Part {i}\n\nThe *quick* brown fox jumps over the **lazy** dog while the report explains, \
             at some length and with [links](https://example.com/{i}), why this paragraph is here and what \
             the next one will say about it.\n\n- first point\n- second point with `code`\n\n\
             | a | b |\n|---|--:|\n| one | 1 |\n| two | 2 |\n\n"
        ));
    }
    s
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plugins = common::plugins(&rt, dir.path(), false);

    // Markdown -> PDF.
    let md = ten_pages();
    let md_path = dir.path().join("report.md");
    std::fs::write(&md_path, &md).unwrap();
    let convert = || {
        rt.block_on(async {
            let doc = plugins
                .import(md.clone().into_bytes(), "text/markdown", vec![], vec![])
                .await
                .unwrap();
            let pdf = plugins
                .export(&doc.value.document, &doc.value.assets, "pdf", None, None)
                .await
                .unwrap();
            (doc.value.document.pages.len(), pdf.value.bytes.len())
        })
    };
    let (pages, _) = convert();
    let quire = median(15, || {
        std::hint::black_box(convert());
    });
    println!("Markdown -> PDF, {pages} pages: Quire {:.1} ms", ms(quire));
    let html_path = dir.path().join("report.html");
    let _ = Command::new("pandoc")
        .arg(&md_path)
        .args(["-s", "-o"])
        .arg(&html_path)
        .output();
    let peers = [
        (
            "pandoc --pdf-engine=weasyprint",
            peer(
                3,
                Command::new("pandoc")
                    .arg(&md_path)
                    .args(["--pdf-engine=weasyprint", "-o"])
                    .arg(dir.path().join("p.pdf")),
            ),
        ),
        (
            "weasyprint (HTML from pandoc)",
            peer(
                3,
                Command::new("weasyprint")
                    .arg(&html_path)
                    .arg(dir.path().join("w.pdf")),
            ),
        ),
    ];
    let mut fastest: Option<Duration> = None;
    for (name, t) in &peers {
        match t {
            Some(t) => {
                println!(
                    "  {name}: {:.1} ms, {:.1}x Quire's time",
                    ms(*t),
                    t.as_secs_f64() / quire.as_secs_f64()
                );
                fastest = Some(fastest.map_or(*t, |f: Duration| f.min(*t)));
            }
            None => println!("  {name}: not available on this machine"),
        }
    }
    if let Some(f) = fastest {
        println!(
            "  Quire vs the fastest peer: {:.1}x faster (goal: 20x)",
            f.as_secs_f64() / quire.as_secs_f64()
        );
    }

    // One PDF page -> PNG.
    let pdf_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/pdf/pdfjs-bug1883609-acroform-mixed.pdf");
    let pdf = std::fs::read(&pdf_path).unwrap();
    let imported = rt
        .block_on(plugins.import(pdf, "application/pdf", vec![], vec![]))
        .expect("the PDF imports");
    let render = || {
        rt.block_on(plugins.export(
            &imported.value.document,
            &imported.value.assets,
            "png",
            Some(1),
            Some(110),
        ))
        .unwrap()
    };
    render();
    let quire = median(9, || {
        std::hint::black_box(render());
    });
    println!(
        "PDF page -> PNG at 110 dpi ({}): Quire {:.1} ms",
        pdf_path.file_name().unwrap().to_string_lossy(),
        ms(quire)
    );
    match peer(
        9,
        Command::new("pdftoppm")
            .args(["-r", "110", "-f", "1", "-l", "1", "-png"])
            .arg(&pdf_path)
            .arg(dir.path().join("page")),
    ) {
        Some(t) => println!(
            "  pdftoppm: {:.1} ms; Quire takes {:.2}x pdftoppm's time (goal: at most 2x)",
            ms(t),
            quire.as_secs_f64() / t.as_secs_f64()
        ),
        None => println!("  pdftoppm: not available on this machine"),
    }

    // mermaid -> SVG.
    let mut flow = String::from("flowchart TD\n");
    for i in 0..50 {
        flow.push_str(&format!(
            "  n{i}[Step {i}] --> n{}[Step {}]\n",
            (i * 7 + 3) % 50,
            (i * 7 + 3) % 50
        ));
    }
    let mmd_path = dir.path().join("fifty.mmd");
    std::fs::write(&mmd_path, &flow).unwrap();
    let to_svg = || {
        rt.block_on(async {
            let doc = plugins
                .import(
                    flow.clone().into_bytes(),
                    "text/vnd.mermaid",
                    vec![],
                    vec![],
                )
                .await
                .unwrap();
            plugins
                .export(&doc.value.document, &doc.value.assets, "svg", Some(1), None)
                .await
                .unwrap()
        })
    };
    to_svg();
    let quire = median(31, || {
        std::hint::black_box(to_svg());
    });
    println!(
        "mermaid -> SVG, 50-node flowchart: Quire {:.2} ms (goal: at most 5 ms)",
        ms(quire)
    );
    match std::env::var("QUIRE_MMDC") {
        Ok(mmdc) => {
            let config = dir.path().join("puppeteer.json");
            std::fs::write(&config, r#"{"executablePath": "/usr/bin/chromium", "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]}"#).unwrap();
            let mut cmd = Command::new(mmdc);
            cmd.arg("-i")
                .arg(&mmd_path)
                .arg("-o")
                .arg(dir.path().join("fifty.svg"))
                .arg("-p")
                .arg(&config)
                .arg("-q");
            match peer(3, &mut cmd) {
                Some(t) => println!(
                    "  mermaid-cli: {:.0} ms; Quire is {:.0}x faster (goal: 100x)",
                    ms(t),
                    t.as_secs_f64() / quire.as_secs_f64()
                ),
                None => println!("  mermaid-cli: failed on this machine"),
            }
        }
        Err(_) => println!("  mermaid-cli: QUIRE_MMDC not set (scripts/bench.sh installs it)"),
    }
}
