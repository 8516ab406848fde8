//! Times import + layout of generated flowcharts: `cargo run --release -p quire-mermaid
//! --example bench [NODES]` (default 50). The flowchart has labels, a few subgraphs, fan-out,
//! long links and back links, like a real one.

use std::time::Instant;

fn flowchart(n: usize) -> String {
    let mut s = String::from("flowchart TD\n");
    for i in 0..n {
        let shape = match i % 4 {
            0 => format!("n{i}[Step number {i}]"),
            1 => format!("n{i}{{Decision {i}?}}"),
            2 => format!("n{i}(Rounded {i})"),
            _ => format!("n{i}[(Store {i})]"),
        };
        s.push_str(&format!("    {shape}\n"));
    }
    for i in 1..n {
        let parent = (i - 1) / 2;
        if i % 3 == 0 {
            s.push_str(&format!("    n{parent} -->|case {i}| n{i}\n"));
        } else {
            s.push_str(&format!("    n{parent} --> n{i}\n"));
        }
    }
    for i in (7..n).step_by(7) {
        s.push_str(&format!("    n{i} -.-> n{}\n", i / 7));
        s.push_str(&format!("    n{} ---> n{i}\n", i / 5));
    }
    for g in 0..n / 15 {
        s.push_str(&format!("    subgraph G{g} [Group {g}]\n"));
        for k in 0..4 {
            s.push_str(&format!("        n{}\n", n - 1 - g * 4 - k));
        }
        s.push_str("    end\n");
    }
    s
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let text = flowchart(n);
    let request = || quire_sdk::ImportRequest {
        bytes: text.as_bytes().to_vec(),
        media_type: "text/vnd.mermaid".into(),
        ..Default::default()
    };
    // Warm up, then take the median of many runs.
    let out = match quire_mermaid::import_mermaid(request()) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("{e:?}");
            std::process::exit(1);
        }
    };
    let runs = if n <= 100 { 200 } else { 10 };
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let _ = quire_mermaid::import_mermaid(request());
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let shapes = out.document.shapes().count();
    println!(
        "{n} nodes ({shapes} shapes): median {:.3} ms, min {:.3} ms, max {:.3} ms over {runs} runs",
        times[runs / 2],
        times[0],
        times[runs - 1]
    );
}
