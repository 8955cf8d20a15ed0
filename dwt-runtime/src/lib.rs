//! Runs lifting programs: the [`Backend`] interface every device implements, the exact CPU
//! reference backend ([`cpu`]), the element types, and the `conformance` suite (feature
//! `conformance`) every backend must pass, the backend [`registry`] and selection, and the
//! worst-case [`growth`] of integer transforms, and [`Plan`]s: a transform validated and
//! compiled once, executed on many buffers.

mod backend;
pub mod build_cache;
pub mod cache;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod cpu;
mod element;
mod error;
pub mod growth;
pub mod plan;
pub mod registry;

pub use backend::{Backend, CpuBackend, Request, Samples};
pub use build_cache::{build_each, BuildCache};
pub use cache::PreparedCache;
pub use dwt_ir::{Direction, ElementType, Layout};
pub use element::{Element, Work};
pub use error::DwtError;
pub use growth::{bit_growth, check_bit_growth, Growth, InputRange, Interval};
#[doc(hidden)]
pub use plan::{fail_frames_in_turns_at, frames_in_turns};
pub use plan::{
    frames_one_after_another, prepared_frames, BackendRef, FrameFailure, FrameProgress,
    KernelOrigin, ModuleReport, Plan, PlanBuilder, PlanData, PrepareReport, Prepared,
    PreparedTransform, TuningReport,
};
pub use registry::{BackendInfo, Registry, Selection, AUTO_ORDER, BACKEND_ENV};
