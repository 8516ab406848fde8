//! A converter that misbehaves on purpose, chosen by the bytes it is asked to import. The
//! host's tests feed it each behaviour and check that the sandbox contains it: a clear
//! error naming the limit or fault, and the host goes on serving.
//!
//! It implements the WIT bindings directly (not through `Converter`) so it can return
//! things the SDK would never produce, such as model text that is not JSON.

use quire_sdk::bindings::exports::quire::converter::{exporter, importer, kinds, meta};
use quire_sdk::bindings::quire::converter::types::{
    ConvertError, Document, Format, ImportResult, PluginInfo,
};

struct Hostile;

impl meta::Guest for Hostile {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "hostile".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format {
                media_type: "application/x-quire-hostile".into(),
                extension: "hostile".into(),
            }],
            exports: vec![],
            options: vec![],
        }
    }
}

fn model(text: &str) -> String {
    format!(
        r#"{{"model":"quire/1","kind":"pdf","pages":[{{"width":100,"height":100,"shapes":[{{"type":"text","id":"t","x":0,"y":0,"w":100,"h":20,"runs":[{{"text":{}}}]}}]}}]}}"#,
        quote(text)
    )
}

fn quote(s: &str) -> String {
    let escaped: String = s
        .chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c if (c as u32) < 0x20 => vec![' '],
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

fn ok(model: String) -> Result<ImportResult, ConvertError> {
    Ok(ImportResult {
        document: Document {
            model,
            assets: vec![],
        },
        warnings: vec![],
    })
}

impl importer::Guest for Hostile {
    fn import(request: importer::ImportRequest) -> Result<ImportResult, ConvertError> {
        let what = String::from_utf8_lossy(&request.bytes).trim().to_string();
        match what.as_str() {
            "loop" => {
                let mut n: u64 = 0;
                loop {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            }
            "grow" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "panic" => panic!("hostile plugin panicked on purpose"),
            "file" => match std::fs::read_to_string("/etc/passwd") {
                Ok(text) => ok(model(&format!("read the host file: {text}"))),
                Err(e) => Err(ConvertError::Damaged(format!("file access denied: {e}"))),
            },
            "socket" => match std::net::TcpStream::connect("127.0.0.1:80") {
                Ok(_) => ok(model("opened a socket to the host")),
                Err(e) => Err(ConvertError::Damaged(format!("network access denied: {e}"))),
            },
            "env" => {
                let vars: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
                if vars.is_empty() {
                    Err(ConvertError::Damaged("environment is empty".into()))
                } else {
                    ok(model(&format!("saw environment: {}", vars.join(","))))
                }
            }
            "slow" => {
                // Long enough that the host can swap versions while this call runs.
                let mut n: u64 = 0;
                for i in 0..400_000_000u64 {
                    n = std::hint::black_box(n.wrapping_add(i));
                }
                ok(model(&format!("slow call finished on {} ({n})", env!("CARGO_PKG_VERSION"))))
            }
            "sleep" => {
                // A WASI clock subscription and a blocking poll: the guest is parked in a host
                // call, where the epoch deadline (checked only in the guest's own code)
                // cannot reach it.
                std::thread::sleep(std::time::Duration::from_secs(600));
                ok(model("slept for ten minutes"))
            }
            "stdin" => {
                // A blocking read of stdin; the sandbox gives it none, so it ends at once.
                let mut input = Vec::new();
                match std::io::Read::read_to_end(&mut std::io::stdin(), &mut input) {
                    Ok(n) => ok(model(&format!("read {n} bytes of stdin"))),
                    Err(e) => Err(ConvertError::Damaged(format!("stdin refused: {e}"))),
                }
            }
            "garbage" => ok("{this is not json".into()),
            "dangling" => ok(r#"{"model":"quire/1","kind":"diagram","pages":[{"width":100,"height":100,"shapes":[{"type":"connector","id":"c","from":{"shape":"nowhere"},"to":{"point":{"x":1,"y":1}}}]}]}"#.into()),
            other => ok(model(&format!("{other} on {}", env!("CARGO_PKG_VERSION")))),
        }
    }
}

impl kinds::Guest for Hostile {
    fn export_kinds() -> Vec<(String, Vec<String>)> {
        Vec::new()
    }
}

impl exporter::Guest for Hostile {
    fn export(_: exporter::ExportRequest) -> Result<exporter::ExportResult, ConvertError> {
        Err(ConvertError::Unsupported(
            "the hostile plugin exports nothing".into(),
        ))
    }
}

quire_sdk::bindings::__export_quire_world!(Hostile with_types_in quire_sdk::bindings);
