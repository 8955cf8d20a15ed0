//! Page-locked host memory for transforms of host data in a loop (the frames of a video): a
//! [`HostBuffer`] is copied to and from the device directly, without the locking and unlocking
//! that a transform of ordinary memory does on every call (module `host`), which is about half
//! of a large host transform's time.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::Arc;

use cudarc::driver::{result, CudaContext};
use dwt_runtime::{DwtError, PlanData};

use crate::{device_error, DeviceElement};

/// `len` samples of page-locked host memory of a backend's context, zeroed, used as a slice
/// (`&mut buffer[..]`, `plan.execute(&mut buffer)`). Freed when dropped. Made by
/// [`CudaBackend::host_buffer`](crate::CudaBackend::host_buffer).
pub struct HostBuffer<T: DeviceElement> {
    ctx: Arc<CudaContext>,
    /// Dangling for an empty buffer, which allocates nothing.
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the buffer owns its memory as a `Vec<T>` does, and the element types are plain numbers.
unsafe impl<T: DeviceElement> Send for HostBuffer<T> {}
unsafe impl<T: DeviceElement> Sync for HostBuffer<T> {}

impl<T: DeviceElement> HostBuffer<T> {
    pub(crate) fn zeroed(ctx: &Arc<CudaContext>, len: usize) -> Result<Self, DwtError> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(|| device_error(format!("a host buffer of {len} samples is too large")))?;
        if bytes == 0 {
            return Ok(HostBuffer {
                ctx: ctx.clone(),
                ptr: NonNull::dangling(),
                len,
            });
        }
        ctx.bind_to_thread().map_err(device_error)?;
        // SAFETY: a fresh allocation of `bytes`, zeroed before it is read as samples (zero bits
        // are a valid sample of every element type).
        let ptr = unsafe {
            let p = result::malloc_host(bytes, 0).map_err(|e| {
                device_error(format!(
                    "could not page-lock {bytes} bytes of host memory ({e:?}): use ordinary memory, which each transform locks for its copies"
                ))
            })?;
            std::ptr::write_bytes(p.cast::<u8>(), 0, bytes);
            NonNull::new(p.cast::<T>())
                .ok_or_else(|| device_error("the driver gave a null host buffer"))?
        };
        Ok(HostBuffer {
            ctx: ctx.clone(),
            ptr,
            len,
        })
    }
}

impl<T: DeviceElement> Deref for HostBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialized samples (or none, dangling), owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: DeviceElement> DerefMut for HostBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// A plan takes a host buffer as it takes a slice: `plan.execute(&mut buffer)`,
/// `plan.execute_frames(buffers.iter_mut())`.
impl<'d, T: DeviceElement> PlanData<'d, T> for &'d mut HostBuffer<T> {
    fn into_parts(self) -> Result<(&'d mut [T], Option<Vec<usize>>), DwtError> {
        Ok((&mut self[..], None))
    }
}

impl<T: DeviceElement> Drop for HostBuffer<T> {
    fn drop(&mut self) {
        if self.len == 0 || std::mem::size_of::<T>() == 0 {
            return;
        }
        // No copy can be pending: every transform of host data waits for its copies back
        // before it returns the borrow of the buffer.
        let _ = self.ctx.bind_to_thread();
        // SAFETY: allocated by `malloc_host` in `zeroed`, freed once.
        let _ = unsafe { result::free_host(self.ptr.as_ptr().cast()) };
    }
}

impl<T: DeviceElement> fmt::Debug for HostBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostBuffer")
            .field("len", &self.len)
            .finish()
    }
}
