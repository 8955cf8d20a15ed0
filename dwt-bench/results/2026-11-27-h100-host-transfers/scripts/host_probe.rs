//! Probe: where a host transform's time goes on CUDA (`Backend::run` on a host slice) against
//! the bare transfers: pageable, with the slice registered (whole or in chunks overlapping the
//! DMA), and through pinned staging buffers filled by several threads.
use std::time::Instant;

use cudarc::driver::sys;
use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, Layout};
use dwt_runtime::{Backend, Request, Samples};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    f();
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

fn ok(r: sys::CUresult) {
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
}

fn main() {
    let b = CudaBackend::new().expect("a CUDA device");
    let ctx = b.context().clone();
    let stream = b.stream();
    let cs = stream.cu_stream();
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    println!("| shape | MB | run | pageable | reg whole | reg alone | unreg alone | reg chunks 4MB | reg chunks 16MB | staged 4 thr 8MB | staged 8 thr 8MB | dma pinned |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &(h, wd, reps) in &[
        (1080usize, 1920usize, 50usize),
        (4096, 4096, 20),
        (8192, 8192, 10),
    ] {
        let n = h * wd;
        let bytes = n * 4;
        let mut data: Vec<i32> = (0..n).map(|i| (i % 251) as i32).collect();
        let req = Request {
            wavelet: w,
            direction: Direction::Forward,
            shape: vec![h, wd],
            levels: 3,
            layout: Layout::Mallat,
        };
        let run = time(reps, || b.run(&req, Samples::I32(&mut data)).unwrap());
        let mut dev = stream.clone_htod(&data).unwrap();
        let dptr = {
            let (p, _g) = cudarc::driver::DevicePtrMut::device_ptr_mut(&mut dev, &stream);
            p
        };
        let pageable = time(reps, || {
            stream.memcpy_htod(&data, &mut dev).unwrap();
            stream.memcpy_dtoh(&dev, &mut data).unwrap();
            stream.synchronize().unwrap();
        });
        let hptr = data.as_mut_ptr() as *mut u8;
        let whole = time(reps, || unsafe {
            ok(sys::cuMemHostRegister_v2(hptr as _, bytes, 0));
            ok(sys::cuMemcpyHtoDAsync_v2(dptr, hptr as _, bytes, cs));
            ok(sys::cuMemcpyDtoHAsync_v2(hptr as _, dptr, bytes, cs));
            ok(sys::cuStreamSynchronize(cs));
            ok(sys::cuMemHostUnregister(hptr as _));
        });
        let mut regs = vec![];
        let mut unregs = vec![];
        for _ in 0..reps {
            let t = Instant::now();
            unsafe { ok(sys::cuMemHostRegister_v2(hptr as _, bytes, 0)) };
            regs.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            unsafe { ok(sys::cuMemHostUnregister(hptr as _)) };
            unregs.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let chunked = |chunk: usize| {
            time(reps, || unsafe {
                let mut at = 0;
                while at < bytes {
                    let len = chunk.min(bytes - at);
                    ok(sys::cuMemHostRegister_v2(hptr.add(at) as _, len, 0));
                    ok(sys::cuMemcpyHtoDAsync_v2(
                        dptr + at as u64,
                        hptr.add(at) as _,
                        len,
                        cs,
                    ));
                    at += len;
                }
                let mut at = 0;
                while at < bytes {
                    let len = chunk.min(bytes - at);
                    ok(sys::cuMemcpyDtoHAsync_v2(
                        hptr.add(at) as _,
                        dptr + at as u64,
                        len,
                        cs,
                    ));
                    at += len;
                }
                ok(sys::cuStreamSynchronize(cs));
                let mut at = 0;
                while at < bytes {
                    let len = chunk.min(bytes - at);
                    ok(sys::cuMemHostUnregister(hptr.add(at) as _));
                    at += len;
                }
            })
        };
        let c4 = chunked(4 << 20);
        let c16 = chunked(16 << 20);
        // Two pinned staging buffers of `chunk` bytes, filled by `threads` threads, each DMA'd
        // while the other fills; then back the same way.
        let staged = |threads: usize, chunk: usize| {
            let mut bufs: Vec<_> = (0..2)
                .map(|_| unsafe { ctx.alloc_pinned_with_flags::<u8>(chunk, 0) }.unwrap())
                .collect();
            let ptrs: Vec<usize> = bufs
                .iter_mut()
                .map(|p| p.as_mut_ptr().unwrap() as usize)
                .collect();
            let evs: Vec<sys::CUevent> = (0..2)
                .map(|_| unsafe {
                    let mut e = std::ptr::null_mut();
                    ok(sys::cuEventCreate(&mut e, 2));
                    e
                })
                .collect();
            let par_copy = |dst: usize, src: usize, len: usize| {
                let part = len.div_ceil(threads);
                std::thread::scope(|s| {
                    for t in 0..threads {
                        let a = t * part;
                        if a >= len {
                            break;
                        }
                        let l = part.min(len - a);
                        s.spawn(move || unsafe {
                            std::ptr::copy_nonoverlapping(
                                (src + a) as *const u8,
                                (dst + a) as *mut u8,
                                l,
                            )
                        });
                    }
                });
            };
            let r = time(reps, || unsafe {
                let hp = hptr as usize;
                let mut at = 0;
                let mut k = 0;
                while at < bytes {
                    let len = chunk.min(bytes - at);
                    ok(sys::cuEventSynchronize(evs[k % 2]));
                    par_copy(ptrs[k % 2], hp + at, len);
                    ok(sys::cuMemcpyHtoDAsync_v2(
                        dptr + at as u64,
                        ptrs[k % 2] as _,
                        len,
                        cs,
                    ));
                    ok(sys::cuEventRecord(evs[k % 2], cs));
                    at += len;
                    k += 1;
                }
                let mut at = 0;
                let mut pending: Option<(usize, usize, usize)> = None;
                let mut k = 0;
                while at < bytes {
                    let len = chunk.min(bytes - at);
                    ok(sys::cuMemcpyDtoHAsync_v2(
                        ptrs[k % 2] as _,
                        dptr + at as u64,
                        len,
                        cs,
                    ));
                    ok(sys::cuEventRecord(evs[k % 2], cs));
                    if let Some((pk, pat, plen)) = pending.take() {
                        ok(sys::cuEventSynchronize(evs[pk % 2]));
                        par_copy(hp + pat, ptrs[pk % 2], plen);
                    }
                    pending = Some((k, at, len));
                    at += len;
                    k += 1;
                }
                if let Some((pk, pat, plen)) = pending {
                    ok(sys::cuEventSynchronize(evs[pk % 2]));
                    par_copy(hp + pat, ptrs[pk % 2], plen);
                }
            });
            drop(bufs);
            r
        };
        let s4 = staged(4, 8 << 20);
        let s8 = staged(8, 8 << 20);
        let pinned = unsafe { ctx.alloc_pinned_with_flags::<u8>(bytes, 0) }.unwrap();
        let pp = pinned.as_ptr().unwrap() as usize;
        let dma = time(reps, || unsafe {
            ok(sys::cuMemcpyHtoDAsync_v2(dptr, pp as _, bytes, cs));
            ok(sys::cuMemcpyDtoHAsync_v2(pp as _, dptr, bytes, cs));
            ok(sys::cuStreamSynchronize(cs));
        });
        println!("| {h}x{wd} | {:.1} | {run:.3} | {pageable:.3} | {whole:.3} | {:.3} | {:.3} | {c4:.3} | {c16:.3} | {s4:.3} | {s8:.3} | {dma:.3} |", bytes as f64 / 1e6, median(regs), median(unregs));
    }
}
