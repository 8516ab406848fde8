//! Imports a mermaid file and prints the model JSON: `cargo run -p quire-mermaid --example
//! import -- FILE.mmd`. Handy for looking at layouts with any model renderer.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: import FILE.mmd");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let request = quire_sdk::ImportRequest {
        bytes,
        media_type: "text/vnd.mermaid".into(),
        ..Default::default()
    };
    match quire_mermaid::import_mermaid(request) {
        Ok(out) => {
            for w in &out.warnings {
                eprintln!("warning: {w}");
            }
            match serde_json::to_string_pretty(&out.document) {
                Ok(json) => println!("{json}"),
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
        }
        Err(e) => {
            eprintln!("{e:?}");
            std::process::exit(1);
        }
    }
}
