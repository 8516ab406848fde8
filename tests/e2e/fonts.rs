//! The font library as operators and clients see it: `quire fonts list` and `quire fonts
//! which` on the command line (no server, no database), and the `fonts` member of GET
//! /api/v1, which must say the same and name no file.

use std::process::Command;

use serde_json::Value;

use crate::server::*;

const LIBERATION_MONO: &str = "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf";

/// `quire <args>` with this server's settings and the font variables `env` gives (the ones
/// it does not give are unset, so the test's own environment does not leak in).
fn quire(s: &Server, env: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = s.configure(Command::new(env!("CARGO_BIN_EXE_quire")));
    cmd.env_remove("QUIRE_FONTS")
        .env_remove("QUIRE_FONTS_DEFAULTS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.args(args).output().unwrap();
    assert!(
        out.status.success(),
        "quire {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn quire_json(s: &Server, env: &[(&str, &str)], args: &[&str]) -> Value {
    let out = quire(s, env, args);
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

fn family<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["families"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == name)
        .unwrap_or_else(|| panic!("{name} is not listed: {list:#}"))
}

/// The default set, as `make fonts` installs it (make test runs it).
#[test]
fn the_default_library_covers_every_script_of_the_fallback_table() {
    let s = Server::stopped(None);
    let list = quire_json(&s, &[], &["fonts", "list", "--json"]);

    let sans = family(&list, "Liberation Sans");
    let scripts = strings(&sans["scripts"]);
    for script in ["Latn", "Grek", "Cyrl"] {
        assert!(scripts.contains(&script), "Liberation Sans: {scripts:?}");
    }
    assert_eq!(
        strings(&sans["styles"]),
        ["Regular", "Bold", "Italic", "Bold Italic"]
    );
    assert_eq!(strings(&sans["from"]), ["default"]);
    let files = sans["files"].as_array().unwrap();
    assert_eq!(files.len(), 4, "{sans:#}");
    assert!(files.iter().all(|f| {
        f["path"]
            .as_str()
            .unwrap()
            .starts_with("/usr/share/fonts/truetype/liberation2/")
            && f["index"] == 0
            && f["from"] == "default"
    }));

    // The CJK collections: a face of a .ttc is named by its index.
    let cjk: Vec<&Value> = list["families"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["family"].as_str().unwrap().starts_with("Noto Sans CJK"))
        .collect();
    assert!(
        cjk.iter().any(|f| strings(&f["scripts"]).contains(&"Hani")),
        "no Noto Sans CJK family covers Hani: {cjk:#?}"
    );
    let jp = family(&list, "Noto Sans CJK JP");
    assert!(jp["files"].as_array().unwrap().iter().any(|f| {
        f["path"]
            .as_str()
            .unwrap()
            .ends_with("NotoSansCJK-Regular.ttc")
            && f["index"] == 0
    }));

    assert_eq!(strings(&list["missing"]), Vec::<&str>::new(), "{list:#}");
    assert!(list["faces"].as_u64().unwrap() > 200, "{}", list["faces"]);
    let digest = list["digest"].as_str().unwrap();
    assert!(
        digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()),
        "{digest}"
    );
    assert!(list["skipped"].is_array());

    // The text form says the same.
    let text = quire(&s, &[], &["fonts", "list"]);
    assert!(text.contains("Liberation Sans"), "{text}");
    assert!(text.contains(&format!("digest   {digest}")), "{text}");
    assert!(text.contains("missing  none"), "{text}");
    assert!(text.contains("NotoSansCJK-Regular.ttc#0"), "{text}");

    // Which face draws what: Latin stays in the standard PDF font, the rest comes from the
    // library, Japanese Han in the JP face when the lang says so.
    let which = quire_json(
        &s,
        &[],
        &["fonts", "which", "Aж中", "--lang", "ja", "--json"],
    );
    let chars = which["characters"].as_array().unwrap();
    assert_eq!(chars.len(), 3, "{which:#}");
    assert_eq!(chars[0]["standard"], "Helvetica", "{which:#}");
    assert!(chars[0]["face"].is_null());
    assert_eq!(chars[1]["code"], "U+0436");
    assert_eq!(chars[1]["script"], "Cyrl");
    assert!(chars[1]["standard"].is_null());
    assert_eq!(chars[1]["face"]["family"], "Liberation Sans", "{which:#}");
    assert_eq!(chars[2]["face"]["family"], "Noto Sans CJK JP", "{which:#}");
    let zh = quire_json(
        &s,
        &[],
        &[
            "fonts", "which", "中", "--lang", "zh-TW", "--serif", "--bold", "--json",
        ],
    );
    let face = &zh["characters"][0]["face"];
    assert_eq!(face["family"], "Noto Serif CJK TC", "{zh:#}");
    assert_eq!(face["style"], "Bold", "{zh:#}");
}

/// QUIRE_FONTS alone: the list and the API hold that one font and say what is missing.
#[test]
fn quire_fonts_alone_is_what_the_cli_and_the_api_show() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("only-mono.ttf");
    std::fs::copy(LIBERATION_MONO, &copy)
        .unwrap_or_else(|e| panic!("{LIBERATION_MONO}: {e} (run `make fonts`)"));
    let roots = dir.path().to_str().unwrap();
    let env = [("QUIRE_FONTS", roots), ("QUIRE_FONTS_DEFAULTS", "false")];

    let mut s = Server::stopped(None);
    let list = quire_json(&s, &env, &["fonts", "list", "--json"]);
    let names: Vec<&str> = list["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["family"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Liberation Mono"], "{list:#}");
    let mono = &list["families"][0];
    assert_eq!(strings(&mono["styles"]), ["Regular"]);
    assert_eq!(strings(&mono["from"]), ["QUIRE_FONTS"]);
    assert_eq!(mono["files"][0]["path"], copy.to_str().unwrap());
    assert_eq!(mono["files"][0]["index"], 0);
    assert_eq!(list["faces"], 1);
    let scripts = strings(&mono["scripts"]);
    assert!(
        scripts.contains(&"Latn") && scripts.contains(&"Cyrl"),
        "{scripts:?}"
    );
    let missing = strings(&list["missing"]);
    for script in ["Hani", "Arab", "Deva", "Hang"] {
        assert!(
            missing.contains(&script),
            "{script} not missing: {missing:?}"
        );
    }
    assert!(!missing.contains(&"Latn"), "{missing:?}");
    // No default directory was read, so none was left out either.
    assert_eq!(list["skipped"], Value::Array(vec![]), "{list:#}");
    let default_digest = quire_json(&s, &[], &["fonts", "list", "--json"])["digest"].clone();
    assert_ne!(list["digest"], default_digest);

    // `which`: Cyrillic falls to the one face there is; Han has none.
    let which = quire_json(&s, &env, &["fonts", "which", "ж中", "--json"]);
    let face = &which["characters"][0]["face"];
    assert_eq!(face["family"], "Liberation Mono", "{which:#}");
    assert_eq!(face["from"], "QUIRE_FONTS");
    assert_eq!(face["path"], copy.to_str().unwrap());
    assert!(which["characters"][1]["face"].is_null(), "{which:#}");
    assert!(which["characters"][1]["standard"].is_null(), "{which:#}");
    let text = quire(&s, &env, &["fonts", "which", "中"]);
    assert!(text.contains("none"), "{text}");

    // The server of the same settings says the same, without the file.
    s.spawn(&env);
    let a = s.account("pro");
    let r = s.get(&s.token(&a), "/api/v1");
    assert_eq!(r.status, 200, "{}", r.text());
    let fonts = &r.json()["fonts"];
    assert_eq!(fonts["digest"], list["digest"]);
    assert_eq!(
        fonts["families"],
        serde_json::json!([{
            "family": "Liberation Mono",
            "styles": ["Regular"],
            "scripts": mono["scripts"],
        }])
    );
    assert_eq!(fonts["missing"], list["missing"]);
    let body = r.text();
    assert!(!body.contains(roots), "{body}");
    assert!(!body.contains("only-mono"), "{body}");
}

/// GET /api/v1 names no file, though the library it describes is made of files.
#[test]
fn the_surface_names_no_font_file() {
    let s = shared();
    // The needle is right: the operator's view of the same library has these paths.
    let listing = s.cli(&["fonts", "list", "--json"]);
    assert!(listing.contains("/usr/share/fonts"), "{listing}");

    let t = s.token(&s.account("pro"));
    let first = s.get(&t, "/api/v1");
    assert_eq!(first.status, 200, "{}", first.text());
    let body = first.text();
    for needle in ["/usr/share", ".ttf", ".ttc", "liberation2"] {
        assert!(!body.contains(needle), "{needle} in {body}");
    }
    let fonts = &first.json()["fonts"];
    assert!(
        fonts["families"].as_array().unwrap().len() > 100,
        "{fonts:#}"
    );
    let listed: Value = serde_json::from_str(listing.trim()).unwrap();
    assert_eq!(fonts["digest"], listed["digest"]);
    // A second answer is the same (the summary is made once).
    assert_eq!(s.get(&t, "/api/v1").json()["fonts"], *fonts);
}
