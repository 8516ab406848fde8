//! The converter platform's costs, as ratios measured in one process (these machines are
//! noisy, absolute numbers are not comparable across runs):
//! - each path the issue names (the Markdown, HTML and mermaid importers, the PDF exporter)
//!   natively vs inside the sandbox, as the plugin directory's converters run (the deadline
//!   alone) and as every other converter runs (with fuel), timed in turn so a slow spell
//!   hits every side;
//! - the fixed cost of a fresh pooled instance;
//! - whole conversions (Markdown -> model -> PDF) per second through `quire convert`'s path.
//!
//! Run with `make bench` (it builds the plugins first). `QUIRE_BENCH_ONLY=pdf` runs only the
//! paths whose name holds `pdf` (for a profile of one).

use std::time::{Duration, Instant};

mod common;

use common::{interleaved, median};
use quire_sdk::{ConvertError, ExportRequest, ImportRequest, Imported};

fn markdown(pages: usize) -> String {
    let mut s = String::from("# Benchmark document\n\n");
    for i in 0..pages * 9 {
        s.push_str(&format!(
            "## Section {i}\n\nThe *quick* brown fox jumps over the **lazy** dog, again and again, \
             with [a link](https://example.com/{i}) and `inline code` to measure.\n\n- one item\n- another item\n\n"
        ));
    }
    s
}

/// The model as JSON text, the way it crosses the sandbox's boundary.
fn model_json(imported: Result<Imported, ConvertError>) -> String {
    serde_json::to_string(&imported.unwrap().document).unwrap()
}

fn import_request(bytes: &[u8], media_type: &str) -> ImportRequest {
    ImportRequest {
        bytes: bytes.to_vec(),
        media_type: media_type.into(),
        ..Default::default()
    }
}

/// One path through one converter, natively and in the sandbox: both sides do the same
/// work, including the JSON the model crosses the boundary as.
struct Case {
    name: String,
    plugin: &'static str,
    input: Vec<u8>,
    media_type: &'static str,
    export: bool,
    native: fn(&[u8], &str) -> Vec<u8>,
}

impl Case {
    fn sandbox(&self, plugins: &quire::runtime::Plugins) -> (Vec<u8>, quire::runtime::CallStats) {
        if self.export {
            let model = String::from_utf8(self.input.clone()).unwrap();
            plugins
                .export_in_sandbox(self.plugin, model, self.media_type)
                .unwrap()
        } else {
            let (model, stats) = plugins
                .import_in_sandbox(self.plugin, self.input.clone(), self.media_type)
                .unwrap();
            (model.into_bytes(), stats)
        }
    }
}

fn cases() -> Vec<Case> {
    let corpus = quire_sdk::corpus_dir();
    let read = |path: &str| std::fs::read(corpus.join(path)).unwrap();
    let markdown_native: fn(&[u8], &str) -> Vec<u8> = |bytes, media_type| {
        model_json(quire_markdown::convert(import_request(bytes, media_type))).into_bytes()
    };
    let book = markdown(50).into_bytes();
    let book_model = markdown_native(&book, "text/markdown");
    vec![
        Case {
            name: "markdown import, 1 page".into(),
            plugin: "markdown",
            input: markdown(1).into_bytes(),
            media_type: "text/markdown",
            export: false,
            native: markdown_native,
        },
        Case {
            name: "markdown import, 50 pages".into(),
            plugin: "markdown",
            input: book,
            media_type: "text/markdown",
            export: false,
            native: markdown_native,
        },
        Case {
            name: "html import, wikipedia-new-zealand".into(),
            plugin: "html",
            input: read("html/readability-wikipedia-new-zealand.html"),
            media_type: "text/html",
            export: false,
            native: |bytes, media_type| {
                model_json(quire_html::convert(import_request(bytes, media_type))).into_bytes()
            },
        },
        Case {
            name: "mermaid import, flowchart-code-flow".into(),
            plugin: "mermaid",
            input: read("mermaid/flowchart-code-flow.mmd"),
            media_type: quire_mermaid::MEDIA_TYPE,
            export: false,
            native: |bytes, media_type| {
                model_json(quire_mermaid::import_mermaid(import_request(
                    bytes, media_type,
                )))
                .into_bytes()
            },
        },
        Case {
            name: "pdf export, the 50-page markdown".into(),
            plugin: "pdf",
            input: book_model,
            media_type: "application/pdf",
            export: true,
            native: |model, media_type| {
                let document = serde_json::from_slice(model).unwrap();
                let request = ExportRequest::new(document, vec![], media_type);
                quire_pdf::export_pdf(&request).unwrap().bytes
            },
        },
    ]
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    // The native side measures and draws with the font library the host gives components,
    // so both sides lay the same text out the same way.
    quire_fonts::install_default_library();
    let dir = tempfile::tempdir().unwrap();
    let plugins = common::plugins(&rt, &dir.path().join("built-in"), false);
    let metered = common::plugins(&rt, &dir.path().join("metered"), true);
    println!(
        "cores: {}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(0)
    );

    println!(
        "sandbox/native (goal <= 1.5x) compares the 10th-percentile time of each side over the runs;\n\
         'with fuel' is the same converter metered, as converters from outside the plugin directory run"
    );
    let only = std::env::var("QUIRE_BENCH_ONLY").unwrap_or_default();
    for case in cases().into_iter().filter(|c| c.name.contains(&only)) {
        let native_out = (case.native)(&case.input, case.media_type);
        let (sandbox_out, _) = case.sandbox(&plugins);
        let (metered_out, stats) = case.sandbox(&metered);
        assert!(
            native_out == sandbox_out && native_out == metered_out,
            "{}: native and sandboxed runs must agree",
            case.name
        );
        let once = Instant::now();
        (case.native)(&case.input, case.media_type);
        let runs = (Duration::from_secs(3).as_secs_f64() / once.elapsed().as_secs_f64() / 3.0)
            .clamp(10.0, 300.0) as usize;
        let times = interleaved(
            runs,
            &mut [
                &mut || {
                    std::hint::black_box((case.native)(&case.input, case.media_type));
                },
                &mut || {
                    std::hint::black_box(case.sandbox(&plugins));
                },
                &mut || {
                    std::hint::black_box(case.sandbox(&metered));
                },
            ],
        );
        let (n, s, m) = (times[0], times[1], times[2]);
        println!(
            "{} ({} bytes in): native {:.3} ms, sandbox {:.3} ms, sandbox/native {:.2}x; with fuel {:.2}x (fuel {}, peak memory {:.1} MiB)",
            case.name,
            case.input.len(),
            n.as_secs_f64() * 1e3,
            s.as_secs_f64() * 1e3,
            s.as_secs_f64() / n.as_secs_f64(),
            m.as_secs_f64() / n.as_secs_f64(),
            stats.fuel_used.unwrap_or(0),
            stats.peak_memory as f64 / 1048576.0
        );
    }

    let inst = median(2000, || {
        std::hint::black_box(plugins.instantiate_cost("markdown").unwrap());
    });
    println!(
        "fresh pooled instance (store + instantiate + drop): {:.1} us",
        inst.as_secs_f64() * 1e6
    );

    let text = markdown(1).into_bytes();
    let started = Instant::now();
    let mut done = 0u32;
    rt.block_on(async {
        while started.elapsed() < Duration::from_secs(3) {
            let imported = plugins
                .import(text.clone(), "text/markdown", vec![], vec![])
                .await
                .unwrap();
            let pdf = plugins
                .export(
                    &imported.value.document,
                    &imported.value.assets,
                    "pdf",
                    None,
                    None,
                )
                .await
                .unwrap();
            std::hint::black_box(pdf);
            done += 1;
        }
    });
    println!(
        "quire convert library path, 1-page Markdown -> PDF, one caller: {:.0} conversions/s",
        done as f64 / started.elapsed().as_secs_f64()
    );
}
