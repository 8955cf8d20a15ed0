//! Where an OpenCL transform's time goes besides its kernels and copies, on whatever device
//! there is: `run_on_device` of LeGall 5/3 three levels at 1920x1080 i32 (the whole call), and
//! alone each thing such a call makes afresh: a queue (made, finished, dropped), a device buffer
//! of the image's size (made, written once, dropped), a kernel object with its arguments (made
//! and enqueued, per launch), and the same enqueue on one kernel object kept. Wall clock, median
//! of many after warm-up; a markdown table.
use std::time::Instant;

use dwt_ir::{Direction, Layout};
use dwt_opencl::OpenClBackend;
use dwt_runtime::{Backend, Request};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn us(reps: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..5 {
        f();
    }
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e6
            })
            .collect(),
    )
}

const PROBE: &str =
    "__kernel void probe(__global int *a, __global const int *b, __global int *c, int n, int m) {
    size_t i = get_global_id(0);
    if (i < (size_t)n) a[i] = b[i] + c[i] + m;
}";

fn main() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    println!("device: {}", b.device());
    let (h, w) = (1080usize, 1920usize);
    let n = h * w;
    let wavelet = dwt_catalogue::by_name("LeGall53").unwrap();
    let req = Request {
        wavelet,
        direction: Direction::Forward,
        shape: vec![h, w],
        levels: 3,
        layout: Layout::Mallat,
    };
    let queue = b.queue().unwrap();
    let data = ocl::Buffer::<i32>::builder()
        .queue(queue.clone())
        .len(n)
        .fill_val(7)
        .build()
        .unwrap();
    let whole = us(200, || b.run_on_device(&req, &data).unwrap());
    let host: Vec<i32> = vec![3; n];
    let made_queue = us(200, || {
        let q = b.queue().unwrap();
        q.finish().unwrap();
    });
    let made_buffer = us(200, || {
        let buf = ocl::Buffer::<i32>::builder()
            .queue(queue.clone())
            .len(n)
            .build()
            .unwrap();
        buf.cmd().fill(0, None).enq().unwrap();
        queue.finish().unwrap();
    });
    let kept_buffer = us(200, || {
        data.cmd().fill(0, None).enq().unwrap();
        queue.finish().unwrap();
    });
    let program = b.build(PROBE).unwrap();
    let small = ocl::Buffer::<i32>::builder()
        .queue(queue.clone())
        .len(256)
        .copy_host_slice(&host[..256])
        .build()
        .unwrap();
    let make_kernel = || {
        ocl::Kernel::builder()
            .program(&program)
            .name("probe")
            .queue(queue.clone())
            .global_work_size(256)
            .arg(&small)
            .arg(&small)
            .arg(&small)
            .arg(256i32)
            .arg(1i32)
            .build()
            .unwrap()
    };
    let made_kernel = us(500, || {
        let k = make_kernel();
        unsafe { k.enq() }.unwrap();
        queue.finish().unwrap();
    });
    let kept = make_kernel();
    let kept_kernel = us(500, || {
        kept.set_arg(0, &small).unwrap();
        kept.set_arg(3, 256i32).unwrap();
        unsafe { kept.enq() }.unwrap();
        queue.finish().unwrap();
    });
    let launches = {
        let config = b.config().for_request(
            wavelet,
            Direction::Forward,
            dwt_ir::ElementType::I32,
            &[h, w],
        );
        let module = dwt_emit_c::emit_module(
            &dwt_emit_c::OpenCl,
            wavelet,
            Direction::Forward,
            dwt_ir::ElementType::I32,
            Layout::Mallat,
            &config,
        )
        .unwrap();
        let plan = dwt_emit_c::plan(&module, &[h, w], 3).unwrap();
        (
            plan.steps.len(),
            plan.scratch,
            plan.reads_source,
            plan.source_may_be_data,
        )
    };
    println!("| what | us |");
    println!("|---|---|");
    println!("| run_on_device, LeGall 5/3 {h}x{w} i32 three levels (steps, scratch, reads source, source may be data: {launches:?}) | {whole:.1} |");
    println!("| a queue made, finished, dropped | {made_queue:.1} |");
    println!("| a buffer of {n} i32 made, filled, finished, dropped | {made_buffer:.1} |");
    println!("| the same fill of a buffer kept | {kept_buffer:.1} |");
    println!("| a kernel made with 5 arguments, enqueued, finished | {made_kernel:.1} |");
    println!("| one kept kernel, 2 arguments set, enqueued, finished | {kept_kernel:.1} |");
}
