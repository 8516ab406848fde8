//! Damaged input never panics the importer, never hangs it, and never yields a model the
//! host would refuse: bytes of real files changed at random (a fixed seed, so a failure
//! repeats) are imported or refused with a sentence.

mod import_support;

use std::time::{Duration, Instant};

use import_support::*;
use quire_sdk::*;

#[test]
fn corrupted_files_import_or_are_refused() {
    let files = [
        format!("{FIXTURES}/import-report.pdf"),
        corpus_path("pypdf-sf424-page2-orphan-widgets.pdf"),
        corpus_path("pdfjs-issue9972-aes128-owner-only-acroform.pdf"),
    ];
    // xorshift: small, deterministic, good enough to pick bytes.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut imported, mut refused) = (0, 0);
    for file in &files {
        let original = read(file);
        for round in 0..30 {
            let mut bytes = original.clone();
            for _ in 0..1 + next() % 24 {
                let at = (next() as usize) % bytes.len();
                bytes[at] = next() as u8;
            }
            let started = Instant::now();
            let result = import(bytes, &[("unlock", "1")]);
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{file} round {round} took {:?}",
                started.elapsed()
            );
            match result {
                Ok(out) => {
                    let names: Vec<&str> = out.assets.iter().map(|a| a.name.as_str()).collect();
                    if let Err(e) = validate::check(&out.document, names) {
                        panic!("{file} round {round}: the model is invalid: {e}");
                    }
                    imported += 1;
                }
                // A changed encryption dictionary no longer opens with the empty password.
                Err(ConvertError::Damaged(s))
                | Err(ConvertError::Unsupported(s))
                | Err(ConvertError::PasswordRequired(s)) => {
                    assert!(s.len() > 20, "{s}");
                    refused += 1;
                }
                Err(e) => panic!("{file} round {round}: unexpected {e:?}"),
            }
        }
    }
    eprintln!("{imported} imported, {refused} refused");
    assert_eq!(imported + refused, 90);
}
