//! The fidelity harness's regressions: a small fixed subset of `fidelity/corpus`
//! (`fidelity/regression.txt`, formats whose references `make deps` installs: Chromium for
//! HTML, rsvg-convert for SVG, the PDF itself) scored as `make fidelity` scores it, without
//! OCR, against the scores reviewed when the subset was chosen
//! (`fidelity/regression-baseline.json`). A file that scores lower than its baseline by
//! more than the machines' noise fails, with the report kept to look at.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

use crate::common::{repo_root, run_tool};

/// Scores move by a few hundredths between machines (fonts' hinting, Chromium's version);
/// a real regression (text lost, a page gone) costs more.
const NOISE: f64 = 0.25;

#[test]
fn the_regression_subset_scores_no_lower_than_its_reviewed_baseline() {
    let root = repo_root();
    let out = root.join("target/golden-actual/fidelity");
    let scores = out.join("scores.json");
    run_tool(
        Command::new("python3")
            .current_dir(&root)
            .arg("scripts/fidelity/run.py")
            .args([
                "--corpus",
                "fidelity/corpus",
                "--files",
                "fidelity/regression.txt",
            ])
            .arg("--out")
            .arg(&out)
            .arg("--json")
            .arg(&scores)
            .arg("--no-ocr")
            .arg("--quire")
            .arg(env!("CARGO_BIN_EXE_quire"))
            .arg("--plugins")
            .arg(root.join("target/plugins")),
    );
    let measured: Value = serde_json::from_slice(&std::fs::read(&scores).unwrap()).unwrap();
    let baseline: BTreeMap<String, f64> = serde_json::from_slice(
        &std::fs::read(root.join("fidelity/regression-baseline.json")).unwrap(),
    )
    .unwrap();
    let listed = std::fs::read_to_string(root.join("fidelity/regression.txt")).unwrap();
    let wanted = listed
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let rows = measured["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        wanted,
        "every listed file is measured: {measured}"
    );
    let mut worse = Vec::new();
    for row in rows {
        let name = format!(
            "{}/{}",
            row["format"].as_str().unwrap(),
            row["file"].as_str().unwrap()
        );
        assert!(
            row["quire_error"].is_null(),
            "{name}: {}",
            row["quire_error"]
        );
        assert!(
            row["reference_error"].is_null(),
            "{name}: {}",
            row["reference_error"]
        );
        let score = row["score"].as_f64().unwrap();
        let was = *baseline
            .get(&name)
            .unwrap_or_else(|| panic!("{name} has no baseline"));
        if score < was - NOISE {
            worse.push(format!("{name}: {score:.2}, was {was:.2}"));
        }
    }
    assert!(
        worse.is_empty(),
        "scored lower than reviewed (report: {}): {worse:?}",
        out.join("report.html").display()
    );
}
