//! Broken, truncated and hostile input: a sentence, never a panic, in bounded time.

mod common;

use std::time::Instant;

use common::*;
use quire_sdk::ConvertError;

fn run(text: &[u8]) -> Result<(), ConvertError> {
    let request = quire_sdk::ImportRequest {
        bytes: text.to_vec(),
        media_type: "text/vnd.mermaid".into(),
        ..Default::default()
    };
    quire_mermaid::import_mermaid(request).map(|out| valid(&out.document))
}

#[test]
fn mutated_corpus_files_never_panic() {
    const PIECES: &[&str] = &[
        "[",
        "]",
        "(",
        ")",
        "{",
        "}",
        "-->",
        "---",
        "-.",
        "==",
        "~~~",
        "\"",
        "`",
        "|",
        "&",
        ":::",
        "@{",
        "}",
        "subgraph ",
        "end\n",
        "%%",
        "\n",
        ";",
        "#quot;",
        "<br>",
        "direction LR\n",
        "style ",
        "classDef ",
        "linkStyle 99 ",
        "click ",
        "o--o",
        "<-->",
        "x",
        "\u{0}",
        "日",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m.max(1) as u64) as usize
    };
    let mut outcomes = [0usize; 2];
    let started = Instant::now();
    for path in corpus_files() {
        let original: Vec<char> = std::fs::read_to_string(&path).unwrap().chars().collect();
        for _ in 0..60 {
            let mut text = original.clone();
            for _ in 0..1 + next(4) {
                let at = next(text.len() + 1);
                match next(3) {
                    0 => {
                        let end = (at + next(20)).min(text.len());
                        text.drain(at..end);
                    }
                    1 => {
                        let piece = PIECES[next(PIECES.len())];
                        for (k, c) in piece.chars().enumerate() {
                            text.insert(at + k, c);
                        }
                    }
                    _ => text.truncate(at),
                }
            }
            let s: String = text.into_iter().collect();
            outcomes[usize::from(run(s.as_bytes()).is_ok())] += 1;
        }
    }
    println!(
        "{} imported, {} refused, {:?}",
        outcomes[1],
        outcomes[0],
        started.elapsed()
    );
    assert!(outcomes[0] > 0 && outcomes[1] > 0);
}

#[test]
fn limits_and_odd_encodings() {
    assert!(
        matches!(run(b"flowchart TD\nA-->\xff\xfe"), Err(ConvertError::Damaged(m)) if m.contains("UTF-8"))
    );
    assert!(matches!(run(b""), Err(ConvertError::Damaged(_))));
    assert!(matches!(
        run(b"---\ntitle: only\n---\n"),
        Err(ConvertError::Damaged(_))
    ));
    assert!(run(b"\xef\xbb\xbfflowchart TD\r\nA-->B\r\n").is_ok());
    assert!(
        run(b"flowchart").is_ok(),
        "a flowchart with nothing in it is still a diagram"
    );

    let mut deep = String::from("flowchart TD\n");
    for i in 0..70 {
        deep.push_str(&format!("subgraph s{i}\n"));
    }
    deep.push_str("x\n");
    for _ in 0..70 {
        deep.push_str("end\n");
    }
    assert!(matches!(
        run(deep.as_bytes()),
        Err(ConvertError::TooLarge(_))
    ));

    let mut many = String::from("flowchart LR\n");
    for i in 0..6000 {
        many.push_str(&format!("n{i}\n"));
    }
    assert!(matches!(run(many.as_bytes()), Err(ConvertError::TooLarge(m)) if m.contains("nodes")));

    let huge = vec![b'a'; quire_mermaid::MAX_INPUT + 1];
    assert!(matches!(run(&huge), Err(ConvertError::TooLarge(_))));

    let long_label = format!("flowchart TD\nA[\"{}\"] --> B\n", "word ".repeat(20_000));
    let t = Instant::now();
    assert!(run(long_label.as_bytes()).is_ok());
    assert!(t.elapsed().as_secs() < 20);

    let long_link = "flowchart TD\nA -----------------------------------------------> B\n";
    assert!(run(long_link.as_bytes()).is_ok());
}

#[test]
fn wide_and_dense_graphs_stay_bounded() {
    // 4,000 links among 2,000 nodes, many of them long and backwards.
    let mut text = String::from("flowchart LR\n");
    let mut seed = 7u64;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    for i in 1..2000 {
        text.push_str(&format!("n{} --> n{i}\n", next(i)));
    }
    for _ in 0..2000 {
        text.push_str(&format!("n{} -->|x| n{}\n", next(2000), next(2000)));
    }
    let t = Instant::now();
    let out = quire_mermaid::import_mermaid(request(&text)).unwrap();
    valid(&out.document);
    println!("2000 nodes, 4000 links: {:?}", t.elapsed());
    assert!(t.elapsed().as_secs() < 60);
}

/// Every input the fuzzer (fuzz/, `make fuzz`) found a fault with imports to a model the
/// host accepts or is refused with a sentence.
#[test]
fn fuzz_findings_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let _ = run(&std::fs::read(&path).unwrap());
        seen += 1;
    }
    assert!(seen > 0, "no findings in {}", dir.display());
}

#[test]
fn a_repeated_subgraph_id_adds_to_the_first() {
    let doc = import(
        "flowchart LR\n  subgraph B1\n    a --> b\n  end\n  subgraph B1 [Second]\n    direction BT\n    c\n  end\n  subgraph A\n    subgraph A\n      d\n    end\n  end\n",
    )
    .document;
    valid(&doc);
    let groups = groups(&doc);
    assert_eq!(groups.len(), 2, "{groups:?}");
    let parents = parents(&doc);
    for node in ["a", "b", "c"] {
        assert_eq!(parents[node].as_deref(), Some("B1"), "{node}: {parents:?}");
    }
    assert_eq!(parents["d"].as_deref(), Some("A"));
}
