//! Runs lifting programs: the [`Backend`] interface every device implements, the exact CPU
//! reference backend ([`cpu`]), the element types, and the [`conformance`] suite every backend must
//! pass. Plans, the registry and selection come with issue 5.

mod backend;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod cpu;
mod element;
mod error;

pub use backend::{Backend, CpuBackend, Request, Samples};
pub use dwt_ir::{ElementType, Layout};
pub use element::{Element, Work};
pub use error::DwtError;
