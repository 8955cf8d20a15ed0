//! The OpenCL backend: builds the kernels `dwt-emit-c` emits and runs whole multi-level 1-D, 2-D
//! and 3-D transforms with the CPU reference's level semantics (forward per level: pre-shift and
//! rows, then columns, then z-lines; inverse: z-lines, columns, then rows and the undo of the
//! pre-shift). The launches of a transform (grids, arguments, Mallat band copies) come from
//! [`dwt_emit_c::plan()`], which the CUDA backend interprets too.
//!
//! - The devices are listed once per process; the backend runs on the one `DWT_OPENCL_DEVICE`
//!   or [`OpenClBackend::on_device`] picks, by default the first GPU, else the first
//!   accelerator, else the first device (module `device_choice`). No platform is
//!   [`DwtError::Unavailable`] with what to install, at once, never a panic; so is a selector
//!   that matches no device, with the list of those there are.
//! - Built programs are cached per device and source, shared by every backend value and
//!   thread; a program is built once even when several threads ask for it at the same time
//!   ([`BuildCache`]: a compile error is kept, a device's failure tried again at the next call).
//! - Built program binaries are also cached on disk ([`disk_cache`]: `$DWT_CACHE_DIR`, else
//!   `$XDG_CACHE_HOME/lifting`, else `~/.cache/lifting`), keyed by the SHA-256 of the source, the
//!   platform, the device and its driver version, so a new process skips the compiler; a corrupt
//!   entry is rebuilt.
//! - On PoCL the transforms of all threads run one at a time (each from its first launch to its
//!   queue's `finish`): a guard against an abort seen once inside PoCL's binary cache
//!   (see `RUNS`).
//! - Each kernel a plan launches is a program of its own ([`KernelModule::kernel_source`]): PoCL
//!   compiles every kernel of a program when it is built, and a module's plans for different
//!   shapes launch different sets of its kernels; this way each kernel is compiled once.
//! - [`Backend::prepare`] emits, plans and builds a request and returns a prepared transform
//!   that only moves the data and launches ([`dwt_runtime::Plan`] uses it). It, `run` and
//!   `run_on_device` keep each request's plan ([`dwt_runtime::PreparedCache`]) in the backend
//!   value for the next call: prepared again, a request builds nothing and its report says so.
//! - 2-D and 3-D transforms take the fused pass by default ([`Strategy::Fused`], out of place:
//!   the kernels read a source buffer and write the data): a 2-D level reads and writes the band
//!   once, a 3-D level twice (its x-y planes, then the depth pass). Run in place, the 2-D plans
//!   first copy the data to a source buffer; the 3-D plans read the data itself as their source.
//!   Elsewhere (1-D, periodic, [`Strategy::TwoPass`]) the passes below run.
//! - The data goes to the device once and comes back once per transform; every pass of every
//!   level runs on device buffers. [`OpenClBackend::run_on_device`] takes a buffer already on the
//!   device and copies nothing. [`OpenClBackend::host_buffer`] gives pinned host memory, which
//!   the driver copies without staging it; a plan's batch of frames in host buffers
//!   ([`dwt_runtime::Plan::execute_frames`]) runs in turns on three queues (module `frames`).
//! - Each plan keeps its queue, its device buffers (scratch, upload, result, the source's copy)
//!   and its kernel objects for its next call (`working_set`), a set per thread running it at
//!   once: made afresh they took most of a small transform's time.
//! - Rows of at most [`LaunchConfig::row_limit`] samples take the rows kernel (the whole row in
//!   local memory, the VC-2 pre-shift fused into it); longer rows take the sliding-window kernel
//!   along the row (`row_step` the sample spacing, `col_step` the row pitch), with the emitted
//!   shift kernel before it (forward) or after it (inverse). The choice is per level, by the
//!   band's row length.
//! - Multi-level transforms run every pass over the level's band in place, addressed with the
//!   full image's pitches: nothing outside the band is read, written or copied. The interleaved
//!   layout copies nothing. The Mallat layout's sliding-window passes (columns, depth, and rows
//!   longer than the limit) write samples that later windows of the same line still read (forward:
//!   the high half lands at `n_low + r/2`, ahead of the window; inverse: low samples are read
//!   from `r/2`, behind the writes), and so do column segments (their stores land on their
//!   neighbours' margins), so each such pass reads one buffer and writes the other: the data and
//!   a scratch buffer of the image's size, the rows kernel (in place or across: the row is in
//!   local memory) bringing the band back to the data at the end of its level. Only a level
//!   with an odd number of such passes and no rows kernel first copies its band, and only the
//!   band (one `clEnqueueCopyBufferRect` of its extents with the image's pitches).
//! - What the kernels cannot do (a scale between steps on lines longer than
//!   [`LaunchConfig::row_limit`], f64 without `cl_khr_fp64`)
//!   is [`DwtError::Unsupported`], found before the data is touched; so is a kernel the device
//!   cannot run as the plan launches it (more work-items per group or more local memory than it
//!   offers), with the [`LaunchConfig`] settings to lower.

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use dwt_emit_c::{
    emit_module, BandCopy, Buffer as PlanBuffer, KernelModule, LaunchPlan, OpenCl, Step,
};
use dwt_ir::ElementType;
use dwt_runtime::{
    Backend, BuildCache, DwtError, Element, FrameFailure, KernelOrigin, ModuleReport,
    PrepareReport, Prepared, PreparedCache, PreparedTransform, Request, Samples,
};
use ocl::enums::{
    DeviceInfo, MemInfo, MemInfoResult, PlatformInfo, ProgramBuildInfo, ProgramBuildInfoResult,
};
use ocl::{Buffer, Context, Device, Kernel, OclPrm, Platform, Program, Queue};

pub use dwt_emit_c::{LaunchConfig, Strategy};

mod device_choice;
pub mod disk_cache;
mod frames;
mod host_buffer;
mod working_set;

pub use device_choice::{DeviceEntry, DeviceKind, DeviceSelector, DEVICE_ENV};
pub use host_buffer::HostBuffer;
use working_set::{Role, Spares, WorkingSet};

/// The name the backend is selected by.
pub const NAME: &str = "opencl";

/// What to install when there is no OpenCL platform.
pub const INSTALL_HINT: &str = "install an OpenCL platform and the ICD loader, e.g. PoCL on the CPU: `apt-get install pocl-opencl-icd ocl-icd-opencl-dev`";

/// Host element types the kernels take.
pub trait DeviceElement: Element + OclPrm {}
impl DeviceElement for i16 {}
impl DeviceElement for i32 {}
impl DeviceElement for f32 {}
impl DeviceElement for f64 {}

/// The process's OpenCL device with its context and program cache.
struct DeviceState {
    platform_name: String,
    device_name: String,
    device: Device,
    context: Context,
    fp64: bool,
    /// Keyed by (device, the source itself): a hash alone could, however rarely, hand one
    /// source another's program.
    programs: BuildCache<(usize, String), Program>,
    /// What besides the source keys the disk cache ([`disk_cache::identity`]).
    cache_identity: String,
    /// Whether the transforms of every thread run one at a time ([`PoCL`'s workaround](RUNS)).
    one_run_at_a_time: bool,
    /// Whether batches of frames in host buffers run in turns on several queues (module
    /// `frames`): on a GPU or accelerator, not on a CPU device (nothing to overlap) nor where
    /// transforms run one at a time.
    frames_in_turns: bool,
    /// A GPU or accelerator, not a CPU device.
    on_gpu: bool,
}

/// Held from a transform's first launch to its queue's `finish` on PoCL. A CI run of the OpenCL
/// tests (threads transforming at once) aborted inside PoCL 3.1 once
/// (`pocl_release_dlhandle_cache: Assertion 'found->ref_count > 0' failed`). PoCL's CPU drivers
/// keep each kernel's loaded binary in a cache whose entries a launch finds by kernel, group
/// size and a grid at most the entry's widest, but whose release (in the sources read) takes
/// the first entry of that kernel and group size, whatever its grid: with one kernel in flight
/// on grids of different widths, a release can take another launch's entry. Not reproduced on
/// demand; every transform here finishes before it returns, so one at a time keeps at most one
/// launch in flight, and PoCL runs each kernel on every core, so little is lost.
static RUNS: Mutex<()> = Mutex::new(());

fn device_error(e: impl std::fmt::Display) -> DwtError {
    DwtError::Device {
        backend: NAME.into(),
        message: e.to_string(),
    }
}

fn unsupported(what: impl Into<String>) -> DwtError {
    DwtError::Unsupported {
        backend: NAME.into(),
        what: what.into(),
    }
}

fn unavailable(why: &str) -> DwtError {
    DwtError::Unavailable {
        backend: NAME.into(),
        reason: format!("{why}; {INSTALL_HINT}"),
    }
}

/// Whether the ICD loader knows any platform, asked once. `ocl::core::get_platform_ids` answers
/// the loader's "no platform" (`CL_PLATFORM_NOT_FOUND_KHR`) by sleeping and asking again for 10 s
/// (for loaders waking up on several threads at once, which a once-per-process discovery is not):
/// without an ICD installed, `auto` and `dwt list` waited that long to report it.
fn platforms_installed() -> Result<(), DwtError> {
    const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;
    let mut count: ocl::ffi::cl_uint = 0;
    // SAFETY: asks for the count only (no list), into a live local.
    let status = unsafe { ocl::ffi::clGetPlatformIDs(0, std::ptr::null_mut(), &mut count) };
    match status {
        CL_PLATFORM_NOT_FOUND_KHR => Err(unavailable(
            "no OpenCL platform found (the ICD loader found no installed platform)",
        )),
        0 if count == 0 => Err(unavailable("no OpenCL platform found")),
        0 => Ok(()),
        other => Err(unavailable(&format!(
            "no OpenCL platform found (clGetPlatformIDs returned {other})"
        ))),
    }
}

/// A device the ICD loader lists, with the handles that open it.
struct Found {
    entry: DeviceEntry,
    platform: Platform,
    device: Device,
}

/// Every device of every platform, listed once per process.
static FOUND: OnceLock<Result<Vec<Found>, DwtError>> = OnceLock::new();

/// The devices opened so far (by their place in [`FOUND`]), each kept for the process: backends
/// on one device share its context and program cache.
static OPENED: Mutex<Vec<(usize, &'static DeviceState)>> = Mutex::new(Vec::new());

fn discover() -> Result<Vec<Found>, DwtError> {
    // `Platform::default()` panics without a platform, and `get_platform_ids` waits 10 s before
    // saying there is none: ask the ICD loader once first.
    platforms_installed()?;
    let ids = ocl::core::get_platform_ids()
        .map_err(|e| unavailable(&format!("no OpenCL platform found ({e})")))?;
    if ids.is_empty() {
        return Err(unavailable("no OpenCL platform found"));
    }
    let mut found = Vec::new();
    for (p, id) in ids.into_iter().enumerate() {
        let platform = Platform::new(id);
        let Ok(devices) = Device::list_all(platform) else {
            continue;
        };
        let platform_name = platform
            .info(PlatformInfo::Name)
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "unknown platform".into());
        for (d, device) in devices.into_iter().enumerate() {
            let kind = match device.info(DeviceInfo::Type) {
                Ok(ocl::enums::DeviceInfoResult::Type(t)) => {
                    use ocl::flags::DeviceType;
                    if t.contains(DeviceType::GPU) {
                        DeviceKind::Gpu
                    } else if t.contains(DeviceType::ACCELERATOR) {
                        DeviceKind::Accelerator
                    } else if t.contains(DeviceType::CPU) {
                        DeviceKind::Cpu
                    } else {
                        DeviceKind::Other
                    }
                }
                _ => DeviceKind::Other,
            };
            found.push(Found {
                entry: DeviceEntry {
                    platform: p,
                    device: d,
                    platform_name: platform_name.clone(),
                    device_name: device.name().unwrap_or_else(|_| "unknown device".into()),
                    kind,
                },
                platform,
                device,
            });
        }
    }
    if found.is_empty() {
        return Err(unavailable(
            "OpenCL platforms were found but none has a device",
        ));
    }
    Ok(found)
}

/// The context and settings of a device.
fn open(found: &Found) -> Result<DeviceState, DwtError> {
    let Found {
        entry,
        platform,
        device,
    } = found;
    let context = Context::builder()
        .platform(*platform)
        .devices(*device)
        .build()
        .map_err(device_error)?;
    let fp64 = device
        .info(DeviceInfo::Extensions)
        .map(|e| e.to_string().contains("cl_khr_fp64"))
        .unwrap_or(false);
    let one_run_at_a_time = entry.platform_name.contains("Portable Computing Language");
    let on_gpu = matches!(entry.kind, DeviceKind::Gpu | DeviceKind::Accelerator);
    let mut state = DeviceState {
        platform_name: entry.platform_name.clone(),
        device_name: entry.device_name.clone(),
        device: *device,
        context,
        fp64,
        programs: BuildCache::default(),
        cache_identity: String::new(),
        one_run_at_a_time,
        // Nothing overlaps on a CPU device, nor where transforms run one at a time.
        frames_in_turns: on_gpu && !one_run_at_a_time,
        on_gpu,
    };
    state.cache_identity = disk_cache::identity(&state);
    Ok(state)
}

/// The device `selector` picks (`origin`: where the selector came from, for the message),
/// opened once per process.
fn device_state(selector: &DeviceSelector, origin: &str) -> Result<&'static DeviceState, DwtError> {
    let found = FOUND.get_or_init(discover).as_ref().map_err(Clone::clone)?;
    let entries: Vec<DeviceEntry> = found.iter().map(|f| f.entry.clone()).collect();
    let i = selector
        .choose(&entries, origin)
        .map_err(|reason| DwtError::Unavailable {
            backend: NAME.into(),
            reason,
        })?;
    let mut opened = OPENED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, state)) = opened.iter().find(|(j, _)| *j == i) {
        return Ok(state);
    }
    // Kept for the process, as the single device was before selectors: backends hand out
    // `&'static` references to it, and a process opens each device at most once.
    let state: &'static DeviceState = Box::leak(Box::new(open(&found[i])?));
    opened.push((i, state));
    Ok(state)
}

/// The OpenCL backend. Cheap to create: the device is discovered once per process and every
/// value shares it and its program cache.
pub struct OpenClBackend {
    state: &'static DeviceState,
    config: LaunchConfig,
    plans: PreparedCache<Plan>,
    /// Whether batches of frames in host buffers run in turns (the device's rule, or forced by
    /// [`with_frames_in_turns`](Self::with_frames_in_turns)).
    frames_in_turns: bool,
}

impl OpenClBackend {
    /// The backend on the device [`DEVICE_ENV`] names (where unset, the first GPU, else the
    /// first accelerator, else the first device), with the default [`LaunchConfig`].
    pub fn new() -> Result<Self, DwtError> {
        Self::with_config(LaunchConfig::default())
    }

    /// The backend with other launch parameters (window height, work-group sizes, row limit),
    /// on the device [`DEVICE_ENV`] names. A selector that is malformed or matches no device is
    /// [`DwtError::Unavailable`], listing the devices there are.
    pub fn with_config(config: LaunchConfig) -> Result<Self, DwtError> {
        let selector = DeviceSelector::from_env().map_err(|reason| DwtError::Unavailable {
            backend: NAME.into(),
            reason,
        })?;
        Self::open(device_state(&selector, DEVICE_ENV)?, config)
    }

    /// The backend on the device `selector` picks, whatever [`DEVICE_ENV`] says; for example
    /// `OpenClBackend::on_device(&"gpu".parse()?, LaunchConfig::default())`. No such device is
    /// [`DwtError::Unavailable`], listing the devices there are ([`OpenClBackend::devices`]).
    pub fn on_device(selector: &DeviceSelector, config: LaunchConfig) -> Result<Self, DwtError> {
        Self::open(device_state(selector, "OpenClBackend::on_device")?, config)
    }

    /// Every OpenCL device of every platform, numbered as [`DeviceSelector::Index`] takes them.
    pub fn devices() -> Result<Vec<DeviceEntry>, DwtError> {
        let found = FOUND.get_or_init(discover).as_ref().map_err(Clone::clone)?;
        Ok(found.iter().map(|f| f.entry.clone()).collect())
    }

    fn open(state: &'static DeviceState, config: LaunchConfig) -> Result<Self, DwtError> {
        // The one-pass volume kernels OpenCL takes by default were faster on a GPU; on a CPU
        // device (PoCL) the inverse's took 2.6x the two passes' time (BENCHMARKS.md).
        let one_pass_volumes = (config.one_pass_volumes).or((!state.on_gpu).then_some(false));
        Ok(OpenClBackend {
            state,
            config: LaunchConfig {
                one_pass_volumes,
                ..config
            },
            plans: PreparedCache::default(),
            frames_in_turns: state.frames_in_turns,
        })
    }

    /// This backend with batches of frames in host buffers run in turns on several queues even
    /// on a device that runs them one after another (a CPU device, PoCL), so that CI, which has
    /// only PoCL, takes the path a GPU takes: the turns' queues, their working sets kept for the
    /// next call, a failure's frame. Nothing overlaps there: the batch holds PoCL's guard (`RUNS`)
    /// until every queue has finished.
    #[doc(hidden)]
    pub fn with_frames_in_turns(self) -> Self {
        OpenClBackend {
            frames_in_turns: true,
            ..self
        }
    }

    pub fn config(&self) -> &LaunchConfig {
        &self.config
    }

    /// The context buffers passed to [`OpenClBackend::run_on_device`] must belong to.
    pub fn context(&self) -> &Context {
        &self.state.context
    }

    /// The device the kernels run on.
    pub fn ocl_device(&self) -> Device {
        self.state.device
    }

    /// A new in-order queue on the device (for creating and reading buffers). Each call makes
    /// another queue, none of them the one a transform runs on: OpenCL orders nothing between
    /// queues, so finish (`Queue::finish`) or block on what was enqueued on it (a fill, a
    /// non-blocking write) before passing its buffers to
    /// [`run_on_device`](Self::run_on_device) or [`run_on_device_into`](Self::run_on_device_into).
    /// Those return once the transform has finished, so what is enqueued after them sees it.
    pub fn queue(&self) -> Result<Queue, DwtError> {
        Queue::new(&self.state.context, self.state.device, None).map_err(device_error)
    }

    /// `len` samples of pinned host memory, zeroed, for host data transformed in a loop (the
    /// frames of a video): a buffer of `CL_MEM_ALLOC_HOST_PTR` kept mapped, used as a slice. A
    /// transform of ordinary memory is copied through the driver's staging on every call, most
    /// of a large host transform's time on a GPU (BENCHMARKS.md). Too large for the device or the
    /// host is [`DwtError::Device`], saying so.
    pub fn host_buffer<T: DeviceElement>(&self, len: usize) -> Result<HostBuffer<T>, DwtError> {
        HostBuffer::zeroed(self.queue()?, len)
    }

    /// Whether the device has `cl_khr_fp64` (f64 transforms are refused without it).
    pub fn has_fp64(&self) -> bool {
        self.state.fp64
    }

    /// Builds OpenCL C `source` for the device through the backend's program cache: the path every
    /// emitted module takes. A compiler error is [`DwtError::Build`] with the compiler's log and
    /// the source lines it points at.
    pub fn build(&self, source: &str) -> Result<Program, DwtError> {
        self.build_reporting(source).map(|(program, _, _)| program)
    }

    /// [`OpenClBackend::build`], saying where the program came from (this process's cache, the
    /// disk cache, the compiler) and how long getting it took. A program binary the disk cache
    /// could not store is not said here: [`Backend::prepare`]'s report has it.
    pub fn build_reporting(
        &self,
        source: &str,
    ) -> Result<(Program, KernelOrigin, Duration), DwtError> {
        self.build_warning(source)
            .map(|(program, origin, time, _)| (program, origin, time))
    }

    /// [`OpenClBackend::build_reporting`] and the warning of a program binary the disk cache
    /// could not store (only when it was compiled now).
    fn build_warning(
        &self,
        source: &str,
    ) -> Result<(Program, KernelOrigin, Duration, Option<String>), DwtError> {
        let start = Instant::now();
        let mut origin = KernelOrigin::Memory;
        let mut warning = None;
        let key = (
            ocl::core::ClDeviceIdPtr::as_ptr(self.state.device.as_core()) as usize,
            source.to_string(),
        );
        let program = self.state.programs.get_or_build(key, || {
            disk_cache::build(self, source).map(|(program, o, w)| {
                origin = o;
                warning = w;
                program
            })
        })?;
        Ok((program, origin, start.elapsed(), warning))
    }

    fn compile(&self, source: &str) -> Result<Program, DwtError> {
        let src = CString::new(source).map_err(|e| DwtError::Build {
            backend: NAME.into(),
            log: format!("the source holds a NUL byte: {e}"),
        })?;
        let program = ocl::core::create_program_with_source(self.state.context.as_core(), &[src])
            .map_err(device_error)?;
        let device = *self.state.device.as_core();
        let options = CString::new("").expect("no NUL");
        match ocl::core::build_program(&program, Some(&[device]), &options, None, None) {
            Ok(()) => Ok(Program::from(program)),
            Err(e) => {
                let log = match ocl::core::get_program_build_info(
                    &program,
                    device,
                    ProgramBuildInfo::BuildLog,
                ) {
                    Ok(ProgramBuildInfoResult::BuildLog(log)) if !log.trim().is_empty() => log,
                    _ => e.to_string(),
                };
                Err(DwtError::Build {
                    backend: NAME.into(),
                    log: annotate_log(&log, source),
                })
            }
        }
    }

    /// Transforms a buffer already on the device (of this backend's [`context`](Self::context))
    /// in place: no host copies. Validated as [`Request::validate`] does, with the buffer's length;
    /// a buffer of another context is [`DwtError::Unsupported`]. The transform runs on a queue of
    /// the plan's own and has finished when this returns; work the caller enqueued on a queue of
    /// its own must have finished before the call ([`queue`](Self::queue) says why).
    pub fn run_on_device<T: DeviceElement>(
        &self,
        request: &Request,
        data: &Buffer<T>,
    ) -> Result<(), DwtError> {
        request.validate_for(T::TYPE, data.len())?;
        self.check_context(data, "the buffer")?;
        let plan = self.prepared(request, T::TYPE)?;
        let mut set = plan.spares.take(|| self.queue())?;
        let _one = self.one_run();
        self.execute::<T>(&plan, &mut set, None, data)?;
        self.finish(&plan, set)
    }

    /// Waits for `set`'s queue and keeps the set for the plan's next call.
    fn finish<T: DeviceElement>(&self, plan: &Plan, set: WorkingSet<T>) -> Result<(), DwtError> {
        set.queue.finish().map_err(device_error)?;
        plan.spares.keep(set);
        Ok(())
    }

    /// That `buffer` belongs to this backend's context: the kernels cannot use another's (the
    /// driver fails the first command halfway, or worse).
    fn check_context<T: OclPrm>(&self, buffer: &Buffer<T>, what: &str) -> Result<(), DwtError> {
        match buffer.mem_info(MemInfo::Context) {
            Ok(MemInfoResult::Context(c))
                if c.as_ptr() == self.state.context.as_core().as_ptr() =>
            {
                Ok(())
            }
            Ok(_) => Err(unsupported(format!(
                "{what} belongs to another OpenCL context than the backend's; create it in \
                 `OpenClBackend::context()` (e.g. with the queue of `OpenClBackend::queue()`)"
            ))),
            Err(e) => Err(device_error(e)),
        }
    }

    /// Whether a batch of frames in host buffers runs in turns on several queues here (on a GPU
    /// or accelerator; elsewhere one frame after another).
    #[doc(hidden)]
    pub fn runs_frames_in_turns(&self) -> bool {
        self.frames_in_turns
    }

    /// [`RUNS`], held where the platform needs it (PoCL), until the guard drops.
    fn one_run(&self) -> Option<std::sync::MutexGuard<'static, ()>> {
        // A panic elsewhere while holding it leaves nothing to repair: take it anyway.
        (self.state.one_run_at_a_time).then(|| RUNS.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Transforms `src` into `dst` (both on the device, of this backend's context and the same
    /// length); `src` is only read. The fused plans, and the two passes where the rows kernel
    /// takes every level's rows (but 1-D inverses), read `src` and write `dst` directly; the
    /// other two-pass plans transform in place and first copy `src` to `dst`. Validated as
    /// [`run_on_device`](Self::run_on_device) is; a `dst` of another length is
    /// [`DwtError::Unsupported`], refused before anything runs. `src` and `dst` the same buffer
    /// (or the same bytes of one) is [`run_on_device`](Self::run_on_device) on it; buffers that
    /// partly overlap (sub-buffers of one buffer), or of another context, are
    /// [`DwtError::Unsupported`]. Ordered with the caller's queues as
    /// [`run_on_device`](Self::run_on_device) is.
    pub fn run_on_device_into<T: DeviceElement>(
        &self,
        request: &Request,
        src: &Buffer<T>,
        dst: &Buffer<T>,
    ) -> Result<(), DwtError> {
        request.validate_into(NAME, T::TYPE, src.len(), dst.len())?;
        self.check_context(src, "the source buffer")?;
        self.check_context(dst, "the destination buffer")?;
        // The kernels read the source while writing the destination: the same bytes are a
        // transform in place, bytes shared in part would be read after they were overwritten.
        let (src_mem, src_bytes) = region(src)?;
        let (dst_mem, dst_bytes) = region(dst)?;
        if src_mem == dst_mem && src_bytes == dst_bytes {
            return self.run_on_device(request, dst);
        }
        if src_mem == dst_mem && src_bytes.start < dst_bytes.end && dst_bytes.start < src_bytes.end
        {
            return Err(unsupported(format!(
                "the source (bytes {src_bytes:?}) and the destination (bytes {dst_bytes:?}) overlap in one buffer; pass buffers that do not overlap, or the same one to transform in place"
            )));
        }
        let plan = self.prepared(request, T::TYPE)?;
        let mut set = plan.spares.take(|| self.queue())?;
        let _one = self.one_run();
        if plan.launches.reads_source {
            self.execute::<T>(&plan, &mut set, Some(src), dst)?;
        } else {
            src.cmd()
                .copy(dst, None, None)
                .queue(&set.queue)
                .enq()
                .map_err(device_error)?;
            self.execute::<T>(&plan, &mut set, None, dst)?;
        }
        self.finish(&plan, set)
    }

    fn run_host<T: DeviceElement>(
        &self,
        request: &Request,
        data: &mut [T],
    ) -> Result<(), DwtError> {
        // Everything that can refuse the transform happens before the data moves.
        let plan = self.prepared(request, T::TYPE)?;
        self.execute_host(&plan, data)
    }

    /// The request's plan and built program, from this backend's cache or made now.
    fn prepared(&self, request: &Request, elem: ElementType) -> Result<Arc<Plan>, DwtError> {
        self.plans
            .get_or_prepare(request, elem, || self.plan(request, elem))
    }

    /// Host data to the device once, every launch of `plan`, and back once.
    fn execute_host<T: DeviceElement>(&self, plan: &Plan, data: &mut [T]) -> Result<(), DwtError> {
        let mut set = plan.spares.take(|| self.queue())?;
        let _one = self.one_run();
        // An existing buffer written: one made from the slice (`CL_MEM_COPY_HOST_PTR`) took 5x as
        // long on NVIDIA's OpenCL (260 against 47 ms for 268 MB there and back, an H100:
        // dwt-bench/results/2026-11-27-h200-opencl-host-path/).
        let uploaded = set.buffer(Role::Upload, data.len())?;
        uploaded.write(&*data).enq().map_err(device_error)?;
        // A plan that reads a source reads the upload and writes a second buffer (no device
        // copy), unless it may read the data itself as its source: then it transforms the upload
        // in place, one buffer fewer.
        let result = if !plan.launches.runs_in_place() {
            let out = set.buffer(Role::Result, data.len())?;
            self.execute::<T>(plan, &mut set, Some(&uploaded), &out)?;
            out
        } else {
            self.execute::<T>(plan, &mut set, None, &uploaded)?;
            uploaded
        };
        result.read(&mut *data).enq().map_err(device_error)?;
        self.finish(plan, set)
    }

    /// Emits and builds the module of a (validated) request, and refuses what it cannot run.
    fn plan(&self, request: &Request, elem: ElementType) -> Result<Plan, DwtError> {
        if elem == ElementType::F64 && !self.state.fp64 {
            return Err(unsupported(format!(
                "f64 needs cl_khr_fp64, which {} lacks",
                self.state.device_name
            )));
        }
        let module = emit_module(
            &OpenCl,
            request.wavelet,
            request.direction,
            elem,
            request.layout,
            &self
                .config
                .for_request(request.wavelet, request.direction, elem, &request.shape),
        )
        .map_err(|e| unsupported(e.to_string()))?;
        let launches =
            dwt_emit_c::plan(&module, &request.shape, request.levels).map_err(unsupported)?;
        let mut programs = HashMap::new();
        let mut modules = Vec::new();
        let mut cache_warnings = Vec::new();
        // One program after another, unlike CUDA's modules: built at once on threads of their
        // own ([`dwt_runtime::build_each`]), a new process's plans took no less time on PoCL (2
        // cores: 135 against 133-134 s) nor on NVIDIA's OpenCL (an H200, 16 cores: 25.4-25.6
        // against 23.9-30.6 s); neither driver seems to build two programs at once (BENCHMARKS.md).
        for kernel in launches.kernels() {
            let source = module.kernel_source(kernel).ok_or_else(|| {
                device_error(format!(
                    "the plan launches {kernel}, which its module lacks"
                ))
            })?;
            let (program, origin, time, warning) = self.build_warning(&source)?;
            cache_warnings.extend(warning);
            self.check_fits(&program, kernel, &launches)?;
            programs.insert(kernel.to_string(), program);
            modules.push(ModuleReport {
                kernels: vec![kernel.to_string()],
                origin,
                time,
            });
        }
        Ok(Plan {
            _module: module,
            programs,
            launches,
            spares: Spares::default(),
            report: PrepareReport {
                modules,
                tuning: None,
                cache_warnings,
            },
        })
    }

    /// Whether the device runs `kernel` as the plan launches it: its work-groups' size and local
    /// memory within what the device offers for it. Checked when the plan is prepared, before
    /// any data is touched, so that a device with less than the emitted kernels assume (32 KiB
    /// of local memory for the rows kernel's longest row, 256 work-items per group) gets an
    /// error that names the setting to lower rather than a failed launch halfway through a plan.
    fn check_fits(
        &self,
        program: &Program,
        kernel: &str,
        launches: &LaunchPlan,
    ) -> Result<(), DwtError> {
        use ocl::core::{KernelWorkGroupInfo as Info, KernelWorkGroupInfoResult as Got};
        let device = &self.state.device;
        let group = launches
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Launch(l) if l.kernel == kernel => Some(l.local().iter().product::<usize>()),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let k = ocl::core::create_kernel(program, kernel).map_err(device_error)?;
        let max_group = match ocl::core::get_kernel_work_group_info(&k, device, Info::WorkGroupSize)
        {
            Ok(Got::WorkGroupSize(n)) => n,
            _ => usize::MAX,
        };
        let local = match ocl::core::get_kernel_work_group_info(&k, device, Info::LocalMemSize) {
            Ok(Got::LocalMemSize(n)) => n,
            _ => 0,
        };
        let offered = match device.info(DeviceInfo::LocalMemSize) {
            Ok(ocl::enums::DeviceInfoResult::LocalMemSize(n)) => n,
            _ => u64::MAX,
        };
        let what = "lower the LaunchConfig settings that size it (max_row_len and row_group_size \
                    for the rows kernel, tile and tile_threads for the fused one, slab_width, \
                    slab_rows and window_height for the sliding window)";
        if group > max_group {
            return Err(unsupported(format!(
                "{kernel} runs work-groups of {group} work-items and {} runs it with at most {max_group}: {what}",
                self.state.device_name
            )));
        }
        if local > offered {
            return Err(unsupported(format!(
                "{kernel} needs {local} bytes of local memory per work-group and {} offers {offered}: {what}",
                self.state.device_name
            )));
        }
        Ok(())
    }

    /// Runs every step of the plan on `data`, enqueued on `set`'s queue (not waited for), with
    /// `set`'s scratch. A plan that reads a source (the fused passes, out of place) reads
    /// `source`, or when there is none a copy of `data` in `set` (`data` itself where the plan
    /// says its source may be the data).
    fn execute<T: DeviceElement>(
        &self,
        plan: &Plan,
        set: &mut WorkingSet<T>,
        source: Option<&Buffer<T>>,
        data: &Buffer<T>,
    ) -> Result<(), DwtError> {
        let scratch = match plan.launches.scratch {
            0 => None,
            n => Some(set.buffer(Role::Scratch, n)?),
        };
        let copy;
        let source = match (plan.launches.reads_source, source) {
            (false, _) => None,
            (true, Some(s)) => Some(s),
            (true, None) if plan.launches.source_may_be_data => Some(data),
            (true, None) => {
                copy = set.buffer(Role::SourceCopy, data.len())?;
                data.cmd()
                    .copy(&copy, None, None)
                    .queue(&set.queue)
                    .enq()
                    .map_err(device_error)?;
                Some(&copy)
            }
        };
        let scratch = || scratch.as_ref().expect("the plan needs scratch");
        for (index, step) in plan.launches.steps.iter().enumerate() {
            match step {
                Step::Copy(c) => copy_band(&set.queue, data, scratch(), c)?,
                Step::Launch(l) if l.is_empty() => {}
                Step::Launch(l) => {
                    let buffers: Vec<&Buffer<T>> = l
                        .buffers
                        .iter()
                        .map(|b| match b {
                            PlanBuffer::Data => data,
                            PlanBuffer::Scratch => scratch(),
                            PlanBuffer::Source => source.expect("the plan reads a source"),
                        })
                        .collect();
                    set.launch(index, &buffers, |queue| {
                        let program = plan.programs.get(&l.kernel).ok_or_else(|| {
                            device_error(format!("no program built for {}", l.kernel))
                        })?;
                        let mut k = Kernel::builder();
                        k.program(program)
                            .name(&l.kernel)
                            .queue(queue.clone())
                            .global_work_size(l.global())
                            .local_work_size(l.local());
                        for &b in &buffers {
                            k.arg(b);
                        }
                        for v in &l.ints {
                            k.arg(*v);
                        }
                        k.build().map_err(device_error)
                    })?;
                }
            }
        }
        Ok(())
    }
}

impl Backend for OpenClBackend {
    fn name(&self) -> &str {
        NAME
    }

    fn device(&self) -> String {
        format!("{} / {}", self.state.platform_name, self.state.device_name)
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

    fn prepare(&self, request: &Request, element: ElementType) -> Result<Prepared, DwtError> {
        let len = request.sample_count()?;
        request.validate_for(element, len)?;
        // Through the backend's memo, as `run` is: a request prepared before (by `prepare` or
        // `run`) builds nothing and shares its kept queues and buffers.
        let mut here = false;
        let plan = self.plans.get_or_prepare(request, element, || {
            here = true;
            self.plan(request, element)
        })?;
        let mut report = plan.report.clone();
        if !here {
            for m in &mut report.modules {
                (m.origin, m.time) = (KernelOrigin::Memory, Duration::ZERO);
            }
        }
        Ok(Prepared {
            report,
            transform: Some(Box::new(PreparedRequest {
                backend: OpenClBackend {
                    state: self.state,
                    config: self.config,
                    plans: self.plans.clone(),
                    frames_in_turns: self.frames_in_turns,
                },
                plan,
                element,
                len,
            })),
        })
    }
}

/// A module's programs (one per kernel launched) and the launches of the request it runs
/// (computed by [`dwt_emit_c::plan`], shared with the CUDA backend).
struct Plan {
    _module: KernelModule,
    programs: HashMap<String, Program>,
    launches: LaunchPlan,
    /// Where each program came from and how long that took.
    report: PrepareReport,
    /// The queues and buffers its calls reuse.
    spares: Spares,
}

/// A request [`Backend::prepare`]d on the device: its module built and its launches planned.
struct PreparedRequest {
    backend: OpenClBackend,
    plan: Arc<Plan>,
    element: ElementType,
    len: usize,
}

impl PreparedRequest {
    fn run_host<T: DeviceElement>(&self, data: &mut [T]) -> Result<(), DwtError> {
        self.backend.execute_host(&self.plan, data)
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
        let (backend, plan, len) = (&self.backend, &self.plan, self.len);
        match self.element {
            ElementType::I16 => frames::run::<i16>(backend, plan, frames, len),
            ElementType::I32 => frames::run::<i32>(backend, plan, frames, len),
            ElementType::F32 => frames::run::<f32>(backend, plan, frames, len),
            ElementType::F64 => frames::run::<f64>(backend, plan, frames, len),
        }
    }
}

/// The memory object holding a buffer's bytes (its parent, for a sub-buffer) and their range in
/// it, so that two buffers' overlap is known.
fn region<T: OclPrm>(b: &Buffer<T>) -> Result<(usize, std::ops::Range<usize>), DwtError> {
    let size = b.len() * std::mem::size_of::<T>();
    match b
        .mem_info(MemInfo::AssociatedMemobject)
        .map_err(device_error)?
    {
        MemInfoResult::AssociatedMemobject(Some(parent)) => {
            match b.mem_info(MemInfo::Offset).map_err(device_error)? {
                MemInfoResult::Offset(offset) => {
                    Ok((parent.as_ptr() as usize, offset..offset + size))
                }
                other => Err(device_error(format!(
                    "a sub-buffer's offset came back as {other}"
                ))),
            }
        }
        _ => Ok((b.as_core().as_ptr() as usize, 0..size)),
    }
}

/// Copies the (Mallat, so contiguous from the origin with the full image's pitches) band of the
/// data into the same place of `scratch`: the band's samples, not the whole buffer.
fn copy_band<T: DeviceElement>(
    queue: &Queue,
    data: &Buffer<T>,
    scratch: &Buffer<T>,
    c: &BandCopy,
) -> Result<(), DwtError> {
    let size = std::mem::size_of::<T>();
    let [d, h, w] = c.extents;
    // NVIDIA's driver refuses (CL_INVALID_VALUE) a rectangle whose planes of `plane_pitch`
    // reach past the buffer even where its last row ends inside it, as an interleaved band's
    // do (its planes and rows 2^level apart): those take the contiguous span that covers the
    // band, as the CUDA backend's copies do (what lies between its rows is copied too, into
    // scratch that holds nothing else).
    if d * c.plane_pitch > data.len().min(scratch.len()) {
        return data
            .cmd()
            .copy(scratch, Some(0), Some(c.span()))
            .queue(queue)
            .enq()
            .map_err(device_error);
    }
    data.cmd()
        .copy(scratch, None, None)
        .rect(
            [0, 0, 0],
            [0, 0, 0],
            [w, h, d],
            c.row_pitch * size,
            c.plane_pitch * size,
            c.row_pitch * size,
            c.plane_pitch * size,
        )
        .queue(queue)
        .enq()
        .map_err(device_error)
}

/// The compiler's log followed by the source lines it points at (`...:LINE:COLUMN: ...`), quoted
/// with their numbers.
pub fn annotate_log(log: &str, source: &str) -> String {
    dwt_emit_c::annotate_build_log(log, source, |l| {
        // The first `:N:` of a diagnostic line is its source line.
        let mut rest = l;
        while let Some(i) = rest.find(':') {
            rest = &rest[i + 1..];
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            if end > 0 && rest[end..].starts_with(':') {
                return rest[..end].parse().ok();
            }
        }
        None
    })
}
