//! The CUDA backend: compiles the kernels `dwt-emit-c` emits in its [`Cuda`] dialect with NVRTC
//! for the device's architecture and runs whole multi-level 1-D, 2-D and 3-D transforms with the
//! CPU reference's level semantics, interpreting the backend-neutral launch plan
//! ([`dwt_emit_c::plan()`]) the OpenCL backend's passes are made of.
//!
//! - The driver (`libcuda`) and NVRTC are loaded at run time. [`CudaBackend::new`] checks both are
//!   there before anything touches them (cudarc panics otherwise) and says what to install.
//! - Each kernel a request's plan launches is compiled as a module of its own
//!   ([`dwt_emit_c::KernelModule::kernel_source`]), a plan's kernels on threads of their own:
//!   NVRTC compiles a program on one thread, and a kernel several plans launch is built once.
//! - Modules are compiled to CUBIN (`--gpu-architecture=sm_XY` from the device's compute
//!   capability; float multiply-adds fused), cached per device and source, shared by every backend
//!   value and thread; each is compiled once ([`BuildCache`]: a compile error is kept, a
//!   device's failure tried again at the next call). CUBINs are also cached on disk ([`disk_cache`]:
//!   `$DWT_CACHE_DIR`, else `$XDG_CACHE_HOME/lifting`, else `~/.cache/lifting`), keyed by the
//!   SHA-256 of the source, the device, the driver and NVRTC versions and the options; a corrupt
//!   entry is compiled again.
//! - [`Backend::prepare`] emits, plans, builds and loads a request's functions once and returns a
//!   prepared transform that only moves the data and launches ([`dwt_runtime::Plan`] uses it);
//!   `run`, `run_on_device` and `run_on_device_into` keep each request's prepared launches
//!   ([`dwt_runtime::PreparedCache`]) for the next call.
//! - 2-D transforms take the fused pass by default ([`Strategy::Fused`], out of place):
//!   [`CudaBackend::run_on_device_into`] reads the source once and writes the destination once
//!   per level; in place, the data is first copied to a temporary source.
//! - The data goes to the device once and comes back once per transform ([`Backend::run`]);
//!   [`CudaBackend::run_on_device`] takes a [`CudaSlice`] already on the device and copies nothing
//!   to or from the host. A plan's batch of frames in page-locked memory
//!   ([`dwt_runtime::Plan::execute_frames`] on [`HostBuffer`]s) runs in turns on three streams,
//!   one frame's copy in beside another's copy back (module `frames`).
//! - Every transform's steps go through one interpreter of the plan (raw driver launches);
//!   transforms on the device record them as a CUDA graph per (stream, source, data) buffers at
//!   those buffers' second call and replay it from the third, at every size: a replay submits
//!   a transform's launches at once, which starts its first kernel sooner and keeps the short
//!   later levels' kernels back to back ([`CudaBackend::with_graph_limit`],
//!   [`CudaBackend::graph_counts`]).
//! - A recorded graph copies 512 MiB or more with a copy kernel (module `copy`), where the
//!   driver's memcpy node ran at two thirds of the copy rate; smaller copies, and copies issued
//!   on a stream, are memcpys.
//! - The Mallat layout's sliding-window passes (and column segments) read one buffer and write
//!   the other (their writes land on samples other windows still read): the plan moves each
//!   level's band between the data and a scratch buffer, the rows kernel bringing it back; a
//!   level without one that would end in the scratch starts from a device-to-device copy of the
//!   contiguous span that covers the band.
//! - [`Tuning::Measured`] (or `DWT_TUNE=measure`): each 2-D or 3-D request's launch
//!   configuration is the fastest of [`LaunchConfig::candidates`] timed on the device (module
//!   `tune`), the choice cached on disk; by default ([`Tuning::Fixed`]) the configuration given.
//! - What the kernels cannot do (a scale between steps on lines longer than the row limit, more
//!   than 2^31 samples) is [`DwtError::Unsupported`], found before the data is touched.

mod copy;
mod device_choice;
pub mod disk_cache;
mod frames;
mod graph;
mod host;
mod host_buffer;
mod launch;
mod nvrtc;
mod profile;
mod tune;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use cudarc::driver::{
    sys, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DeviceRepr, ValidAsZeroBits,
};
use dwt_emit_c::{emit_module, Cuda, KernelModule, LaunchPlan, Step};
use dwt_ir::ElementType;
use dwt_runtime::{
    Backend, BuildCache, DwtError, Element, FrameFailure, KernelOrigin, ModuleReport,
    PrepareReport, PreparedCache, PreparedTransform, Request, Samples,
};

pub use copy::COPY_KERNEL_FROM;
#[doc(hidden)]
pub use copy::{NAME as COPY_KERNEL, SOURCE as COPY_KERNEL_SOURCE};
pub use device_choice::{ordinal_from_env, DEVICE_ENV};
pub use dwt_emit_c::{LaunchConfig, Strategy};
pub use graph::{GraphCounts, KEPT as GRAPHS_KEPT};
#[doc(hidden)]
pub use host::bytes_locked as host_bytes_locked;
pub use host_buffer::HostBuffer;
pub use nvrtc::{
    annotate_log, check_nvrtc, compile, function_usage, options, version as nvrtc_version,
    Compiled, FunctionUsage, PROGRAM_NAME,
};
pub use profile::StepTime;
pub use tune::{Tuning, TUNING_ENV};

/// The name the backend is selected by.
pub const NAME: &str = "cuda";

/// What to install when the driver library is missing.
pub const DRIVER_MISSING: &str = "the CUDA driver library (libcuda.so) was not found: install an NVIDIA driver (it provides libcuda) on a machine with an NVIDIA GPU";

/// What to install when NVRTC is missing.
pub const NVRTC_MISSING: &str = "NVRTC (libnvrtc.so.13) was not found: install it, e.g. `pip install nvidia-cuda-nvrtc==13.0.88`, and put its `.../nvidia/cu13/lib` folder on LD_LIBRARY_PATH (or install the CUDA 13 toolkit)";

pub(crate) fn unavailable(reason: impl Into<String>) -> DwtError {
    DwtError::Unavailable {
        backend: NAME.into(),
        reason: reason.into(),
    }
}

fn device_error(e: impl std::fmt::Debug) -> DwtError {
    DwtError::Device {
        backend: NAME.into(),
        message: format!("{e:?}"),
    }
}

fn unsupported(what: impl Into<String>) -> DwtError {
    DwtError::Unsupported {
        backend: NAME.into(),
        what: what.into(),
    }
}

/// The error for the given library presence (driver, NVRTC), or `Ok` when both are there: what
/// [`CudaBackend::new`] checks first.
pub fn check_libraries(driver: bool, nvrtc: bool) -> Result<(), DwtError> {
    match (driver, nvrtc) {
        (true, true) => Ok(()),
        (false, true) => Err(unavailable(DRIVER_MISSING)),
        (true, false) => Err(unavailable(NVRTC_MISSING)),
        (false, false) => Err(unavailable(format!("{DRIVER_MISSING}; {NVRTC_MISSING}"))),
    }
}

/// Host element types the kernels take.
pub trait DeviceElement: Element + DeviceRepr + ValidAsZeroBits {}
impl DeviceElement for i16 {}
impl DeviceElement for i32 {}
impl DeviceElement for f32 {}
impl DeviceElement for f64 {}

/// CUDA's per-thread default stream (`CU_STREAM_PER_THREAD`, cudarc's
/// `CudaContext::per_thread_stream`): one handle that is another stream on every thread.
const PER_THREAD_STREAM: usize = 0x2;

/// The process's CUDA device with its context and module cache.
struct DeviceState {
    ctx: Arc<CudaContext>,
    name: String,
    capability: (i32, i32),
    driver_version: i32,
    /// Keyed by (device, the source itself): a hash alone could, however rarely, hand one
    /// source another's module.
    modules: BuildCache<(usize, String), Arc<CudaModule>>,
    /// The stream graphs are recorded on (created at the first recording; 0 before), held
    /// while recording.
    capture: Mutex<usize>,
    /// The measuring planner's choices in this process, by request, element type and
    /// configuration (`tune`): a second preparation of a request emits and builds only the
    /// chosen candidate, measuring nothing and reading no disk.
    choices: Mutex<HashMap<String, dwt_runtime::TuningReport>>,
    /// The streams of finished batches of frames, for the next (module `frames`).
    frame_streams: Mutex<Vec<[Arc<CudaStream>; frames::TURNS]>>,
}

/// The driver's version once the driver and NVRTC are found usable, checked once per process.
static DRIVER: OnceLock<Result<i32, DwtError>> = OnceLock::new();

/// The devices opened so far, by ordinal, each kept for the process: backends on one device
/// share its context and module cache.
static OPENED: Mutex<Vec<(usize, &'static DeviceState)>> = Mutex::new(Vec::new());

impl DeviceState {
    /// The stream graphs are recorded on, held by the caller until its recording ends (two
    /// recordings at once would capture into one graph).
    fn capture_stream(&self) -> Result<std::sync::MutexGuard<'_, usize>, DwtError> {
        let mut capture = self.capture.lock().unwrap_or_else(|e| e.into_inner());
        if *capture == 0 {
            self.ctx.bind_to_thread().map_err(device_error)?;
            *capture = cudarc::driver::result::stream::create(
                cudarc::driver::result::stream::StreamKind::NonBlocking,
            )
            .map_err(device_error)? as usize;
        }
        Ok(capture)
    }
}

/// The driver's version, once the driver and NVRTC are there and fit each other.
fn libraries() -> Result<i32, DwtError> {
    // SAFETY: each only tries to open its library.
    let driver = unsafe { cudarc::driver::sys::is_culib_present() };
    let nvrtc = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    check_libraries(driver, nvrtc)?;
    checked_driver_version()
}

/// The names of the devices there are, by ordinal.
fn device_names(driver_version: i32) -> Result<Vec<String>, DwtError> {
    use cudarc::driver::result::device;
    let none = |e: cudarc::driver::DriverError| {
        unavailable(format!(
            "no usable CUDA device ({e:?}): the NVIDIA driver (CUDA {}) is installed but offers no device (`nvidia-smi` says why)",
            cuda_version_text(driver_version)
        ))
    };
    let count = CudaContext::device_count().map_err(none)?;
    (0..count)
        .map(|i| {
            let name = device::get(i).and_then(device::get_name).map_err(none)?;
            Ok(name)
        })
        .collect()
}

/// Device `ordinal` (`None`: device 0; `origin` says where the ordinal came from), opened once
/// per process.
fn device_state(ordinal: Option<usize>, origin: &str) -> Result<&'static DeviceState, DwtError> {
    let driver_version = DRIVER.get_or_init(libraries).clone()?;
    let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    let ordinal_or_first = ordinal.unwrap_or(0);
    if let Some(&(_, state)) = opened.iter().find(|(o, _)| *o == ordinal_or_first) {
        return Ok(state);
    }
    let names = device_names(driver_version)?;
    if names.is_empty() {
        return Err(unavailable(format!(
            "no usable CUDA device: the NVIDIA driver (CUDA {}) is installed but offers no device (`nvidia-smi` says why)",
            cuda_version_text(driver_version)
        )));
    }
    if ordinal_or_first >= names.len() {
        return Err(unavailable(device_choice::no_such_device(
            ordinal_or_first,
            &names,
            origin,
        )));
    }
    // Kept for the process: backends hand out `&'static` references to it, and a process opens
    // each device at most once.
    let state: &'static DeviceState = Box::leak(Box::new(open(ordinal_or_first, driver_version)?));
    opened.push((ordinal_or_first, state));
    Ok(state)
}

fn open(ordinal: usize, driver_version: i32) -> Result<DeviceState, DwtError> {
    let ctx = CudaContext::new(ordinal).map_err(|e| {
        unavailable(format!(
            "CUDA device {ordinal} is not usable ({e:?}): the NVIDIA driver (CUDA {}) offers it but cannot open it (`nvidia-smi` says why)",
            cuda_version_text(driver_version)
        ))
    })?;
    let name = ctx.name().unwrap_or_else(|_| "unknown NVIDIA GPU".into());
    let capability = ctx.compute_capability().map_err(device_error)?;
    keep_pool_memory(&ctx);
    Ok(DeviceState {
        ctx,
        name,
        capability,
        driver_version,
        modules: BuildCache::default(),
        capture: Mutex::new(0),
        choices: Mutex::new(HashMap::new()),
        frame_streams: Mutex::new(Vec::new()),
    })
}

/// The driver functions called before the driver's version is known: a library without them
/// is not an NVIDIA driver.
const DRIVER_ENTRY_POINTS: [&str; 2] = ["cuInit", "cuDriverGetVersion"];

/// The driver's version (`cuDriverGetVersion`, e.g. 13000), refusing a library named libcuda
/// that is not a driver, and a driver older than the CUDA the NVRTC found compiles for. cudarc
/// panics on a missing function (and aborts when its context's destructor then misses one
/// too): a driver of CUDA 11.0 lacks the memory-pool functions [`keep_pool_memory`] calls. A
/// driver of an older major version could not load the CUBINs anyway.
fn checked_driver_version() -> Result<i32, DwtError> {
    // SAFETY: the library was found (check_libraries); loading it runs its initialisers, as any
    // use of the driver would.
    let lib = unsafe { cudarc::driver::sys::culib() };
    for name in DRIVER_ENTRY_POINTS {
        // SAFETY: only looked up, never called through this type.
        if unsafe { lib.get::<unsafe extern "C" fn()>(name.as_bytes()) }.is_err() {
            return Err(unavailable(format!(
                "the library loaded as the CUDA driver (libcuda.so) has no `{name}`: it is not an NVIDIA driver (a stub, or another library of that name on the library path); install an NVIDIA driver on a machine with an NVIDIA GPU"
            )));
        }
    }
    let mut version = 0;
    // SAFETY: the function exists (checked above) and may be called before cuInit; the pointer
    // is valid.
    unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }
        .result()
        .map_err(device_error)?;
    let (major, minor) = nvrtc::version()?;
    if version / 1000 < major {
        return Err(unavailable(format!(
            "the NVIDIA driver supports CUDA {} but NVRTC {major}.{minor} compiles the kernels for CUDA {major}: install an NVIDIA driver for CUDA {major} or later",
            cuda_version_text(version)
        )));
    }
    Ok(version)
}

/// `cuDriverGetVersion`'s number as CUDA's `major.minor`.
fn cuda_version_text(version: i32) -> String {
    format!("{}.{}", version / 1000, version % 1000 / 10)
}

/// Lets the device's default memory pool keep freed memory instead of returning it to the driver
/// at every synchronisation: the scratch buffers of a transform are allocated and freed in stream
/// order on every call, and each real allocation of a large one costs tens of microseconds (the
/// caching allocators of the machine-learning frameworks do the same). Best effort: a device
/// without memory pools keeps synchronous allocation.
fn keep_pool_memory(ctx: &CudaContext) {
    use cudarc::driver::sys;
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    let mut threshold = u64::MAX;
    // SAFETY: the context is current on this thread (CudaContext::new made it so), `pool` and
    // `threshold` are valid for writes and reads of their types.
    unsafe {
        if sys::cuDeviceGetDefaultMemPool(&mut pool, ctx.cu_device()) == sys::CUresult::CUDA_SUCCESS
        {
            let _ = sys::cuMemPoolSetAttribute(
                pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                (&mut threshold as *mut u64).cast(),
            );
        }
    }
}

/// The CUDA backend on the first CUDA device. Cheap to create: the device is discovered once per
/// process and every value shares it and its module cache.
pub struct CudaBackend {
    state: &'static DeviceState,
    config: LaunchConfig,
    tuning: Tuning,
    plans: PreparedCache<Prepared>,
    graph_samples: usize,
    graph_counts: Arc<graph::Counters>,
    /// Bytes from which a recorded graph copies with the copy kernel ([`COPY_KERNEL_FROM`]).
    copy_kernel_from: usize,
}

impl CudaBackend {
    /// The backend on the device [`DEVICE_ENV`] names (device 0 where unset) with the default
    /// [`LaunchConfig`]; [`DwtError::Unavailable`] saying what to install when the driver or
    /// NVRTC is missing or there is no device.
    pub fn new() -> Result<Self, DwtError> {
        Self::with_config(LaunchConfig::default())
    }

    /// The backend with other launch parameters (window height, block sizes, row limit), on
    /// the device [`DEVICE_ENV`] names (device 0 where unset). An ordinal that is malformed or
    /// names no device is [`DwtError::Unavailable`], listing the devices there are.
    pub fn with_config(config: LaunchConfig) -> Result<Self, DwtError> {
        let ordinal = device_choice::ordinal_from_env().map_err(unavailable)?;
        Self::open(device_state(ordinal, DEVICE_ENV)?, config)
    }

    /// The backend on CUDA device `ordinal` (counted among those `CUDA_VISIBLE_DEVICES` leaves
    /// visible), whatever [`DEVICE_ENV`] says: one process may run a backend per GPU. No such
    /// device is [`DwtError::Unavailable`], listing those there are.
    pub fn on_device(ordinal: usize, config: LaunchConfig) -> Result<Self, DwtError> {
        Self::open(
            device_state(Some(ordinal), "CudaBackend::on_device")?,
            config,
        )
    }

    /// The names of the CUDA devices there are, by ordinal.
    pub fn devices() -> Result<Vec<String>, DwtError> {
        device_names(DRIVER.get_or_init(libraries).clone()?)
    }

    fn open(state: &'static DeviceState, config: LaunchConfig) -> Result<Self, DwtError> {
        Ok(CudaBackend {
            state,
            config,
            tuning: Tuning::from_env()?,
            plans: PreparedCache::default(),
            graph_samples: usize::MAX,
            graph_counts: Arc::default(),
            copy_kernel_from: COPY_KERNEL_FROM,
        })
    }

    /// The backend running transforms of up to `samples` samples on the device
    /// ([`CudaBackend::run_on_device`], [`CudaBackend::run_on_device_into`]) as CUDA graphs (by
    /// default every size): each prepared request records its launches at the second call on
    /// the same (stream, source, destination) buffers, keeps the [`GRAPHS_KEPT`] most recent,
    /// and replays them; its graphs on one stream share one scratch (and one copy of the input,
    /// in place). 0 launches every kernel on its own. Host runs never record, nor do runs on
    /// CUDA's per-thread default stream (`CudaContext::per_thread_stream`: one handle naming a
    /// stream per thread, whose transforms run at once and so cannot share buffers).
    pub fn with_graph_limit(mut self, samples: usize) -> Self {
        self.graph_samples = samples;
        // Requests prepared before carry the old limit.
        self.plans = PreparedCache::default();
        self
    }

    /// The backend copying with its copy kernel in recorded graphs from `bytes` up instead of
    /// [`COPY_KERNEL_FROM`] (`usize::MAX`: never; 0: every copy of whole 16-byte words): for
    /// measuring the two ways side by side, and for tests.
    #[doc(hidden)]
    pub fn with_copy_kernel_from(mut self, bytes: usize) -> Self {
        self.copy_kernel_from = bytes;
        // Requests prepared before built the kernel, or not, for the old bound.
        self.plans = PreparedCache::default();
        self
    }

    /// How many CUDA graphs this backend (and the transforms it prepared) recorded and replayed
    /// so far: a loop over the same buffers should replay from its third call.
    pub fn graph_counts(&self) -> GraphCounts {
        self.graph_counts.get()
    }

    pub fn config(&self) -> &LaunchConfig {
        &self.config
    }

    /// The backend choosing each request's configuration as `tuning` says, whatever
    /// [`TUNING_ENV`] says.
    pub fn with_tuning(mut self, tuning: Tuning) -> Self {
        self.tuning = tuning;
        // Requests prepared before were configured the old way.
        self.plans = PreparedCache::default();
        self
    }

    /// How the backend chooses each request's configuration.
    pub fn tuning(&self) -> Tuning {
        self.tuning
    }

    /// What was measured to choose the request's configuration, preparing it as a run would
    /// (`None` unless the backend measures and the request is 2-D or 3-D).
    pub fn tuning_report(
        &self,
        request: &Request,
        element: ElementType,
    ) -> Result<Option<dwt_runtime::TuningReport>, DwtError> {
        Ok(self.prepared(request, element)?.tuning.clone())
    }

    /// The context device buffers passed to [`CudaBackend::run_on_device`] must belong to.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.state.ctx
    }

    /// `len` samples of page-locked host memory, zeroed, for host data transformed in a loop
    /// (the frames of a video): its transforms copy to and from the device directly, where a
    /// transform of ordinary memory locks and unlocks it on every call, about half of a large
    /// host transform's time (BENCHMARKS.md).
    pub fn host_buffer<T: DeviceElement>(&self, len: usize) -> Result<HostBuffer<T>, DwtError> {
        HostBuffer::zeroed(&self.state.ctx, len)
    }

    /// The context's default stream (to allocate and copy buffers on).
    pub fn stream(&self) -> Arc<CudaStream> {
        self.state.ctx.default_stream()
    }

    /// `sm_XY`, the architecture modules are compiled for.
    pub fn arch(&self) -> String {
        let (major, minor) = self.state.capability;
        format!("sm_{major}{minor}")
    }

    /// Compiles CUDA C++ `source` for the device through the backend's module cache and loads
    /// it: the path every emitted module takes. A compiler error is [`DwtError::Build`] with
    /// NVRTC's log and the source lines it points at.
    pub fn build(&self, source: &str) -> Result<Arc<CudaModule>, DwtError> {
        self.build_reporting(source).map(|(module, _, _)| module)
    }

    /// What keys this device's CUBINs in the disk cache; `None` when NVRTC's version is unknown.
    pub fn cache_identity(&self) -> Option<disk_cache::CacheIdentity> {
        let arch = self.arch();
        Some(disk_cache::CacheIdentity {
            device_name: self.state.name.clone(),
            options: options(&arch),
            arch,
            driver_version: self.state.driver_version,
            nvrtc_version: nvrtc_version().ok()?,
        })
    }

    /// [`CudaBackend::build`], saying where the module came from (this process's cache, the disk
    /// cache, NVRTC) and how long getting it took. A CUBIN the disk cache could not store is not
    /// said here: [`Backend::prepare`]'s report has it.
    pub fn build_reporting(
        &self,
        source: &str,
    ) -> Result<(Arc<CudaModule>, KernelOrigin, Duration), DwtError> {
        self.build_warning(source)
            .map(|(module, origin, time, _)| (module, origin, time))
    }

    /// [`CudaBackend::build_reporting`] and the warning of a CUBIN the disk cache could not store
    /// (only when it was compiled now).
    fn build_warning(
        &self,
        source: &str,
    ) -> Result<(Arc<CudaModule>, KernelOrigin, Duration, Option<String>), DwtError> {
        let start = Instant::now();
        let mut origin = KernelOrigin::Memory;
        let mut warning = None;
        let key = (self.state.ctx.ordinal(), source.to_string());
        let module = self.state.modules.get_or_build(key, || {
            let entry = self
                .cache_identity()
                .and_then(|id| disk_cache::entry(&id, source));
            // Only an ELF image is handed to the driver, which would read anything else as
            // PTX text up to a NUL byte the entry may not hold.
            let cubin = entry
                .as_deref()
                .and_then(dwt_emit_c::disk_cache::load)
                .filter(|bytes| bytes.starts_with(b"\x7fELF"));
            if let Some(cubin) = cubin {
                let ptx = cudarc::nvrtc::Ptx::from_binary(cubin);
                if let Ok(module) = self.state.ctx.load_module(ptx) {
                    origin = KernelOrigin::DiskCache;
                    return Ok(module);
                }
            }
            let compiled = compile(source, &self.arch())?;
            warning = entry.as_deref().and_then(|entry| {
                dwt_emit_c::disk_cache::store_or_warn(
                    entry,
                    &compiled.cubin,
                    "the module will be compiled again",
                )
            });
            origin = KernelOrigin::Compiled;
            self.state
                .ctx
                .load_module(cudarc::nvrtc::Ptx::from_binary(compiled.cubin))
                .map_err(device_error)
        })?;
        Ok((module, origin, start.elapsed(), warning))
    }

    /// Transforms a slice already on the device (of this backend's [`context`](Self::context))
    /// in place, on the slice's stream, without waiting: no host copies. Validated as
    /// [`Request::validate`] does, with the slice's length. The request's emitted module, plan and
    /// functions are kept for the next call with the same request (the hot path only launches).
    /// A fused plan (out of place) first copies the data to a temporary source buffer: use
    /// [`CudaBackend::run_on_device_into`] to skip that copy. A volume whose levels the one-pass
    /// volume kernels lift out of place (LeGall 5/3, the integer Daubechies 9/7, CDF 5/3 and 9/7,
    /// in 4-byte samples) is lifted in place by the two passes instead, which need no copy but
    /// move each level through memory twice: at 512^3 three levels 1.1-1.8x the time of
    /// [`run_on_device_into`](Self::run_on_device_into) on an H200 (BENCHMARKS.md).
    pub fn run_on_device<T: DeviceElement>(
        &self,
        request: &Request,
        data: &mut CudaSlice<T>,
    ) -> Result<(), DwtError> {
        request.validate_for(T::TYPE, data.len())?;
        self.check_device(data.stream(), "the data")?;
        let prepared = self.prepared(request, T::TYPE)?;
        let stream = data.stream().clone();
        self.execute(&prepared, &stream, None, data, true)
    }

    /// Refuses a buffer (by its stream) of another device than the backend's: the kernels are
    /// loaded in the backend's context and cannot run on another's stream.
    fn check_device(&self, stream: &CudaStream, what: &str) -> Result<(), DwtError> {
        let theirs = stream.context();
        if theirs.cu_ctx() == self.state.ctx.cu_ctx() {
            return Ok(());
        }
        let (there, here) = (theirs.ordinal(), self.state.ctx.ordinal());
        Err(unsupported(if there == here {
            // cudarc opens only primary contexts: another one came from the driver API.
            format!("{what} lies in another CUDA context of device {here} than the backend's primary one: allocate it on `CudaBackend::context()`")
        } else {
            format!("{what} lies on CUDA device {there} but this backend runs on device {here}: allocate it on `CudaBackend::context()`, or transform it with `CudaBackend::on_device({there})`")
        }))
    }

    /// Transforms `src` into `dst` (both on the device, of the same length), on `dst`'s stream,
    /// without waiting; `src` is only read. With the fused 2-D pass this moves the data through
    /// memory once per level: one read of `src`, one write of `dst` (plus the smaller low bands
    /// of later levels); the fused 3-D plans read `src` where its samples are needed and copy
    /// nothing either, nor do the two passes where the rows kernel takes every level's rows
    /// (the forward's first rows kernel reads `src`; a 2-D or 3-D inverse's first window of
    /// each level reads it beside the low band in `dst`). The other two-pass plans (1-D
    /// inverses, rows longer than the rows kernel's limit) transform in place and first copy
    /// `src` to `dst`, so [`run_on_device`](Self::run_on_device) on a buffer you may overwrite
    /// is the faster call there (BENCHMARKS.md, `src->dst` against `in place`).
    pub fn run_on_device_into<T: DeviceElement>(
        &self,
        request: &Request,
        src: &CudaSlice<T>,
        dst: &mut CudaSlice<T>,
    ) -> Result<(), DwtError> {
        self.check_into(request, src, dst)?;
        let prepared = self.prepared(request, T::TYPE)?;
        let stream = dst.stream().clone();
        if prepared.plan.reads_source {
            self.execute(&prepared, &stream, Some(src), dst, true)
        } else {
            stream.memcpy_dtod(src, dst).map_err(device_error)?;
            self.execute(&prepared, &stream, None, dst, true)
        }
    }

    /// Refuses a request that does not fit `src`, and a `dst` of another length.
    fn check_into<T: DeviceElement>(
        &self,
        request: &Request,
        src: &CudaSlice<T>,
        dst: &CudaSlice<T>,
    ) -> Result<(), DwtError> {
        request.validate_into(NAME, T::TYPE, src.len(), dst.len())?;
        self.check_device(src.stream(), "the source")?;
        self.check_device(dst.stream(), "the destination")
    }

    /// Whether the request would run the fused 2-D kernel (else a pass per axis and level).
    pub fn is_fused(&self, request: &Request, element: ElementType) -> Result<bool, DwtError> {
        Ok(self.prepared(request, element)?.plan.is_fused())
    }

    /// The launches and band copies the request runs in place on this backend
    /// ([`run_on_device`](Self::run_on_device)): [`launch_plan`](Self::launch_plan)'s, unless
    /// that one would first copy the data (the one-pass volume kernel's, which reads a source
    /// and writes the data): then the plan without it, which lifts the data where it lies.
    pub fn in_place_plan(
        &self,
        request: &Request,
        element: ElementType,
    ) -> Result<LaunchPlan, DwtError> {
        let prepared = self.prepared(request, element)?;
        Ok(prepared
            .in_place
            .clone()
            .unwrap_or_else(|| prepared.plan.clone()))
    }

    /// The launches and band copies the request runs on this backend (prepared and cached as
    /// a run would: kernels built, nothing run).
    pub fn launch_plan(
        &self,
        request: &Request,
        element: ElementType,
    ) -> Result<LaunchPlan, DwtError> {
        Ok(self.prepared(request, element)?.plan.clone())
    }

    /// The CUDA C++ source of the kernels the request runs on this backend (each built as a
    /// module of its own from its part of this source, with the prelude): its configuration
    /// resolved for the request (measured, where the backend measures), and without the register
    /// cap where a kernel spilled under it ([`CudaBackend::uncapped_kernels`]). `dwt emit
    /// --target cuda` prints the configured module, before the device has a say.
    pub fn kernel_source(
        &self,
        request: &Request,
        element: ElementType,
    ) -> Result<String, DwtError> {
        Ok(self.prepared(request, element)?.source.clone())
    }

    /// The kernels of the request's module that used local memory on this device under the
    /// register cap ([`LaunchConfig::register_cap`]), as (name, bytes per work-item): the
    /// request was built without the cap instead. Empty where none did.
    pub fn uncapped_kernels(
        &self,
        request: &Request,
        element: ElementType,
    ) -> Result<Vec<(String, usize)>, DwtError> {
        Ok(self.prepared(request, element)?.uncapped.clone())
    }

    /// The request's prepared launches, from this backend's cache or prepared now.
    fn prepared(&self, request: &Request, elem: ElementType) -> Result<Arc<Prepared>, DwtError> {
        self.plans
            .get_or_prepare(request, elem, || self.prepare_launches(request, elem))
    }

    fn run_host<T: DeviceElement>(
        &self,
        request: &Request,
        data: &mut [T],
    ) -> Result<(), DwtError> {
        // Everything that can refuse the transform happens before the data moves.
        let prepared = self.prepared(request, T::TYPE)?;
        self.execute_host(&prepared, data)
    }

    /// Host data to the device once, every launch of `prepared`, and back once (the slice
    /// page-locked for the copies: module `host`).
    fn execute_host<T: DeviceElement>(
        &self,
        prepared: &Prepared,
        data: &mut [T],
    ) -> Result<(), DwtError> {
        let stream = self.stream();
        // SAFETY: the upload writes every element before anything reads the buffer.
        let mut uploaded = unsafe { stream.alloc::<T>(data.len()) }.map_err(device_error)?;
        // SAFETY: `data` stays borrowed, untouched here, until `download` or `locked`'s drop.
        let locked = unsafe { host::upload(&stream, data, &mut uploaded) }?;
        // A plan that reads a source reads the upload and writes a second buffer (no device
        // copy), unless it may read the data itself as its source: then it transforms the upload
        // in place, one buffer fewer.
        let result = if !prepared.plan.runs_in_place() {
            // SAFETY: a plan that reads a source writes every element of the data buffer (level
            // 0's last pass covers the whole image or volume) before the copy back reads it.
            let mut out = unsafe { stream.alloc::<T>(data.len()) }.map_err(device_error)?;
            self.execute(prepared, &stream, Some(&uploaded), &mut out, false)?;
            out
        } else {
            let mut buffer = uploaded;
            self.execute(prepared, &stream, None, &mut buffer, false)?;
            buffer
        };
        host::download(&stream, &result, data, locked)
    }

    /// Emits, plans and builds a (validated) request, refusing what it cannot run: with the
    /// backend's configuration, or, when it measures ([`Tuning::Measured`]), with the fastest of
    /// its [candidates](LaunchConfig::candidates) for a 2-D or 3-D request.
    fn prepare_launches(&self, request: &Request, elem: ElementType) -> Result<Prepared, DwtError> {
        if self.tuning == Tuning::Measured && request.shape.len() >= 2 {
            return tune::prepare_fastest(self, request, elem);
        }
        let emitted = self.emit(request, elem, &self.config)?;
        self.load_unspilled(request, elem, &self.config, emitted)
    }

    /// The request's module emitted with `config`, its launch plan and the source its plan
    /// builds; what the kernels cannot do is refused here, before anything is compiled.
    fn emit(
        &self,
        request: &Request,
        elem: ElementType,
        config: &LaunchConfig,
    ) -> Result<Emitted, DwtError> {
        let module = emit_module(
            &Cuda,
            request.wavelet,
            request.direction,
            elem,
            request.layout,
            &config.for_request(request.wavelet, request.direction, elem, &request.shape),
        )
        .map_err(|e| unsupported(e.to_string()))?;
        let plan =
            dwt_emit_c::plan(&module, &request.shape, request.levels).map_err(unsupported)?;
        for step in &plan.steps {
            if let Step::Launch(l) = step {
                if l.groups[1] > 65535 || l.groups[2] > 65535 {
                    return Err(unsupported(format!(
                        "{:?} groups in one launch of {}: CUDA grids take at most 65535 along y and z",
                        l.groups, l.kernel
                    )));
                }
            }
        }
        // Where this plan would first copy the data when run in place (the one-pass volume
        // kernel's), the plan without that kernel runs in place instead.
        let in_place = dwt_emit_c::plan_in_place(&module, &request.shape, request.levels)
            .map_err(unsupported)?;
        let source =
            module.source_for_plans(&[&plan].into_iter().chain(&in_place).collect::<Vec<_>>());
        let largest_copy =
            largest_copy(&plan, in_place.as_ref(), request.shape.iter().product()) * elem.size();
        Ok(Emitted {
            module,
            plan,
            in_place,
            source,
            largest_copy,
        })
    }

    /// Builds (or finds) each kernel the emitted plan launches as a module of its own, the
    /// plan's kernels on threads of their own, and loads its function. NVRTC compiles a program
    /// on one thread: on a 16-core host, a 1920x1080 plan's two kernels (the first level's tile
    /// and the small bands') compiled apart at once took 0.37-0.97 of the time of one program of
    /// both (BENCHMARKS.md); and a kernel several plans launch is compiled once.
    fn load(&self, emitted: Emitted) -> Result<Prepared, DwtError> {
        let mut kernels = emitted.plan.kernels();
        for k in emitted.in_place.iter().flat_map(|p| p.kernels()) {
            if !kernels.contains(&k) {
                kernels.push(k);
            }
        }
        let mut sources = (kernels.iter())
            .map(|&k| {
                (emitted.module.kernel_source(k)).ok_or_else(|| {
                    unsupported(format!("the plan launches `{k}`, which its module lacks"))
                })
            })
            .collect::<Result<Vec<String>, DwtError>>()?;
        // The copy kernel, where a recording would launch it, is built beside the plan's.
        if emitted.largest_copy >= self.copy_kernel_from.max(16) {
            kernels.push(copy::NAME);
            sources.push(copy::SOURCE.to_string());
        }
        let built = dwt_runtime::build_each(NAME, &sources, |source| self.build_warning(source));
        let mut functions = HashMap::new();
        let mut modules = Vec::with_capacity(kernels.len());
        let mut cache_warnings = Vec::new();
        for (&k, built) in kernels.iter().zip(built) {
            let (cu, origin, time, warning) = built?;
            functions.insert(k.to_string(), cu.load_function(k).map_err(device_error)?);
            modules.push(ModuleReport {
                kernels: vec![k.to_string()],
                origin,
                time,
            });
            cache_warnings.extend(warning);
        }
        Ok(Prepared {
            _module: emitted.module,
            plan: emitted.plan,
            in_place: emitted.in_place,
            source: emitted.source,
            functions,
            modules,
            graphs: graph::Graphs::default(),
            tuning: None,
            uncapped: Vec::new(),
            cache_warnings,
        })
    }

    /// [`load`](Self::load) the module `request` was emitted as with `config`, unless a kernel
    /// of it that asks for full occupancy (a register cap: [`LaunchConfig::register_cap`]) uses
    /// local memory on this device: ptxas spilled its registers there (the catalogue's kernels
    /// that spilled so ran slower than uncapped). Then the request is emitted again without the
    /// cap and that module loaded, the kernels that spilled named in [`Prepared::uncapped`]. The
    /// cap's rule excepts the catalogue's kernels measured to spill; this catches the rest (a
    /// user's wavelet, a configuration the rule did not foresee).
    fn load_unspilled(
        &self,
        request: &Request,
        elem: ElementType,
        config: &LaunchConfig,
        emitted: Emitted,
    ) -> Result<Prepared, DwtError> {
        let capped = emitted.capped_kernels();
        let prepared = self.load(emitted)?;
        let mut spilled = Vec::new();
        for name in capped {
            if let Some(f) = prepared.functions.get(&name) {
                let bytes = f.local_size_bytes().map_err(device_error)?;
                if bytes > 0 {
                    spilled.push((name, bytes as usize));
                }
            }
        }
        if spilled.is_empty() {
            return Ok(prepared);
        }
        let uncapped = LaunchConfig {
            register_cap: Some(false),
            ..*config
        };
        let mut reloaded = self.load(self.emit(request, elem, &uncapped)?)?;
        reloaded.uncapped = spilled;
        reloaded
            .cache_warnings
            .splice(0..0, prepared.cache_warnings);
        Ok(reloaded)
    }

    /// Runs every step of the plan on `data`, on `stream` (not waited for). A plan that reads a
    /// source reads `source`, or when there is none a copy of `data` (`data` itself where the
    /// plan says its source may be the data). With `graphs`, transforms of up to
    /// `graph_samples` samples replay the graph recorded for these buffers (recorded now if
    /// they were called before without one); the rest, and first calls, issue their steps
    /// directly. Host runs pass no `graphs`:
    /// their upload and download cost far more than the launches, and their buffers are fresh
    /// allocations each call, which could mean a recording per call.
    fn execute<T: DeviceElement>(
        &self,
        prepared: &Prepared,
        stream: &Arc<CudaStream>,
        source: Option<&CudaSlice<T>>,
        data: &mut CudaSlice<T>,
        graphs: bool,
    ) -> Result<(), DwtError> {
        use cudarc::driver::{DevicePtr, DevicePtrMut};
        // The raw driver calls below (launches, copies, graph launches and captures) run in
        // the thread's current context, which only cudarc's own calls set: a worker thread
        // handed buffers made elsewhere would have none (CUDA_ERROR_INVALID_CONTEXT).
        self.state.ctx.bind_to_thread().map_err(device_error)?;
        let plan = match (source, &prepared.in_place) {
            (None, Some(in_place)) => in_place,
            _ => &prepared.plan,
        };
        let len = data.len();
        // The guards order this stream's use of the caller's buffers after other streams'
        // (cudarc's tracking) until the steps are issued.
        let source = source.filter(|_| plan.reads_source);
        let (source_at, _read) = match source {
            Some(s) => {
                let (at, guard) = s.device_ptr(stream);
                (at, Some(guard))
            }
            None => (0, None),
        };
        let (data_at, _write) = data.device_ptr_mut(stream);
        let in_place_source = plan.reads_source && source.is_none();
        let copy_in = source.is_none() && !plan.runs_in_place();
        let key = graph::Key {
            stream: stream.cu_stream() as usize,
            source: source_at,
            data: data_at,
        };
        // What graphs keep per stream handle (the scratch and input copy they share, freed in
        // the order of the stream they were allocated on) needs the handle to name one stream:
        // the per-thread default stream's names another on every thread, whose transforms run
        // at once. Those launch directly, with buffers of their own.
        let recorded = graphs
            && key.stream != PER_THREAD_STREAM
            && len <= self.graph_samples
            && match prepared
                .graphs
                .replay(key, stream.cu_stream(), &self.graph_counts)?
            {
                graph::Replay::Replayed => return Ok(()),
                graph::Replay::FirstCall => false,
                graph::Replay::Record => true,
            };
        let alloc = |n: usize| -> Result<graph::DeviceBuffer, DwtError> {
            // SAFETY: every element is written (the source copy, the plan's band copies or
            // levels) before a kernel reads it.
            let buffer = unsafe { stream.alloc::<T>(n) }.map_err(device_error)?;
            let at = buffer.device_ptr(stream).0;
            Ok(graph::DeviceBuffer::new(at, n, buffer))
        };
        // This call's own buffers, freed in stream order after its steps; a recording's are its
        // stream's, shared with the request's other graphs there.
        let mut owned = Vec::new();
        let shared = match recorded {
            true => Some(prepared.graphs.stream_buffers(
                key.stream,
                copy_in.then_some(len),
                plan.scratch,
                alloc,
            )?),
            false => None,
        };
        // Recorded copies of whole words from the bound up take the copy kernel; issued on the
        // stream, a memcpy runs at the copy rate.
        let copier = match &shared {
            Some(_) => copy::Copier {
                kernel: prepared.functions.get(copy::NAME),
                from: self.copy_kernel_from,
            },
            None => copy::Copier::memcpy(),
        };
        let (copy_at, scratch_at) = if let Some(shared) = &shared {
            (shared.copy_at, shared.scratch_at)
        } else {
            let mut own = |n: usize| -> Result<u64, DwtError> {
                let buffer = alloc(n)?;
                let at = buffer.at;
                owned.push(buffer);
                Ok(at)
            };
            let copy_at = if copy_in { own(len)? } else { 0 };
            let scratch_at = if plan.scratch > 0 {
                own(plan.scratch)?
            } else {
                0
            };
            (copy_at, scratch_at)
        };
        let at = launch::Addresses {
            source: match (copy_in, in_place_source) {
                (true, _) => copy_at,
                (false, true) => data_at,
                (false, false) => source_at,
            },
            scratch: scratch_at,
            data: data_at,
            len,
            scratch_len: plan.scratch,
            element_bytes: size_of::<T>(),
            copy_in,
        };
        let programmatic = self.state.capability.0 >= 9;
        let issue = |on| launch::issue(plan, &prepared.functions, &at, on, programmatic, copier);
        if let Some(shared) = shared {
            let capture = self.state.capture_stream()?;
            prepared.graphs.record(
                key,
                shared,
                *capture as sys::CUstream,
                stream.cu_stream(),
                &self.graph_counts,
                issue,
            )
        } else {
            issue(stream.cu_stream())
        }
    }
}

/// An emitted module's launch plan and the functions it launches.
struct Prepared {
    _module: KernelModule,
    plan: LaunchPlan,
    /// The plan run in place (no source given) where `plan` would first copy the data there:
    /// the same request without the one-pass volume kernel, lifting the data where it lies.
    in_place: Option<LaunchPlan>,
    /// The source of the kernels the plan launches (each built as a program of its own).
    source: String,
    functions: HashMap<String, CudaFunction>,
    /// Each kernel's module: where it came from and how long getting it took.
    modules: Vec<ModuleReport>,
    /// Recorded graphs of this request, per buffers.
    graphs: graph::Graphs,
    /// What was measured to choose the configuration ([`Tuning::Measured`]).
    tuning: Option<dwt_runtime::TuningReport>,
    /// The kernels that used local memory (bytes per work-item) under a register cap, which
    /// this module was therefore built without ([`CudaBackend::load_unspilled`]).
    uncapped: Vec<(String, usize)>,
    /// What the disk cache could not store while preparing it ([`PrepareReport::cache_warnings`]).
    cache_warnings: Vec<String>,
}

/// A request's module, emitted and planned but not built.
struct Emitted {
    module: KernelModule,
    plan: LaunchPlan,
    /// [`Prepared::in_place`].
    in_place: Option<LaunchPlan>,
    /// The source of the kernels the plan launches.
    source: String,
    /// Bytes of the largest device-to-device copy the plans may make ([`largest_copy`]).
    largest_copy: usize,
}

/// Elements of the largest copy `plan` (or `in_place`, the plan a run in place takes where
/// there is one) makes: a band copy, or the copy of the whole data (`len` elements) a plan
/// that reads a source makes first when run in place.
fn largest_copy(plan: &LaunchPlan, in_place: Option<&LaunchPlan>, len: usize) -> usize {
    let copies_in = !in_place.unwrap_or(plan).runs_in_place();
    let bands = (plan.steps.iter())
        .chain(in_place.iter().flat_map(|p| &p.steps))
        .filter_map(|s| match s {
            Step::Copy(c) => Some(c.span()),
            Step::Launch(_) => None,
        });
    bands.chain(copies_in.then_some(len)).max().unwrap_or(0)
}

impl Emitted {
    /// The kernels the plan launches that ask for full occupancy (a register cap).
    fn capped_kernels(&self) -> Vec<String> {
        let launched = self.plan.kernels();
        let tiles = (self.module.tile.iter())
            .chain(&self.module.small_tile)
            .filter(|t| t.full_occupancy)
            .map(|t| &t.kernel);
        let pairs = (self.module.level_pair.iter())
            .filter(|p| p.full_occupancy)
            .map(|p| &p.kernel);
        (tiles.chain(pairs))
            .filter(|k| launched.contains(&k.as_str()))
            .cloned()
            .collect()
    }
}

/// A request [`Backend::prepare`]d on the device: its functions loaded and its launches planned.
struct PreparedRequest {
    backend: CudaBackend,
    prepared: Arc<Prepared>,
    element: ElementType,
    len: usize,
}

impl PreparedRequest {
    fn run_host<T: DeviceElement>(&self, data: &mut [T]) -> Result<(), DwtError> {
        self.backend.execute_host(&self.prepared, data)
    }
}

impl PreparedTransform for PreparedRequest {
    fn run(&self, data: Samples) -> Result<(), DwtError> {
        data.check_prepared(NAME, self.element, self.len)?;
        match data {
            Samples::I16(d) => self.run_host(d),
            Samples::I32(d) => self.run_host(d),
            Samples::F32(d) => self.run_host(d),
            Samples::F64(d) => self.run_host(d),
        }
    }

    fn run_frames(&self, frames: Vec<Samples>) -> Result<(), FrameFailure> {
        let (backend, prepared, len) = (&self.backend, &*self.prepared, self.len);
        match self.element {
            ElementType::I16 => frames::run::<i16>(backend, prepared, frames, len),
            ElementType::I32 => frames::run::<i32>(backend, prepared, frames, len),
            ElementType::F32 => frames::run::<f32>(backend, prepared, frames, len),
            ElementType::F64 => frames::run::<f64>(backend, prepared, frames, len),
        }
    }
}

impl Backend for CudaBackend {
    fn name(&self) -> &str {
        NAME
    }

    fn device(&self) -> String {
        let (major, minor) = self.state.capability;
        let v = self.state.driver_version;
        format!(
            "{} (compute capability {major}.{minor}, CUDA driver {}.{})",
            self.state.name,
            v / 1000,
            (v % 1000) / 10
        )
    }

    fn run(&self, request: &Request, data: Samples) -> Result<(), DwtError> {
        request.validate(&data)?;
        match data {
            Samples::I16(d) => self.run_host(request, d),
            Samples::I32(d) => self.run_host(request, d),
            Samples::F32(d) => self.run_host(request, d),
            Samples::F64(d) => self.run_host(request, d),
        }
    }

    fn prepare(
        &self,
        request: &Request,
        element: ElementType,
    ) -> Result<dwt_runtime::Prepared, DwtError> {
        let len = request.sample_count()?;
        request.validate_for(element, len)?;
        // Through the backend's memo, as `run` is: threads building plans of one request at
        // once prepare it once (with `Tuning::Measured`, one thread times the candidates).
        let mut here = false;
        let prepared = self.plans.get_or_prepare(request, element, || {
            here = true;
            self.prepare_launches(request, element)
        })?;
        let mut report = PrepareReport {
            modules: prepared.modules.clone(),
            ..PrepareReport::default()
        };
        if !here {
            for m in &mut report.modules {
                (m.origin, m.time) = (KernelOrigin::Memory, Duration::ZERO);
            }
        }
        // A request prepared before measures nothing now: its choice is a remembered one.
        report.tuning = prepared.tuning.clone().map(|t| match here {
            true => t,
            false => dwt_runtime::TuningReport {
                chosen: t.chosen,
                timings: Vec::new(),
                skipped: Vec::new(),
                cached: true,
            },
        });
        // Still true when the request was prepared before (by `run`, whose caller sees no report).
        report.cache_warnings = prepared.cache_warnings.clone();
        Ok(dwt_runtime::Prepared {
            report,
            transform: Some(Box::new(PreparedRequest {
                backend: CudaBackend {
                    state: self.state,
                    config: self.config,
                    tuning: self.tuning,
                    plans: self.plans.clone(),
                    graph_samples: self.graph_samples,
                    graph_counts: self.graph_counts.clone(),
                    copy_kernel_from: self.copy_kernel_from,
                },
                prepared,
                element,
                len,
            })),
        })
    }
}
