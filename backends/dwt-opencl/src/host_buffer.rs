//! Pinned host memory for transforms of host data in a loop (the frames of a video): a
//! [`HostBuffer`] is an OpenCL buffer made with `CL_MEM_ALLOC_HOST_PTR` and kept mapped for its
//! whole life, so its samples lie in memory the platform can copy to and from the device without
//! staging it: the way to pinned memory that OpenCL offers (NVIDIA's OpenCL guide names this very
//! pattern). A transform of ordinary memory is copied through the driver's own staging, most of a
//! large host transform's time on a GPU (BENCHMARKS.md).

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use dwt_runtime::DwtError;
use ocl::flags::{MapFlags, MemFlags};
use ocl::{Buffer, MemMap, Queue};

use crate::{device_error, DeviceElement};

/// `len` samples of pinned host memory of the backend's context, zeroed, used as a slice
/// (`&mut buffer[..]`, `plan.execute(&mut *buffer)`). Unmapped and freed when dropped. Made by
/// [`OpenClBackend::host_buffer`](crate::OpenClBackend::host_buffer).
pub struct HostBuffer<T: DeviceElement> {
    /// The mapping that keeps the memory alive and reachable; `None` for an empty buffer, which
    /// allocates nothing (OpenCL has no buffers of zero bytes).
    map: Option<MemMap<T>>,
    queue: Queue,
    /// The mapping's first sample (dangling when empty).
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the samples are owned by the buffer as a `Vec<T>`'s are, and plain numbers; the mapping
// is used only to unmap it on drop, through `&mut self`, and OpenCL's calls are thread-safe.
unsafe impl<T: DeviceElement> Send for HostBuffer<T> {}
unsafe impl<T: DeviceElement> Sync for HostBuffer<T> {}

impl<T: DeviceElement> HostBuffer<T> {
    pub(crate) fn zeroed(queue: Queue, len: usize) -> Result<Self, DwtError> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(|| device_error(format!("a host buffer of {len} samples is too large")))?;
        if bytes == 0 {
            return Ok(HostBuffer {
                map: None,
                queue,
                ptr: NonNull::dangling(),
                len,
            });
        }
        let refused = |e: ocl::Error| {
            device_error(format!(
                "could not allocate {bytes} bytes of pinned host memory ({}): use ordinary memory, which each transform copies through the driver",
                e.to_string().trim()
            ))
        };
        let buffer = Buffer::<T>::builder()
            .queue(queue.clone())
            .flags(MemFlags::new().alloc_host_ptr().read_write())
            .len(len)
            .build()
            .map_err(refused)?;
        // SAFETY: a blocking map of the whole buffer, which nothing else uses: the mapping is
        // this value's alone until it is unmapped in `drop`.
        let mut map = unsafe {
            buffer
                .map()
                .flags(MapFlags::new().read().write())
                .enq()
                .map_err(refused)?
        };
        // Zero bits are a valid sample of every element type; what the platform left there
        // is not the caller's to read.
        map.iter_mut().for_each(|s| *s = T::default());
        let ptr = NonNull::new(map.as_mut_ptr())
            .ok_or_else(|| device_error("the platform mapped the host buffer at null"))?;
        Ok(HostBuffer {
            map: Some(map),
            queue,
            ptr,
            len,
        })
    }
}

impl<T: DeviceElement> Deref for HostBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialized samples of the live mapping (or none, dangling).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: DeviceElement> DerefMut for HostBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: DeviceElement> Drop for HostBuffer<T> {
    fn drop(&mut self) {
        // No copy can be pending: every transform of host data finishes its queue before it
        // returns the borrow of the buffer. Waiting for the unmap frees the memory now rather
        // than whenever the platform gets to it.
        if let Some(mut map) = self.map.take() {
            if map.unmap().queue(&self.queue).enq().is_ok() {
                let _ = self.queue.finish();
            }
        }
    }
}

impl<T: DeviceElement> fmt::Debug for HostBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostBuffer")
            .field("len", &self.len)
            .finish()
    }
}
