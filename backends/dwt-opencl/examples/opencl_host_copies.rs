//! Probe: ways to move a host slice to an OpenCL device and back (what a host transform's
//! copies cost): a buffer created from the slice (`CL_MEM_COPY_HOST_PTR`, as `run` does) and
//! read back; a new uninitialised buffer per call written and read; an existing one written
//! and read; a pinned staging buffer
//! (`CL_MEM_ALLOC_HOST_PTR`, mapped, filled by the CPU) copied to and from a device buffer.
//! Wall clock, medians. A markdown table.
use std::time::Instant;

use dwt_opencl::OpenClBackend;
use dwt_runtime::Backend;
use ocl::{flags::MemFlags, Buffer};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn time(reps: usize, mut f: impl FnMut()) -> f64 {
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

fn main() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    println!("device: {}", b.device());
    println!(
        "| MB | from the slice + read | new buffer, write + read | write + read | pinned staging |"
    );
    println!("|---|---|---|---|---|");
    for &(n, reps) in &[
        (1080usize * 1920, 30usize),
        (4096 * 4096, 10),
        (8192 * 8192, 5),
    ] {
        let q = b.queue().unwrap();
        let mut data: Vec<i32> = (0..n).map(|i| (i % 251) as i32).collect();
        let from_slice = time(reps, || {
            let buf = Buffer::<i32>::builder()
                .queue(q.clone())
                .len(n)
                .copy_host_slice(&data)
                .build()
                .unwrap();
            buf.read(&mut data).enq().unwrap();
            q.finish().unwrap();
        });
        let fresh_write = time(reps, || {
            let buf = Buffer::<i32>::builder()
                .queue(q.clone())
                .len(n)
                .build()
                .unwrap();
            buf.write(&data).enq().unwrap();
            buf.read(&mut data).enq().unwrap();
            q.finish().unwrap();
        });
        let dev = Buffer::<i32>::builder()
            .queue(q.clone())
            .len(n)
            .build()
            .unwrap();
        let write_read = time(reps, || {
            dev.write(&data).enq().unwrap();
            dev.read(&mut data).enq().unwrap();
            q.finish().unwrap();
        });
        let pinned = Buffer::<i32>::builder()
            .queue(q.clone())
            .flags(MemFlags::new().alloc_host_ptr().read_write())
            .len(n)
            .build()
            .unwrap();
        let staged = time(reps, || {
            let mut map = unsafe { pinned.map().write_invalidate().enq().unwrap() };
            map.copy_from_slice(&data);
            map.unmap().enq().unwrap();
            pinned.copy(&dev, None, None).enq().unwrap();
            dev.copy(&pinned, None, None).enq().unwrap();
            let mut map = unsafe { pinned.map().read().enq().unwrap() };
            data.copy_from_slice(&map);
            map.unmap().enq().unwrap();
            q.finish().unwrap();
        });
        println!(
            "| {:.1} | {from_slice:.3} ms | {fresh_write:.3} ms | {write_read:.3} ms | {staged:.3} ms |",
            (n * 4) as f64 / 1e6
        );
    }
}
