//! Paths and tools shared by the end-to-end tests (and by the host's runtime tests, which
//! include this file).

use std::path::{Path, PathBuf};

/// `target/` (where the test binary's `quire` lives).
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_quire"))
        .parent()
        .and_then(Path::parent)
        .expect("quire binary inside target/<profile>/")
        .to_path_buf()
}

/// The shipped plugins, as `make plugins` copies them.
pub fn plugins_dir() -> PathBuf {
    target_dir().join("plugins")
}

/// A component built by `make plugins`, including the test-only ones.
pub fn component(name: &str) -> Vec<u8> {
    // Libraries are named with underscores, binaries (the WASI command) with hyphens.
    let dir = target_dir().join("wasm32-wasip2/plugin");
    let lib = dir.join(format!("quire_{}.wasm", name.replace('-', "_")));
    let path = if lib.exists() {
        lib
    } else {
        dir.join(format!("quire-{name}.wasm"))
    };
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run `make plugins` first", path.display()))
}

/// `name@version` of a shipped converter, its version read from its manifest (so a version
/// bump does not need the tests edited).
pub fn shipped(name: &str) -> String {
    let manifest =
        std::fs::read_to_string(repo_root().join("plugins").join(name).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("reading {name}'s manifest: {e}"));
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{name}'s manifest has no version"));
    format!("{name}@{version}")
}

/// The repository's root (the test binary belongs to the host package, one level down).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ sits in the repository")
        .to_path_buf()
}

/// A file of the shared corpus (`../shared/corpus` beside the repository).
pub fn corpus(rel: &str) -> PathBuf {
    let path = repo_root().join("../shared/corpus").join(rel);
    assert!(path.exists(), "corpus file missing: {}", path.display());
    path
}

/// Runs a command-line tool, failing the test with its output if it fails.
pub fn run_tool(cmd: &mut std::process::Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e} (is it installed? `make deps`)"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A self-signed certificate for 127.0.0.1 (its own CA), as PEM files in `dir`.
pub fn make_certificate(
    dir: &std::path::Path,
    name: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let (cert, key) = (
        dir.join(format!("{name}.crt")),
        dir.join(format!("{name}.key")),
    );
    run_tool(
        std::process::Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            ])
            .args(["-subj", &format!("/CN=quire test {name}")])
            .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert),
    );
    (cert, key)
}

/// A private CA and a certificate for 127.0.0.1 it signed, as PEM files in `dir`:
/// (CA certificate, certificate, key). Strict verifiers (rustls) refuse a self-signed CA
/// certificate presented as a server's own, as a real private relay would not do.
pub fn make_ca_and_certificate(
    dir: &std::path::Path,
    name: &str,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let (ca, ca_key) = make_certificate(dir, &format!("{name}-ca"));
    let (cert, key) = (
        dir.join(format!("{name}.crt")),
        dir.join(format!("{name}.key")),
    );
    run_tool(
        std::process::Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            ])
            .arg("-CA")
            .arg(&ca)
            .arg("-CAkey")
            .arg(&ca_key)
            .args(["-subj", &format!("/CN=quire test {name}")])
            .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
            .args(["-addext", "basicConstraints=critical,CA:FALSE"])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert),
    );
    (ca, cert, key)
}
