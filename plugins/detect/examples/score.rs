//! Precision and recall of detection on the corpus's scanned forms, against the hand-made
//! truth in `tests/truth` (run with `--release` for representative times):
//!
//! ```text
//! cargo run -p quire-detect --release --example score [-- --verbose]
//! ```

#[path = "../tests/common/score.rs"]
#[allow(dead_code)]
mod score;

fn main() {
    let verbose = std::env::args().any(|a| a == "--verbose");
    let scores: Vec<score::Score> = score::CASES.iter().map(score::score).collect();
    print!("{}", score::table(&scores));
    if verbose {
        for s in &scores {
            println!("\n{}: missed", s.name);
            for t in &s.missed {
                let r = t.rect;
                println!(
                    "  {:<9} {:7.1} {:7.1} {:6.1} {:6.1}  {}",
                    t.kind, r.x, r.y, r.w, r.h, t.what
                );
            }
            println!("{}: extra", s.name);
            for f in &s.extra {
                let r = f.frame;
                println!(
                    "  {:<9} {:7.1} {:7.1} {:6.1} {:6.1}  {}",
                    f.field_type.as_str(),
                    r.x,
                    r.y,
                    r.w,
                    r.h,
                    f.label
                );
            }
        }
    }
}
