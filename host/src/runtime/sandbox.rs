//! The wasmtime embedding: two engines (code that meters fuel, and code that does not),
//! components compiled once per engine and cached, and a fresh store per call with a
//! memory cap over all memories, an epoch deadline, fuel where the converter is metered,
//! and WASI without files, sockets or environment.
//!
//! Every call is bounded twice by its deadline. The epoch deadline traps the guest's own
//! code (checked at function entries and loop headers), but a guest parked inside a host
//! call runs none of its code: `thread::sleep` is a `wasi:clocks` subscription and a
//! blocking `wasi:io/poll`, and wasmtime-wasi's synchronous bindings wait for it on a tokio
//! runtime inside the worker thread (`in_tokio`), for as long as the guest asked. So calls
//! run asynchronously (`call_async`: the guest on a fiber, WASI's host calls awaited) under
//! `tokio::time::timeout`; when the deadline passes while the guest waits in a host call,
//! the call's future is dropped, which unwinds the fiber, and the worker is free. This
//! bounds every host call that can wait, present and future, where clamping the clock's
//! subscriptions would bound only the waits we thought of.
//!
//! This is the only module that touches wasmtime (beside the types it generates from the
//! WIT, in `bindings`); the rest of the host sees [`Sandbox`], [`Loaded`] and [`CallError`].

use std::fs::File;
use std::future::Future;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use sha2::{Digest, Sha256};
use wasmtime::component::{
    Component, ComponentExportIndex, HasSelf, Instance, InstancePre, Linker, ResourceTable,
};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store, Trap};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use super::artifacts::{Artifact, ArtifactCache, Refusal};
use super::bindings::quire::converter::fonts as wit_fonts;
use super::bindings::quire::converter::types as wit;
use super::bindings::{self, ConverterIndices};
use super::fonts::{CallFonts, FontLibrary};

pub use wit::{
    ConvertError as WitError, ExportRequest, ExportResult, Format as WitFormat, ImportRequest,
    ImportResult, PluginInfo as WitPluginInfo,
};

pub fn wit_document(model: String, assets: Vec<wit::Asset>) -> wit::Document {
    wit::Document { model, assets }
}

pub fn wit_asset(a: quire_sdk::Asset) -> wit::Asset {
    wit::Asset {
        name: a.name,
        media_type: a.media_type,
        bytes: a.bytes,
    }
}

pub fn asset_from_wit(a: wit::Asset) -> quire_sdk::Asset {
    quire_sdk::Asset {
        name: a.name,
        media_type: a.media_type,
        bytes: a.bytes,
    }
}

/// Resource limits of one call. Exceeding any is the input being too big or too complex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wasm instructions (roughly) one call may execute.
    pub fuel: u64,
    /// Bytes of linear memory, summed over all memories of the instance.
    pub memory: usize,
    /// Wall-clock time one call may take.
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: 50_000_000_000,
            memory: 512 << 20,
            deadline: Duration::from_secs(30),
        }
    }
}

/// How a converter's work is bounded besides its memory cap and its deadline, which every
/// call has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metering {
    /// Fuel too: the bound on instructions that does not depend on the machine's load, so
    /// the same input passes or fails on a quiet host and a busy one alike. Its checks cost
    /// about a fifth of a call.
    Fuel,
    /// The deadline alone (the epoch checks), for the converters the operator installed
    /// from the plugin directory.
    Deadline,
}

/// What a finished call cost, reported by `quire convert` and the benchmarks.
#[derive(Debug, Clone, Copy, Default)]
pub struct CallStats {
    /// `None` when the converter runs without fuel metering.
    pub fuel_used: Option<u64>,
    pub peak_memory: usize,
    pub elapsed: Duration,
}

/// Why a call did not return a result of its own.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("the conversion ran out of its fuel budget ({limit} units): the input is too complex")]
    Fuel { limit: u64 },
    #[error("the conversion needed more than {} MiB of memory: the input is too large", limit >> 20)]
    Memory { limit: usize },
    #[error("the conversion took longer than its {} s deadline", limit.as_secs_f64())]
    Deadline { limit: Duration },
    #[error("the converter crashed: {0}")]
    Crashed(String),
    /// The host could not run the call at all (pool exhausted, instantiation failed).
    #[error("the converter could not be started: {0}")]
    Host(String),
}

impl CallError {
    /// A short machine-readable name of the fault, for error bodies and logs.
    pub fn fault(&self) -> &'static str {
        match self {
            CallError::Fuel { .. } => "fuel",
            CallError::Memory { .. } => "memory",
            CallError::Deadline { .. } => "deadline",
            CallError::Crashed(_) => "crash",
            CallError::Host(_) => "host",
        }
    }
}

const EPOCH_TICK: Duration = Duration::from_millis(5);

/// One guest call on an instance: a future borrowing the instance, its store and the request.
pub type GuestCall<'a, R> = Pin<Box<dyn Future<Output = wasmtime::Result<R>> + 'a>>;

/// The runtime the calls are driven on, on the calling thread (`Handle::block_on`): its one
/// worker thread keeps the timers (the call's timeout, a guest's clock subscriptions) and
/// the I/O reactor going. Its own, so a call behaves the same from a server's blocking
/// thread, the command line and the benchmarks, and never dropped (a static), as a runtime
/// may not be dropped where blocking is not allowed.
static HOST_CALLS: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("quire-host-calls")
        .enable_time()
        .enable_io()
        .build()
        .expect("starting the runtime of the sandbox's host calls")
});
/// Memory a pool slot keeps resident between calls (see [`Flavor::new`]); more than the
/// usual call's peak (6 MiB for a 50-page Markdown import, 18 MiB for a 1 MB web page).
const KEEP_RESIDENT: usize = 16 << 20;
/// The top of a call's fiber stack kept resident (zeroed) for the next call; below it the
/// stack is decommitted when the call ends.
const ASYNC_STACK_KEEP_RESIDENT: usize = 128 << 10;
const STDERR_CAPTURE: usize = 16 << 10;
/// How long a compiled artifact no engine of this build opens stays in the cache: long
/// enough for the hosts sharing it to finish a rolling upgrade.
const STALE_AFTER: Duration = Duration::from_secs(24 * 3600);

/// An engine, with its own instance pool, and the linker for it. Fuel metering is compiled
/// into the code, so each metering has one.
struct Flavor {
    engine: Engine,
    linker: Linker<CallState>,
}

impl Flavor {
    fn new(metering: Metering) -> anyhow::Result<Flavor> {
        let mut pool = PoolingAllocationConfig::default();
        // Virtual reservations only; the memory limiter enforces the real cap per call.
        pool.total_component_instances(64)
            .total_core_instances(64 * 8)
            .total_memories(64 * 2)
            .total_tables(64 * 4)
            .total_stacks(64)
            .max_core_instances_per_component(16)
            .max_memories_per_component(4)
            .max_tables_per_component(8)
            .max_memory_size(4 << 30)
            .max_component_instance_size(1 << 20)
            .max_core_instance_size(1 << 20)
            .max_unused_warm_slots(16)
            // A call touches a fresh memory page by page; faulting each in cost a tenth of a
            // 50-page import. A slot keeps up to this much resident for its next call, and
            // the kernel's PAGEMAP_SCAN (Linux 6.7+) tells which pages this call wrote, so
            // only those are reset (a plain memset of the whole span cost what it saved).
            .linear_memory_keep_resident(KEEP_RESIDENT)
            // A call's fiber stack is given back with its top zeroed and the rest decommitted:
            // unzeroed stacks stay resident as the pool hands out its slots in turn, and a
            // long run's memory then grows by what every slot's calls once touched (the soak
            // saw +19% after warm-up). Zeroing also leaves no call's data for the next.
            .async_stack_keep_resident(ASYNC_STACK_KEEP_RESIDENT)
            .pagemap_scan(wasmtime::Enabled::Auto);
        let mut config = Config::new();
        config
            .allocation_strategy(InstanceAllocationStrategy::Pooling(pool))
            .async_stack_zeroing(true)
            .consume_fuel(metering == Metering::Fuel)
            .epoch_interruption(true)
            .wasm_component_model(true)
            .memory_init_cow(true)
            .cranelift_opt_level(wasmtime::OptLevel::Speed);
        let engine = Engine::new(&config)
            .map_err(anyhow::Error::from)
            .context("creating the wasmtime engine")?;

        let mut linker = Linker::new(&engine);
        // The async host calls: a wait in one is a future the call's timeout can drop.
        wasmtime_wasi::p2::add_to_linker_async(&mut linker)
            .map_err(anyhow::Error::from)
            .context("linking WASI")?;
        bindings::Converter::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)
            .map_err(anyhow::Error::from)
            .context("linking the converter world")?;
        Ok(Flavor { engine, linker })
    }
}

/// The engines, their linkers and the compiled-code cache, shared by every plugin.
pub struct Sandbox {
    fueled: Flavor,
    unfueled: Flavor,
    artifacts: Option<ArtifactCache>,
    fonts: Arc<FontLibrary>,
    ticker_stop: Arc<AtomicBool>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}

impl Sandbox {
    /// `cache_dir`: where compiled artifacts are kept, sealed with the key kept there, so
    /// the host never loads compiled code it (or another host sharing the directory) did
    /// not write itself; none disables the cache. `fonts`: the library converters draw
    /// text with (the `fonts` import).
    pub fn new(cache_dir: Option<PathBuf>, fonts: Arc<FontLibrary>) -> anyhow::Result<Sandbox> {
        let fueled = Flavor::new(Metering::Fuel)?;
        let unfueled = Flavor::new(Metering::Deadline)?;
        let ticker_stop = Arc::new(AtomicBool::new(false));
        {
            let engines = [fueled.engine.clone(), unfueled.engine.clone()];
            let stop = ticker_stop.clone();
            std::thread::Builder::new()
                .name("quire-epoch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(EPOCH_TICK);
                        for engine in &engines {
                            engine.increment_epoch();
                        }
                    }
                })
                .context("starting the epoch ticker")?;
        }
        let artifacts = cache_dir.map(ArtifactCache::open_dir).transpose()?;
        Ok(Sandbox {
            fueled,
            unfueled,
            artifacts,
            fonts,
            ticker_stop,
        })
    }

    fn flavor(&self, metering: Metering) -> &Flavor {
        match metering {
            Metering::Fuel => &self.fueled,
            Metering::Deadline => &self.unfueled,
        }
    }

    /// Compiles (or loads from the cache) a component for `metering` and prepares it for
    /// instantiation. Refuses anything that does not implement
    /// `quire:converter/converter@1` (1.0.0, 1.1.0 or 1.2.0).
    pub fn load(&self, wasm: &[u8], metering: Metering) -> anyhow::Result<Loaded> {
        let digest = hex::encode(Sha256::digest(wasm));
        let component = self.compile_cached(wasm, &digest, metering)?;
        self.prepare(component, digest, metering)
    }

    /// The component whose wasm has sha256 `digest`, if the compile cache holds it: no
    /// need to read or hash the wasm (the artifact's name and seal vouch for it).
    pub fn load_cached(&self, digest: &str, metering: Metering) -> anyhow::Result<Option<Loaded>> {
        match self.read_artifact(digest, metering) {
            Some(component) => self
                .prepare(component, digest.to_string(), metering)
                .map(Some),
            None => Ok(None),
        }
    }

    fn prepare(
        &self,
        component: Component,
        digest: String,
        metering: Metering,
    ) -> anyhow::Result<Loaded> {
        let pre = self.flavor(metering).linker.instantiate_pre(&component).map_err(|e| {
            anyhow!("this component does not fit the Quire converter world (quire:converter@1.2.0, 1.1.0 or 1.0.0): {e:#}")
        })?;
        let indices = ConverterIndices::new(&pre).map_err(|e| {
            anyhow!("this component does not export the Quire converter interfaces (meta, importer, exporter of quire:converter@1.2.0, 1.1.0 or 1.0.0): {e:#}")
        })?;
        // Optional (1.2.0): a component of the plain `converter` world has no `kinds`.
        let kinds = component
            .get_export_index(None, KINDS_INTERFACE)
            .and_then(|i| component.get_export_index(Some(&i), "export-kinds"));
        Ok(Loaded {
            pre,
            indices,
            kinds,
            digest,
            metering,
        })
    }

    fn compatibility(&self, metering: Metering) -> String {
        let mut h = std::hash::DefaultHasher::new();
        self.flavor(metering)
            .engine
            .precompile_compatibility_hash()
            .hash(&mut h);
        format!("{:016x}", h.finish())
    }

    /// The file `name` of host-local state kept in the compile cache, if there is a cache
    /// and the file carries its seal; an error (for the caller to log) if it is there but
    /// this host did not write it.
    pub fn read_sealed(&self, name: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let Some(artifacts) = &self.artifacts else {
            return Ok(None);
        };
        artifacts
            .read_sealed(name)
            .map_err(|e| anyhow!("{name} in the compile cache: {e}"))
    }

    /// Keeps `body` as the file `name` of [`Sandbox::read_sealed`], sealed with the cache's
    /// key; nothing without a cache.
    pub fn write_sealed(&self, name: &str, body: &[u8]) -> std::io::Result<()> {
        match &self.artifacts {
            Some(artifacts) => artifacts.write_sealed(name, body),
            None => Ok(()),
        }
    }

    /// Removes compiled artifacts no engine of this build opens (and temporary files of
    /// writers that died) once they are a day old; see [`ArtifactCache::prune`].
    pub fn prune_cache(&self) -> std::io::Result<usize> {
        let Some(artifacts) = &self.artifacts else {
            return Ok(0);
        };
        let engines = [
            self.compatibility(Metering::Fuel),
            self.compatibility(Metering::Deadline),
        ];
        artifacts.prune(&engines, STALE_AFTER)
    }

    /// The artifact name of the wasm with sha256 `digest`: the engine's compatibility hash
    /// is in it, so another build of the host, or the other engine, never reads it.
    fn artifact_name(&self, digest: &str, metering: Metering) -> String {
        format!("{digest}-{}", self.compatibility(metering))
    }

    fn compile_cached(
        &self,
        wasm: &[u8],
        digest: &str,
        metering: Metering,
    ) -> anyhow::Result<Component> {
        if let Some(component) = self.read_artifact(digest, metering) {
            return Ok(component);
        }
        let component = Component::new(&self.flavor(metering).engine, wasm)
            .map_err(anyhow::Error::from)
            .context("compiling the component")?;
        if let Some(artifacts) = &self.artifacts {
            let name = self.artifact_name(digest, metering);
            if let Err(e) = component
                .serialize()
                .map_err(anyhow::Error::from)
                .and_then(|body| Ok(artifacts.store(&name, &body)?))
            {
                tracing::warn!("compiled artifact {name} not cached: {e:#}");
            }
        }
        Ok(component)
    }

    /// Loads an artifact only if it carries the seal of its cache: compiled code is trusted
    /// native code, and nothing but this host (or one sharing its cache) may have produced it.
    fn read_artifact(&self, digest: &str, metering: Metering) -> Option<Component> {
        let name = self.artifact_name(digest, metering);
        let artifact = match self.artifacts.as_ref()?.open(&name) {
            Ok(a) => a,
            Err(Refusal::Missing) => return None,
            Err(e) => {
                tracing::warn!("ignoring compiled artifact {name}: {e}");
                return None;
            }
        };
        let engine = &self.flavor(metering).engine;
        // SAFETY: the artifact was produced by `Component::serialize` of this host, or of
        // one its user pointed at the same cache and key (the seal proves it), for an engine with the same compatibility hash (in its name); a mapped
        // file can only be changed by this process's user (`ArtifactCache::open` checked).
        let component = match artifact {
            Artifact::Sealed(file) => unsafe { deserialize_open_file(engine, &file) },
            Artifact::Read(bytes) => {
                unsafe { Component::deserialize(engine, bytes) }.map_err(Into::into)
            }
        };
        match component {
            Ok(c) => Some(c),
            Err(e) => {
                tracing::warn!("ignoring unreadable compiled artifact {name}: {e:#}");
                None
            }
        }
    }

    /// Runs `call` with `request` on a fresh instance of `plugin` within `limits`.
    /// Blocking: call it off the async executor (a blocking thread, or no runtime at all).
    pub fn call<Req: ?Sized, R>(
        &self,
        plugin: &Loaded,
        limits: Limits,
        request: &Req,
        call: impl for<'a> FnOnce(Callee<'a>, &'a mut Store<CallState>, &'a Req) -> GuestCall<'a, R>,
    ) -> (Result<R, CallError>, CallStats) {
        let started = Instant::now();
        let stderr = MemoryOutputPipe::new(STDERR_CAPTURE);
        let wasi = WasiCtxBuilder::new()
            .stderr(stderr.clone())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        let state = CallState {
            wasi,
            table: ResourceTable::new(),
            fonts: CallFonts::new(self.fonts.clone()),
            memory: MemoryCap {
                limit: limits.memory,
                total: 0,
                peak: 0,
                refused: false,
            },
        };
        let mut store = Store::new(&self.flavor(plugin.metering).engine, state);
        store.limiter(|s| &mut s.memory);
        let ticks = (limits.deadline.as_nanos() / EPOCH_TICK.as_nanos()).max(1) as u64;
        store.set_epoch_deadline(ticks);
        let mut stats = CallStats::default();
        if plugin.metering == Metering::Fuel {
            if let Err(e) = store.set_fuel(limits.fuel) {
                return (Err(CallError::Host(e.to_string())), stats);
            }
        }
        let run = async {
            let instance = plugin.pre.instantiate_async(&mut store).await?;
            let converter = plugin.indices.load(&mut store, &instance)?;
            let guest = Callee {
                converter: &converter,
                instance,
            };
            call(guest, &mut store, request).await
        };
        // The epoch deadline stops the guest's code; this stops its waits in host calls
        // (see the module's comment). Whichever comes first, it is the deadline's fault.
        // The timeout is made inside `block_on`, so its timer is this runtime's, also on a
        // thread that has none (the benchmarks) or another (a server's blocking thread).
        let ran = HOST_CALLS
            .handle()
            .block_on(async { tokio::time::timeout(limits.deadline, run).await });
        stats.fuel_used = match plugin.metering {
            Metering::Fuel => Some(limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0))),
            Metering::Deadline => None,
        };
        stats.peak_memory = store.data().memory.peak;
        stats.elapsed = started.elapsed();
        let result = match ran {
            Ok(result) => result.map_err(|e| classify(e, &store, limits, &stderr)),
            Err(_elapsed) => Err(CallError::Deadline {
                limit: limits.deadline,
            }),
        };
        (result, stats)
    }
}

/// Maps a sealed artifact in place. wasmtime opens a path; the descriptor's own path names
/// the very file that was checked, not whatever the artifact's name points at by now.
///
/// # Safety
/// `file` holds a `Component::serialize` output of this host's engine that only this
/// process's user can write.
unsafe fn deserialize_open_file(engine: &Engine, file: &File) -> anyhow::Result<Component> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if path.exists() {
            // SAFETY: as the caller promised, for the file `path` names.
            return unsafe { Component::deserialize_file(engine, path) }.map_err(Into::into);
        }
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut &*file, &mut bytes)?;
    // SAFETY: as the caller promised, for the bytes just read from it.
    unsafe { Component::deserialize(engine, bytes) }.map_err(Into::into)
}

fn classify(
    e: wasmtime::Error,
    store: &Store<CallState>,
    limits: Limits,
    stderr: &MemoryOutputPipe,
) -> CallError {
    if store.data().memory.refused {
        return CallError::Memory {
            limit: limits.memory,
        };
    }
    match e.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => CallError::Fuel { limit: limits.fuel },
        Some(Trap::Interrupt) => CallError::Deadline {
            limit: limits.deadline,
        },
        Some(trap) => {
            let said = String::from_utf8_lossy(&stderr.contents()).into_owned();
            // The whole of it is for the operator; the caller gets the message alone, without
            // the guest's source paths (`panicked at src/lib.rs:10:5:`) or a traceback.
            tracing::warn!("a converter crashed ({trap}): {}", said.trim());
            match crash_message(&said) {
                Some(message) => CallError::Crashed(format!("{message} ({trap})")),
                None => CallError::Crashed(format!("{trap}")),
            }
        }
        None if e.to_string().contains("instance") || e.to_string().contains("pool") => {
            CallError::Host(format!("{e:#}"))
        }
        None => CallError::Crashed(format!("{e:#}")),
    }
}

/// What a crashed guest said, fit for a caller: a Rust guest prints "thread '...' panicked
/// at FILE:LINE:COL:" and then the message; other languages end a traceback with it.
fn crash_message(stderr: &str) -> Option<String> {
    const MAX: usize = 300;
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let message = match lines.iter().position(|l| l.contains(" panicked at ")) {
        Some(i) => *lines.get(i + 1)?,
        None => *lines.iter().rev().find(|l| !l.starts_with("note: "))?,
    };
    let mut message = message.to_string();
    if message.len() > MAX {
        let cut = (0..=MAX)
            .rev()
            .find(|i| message.is_char_boundary(*i))
            .unwrap_or(0);
        message.truncate(cut);
        message.push('…');
    }
    Some(message)
}

impl Sandbox {
    /// A fresh store and instance, dropped at once: the fixed cost every call pays.
    pub fn instantiate_only(&self, plugin: &Loaded, limits: Limits) -> Result<Duration, CallError> {
        let started = Instant::now();
        let (result, _) = self.call(plugin, limits, &(), |_, _, _| Box::pin(async { Ok(()) }));
        result.map(|()| started.elapsed())
    }
}

/// The instance a call runs in: its Quire interfaces, and the instance itself for the
/// exports a component may lack (looked up by index).
pub struct Callee<'a> {
    pub converter: &'a bindings::Converter,
    pub instance: Instance,
}

/// What the optional `kinds` interface answers: media type -> the kinds it fits.
pub type ExportKinds = Vec<(String, Vec<String>)>;

const KINDS_INTERFACE: &str = "quire:converter/kinds@1.2.0";

/// A component ready to be instantiated.
pub struct Loaded {
    pre: InstancePre<CallState>,
    indices: ConverterIndices,
    /// `export-kinds` of the `kinds` interface, when the component has it.
    kinds: Option<ComponentExportIndex>,
    /// sha256 of the wasm bytes.
    pub digest: String,
    pub metering: Metering,
}

impl Loaded {
    pub fn describe(
        &self,
        sandbox: &Sandbox,
        limits: Limits,
    ) -> (Result<wit::PluginInfo, CallError>, CallStats) {
        sandbox.call(self, limits, &(), |c, store, _| {
            Box::pin(c.converter.quire_converter_meta().call_describe(store))
        })
    }

    /// The kinds of document each export fits, as the component says (media type -> kind
    /// names); `None` for a component without the `kinds` interface.
    pub fn describe_kinds(
        &self,
        sandbox: &Sandbox,
        limits: Limits,
    ) -> (Result<Option<ExportKinds>, CallError>, CallStats) {
        let Some(index) = self.kinds else {
            return (Ok(None), CallStats::default());
        };
        sandbox.call(self, limits, &(), move |c, store, _| {
            Box::pin(async move {
                let func = c
                    .instance
                    .get_typed_func::<(), (ExportKinds,)>(&mut *store, index)?;
                let (kinds,) = func.call_async(&mut *store, ()).await?;
                Ok(Some(kinds))
            })
        })
    }

    pub fn import(
        &self,
        sandbox: &Sandbox,
        limits: Limits,
        request: &ImportRequest,
    ) -> (Result<Result<ImportResult, WitError>, CallError>, CallStats) {
        sandbox.call(self, limits, request, |c, store, request| {
            Box::pin(
                c.converter
                    .quire_converter_importer()
                    .call_import(store, request),
            )
        })
    }

    pub fn export(
        &self,
        sandbox: &Sandbox,
        limits: Limits,
        request: &ExportRequest,
    ) -> (Result<Result<ExportResult, WitError>, CallError>, CallStats) {
        sandbox.call(self, limits, request, |c, store, request| {
            Box::pin(
                c.converter
                    .quire_converter_exporter()
                    .call_export(store, request),
            )
        })
    }
}

/// Per-call store data.
pub struct CallState {
    wasi: WasiCtx,
    table: ResourceTable,
    fonts: CallFonts,
    memory: MemoryCap,
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl wit::Host for CallState {}

impl wit_fonts::Host for CallState {
    fn lookup(&mut self, q: wit_fonts::Query, text: String) -> Vec<Option<wit_fonts::Glyph>> {
        self.fonts.map(q, text)
    }

    fn info(&mut self, face: u32) -> Option<wit_fonts::FaceInfo> {
        self.fonts.info(face)
    }

    fn shape(
        &mut self,
        face: u32,
        text: String,
        rtl: bool,
        lang: String,
    ) -> Vec<wit_fonts::Shaped> {
        self.fonts.shape(face, text, rtl, lang)
    }

    fn subset(&mut self, face: u32, glyphs: Vec<u16>) -> Result<Vec<u8>, String> {
        self.fonts.subset(face, glyphs)
    }

    fn outlines(&mut self, face: u32, glyphs: Vec<u16>) -> Vec<String> {
        self.fonts.outlines(face, glyphs)
    }

    fn word_breaks(&mut self, text: String) -> Vec<u32> {
        self.fonts.word_breaks(text)
    }
}

/// Caps linear memory summed over every memory of the instance (wasmtime's own
/// `StoreLimits` caps each memory separately) and records the peak.
struct MemoryCap {
    limit: usize,
    total: usize,
    peak: usize,
    refused: bool,
}

impl wasmtime::ResourceLimiter for MemoryCap {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let after = self.total + desired.saturating_sub(current);
        if after > self.limit {
            self.refused = true;
            return Ok(false);
        }
        self.total = after;
        self.peak = self.peak.max(after);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 1 << 20)
    }
}

#[cfg(test)]
mod tests {
    use super::crash_message;

    #[test]
    fn a_crash_reaches_the_caller_without_the_guests_source_paths() {
        let rust = "thread '<unnamed>' panicked at plugins/csv/src/lib.rs:42:9:\nrow 3 has no cells\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(crash_message(rust).as_deref(), Some("row 3 has no cells"));
        let python = "Traceback (most recent call last):\n  File \"/src/app.py\", line 9, in export\nValueError: no pages\n";
        assert_eq!(
            crash_message(python).as_deref(),
            Some("ValueError: no pages")
        );
        assert_eq!(crash_message("  \n"), None);
        let long = format!("thread 'x' panicked at a.rs:1:1:\n{}", "é".repeat(400));
        let message = crash_message(&long).unwrap();
        assert!(message.len() <= 304 && message.ends_with('…'), "{message}");
    }
}
