//! Runs lifting programs. For now this holds the exact CPU reference backend ([`cpu`]) and the
//! element types; plans, the backend registry and selection come with the GPU backends.

pub mod cpu;
mod element;
mod error;

pub use element::{Element, Work};
pub use error::DwtError;
