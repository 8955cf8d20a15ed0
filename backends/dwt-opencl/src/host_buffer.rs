//! Pinned host memory for transforms of host data in a loop (the frames of a video): a
//! [`HostBuffer`] is an OpenCL buffer made with `CL_MEM_ALLOC_HOST_PTR` and kept mapped for its
//! whole life, so its samples lie in memory the platform can copy to and from the device without
//! staging it: the way to pinned memory that OpenCL offers (NVIDIA's OpenCL guide names this very
//! pattern). A transform of ordinary memory is copied through the driver's own staging, most of a
//! large host transform's time on a GPU (BENCHMARKS.md).

use std::fmt;
use std::ops::{Deref, DerefMut, Range};
use std::ptr::NonNull;
use std::sync::Mutex;

use dwt_runtime::{DwtError, PlanData};
use ocl::flags::{MapFlags, MemFlags};
use ocl::{Buffer, MemMap, Queue};

use crate::{device_error, DeviceElement};

/// The bytes of every live host buffer's mapping: OpenCL cannot say whether an address is pinned,
/// and a batch of frames runs in turns only on pinned memory (module `frames`).
static LIVE: Mutex<Vec<Range<usize>>> = Mutex::new(Vec::new());

/// Whether `data` lies inside one live host buffer.
pub(crate) fn holds<T>(data: &[T]) -> bool {
    let bytes = data.as_ptr_range();
    holds_bytes(bytes.start as usize..bytes.end as usize)
}

/// Whether the addresses `bytes` (not empty) lie inside one live host buffer.
fn holds_bytes(bytes: Range<usize>) -> bool {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    !bytes.is_empty() && (live.iter()).any(|r| r.start <= bytes.start && bytes.end <= r.end)
}

/// `len` samples of pinned host memory of the backend's context, zeroed, used as a slice
/// (`&mut buffer[..]`, `plan.execute(&mut buffer)`). Unmapped and freed when dropped. Made by
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
        let at = ptr.as_ptr() as usize;
        (LIVE.lock().unwrap_or_else(|e| e.into_inner())).push(at..at + bytes);
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

/// A plan takes a host buffer as it takes a slice: `plan.execute(&mut buffer)`,
/// `plan.execute_frames(buffers.iter_mut())`.
impl<'d, T: DeviceElement> PlanData<'d, T> for &'d mut HostBuffer<T> {
    fn into_parts(self) -> Result<(&'d mut [T], Option<Vec<usize>>), DwtError> {
        Ok((&mut self[..], None))
    }
}

impl<T: DeviceElement> Drop for HostBuffer<T> {
    fn drop(&mut self) {
        // No copy can be pending: every transform of host data finishes its queue before it
        // returns the borrow of the buffer. Waiting for the unmap frees the memory now rather
        // than whenever the platform gets to it.
        if let Some(mut map) = self.map.take() {
            let at = self.ptr.as_ptr() as usize;
            let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = live.iter().position(|r| r.start == at) {
                live.swap_remove(i);
            }
            drop(live);
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

#[cfg(test)]
mod tests {
    use super::{holds, holds_bytes};

    /// A live host buffer holds its samples and any run of them, not a byte past them; a `Vec`
    /// is not held, nor is a buffer's memory after the buffer is dropped.
    #[test]
    fn live_host_buffers_hold_their_samples_only() {
        let b = crate::OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
        let buffer = b.host_buffer::<i32>(1000).unwrap();
        assert!(holds(&buffer[..]) && holds(&buffer[10..20]) && holds(&buffer[999..]));
        assert!(!holds(&buffer[..0]));
        let at = buffer.as_ptr() as usize;
        assert!(!holds_bytes(at + 1..at + 4001));
        assert!(!holds(&vec![0i32; 1000][..]));
        drop(buffer);
        assert!(!holds_bytes(at..at + 4000));
    }
}
