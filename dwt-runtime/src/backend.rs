//! The interface every backend implements (the CPU reference, OpenCL, CUDA, or a user's own), so
//! that one conformance suite and, later, one planner can drive them all.

use dwt_ir::{Direction, ElementType, Layout, Wavelet};

use crate::plan::Prepared;
use crate::{cpu, DwtError};

/// Host data handed to a backend, by element type.
pub enum Samples<'a> {
    I16(&'a mut [i16]),
    I32(&'a mut [i32]),
    F32(&'a mut [f32]),
    F64(&'a mut [f64]),
}

impl Samples<'_> {
    pub fn element_type(&self) -> ElementType {
        match self {
            Samples::I16(_) => ElementType::I16,
            Samples::I32(_) => ElementType::I32,
            Samples::F32(_) => ElementType::F32,
            Samples::F64(_) => ElementType::F64,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Samples::I16(d) => d.len(),
            Samples::I32(d) => d.len(),
            Samples::F32(d) => d.len(),
            Samples::F64(d) => d.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// That these are the `len` samples of `element` a transform was prepared for; else
    /// [`DwtError::Unsupported`] from `backend` saying both.
    pub fn check_prepared(
        &self,
        backend: &str,
        element: ElementType,
        len: usize,
    ) -> Result<(), DwtError> {
        if self.element_type() == element && self.len() == len {
            return Ok(());
        }
        Err(DwtError::Unsupported {
            backend: backend.into(),
            what: format!(
                "the prepared transform takes {len} {} samples, not {} {}",
                element.name(),
                self.len(),
                self.element_type().name()
            ),
        })
    }
}

/// One transform: which wavelet, which way, on what shape, how many levels, in which layout.
#[derive(Clone, Debug)]
pub struct Request<'w> {
    pub wavelet: &'w Wavelet,
    pub direction: Direction,
    /// Row-major extents: `[n]`, `[height, width]` or `[depth, height, width]`.
    pub shape: Vec<usize>,
    pub levels: u32,
    pub layout: Layout,
}

impl Request<'_> {
    /// Everything about the request that does not depend on the backend, checked against `data`.
    pub fn validate(&self, data: &Samples) -> Result<(), DwtError> {
        self.validate_for(data.element_type(), data.len())
    }

    /// The number of samples of the shape; [`DwtError::ShapeTooLarge`] where that overflows.
    pub fn sample_count(&self) -> Result<usize, DwtError> {
        cpu::sample_count(&self.shape)
    }

    /// The same for `len` samples of `element` (a device buffer's, or none yet: pass
    /// [`sample_count`](Self::sample_count)).
    pub fn validate_for(&self, element: ElementType, len: usize) -> Result<(), DwtError> {
        cpu::validate(self.wavelet, element, len, &self.shape, self.levels)
    }

    /// [`validate_for`](Self::validate_for) a source of `src_len` samples, and a destination of
    /// `dst_len` ([`DwtError::Unsupported`] by `backend` unless the two are the same length):
    /// what an out-of-place run on device buffers checks before anything runs.
    pub fn validate_into(
        &self,
        backend: &str,
        element: ElementType,
        src_len: usize,
        dst_len: usize,
    ) -> Result<(), DwtError> {
        self.validate_for(element, src_len)?;
        if dst_len != src_len {
            return Err(DwtError::Unsupported {
                backend: backend.into(),
                what: format!(
                    "the destination holds {dst_len} samples but the source {src_len}: they must be the same length"
                ),
            });
        }
        Ok(())
    }
}

/// A device that runs lifting transforms.
pub trait Backend: Send + Sync {
    /// The name users select it by (`cpu`, `opencl`, `cuda`, ...).
    fn name(&self) -> &str;
    /// The device it runs on, in words.
    fn device(&self) -> String;
    /// Transforms host data in place. Must give the CPU reference's result: bit for bit for
    /// integer wavelets, to the element type's precision for float ones.
    fn run(&self, request: &Request, data: Samples) -> Result<(), DwtError>;
    /// Generates and compiles (or loads from a cache) everything `request` on `element` data
    /// needs, so that running it later does neither; what [`crate::Plan`] calls once at
    /// construction. The request is validated except for the data's length. A backend may return
    /// a [`crate::PreparedTransform`] that runs the request without looking anything up; without
    /// one the plan calls [`Backend::run`]. The default prepares nothing.
    fn prepare(&self, request: &Request, element: ElementType) -> Result<Prepared, DwtError> {
        let _ = (request, element);
        Ok(Prepared::default())
    }
}

/// The exact CPU reference as a backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn name(&self) -> &str {
        "cpu"
    }

    fn device(&self) -> String {
        "host CPU (reference interpreter)".into()
    }

    fn run(&self, r: &Request, data: Samples) -> Result<(), DwtError> {
        match data {
            Samples::I16(d) => {
                cpu::transform(r.wavelet, r.direction, d, &r.shape, r.levels, r.layout)
            }
            Samples::I32(d) => {
                cpu::transform(r.wavelet, r.direction, d, &r.shape, r.levels, r.layout)
            }
            Samples::F32(d) => {
                cpu::transform(r.wavelet, r.direction, d, &r.shape, r.levels, r.layout)
            }
            Samples::F64(d) => {
                cpu::transform(r.wavelet, r.direction, d, &r.shape, r.levels, r.layout)
            }
        }
    }
}
