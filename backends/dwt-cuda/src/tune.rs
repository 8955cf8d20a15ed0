//! The measuring planner ([`Tuning::Measured`]): for a 2-D or 3-D request, every candidate
//! configuration ([`LaunchConfig::candidates`]) is emitted, built and timed on the device, and the
//! transform runs with the fastest. Which configuration is fastest depends on the wavelet, the
//! direction, the element type and the size (BENCHMARKS.md: no tile shape or access form won
//! everywhere), so it is measured rather than ruled.
//!
//! - Candidates that emit the same source are timed once; one the emitter or planner refuses (the
//!   two passes of a program the sliding window cannot run) is skipped, and the report says why.
//! - Timing: on the context's default stream, from image-like sources (not zeros) into other
//!   buffers (small requests rotate over enough pairs to exceed the L2 cache, as the benchmark
//!   does: an image timed out of the cache favours other configurations than one coming from
//!   memory), one warm-up batch per candidate (every pair once), then five rounds that each time
//!   every candidate in turn (so that a drift of the clock or of a neighbour's load falls on all
//!   alike) as a batch of back-to-back runs of at least about half a millisecond between two
//!   events; a candidate's time is its median round.
//! - The choice is kept for the process (by the request, element type and configuration: a later
//!   preparation emits and builds only the chosen module) and in the disk cache
//!   ([`dwt_emit_c::disk_cache`], folder `cuda-tuning`), keyed by the device, driver, NVRTC, the
//!   request's shape and levels and every candidate's source: another process emits the
//!   candidates to find it, builds only the chosen one, and any change to the emitted kernels
//!   measures again.

use std::time::Duration;

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::CudaSlice;
use dwt_emit_c::disk_cache;
use dwt_ir::ElementType;
use dwt_runtime::{DwtError, Request, TuningReport};

use crate::{
    device_error, unavailable, CudaBackend, DeviceElement, Emitted, LaunchConfig, Prepared,
};

/// The environment variable [`CudaBackend::new`] reads the [`Tuning`] from.
pub const TUNING_ENV: &str = "DWT_TUNE";

/// The folder under the cache directory the choices live in.
const SUBDIR: &str = "cuda-tuning";

/// How the backend chooses each request's launch configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tuning {
    /// The backend's configuration as given: no measuring (the default).
    #[default]
    Fixed,
    /// Every candidate configuration timed on the device for each 2-D or 3-D request, the
    /// fastest kept. The first preparation of a request compiles every candidate (about a second
    /// each with NVRTC, in parallel, unless the disk cache has them) and times them (a few
    /// milliseconds); later ones, in this process or another, read the choice from the disk
    /// cache and build only it.
    Measured,
}

impl Tuning {
    /// `fixed` or `measure` (what [`TUNING_ENV`] takes); anything else is an error that says so.
    pub fn parse(value: &str) -> Result<Self, DwtError> {
        match value {
            "" | "fixed" => Ok(Tuning::Fixed),
            "measure" | "measured" => Ok(Tuning::Measured),
            other => Err(unavailable(format!(
                "{TUNING_ENV}=`{other}` is not a tuning mode: use `fixed` (the default: the launch configuration as given) or `measure` (time every candidate configuration per request and keep the fastest)"
            ))),
        }
    }

    /// From [`TUNING_ENV`]; [`Tuning::Fixed`] when it is unset or empty.
    pub fn from_env() -> Result<Self, DwtError> {
        Self::parse(&std::env::var(TUNING_ENV).unwrap_or_default())
    }
}

/// Prepares `request` with the fastest of the backend's candidate configurations.
pub(crate) fn prepare_fastest(
    backend: &CudaBackend,
    request: &Request,
    elem: ElementType,
) -> Result<Prepared, DwtError> {
    // Chosen before in this process (a second Plan of the request): only the choice is emitted.
    let asked = format!("{request:?} {elem:?} {:?}", backend.config);
    let known = (backend.state.choices.lock())
        .unwrap_or_else(|e| e.into_inner())
        .get(&asked)
        .cloned();
    if let Some(report) = known {
        if let Some(c) = (backend.config.candidates())
            .into_iter()
            .find(|c| c.name == report.chosen)
        {
            let emitted = backend.emit(request, elem, &c.config)?;
            let mut prepared = backend.load_unspilled(request, elem, &c.config, emitted)?;
            prepared.tuning = Some(report);
            return Ok(prepared);
        }
    }
    let mut candidates: Vec<(&'static str, LaunchConfig, Emitted)> = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    let mut first_error = None;
    for c in backend.config.candidates() {
        match backend.emit(request, elem, &c.config) {
            Ok(e) if candidates.iter().all(|(_, _, o)| o.source != e.source) => {
                candidates.push((c.name, c.config, e))
            }
            Ok(_) => {}
            Err(e) => {
                skipped.push((c.name.to_string(), e.to_string()));
                first_error.get_or_insert(e);
            }
        }
    }
    if candidates.is_empty() {
        // Every candidate was refused: the first refusal says why.
        return Err(first_error.unwrap_or_else(|| unavailable("no candidate configuration")));
    }
    let key = choice_key(request, &candidates);
    let choice_file = choice_file(backend, &key);
    let read = || {
        let payload = String::from_utf8(disk_cache::load(choice_file.as_deref()?)?).ok()?;
        payload.lines().next().map(String::from)
    };
    let cached = read().and_then(|name| candidates.iter().position(|(n, _, _)| *n == name));
    if let Some(i) = cached {
        let (name, config, emitted) = candidates.swap_remove(i);
        let mut prepared = backend.load_unspilled(request, elem, &config, emitted)?;
        let report = TuningReport {
            chosen: name.to_string(),
            timings: Vec::new(),
            skipped,
            cached: true,
        };
        remember(backend, asked, &report);
        prepared.tuning = Some(report);
        return Ok(prepared);
    }
    let names: Vec<&'static str> = candidates.iter().map(|(n, _, _)| *n).collect();
    // Compiled in parallel: NVRTC takes about a second per module and the candidates are
    // independent (the backend's module cache compiles each source once).
    let built: Vec<Result<Prepared, DwtError>> = std::thread::scope(|s| {
        let handles: Vec<_> = candidates
            .into_iter()
            .map(|(_, config, e)| {
                s.spawn(move || backend.load_unspilled(request, elem, &config, e))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(unavailable("a thread building a candidate panicked")))
            })
            .collect()
    });
    let mut timed: Vec<(&'static str, Prepared)> = Vec::new();
    for (name, b) in names.into_iter().zip(built) {
        match b {
            Ok(p) => timed.push((name, p)),
            // A candidate that does not build is a bug of the emitter: said in the report, and
            // the others still run.
            Err(e) => skipped.push((name.to_string(), e.to_string())),
        }
    }
    if timed.is_empty() {
        let why: Vec<String> = skipped.iter().map(|(n, e)| format!("{n}: {e}")).collect();
        return Err(unavailable(format!(
            "no candidate configuration could be built: {}",
            why.join("; ")
        )));
    }
    let len = request.sample_count()?;
    let prepared: Vec<&Prepared> = timed.iter().map(|(_, p)| p).collect();
    let times = match elem {
        ElementType::I16 => time_all::<i16>(backend, &prepared, len)?,
        ElementType::I32 => time_all::<i32>(backend, &prepared, len)?,
        ElementType::F32 => time_all::<f32>(backend, &prepared, len)?,
        ElementType::F64 => time_all::<f64>(backend, &prepared, len)?,
    };
    let best = (0..times.len()).min_by_key(|&i| times[i]).unwrap_or(0);
    let timings: Vec<(String, Duration)> = timed
        .iter()
        .zip(&times)
        .map(|((n, _), t)| (n.to_string(), *t))
        .collect();
    let (name, mut chosen) = timed.swap_remove(best);
    // The cache's failures for the candidates not chosen are the report's too: the next
    // process compiles them again to measure.
    for (_, other) in &timed {
        chosen
            .cache_warnings
            .extend(other.cache_warnings.iter().cloned());
    }
    if let Some(file) = &choice_file {
        let mut payload = format!("{name}\n");
        for (n, t) in &timings {
            payload.push_str(&format!("{n}: {:.2} us\n", t.as_secs_f64() * 1e6));
        }
        // A choice that cannot be written is measured again next time: said in the report.
        let warning = disk_cache::store_or_warn(
            file,
            payload.as_bytes(),
            "the configurations will be compiled and measured again",
        );
        chosen.cache_warnings.extend(warning);
    }
    let report = TuningReport {
        chosen: name.to_string(),
        timings,
        skipped,
        cached: false,
    };
    remember(backend, asked, &report);
    chosen.tuning = Some(report);
    Ok(chosen)
}

/// The hash (hex SHA-256) of what a choice among `candidates` for `request` depends on besides
/// the device and the toolchain: the request's shape and levels and every candidate's source
/// (which holds the wavelet, direction, element type and layout).
fn choice_key(request: &Request, candidates: &[(&'static str, LaunchConfig, Emitted)]) -> String {
    let mut what = format!(
        "tuning v3\nshape {:?}\nlevels {}\n",
        request.shape, request.levels
    );
    for (name, _, e) in candidates {
        what.push_str(&format!("== {name}\n{}\n", e.source));
    }
    disk_cache::key(&[what.as_bytes()])
}

/// The disk cache file of the choice `key` on this device; `None` without a cache folder or a
/// known NVRTC version.
fn choice_file(backend: &CudaBackend, key: &str) -> Option<std::path::PathBuf> {
    let identity = backend.cache_identity()?;
    let dir = disk_cache::cache_dir()?;
    Some(disk_cache::entry_path(
        &dir,
        SUBDIR,
        &identity.key(key),
        "choice",
    ))
}

/// Keeps the choice for what was `asked` for this process, as a report of a choice taken from
/// the cache.
fn remember(backend: &CudaBackend, asked: String, report: &TuningReport) {
    let kept = TuningReport {
        timings: Vec::new(),
        cached: true,
        ..report.clone()
    };
    (backend.state.choices.lock())
        .unwrap_or_else(|e| e.into_inner())
        .insert(asked, kept);
}

/// Rounds of timing per candidate (the median is kept).
const ROUNDS: usize = 5;
/// The least time a timed batch of back-to-back runs should take.
const BATCH: Duration = Duration::from_micros(500);
/// The most runs in one batch.
const MAX_BATCH_RUNS: usize = 50;
/// Bytes the rotating sources (and as many destinations) of a small request add up to at least:
/// more than the L2 cache of an H100 or H200 (50-60 MB), so that a small image is timed coming
/// from memory, as it does in use, not out of the cache.
const ROTATION_BYTES: usize = 96 << 20;
/// The most buffer pairs rotated.
const MAX_ROTATION: usize = 16;

/// Image-like samples to time on (integers of -128 to 127 from a fixed xorshift sequence):
/// not zeros, which switch fewer bits on every bus and in every adder than an image does.
fn timing_samples<T: DeviceElement>(len: usize) -> Vec<T> {
    use dwt_runtime::Work;
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            T::from_work(T::Work::integer((s % 256) as i64 - 128))
        })
        .collect()
}

/// The device time per transform of each prepared candidate, from sources of `len` image-like
/// samples ([`timing_samples`]) into other buffers, rotating over enough pairs to exceed the L2
/// cache.
fn time_all<T: DeviceElement>(
    backend: &CudaBackend,
    candidates: &[&Prepared],
    len: usize,
) -> Result<Vec<Duration>, DwtError> {
    let ctx = backend.context();
    // The context's default stream: a stream of the tuner's own would put cudarc's context in
    // its multi-stream mode for good (an event recorded per buffer use on every later launch).
    let stream = backend.stream();
    let pairs = ROTATION_BYTES
        .div_ceil(len * size_of::<T>())
        .clamp(1, MAX_ROTATION);
    let host = timing_samples::<T>(len);
    let sources: Vec<CudaSlice<T>> = (0..pairs)
        .map(|_| stream.clone_htod(&host).map_err(device_error))
        .collect::<Result<_, _>>()?;
    let zeroed = || stream.alloc_zeros::<T>(len).map_err(device_error);
    let mut data: Vec<CudaSlice<T>> = (0..pairs).map(|_| zeroed()).collect::<Result<_, _>>()?;
    let flags = Some(CUevent_flags::CU_EVENT_DEFAULT);
    let start = ctx.new_event(flags).map_err(device_error)?;
    let end = ctx.new_event(flags).map_err(device_error)?;
    let mut batch = |p: &Prepared, runs: usize| -> Result<Duration, DwtError> {
        start.record(&stream).map_err(device_error)?;
        for i in 0..runs {
            let k = i % pairs;
            // As the request runs on the device, launched directly (no graph).
            backend.execute(p, &stream, Some(&sources[k]), &mut data[k], false)?;
        }
        end.record(&stream).map_err(device_error)?;
        let ms = start.elapsed_ms(&end).map_err(device_error)?;
        Ok(Duration::from_secs_f64(f64::from(ms) * 1e-3 / runs as f64))
    };
    // The first batch of each warms it up (every buffer pair once); its time sizes the batches.
    let mut runs = Vec::with_capacity(candidates.len());
    for p in candidates {
        let once = batch(p, pairs)?;
        let n = (BATCH.as_secs_f64() / once.as_secs_f64().max(1e-7)).ceil() as usize;
        runs.push(n.clamp(1, MAX_BATCH_RUNS));
    }
    let mut times = vec![Vec::with_capacity(ROUNDS); candidates.len()];
    for _ in 0..ROUNDS {
        for (i, p) in candidates.iter().enumerate() {
            times[i].push(batch(p, runs[i])?);
        }
    }
    stream.synchronize().map_err(device_error)?;
    Ok(times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_timed_on_image_like_samples() {
        let s = timing_samples::<i16>(4096);
        assert!(s.iter().all(|&v| (-128..=127).contains(&v)));
        let distinct: std::collections::HashSet<i16> = s.iter().copied().collect();
        assert!(distinct.len() > 200, "{}", distinct.len());
        assert_eq!(s, timing_samples::<i16>(4096), "the same every time");
        let f = timing_samples::<f32>(4096);
        assert!(f.iter().zip(&s).all(|(&a, &b)| a == f32::from(b)));
    }

    #[test]
    fn parses_the_modes_and_refuses_others_saying_which_there_are() {
        assert_eq!(Tuning::parse("").unwrap(), Tuning::Fixed);
        assert_eq!(Tuning::parse("fixed").unwrap(), Tuning::Fixed);
        assert_eq!(Tuning::parse("measure").unwrap(), Tuning::Measured);
        let e = Tuning::parse("fast").unwrap_err().to_string();
        assert!(e.contains("DWT_TUNE=`fast`"), "{e}");
        assert!(e.contains("`fixed`") && e.contains("`measure`"), "{e}");
    }
}
