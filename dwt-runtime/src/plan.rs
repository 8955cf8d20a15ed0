//! Plans: a transform configured, validated and compiled once, then executed on many buffers.
//!
//! [`Plan::builder`] takes a backend (`&B`, `&dyn Backend` or an `Arc`), a wavelet and the data's
//! shape; [`PlanBuilder::build`] checks everything that does not depend on the data (the shape, the
//! level count, the element type against the wavelet's kind, the periodic boundary's even lengths,
//! the worst-case bit growth of integer transforms for the declared input range) and asks the
//! backend to [`prepare`](Backend::prepare) its kernels (generate and compile them, or load them
//! from its caches), so [`Plan::execute`] afterwards only checks the data's shape and runs.
//!
//! ```
//! use dwt_runtime::{CpuBackend, Plan};
//! use dwt_ir::{Direction, Layout, ElementType};
//!
//! let w = dwt_catalogue::by_name("LeGall53").unwrap();
//! let plan = Plan::builder(&CpuBackend, w, &[4, 8])
//!     .levels(2)
//!     .direction(Direction::Forward)
//!     .layout(Layout::Mallat)
//!     .element(ElementType::I32)
//!     .build()
//!     .unwrap();
//! let mut data: Vec<i32> = (0..32).collect();
//! plan.execute(&mut data).unwrap();
//! // A buffer of another shape, or another element type, is an error, never a wrong transform.
//! assert!(plan.execute(&mut vec![0i32; 31]).is_err());
//! assert!(plan.execute(&mut vec![0f32; 32]).is_err());
//! ```
//!
//! [`Plan::execute`] takes slices, `Vec`s and ndarray arrays and views of any dimension in
//! standard (contiguous row-major) layout whose shape is the plan's.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use dwt_ir::{Direction, ElementType, Layout, Wavelet};
use ndarray::{ArrayBase, ArrayViewMut, Dimension, OwnedRepr};

mod frames;

pub use frames::{
    fail_frames_in_turns_at, frames_in_turns, one_after_another as frames_one_after_another,
    prepared_frames, FrameFailure, FrameProgress,
};

use crate::element::non_finite;
use crate::growth::{check_bit_growth, InputRange};
use crate::{cpu, Backend, DwtError, Element, Request, Samples};

/// Where a prepared module's kernels came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelOrigin {
    /// Already built in this process (the backend's in-memory cache).
    Memory,
    /// Loaded from the on-disk cache: no compiler ran.
    DiskCache,
    /// Compiled from the generated source.
    Compiled,
}

impl fmt::Display for KernelOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KernelOrigin::Memory => "in-memory cache",
            KernelOrigin::DiskCache => "disk cache",
            KernelOrigin::Compiled => "compiled",
        })
    }
}

/// One module (a program of kernels built together) a backend prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleReport {
    /// The kernels the transform launches from it.
    pub kernels: Vec<String>,
    pub origin: KernelOrigin,
    /// The time spent getting it (compiling, or loading and linking the cached binary).
    pub time: Duration,
}

/// What a backend that times its candidate configurations for a request measured and chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuningReport {
    /// The configuration the transform runs with.
    pub chosen: String,
    /// Every configuration timed and its time per transform on the device (empty when the
    /// choice came from the cache of earlier measurements).
    pub timings: Vec<(String, Duration)>,
    /// The configurations not timed, and why (refused by the emitter or the planner for this
    /// request, or failed to build).
    pub skipped: Vec<(String, String)>,
    /// Whether the choice came from that cache rather than from measuring now.
    pub cached: bool,
}

impl fmt::Display for TuningReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tuned: {}", self.chosen)?;
        if self.cached {
            f.write_str(" (measured before, from the cache)")?;
        } else {
            f.write_str(" of ")?;
            for (i, (name, time)) in self.timings.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{name} {:.1} us", time.as_secs_f64() * 1e6)?;
            }
        }
        for (name, why) in &self.skipped {
            write!(f, "; not timed: {name} ({why})")?;
        }
        Ok(())
    }
}

/// What [`Backend::prepare`] did. Empty for a backend with nothing to compile (the CPU reference).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrepareReport {
    pub modules: Vec<ModuleReport>,
    /// What the backend measured to choose the configuration, when it did.
    pub tuning: Option<TuningReport>,
    /// What the on-disk cache could not keep (a compiled module, a tuning choice): each names
    /// the entry, the error and what to do. Not an error (the transform is prepared all the
    /// same), but every new process compiles again until the cache folder is writable.
    pub cache_warnings: Vec<String>,
}

impl PrepareReport {
    /// The report of a backend that prepared one module.
    pub fn one_module<'k>(
        kernels: impl IntoIterator<Item = &'k str>,
        origin: KernelOrigin,
        time: Duration,
    ) -> Self {
        PrepareReport {
            modules: vec![ModuleReport {
                kernels: kernels.into_iter().map(String::from).collect(),
                origin,
                time,
            }],
            tuning: None,
            cache_warnings: Vec::new(),
        }
    }

    /// The kernels of every module.
    pub fn kernels(&self) -> usize {
        self.modules.iter().map(|m| m.kernels.len()).sum()
    }

    /// Whether any module was compiled from source.
    pub fn compiled(&self) -> bool {
        self.modules
            .iter()
            .any(|m| m.origin == KernelOrigin::Compiled)
    }

    /// Where the kernels came from, the coldest origin of any module (a backend may build a
    /// module per kernel): [`KernelOrigin::Compiled`] if any was compiled, else
    /// [`KernelOrigin::DiskCache`] if any was loaded from the disk cache, else
    /// [`KernelOrigin::Memory`]; `None` when nothing was built.
    pub fn origin(&self) -> Option<KernelOrigin> {
        let coldness = |o: &KernelOrigin| match o {
            KernelOrigin::Memory => 0,
            KernelOrigin::DiskCache => 1,
            KernelOrigin::Compiled => 2,
        };
        self.modules.iter().map(|m| m.origin).max_by_key(coldness)
    }

    /// The time spent compiling and loading, summed over the modules (a backend that builds
    /// its modules at once spends less wall-clock time than this).
    pub fn time(&self) -> Duration {
        self.modules.iter().map(|m| m.time).sum()
    }
}

impl fmt::Display for PrepareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.modules.is_empty() {
            f.write_str("nothing to build")?;
        }
        for (i, m) in self.modules.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{} kernel{} ({}) from {} in {:.1} ms",
                m.kernels.len(),
                if m.kernels.len() == 1 { "" } else { "s" },
                m.kernels.join(", "),
                m.origin,
                m.time.as_secs_f64() * 1e3
            )?;
        }
        if let Some(t) = &self.tuning {
            write!(f, "; {t}")?;
        }
        for w in &self.cache_warnings {
            write!(f, "; warning: {w}")?;
        }
        Ok(())
    }
}

/// A request a backend prepared: runs it on data of the request's shape (checked by the caller)
/// without generating, compiling or looking anything up.
pub trait PreparedTransform: Send + Sync {
    fn run(&self, data: Samples) -> Result<(), DwtError>;

    /// Runs each of `frames` (samples of the request's element type and length, checked by the
    /// caller; at least one), in order unless the backend overlaps them (CUDA and OpenCL may: one
    /// frame's copies with another's). On a failure, what each frame was left as
    /// ([`FrameFailure`]). The default runs them one after another with [`PreparedTransform::run`].
    fn run_frames(&self, frames: Vec<Samples>) -> Result<(), FrameFailure> {
        frames_one_after_another(frames, |frame| self.run(frame))
    }
}

/// The result of [`Backend::prepare`].
#[derive(Default)]
pub struct Prepared {
    pub report: PrepareReport,
    /// The prepared transform, if the backend has one; else plans call [`Backend::run`].
    pub transform: Option<Box<dyn PreparedTransform>>,
}

impl fmt::Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prepared")
            .field("report", &self.report)
            .field("transform", &self.transform.is_some())
            .finish()
    }
}

/// The backend a plan runs on: borrowed or shared.
#[derive(Clone)]
pub enum BackendRef<'b> {
    Borrowed(&'b dyn Backend),
    Shared(Arc<dyn Backend>),
}

impl BackendRef<'_> {
    pub fn get(&self) -> &dyn Backend {
        match self {
            BackendRef::Borrowed(b) => *b,
            BackendRef::Shared(b) => &**b,
        }
    }
}

impl<'b> From<&'b dyn Backend> for BackendRef<'b> {
    fn from(b: &'b dyn Backend) -> Self {
        BackendRef::Borrowed(b)
    }
}

impl<'b, B: Backend> From<&'b B> for BackendRef<'b> {
    fn from(b: &'b B) -> Self {
        BackendRef::Borrowed(b)
    }
}

impl From<Arc<dyn Backend>> for BackendRef<'_> {
    fn from(b: Arc<dyn Backend>) -> Self {
        BackendRef::Shared(b)
    }
}

impl<B: Backend + 'static> From<Arc<B>> for BackendRef<'_> {
    fn from(b: Arc<B>) -> Self {
        BackendRef::Shared(b)
    }
}

/// Configures a [`Plan`]; see [`Plan::builder`] for the defaults.
#[derive(Clone)]
pub struct PlanBuilder<'b> {
    backend: BackendRef<'b>,
    wavelet: Wavelet,
    shape: Vec<usize>,
    levels: u32,
    direction: Direction,
    layout: Layout,
    element: Option<ElementType>,
    rows: bool,
    input: InputRange,
    allow_overflow: bool,
    check_finite: bool,
}

impl<'b> PlanBuilder<'b> {
    /// Levels (default 1).
    pub fn levels(mut self, levels: u32) -> Self {
        self.levels = levels;
        self
    }

    /// Direction (default forward).
    pub fn direction(mut self, direction: Direction) -> Self {
        self.direction = direction;
        self
    }

    /// Layout of the coefficients (default Mallat).
    pub fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// Element type of the data (default i32 for integer wavelets, f32 for float ones).
    pub fn element(mut self, element: ElementType) -> Self {
        self.element = Some(element);
        self
    }

    /// A batch of independent 1-D rows: the shape is `[rows, n]` and each row gets its own 1-D
    /// transform of `n` samples (levels count against `n`). Rows run one after the other through
    /// the backend's 1-D transform (one transfer per row on a GPU).
    pub fn rows(mut self) -> Self {
        self.rows = true;
        self
    }

    /// The values integer input takes, for the bit-growth check (default 8-bit pixels,
    /// [`InputRange::unsigned`]`(8)`).
    pub fn input_range(mut self, input: InputRange) -> Self {
        self.input = input;
        self
    }

    /// Skips refusing an integer transform whose worst case overflows the element type (results
    /// may wrap); the plan's [`Plan::growth`] still says so.
    pub fn allow_overflow(mut self, allow: bool) -> Self {
        self.allow_overflow = allow;
        self
    }

    /// Checks float data on every [`Plan::execute`] (default false: the result is what the
    /// arithmetic gives, NaN and infinities included; see there). Input holding a NaN or an
    /// infinity is refused with [`DwtError::NonFiniteInput`] before anything runs, and a transform
    /// of finite input that comes out NaN or infinite (its values overflowed the element type) is
    /// [`DwtError::NonFiniteOutput`], with the data put back as it was. It costs two passes over
    /// the data and a copy of it on the host per call, on any backend; integer data is always
    /// finite and is not checked.
    pub fn check_finite(mut self, check: bool) -> Self {
        self.check_finite = check;
        self
    }

    /// Validates the configuration and prepares the backend's kernels.
    pub fn build(self) -> Result<Plan<'b>, DwtError> {
        let element = self.element.unwrap_or(match self.wavelet.kind {
            dwt_ir::ElementKind::Integer => ElementType::I32,
            dwt_ir::ElementKind::Float => ElementType::F32,
        });
        let transform_shape = if self.rows {
            match self.shape[..] {
                [_, n] => vec![n],
                _ => {
                    return Err(DwtError::RowsShape {
                        shape: self.shape.clone(),
                    })
                }
            }
        } else {
            self.shape.clone()
        };
        if self.shape.contains(&0) {
            return Err(DwtError::EmptyAxis {
                shape: self.shape.clone(),
            });
        }
        cpu::sample_count(&self.shape)?;
        cpu::validate(
            &self.wavelet,
            element,
            cpu::sample_count(&transform_shape)?,
            &transform_shape,
            self.levels,
        )
        .map_err(|error| match error {
            // These name a row's shape, `[n]`, which the caller never passed.
            DwtError::TooManyLevels { .. } | DwtError::PeriodicOddLength { .. } if self.rows => {
                DwtError::Row {
                    shape: self.shape.clone(),
                    error: Box::new(error),
                }
            }
            error => error,
        })?;
        let growth = check_bit_growth(
            &self.wavelet,
            self.levels,
            &transform_shape,
            self.input,
            element,
            self.allow_overflow,
        )?;
        let request = Request {
            wavelet: &self.wavelet,
            direction: self.direction,
            shape: transform_shape.clone(),
            levels: self.levels,
            layout: self.layout,
        };
        let backend = self.backend.get();
        let prepared = guarded(backend, "preparing the transform", || {
            backend.prepare(&request, element)
        })?;
        Ok(Plan {
            backend: self.backend,
            wavelet: self.wavelet,
            shape: self.shape,
            transform_shape,
            levels: self.levels,
            direction: self.direction,
            layout: self.layout,
            element,
            rows: self.rows,
            check_finite: self.check_finite,
            growth,
            report: prepared.report,
            transform: prepared.transform,
        })
    }
}

/// A transform validated and prepared once; see the [module docs](self).
pub struct Plan<'b> {
    backend: BackendRef<'b>,
    wavelet: Wavelet,
    shape: Vec<usize>,
    transform_shape: Vec<usize>,
    levels: u32,
    direction: Direction,
    layout: Layout,
    element: ElementType,
    rows: bool,
    check_finite: bool,
    growth: String,
    report: PrepareReport,
    transform: Option<Box<dyn PreparedTransform>>,
}

impl fmt::Debug for Plan<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plan")
            .field("backend", &self.backend.get().name())
            .field("wavelet", &self.wavelet.name)
            .field("shape", &self.shape)
            .field("rows", &self.rows)
            .field("levels", &self.levels)
            .field("direction", &self.direction)
            .field("layout", &self.layout)
            .field("element", &self.element)
            .field("check_finite", &self.check_finite)
            .field("report", &self.report)
            .finish()
    }
}

impl<'b> Plan<'b> {
    /// A plan of `wavelet` on data of `shape` (`[n]`, `[height, width]`, `[depth, height,
    /// width]`, or `[rows, n]` with [`PlanBuilder::rows`]) on `backend`. Defaults: 1 level,
    /// forward, Mallat, i32 (integer wavelets) or f32 (float ones), 8-bit unsigned input for the
    /// bit-growth check.
    pub fn builder(
        backend: impl Into<BackendRef<'b>>,
        wavelet: &Wavelet,
        shape: &[usize],
    ) -> PlanBuilder<'b> {
        PlanBuilder {
            backend: backend.into(),
            wavelet: wavelet.clone(),
            shape: shape.to_vec(),
            levels: 1,
            direction: Direction::Forward,
            layout: Layout::Mallat,
            element: None,
            rows: false,
            input: InputRange::default(),
            allow_overflow: false,
            check_finite: false,
        }
    }

    /// Every parameter at once, with the default bit-growth check (8-bit unsigned input).
    pub fn new(
        backend: impl Into<BackendRef<'b>>,
        wavelet: &Wavelet,
        shape: &[usize],
        levels: u32,
        direction: Direction,
        layout: Layout,
        element: ElementType,
    ) -> Result<Self, DwtError> {
        Self::builder(backend, wavelet, shape)
            .levels(levels)
            .direction(direction)
            .layout(layout)
            .element(element)
            .build()
    }

    pub fn backend(&self) -> &dyn Backend {
        self.backend.get()
    }

    pub fn wavelet(&self) -> &Wavelet {
        &self.wavelet
    }

    /// The shape of the data the plan takes.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Elements of the data the plan takes.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Always false: shapes have no empty axis.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn levels(&self) -> u32 {
        self.levels
    }

    pub fn direction(&self) -> Direction {
        self.direction
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    pub fn element(&self) -> ElementType {
        self.element
    }

    /// Whether the plan transforms each row of `[rows, n]` data on its own.
    pub fn is_rows(&self) -> bool {
        self.rows
    }

    /// Whether every [`execute`](Self::execute) checks float data for NaN and infinities
    /// ([`PlanBuilder::check_finite`]).
    pub fn checks_finite(&self) -> bool {
        self.check_finite
    }

    /// The bit-growth verdict (a one-line summary).
    pub fn growth(&self) -> &str {
        &self.growth
    }

    /// What preparing the backend's kernels did.
    pub fn report(&self) -> &PrepareReport {
        &self.report
    }

    /// The request the backend runs (per row for a batch of rows).
    pub fn request(&self) -> Request<'_> {
        Request {
            wavelet: &self.wavelet,
            direction: self.direction,
            shape: self.transform_shape.clone(),
            levels: self.levels,
            layout: self.layout,
        }
    }

    /// Transforms `data` in place: a slice or `Vec` of exactly [`Plan::len`] elements, or an
    /// ndarray array or view of the plan's shape in standard layout, of the plan's element type.
    /// Data of another length, shape or element type is an error and is left untouched.
    ///
    /// Float data gets what the arithmetic gives, as from every backend: a NaN or infinite input
    /// sample spreads to every coefficient whose filter reaches it (across levels, much of the
    /// picture), and values that leave the element type's range (f32 beyond about 3.4e38 after
    /// the wavelet's gain) come out infinite or NaN, without an error. A plan built with
    /// [`PlanBuilder::check_finite`] refuses such input and such results instead.
    pub fn execute<'d, E: Element>(&self, data: impl PlanData<'d, E>) -> Result<(), DwtError> {
        let slice = self.accept(data)?;
        // Integer data is always finite: only float data is checked (and copied).
        let saved = match self.check_finite && E::KIND == dwt_ir::ElementKind::Float {
            false => None,
            true => {
                if let Some((count, index, value)) = non_finite(slice) {
                    return Err(DwtError::NonFiniteInput {
                        count,
                        index,
                        value: format!("{value:?}"),
                    });
                }
                Some(slice.to_vec())
            }
        };
        let ran = if self.rows {
            let n = self.transform_shape[0];
            (slice.chunks_exact_mut(n)).try_for_each(|row| self.run(row))
        } else {
            self.run(slice)
        };
        if let Err(mut e) = ran {
            // With the copy at hand, a failure part way leaves the data as it was.
            let state = match saved {
                Some(saved) => {
                    slice.copy_from_slice(&saved);
                    "the data is as it was"
                }
                None => "the data may be partly transformed",
            };
            if let DwtError::Device { message, .. } = &mut e {
                message.push_str(&format!("; {state}"));
            }
            return Err(e);
        }
        if let Some(saved) = saved {
            if let Some((count, index, value)) = non_finite(slice) {
                slice.copy_from_slice(&saved);
                return Err(DwtError::NonFiniteOutput {
                    wavelet: self.wavelet.name.clone(),
                    direction: self.direction,
                    element: self.element.name(),
                    count,
                    index,
                    value: format!("{value:?}"),
                });
            }
        }
        Ok(())
    }

    /// The data's samples; an error, the data untouched, where its element type, shape or length
    /// is not the plan's.
    fn accept<'d, E: Element>(&self, data: impl PlanData<'d, E>) -> Result<&'d mut [E], DwtError> {
        if E::TYPE != self.element {
            return Err(DwtError::ElementMismatch {
                plan: self.element.name(),
                data: E::NAME,
            });
        }
        let (slice, shape) = data.into_parts()?;
        match shape {
            Some(shape) if shape != self.shape => {
                return Err(DwtError::ShapeMismatch {
                    plan: self.shape.clone(),
                    data: shape,
                })
            }
            _ => {}
        }
        if slice.len() != self.len() {
            return Err(DwtError::BufferLength {
                shape: self.shape.clone(),
                len: slice.len(),
                needed: self.len(),
            });
        }
        Ok(slice)
    }

    fn run<E: Element>(&self, data: &mut [E]) -> Result<(), DwtError> {
        let backend = self.backend.get();
        guarded(backend, "transforming", || match &self.transform {
            Some(t) => t.run(E::samples(data)),
            None => backend.run(&self.request(), E::samples(data)),
        })
    }
}

/// Runs a backend's `f`, a panic in it being [`DwtError::Device`] saying it panicked `doing`
/// what: a backend (a user's own, say) that panics fails the call as one returning
/// an error does, as the registry reports a constructor that panics.
fn guarded<T>(
    backend: &dyn Backend,
    doing: &str,
    f: impl FnOnce() -> Result<T, DwtError>,
) -> Result<T, DwtError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Err(DwtError::Device {
            backend: backend.name().to_string(),
            message: format!(
                "it panicked while {doing}: {}",
                crate::registry::panic_message(&*payload)
            ),
        })
    })
}

/// Data a [`Plan`] executes on: slices and `Vec`s (by length), ndarray arrays and views (by shape,
/// in standard layout).
pub trait PlanData<'d, E> {
    /// The elements, and the shape when the data has one.
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError>;
}

impl<'d, E> PlanData<'d, E> for &'d mut [E] {
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError> {
        Ok((self, None))
    }
}

impl<'d, E> PlanData<'d, E> for &'d mut Vec<E> {
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError> {
        Ok((self.as_mut_slice(), None))
    }
}

impl<'d, E, const N: usize> PlanData<'d, E> for &'d mut [E; N] {
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError> {
        Ok((self.as_mut_slice(), None))
    }
}

impl<'d, E, D: Dimension> PlanData<'d, E> for ArrayViewMut<'d, E, D> {
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError> {
        let shape = self.shape().to_vec();
        if !self.is_standard_layout() {
            return Err(DwtError::NotStandardLayout { shape });
        }
        let slice = self
            .into_slice()
            .ok_or_else(|| DwtError::NotStandardLayout {
                shape: shape.clone(),
            })?;
        Ok((slice, Some(shape)))
    }
}

impl<'d, E, D: Dimension> PlanData<'d, E> for &'d mut ArrayViewMut<'_, E, D> {
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError> {
        self.view_mut().into_parts()
    }
}

impl<'d, E, D: Dimension> PlanData<'d, E> for &'d mut ArrayBase<OwnedRepr<E>, D> {
    fn into_parts(self) -> Result<(&'d mut [E], Option<Vec<usize>>), DwtError> {
        self.view_mut().into_parts()
    }
}
