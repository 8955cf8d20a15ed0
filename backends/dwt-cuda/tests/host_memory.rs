//! Transforms of host slices, which the backend page-locks for their copies (module `host`):
//! slices at every alignment, large enough to be locked in chunks and too small to be locked,
//! the two halves of one buffer on two threads at once, and memory the caller locked itself;
//! every result against the CPU reference, the samples around each slice untouched, and no
//! page left locked that the caller did not lock.

mod common;

use common::{locked, reference, values};

use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, ElementType, Layout};
use dwt_runtime::{Backend, Plan, Request, Samples};

fn request(shape: &[usize], levels: u32) -> Request<'static> {
    Request {
        wavelet: dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet"),
        direction: Direction::Forward,
        shape: shape.to_vec(),
        levels,
        layout: Layout::Mallat,
    }
}

const SENTINEL: i32 = 0x5a5a_5a5a;

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn slices_at_every_alignment_transform_exactly_and_end_unlocked() {
    let b = CudaBackend::new().expect("a CUDA device");
    // 4 MiB and 8 MiB: locked in chunks; 16 KiB: copied as pageable memory.
    for shape in [[1024, 1024], [1080, 1920], [64, 64]] {
        let req = request(&shape, 3);
        let n = shape[0] * shape[1];
        for offset in [0, 1, 3, 1024 + 5] {
            let mut buffer = vec![SENTINEL; n + offset + 7];
            buffer[offset..offset + n].copy_from_slice(&values(n, offset));
            let want = reference(&req, &buffer[offset..offset + n]);
            let before = dwt_cuda::host_bytes_locked();
            b.run(&req, Samples::I32(&mut buffer[offset..offset + n]))
                .unwrap();
            // The driver locked all but the partial end pages of a slice of 1 MiB or more,
            // and nothing of a smaller one (the count is this thread's).
            let bytes = dwt_cuda::host_bytes_locked() - before;
            if n * 4 >= 1 << 20 {
                assert!(
                    bytes + 2 * 4096 >= (n * 4) as u64 && bytes <= (n * 4) as u64,
                    "{shape:?}: {bytes} bytes locked"
                );
            } else {
                assert_eq!(bytes, 0, "{shape:?}");
            }
            assert!(
                buffer[offset..offset + n] == want[..],
                "{shape:?} at offset {offset}"
            );
            assert!(buffer[..offset].iter().all(|&v| v == SENTINEL));
            assert!(buffer[offset + n..].iter().all(|&v| v == SENTINEL));
            for at in [offset, offset + n / 2, offset + n - 1] {
                assert!(
                    !locked(&buffer[at]),
                    "{shape:?} at offset {offset}: sample {at} left page-locked"
                );
            }
        }
    }
}

/// Two threads transform the two halves of one buffer, split inside a page, several times at
/// once: were the shared page locked by one, the other's registration would fail, or the page
/// be unlocked under its copy.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn two_threads_on_the_halves_of_one_buffer() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request(&[1024, 1024], 2);
    let n = 1024 * 1024;
    let mut buffer = vec![0i32; 2 * n + 3];
    let (_, halves) = buffer.split_at_mut(3);
    let (left, right) = halves.split_at_mut(n);
    std::thread::scope(|s| {
        for (t, half) in [left, right].into_iter().enumerate() {
            let (b, req) = (&b, &req);
            s.spawn(move || {
                for round in 0..6 {
                    let input = values(n, 10 * t + round);
                    half.copy_from_slice(&input);
                    b.run(req, Samples::I32(half)).unwrap();
                    assert!(
                        *half == reference(req, &input)[..],
                        "thread {t}, round {round}"
                    );
                }
            });
        }
    });
}

/// Three rounds over page-locked memory `host`, through a plan (rounds 0 and 2) and the backend
/// (round 1): each exact, `host` still locked after, and nothing locked by the copies.
fn rounds_on_locked_memory(b: &CudaBackend, req: &Request, host: &mut [i32]) {
    let plan = Plan::builder(b, req.wavelet, &req.shape)
        .levels(req.levels)
        .element(ElementType::I32)
        .build()
        .unwrap();
    for round in 0..3 {
        let input = values(host.len(), round);
        host.copy_from_slice(&input);
        let before = dwt_cuda::host_bytes_locked();
        if round == 1 {
            b.run(req, Samples::I32(&mut *host)).unwrap();
        } else {
            plan.execute(&mut *host).unwrap();
        }
        assert_eq!(dwt_cuda::host_bytes_locked(), before, "round {round}");
        assert!(*host == reference(req, &input)[..], "round {round}");
        assert!(locked(host.as_ptr()), "round {round}: the lock was undone");
    }
}

/// Memory the caller page-locked is transformed where it is and stays locked.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn memory_the_caller_locked_stays_locked() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request(&[1024, 1536], 3);
    // SAFETY: every element is written before it is read.
    let mut pinned = unsafe { b.context().alloc_pinned_with_flags::<i32>(1024 * 1536, 0) }.unwrap();
    rounds_on_locked_memory(&b, &req, pinned.as_mut_slice().unwrap());
}

/// A host buffer of the backend (page-locked memory, zeroed) transforms exactly without
/// locking anything more; sizes it cannot hold are an error.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn host_buffers_transform_without_locking() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request(&[1080, 1920], 3);
    let mut buffer = b.host_buffer::<i32>(1080 * 1920).unwrap();
    assert_eq!(buffer.len(), 1080 * 1920);
    assert!(buffer.iter().all(|&v| v == 0));
    rounds_on_locked_memory(&b, &req, &mut buffer);
    assert!(b.host_buffer::<f64>(0).unwrap().is_empty());
    assert!(b.host_buffer::<f64>(usize::MAX / 4).is_err());
}
