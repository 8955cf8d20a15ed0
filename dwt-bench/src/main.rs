//! `dwt-bench`: times the CUDA backend on one GPU in one run and prints a markdown report.
//!
//! 1. The roofline: a device-to-device copy of a large buffer, counting bytes read plus written.
//! 2. Every requested 2-D case (catalogue wavelet x size x levels x direction) and the 3-D ones
//!    (Table VI's 512^3 for its six wavelets and the peers' CDF 5/3 and 9/7, 256^3 besides; the
//!    requested wavelets' only where `--wavelets` is given),
//!    on data already on the device, in three variants: the default plan from one buffer into
//!    another ([`CudaBackend::run_on_device_into`]: the fused 2-D pass reads and writes the image
//!    once per level; in 3-D it and the depth pass each read and write the band once), the
//!    default plan in place ([`CudaBackend::run_on_device`]: a plan that reads a source first
//!    copies the data), and the two passes per axis and level in place; timed with CUDA events
//!    after warm-up: the median over `--reps` calls, each call between its own pair of events
//!    (host submission gaps included), and the mean of the same number of calls issued back to
//!    back (submission overlapped with the GPU). Calls rotate over enough buffers (at least 3) that
//!    the buffers together exceed the L2 cache, so small images are not timed out of the cache.
//! 3. One level forward of every 2-D case step by step: the two passes' horizontal and vertical
//!    pass apart (van der Laan et al.'s Table IV) against the fused pass; and the steps of the
//!    3-D cases' default plan.
//! 4. The first transform of each module (emission, NVRTC, module load, run) against a warm one.
//!
//! Effective bandwidth is one read and one write of the data over the time, the same for every
//! case and for the peers (`peers.py`), whatever the kernels really move.
//!
//! ```text
//! dwt-bench [--out FILE] [--reps N] [--wavelets A,B,FILE] [--sizes 1080p,4096,8192|none] [--no-3d]
//!           [--skip-fidelity-8192] [--tuned] [--f64] [--i16] [--tile XxY] [--threads N] [--segment N] [--window H]
//!           [--slab WxR] [--column-segment N] [--small-band-tiles on|off] [--async-load on|off] [--register-cap on|off]
//!           [--levels 1,3] [--pyramids on|off] [--one-pass-volumes on|off] [--pair-volumes on|off] [--copy-kernel-from BYTES|off] [--even-rows on|off|always] [--level-pairs on|off|always] [--layout mallat|interleaved] [--default-plan-only] [--own-stream]
//!           [--level-steps]
//! ```

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaEvent, CudaSlice, CudaStream};
use dwt_cuda::{CudaBackend, DeviceElement, LaunchConfig, Strategy, Tuning};
use dwt_emit_c::{Axis, Pass, Step};
use dwt_ir::{Direction, ElementKind, Layout, Wavelet};
use dwt_runtime::{Backend, Request};

type Res<T> = Result<T, String>;

fn drv<E: std::fmt::Debug>(e: E) -> String {
    format!("CUDA driver: {e:?}")
}

/// Bytes the rotating buffers of one case must exceed together (H100 and H200 L2: 50-60 MB).
const ROTATION_BYTES: usize = 256 << 20;
/// Calls before timing (after the first, compiling, call).
const WARMUP: usize = 3;
/// Cases of up to this many samples (1920x1080 and smaller) are also timed without CUDA graphs
/// (`no graph`): there launching is much of the time.
const NO_GRAPH_SAMPLES: usize = 1 << 21;

/// The wavelets declared in the files `--wavelets` names (each entry that is not a catalogue
/// name: a file in the `lifting!` language), each with its entry, in order: a user's own program
/// (a periodic one, say, whose edge tiles wrap) measured beside the catalogue's.
fn wavelet_files(specs: &[String]) -> Res<Vec<(String, Wavelet)>> {
    let mut out = Vec::new();
    for spec in specs {
        if dwt_catalogue::by_name(spec).is_some() {
            continue;
        }
        let declared = dwt_catalogue::by_name_or_file(spec).map_err(|e| e.to_string())?;
        out.extend(declared.into_iter().map(|w| (spec.clone(), w)));
    }
    Ok(out)
}

struct Opts {
    out: Option<PathBuf>,
    reps: usize,
    wavelets: Option<Vec<String>>,
    sizes: Vec<String>,
    three_d: bool,
    own_stream: bool,
    skip_fidelity_8192: bool,
    tuned: bool,
    /// Float wavelets also in f64 (after their f32 rows).
    f64: bool,
    /// Integer wavelets also in i16 above 1920x1080 (after their i32 rows).
    i16: bool,
    tile: Option<[usize; 2]>,
    threads: Option<usize>,
    segment: Option<usize>,
    window: Option<usize>,
    slab: Option<[usize; 2]>,
    row_limit: Option<usize>,
    row_group: Option<usize>,
    /// `--column-segment N`: `LaunchConfig::column_segment` (0: whole columns; default: the rule).
    column_segment: Option<usize>,
    /// `--small-band-tiles on|off`: `LaunchConfig::small_band_tiles` (default: the rule, or off
    /// in a sweep that names its tiles).
    small_band_tiles: Option<bool>,
    /// `--async-load on|off`: `LaunchConfig::async_load` (default: the rule).
    async_load: Option<bool>,
    /// `--register-cap on|off`: `LaunchConfig::register_cap` (default: the rule).
    register_cap: Option<bool>,
    /// `--levels 1,3`: the level counts of every 2-D case (default 1 and 3, the issue's).
    levels: Vec<u32>,
    /// `--pyramids on|off`: `LaunchConfig::pyramids` (default: on).
    pyramids: bool,
    /// `--one-pass-volumes on|off`: `LaunchConfig::one_pass_volumes` (default: the dialect's,
    /// on in CUDA).
    one_pass_volumes: Option<bool>,
    /// `--pair-volumes on|off`: `LaunchConfig::pair_volumes` (default: on).
    pair_volumes: bool,
    /// `--copy-kernel-from BYTES|off`: `CudaBackend::with_copy_kernel_from` (default:
    /// `COPY_KERNEL_FROM`; off: never).
    copy_kernel_from: usize,
    /// `--even-rows on|off|always`: `LaunchConfig::even_rows_from` (on: the default bound;
    /// always: every size).
    even_rows: Option<usize>,
    /// `--level-pairs on|off|always`: `LaunchConfig::level_pairs_from` (on: the default bound;
    /// always: every size whose sides the tiles divide).
    level_pairs: Option<usize>,
    /// `--layout mallat|interleaved`: the layout of every 2-D and 3-D case (default: Mallat, as
    /// the peers write).
    layout: Layout,
    /// `--default-plan-only`: only the default plan's rows (and `--tuned`'s), for sweeps.
    default_plan_only: bool,
    /// `--level-steps`: also time each 2-D size's three-level forward step by step (where a
    /// multi-level transform's time goes, level by level).
    level_steps: bool,
}

fn parse_args() -> Res<Opts> {
    let mut o = Opts {
        out: None,
        reps: 25,
        wavelets: None,
        sizes: vec!["1080p".into(), "4096".into(), "8192".into()],
        three_d: true,
        own_stream: false,
        skip_fidelity_8192: false,
        tuned: false,
        f64: false,
        i16: false,
        tile: None,
        threads: None,
        segment: None,
        window: None,
        slab: None,
        row_limit: None,
        row_group: None,
        column_segment: None,
        small_band_tiles: None,
        async_load: None,
        register_cap: None,
        levels: vec![1, 3],
        pyramids: true,
        one_pass_volumes: None,
        pair_volumes: true,
        copy_kernel_from: dwt_cuda::COPY_KERNEL_FROM,
        even_rows: Some(dwt_emit_c::EVEN_ROWS_MIN_SAMPLES),
        level_pairs: Some(dwt_emit_c::LEVEL_PAIRS_MIN_SAMPLES),
        layout: Layout::Mallat,
        default_plan_only: false,
        level_steps: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--out" => o.out = Some(value()?.into()),
            "--reps" => {
                o.reps = value()?.parse().map_err(|e| format!("--reps: {e}"))?;
                if o.reps < 20 {
                    return Err("--reps: at least 20".into());
                }
            }
            "--wavelets" => o.wavelets = Some(value()?.split(',').map(String::from).collect()),
            "--sizes" => match value()?.as_str() {
                "none" => o.sizes.clear(),
                v => o.sizes = v.split(',').map(String::from).collect(),
            },
            "--no-3d" => o.three_d = false,
            "--own-stream" => o.own_stream = true,
            "--skip-fidelity-8192" => o.skip_fidelity_8192 = true,
            "--tuned" => o.tuned = true,
            "--default-plan-only" => o.default_plan_only = true,
            "--level-steps" => o.level_steps = true,
            "--f64" => o.f64 = true,
            "--i16" => o.i16 = true,
            "--tile" => o.tile = Some(pair(&a, &value()?)?),
            "--slab" => o.slab = Some(pair(&a, &value()?)?),
            "--row-limit" => {
                o.row_limit = Some(value()?.parse().map_err(|e| format!("--row-limit: {e}"))?)
            }
            "--row-group" => {
                o.row_group = Some(value()?.parse().map_err(|e| format!("--row-group: {e}"))?)
            }
            "--column-segment" => {
                o.column_segment = Some(
                    value()?
                        .parse()
                        .map_err(|e| format!("--column-segment: {e}"))?,
                )
            }
            "--window" => o.window = Some(value()?.parse().map_err(|e| format!("--window: {e}"))?),
            "--threads" => {
                o.threads = Some(value()?.parse().map_err(|e| format!("--threads: {e}"))?)
            }
            "--segment" => {
                o.segment = Some(value()?.parse().map_err(|e| format!("--segment: {e}"))?)
            }
            "--small-band-tiles" => o.small_band_tiles = Some(on_off(&a, &value()?)?),
            "--async-load" => o.async_load = Some(on_off(&a, &value()?)?),
            "--register-cap" => o.register_cap = Some(on_off(&a, &value()?)?),
            "--pyramids" => o.pyramids = on_off(&a, &value()?)?,
            "--one-pass-volumes" => o.one_pass_volumes = Some(on_off(&a, &value()?)?),
            "--pair-volumes" => o.pair_volumes = on_off(&a, &value()?)?,
            "--copy-kernel-from" => {
                o.copy_kernel_from = match value()?.as_str() {
                    "off" => usize::MAX,
                    v => v
                        .parse()
                        .map_err(|e| format!("--copy-kernel-from: bytes or off, not {v}: {e}"))?,
                }
            }
            "--even-rows" => {
                o.even_rows = size_bound(&a, &value()?, dwt_emit_c::EVEN_ROWS_MIN_SAMPLES)?
            }
            "--level-pairs" => {
                o.level_pairs = size_bound(&a, &value()?, dwt_emit_c::LEVEL_PAIRS_MIN_SAMPLES)?
            }
            "--levels" => {
                o.levels = value()?
                    .split(',')
                    .map(|l| match l.parse::<u32>() {
                        Ok(n) if n >= 1 => Ok(n),
                        _ => Err(format!("--levels: level counts of 1 or more, not `{l}`")),
                    })
                    .collect::<Res<_>>()?
            }
            "--layout" => {
                o.layout = match value()?.as_str() {
                    "mallat" => Layout::Mallat,
                    "interleaved" => Layout::Interleaved,
                    v => return Err(format!("--layout: mallat or interleaved, not {v}")),
                }
            }
            "-h" | "--help" => {
                println!("dwt-bench [--out FILE] [--reps N>=20] [--wavelets A,B,FILE] [--sizes 1080p,4096,8192|none] [--no-3d] [--skip-fidelity-8192] [--tuned] [--f64] [--i16] [--tile XxY] [--threads N] [--segment N] [--window H] [--slab WxR] [--column-segment N] [--row-limit N] [--row-group N] [--small-band-tiles on|off] [--async-load on|off] [--register-cap on|off] [--levels 1,3] [--pyramids on|off] [--one-pass-volumes on|off] [--pair-volumes on|off] [--copy-kernel-from BYTES|off] [--even-rows on|off|always] [--level-pairs on|off|always] [--layout mallat|interleaved] [--default-plan-only] [--own-stream]");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument `{a}` (try --help)")),
        }
    }
    Ok(o)
}

/// A markdown table's header row and separator line.
fn table_head(md: &mut String, columns: &[&str]) {
    let _ = writeln!(md, "| {} |", columns.join(" | "));
    let _ = writeln!(md, "|{}", "---|".repeat(columns.len()));
}

/// `on` or `off`, for option `name`.
fn on_off(name: &str, v: &str) -> Res<bool> {
    match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{name} {v}: expected on or off")),
    }
}

/// `on|off|always` for option `name` that sets a size from which a kernel applies: the
/// default bound, none, or every size.
fn size_bound(name: &str, v: &str, default: usize) -> Res<Option<usize>> {
    match v {
        "always" => Ok(Some(0)),
        "on" => Ok(Some(default)),
        "off" => Ok(None),
        _ => Err(format!("{name} {v}: expected on, off or always")),
    }
}

/// `XxY` as two numbers, for option `name`.
fn pair(name: &str, v: &str) -> Res<[usize; 2]> {
    let parsed: Vec<usize> = v
        .split('x')
        .map(|n| n.parse().map_err(|e| format!("{name} {v}: {e}")))
        .collect::<Res<_>>()?;
    match parsed[..] {
        [x, y] => Ok([x, y]),
        _ => Err(format!("{name} {v}: expected XxY")),
    }
}

/// Host test data: never zeros; small enough integers that 3 levels cannot overflow.
trait Sample: DeviceElement + Into<f64> {
    fn from_random(r: u64) -> Self;
    /// The largest `|inverse(forward(x)) - x|` a round trip may leave: none for integers, a
    /// rounding error of the type for floats.
    const ROUND_TRIP: f64;
}

impl Sample for i16 {
    fn from_random(r: u64) -> Self {
        (r % 256) as i16
    }
    const ROUND_TRIP: f64 = 0.0;
}

impl Sample for i32 {
    fn from_random(r: u64) -> Self {
        (r % 4096) as i32
    }
    const ROUND_TRIP: f64 = 0.0;
}

impl Sample for f32 {
    fn from_random(r: u64) -> Self {
        (r >> 40) as f32 / (1u64 << 24) as f32 + 0.25
    }
    const ROUND_TRIP: f64 = 1e-3;
}

impl Sample for f64 {
    fn from_random(r: u64) -> Self {
        (r >> 11) as f64 / (1u64 << 53) as f64 + 0.25
    }
    const ROUND_TRIP: f64 = 1e-9;
}

/// The largest `|a - b|` over the two samples (exact for every sample type: each is an f64).
fn max_abs_diff<T: Sample>(a: &[T], b: &[T]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| (x.into() - y.into()).abs())
        .fold(0.0, f64::max)
}

fn random_vec<T: Sample>(n: usize, seed: u64) -> Vec<T> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            // xorshift64*
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            T::from_random(s.wrapping_mul(0x2545_F491_4F6C_DD1D))
        })
        .collect()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

struct Events {
    start: CudaEvent,
    end: CudaEvent,
}

impl Events {
    fn new(b: &CudaBackend) -> Res<Self> {
        let flags = Some(CUevent_flags::CU_EVENT_DEFAULT);
        Ok(Events {
            start: b.context().new_event(flags).map_err(drv)?,
            end: b.context().new_event(flags).map_err(drv)?,
        })
    }
}

/// Median device-to-device copy bandwidth (bytes read + written per second) of `bytes`.
fn copy_bandwidth(b: &CudaBackend, stream: &Arc<CudaStream>, bytes: usize) -> Res<(f64, f64)> {
    let host: Vec<u8> = random_vec::<i16>(bytes / 2, 7)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let src = stream.clone_htod(&host).map_err(drv)?;
    let mut dst = stream.alloc_zeros::<u8>(bytes).map_err(drv)?;
    let ev = Events::new(b)?;
    for _ in 0..WARMUP {
        stream.memcpy_dtod(&src, &mut dst).map_err(drv)?;
    }
    let mut times = Vec::new();
    for _ in 0..25 {
        ev.start.record(stream).map_err(drv)?;
        stream.memcpy_dtod(&src, &mut dst).map_err(drv)?;
        ev.end.record(stream).map_err(drv)?;
        times.push(f64::from(ev.start.elapsed_ms(&ev.end).map_err(drv)?));
    }
    let ms = median(&mut times);
    Ok((ms, 2.0 * bytes as f64 / (ms * 1e-3)))
}

struct Timing {
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    pipelined_ms: f64,
    submit_us: f64,
}

/// How a case is run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// The default plan (fused 2-D pass where it applies) from a source buffer into another:
    /// `run_on_device_into`.
    Into,
    /// The default plan in place (`run_on_device`): a plan that reads a source first copies the
    /// data.
    InPlace,
    /// The two passes per level (van der Laan et al.), in place.
    TwoPass,
    /// As `Into`, every kernel launched on its own (no CUDA graph): only for the transforms
    /// small enough to be recorded as graphs whatever their plan keeps.
    Direct,
    /// As `Into` on a backend that measures its candidate configurations per request
    /// (`--tuned`): the configuration it chose.
    Tuned,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Into => "src->dst",
            Variant::InPlace => "in place",
            Variant::TwoPass => "two-pass",
            Variant::Direct => "src->dst, no graph",
            Variant::Tuned => "tuned src->dst",
        }
    }
}

struct Row {
    case: String,
    elem: &'static str,
    variant: Variant,
    steps: String,
    timing: Timing,
    bytes: usize,
}

/// One level forward as the two passes and as the fused pass, timed step by step.
struct Passes {
    case: String,
    elem: &'static str,
    horizontal_ms: f64,
    vertical_ms: f64,
    fused_ms: f64,
    bytes: usize,
}

/// The steps of a transform's default plan, timed one by one.
struct StepRows {
    case: String,
    elem: &'static str,
    steps: Vec<dwt_cuda::StepTime>,
}

struct Compile {
    module: String,
    first_ms: f64,
    warm_ms: f64,
}

struct Bench<'a> {
    b: &'a CudaBackend,
    two_pass: CudaBackend,
    direct: CudaBackend,
    /// The measuring backend (`--tuned`).
    tuned: Option<CudaBackend>,
    /// What it measured per case.
    tunings: Vec<(String, String)>,
    stream: Arc<CudaStream>,
    reps: usize,
    rows: Vec<Row>,
    passes: Vec<Passes>,
    step_rows: Vec<StepRows>,
    compiles: Vec<Compile>,
    seen: HashSet<String>,
    checks: Vec<String>,
    /// Only the default plan (and the tuned one): no graph-less, in-place or two-pass rows, no
    /// pass breakdown.
    default_plan_only: bool,
    /// The layout of every request.
    layout: Layout,
}

impl Bench<'_> {
    /// The backend a variant runs on.
    fn backend(&self, variant: Variant) -> &CudaBackend {
        match variant {
            Variant::Into | Variant::InPlace => self.b,
            Variant::TwoPass => &self.two_pass,
            Variant::Direct => &self.direct,
            Variant::Tuned => self.tuned.as_ref().expect("tuned rows only with --tuned"),
        }
    }

    /// Launches and band copies of the request's plan as `backend` runs it, whether fused, and
    /// whether the executor took the register cap off a kernel that spilled under it (the
    /// configuration line's `register_cap` then does not hold for this row).
    fn steps<T: DeviceElement>(&self, backend: &CudaBackend, r: &Request) -> Res<String> {
        let plan = backend.launch_plan(r, T::TYPE).map_err(|e| e.to_string())?;
        let spilled = backend
            .uncapped_kernels(r, T::TYPE)
            .map_err(|e| e.to_string())?;
        let launches = plan
            .steps
            .iter()
            .filter(|s| matches!(s, Step::Launch(_)))
            .count();
        let copies = plan.steps.len() - launches;
        let kind = if plan.is_fused() { " fused" } else { "" };
        let cap = if spilled.is_empty() {
            ""
        } else {
            ", cap off (spilled)"
        };
        Ok(format!("{launches}+{copies}{kind}{cap}"))
    }

    /// `backend`'s plan of `levels` levels in `direction` on `shape`, each step timed on random
    /// data (`CudaBackend::time_steps`).
    fn timed_steps<T: Sample>(
        &self,
        backend: &CudaBackend,
        wavelet: &Wavelet,
        direction: Direction,
        shape: &[usize],
        levels: u32,
    ) -> Res<Vec<dwt_cuda::StepTime>> {
        let n: usize = shape.iter().product();
        let host: Vec<T> = random_vec(n, n as u64 ^ 0x7AB4);
        let src = self.stream.clone_htod(&host).map_err(drv)?;
        let mut dst = self.stream.alloc_zeros::<T>(n).map_err(drv)?;
        let r = Request {
            wavelet,
            direction,
            shape: shape.to_vec(),
            levels,
            layout: self.layout,
        };
        backend
            .time_steps(&r, &src, &mut dst, self.reps)
            .map_err(|e| e.to_string())
    }

    /// One level forward on `shape`, timed step by step: the two passes split into the
    /// horizontal pass (the rows kernel, or the shift and the sliding window along long rows)
    /// and the vertical pass (the band copy and the sliding window down the columns), against
    /// the fused pass: van der Laan et al.'s Table IV.
    fn passes<T: Sample>(&mut self, wavelet: &Wavelet, shape: &[usize], label: &str) -> Res<()> {
        if self.default_plan_only {
            return Ok(());
        }
        let times = self.timed_steps::<T>(&self.two_pass, wavelet, Direction::Forward, shape, 1)?;
        let (mut horizontal_ms, mut vertical_ms, mut copies) = (0.0, 0.0, 0.0);
        for t in &times {
            match &t.step {
                // A band copy feeds the sliding window after it: counted with that pass.
                Step::Copy(_) => copies += t.median_ms,
                Step::Launch(l) => {
                    let pass = match l.pass {
                        Pass::Rows | Pass::Shift | Pass::RowSegments | Pass::Window(Axis::X) => {
                            &mut horizontal_ms
                        }
                        Pass::Window(Axis::Y | Axis::Z) => &mut vertical_ms,
                        Pass::Fused
                        | Pass::Pyramid
                        | Pass::LevelPair
                        | Pass::EvenRows
                        | Pass::Volume
                        | Pass::VolumePairs
                        | Pass::VolumePyramid => {
                            return Err("the two-pass plan launched a fused kernel".into())
                        }
                    };
                    *pass += t.median_ms + std::mem::take(&mut copies);
                }
            }
        }
        let fused = self.timed_steps::<T>(self.b, wavelet, Direction::Forward, shape, 1)?;
        self.passes.push(Passes {
            case: format!("{} {label} L1 fwd", wavelet.name),
            elem: T::NAME,
            horizontal_ms,
            vertical_ms,
            fused_ms: fused.iter().map(|s| s.median_ms).sum(),
            bytes: shape.iter().product::<usize>() * std::mem::size_of::<T>(),
        });
        Ok(())
    }

    /// The default plan's steps for `levels` levels on `shape` in each of `directions`, timed
    /// one by one.
    fn step_times<T: Sample>(
        &mut self,
        wavelet: &Wavelet,
        shape: &[usize],
        levels: u32,
        label: &str,
        directions: &[Direction],
    ) -> Res<()> {
        for &direction in directions {
            let steps = self.timed_steps::<T>(self.b, wavelet, direction, shape, levels)?;
            let dir = match direction {
                Direction::Forward => "fwd",
                Direction::Inverse => "inv",
            };
            self.step_rows.push(StepRows {
                case: format!("{} {label} L{levels} {dir}", wavelet.name),
                elem: T::NAME,
                steps,
            });
        }
        Ok(())
    }

    /// [`case`](Self::case) and then [`passes`](Self::passes) in element type `T`, where `also`.
    fn rows<T: Sample>(
        &mut self,
        also: bool,
        wavelet: &Wavelet,
        shape: &[usize],
        levels: &[u32],
        label: &str,
    ) -> Res<()> {
        if !also {
            return Ok(());
        }
        self.case::<T>(wavelet, shape, levels, label)?;
        self.passes::<T>(wavelet, shape, label)
    }

    /// Times `wavelet` on `shape` for every level count and both directions, in every variant.
    fn case<T: Sample>(
        &mut self,
        wavelet: &Wavelet,
        shape: &[usize],
        levels: &[u32],
        label: &str,
    ) -> Res<()> {
        let n: usize = shape.iter().product();
        let bytes = n * std::mem::size_of::<T>();
        let host: Vec<T> = random_vec(n, n as u64 ^ 0xD1B5);
        // Transforms run as CUDA graphs, one per buffer pair, up to GRAPHS_KEPT: more buffers
        // would time recordings, not replays.
        let graphs = n <= NO_GRAPH_SAMPLES;
        let count = ROTATION_BYTES
            .div_ceil(bytes)
            .clamp(3, dwt_cuda::GRAPHS_KEPT);
        let mut bufs: Vec<CudaSlice<T>> = (0..count)
            .map(|_| self.stream.clone_htod(&host).map_err(drv))
            .collect::<Res<_>>()?;
        let mut outs: Vec<CudaSlice<T>> = (0..count)
            .map(|_| self.stream.alloc_zeros::<T>(n).map_err(drv))
            .collect::<Res<_>>()?;
        for &l in levels {
            for direction in [Direction::Forward, Direction::Inverse] {
                let r = Request {
                    wavelet,
                    direction,
                    shape: shape.to_vec(),
                    levels: l,
                    layout: self.layout,
                };
                let dir = match direction {
                    Direction::Forward => "fwd",
                    Direction::Inverse => "inv",
                };
                let case = format!("{} {label} L{l} {dir}", wavelet.name);
                eprintln!("  {case} ({}, {count} buffers)", T::NAME);
                let module = format!("{} {dir} {}", wavelet.name, T::NAME);
                if self.seen.insert(module.clone()) {
                    let mut wall = [0.0; 2];
                    for (i, w) in wall.iter_mut().enumerate() {
                        let t = Instant::now();
                        self.b
                            .run_on_device(&r, &mut bufs[i])
                            .map_err(|e| e.to_string())?;
                        self.stream.synchronize().map_err(drv)?;
                        *w = t.elapsed().as_secs_f64() * 1e3;
                    }
                    self.compiles.push(Compile {
                        module,
                        first_ms: wall[0],
                        warm_ms: wall[1],
                    });
                }
                let mut variants = vec![Variant::Into];
                variants.extend(self.tuned.is_some().then_some(Variant::Tuned));
                if !self.default_plan_only {
                    variants.extend(graphs.then_some(Variant::Direct));
                    variants.extend([Variant::InPlace, Variant::TwoPass]);
                }
                for variant in variants {
                    // Fresh data for every variant: in-place calls changed it.
                    for buf in bufs.iter_mut() {
                        self.stream.memcpy_htod(&host, buf).map_err(drv)?;
                    }
                    self.stream.synchronize().map_err(drv)?;
                    let backend = self.backend(variant);
                    let timing = self.time(&r, variant, &mut bufs, &mut outs)?;
                    let mut steps = self
                        .steps::<T>(backend, &r)
                        .unwrap_or_else(|e| format!("? ({e})"));
                    if variant == Variant::Tuned {
                        match backend.tuning_report(&r, T::TYPE) {
                            Ok(Some(t)) => {
                                steps = format!("{steps}: {}", t.chosen);
                                self.tunings
                                    .push((format!("{case} ({})", T::NAME), t.to_string()));
                            }
                            Ok(None) => steps = format!("{steps}: not tuned"),
                            Err(e) => steps = format!("{steps}: ? ({e})"),
                        }
                    }
                    self.rows.push(Row {
                        case: case.clone(),
                        elem: T::NAME,
                        variant,
                        steps,
                        timing,
                        bytes,
                    });
                }
            }
            // Forward then inverse gives the input back (exactly for integers), in every variant.
            let mut round_trips = vec![Variant::Into];
            round_trips.extend((!self.default_plan_only).then_some(Variant::TwoPass));
            round_trips.extend(self.tuned.is_some().then_some(Variant::Tuned));
            for variant in round_trips {
                let src = self.stream.clone_htod(&host).map_err(drv)?;
                let mut mid = self.stream.alloc_zeros::<T>(n).map_err(drv)?;
                let mut back = self.stream.alloc_zeros::<T>(n).map_err(drv)?;
                let request = |direction| Request {
                    wavelet,
                    direction,
                    shape: shape.to_vec(),
                    levels: l,
                    layout: self.layout,
                };
                let (fwd, inv) = (request(Direction::Forward), request(Direction::Inverse));
                let b = self.backend(variant);
                match variant {
                    Variant::TwoPass => {
                        self.stream.memcpy_dtod(&src, &mut back).map_err(drv)?;
                        b.run_on_device(&fwd, &mut back)
                            .and_then(|()| b.run_on_device(&inv, &mut back))
                    }
                    _ => b
                        .run_on_device_into(&fwd, &src, &mut mid)
                        .and_then(|()| b.run_on_device_into(&inv, &mid, &mut back)),
                }
                .map_err(|e| e.to_string())?;
                let back = self.stream.clone_dtoh(&back).map_err(drv)?;
                let err = max_abs_diff(&back, &host);
                let ok = err <= T::ROUND_TRIP;
                self.checks.push(format!(
                    "{} {label} L{l} {} {}: max |inverse(forward(x)) - x| = {err:.3e} {}",
                    wavelet.name,
                    T::NAME,
                    variant.name(),
                    if ok { "ok" } else { "MISMATCH" }
                ));
                if !ok {
                    eprintln!("round trip failed: {}", self.checks.last().unwrap());
                }
            }
        }
        Ok(())
    }

    fn time<T: DeviceElement>(
        &self,
        r: &Request,
        variant: Variant,
        bufs: &mut [CudaSlice<T>],
        outs: &mut [CudaSlice<T>],
    ) -> Res<Timing> {
        let ev = Events::new(self.b)?;
        let k = bufs.len();
        let b = self.backend(variant);
        let mut run = |i: usize| {
            match variant {
                Variant::InPlace | Variant::TwoPass => b.run_on_device(r, &mut bufs[i % k]),
                Variant::Into | Variant::Direct | Variant::Tuned => {
                    b.run_on_device_into(r, &bufs[i % k], &mut outs[i % k])
                }
            }
            .map_err(|e| e.to_string())
        };
        // At least two calls per buffer (pair): every graph is recorded (at the second) before
        // the timing.
        let warmup = WARMUP.max(2 * k);
        for i in 0..warmup {
            run(i)?;
        }
        self.stream.synchronize().map_err(drv)?;
        let (mut times, mut submits) = (Vec::new(), Vec::new());
        for i in 0..self.reps {
            ev.start.record(&self.stream).map_err(drv)?;
            let t = Instant::now();
            run(warmup + i)?;
            submits.push(t.elapsed().as_secs_f64() * 1e6);
            ev.end.record(&self.stream).map_err(drv)?;
            times.push(f64::from(ev.start.elapsed_ms(&ev.end).map_err(drv)?));
        }
        ev.start.record(&self.stream).map_err(drv)?;
        for i in 0..self.reps {
            run(warmup + self.reps + i)?;
        }
        ev.end.record(&self.stream).map_err(drv)?;
        let pipelined_ms = f64::from(ev.start.elapsed_ms(&ev.end).map_err(drv)?) / self.reps as f64;
        let (min_ms, max_ms) = times
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), &t| (a.min(t), b.max(t)));
        Ok(Timing {
            median_ms: median(&mut times),
            min_ms,
            max_ms,
            pipelined_ms,
            submit_us: median(&mut submits),
        })
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("dwt-bench: {e}");
        std::process::exit(1);
    }
}

fn run() -> Res<()> {
    let o = parse_args()?;
    // Before the device is touched: a bad file fails at once.
    let from_files = wavelet_files(o.wavelets.as_deref().unwrap_or_default())?;
    let mut config = LaunchConfig::default();
    if let Some(t) = o.tile {
        config.tile = t;
    }
    if let Some(n) = o.threads {
        config.tile_threads = n;
    }
    if let Some(n) = o.segment {
        config.segment = n;
    }
    // A sweep's tiles are the ones it names, for every program and size.
    if o.tile.is_some() || o.threads.is_some() || o.segment.is_some() {
        config.long_filter_tiles = Some(false);
        config.small_band_tiles = Some(false);
    }
    config.small_band_tiles = o.small_band_tiles.or(config.small_band_tiles);
    config.async_load = o.async_load;
    config.register_cap = o.register_cap;
    config.pyramids = o.pyramids;
    config.one_pass_volumes = o.one_pass_volumes;
    config.pair_volumes = o.pair_volumes;
    config.even_rows_from = o.even_rows;
    config.level_pairs_from = o.level_pairs;
    if let Some(h) = o.window {
        config.window_height = h;
    }
    if let Some([w, r]) = o.slab {
        config.slab_width = w;
        config.slab_rows = r;
    }
    // A sweep's window and slabs are the ones it names, the volumes' depth passes' too.
    if o.window.is_some() || o.slab.is_some() {
        config.volume_depth_window = Some(false);
    }
    if let Some(n) = o.row_limit {
        config.max_row_len = n;
    }
    if let Some(n) = o.row_group {
        config.row_group_size = n;
    }
    config.column_segment = o.column_segment.or(config.column_segment);
    // The default rows are the configuration as given, whatever DWT_TUNE says.
    let b = CudaBackend::with_config(config)
        .map_err(|e| e.to_string())?
        .with_tuning(Tuning::Fixed)
        .with_copy_kernel_from(o.copy_kernel_from);
    // The context's default stream, or (`--own-stream`) a stream of the bench's own (which puts
    // cudarc's context in its multi-stream mode, tracking every buffer's use with events).
    let stream = if o.own_stream {
        b.context().new_stream().map_err(drv)?
    } else {
        b.stream()
    };
    let mut md = String::new();
    let _ = writeln!(md, "# dwt-bench\n");
    let _ = writeln!(md, "- Device: {} ({})", b.device(), b.arch());
    let _ = writeln!(
        md,
        "- Fused tile: {:?} polyphase indices per phase, {} work-items, register segments of up to {}; long filters' tiles (`long_filter_tiles`): {}",
        b.config().tile,
        b.config().tile_threads,
        b.config().segment,
        match b.config().long_filter_tiles {
            None => format!(
                "on planes of {} samples or more (the short programs' integer and f32 inverses but Daubechies 9/7's: more than {}; the taller tiles, 4-byte samples: {} or more)",
                dwt_emit_c::LONG_FILTER_PLANE,
                dwt_emit_c::WIDE_INVERSE_PLANE,
                dwt_emit_c::TALL_TILE_PLANE
            ),
            Some(true) => "always".into(),
            Some(false) => "off".into(),
        }
    );
    let _ = writeln!(
        md,
        "- Small bands' tiles (`small_band_tiles`): bands of at most {} samples on tiles of {:?} of {} work-items, register segments of {}: {}",
        dwt_emit_c::SMALL_BAND,
        dwt_emit_c::SMALL_BAND_TILE.0,
        dwt_emit_c::SMALL_BAND_TILE.1,
        dwt_emit_c::SMALL_BAND_SEGMENT,
        match b.config().small_band_tiles {
            None => "every inverse, and the forward of programs whose steps span at most three indices",
            Some(true) => "always",
            Some(false) => "off",
        }
    );
    let _ = writeln!(
        md,
        "- Asynchronous copies into the forward's inner tiles (`async_load`, CUDA, samples stored in their working type): {}",
        match b.config().async_load {
            None => "programs of 6 taps or more",
            Some(true) => "always",
            Some(false) => "off",
        }
    );
    let _ = writeln!(
        md,
        "- Register cap on the fused kernels (`register_cap`, CUDA; taken off a kernel that spills under it): {}",
        match b.config().register_cap {
            None => "the 2-D forwards not measured to spill",
            Some(true) => "every fused kernel",
            Some(false) => "off",
        }
    );
    let _ = writeln!(
        md,
        "- Pair-local programs' first levels in pyramid kernels (`pyramids`): {}; a 3-D transform's levels in one pass (`one_pass_volumes`: the finest, the coarser ones with 128 groups or more): {}; every level of a pair-local program's volume in one pass (`pair_volumes`): {}; layout: {}; interleaved forwards' even rows written last (`even_rows`): {}",
        if b.config().pyramids { "on" } else { "off" },
        // The bench runs CUDA, where the default is on.
        if b.config().one_pass_volumes.unwrap_or(true) { "on" } else { "off" },
        if b.config().pair_volumes { "on" } else { "off" },
        o.layout.name(),
        match b.config().even_rows_from {
            Some(n) => format!("images of {n} samples or more"),
            None => "off".to_string(),
        }
    );
    let _ = writeln!(
        md,
        "- Copies recorded in a graph made by the copy kernel (`with_copy_kernel_from`): {}",
        match o.copy_kernel_from {
            usize::MAX => "never (memcpy nodes)".to_string(),
            n => format!("from {n} bytes"),
        }
    );
    let _ = writeln!(
        md,
        "- A forward's first two levels in one launch (`level_pairs`): {}",
        match b.config().level_pairs_from {
            Some(n) => format!("images of {n} samples or more whose sides the tiles divide"),
            None => "off".to_string(),
        }
    );
    let _ = writeln!(
        md,
        "- Sliding window: H = {} rows, slabs of {} columns x {} work-items; volumes' depth passes (`volume_depth_window`): {}",
        b.config().window_height,
        b.config().slab_width,
        b.config().slab_rows,
        match b.config().volume_depth_window {
            Some(false) => "the same".to_string(),
            on => {
                let (h, [w, r]) = dwt_emit_c::VOLUME_DEPTH_WINDOW;
                let from = match on {
                    Some(true) => "every volume".to_string(),
                    _ => format!("from {} samples", dwt_emit_c::VOLUME_SETTINGS_FROM),
                };
                format!("H = {h}, slabs of {w} x {r}, {from}")
            }
        }
    );
    let _ = writeln!(
        md,
        "- NVRTC: {:?}",
        dwt_cuda::nvrtc_version().map_err(|e| e.to_string())?
    );
    let _ = writeln!(
        md,
        "- Timing: CUDA events, {WARMUP} warm-up calls (or two per rotated buffer, if more), median of {} calls (each between its own events: host submission included; printed to 0.1 us, though events resolve about 0.5 us, which the median of many calls smooths); `pipelined` = mean of {} calls back to back; buffers rotated (at least 3, together over {} MiB, at most {}: transforms run as CUDA graphs, recorded per buffer pair at its second call); cases of up to {} samples also without graphs, as `no graph`",
        o.reps,
        o.reps,
        ROTATION_BYTES >> 20,
        dwt_cuda::GRAPHS_KEPT,
        NO_GRAPH_SAMPLES
    );
    let _ = writeln!(
        md,
        "- Effective bandwidth = 2 x data bytes (one read + one write) / median time\n"
    );

    eprintln!("copy bandwidth ...");
    let mut copies = Vec::new();
    for mib in [256usize, 1024] {
        copies.push((mib, copy_bandwidth(&b, &stream, mib << 20)?));
    }
    let roof = copies.last().expect("one copy").1 .1;
    let _ = writeln!(md, "## Device-to-device copy (the roofline)\n");
    table_head(
        &mut md,
        &["buffer", "median time", "bytes read + written / time"],
    );
    for (mib, (ms, bw)) in &copies {
        let _ = writeln!(md, "| {mib} MiB | {ms:.3} ms | {:.0} GB/s |", bw / 1e9);
    }
    let _ = writeln!(md);

    let wavelets: Vec<&Wavelet> = match &o.wavelets {
        None => dwt_catalogue::all(),
        Some(specs) => specs
            .iter()
            .flat_map(|spec| match dwt_catalogue::by_name(spec) {
                Some(w) => vec![w],
                None => (from_files.iter())
                    .filter(|(from, _)| from == spec)
                    .map(|(_, w)| w)
                    .collect(),
            })
            .collect(),
    };
    let two_pass = CudaBackend::with_config(LaunchConfig {
        strategy: Strategy::TwoPass,
        ..*b.config()
    })
    .map_err(|e| e.to_string())?
    .with_tuning(Tuning::Fixed)
    .with_copy_kernel_from(o.copy_kernel_from);
    let direct = CudaBackend::with_config(*b.config())
        .map_err(|e| e.to_string())?
        .with_tuning(Tuning::Fixed)
        .with_graph_limit(0);
    let tuned = match o.tuned {
        true => Some(
            CudaBackend::with_config(*b.config())
                .map_err(|e| e.to_string())?
                .with_tuning(Tuning::Measured)
                .with_copy_kernel_from(o.copy_kernel_from),
        ),
        false => None,
    };
    let mut bench = Bench {
        b: &b,
        two_pass,
        direct,
        tuned,
        tunings: Vec::new(),
        stream: stream.clone(),
        reps: o.reps,
        rows: Vec::new(),
        passes: Vec::new(),
        step_rows: Vec::new(),
        compiles: Vec::new(),
        seen: HashSet::new(),
        checks: Vec::new(),
        default_plan_only: o.default_plan_only,
        layout: o.layout,
    };
    let levels = o.levels.clone();
    let mut failures: Vec<String> = Vec::new();
    for size in &o.sizes {
        let (shape, label) = match size.as_str() {
            "1080p" => (vec![1080, 1920], "1920x1080"),
            "4096" => (vec![4096, 4096], "4096x4096"),
            "8192" => (vec![8192, 8192], "8192x8192"),
            s => {
                let parsed: Option<Vec<usize>> = s.split('x').map(|n| n.parse().ok()).collect();
                match parsed.as_deref() {
                    Some(&[w, h]) if w > 1 && h > 1 => (vec![h, w], s),
                    _ => {
                        return Err(format!(
                            "unknown size `{s}` (1080p, 4096, 8192 or WIDTHxHEIGHT)"
                        ))
                    }
                }
            }
        };
        for &w in &wavelets {
            if o.skip_fidelity_8192 && size == "8192" && w.name == "Fidelity" {
                continue;
            }
            eprintln!("{} {label}", w.name);
            // The paper's Table III case is i16; large integer images are i32 (3 levels of
            // i16 would overflow at their dynamic range).
            let small = shape.iter().product::<usize>() <= 1920 * 1080;
            let done = match (w.kind, small) {
                (ElementKind::Integer, true) => bench.rows::<i16>(true, w, &shape, &levels, label),
                (ElementKind::Integer, false) => bench
                    .rows::<i32>(true, w, &shape, &levels, label)
                    .and_then(|()| bench.rows::<i16>(o.i16, w, &shape, &levels, label)),
                (ElementKind::Float, _) => bench
                    .rows::<f32>(true, w, &shape, &levels, label)
                    .and_then(|()| bench.rows::<f64>(o.f64, w, &shape, &levels, label)),
            };
            let done = match (done, o.level_steps, w.kind, small) {
                (Ok(()), true, ElementKind::Integer, true) => {
                    bench.step_times::<i16>(w, &shape, 3, label, &[Direction::Forward])
                }
                (Ok(()), true, ElementKind::Integer, false) => {
                    bench.step_times::<i32>(w, &shape, 3, label, &[Direction::Forward])
                }
                (Ok(()), true, ElementKind::Float, _) => {
                    bench.step_times::<f32>(w, &shape, 3, label, &[Direction::Forward])
                }
                (done, ..) => done,
            };
            if let Err(e) = done {
                eprintln!("FAILED: {} {label}: {e}", w.name);
                failures.push(format!("{} {label}: {e}", w.name));
            }
        }
    }
    if o.three_d {
        let by_name = |name| dwt_catalogue::by_name(name).expect("catalogue");
        let (legall, cdf97) = (by_name("LeGall53"), by_name("Cdf97"));
        // Table VI's case (512^3) for each of its six wavelets and each the peers have (CDF 9/7,
        // CDF 5/3; Haar is both), two 256^3 volumes, and each file's wavelets at 256^3.
        let mut volumes: Vec<(&Wavelet, usize)> = vec![
            (legall, 256),
            (legall, 512),
            (cdf97, 256),
            (cdf97, 512),
            (by_name("Cdf53"), 512),
            (by_name("HaarNoShift"), 512),
            (by_name("DeslauriersDubuc97"), 512),
            (by_name("DeslauriersDubuc137"), 512),
            (by_name("Daubechies97Integer"), 512),
            (by_name("Fidelity"), 512),
        ];
        // `--wavelets` names the volumes' wavelets too (the files' at 256^3 are its own).
        if o.wavelets.is_some() {
            volumes.retain(|(w, _)| wavelets.iter().any(|x| x.name == w.name));
        }
        volumes.extend(from_files.iter().map(|(_, w)| (w, 256)));
        for (w, n) in volumes {
            let label = format!("{n}^3");
            eprintln!("3-D {} {label}", w.name);
            let shape = [n, n, n];
            let both = [Direction::Forward, Direction::Inverse];
            let done = match w.kind {
                ElementKind::Integer => bench
                    .case::<i32>(w, &shape, &[3], &label)
                    .and_then(|()| bench.step_times::<i32>(w, &shape, 3, &label, &both)),
                ElementKind::Float => bench
                    .case::<f32>(w, &shape, &[3], &label)
                    .and_then(|()| bench.step_times::<f32>(w, &shape, 3, &label, &both)),
            };
            if let Err(e) = done {
                eprintln!("FAILED: {} {label}: {e}", w.name);
                failures.push(format!("{} {label}: {e}", w.name));
            }
        }
    }

    let _ = writeln!(md, "## Transforms (Mallat layout, data on the device)\n");
    table_head(
        &mut md,
        &[
            "case",
            "type",
            "variant",
            "launches+copies",
            "median",
            "min-max",
            "pipelined",
            "host submit",
            "effective BW",
            "of copy BW",
        ],
    );
    for r in &bench.rows {
        let t = &r.timing;
        let bw = 2.0 * r.bytes as f64 / (t.median_ms * 1e-3);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {:.4} ms | {:.4}-{:.4} | {:.4} ms | {:.0} us | {:.0} GB/s | {:.1}% |",
            r.case,
            r.elem,
            r.variant.name(),
            r.steps,
            t.median_ms,
            t.min_ms,
            t.max_ms,
            t.pipelined_ms,
            t.submit_us,
            bw / 1e9,
            100.0 * bw / roof
        );
    }
    let of_copy = |bytes: usize, ms: f64| 100.0 * 2.0 * bytes as f64 / (ms * 1e-3) / roof;
    let _ = writeln!(
        md,
        "\n## Horizontal and vertical pass separately (one level forward; Table IV)\n"
    );
    let _ = writeln!(
        md,
        "The two-pass plan timed step by step (an event between steps, median of {} runs each): the horizontal pass (rows kernel; for rows longer than the row limit the shift kernel and the sliding window along the rows, with its band copy) and the vertical pass (band copy + sliding window down the columns); against the fused pass timed the same way. Percentages: one read and one write of the image over that time, of the copy bandwidth.\n",
        o.reps
    );
    table_head(
        &mut md,
        &[
            "case",
            "type",
            "horizontal",
            "vertical",
            "two passes",
            "fused",
            "fused vs two passes",
        ],
    );
    for p in &bench.passes {
        let cell = |ms: f64| format!("{ms:.3} ms ({:.0}%)", of_copy(p.bytes, ms));
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {:.2}x |",
            p.case,
            p.elem,
            cell(p.horizontal_ms),
            cell(p.vertical_ms),
            cell(p.horizontal_ms + p.vertical_ms),
            cell(p.fused_ms),
            (p.horizontal_ms + p.vertical_ms) / p.fused_ms
        );
    }
    if !bench.step_rows.is_empty() {
        let _ = writeln!(
            md,
            "\n## Steps of the multi-level transforms (default plan; volumes both ways)\n"
        );
        table_head(&mut md, &["case", "type", "step", "median"]);
        for s in &bench.step_rows {
            for t in &s.steps {
                let _ = writeln!(
                    md,
                    "| {} | {} | {t} | {:.3} ms |",
                    s.case, s.elem, t.median_ms
                );
            }
        }
    }
    let _ = writeln!(
        md,
        "\n## First transform of each module vs warm (wall clock, synchronized)\n"
    );
    let _ = writeln!(
        md,
        "The first includes emission, NVRTC compilation, module load and the run; the size is the first one benchmarked.\n"
    );
    table_head(&mut md, &["module", "first", "warm"]);
    for c in &bench.compiles {
        let _ = writeln!(
            md,
            "| {} | {:.1} ms | {:.2} ms |",
            c.module, c.first_ms, c.warm_ms
        );
    }
    if !bench.tunings.is_empty() {
        let _ = writeln!(
            md,
            "\n## What the measuring planner chose (`--tuned`)\n\nPer case, each distinct candidate configuration's time per transform as the planner measured it (zeroed sources, rotated over at least 96 MiB for small requests; batches of back-to-back runs; median of 5 rounds).\n"
        );
        for (case, t) in &bench.tunings {
            let _ = writeln!(md, "- {case}: {t}");
        }
    }
    let _ = writeln!(md, "\n## Round trips (correctness of what was timed)\n");
    for c in &bench.checks {
        let _ = writeln!(md, "- {c}");
    }
    print!("{md}");
    if !failures.is_empty() {
        let _ = writeln!(md, "\n## Failures\n");
        for f in &failures {
            let _ = writeln!(md, "- {f}");
        }
    }
    if let Some(path) = &o.out {
        std::fs::write(path, &md).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if !failures.is_empty() || bench.checks.iter().any(|c| c.ends_with("MISMATCH")) {
        return Err("some cases failed or did not round-trip (see the report)".into());
    }
    Ok(())
}
