//! The one error type of the runtime: each variant says what was wrong and what to do about it.

use dwt_ir::ElementKind;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DwtError {
    #[error("shape {shape:?} has {dims} dimensions; transforms take 1, 2 or 3 (pass e.g. [height, width])")]
    Dimensions { shape: Vec<usize>, dims: usize },
    #[error("shape {shape:?} has an empty axis; every axis needs at least one sample")]
    EmptyAxis { shape: Vec<usize> },
    #[error("shape {shape:?} has more samples than this machine can address; check the shape, or transform the data in smaller pieces")]
    ShapeTooLarge { shape: Vec<usize> },
    #[error("the buffer holds {len} elements but shape {shape:?} needs {needed}; pass a buffer of exactly that many elements")]
    BufferLength {
        shape: Vec<usize>,
        len: usize,
        needed: usize,
    },
    #[error("{}", too_many_levels(shape, *levels, *max))]
    TooManyLevels {
        shape: Vec<usize>,
        levels: u32,
        max: u32,
    },
    #[error("wavelet `{wavelet}` is {} but the data is {element} ({}); use {} data", .kind.name(), .element_kind.name(), .kind.name())]
    KindMismatch {
        wavelet: String,
        kind: ElementKind,
        element: &'static str,
        element_kind: ElementKind,
    },
    /// A [`dwt_ir::Wavelet`] whose fields contradict its kind (changed by hand after parsing):
    /// the reference and the kernels would compute something else, or overflow a shift.
    #[error("wavelet `{wavelet}` is {} but {what}, which the wavelet language never declares (was the `Wavelet` changed by hand?); declare it with `lifting!` or `dwt_ir::parse_str`, or set the fields back", .kind.name())]
    MalformedWavelet {
        wavelet: String,
        kind: ElementKind,
        what: String,
    },
    #[error("wavelet `{wavelet}`'s {} program has the coefficient {value:e}, which {element} cannot hold (it overflows to infinity or underflows to zero); use f64 data, or rescale the wavelet's coefficients", if *.direction == dwt_ir::Direction::Forward { "forward" } else { "inverse" })]
    Unrepresentable {
        wavelet: String,
        direction: dwt_ir::Direction,
        value: f64,
        element: &'static str,
    },
    #[error("wavelet `{wavelet}` uses a periodic boundary, which needs an even length on every transformed axis, but axis {axis} has length {len} at level {level}; use sizes divisible by 2^levels or another boundary rule")]
    PeriodicOddLength {
        wavelet: String,
        axis: usize,
        len: usize,
        level: u32,
    },
    #[error("the sliding window needs at least {needed} rows (height {height} + bottom {bottom}) but the column has {rows}; short columns take the single-window path")]
    ColumnTooShort {
        rows: usize,
        needed: usize,
        height: usize,
        bottom: usize,
    },
    #[error("window height {height} is not legal: it must be even and at least top + overlap + bottom = {carried}")]
    WindowHeight { height: usize, carried: usize },
    #[error("backend `{backend}` is not available: {reason}")]
    Unavailable { backend: String, reason: String },
    #[error("backend `{backend}` cannot run this transform: {what}")]
    Unsupported { backend: String, what: String },
    #[error("backend `{backend}` failed to build its kernels: {log}")]
    Build { backend: String, log: String },
    #[error("backend `{backend}` failed while running: {message}")]
    Device { backend: String, message: String },
    #[error("the sliding window applies a scaling only before the first step or after the last; this program scales between steps")]
    ScaleBetweenSteps,
    #[error("the in-place sliding window cannot lift a periodic line: its last window would need rows the first window already overwrote (the GPU kernels lift such lines through a wrapped window into another buffer)")]
    PeriodicWindow,
    #[error("unknown backend `{name}`{from}; available: {available}")]
    UnknownBackend {
        name: String,
        /// Where the name came from, e.g. ` (from DWT_BACKEND)`, or empty.
        from: String,
        available: String,
    },
    #[error("the backend name is empty (a setting left unfilled?); name one: {available} (`auto` picks the first available)")]
    EmptyBackendName { available: String },
    #[error("no backend is available ({tried})")]
    NoBackend { tried: String },
    /// The worst-case bit growth of an integer transform does not fit the element type (see
    /// [`crate::growth`]).
    #[error("{message}")]
    BitGrowth { message: String },
    /// [`crate::growth::GrowthAnalysis`] for every shape at more levels than it can follow in a
    /// few minutes.
    #[error("the bit growth of `{wavelet}` for every shape at {levels} levels would take more than a few minutes to analyse (the work grows about fourfold a level); analyse at most {affordable} levels so, or bound one shape at any level count with `growth::bit_growth_for_shape`")]
    GrowthTooCostly {
        wavelet: String,
        levels: u32,
        affordable: u32,
    },
    /// A batch of rows ([`crate::PlanBuilder::rows`]) whose shape is not `[rows, n]`.
    #[error("a batch of rows takes the shape [rows, n], not {shape:?}; without `rows()` the plan transforms a shape of 1, 2 or 3 axes as a whole")]
    RowsShape { shape: Vec<usize> },
    /// A batch of rows ([`crate::PlanBuilder::rows`]) whose rows cannot take the transform: the
    /// error names the shape of one row, so this says which batch it is a row of.
    #[error("each row of the batch of shape {shape:?} is a line of {} samples transformed on its own: {error}", .shape.last().copied().unwrap_or(0))]
    Row {
        shape: Vec<usize>,
        error: Box<DwtError>,
    },
    /// An input range for the bit-growth check ([`crate::InputRange`]) of no bit depth.
    #[error("an input range of {bits} bits is not a bit depth: give 1 to 64 bits (e.g. `InputRange::unsigned(8)` for 8-bit pixels)")]
    InputBits { bits: u32 },
    /// Data handed to a [`crate::Plan`] that does not have the plan's shape.
    #[error("the data has shape {data:?} but the plan was built for shape {plan:?}; build a plan for this shape")]
    ShapeMismatch { plan: Vec<usize>, data: Vec<usize> },
    /// Data handed to a [`crate::Plan`] of another element type.
    #[error("the data is {data} but the plan was built for {plan}; build a plan for {data} or convert the data")]
    ElementMismatch {
        plan: &'static str,
        data: &'static str,
    },
    /// Float data holding NaN or infinite samples, refused by a plan built with
    /// [`crate::PlanBuilder::check_finite`] before anything runs.
    #[error("the data holds {count} NaN or infinite sample{} (the first, {value}, at index {index}), which a float transform spreads to every coefficient whose filter reaches it; replace them with finite values (the data is untouched)", if *.count == 1 { "" } else { "s" })]
    NonFiniteInput {
        count: usize,
        index: usize,
        value: String,
    },
    /// A float transform of finite data whose values left the element type's range, found by a
    /// plan built with [`crate::PlanBuilder::check_finite`]; the data is put back as it was.
    #[error("wavelet `{wavelet}`'s {} transform overflowed {element}: {count} value{} came out NaN or infinite (the first, {value}, at index {index}); use f64 data, or scale the input down (the data is as it was)", if *.direction == dwt_ir::Direction::Forward { "forward" } else { "inverse" }, if *.count == 1 { "" } else { "s" })]
    NonFiniteOutput {
        wavelet: String,
        direction: dwt_ir::Direction,
        element: &'static str,
        count: usize,
        index: usize,
        value: String,
    },
    /// One frame of [`crate::Plan::execute_frames`] refused or failed: the error, and what the
    /// batch was left as.
    #[error("{} failed: {error}; {state}", match .index {
        Some(i) => format!("frame {i} (counting from 0) of {count}"),
        None => format!("a batch of {count} frames"),
    })]
    Frame {
        /// The frame that failed; `None` where the batch failed as a whole (a panic, or
        /// what it needs before any frame could not be had).
        index: Option<usize>,
        count: usize,
        /// Which frames are transformed, which may be partly and which are untouched, in words.
        state: String,
        error: Box<DwtError>,
    },
    /// An ndarray view whose elements are not contiguous in row-major order.
    #[error("the array of shape {shape:?} is not in standard (contiguous row-major) layout; transform a contiguous copy (e.g. `.as_standard_layout().into_owned()`)")]
    NotStandardLayout { shape: Vec<usize> },
}

/// [`DwtError::TooManyLevels`]'s message: a shape of single samples has nothing to transform.
fn too_many_levels(shape: &[usize], levels: u32, max: u32) -> String {
    let count = match levels {
        1 => "1 level".to_string(),
        n => format!("{n} levels"),
    };
    match max {
        0 => format!("shape {shape:?} is too small to transform ({count} asked): every axis has 1 sample, and a level needs an axis of 2 or more"),
        _ => format!("{count} is too many for shape {shape:?}: it supports at most {max} (each level halves every axis longer than 1)"),
    }
}
