//! What the deployment files promise, checked offline: compose.yaml runs the image
//! `make image` builds, with settings this build knows (scripts/check-compose.py). The
//! image itself is built and run by `make test-image` (podman).

use std::process::Command;

use crate::common::{repo_root, run_tool};

#[test]
fn compose_names_this_image_and_only_known_settings() {
    let help = run_tool(Command::new(env!("CARGO_BIN_EXE_quire")).args(["serve", "--help"]));
    let dir = tempfile::tempdir().unwrap();
    let help_file = dir.path().join("serve-help.txt");
    std::fs::write(&help_file, help).unwrap();
    let root = repo_root();
    let check = |compose: &std::path::Path| {
        Command::new("python3")
            .arg(root.join("scripts/check-compose.py"))
            .arg(compose)
            .arg(root.join("deploy/garage.toml"))
            .arg(&help_file)
            .output()
            .unwrap()
    };
    let out = check(&root.join("compose.yaml"));
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The check can fail: a misspelt setting is caught.
    let broken = dir.path().join("compose.yaml");
    let text = std::fs::read_to_string(root.join("compose.yaml")).unwrap();
    std::fs::write(&broken, text.replace("QUIRE_BASE_URL:", "QUIRE_BASE_ULR:")).unwrap();
    let out = check(&broken);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("QUIRE_BASE_ULR is no setting"));
}
