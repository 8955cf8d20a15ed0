//! Plans on the CPU reference and on a backend that counts what it is asked to do.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use dwt_runtime::growth::InputRange;
use dwt_runtime::{
    cpu, Backend, CpuBackend, Direction, DwtError, ElementType, FrameFailure, KernelOrigin, Layout,
    ModuleReport, Plan, PrepareReport, Prepared, PreparedTransform, Registry, Request, Samples,
};
use ndarray::{Array, ArrayD, IxDyn};

fn legall() -> &'static dwt_ir::Wavelet {
    dwt_catalogue::by_name("LeGall53").unwrap()
}

fn ramp(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| (i * 37 + 11) % 256).collect()
}

fn reference(shape: &[usize], levels: u32, layout: Layout, data: &[i32]) -> Vec<i32> {
    let mut out = data.to_vec();
    cpu::forward(legall(), &mut out, shape, levels, layout).unwrap();
    out
}

#[test]
fn executed_twice_gives_the_reference_both_times() {
    for (shape, levels) in [(vec![37usize], 3u32), (vec![12, 17], 2), (vec![5, 6, 7], 2)] {
        for layout in [Layout::Mallat, Layout::Interleaved] {
            let plan = Plan::builder(&CpuBackend, legall(), &shape)
                .levels(levels)
                .layout(layout)
                .build()
                .unwrap();
            let input = ramp(shape.iter().product());
            let want = reference(&shape, levels, layout, &input);
            for _ in 0..2 {
                let mut data = input.clone();
                plan.execute(&mut data).unwrap();
                assert_eq!(data, want, "{shape:?} {levels} {layout:?}");
            }
        }
    }
}

#[test]
fn inverse_plan_round_trips() {
    let shape = [9, 14];
    let fwd = Plan::new(
        &CpuBackend,
        legall(),
        &shape,
        3,
        Direction::Forward,
        Layout::Mallat,
        ElementType::I16,
    )
    .unwrap();
    let inv = Plan::builder(&CpuBackend, legall(), &shape)
        .levels(3)
        .direction(Direction::Inverse)
        .element(ElementType::I16)
        .build()
        .unwrap();
    let orig: Vec<i16> = ramp(9 * 14).into_iter().map(|v| v as i16).collect();
    let mut data = orig.clone();
    fwd.execute(&mut data).unwrap();
    assert_ne!(data, orig);
    inv.execute(&mut data[..]).unwrap();
    assert_eq!(data, orig);
}

#[test]
fn ndarray_views_equal_slices() {
    let shape = [6usize, 10];
    let plan = Plan::builder(&CpuBackend, legall(), &shape)
        .levels(2)
        .build()
        .unwrap();
    let input = ramp(60);
    let mut slice = input.clone();
    plan.execute(&mut slice).unwrap();

    let mut owned = Array::from_shape_vec((6, 10), input.clone()).unwrap();
    plan.execute(&mut owned).unwrap();
    assert_eq!(owned.as_slice().unwrap(), &slice[..]);

    let mut dynamic = ArrayD::from_shape_vec(IxDyn(&shape), input.clone()).unwrap();
    plan.execute(dynamic.view_mut()).unwrap();
    assert_eq!(dynamic.as_slice().unwrap(), &slice[..]);

    // 3-D, through a mutable view of a sub-array that is contiguous.
    let plan3 = Plan::builder(&CpuBackend, legall(), &[2, 3, 10])
        .levels(1)
        .build()
        .unwrap();
    let mut big = Array::from_shape_vec((4, 3, 10), ramp(120)).unwrap();
    let mut want = ramp(120)[..60].to_vec();
    plan3.execute(&mut want).unwrap();
    plan3
        .execute(big.slice_mut(ndarray::s![..2, .., ..]))
        .unwrap();
    assert_eq!(&big.as_slice().unwrap()[..60], &want[..]);
    assert_eq!(
        &big.as_slice().unwrap()[60..],
        &ramp(120)[60..],
        "untouched"
    );
}

#[test]
fn wrong_data_is_an_error() {
    let plan = Plan::builder(&CpuBackend, legall(), &[6, 10])
        .build()
        .unwrap();
    // The right length in the wrong shape.
    let mut a = Array::from_shape_vec((10, 6), ramp(60)).unwrap();
    let e = plan.execute(&mut a).unwrap_err();
    assert!(matches!(e, DwtError::ShapeMismatch { .. }), "{e}");
    assert!(e.to_string().contains("[10, 6]"), "{e}");
    // Not in standard layout.
    let mut t = Array::from_shape_vec((10, 6), ramp(60)).unwrap();
    let e = plan.execute(t.view_mut().reversed_axes()).unwrap_err();
    assert!(matches!(e, DwtError::NotStandardLayout { .. }), "{e}");
    // Wrong length, wrong element type.
    assert!(matches!(
        plan.execute(&mut vec![0i32; 59]),
        Err(DwtError::BufferLength { .. })
    ));
    assert!(matches!(
        plan.execute(&mut vec![0f32; 60]),
        Err(DwtError::ElementMismatch { .. })
    ));
}

#[test]
fn bad_configurations_fail_at_construction() {
    let build = |shape: &[usize], levels: u32| {
        Plan::builder(&CpuBackend, legall(), shape)
            .levels(levels)
            .build()
            .map(|_| ())
    };
    assert!(matches!(
        build(&[8, 8], 4),
        Err(DwtError::TooManyLevels { .. })
    ));
    assert!(matches!(build(&[8, 0], 1), Err(DwtError::EmptyAxis { .. })));
    assert!(matches!(
        build(&[2, 2, 2, 2], 1),
        Err(DwtError::Dimensions { .. })
    ));
    assert!(matches!(build(&[], 1), Err(DwtError::Dimensions { .. })));
    // The wrong kind of element for the wavelet.
    assert!(matches!(
        Plan::builder(&CpuBackend, legall(), &[8])
            .element(ElementType::F32)
            .build(),
        Err(DwtError::KindMismatch { .. })
    ));
    // Bit growth: 16-bit input does not fit i16 after a level; allowed on request.
    let wide = || {
        Plan::builder(&CpuBackend, legall(), &[64, 64])
            .levels(3)
            .element(ElementType::I16)
            .input_range(InputRange::unsigned(16).unwrap())
    };
    assert!(matches!(wide().build(), Err(DwtError::BitGrowth { .. })));
    let p = wide().allow_overflow(true).build().unwrap();
    assert!(p.growth().contains("overflow allowed"), "{}", p.growth());
    // Rows take a 2-D shape, and levels count against the row length.
    for shape in [&[4usize, 4, 4][..], &[8]] {
        let e = Plan::builder(&CpuBackend, legall(), shape)
            .rows()
            .build()
            .unwrap_err();
        assert_eq!(
            e,
            DwtError::RowsShape {
                shape: shape.to_vec()
            }
        );
        assert!(e.to_string().contains("takes the shape [rows, n]"), "{e}");
    }
    // The error names the caller's batch, not only the row's `[4]` (it said "3 levels is too
    // many for shape [4]" of a plan built for `[100, 4]`).
    let e = Plan::builder(&CpuBackend, legall(), &[100, 4])
        .rows()
        .levels(3)
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        DwtError::Row {
            shape: vec![100, 4],
            error: Box::new(DwtError::TooManyLevels {
                shape: vec![4],
                levels: 3,
                max: 2
            })
        }
    );
    assert_eq!(
        e.to_string(),
        "each row of the batch of shape [100, 4] is a line of 4 samples transformed on its own: \
         3 levels is too many for shape [4]: it supports at most 2 (each level halves every axis \
         longer than 1)"
    );
    let mut periodic = legall().clone();
    periodic.boundary = dwt_ir::Boundary::Periodic;
    let e = Plan::builder(&CpuBackend, &periodic, &[5, 6])
        .rows()
        .levels(2)
        .build()
        .unwrap_err();
    assert!(
        matches!(&e, DwtError::Row { shape, error } if shape == &[5, 6] && matches!(**error, DwtError::PeriodicOddLength { len: 3, .. })),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("each row of the batch of shape [5, 6]"),
        "{e}"
    );
}

#[test]
fn rows_are_independent_1d_transforms() {
    let (rows, n) = (5usize, 21usize);
    let plan = Plan::builder(&CpuBackend, legall(), &[rows, n])
        .rows()
        .levels(3)
        .build()
        .unwrap();
    assert!(plan.is_rows());
    let input = ramp(rows * n);
    let mut want = input.clone();
    for row in want.chunks_mut(n) {
        cpu::forward(legall(), row, &[n], 3, Layout::Mallat).unwrap();
    }
    let mut data = Array::from_shape_vec((rows, n), input).unwrap();
    plan.execute(&mut data).unwrap();
    assert_eq!(data.as_slice().unwrap(), &want[..]);
}

/// Counts prepares and runs; its prepared transform runs the reference.
#[derive(Default)]
struct Counting {
    prepares: AtomicUsize,
    runs: AtomicUsize,
    prepared_runs: Arc<AtomicUsize>,
}

struct CountingPrepared {
    request: (dwt_ir::Wavelet, Direction, Vec<usize>, u32, Layout),
    runs: Arc<AtomicUsize>,
}

impl PreparedTransform for CountingPrepared {
    fn run(&self, data: Samples) -> Result<(), DwtError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let (w, direction, shape, levels, layout) = &self.request;
        let r = Request {
            wavelet: w,
            direction: *direction,
            shape: shape.clone(),
            levels: *levels,
            layout: *layout,
        };
        CpuBackend.run(&r, data)
    }
}

impl Backend for Counting {
    fn name(&self) -> &str {
        "counting"
    }
    fn device(&self) -> String {
        "a counter".into()
    }
    fn run(&self, r: &Request, data: Samples) -> Result<(), DwtError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        CpuBackend.run(r, data)
    }
    fn prepare(&self, r: &Request, element: ElementType) -> Result<Prepared, DwtError> {
        self.prepares.fetch_add(1, Ordering::SeqCst);
        assert_eq!(element, ElementType::I32);
        Ok(Prepared {
            report: PrepareReport {
                modules: vec![ModuleReport {
                    kernels: vec!["k".into()],
                    origin: KernelOrigin::Compiled,
                    time: std::time::Duration::from_millis(3),
                }],
                tuning: None,
                cache_warnings: Vec::new(),
            },
            transform: Some(Box::new(CountingPrepared {
                request: (
                    r.wavelet.clone(),
                    r.direction,
                    r.shape.clone(),
                    r.levels,
                    r.layout,
                ),
                runs: self.prepared_runs.clone(),
            })),
        })
    }
}

#[test]
fn prepares_once_and_runs_the_prepared_transform() {
    let backend = Counting::default();
    let plan = Plan::builder(&backend, legall(), &[8, 8])
        .levels(2)
        .build()
        .unwrap();
    assert_eq!(plan.report().origin(), Some(KernelOrigin::Compiled));
    assert!(plan.report().compiled());
    assert_eq!(plan.report().kernels(), 1);
    assert!(
        plan.report()
            .to_string()
            .starts_with("1 kernel (k) from compiled"),
        "{}",
        plan.report()
    );
    let input = ramp(64);
    for _ in 0..3 {
        let mut d = input.clone();
        plan.execute(&mut d).unwrap();
        assert_eq!(d, reference(&[8, 8], 2, Layout::Mallat, &input));
    }
    assert_eq!(backend.prepares.load(Ordering::SeqCst), 1);
    assert_eq!(backend.runs.load(Ordering::SeqCst), 0);
    assert_eq!(backend.prepared_runs.load(Ordering::SeqCst), 3);
    // A bad configuration never reaches the backend.
    assert!(Plan::builder(&backend, legall(), &[8, 8])
        .levels(9)
        .build()
        .is_err());
    assert_eq!(backend.prepares.load(Ordering::SeqCst), 1);
}

#[test]
fn shared_backends_from_the_registry() {
    let registry = Registry::with_builtins();
    let backend: Arc<dyn Backend> = registry.select("cpu").unwrap().backend;
    let plan: Plan<'static> = Plan::builder(backend, legall(), &[16])
        .levels(4)
        .build()
        .unwrap();
    assert_eq!(plan.backend().name(), "cpu");
    assert_eq!(plan.report(), &PrepareReport::default());
    assert_eq!(plan.report().to_string(), "nothing to build");
    let mut d = ramp(16);
    plan.execute(&mut d).unwrap();
    assert_eq!(d, reference(&[16], 4, Layout::Mallat, &ramp(16)));
    // Plans move across threads.
    std::thread::spawn(move || {
        let mut d = ramp(16);
        plan.execute(&mut d).unwrap();
    })
    .join()
    .unwrap();
    // A borrowed trait object works too.
    let dynamic: &dyn Backend = &CpuBackend;
    assert!(Plan::builder(dynamic, legall(), &[16]).build().is_ok());
}

/// Float data gets what the arithmetic gives unless the plan checks it: then NaN or infinite
/// input is refused untouched, and a transform that overflows is an error that puts the input
/// back.
#[test]
fn non_finite_float_data() {
    let cdf = dwt_catalogue::by_name("Cdf97").unwrap();
    let shape = [8usize, 8];
    let plan = |check: bool, element: ElementType| {
        Plan::builder(&CpuBackend, cdf, &shape)
            .levels(2)
            .element(element)
            .check_finite(check)
            .build()
            .unwrap()
    };
    let mut nan = vec![1.0f32; 64];
    nan[10] = f32::NAN;
    nan[20] = f32::INFINITY;
    // Unchecked (the default): the NaN spreads, no error.
    let unchecked = plan(false, ElementType::F32);
    assert!(!unchecked.checks_finite());
    let mut d = nan.clone();
    unchecked.execute(&mut d).unwrap();
    assert!(d.iter().filter(|x| x.is_nan()).count() > 2);

    let checked = plan(true, ElementType::F32);
    assert!(checked.checks_finite());
    let mut d = nan.clone();
    let e = checked.execute(&mut d).unwrap_err();
    assert_eq!(
        e,
        DwtError::NonFiniteInput {
            count: 2,
            index: 10,
            value: "NaN".into()
        }
    );
    assert!(
        e.to_string().contains("replace them with finite values"),
        "{e}"
    );
    assert_eq!(d[..10], nan[..10]);
    assert!(d[10].is_nan() && d[20] == f32::INFINITY, "input untouched");

    // Finite input whose transform overflows f32 (the filters' gain past 3.4e38).
    let big: Vec<f32> = (0..64)
        .map(|i| if (i + i / 8) % 2 == 0 { 3e38 } else { -3e38 })
        .collect();
    let mut d = big.clone();
    unchecked.execute(&mut d).unwrap();
    assert!(d.iter().any(|x| !x.is_finite()), "the arithmetic overflows");
    let mut d = big.clone();
    let e = checked.execute(&mut d).unwrap_err();
    assert!(
        matches!(
            &e,
            DwtError::NonFiniteOutput {
                element: "f32",
                direction: Direction::Forward,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("use f64 data"), "{e}");
    assert_eq!(d, big, "the input put back");
    // The same values in f64 do not overflow; a checked plan returns them.
    let mut wide: Vec<f64> = big.iter().map(|&x| x as f64).collect();
    plan(true, ElementType::F64).execute(&mut wide).unwrap();
    assert!(wide.iter().all(|x| x.is_finite()));
    // Integer plans accept the flag and never refuse.
    let mut ints = ramp(64);
    Plan::builder(&CpuBackend, legall(), &shape)
        .check_finite(true)
        .build()
        .unwrap()
        .execute(&mut ints)
        .unwrap();
    // Batches of rows are checked as a whole.
    let rows = Plan::builder(&CpuBackend, cdf, &[4, 16])
        .rows()
        .levels(2)
        .check_finite(true)
        .build()
        .unwrap();
    let mut d = vec![0.5f32; 64];
    d[63] = f32::NEG_INFINITY;
    assert!(matches!(
        rows.execute(&mut d),
        Err(DwtError::NonFiniteInput {
            count: 1,
            index: 63,
            ..
        })
    ));
}

/// A backend whose `run` and `prepare` do what a test says.
struct Scripted<R, P> {
    name: &'static str,
    run: R,
    prepare: P,
}

impl<R, P> Backend for Scripted<R, P>
where
    R: Fn(Samples) -> Result<(), DwtError> + Send + Sync,
    P: Fn() -> Result<Prepared, DwtError> + Send + Sync,
{
    fn name(&self) -> &str {
        self.name
    }
    fn device(&self) -> String {
        "nothing".into()
    }
    fn run(&self, _: &Request, data: Samples) -> Result<(), DwtError> {
        (self.run)(data)
    }
    fn prepare(&self, _: &Request, _: ElementType) -> Result<Prepared, DwtError> {
        (self.prepare)()
    }
}

/// A user's backend that panics fails the plan's call with an error naming it, as one returning
/// an error does, never a panic through the plan.
#[test]
fn a_panicking_backend_is_an_error() {
    let panics_preparing = Scripted {
        name: "panicking",
        run: |_: Samples| Ok(()),
        prepare: || panic!("prepare exploded at {}", 42),
    };
    let e = Plan::builder(&panics_preparing, legall(), &[8])
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "backend `panicking` failed while running: it panicked while preparing the transform: prepare exploded at 42"
    );
    let backend = Scripted {
        name: "panicking",
        run: |_: Samples| panic!("run exploded"),
        prepare: || Ok(Prepared::default()),
    };
    let plan = Plan::builder(&backend, legall(), &[8]).build().unwrap();
    let e = plan.execute(&mut ramp(8)).unwrap_err();
    assert!(
        matches!(&e, DwtError::Device { backend, .. } if backend == "panicking"),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with(
            "it panicked while transforming: run exploded; the data may be partly transformed"
        ),
        "{e}"
    );
}

/// A batch whose backend fails at its second row: with `check_finite` (which holds a copy) the
/// data is put back and the error says so; without, the error says the data may be partly
/// transformed.
#[test]
fn a_failure_part_way_says_what_became_of_the_data() {
    let cdf53 = dwt_catalogue::by_name("Cdf53").unwrap();
    let input: Vec<f32> = (0..32).map(|i| i as f32).collect();
    for check in [true, false] {
        // Writes garbage into each row it is given, and fails at the second.
        let calls = AtomicUsize::new(0);
        let backend = Scripted {
            name: "fails-part-way",
            run: |data: Samples| {
                let Samples::F32(row) = data else {
                    unreachable!("f32 plans only")
                };
                row.fill(7.0);
                match calls.fetch_add(1, Ordering::SeqCst) {
                    0 => Ok(()),
                    _ => Err(DwtError::Device {
                        backend: "fails-part-way".into(),
                        message: "the device went away".into(),
                    }),
                }
            },
            prepare: || Ok(Prepared::default()),
        };
        let plan = Plan::builder(&backend, cdf53, &[4, 8])
            .rows()
            .element(ElementType::F32)
            .check_finite(check)
            .build()
            .unwrap();
        let mut data = input.clone();
        let e = plan.execute(&mut data).unwrap_err().to_string();
        if check {
            assert_eq!(data, input);
            assert!(
                e.ends_with("the device went away; the data is as it was"),
                "{e}"
            );
        } else {
            assert_eq!(data[..16], [7.0; 16]);
            assert!(e.ends_with("; the data may be partly transformed"), "{e}");
        }
    }
}

/// `execute_frames` gives each frame what `execute` gives it: on a backend without a prepared
/// transform (the CPU reference, `Backend::run` per frame) and through a prepared one, for
/// `Vec`s and ndarray arrays; no frames is no work.
#[test]
fn frames_are_transformed_as_execute_transforms_each() {
    let inputs: Vec<Vec<i32>> = (0..5)
        .map(|k| ramp(96).iter().map(|v| v * (k + 1) - 40).collect())
        .collect();
    let expected: Vec<Vec<i32>> = (inputs.iter())
        .map(|f| reference(&[8, 12], 2, Layout::Mallat, f))
        .collect();
    let counting = Counting::default();
    for backend in [&CpuBackend as &dyn Backend, &counting] {
        let plan = Plan::builder(backend, legall(), &[8, 12])
            .levels(2)
            .build()
            .unwrap();
        let mut frames = inputs.clone();
        plan.execute_frames(frames.iter_mut()).unwrap();
        assert_eq!(frames, expected, "{}", backend.name());
        let mut arrays: Vec<_> = (inputs.iter())
            .map(|f| Array::from_shape_vec((8, 12), f.clone()).unwrap())
            .collect();
        plan.execute_frames(arrays.iter_mut()).unwrap();
        for (a, e) in arrays.iter().zip(&expected) {
            assert_eq!(a.as_slice().unwrap(), &e[..], "{}", backend.name());
        }
        plan.execute_frames(Vec::<&mut [i32]>::new()).unwrap();
    }
    assert_eq!(counting.prepared_runs.load(Ordering::SeqCst), 10);
    assert_eq!(counting.runs.load(Ordering::SeqCst), 0);
}

/// A frame of the wrong length, shape or element type is refused before any frame moves: the
/// error names it and what is wrong, and every frame is as it was.
#[test]
fn a_frame_that_does_not_fit_leaves_every_frame_untouched() {
    let backend = Counting::default();
    let plan = Plan::builder(&backend, legall(), &[8, 12])
        .levels(2)
        .build()
        .unwrap();
    let mut frames = vec![ramp(96), ramp(96), ramp(95), ramp(96)];
    let before = frames.clone();
    let e = plan.execute_frames(frames.iter_mut()).unwrap_err();
    assert!(
        matches!(&e, DwtError::Frame { index: Some(2), count: 4, error, .. }
            if matches!(**error, DwtError::BufferLength { len: 95, needed: 96, .. })),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "frame 2 (counting from 0) of 4 failed: the buffer holds 95 elements but shape [8, 12] needs 96; pass a buffer of exactly that many elements; every frame is untouched (each is checked before any is transformed)"
    );
    assert_eq!(frames, before);
    let mut arrays = [
        Array::from_shape_vec((8, 12), ramp(96)).unwrap(),
        Array::from_shape_vec((12, 8), ramp(96)).unwrap(),
    ];
    let e = plan.execute_frames(arrays.iter_mut()).unwrap_err();
    assert!(
        matches!(&e, DwtError::Frame { index: Some(1), count: 2, error, .. }
            if matches!(**error, DwtError::ShapeMismatch { .. })),
        "{e:?}"
    );
    assert_eq!(arrays[0].as_slice().unwrap(), &ramp(96)[..]);
    let mut floats = [vec![0f32; 96]];
    let e = plan.execute_frames(floats.iter_mut()).unwrap_err();
    assert!(
        matches!(&e, DwtError::Frame { index: Some(0), count: 1, error, .. }
            if matches!(**error, DwtError::ElementMismatch { .. })),
        "{e:?}"
    );
    assert_eq!(backend.prepared_runs.load(Ordering::SeqCst), 0);
}

/// A backend failing at the third of five frames: the error says frames 0 and 1 are transformed,
/// frame 2 may be partly, and frames 3 and 4 are untouched, which is what they are; one that
/// panics (at its second frame) is an error of the batch as a whole, saying every frame may be
/// partly transformed.
#[test]
fn a_failure_part_way_through_frames_names_what_each_was_left_as() {
    let calls = AtomicUsize::new(0);
    let backend = Scripted {
        name: "fails-at-the-third",
        run: |data: Samples| {
            let Samples::I32(frame) = data else {
                unreachable!("i32 plans only")
            };
            frame.fill(7);
            match calls.fetch_add(1, Ordering::SeqCst) {
                0 | 1 => Ok(()),
                _ => Err(DwtError::Device {
                    backend: "fails-at-the-third".into(),
                    message: "the device went away".into(),
                }),
            }
        },
        prepare: || Ok(Prepared::default()),
    };
    let plan = Plan::builder(&backend, legall(), &[16]).build().unwrap();
    let mut frames = vec![ramp(16); 5];
    let e = plan.execute_frames(frames.iter_mut()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "frame 2 (counting from 0) of 5 failed: backend `fails-at-the-third` failed while running: the device went away; frames 0 to 1 are transformed, frame 2 is possibly partly transformed, frames 3 to 4 are untouched"
    );
    assert_eq!(frames[..3], vec![vec![7; 16]; 3]);
    assert_eq!(frames[3..], vec![ramp(16); 2]);

    let calls = AtomicUsize::new(0);
    let panicking = Scripted {
        name: "panicking",
        run: |_: Samples| match calls.fetch_add(1, Ordering::SeqCst) {
            0 => Ok(()),
            _ => panic!("run exploded"),
        },
        prepare: || Ok(Prepared::default()),
    };
    let plan = Plan::builder(&panicking, legall(), &[16]).build().unwrap();
    let e = plan
        .execute_frames([&mut ramp(16)[..], &mut ramp(16)[..]])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "a batch of 2 frames failed: backend `panicking` failed while running: it panicked while transforming frames: run exploded; frames 0 to 1 are possibly partly transformed"
    );
}

/// A plan that checks for NaN and infinity checks each frame as `execute` does: a NaN in the
/// second frame stops the batch there, the first transformed, the second as it was (the inner
/// error says so), the third untouched.
#[test]
fn frames_checked_for_nan_stop_at_the_first_that_holds_one() {
    let cdf53 = dwt_catalogue::by_name("Cdf53").unwrap();
    let plan = Plan::builder(&CpuBackend, cdf53, &[4, 8])
        .element(ElementType::F32)
        .check_finite(true)
        .build()
        .unwrap();
    let input: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let mut frames = vec![input.clone(), input.clone(), input.clone()];
    frames[1][5] = f32::NAN;
    let before = frames.clone();
    let e = plan.execute_frames(frames.iter_mut()).unwrap_err();
    assert!(
        matches!(&e, DwtError::Frame { index: Some(1), count: 3, error, .. }
            if matches!(**error, DwtError::NonFiniteInput { index: 5, .. })),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with(
            "(the data is untouched); frame 0 is transformed, frames 1 to 2 are untouched"
        ),
        "{e}"
    );
    let mut expected = input.clone();
    plan.execute(&mut expected).unwrap();
    assert_eq!(frames[0], expected);
    let bits = |f: &[f32]| f.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&frames[1]), bits(&before[1]));
    assert_eq!(frames[2], input);
}

/// A user's prepared transform reporting more frames than the batch holds (a mistake of its
/// own) gives an error saying every frame may be partly transformed, not a panic; the frame it
/// names is dropped when it is past the batch.
#[test]
fn a_backend_reporting_frames_past_the_batch_is_an_error() {
    struct Overcounting;
    impl PreparedTransform for Overcounting {
        fn run(&self, _: Samples) -> Result<(), DwtError> {
            Ok(())
        }
        fn run_frames(&self, _: Vec<Samples>) -> Result<(), FrameFailure> {
            Err(FrameFailure {
                transformed: 3,
                touched: 1,
                failed: Some(7),
                error: DwtError::Device {
                    backend: "overcounting".into(),
                    message: "lost count".into(),
                },
            })
        }
    }
    let backend = Scripted {
        name: "overcounting",
        run: |_: Samples| Ok(()),
        prepare: || {
            Ok(Prepared {
                report: PrepareReport::default(),
                transform: Some(Box::new(Overcounting)),
            })
        },
    };
    let plan = Plan::builder(&backend, legall(), &[16]).build().unwrap();
    let e = plan
        .execute_frames([&mut ramp(16)[..], &mut ramp(16)[..]])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "a batch of 2 frames failed: backend `overcounting` failed while running: lost count; frames 0 to 1 are possibly partly transformed"
    );
}
