//! `lifting`: declare a wavelet as lifting steps with [`lifting!`], and get its IR, its derived
//! facts (inverse, supports, window geometry) and an exact CPU reference transform.
//!
//! ```
//! use lifting::{lifting, ir::WaveletSpec};
//!
//! lifting! {
//!     /// LeGall (5,3) as in VC-2.
//!     pub wavelet MyLeGall {
//!         shift = 1;
//!         odd  -= (even[0] + even[1] + 1) >> 1;
//!         even += (odd[-1] + odd[0] + 2) >> 2;
//!     }
//! }
//!
//! assert_eq!(MyLeGall::GEOMETRY.top, 1);
//! let ir = MyLeGall::wavelet();
//! assert_eq!(ir.program.equivalent_filters()[0].len(), 5);
//! ```

// Lets `lifting!` name this crate as `::lifting` from inside it too.
extern crate self as lifting;

pub use dwt_catalogue as catalogue;
pub use dwt_ir as ir;
pub use dwt_macros::lifting;
pub use dwt_runtime as runtime;

/// The OpenCL backend, behind the `opencl` feature.
#[cfg(feature = "opencl")]
pub use dwt_opencl as opencl;

/// The CUDA backend, behind the `cuda` feature.
#[cfg(feature = "cuda")]
pub use dwt_cuda as cuda;

/// The registry of this build: the CPU reference, and the backends of the features turned on
/// (`opencl`, `cuda`), each constructed on first use, so that a machine without the device gets
/// a reason in [`runtime::Registry::list`] and `auto` moves on, where
/// [`runtime::Registry::with_builtins`] would know only the CPU.
///
/// ```
/// let registry = lifting::registry();
/// let chosen = registry.select("auto").unwrap();
/// // `auto` tries CUDA, then OpenCL, then the CPU, and says what it skipped and why.
/// assert!(chosen.notice.starts_with("auto: chose"));
/// assert!(registry.contains("cpu"));
/// assert_eq!(registry.contains("opencl"), cfg!(feature = "opencl"));
/// ```
pub fn registry() -> runtime::Registry {
    #[allow(unused_mut)]
    let mut registry = runtime::Registry::with_builtins();
    #[cfg(feature = "opencl")]
    registry.register_with("opencl", || {
        opencl::OpenClBackend::new().map(|b| Box::new(b) as Box<dyn runtime::Backend>)
    });
    #[cfg(feature = "cuda")]
    registry.register_with("cuda", || {
        cuda::CudaBackend::new().map(|b| Box::new(b) as Box<dyn runtime::Backend>)
    });
    registry
}
