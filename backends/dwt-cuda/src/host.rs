//! Host transfers of a transform on host data ([`Backend::run`](dwt_runtime::Backend::run), a
//! prepared plan's `run`): the caller's slice is page-locked for the call so that the copies
//! are the bus's direct transfers, not the driver's staging of pageable memory.
//!
//! On an H100 (PCIe 5) the staged copies to the device and back moved 8 GB/s (66 ms for a
//! 8192x8192 i32 image), while the same bytes from locked memory took 9.8 ms; locking itself
//! costs about as much as one such copy (8.4 ms to register, 3.6 ms to unregister 256 MiB). A
//! whole host transform, three levels, took 2.0-2.3x less time this way at 1920x1080, 2.6x at
//! 4096x4096 and 2.75x at 8192x8192 (`dwt-bench/results/2026-11-27-h100-host-transfers/`).
//!
//! - The slice is locked in chunks (`cuMemHostRegister`), each copied as soon as it is locked,
//!   so locking the next overlaps the copy of the one before.
//! - Only whole pages inside the slice are locked. Two threads transforming the two halves of
//!   one buffer thus never lock the page they share, which would fail for the second one and,
//!   worse, be unlocked by the first while the second's copy still reads it. The partial pages
//!   at the ends, and slices too small to gain ([`MIN_LOCKED`]), are copied as pageable memory.
//! - Memory the caller locked already (`cuMemHostAlloc`, or registered) is copied as it is and
//!   left locked; where the driver refuses to lock (no support, a limit on locked memory) the
//!   chunk is copied as pageable memory. Neither is an error.
//! - [`Locked`] waits for the stream before it is gone, on every path, errors included, and
//!   unlocks only then: the caller's data is borrowed for the whole call, so nothing touches it
//!   while a copy may still read or write it, locked by this call or by the caller.

use std::cell::Cell;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use cudarc::driver::{sys, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr};
use dwt_runtime::DwtError;

use crate::device_error;

/// Slices of fewer bytes are copied as pageable memory: locking costs a few system calls per
/// chunk, which the driver's staging of a small copy does not. At this size (512x512 i32) the
/// locked transform took 1.36x less time; smaller slices were not measured locked.
pub const MIN_LOCKED: usize = 1 << 20;

/// The chunks a slice is locked in: a quarter of it, within these bounds. Locking 256 MiB in
/// 4 MiB chunks took longer than in one piece; 16 MiB chunks took 13% less, and 4 MiB chunks
/// of a 1920x1080 i32 image 24% less (the measurement above).
const CHUNK: Range<usize> = (4 << 20)..(16 << 20);

thread_local! {
    /// Bytes of callers' slices this thread has locked for copies, for the tests to see that
    /// locking happens on a real driver, and where (its only effect is speed).
    static BYTES_LOCKED: Cell<u64> = const { Cell::new(0) };
}

/// Bytes of callers' slices the calling thread has locked for copies.
pub fn bytes_locked() -> u64 {
    BYTES_LOCKED.with(Cell::get)
}

/// The host's page size.
fn page_size() -> usize {
    static PAGE: OnceLock<usize> = OnceLock::new();
    *PAGE.get_or_init(|| {
        // SAFETY: sysconf reads a constant of the system.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(size)
            .ok()
            .filter(|s| s.is_power_of_two())
            .unwrap_or(4096)
    })
}

/// One piece of the slice, in bytes from its start: locked by this call, or copied as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    bytes: Range<usize>,
    lock: bool,
}

/// The pieces of a slice of `len` bytes at address `at`: its unaligned head, its whole pages in
/// chunks, its unaligned tail; one unlocked piece when it is too small.
fn pieces(at: usize, len: usize, page: usize) -> Vec<Piece> {
    let first = at.next_multiple_of(page) - at;
    let last = (at + len) / page * page;
    if len < MIN_LOCKED || last <= at + first {
        return vec![Piece {
            bytes: 0..len,
            lock: false,
        }];
    }
    let end = last - at;
    let interior = end - first;
    let chunk = (interior / 4)
        .clamp(CHUNK.start, CHUNK.end)
        .next_multiple_of(page);
    let mut pieces = Vec::new();
    if first > 0 {
        pieces.push(Piece {
            bytes: 0..first,
            lock: false,
        });
    }
    let mut start = first;
    while start < end {
        let stop = (start + chunk).min(end);
        pieces.push(Piece {
            bytes: start..stop,
            lock: true,
        });
        start = stop;
    }
    if end < len {
        pieces.push(Piece {
            bytes: end..len,
            lock: false,
        });
    }
    pieces
}

/// The pieces of a caller's slice being copied, and the pages this call locked there: when
/// dropped, it waits for the stream unless [`download`] did, then unlocks them.
pub struct Locked {
    stream: Arc<CudaStream>,
    /// The slice's address and length in bytes.
    at: usize,
    len: usize,
    pieces: Vec<Piece>,
    /// The start of each piece this call locked (and so unlocks).
    locked: Vec<usize>,
    /// Whether the stream has finished every copy issued on the slice.
    finished: bool,
}

impl Drop for Locked {
    fn drop(&mut self) {
        if !self.finished {
            // Copies of memory the caller locked are asynchronous even where this call locked
            // nothing. A failed synchronization means the context is lost: its copies are over
            // either way.
            let _ = self.stream.synchronize();
        }
        for &start in &self.locked {
            // SAFETY: `start` was registered by this call, and no copy is pending on it.
            let r = unsafe { sys::cuMemHostUnregister((self.at + start) as *mut _) };
            debug_assert_eq!(r, sys::CUresult::CUDA_SUCCESS, "unlocking what was locked");
        }
    }
}

/// Whether `data` is page-locked memory of the current context (the pages of its first and
/// last samples, as the driver counts them): a [`crate::HostBuffer`], memory the caller allocated
/// locked or registered. Only decides how a batch is copied (module `frames`), so a slice locked
/// in part is not looked for.
pub fn is_locked<T>(data: &[T]) -> bool {
    // Unlike `cuMemHostGetFlags`, which knows only memory allocated locked, this answers for
    // registered memory too.
    let locked = |p: *const T| {
        let mut device = 0;
        // SAFETY: a query; the driver only reads the address.
        let r = unsafe { sys::cuMemHostGetDevicePointer_v2(&mut device, p as *mut _, 0) };
        r == sys::CUresult::CUDA_SUCCESS
    };
    match (data.first(), data.last()) {
        (Some(first), Some(last)) => locked(first) && locked(last),
        _ => false,
    }
}

/// Copies `data` into `dst` (of its length) on `stream` without waiting; the result keeps the
/// pages it locked locked until [`download`] (or its drop) has waited for the stream.
///
/// # Safety
/// Until the result is passed to [`download`] with the same slice, or to [`download_async`] and
/// then [`finish`], or dropped, `data` must not be written or freed: copies may still read it
/// (and, after `download_async`, write it).
pub unsafe fn upload<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    data: &[T],
    dst: &mut CudaSlice<T>,
) -> Result<Locked, DwtError> {
    assert_eq!(
        dst.len(),
        data.len(),
        "a device buffer of the slice's length"
    );
    // The raw driver calls below act on the thread's current context.
    stream.context().bind_to_thread().map_err(device_error)?;
    let len = std::mem::size_of_val(data);
    let at = data.as_ptr() as usize;
    let mut locked = Locked {
        stream: stream.clone(),
        at,
        len,
        pieces: pieces(at, len, page_size()),
        locked: Vec::new(),
        finished: false,
    };
    let (device, _write) = dst.device_ptr_mut(stream);
    for piece in &locked.pieces {
        let host = (at + piece.bytes.start) as *mut std::ffi::c_void;
        let size = piece.bytes.len();
        if piece.lock {
            // SAFETY: the range lies inside `data`, which the caller keeps for `locked`'s life;
            // unregistered by `locked`'s drop.
            let r = unsafe { sys::cuMemHostRegister_v2(host, size, 0) };
            if r == sys::CUresult::CUDA_SUCCESS {
                locked.locked.push(piece.bytes.start);
                BYTES_LOCKED.with(|b| b.set(b.get() + size as u64));
            }
        }
        // SAFETY: `device` holds `dst`'s length, `data`'s, so every piece's range; the host
        // range is readable until the stream is synchronized (`locked`).
        unsafe {
            sys::cuMemcpyHtoDAsync_v2(
                device + piece.bytes.start as u64,
                host,
                size,
                stream.cu_stream(),
            )
        }
        .result()
        .map_err(device_error)?;
    }
    Ok(locked)
}

/// Copies `src` back into `data`, the slice `locked` came from (checked), and waits for the
/// stream; then unlocks what the upload locked.
pub fn download<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    src: &CudaSlice<T>,
    data: &mut [T],
    locked: Locked,
) -> Result<(), DwtError> {
    finish(download_async(stream, src, data, locked)?)
}

/// Issues the copy of `src` back into `data`, the slice `locked` came from (checked), without
/// waiting: [`finish`] (or the result's drop) waits for it.
pub fn download_async<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    src: &CudaSlice<T>,
    data: &mut [T],
    locked: Locked,
) -> Result<Locked, DwtError> {
    let at = data.as_mut_ptr() as usize;
    assert!(
        at == locked.at && std::mem::size_of_val(data) == locked.len && src.len() == data.len(),
        "the upload's slice and a device buffer of its length"
    );
    let (device, _read) = src.device_ptr(stream);
    for piece in &locked.pieces {
        // SAFETY: every piece lies inside `data` (checked above) and `src`; `data` stays
        // borrowed until the stream is synchronized, by `finish` or by `locked`'s drop (the
        // caller's contract with `upload`).
        unsafe {
            sys::cuMemcpyDtoHAsync_v2(
                (at + piece.bytes.start) as *mut _,
                device + piece.bytes.start as u64,
                piece.bytes.len(),
                stream.cu_stream(),
            )
        }
        .result()
        .map_err(device_error)?;
    }
    Ok(locked)
}

/// Waits for every copy issued on the slice `locked` came from, then unlocks what the upload
/// locked (as its drop does, but reporting a failed wait).
pub fn finish(mut locked: Locked) -> Result<(), DwtError> {
    locked.stream.synchronize().map_err(device_error)?;
    locked.finished = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: usize = 4096;

    fn covered(pieces: &[Piece], len: usize) {
        let mut next = 0;
        for p in pieces {
            assert_eq!(p.bytes.start, next, "{pieces:?}");
            assert!(!p.bytes.is_empty(), "{pieces:?}");
            next = p.bytes.end;
        }
        assert_eq!(next, len, "{pieces:?}");
    }

    #[test]
    fn small_slices_are_not_locked() {
        for len in [0, 1, PAGE, MIN_LOCKED - 1] {
            let p = pieces(PAGE * 3 + 8, len, PAGE);
            assert_eq!(p.len(), 1);
            assert!(!p[0].lock);
            assert_eq!(p[0].bytes, 0..len);
        }
    }

    #[test]
    fn only_whole_pages_are_locked_in_bounded_chunks() {
        for (at, len) in [
            (PAGE * 10, 8 << 20),
            (PAGE * 10 + 2, 8 << 20),
            (PAGE * 10 + 2, (256 << 20) + 6),
            (PAGE * 7 - 4, 1920 * 1080 * 2),
        ] {
            let p = pieces(at, len, PAGE);
            covered(&p, len);
            for piece in p.iter().filter(|p| p.lock) {
                assert_eq!((at + piece.bytes.start) % PAGE, 0, "{piece:?}");
                assert_eq!((at + piece.bytes.end) % PAGE, 0, "{piece:?}");
                assert!(piece.bytes.len() <= CHUNK.end, "{piece:?}");
            }
            for piece in p.iter().filter(|p| !p.lock) {
                assert!(piece.bytes.len() < PAGE, "{piece:?}");
            }
            if len >= 2 * CHUNK.start + 2 * PAGE {
                assert!(p.iter().filter(|p| p.lock).count() >= 2, "{p:?}");
            }
        }
    }

    /// Two halves of one buffer split inside a page: neither locks the shared page.
    #[test]
    fn neighbours_never_lock_one_page() {
        let (at, len) = (PAGE * 100, 64 << 20);
        let half = len / 2 + 6;
        let locked_pages = |at: usize, len: usize| -> Vec<usize> {
            pieces(at, len, PAGE)
                .into_iter()
                .filter(|p| p.lock)
                .flat_map(|p| ((at + p.bytes.start) / PAGE)..((at + p.bytes.end) / PAGE))
                .collect()
        };
        let a = locked_pages(at, half);
        let b = locked_pages(at + half, len - half);
        assert!(!a.is_empty() && !b.is_empty());
        assert!(a.iter().max() < b.iter().min(), "a page locked by both");
    }
}
