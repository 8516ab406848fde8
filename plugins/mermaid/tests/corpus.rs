//! Every corpus file and every flowchart example of the mermaid documentation imports.

mod common;

use common::*;
use quire_sdk::ConvertError;

#[test]
fn every_corpus_file_imports_or_is_refused_by_name() {
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let result = quire_mermaid::import_mermaid(request(&text));
        if name == "not-a-flowchart-sequence.mmd" {
            match result {
                Err(ConvertError::Refused { kind, detail }) => {
                    assert_eq!(kind, "sequenceDiagram");
                    assert_eq!(
                        detail,
                        "mermaid sequenceDiagram diagrams cannot be drawn as boxes and arrows; \
                         only flowchart and graph are supported"
                    );
                }
                other => panic!("{name}: {other:?}"),
            }
            continue;
        }
        let out = result.unwrap_or_else(|e| panic!("{name}: {e:?}"));
        valid(&out.document);
        assert!(!nodes(&out.document).is_empty(), "{name}");
        println!(
            "{name}: {} nodes, {} groups, {} connectors, page {:.0} x {:.0}, warnings {:?}",
            nodes(&out.document).len(),
            groups(&out.document).len(),
            connectors(&out.document).len(),
            out.document.pages[0].width,
            out.document.pages[0].height,
            out.warnings
        );
    }
}

#[test]
fn every_documentation_example_imports() {
    let examples = doc_examples();
    assert_eq!(examples.len(), 111);
    let mut failures = Vec::new();
    for (i, ex) in examples.iter().enumerate() {
        match quire_mermaid::import_mermaid(request(ex)) {
            Ok(out) => valid(&out.document),
            Err(e) => failures.push(format!("example {i}: {e:?}\n{ex}")),
        }
    }
    println!(
        "{} of {} examples import",
        examples.len() - failures.len(),
        examples.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
