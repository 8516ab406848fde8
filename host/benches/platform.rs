//! The converter platform's costs, as ratios measured in one process (these machines are
//! noisy, absolute numbers are not comparable across runs):
//! - the Markdown importer natively vs inside the sandbox, on a 1-page and a 50-page input;
//! - the fixed cost of a fresh pooled instance;
//! - whole conversions (Markdown -> model -> PDF) per second through `quire convert`'s path.
//!
//! Run with `make bench` (it builds the plugins first).

use std::time::{Duration, Instant};

mod common;

use common::median;
use quire_sdk::ImportRequest;

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

fn native(text: &str) -> String {
    let out = quire_markdown::convert(ImportRequest {
        bytes: text.as_bytes().to_vec(),
        media_type: "text/markdown".into(),
        ..Default::default()
    })
    .unwrap();
    // The guest serialises the model too: the same work on both sides.
    serde_json::to_string(&out.document).unwrap()
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plugins = common::plugins(&rt, dir.path());
    println!(
        "cores: {}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(0)
    );

    for pages in [1usize, 50] {
        let text = markdown(pages);
        let native_model = native(&text);
        let (sandbox_model, stats) = plugins
            .import_in_sandbox("markdown", text.clone().into_bytes(), "text/markdown")
            .unwrap();
        assert_eq!(
            native_model, sandbox_model,
            "native and sandboxed runs must agree"
        );
        let doc: quire_sdk::Document = serde_json::from_str(&sandbox_model).unwrap();
        let runs = if pages == 1 { 200 } else { 15 };
        let n = median(runs, || {
            std::hint::black_box(native(&text));
        });
        let s = median(runs, || {
            std::hint::black_box(
                plugins
                    .import_in_sandbox("markdown", text.clone().into_bytes(), "text/markdown")
                    .unwrap(),
            );
        });
        println!(
            "markdown import, {} page(s) ({} bytes): native {:.3} ms, sandbox {:.3} ms, sandbox/native {:.2}x (fuel {}, peak memory {:.1} MiB)",
            doc.pages.len(),
            text.len(),
            n.as_secs_f64() * 1e3,
            s.as_secs_f64() * 1e3,
            s.as_secs_f64() / n.as_secs_f64(),
            stats.fuel_used,
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
