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
