//! The sandbox contains hostile components, and the registry refuses broken ones, swaps
//! atomically and rolls back.

use std::sync::Arc;
use std::time::Duration;

use quire::runtime::{CallError, ConversionError, Limits, Metering, Plugins};
use quire_sdk::ConvertError;

use crate::common::*;
use crate::runtime::*;

const HOSTILE: &str = "application/x-quire-hostile";

async fn hostile(plugins: &Plugins, behaviour: &str) -> Result<String, ConversionError> {
    plugins
        .import(behaviour.as_bytes().to_vec(), HOSTILE, vec![], vec![])
        .await
        .map(|c| c.value.document.pages[0].shapes[0].clone())
        .map(|s| match s {
            quire_sdk::Shape::Text(t) => t.text.plain_text(),
            other => panic!("unexpected shape {other:?}"),
        })
}

async fn markdown_still_works(plugins: &Plugins) {
    let done = plugins
        .import(
            b"# Still here\n\nThe host goes on serving.".to_vec(),
            "text/markdown",
            vec![],
            vec![],
        )
        .await
        .expect("a good plugin works after a hostile call");
    let text: String = done
        .value
        .document
        .shapes()
        .filter_map(|s| match s {
            quire_sdk::Shape::Text(t) => Some(t.text.plain_text()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("Still here"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_components_are_contained() {
    let (_dir, plugins) = fresh_plugins(quick_limits()).await;
    plugins.install(component("hostile"), true).await.unwrap();

    // An endless loop burns its fuel and stops.
    match hostile(&plugins, "loop").await {
        Err(ConversionError::Sandbox {
            error: CallError::Fuel { .. },
            ref plugin,
        }) => {
            assert_eq!(plugin, "hostile@1.0.0")
        }
        other => panic!("loop: {other:?}"),
    }
    markdown_still_works(&plugins).await;

    // Memory growth stops at the cap, summed over all memories.
    let e = hostile(&plugins, "grow").await.unwrap_err();
    assert!(
        matches!(e, ConversionError::Sandbox { error: CallError::Memory { limit }, .. } if limit == 64 << 20),
        "{e:?}"
    );
    assert!(e.to_string().contains("64 MiB"), "{e}");
    markdown_still_works(&plugins).await;

    // A panic is a crash with the panic's own message.
    let e = hostile(&plugins, "panic").await.unwrap_err();
    assert!(
        matches!(
            e,
            ConversionError::Sandbox {
                error: CallError::Crashed(_),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("panicked on purpose"), "{e}");
    // It becomes a 422's detail: the guest's source paths stay in the operator's log.
    assert!(!e.to_string().contains("src/lib.rs"), "{e}");
    assert!(!e.to_string().contains("panicked at"), "{e}");
    markdown_still_works(&plugins).await;

    // No filesystem, no network, no environment.
    for (behaviour, says) in [
        ("file", "file access denied"),
        ("socket", "network access denied"),
        ("env", "environment is empty"),
    ] {
        match hostile(&plugins, behaviour).await {
            Err(ConversionError::Refused(ConvertError::Damaged(m))) => {
                assert!(m.contains(says), "{behaviour}: {m}")
            }
            other => panic!("{behaviour} escaped the sandbox: {other:?}"),
        }
    }

    // Output that is not a model is refused with a sentence naming the converter.
    let e = hostile(&plugins, "garbage").await.unwrap_err();
    assert!(matches!(e, ConversionError::InvalidOutput { .. }), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("hostile@1.0.0 produced an invalid document model"),
        "{e}"
    );
    let e = hostile(&plugins, "dangling").await.unwrap_err();
    assert!(e.to_string().contains("`nowhere`"), "{e}");

    markdown_still_works(&plugins).await;
}

/// The hostile component's endless loop ends in the deadline's fault, promptly.
async fn the_deadline_stops_a_loop(plugins: &Plugins) {
    let started = std::time::Instant::now();
    let e = hostile(plugins, "loop").await.unwrap_err();
    assert!(
        matches!(
            e,
            ConversionError::Sandbox {
                error: CallError::Deadline { .. },
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deadline_stops_a_call_that_has_fuel_to_spare() {
    let limits = Limits {
        fuel: u64::MAX / 2,
        memory: 64 << 20,
        deadline: Duration::from_millis(300),
    };
    let (_dir, plugins) = fresh_plugins(limits).await;
    plugins.install(component("hostile"), true).await.unwrap();
    the_deadline_stops_a_loop(&plugins).await;
    markdown_still_works(&plugins).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_plugin_directorys_converters_run_without_fuel_and_the_deadline_still_stops_them() {
    // Fuel for a short markdown import, not for a second of looping.
    let limits = Limits {
        fuel: 200_000_000,
        memory: 64 << 20,
        deadline: Duration::from_millis(300),
    };
    let (_dir, plugins) = fresh_plugins(limits).await;
    let rows = plugins.list().await.unwrap();
    let markdown = rows
        .iter()
        .find(|r| r.name == "markdown" && r.active)
        .unwrap();
    assert_eq!(plugins.metering(&markdown.digest), Metering::Deadline);
    let done = plugins
        .import(b"# Built in".to_vec(), "text/markdown", vec![], vec![])
        .await
        .unwrap();
    assert_eq!(done.stats.fuel_used, None);

    // The same hostile component as a plugin-directory converter: its endless loop runs
    // past the fuel that would have stopped it metered, and the deadline stops it.
    let shelf = tempfile::tempdir().unwrap();
    std::fs::write(shelf.path().join("hostile.wasm"), component("hostile")).unwrap();
    let installed = plugins.bootstrap(shelf.path()).await.unwrap();
    assert_eq!(installed, ["hostile@1.0.0"]);
    the_deadline_stops_a_loop(&plugins).await;
    // The directory now holds only the hostile component: markdown is metered again.
    assert_eq!(plugins.metering(&markdown.digest), Metering::Fuel);
}

#[tokio::test(flavor = "multi_thread")]
async fn broken_components_are_refused_and_the_active_version_stays() {
    let (_dir, plugins) = fresh_plugins(quick_limits()).await;
    let before: Vec<_> = plugins
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.name, r.version, r.active))
        .collect();

    let e = plugins
        .install(component("broken-describe"), true)
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("describe() failed") && e.to_string().contains("broken on purpose"),
        "{e}"
    );

    let e = plugins
        .install(component("not-a-converter"), true)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("quire:converter"), "{e}");

    let e = plugins
        .install(b"\0asm garbage".to_vec(), true)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("cannot be installed"), "{e}");

    let after: Vec<_> = plugins
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.name, r.version, r.active))
        .collect();
    assert_eq!(before, after);
    markdown_still_works(&plugins).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn swaps_are_atomic_and_rollback_restores_the_previous_version() {
    let limits = Limits {
        fuel: u64::MAX / 2,
        memory: 64 << 20,
        deadline: Duration::from_secs(60),
    };
    let (_dir, plugins) = fresh_plugins(limits).await;
    let plugins = Arc::new(plugins);
    plugins.install(component("hostile"), true).await.unwrap();
    assert_eq!(hostile(&plugins, "ping").await.unwrap(), "ping on 1.0.0");

    // A call in flight when 2.0.0 becomes active finishes on 1.0.0.
    let slow = {
        let p = plugins.clone();
        tokio::spawn(async move { hostile(&p, "slow").await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let info = plugins
        .install(component("hostile-v2"), true)
        .await
        .unwrap();
    assert_eq!(info.version, "2.0.0");
    assert_eq!(hostile(&plugins, "ping").await.unwrap(), "ping on 2.0.0");
    let slow = slow.await.unwrap().unwrap();
    assert!(slow.starts_with("slow call finished on 1.0.0"), "{slow}");

    // Reinstalling the same bytes is a no-op; rollback reactivates 1.0.0.
    plugins
        .install(component("hostile-v2"), true)
        .await
        .unwrap();
    assert_eq!(plugins.rollback("hostile").await.unwrap(), "1.0.0");
    assert_eq!(hostile(&plugins, "ping").await.unwrap(), "ping on 1.0.0");
    let rows = plugins.list().await.unwrap();
    let active: Vec<_> = rows
        .iter()
        .filter(|r| r.name == "hostile" && r.active)
        .map(|r| r.version.as_str())
        .collect();
    assert_eq!(active, ["1.0.0"]);

    // A rollback with no history is refused by name.
    let e = plugins.rollback("markdown").await.unwrap_err();
    assert!(e.to_string().contains("no earlier version"), "{e}");
}

#[tokio::test(flavor = "multi_thread")]
async fn compiled_components_are_cached_and_tampered_artifacts_ignored() {
    let (dir, plugins) = fresh_plugins_caching_in_own_dir(quick_limits()).await;
    drop(plugins);
    let cache = dir.path().join("cache");
    let artifacts: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm" || e == "seal"))
        .collect();
    assert!(
        !artifacts.is_empty(),
        "nothing cached in {}",
        cache.display()
    );
    // Corrupt every artifact and seal: the host must recompile rather than load them.
    for a in &artifacts {
        let mut bytes = std::fs::read(a).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(a, bytes).unwrap();
    }
    let db = quire::store::Db::open(None, dir.path()).await.unwrap();
    let blobs = quire::store::Blobs::open_dir(&dir.path().join("blobs")).unwrap();
    let plugins = Plugins::open(
        db,
        blobs,
        quire::runtime::PluginSettings {
            limits: quick_limits(),
            workers: 1,
            max_waiting: 4,
            cache_dir: Some(cache),
            meter_built_ins: false,
            font_roots: quire::runtime::FontLibrary::default_roots(),
        },
    )
    .await
    .unwrap();
    // As a start does: the plugin directory says which converters run unmetered, and so
    // which of the (tampered) artifacts would be theirs.
    assert!(plugins.bootstrap(&plugins_dir()).await.unwrap().is_empty());
    // Nothing is loaded until a call needs it, and a call loads its converter only.
    assert!(plugins.loaded().is_empty(), "{:?}", plugins.loaded());
    markdown_still_works(&plugins).await;
    let loaded = plugins.loaded();
    assert!(
        loaded.len() == 1 && loaded[0].starts_with("markdown@"),
        "{loaded:?}"
    );
    plugins.warm().await.unwrap();
    assert!(plugins.loaded().len() > 5, "{:?}", plugins.loaded());
}

/// `plugin-files.tsv` says which digests are the plugin directory's, and so run without
/// fuel: a list this host did not write (another user's, or one edited by hand) must not
/// make an uploaded component one of the operator's.
#[tokio::test(flavor = "multi_thread")]
async fn a_plugin_file_list_the_host_did_not_seal_makes_no_upload_a_built_in() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let db = quire::store::Db::open(None, dir.path()).await.unwrap();
    let blobs = quire::store::Blobs::open_dir(&dir.path().join("blobs")).unwrap();
    let plugins = Plugins::open(
        db,
        blobs,
        quire::runtime::PluginSettings {
            limits: quick_limits(),
            workers: 1,
            max_waiting: 4,
            cache_dir: Some(cache.clone()),
            meter_built_ins: false,
            font_roots: quire::runtime::FontLibrary::default_roots(),
        },
    )
    .await
    .unwrap();
    let shelf = tempfile::tempdir().unwrap();
    let file = shelf.path().join("mine.wasm");
    std::fs::write(&file, b"not a component").unwrap();
    let meta = std::fs::metadata(&file).unwrap();
    let modified = meta
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    // The digest of a component someone uploaded, listed as the file's.
    let uploaded = "ab".repeat(32);
    std::fs::write(
        cache.join("plugin-files.tsv"),
        format!(
            "{}\t{}\t{modified}\t{uploaded}\n",
            file.display(),
            meta.len()
        ),
    )
    .unwrap();
    plugins.bootstrap(shelf.path()).await.unwrap();
    assert_eq!(plugins.metering(&uploaded), Metering::Fuel);
    // The file was read again: its own digest is the operator's.
    let own = quire::store::Blobs::digest(b"not a component");
    assert_eq!(plugins.metering(&own), Metering::Deadline);
}

/// A converter parked in a host call (`thread::sleep` is a WASI clock subscription and a
/// blocking poll) runs none of its own code, where the epoch deadline is checked: the call
/// must still end at its deadline and give its worker back, so that with one worker the
/// next ordinary conversion runs at once.
#[tokio::test(flavor = "multi_thread")]
async fn a_converter_blocked_in_a_host_call_stops_at_its_deadline_and_frees_its_worker() {
    let deadline = Duration::from_millis(1000);
    let limits = Limits {
        fuel: u64::MAX / 2,
        memory: 64 << 20,
        deadline,
    };
    let (_dir, plugins) = fresh_plugins_with(limits, 1).await;
    plugins.install(component("hostile"), true).await.unwrap();
    // Loaded now, so the prompt conversion below is not timed with its compile.
    markdown_still_works(&plugins).await;

    // A blocking read of stdin: the sandbox gives none, so it ends at once.
    let read = tokio::time::timeout(Duration::from_secs(10), hostile(&plugins, "stdin"))
        .await
        .expect("a read of stdin blocked");
    assert!(
        matches!(read, Ok(ref t) if t == "read 0 bytes of stdin")
            || matches!(read, Err(ConversionError::Refused(_))),
        "{read:?}"
    );

    let started = std::time::Instant::now();
    // Bounded here too, so the test fails rather than hangs without the fix.
    let slept = tokio::time::timeout(Duration::from_secs(20), hostile(&plugins, "sleep"))
        .await
        .expect("the sleeping call never ended");
    let took = started.elapsed();
    assert!(
        matches!(
            slept,
            Err(ConversionError::Sandbox {
                error: CallError::Deadline { .. },
                ..
            })
        ),
        "{slept:?}"
    );
    // A bound, not a speed goal: without the fix the call never ends (the 20 s timeout).
    assert!(took < deadline + Duration::from_secs(5), "took {took:?}");
    assert_eq!(
        plugins.queue_load(),
        (0, 0),
        "the worker was not given back"
    );

    // With the one worker held, this would wait and then be refused as busy.
    tokio::time::timeout(Duration::from_secs(10), markdown_still_works(&plugins))
        .await
        .expect("an ordinary conversion waited behind the sleeping one");
}

/// A component built for `quire:converter@1.0.0`, before the `fonts` import, still loads and
/// converts: the host links the 1.1.0 world and wasmtime matches names semver-compatibly.
/// The fixture is the hostile component as built on 2026-11-27, before the change.
#[tokio::test(flavor = "multi_thread")]
async fn a_component_built_for_the_1_0_0_contract_still_loads_and_converts() {
    let wasm = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/fixtures/hostile-1.0.0.wasm"
    ))
    .unwrap();
    let names_1_0_0 = |needle: &[u8]| wasm.windows(needle.len()).any(|w| w == needle);
    assert!(names_1_0_0(b"quire:converter/meta@1.0.0"));
    assert!(!names_1_0_0(b"quire:converter/fonts"));
    let (_dir, plugins) = fresh_plugins(quick_limits()).await;
    plugins.install(wasm, true).await.unwrap();
    assert_eq!(hostile(&plugins, "ping").await.unwrap(), "ping on 1.0.0");
    markdown_still_works(&plugins).await;
}
