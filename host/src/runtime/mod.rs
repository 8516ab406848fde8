//! Converters: the registry of installed components, the compiled active set, and the two
//! operations the rest of the host needs, `import` (file -> model) and `export`
//! (model -> file). Every conversion runs in the sandbox, off the async executor, behind
//! the bounded queue; every model a converter returns is checked before it is used.

mod artifacts;
mod bindings;
mod cache_dir;
mod fonts;
mod queue;
mod registry;
mod sandbox;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use anyhow::Context;
use quire_sdk::validate::{self, ModelError};
use quire_sdk::{Asset, ConvertError, Document, Format, LockInfo, Permissions, PluginInfo};

pub use fonts::FontLibrary;
pub use queue::QueueError;
pub use registry::{check_info, RegistryError, VersionRow};
pub use sandbox::{CallError, CallStats, Limits, Metering, Sandbox};

use registry::Registry;
use sandbox::{ExportRequest as WitExport, ImportRequest as WitImport, Loaded, WitError};

use crate::store::{Blobs, Db};

/// One direction of a converter call, as `Loaded::import` and `Loaded::export` are.
type SandboxCall<Req, Out> =
    fn(&Loaded, &Sandbox, Limits, &Req) -> (Result<Result<Out, WitError>, CallError>, CallStats);

/// One compiled, active converter. In-flight calls hold an `Arc` to it, so a swap never
/// pulls a component out from under a running conversion.
pub struct ActivePlugin {
    pub info: PluginInfo,
    pub digest: String,
    /// Compiled on first use (or by `Plugins::warm`): a one-off conversion on the command
    /// line loads only the converters it calls.
    loaded: tokio::sync::OnceCell<Loaded>,
}

impl ActivePlugin {
    pub fn label(&self) -> String {
        format!("{}@{}", self.info.name, self.info.version)
    }
}

#[derive(Default)]
struct ActiveSet {
    serial: i64,
    by_name: BTreeMap<String, Arc<ActivePlugin>>,
}

/// A conversion's result and what it cost.
#[derive(Debug)]
pub struct Converted<T> {
    pub value: T,
    pub warnings: Vec<String>,
    pub stats: CallStats,
    /// `name@version` of the converter that did it.
    pub plugin: String,
}

#[derive(Debug, Clone)]
pub struct ImportOutput {
    pub document: Document,
    pub assets: Vec<Asset>,
}

#[derive(Debug, Clone)]
pub struct ExportOutput {
    pub bytes: Vec<u8>,
    pub media_type: String,
    pub headers: Vec<(String, String)>,
}

/// Why a conversion failed. The api module maps each to a status code.
#[derive(Debug, thiserror::Error)]
pub enum ConversionError {
    /// No active converter reads or writes this format.
    #[error("{what} is not a format Quire can {direction}; it {direction}s {}", served.join(", "))]
    NoConverter {
        direction: &'static str,
        what: String,
        served: Vec<String>,
    },
    /// The converter looked at the input and said no.
    #[error("{0}")]
    Refused(ConvertError),
    /// The sandbox stopped the converter (limit or crash).
    #[error("{plugin}: {error}")]
    Sandbox { plugin: String, error: CallError },
    /// The converter answered with something that is not a valid model.
    #[error("{plugin} produced an invalid document model: {error}")]
    InvalidOutput { plugin: String, error: ModelError },
    #[error(transparent)]
    Queue(#[from] QueueError),
}

pub struct Plugins {
    sandbox: Arc<Sandbox>,
    registry: Registry,
    active: RwLock<Arc<ActiveSet>>,
    queue: queue::Queue,
    limits: Limits,
    /// Set by `warm`: every reload then loads the whole new set before it becomes active,
    /// so a server never swaps in a converter it cannot start.
    eager: AtomicBool,
    /// sha256 of every component in this host's plugin directory (`bootstrap` reads it):
    /// the operator put them there, so they run without fuel metering (ARCHITECTURE.md,
    /// runtime) unless `meter_built_ins` is set. Uploads and `quire plugins install` of
    /// other builds are metered.
    built_ins: RwLock<HashSet<String>>,
    meter_built_ins: bool,
    /// The sandbox's font library, for `crate::fonts` (what operators and clients see of it).
    fonts: Arc<FontLibrary>,
}

/// What `Plugins::open` needs besides storage.
pub struct PluginSettings {
    pub limits: Limits,
    pub workers: usize,
    pub max_waiting: usize,
    pub cache_dir: Option<std::path::PathBuf>,
    /// Meter the plugin directory's converters with fuel too, as every other one is.
    pub meter_built_ins: bool,
    /// Font files and directories converters draw text with, earlier ones first.
    pub font_roots: Vec<std::path::PathBuf>,
}

impl Plugins {
    pub async fn open(db: Db, blobs: Blobs, settings: PluginSettings) -> anyhow::Result<Plugins> {
        let fonts = FontLibrary::new(settings.font_roots, settings.cache_dir.clone());
        fonts.open_in_background();
        let sandbox = Arc::new(Sandbox::new(settings.cache_dir, fonts.clone())?);
        let plugins = Plugins {
            sandbox,
            registry: Registry::new(db, blobs),
            active: RwLock::new(Arc::new(ActiveSet::default())),
            // A caller waits for a worker no longer than a conversion may take: by then a
            // worker has freed up unless every one is taken by calls queued before it, and
            // a 503 with Retry-After serves it better than a wait with no end.
            queue: queue::Queue::new(
                settings.workers,
                settings.max_waiting,
                settings.limits.deadline,
            ),
            limits: settings.limits,
            eager: AtomicBool::new(false),
            built_ins: RwLock::default(),
            meter_built_ins: settings.meter_built_ins,
            fonts,
        };
        plugins.reload().await?;
        Ok(plugins)
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The font library converters draw text with (opened on first use).
    pub fn fonts(&self) -> &Arc<FontLibrary> {
        &self.fonts
    }

    /// How the component with sha256 `digest` is bounded: fuel, unless it is one of the
    /// plugin directory's.
    pub fn metering(&self, digest: &str) -> Metering {
        let built_in = self
            .built_ins
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .contains(digest);
        if built_in && !self.meter_built_ins {
            Metering::Deadline
        } else {
            Metering::Fuel
        }
    }

    fn active(&self) -> Arc<ActiveSet> {
        self.active
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Rebuilds the active set from the database, reusing compiled components whose digest
    /// did not change. The swap is one pointer store.
    pub async fn reload(&self) -> anyhow::Result<()> {
        let rows = self.registry.active_rows().await?;
        let current = self.active();
        let mut by_name = BTreeMap::new();
        for (name, (_version, digest, info)) in rows.plugins {
            if let Some(p) = current.by_name.get(&name).filter(|p| p.digest == digest) {
                by_name.insert(name, p.clone());
                continue;
            }
            let plugin = Arc::new(ActivePlugin {
                info,
                digest,
                loaded: tokio::sync::OnceCell::new(),
            });
            if self.eager.load(Ordering::Relaxed) {
                self.ready(&plugin).await?;
            }
            by_name.insert(name, plugin);
        }
        let set = Arc::new(ActiveSet {
            serial: rows.serial,
            by_name,
        });
        *self.active.write().unwrap_or_else(|p| p.into_inner()) = set;
        Ok(())
    }

    /// Loads every active converter now, and every later one before it becomes active (a
    /// server's start: no first request pays for a load, and a converter that cannot
    /// start is an error at once).
    pub async fn warm(&self) -> anyhow::Result<()> {
        self.eager.store(true, Ordering::Relaxed);
        for plugin in self.active().by_name.values() {
            self.ready(plugin).await?;
        }
        Ok(())
    }

    /// `plugin`, compiled: from the compile cache when it holds it (without reading the
    /// wasm), else compiled from the wasm in the blob store.
    async fn ready<'p>(&self, plugin: &'p ActivePlugin) -> anyhow::Result<&'p Loaded> {
        plugin
            .loaded
            .get_or_try_init(|| async {
                let sandbox = self.sandbox.clone();
                let digest = plugin.digest.clone();
                let metering = self.metering(&digest);
                let cached =
                    tokio::task::spawn_blocking(move || sandbox.load_cached(&digest, metering))
                        .await??;
                if let Some(loaded) = cached {
                    return Ok(loaded);
                }
                let wasm = self.registry.blob(&plugin.digest).await?;
                let sandbox = self.sandbox.clone();
                tokio::task::spawn_blocking(move || sandbox.load(&wasm, metering)).await?
            })
            .await
            .with_context(|| format!("loading {}", plugin.label()))
    }

    /// Removes the compile cache's files no engine of this build opens, a day after they
    /// were written (see `Sandbox::prune_cache`); returns how many.
    pub async fn prune_cache(&self) -> anyhow::Result<usize> {
        let sandbox = self.sandbox.clone();
        Ok(tokio::task::spawn_blocking(move || sandbox.prune_cache()).await??)
    }

    /// Reloads if another host (or the CLI) changed the active set.
    pub async fn refresh(&self) -> anyhow::Result<bool> {
        let serial = self.registry.active_serial().await?;
        if serial != self.active().serial {
            self.reload().await?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Compiles and describes `wasm`, checks the description and smoke-tests every export
    /// format, then records it (and activates it when asked). Nothing changes on refusal.
    pub async fn install(
        &self,
        wasm: Vec<u8>,
        activate: bool,
    ) -> Result<PluginInfo, RegistryError> {
        let info = self.vet(wasm.clone()).await?;
        self.registry.record(&wasm, &info).await?;
        if activate {
            self.activate(&info.name, &info.version)
                .await
                .map_err(|e| match e {
                    RegistryError::Conflict(why) => RegistryError::Conflict(format!(
                        "{}@{} is installed but not active: {why}",
                        info.name, info.version
                    )),
                    other => other,
                })?;
        }
        Ok(info)
    }

    async fn vet(&self, wasm: Vec<u8>) -> Result<PluginInfo, RegistryError> {
        let sandbox = self.sandbox.clone();
        let limits = self.limits;
        // Vetted on the engine it will run on, so a built-in is compiled once.
        let metering = self.metering(&Blobs::digest(&wasm));
        let work = move || -> Result<PluginInfo, String> {
            let loaded = sandbox
                .load(&wasm, metering)
                .map_err(|e| format!("{e:#}"))?;
            let (info, _) = loaded.describe(&sandbox, limits);
            let mut info = info_from_wit(info.map_err(|e| format!("its describe() failed: {e}"))?);
            check_info(&info)?;
            let (kinds, _) = loaded.describe_kinds(&sandbox, limits);
            if let Some(kinds) = kinds.map_err(|e| format!("its export-kinds() failed: {e}"))? {
                registry::apply_export_kinds(&mut info, kinds)?;
            }
            // Every export format must draw a one-page document without failing.
            let probe = serde_json::json!({
                "model": quire_sdk::MODEL_VERSION, "kind": "pdf", "title": "probe",
                "pages": [{"width": 200, "height": 100, "shapes": [
                    {"type": "text", "id": "t", "x": 10, "y": 10, "w": 180, "h": 20,
                     "runs": [{"text": "Quire probe", "size": 12}]}
                ]}]
            })
            .to_string();
            for f in &info.exports {
                let req = WitExport {
                    document: sandbox::wit_document(probe.clone(), Vec::new()),
                    media_type: f.media_type.clone(),
                    page: Some(1),
                    dpi: Some(72),
                    options: Vec::new(),
                };
                match loaded.export(&sandbox, limits, &req).0 {
                    Ok(Ok(out)) if !out.bytes.is_empty() => {}
                    Ok(Ok(_)) => {
                        return Err(format!(
                            "its {} export drew nothing for a one-page document",
                            f.media_type
                        ))
                    }
                    Ok(Err(e)) => {
                        return Err(format!(
                            "its {} export refused a one-page document: {}",
                            f.media_type,
                            convert_error(e)
                        ))
                    }
                    Err(e) => {
                        return Err(format!(
                            "its {} export failed the smoke test: {e}",
                            f.media_type
                        ))
                    }
                }
            }
            Ok(info)
        };
        let limit = self.limits.deadline * 4 + Duration::from_secs(30);
        self.queue
            .run(limit, work)
            .await
            .map_err(|e| RegistryError::Refused(e.to_string()))?
            .map_err(|e| RegistryError::Refused(format!("this component cannot be installed: {e}")))
    }

    pub async fn activate(&self, name: &str, version: &str) -> Result<(), RegistryError> {
        // Compile before switching, so a component that no longer loads never becomes active.
        let (wasm, info) = self.registry.version(name, version).await?;
        if let Some(clash) = self.clash(name, &info) {
            return Err(RegistryError::Conflict(clash));
        }
        let sandbox = self.sandbox.clone();
        let metering = self.metering(&Blobs::digest(&wasm));
        tokio::task::spawn_blocking(move || sandbox.load(&wasm, metering).map(|_| ()))
            .await
            .map_err(|e| RegistryError::Internal(e.into()))?
            .map_err(|e| {
                RegistryError::Refused(format!("{name}@{version} no longer loads: {e:#}"))
            })?;
        self.registry.activate(name, version).await?;
        self.reload().await?;
        Ok(())
    }

    fn clash(&self, name: &str, info: &PluginInfo) -> Option<String> {
        let set = self.active();
        first_clash(name, info, set.by_name.values().map(|p| &p.info))
    }

    /// Takes `name` out of service on every host; returns the version that was active.
    pub async fn deactivate(&self, name: &str) -> Result<String, RegistryError> {
        let version = self.registry.deactivate(name).await?;
        self.reload().await?;
        Ok(version)
    }

    /// Reactivates the version that was active before the current one.
    pub async fn rollback(&self, name: &str) -> Result<String, RegistryError> {
        let previous = self.registry.previous(name).await?;
        self.activate(name, &previous).await?;
        Ok(previous)
    }

    pub async fn list(&self) -> anyhow::Result<Vec<VersionRow>> {
        self.registry.list().await
    }

    /// Installs every `*.wasm` in `dir` whose name has no version installed yet (a fresh
    /// data directory gets the plugins `make build` produced). Returns what was installed.
    pub async fn bootstrap(&self, dir: &Path) -> anyhow::Result<Vec<String>> {
        let mut installed = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            tracing::warn!("no plugin directory at {}; run `make build`", dir.display());
            return Ok(installed);
        };
        let rows = self.list().await?;
        let known: std::collections::HashSet<String> =
            rows.iter().map(|r| r.name.clone()).collect();
        let digests: std::collections::HashSet<String> =
            rows.into_iter().map(|r| r.digest).collect();
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "wasm"))
            .collect();
        paths.sort();
        // Hashing every file on every start would cost more than the rest of a one-off
        // `quire convert`: a file whose size and modification time are as last seen keeps
        // the digest it had. The list says which digests run without fuel, so it is kept
        // sealed with the compile cache's key (simpler than a second place only the host
        // writes): one this host did not write is no list, and every file is hashed again.
        let mut memo = match self.sandbox.read_sealed(PLUGIN_FILES) {
            Ok(text) => FileDigests::parse(&String::from_utf8_lossy(&text.unwrap_or_default())),
            Err(e) => {
                tracing::warn!(
                    "not using the plugin file digests: {e:#}; hashing every plugin file again"
                );
                FileDigests::default()
            }
        };
        let mut pending = Vec::new();
        let mut built_ins = HashSet::new();
        for path in paths {
            let stamp = FileStamp::of(&path)?;
            if let Some(digest) = memo.digest(&path, &stamp) {
                built_ins.insert(digest.to_string());
                if digests.contains(digest) {
                    continue;
                }
            }
            let wasm = std::fs::read(&path)?;
            let digest = Blobs::digest(&wasm);
            built_ins.insert(digest.clone());
            memo.record(&path, stamp, digest.clone());
            if !digests.contains(&digest) {
                pending.push((path, wasm));
            }
        }
        *self.built_ins.write().unwrap_or_else(|p| p.into_inner()) = built_ins;
        if memo.changed {
            if let Err(e) = self
                .sandbox
                .write_sealed(PLUGIN_FILES, memo.text().as_bytes())
            {
                tracing::warn!("plugin file digests not kept in the compile cache: {e:#}");
            }
        }
        if !pending.is_empty() {
            // Compiling takes seconds per component; later starts load the machine code
            // from the cache in the data directory.
            tracing::info!(
                "compiling {} converters from {} (once; later starts load them from the cache)",
                pending.len(),
                dir.display()
            );
        }
        let total = pending.len();
        let mut recorded_elsewhere = false;
        for (done, (path, wasm)) in pending.into_iter().enumerate() {
            tracing::info!(
                "compiling converters {}/{total}: {}",
                done + 1,
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            let info = match self.vet(wasm.clone()).await {
                Ok(info) => info,
                Err(e) => {
                    tracing::warn!("skipping {}: {e}", path.display());
                    continue;
                }
            };
            if known.contains(&info.name) {
                if let Ok((installed, _)) = self.registry.version(&info.name, &info.version).await {
                    if Blobs::digest(&installed) != Blobs::digest(&wasm) {
                        tracing::warn!(
                            "{} holds a new build of {}@{}; a version names one build, so bump the version and `quire plugins install` it",
                            path.display(), info.name, info.version
                        );
                    }
                }
                continue;
            }
            if let Err(e) = self.registry.record(&wasm, &info).await {
                // Hosts started together on a fresh database all find the shipped
                // converters missing: the first records each, the others find it there.
                match self.registry.version(&info.name, &info.version).await {
                    Ok((stored, _)) if Blobs::digest(&stored) == Blobs::digest(&wasm) => {
                        recorded_elsewhere = true;
                        continue;
                    }
                    _ => return Err(e.into()),
                }
            }
            self.registry.activate(&info.name, &info.version).await?;
            installed.push(format!("{}@{}", info.name, info.version));
        }
        if !installed.is_empty() || recorded_elsewhere {
            self.reload().await?;
        }
        Ok(installed)
    }

    /// The active converters loaded so far, as `name@version`.
    pub fn loaded(&self) -> Vec<String> {
        self.active()
            .by_name
            .values()
            .filter(|p| p.loaded.initialized())
            .map(|p| p.label())
            .collect()
    }

    /// A plugin `warm` loaded (the benchmarks' synchronous entry points need one).
    fn warmed(plugin: &ActivePlugin) -> anyhow::Result<&Loaded> {
        plugin
            .loaded
            .get()
            .ok_or_else(|| anyhow::anyhow!("{} is not loaded: call `warm` first", plugin.label()))
    }

    /// The cost of one fresh instance of the active `name`, without a call (benchmarks).
    pub fn instantiate_cost(&self, name: &str) -> anyhow::Result<Duration> {
        let plugin = self.bench_plugin(name)?;
        Ok(self
            .sandbox
            .instantiate_only(Self::warmed(&plugin)?, self.limits)?)
    }

    /// Runs the active `name`'s importer on this thread, without queue or model checks:
    /// the sandboxed half of the native-versus-sandbox benchmark.
    pub fn import_in_sandbox(
        &self,
        name: &str,
        bytes: Vec<u8>,
        media_type: &str,
    ) -> anyhow::Result<(String, CallStats)> {
        let request = WitImport {
            bytes,
            media_type: media_type.into(),
            images: vec![],
            options: vec![],
        };
        let (result, stats) =
            Self::warmed(&*self.bench_plugin(name)?)?.import(&self.sandbox, self.limits, &request);
        let out = result?.map_err(|e| anyhow::anyhow!("{}", convert_error(e)))?;
        Ok((out.document.model, stats))
    }

    /// Runs the active `name`'s exporter on this thread on a model given as JSON text (as
    /// it crosses into the sandbox), without queue or checks: benchmarks only.
    pub fn export_in_sandbox(
        &self,
        name: &str,
        model: String,
        media_type: &str,
    ) -> anyhow::Result<(Vec<u8>, CallStats)> {
        let request = WitExport {
            document: sandbox::wit_document(model, vec![]),
            media_type: media_type.into(),
            page: None,
            dpi: None,
            options: vec![],
        };
        let (result, stats) =
            Self::warmed(&*self.bench_plugin(name)?)?.export(&self.sandbox, self.limits, &request);
        let out = result?.map_err(|e| anyhow::anyhow!("{}", convert_error(e)))?;
        Ok((out.bytes, stats))
    }

    fn bench_plugin(&self, name: &str) -> anyhow::Result<Arc<ActivePlugin>> {
        self.active()
            .by_name
            .get(name)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("no active {name}"))
    }

    /// What clients may send and download: the active formats less the internal ones
    /// (`application/vnd.quire.*`, e.g. the form-field finder's), which only the host asks
    /// for. Media types are lower case, sorted, without repeats.
    pub fn public_formats(&self, exports: bool) -> Vec<Format> {
        let mut out: Vec<Format> = self
            .formats(exports)
            .into_iter()
            .filter(|f| !is_internal(&f.media_type))
            .map(|f| Format {
                media_type: f.media_type.to_ascii_lowercase(),
                extension: f.extension.to_ascii_lowercase(),
                kinds: f.kinds,
            })
            .collect();
        out.sort_by(|a, b| (&a.media_type, &a.extension).cmp(&(&b.media_type, &b.extension)));
        out.dedup();
        out
    }

    /// The formats active converters read (`imports`) or write (`exports`).
    pub fn formats(&self, exports: bool) -> Vec<Format> {
        let set = self.active();
        let mut out: Vec<Format> = set
            .by_name
            .values()
            .flat_map(|p| {
                if exports {
                    p.info.exports.clone()
                } else {
                    p.info.imports.clone()
                }
            })
            .collect();
        out.sort_by(|a, b| a.extension.cmp(&b.extension));
        out.dedup();
        out
    }

    fn find(&self, exports: bool, wanted: &str) -> Result<Arc<ActivePlugin>, ConversionError> {
        let set = self.active();
        let hit = set.by_name.values().find(|p| {
            let formats = if exports {
                &p.info.exports
            } else {
                &p.info.imports
            };
            formats.iter().any(|f| {
                f.media_type.eq_ignore_ascii_case(wanted)
                    || f.extension.eq_ignore_ascii_case(wanted)
            })
        });
        hit.cloned().ok_or_else(|| ConversionError::NoConverter {
            direction: if exports { "write" } else { "read" },
            what: wanted.to_string(),
            served: self
                .formats(exports)
                .into_iter()
                .map(|f| format!("{} (.{})", f.media_type, f.extension))
                .collect(),
        })
    }

    /// Whether the active importer of `media_type` describes the option `name`.
    pub fn import_option(&self, media_type: &str, name: &str) -> bool {
        self.find(false, media_type)
            .is_ok_and(|p| p.info.options.iter().any(|o| o.name == name))
    }

    /// The media type of an export extension (`pdf` -> `application/pdf`), if one is served.
    pub fn export_media_type(&self, extension: &str) -> Option<String> {
        self.formats(true)
            .into_iter()
            .find(|f| f.extension == extension)
            .map(|f| f.media_type)
    }

    /// Conversions running now, and callers waiting for a worker.
    pub fn queue_load(&self) -> (usize, usize) {
        self.queue.load()
    }

    /// Runs one call of `plugin` behind the queue and sorts out who failed: the sandbox
    /// (limits, crash) or the converter (its own refusal).
    async fn run_in_sandbox<Req: Send + 'static, Out: Send + 'static>(
        &self,
        plugin: &Arc<ActivePlugin>,
        direction: &'static str,
        request: Req,
        call: SandboxCall<Req, Out>,
    ) -> Result<(Out, CallStats, String), ConversionError> {
        if let Err(e) = self.ready(plugin).await {
            return Err(ConversionError::Sandbox {
                plugin: plugin.label(),
                error: CallError::Host(format!("{e:#}")),
            });
        }
        let (sandbox, limits, p) = (self.sandbox.clone(), self.limits, plugin.clone());
        let record = |outcome: &'static str, stats: Option<&CallStats>| {
            crate::metrics::global().conversion(
                &plugin.info.name,
                &plugin.info.version,
                direction,
                outcome,
                stats.map(|s| (s.elapsed, s.fuel_used, s.peak_memory)),
            );
        };
        let ran = self
            .queue
            .run(limits.deadline + Duration::from_secs(2), move || {
                // Made ready above, and a OnceCell is never unset.
                match p.loaded.get() {
                    Some(loaded) => call(loaded, &sandbox, limits, &request),
                    None => (
                        Err(CallError::Host("the converter is not loaded".into())),
                        CallStats::default(),
                    ),
                }
            })
            .await;
        let (result, stats) = match ran {
            Ok(r) => r,
            Err(e) => {
                record(
                    match e {
                        QueueError::Full { .. } => "queue_full",
                        QueueError::Busy { .. } => "queue_wait",
                        QueueError::TimedOut(_) => "timed_out",
                        QueueError::Worker(_) => "crash",
                    },
                    None,
                );
                return Err(e.into());
            }
        };
        let label = plugin.label();
        let out = match result {
            Ok(Ok(out)) => out,
            Ok(Err(e)) => {
                record("refused", Some(&stats));
                return Err(ConversionError::Refused(convert_error(e)));
            }
            Err(error) => {
                record(error.fault(), Some(&stats));
                return Err(ConversionError::Sandbox {
                    plugin: label,
                    error,
                });
            }
        };
        record("ok", Some(&stats));
        Ok((out, stats, label))
    }

    /// Reads `bytes` of `media_type` into a checked model.
    pub async fn import(
        &self,
        bytes: Vec<u8>,
        media_type: &str,
        images: Vec<Asset>,
        options: Vec<(String, String)>,
    ) -> Result<Converted<ImportOutput>, ConversionError> {
        let plugin = self.find(false, media_type)?;
        let request = WitImport {
            bytes,
            media_type: media_type.to_string(),
            images: images.into_iter().map(sandbox::wit_asset).collect(),
            options,
        };
        let (out, stats, label) = self
            .run_in_sandbox(&plugin, "import", request, Loaded::import)
            .await?;
        let assets: Vec<Asset> = out
            .document
            .assets
            .into_iter()
            .map(sandbox::asset_from_wit)
            .collect();
        let document =
            validate::parse_and_check(&out.document.model, assets.iter().map(|a| a.name.as_str()))
                .map_err(|error| ConversionError::InvalidOutput {
                    plugin: label.clone(),
                    error,
                })?;
        Ok(Converted {
            value: ImportOutput { document, assets },
            warnings: out.warnings,
            stats,
            plugin: label,
        })
    }

    /// Draws a checked model as `format` (an extension or a media type).
    pub async fn export(
        &self,
        document: &Document,
        assets: &[Asset],
        format: &str,
        page: Option<u32>,
        dpi: Option<u32>,
    ) -> Result<Converted<ExportOutput>, ConversionError> {
        let plugin = self.find(true, format)?;
        let media_type = plugin
            .info
            .exports
            .iter()
            .find(|f| {
                f.media_type.eq_ignore_ascii_case(format)
                    || f.extension.eq_ignore_ascii_case(format)
            })
            .map(|f| f.media_type.clone())
            .unwrap_or_else(|| format.to_string());
        let model = serde_json::to_string(document).map_err(|e| {
            ConversionError::Refused(ConvertError::InvalidRequest(format!("model: {e}")))
        })?;
        let request = WitExport {
            document: sandbox::wit_document(
                model,
                assets.iter().cloned().map(sandbox::wit_asset).collect(),
            ),
            media_type,
            page,
            dpi,
            options: Vec::new(),
        };
        let (out, stats, label) = self
            .run_in_sandbox(&plugin, "export", request, Loaded::export)
            .await?;
        Ok(Converted {
            value: ExportOutput {
                bytes: out.bytes,
                media_type: out.media_type,
                headers: out.headers,
            },
            warnings: out.warnings,
            stats,
            plugin: label,
        })
    }
}

/// Formats only the host asks for; never offered to clients.
pub const INTERNAL_MEDIA_PREFIX: &str = "application/vnd.quire.";

pub fn is_internal(media_type: &str) -> bool {
    media_type
        .to_ascii_lowercase()
        .starts_with(INTERNAL_MEDIA_PREFIX)
}

fn info_from_wit(i: sandbox::WitPluginInfo) -> PluginInfo {
    let f = |v: Vec<sandbox::WitFormat>| {
        v.into_iter()
            .map(|f| Format::new(&f.media_type, &f.extension))
            .collect()
    };
    PluginInfo {
        name: i.name,
        version: i.version,
        imports: f(i.imports),
        exports: f(i.exports),
        options: i
            .options
            .into_iter()
            .map(|o| quire_sdk::OptionSpec {
                name: o.name,
                description: o.description,
            })
            .collect(),
    }
}

fn convert_error(e: WitError) -> ConvertError {
    match e {
        WitError::Unsupported(s) => ConvertError::Unsupported(s),
        WitError::Damaged(s) => ConvertError::Damaged(s),
        WitError::Refused(r) => ConvertError::Refused {
            kind: r.kind,
            detail: r.detail,
        },
        WitError::Locked(l) => ConvertError::Locked(LockInfo {
            opens: l.opens,
            allows: Permissions {
                print: l.allows.print,
                copy: l.allows.copy,
                modify: l.allows.modify,
            },
            detail: l.detail,
        }),
        WitError::PasswordRequired(s) => ConvertError::PasswordRequired(s),
        WitError::TooLarge(s) => ConvertError::TooLarge(s),
        WitError::InvalidRequest(s) => ConvertError::InvalidRequest(s),
    }
}

/// Which converter of another name among `active` already reads or writes one of `info`'s
/// formats: a media type or extension routes to one converter only, or requests would go to
/// whichever sorts first. A new version of `name` itself replaces it, so it never clashes.
fn first_clash<'a>(
    name: &str,
    info: &PluginInfo,
    active: impl Iterator<Item = &'a PluginInfo>,
) -> Option<String> {
    for other in active.filter(|p| p.name != name) {
        let pairs = [
            ("reads", &info.imports, &other.imports),
            ("writes", &info.exports, &other.exports),
        ];
        for (verb, mine, theirs) in pairs {
            for f in mine {
                let taken = theirs.iter().find(|t| {
                    t.media_type.eq_ignore_ascii_case(&f.media_type)
                        || t.extension.eq_ignore_ascii_case(&f.extension)
                });
                if let Some(t) = taken {
                    return Some(format!(
                        "`{}`@{} already {verb} {} (.{}); deactivate it first",
                        other.name, other.version, t.media_type, t.extension
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod clash_tests {
    use super::*;

    fn plugin(name: &str, imports: &[(&str, &str)], exports: &[(&str, &str)]) -> PluginInfo {
        let formats = |list: &[(&str, &str)]| list.iter().map(|(m, e)| Format::new(m, e)).collect();
        PluginInfo {
            name: name.into(),
            version: "1.0.0".into(),
            imports: formats(imports),
            exports: formats(exports),
            options: Vec::new(),
        }
    }

    #[test]
    fn a_second_reader_of_a_media_type_or_extension_is_refused_naming_the_holder() {
        let active = [plugin("plain-text", &[("text/plain", "txt")], &[])];
        let same_type = plugin("other", &[("TEXT/PLAIN", "text")], &[]);
        let why = first_clash("other", &same_type, active.iter()).unwrap();
        assert!(
            why.contains("`plain-text`@1.0.0 already reads text/plain"),
            "{why}"
        );
        let same_extension = plugin("other", &[("text/x-log", "TXT")], &[]);
        assert!(first_clash("other", &same_extension, active.iter()).is_some());
    }

    #[test]
    fn the_other_direction_and_a_new_version_of_the_same_name_are_no_clash() {
        let active = [plugin("plain-text", &[("text/plain", "txt")], &[])];
        let writer = plugin("text", &[], &[("text/plain", "txt")]);
        assert_eq!(first_clash("text", &writer, active.iter()), None);
        let upgrade = plugin("plain-text", &[("text/plain", "txt")], &[]);
        assert_eq!(first_clash("plain-text", &upgrade, active.iter()), None);
    }
}

/// A file's size and modification time: what `bootstrap` compares instead of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    modified_nanos: u128,
}

impl FileStamp {
    fn of(path: &Path) -> anyhow::Result<FileStamp> {
        let meta =
            std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
        let modified_nanos = meta
            .modified()?
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Ok(FileStamp {
            len: meta.len(),
            modified_nanos,
        })
    }
}

/// Where [`FileDigests`] are kept in the compile cache, sealed with its key.
const PLUGIN_FILES: &str = "plugin-files.tsv";

/// The digests of the plugin directory's files as last read, one `path, size, mtime,
/// digest` line each. Damaged or missing, it is empty: every file is read again.
#[derive(Debug, Default)]
struct FileDigests {
    entries: BTreeMap<String, (FileStamp, String)>,
    /// Whether anything was recorded since it was read.
    changed: bool,
}

impl FileDigests {
    fn parse(text: &str) -> FileDigests {
        let entries = text
            .lines()
            .filter_map(|line| {
                let mut parts = line.split('\t');
                let (file, len, modified, digest) =
                    (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
                let stamp = FileStamp {
                    len: len.parse().ok()?,
                    modified_nanos: modified.parse().ok()?,
                };
                Some((file.to_string(), (stamp, digest.to_string())))
            })
            .collect();
        FileDigests {
            entries,
            changed: false,
        }
    }

    fn digest(&self, path: &Path, stamp: &FileStamp) -> Option<&str> {
        let (seen, digest) = self.entries.get(path.to_str()?)?;
        (seen == stamp).then_some(digest.as_str())
    }

    fn record(&mut self, path: &Path, stamp: FileStamp, digest: String) {
        if let Some(file) = path.to_str().filter(|f| !f.contains(['\t', '\n'])) {
            self.entries.insert(file.to_string(), (stamp, digest));
            self.changed = true;
        }
    }

    fn text(&self) -> String {
        let mut text = String::new();
        for (file, (stamp, digest)) in &self.entries {
            text.push_str(&format!(
                "{file}\t{}\t{}\t{digest}\n",
                stamp.len, stamp.modified_nanos
            ));
        }
        text
    }
}

#[cfg(test)]
mod file_digest_tests {
    use super::*;

    #[test]
    fn a_file_changed_since_it_was_read_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let wasm = dir.path().join("a.wasm");
        std::fs::write(&wasm, b"one").unwrap();
        let stamp = FileStamp::of(&wasm).unwrap();
        let mut memo = FileDigests::default();
        memo.record(&wasm, stamp, "d1".into());
        let memo = FileDigests::parse(&memo.text());
        assert_eq!(memo.digest(&wasm, &stamp), Some("d1"));
        std::fs::write(&wasm, b"longer").unwrap();
        assert_eq!(memo.digest(&wasm, &FileStamp::of(&wasm).unwrap()), None);
    }
}
