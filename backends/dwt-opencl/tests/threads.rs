//! Threads sharing one OpenCL backend value and its plans, as a pool over video frames does
//! (on PoCL in CI: small sizes, bounded counts). Every result against the CPU reference.

use dwt_ir::{ElementType, Layout};
use dwt_opencl::OpenClBackend;
use dwt_runtime::{cpu, DwtError, KernelOrigin, Plan};

const THREADS: usize = 8;
const FRAMES: usize = 4;

/// 8-bit pixels, different per thread and frame.
fn pixels(n: usize, t: usize, f: usize) -> Vec<i32> {
    (0..n)
        .map(|i| ((i * 7919 + t * 104729 + f * 31) % 256) as i32)
        .collect()
}

/// Two plans (LeGall 5/3 i16 on 48x64, Haar i32 on 33x17) shared by 8 threads, 4 frames each
/// (64 transforms), while a ninth thread hands a plan a buffer of the wrong length 8 times:
/// those fail with `BufferLength`, every other result is the CPU reference's, bit for bit.
#[test]
fn threads_sharing_plans_of_one_backend_match_the_reference() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    let legall = dwt_catalogue::by_name("LeGall53").unwrap();
    let haar = dwt_catalogue::by_name("HaarNoShift").unwrap();
    let plan = |w, shape: &[usize], element| {
        Plan::builder(&b, w, shape)
            .levels(2)
            .element(element)
            .build()
            .unwrap()
    };
    let (a, c) = (
        plan(legall, &[48, 64], ElementType::I16),
        plan(haar, &[33, 17], ElementType::I32),
    );
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (a, c) = (&a, &c);
            s.spawn(move || {
                for f in 0..FRAMES {
                    if t % 2 == 0 {
                        let host: Vec<i16> =
                            pixels(48 * 64, t, f).iter().map(|&v| v as i16).collect();
                        let mut want = host.clone();
                        cpu::forward(legall, &mut want, &[48, 64], 2, Layout::Mallat).unwrap();
                        let mut data = host;
                        a.execute(&mut data).unwrap();
                        assert!(data == want, "thread {t}, frame {f}");
                    } else {
                        let host = pixels(33 * 17, t, f);
                        let mut want = host.clone();
                        cpu::forward(haar, &mut want, &[33, 17], 2, Layout::Mallat).unwrap();
                        let mut data = host;
                        c.execute(&mut data).unwrap();
                        assert!(data == want, "thread {t}, frame {f}");
                    }
                }
            });
        }
        s.spawn(|| {
            for _ in 0..8 {
                let e = c.execute(&mut vec![0i32; 33 * 17 - 1]).unwrap_err();
                assert!(matches!(e, DwtError::BufferLength { .. }), "{e}");
            }
        });
    });
}

/// 8 threads building plans of one request no other test builds, at once, each on a backend
/// value of its own: each kernel is built (or loaded from the disk cache) by one of them, the
/// others find it in memory, and every plan transforms as the CPU reference does.
#[test]
fn plans_of_one_new_request_built_at_once_build_each_kernel_once() {
    let w = dwt_ir::parse_str(
        "wavelet OpenClThreadsBuiltAtOnce {\n    odd -= (even[0] + even[1] + 1) >> 1;\n    even += (odd[-1] + odd[0] + 2) >> 2;\n}",
    )
    .unwrap()
    .remove(0);
    let shape = [21usize, 30];
    let reports: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let w = &w;
                s.spawn(move || {
                    let b = OpenClBackend::new().unwrap();
                    let plan = Plan::builder(&b, w, &shape).levels(2).build().unwrap();
                    let host = pixels(21 * 30, t, 0);
                    let mut want = host.clone();
                    cpu::forward(w, &mut want, &shape, 2, Layout::Mallat).unwrap();
                    let mut data = host;
                    plan.execute(&mut data).unwrap();
                    assert!(data == want, "thread {t}");
                    plan.report().clone()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (i, module) in reports[0].modules.iter().enumerate() {
        let built = reports
            .iter()
            .filter(|r| r.modules[i].origin != KernelOrigin::Memory)
            .count();
        assert_eq!(built, 1, "{:?}: {reports:?}", module.kernels);
    }
}
